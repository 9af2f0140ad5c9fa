"""The review lifecycle: start (detection pass on the worker), decide, add, threshold, apply.

A review exists before its job: budget is reserved only when the reviewer applies, and the
job it creates runs with `detector="gold"` on exactly the reviewed spans.
"""

from __future__ import annotations

import logging
from dataclasses import asdict

from django.db import transaction
from django.utils import timezone

from anonymizer import Settings
from anonymizer.api import plan
from anonymizer.detection.categories import placeholder_for
from anonymizer.review import (
    ACCEPT,
    REJECT,
    ReviewSummary,
    added_span,
    final_spans,
    occurrences,
    reviewed_settings,
    summarise_review,
)
from anonymizer.types import Detection
from webapp.jobs import services
from webapp.jobs.models import Document, Review, RewriteJob

log = logging.getLogger(__name__)
DETECT_TASK = "worker.review_tasks.detect_for_review"
DETECT_QUEUE = "cpu"
State = Review.State


class ReviewError(ValueError):
    """A review action that cannot be done (wrong state, a string not in the text)."""


def enqueue_detection(review_id: int) -> None:
    from worker.celery_app import app

    app.send_task(DETECT_TASK, args=[review_id], queue=DETECT_QUEUE)


def start_review(  # type: ignore[no-untyped-def]
    user, document: Document, chosen: Settings, *, pseudonym_set_name: str = ""
) -> Review:
    """Store a review of the user's document and ring the worker after commit."""
    if document.owner_id != user.pk:
        raise PermissionError("document belongs to another user")
    with transaction.atomic():
        review = Review.objects.create(
            owner=user,
            document=document,
            settings=chosen.to_dict(),
            pseudonym_set_name=pseudonym_set_name,
        )
        transaction.on_commit(lambda: enqueue_detection(review.pk))
    log.info("review %s queued (doc=%s)", review.pk, document.pk)
    return review


def start_review_from_form(user, form) -> Review:  # type: ignore[no-untyped-def]
    """A review of the submit form's document (stored now, with its uploaded file)."""
    with transaction.atomic():
        document = form.existing_document or services.create_document(
            user,
            name=form.cleaned_data["name"],
            text=form.document_text,
            source=form.document_source,
            original_file=form.original_file,
        )
        return start_review(
            user,
            document,
            form.rewrite_settings,
            pseudonym_set_name=form.cleaned_data.get("pseudonym_set", ""),
        )


def attach_pseudonym_set(job: RewriteJob, name: str) -> None:
    """Share numbering and fakes with the user's other documents of that name."""
    from webapp.jobs.mappings import pseudonym_set_for

    pseudonym_set = pseudonym_set_for(job.owner, name or "")
    if pseudonym_set is not None:
        RewriteJob.objects.filter(pk=job.pk).update(pseudonym_set=pseudonym_set)


def record_candidates(review_id: int, candidates: list[Detection]) -> None:
    Review.objects.filter(pk=review_id, state=State.DETECTING).update(
        state=State.READY,
        candidates=[asdict(c) for c in candidates],
        detected_at=timezone.now(),
    )


def fail_review(review_id: int, reason: str) -> None:
    Review.objects.filter(pk=review_id, state=State.DETECTING).update(
        state=State.FAILED, error=reason[:2000]
    )


# --- reading a review -------------------------------------------------------------------


def candidates_of(review: Review) -> list[Detection]:
    return [Detection(**c) for c in review.candidates]


def added_of(review: Review) -> list[Detection]:
    return [Detection(**a) for a in review.added]


def decisions_of(review: Review) -> dict[int, str]:
    return {int(k): v for k, v in review.decisions.items()}


def chosen_settings(review: Review) -> Settings:
    return Settings.from_mapping(review.settings)


def reviewed_spans(review: Review) -> list[Detection]:
    """Exactly the spans the rewrite replaces."""
    return final_spans(
        candidates_of(review), decisions_of(review), added_of(review), review.threshold
    )


def summary_of(review: Review, reviewer: str) -> ReviewSummary:
    return summarise_review(
        review.document.text,
        candidates_of(review),
        decisions_of(review),
        added_of(review),
        review.threshold,
        reviewer=reviewer,
        detector=chosen_settings(review).detector,
    )


# --- changing a review ------------------------------------------------------------------


def _editable(review: Review) -> None:
    if review.state != State.READY:
        raise ReviewError(f"This review is {review.state}; it can no longer be changed.")
    if review.document.is_purged:
        raise ReviewError("The original was deleted; this review cannot go on.")


def decide(review: Review, index: int, decision: str, *, every_occurrence: bool = False) -> int:
    """Accept, reject or reset (`""`) one candidate, or every candidate with the same string;
    returns how many candidates changed."""
    _editable(review)
    candidates = candidates_of(review)
    if not 0 <= index < len(candidates) or decision not in (ACCEPT, REJECT, ""):
        raise ReviewError("Unknown span or decision.")
    text = review.document.text
    targets = [index]
    if every_occurrence:
        key = _key(text, candidates[index])
        targets = [i for i, c in enumerate(candidates) if _key(text, c) == key]
    decisions = dict(review.decisions)
    for i in targets:
        if decision:
            decisions[str(i)] = decision
        else:
            decisions.pop(str(i), None)
    review.decisions = decisions
    review.save(update_fields=["decisions"])
    return len(targets)


def _key(text: str, detection: Detection) -> str:
    return " ".join(text[detection.start : detection.end].split()).casefold()


def add_string(
    review: Review,
    needle: str,
    category: str,
    *,
    start: int | None = None,
    every_occurrence: bool = True,
) -> int:
    """Mark a string the detector missed: the occurrence at `start` (a selection) and, by
    default, every other whole-word occurrence; returns how many spans were added."""
    _editable(review)
    placeholder_for(category)  # KeyError for unknown categories
    text = review.document.text
    found = occurrences(text, needle)
    if start is not None:
        exact = needle.strip()
        at = text.find(exact, max(0, start - 1))
        if at < 0 or at > start + 1:
            raise ReviewError("The selection does not match the document's text.")
        chosen = [(at, at + len(exact))]
        if every_occurrence:
            chosen += [span for span in found if span[0] != at]
        found = chosen
    elif not every_occurrence:
        found = found[:1]
    if not found:
        raise ReviewError(f"“{needle.strip()[:80]}” does not occur in the document.")
    existing = {(a["start"], a["end"]) for a in review.added}
    new = [added_span(s, e, category) for s, e in found if (s, e) not in existing]
    review.added = [*review.added, *(asdict(d) for d in new)]
    review.save(update_fields=["added"])
    return len(new)


def remove_added(review: Review, index: int) -> None:
    _editable(review)
    if not 0 <= index < len(review.added):
        raise ReviewError("Unknown added span.")
    review.added = [a for i, a in enumerate(review.added) if i != index]
    review.save(update_fields=["added"])


def set_threshold(review: Review, threshold: float) -> None:
    _editable(review)
    if not 0.0 <= threshold <= 1.0:
        raise ReviewError("The threshold must lie between 0 and 1.")
    review.threshold = threshold
    review.save(update_fields=["threshold"])


def apply_review(review: Review) -> RewriteJob:
    """Create the job that rewrites with exactly the reviewed spans (reserving its budget)."""
    _editable(review)
    spans = reviewed_spans(review)
    rewrite_settings = reviewed_settings(chosen_settings(review))
    planned = plan(review.document.text, rewrite_settings, gold=spans).receipt
    with transaction.atomic():
        locked = Review.objects.select_for_update().get(pk=review.pk)
        if locked.state != State.READY:
            raise ReviewError("This review was applied already.")
        job = services.submit_job(review.owner, review.document, rewrite_settings, planned=planned)
        attach_pseudonym_set(job, review.pseudonym_set_name)
        Review.objects.filter(pk=review.pk).update(
            state=State.APPLIED, job=job, applied_at=timezone.now()
        )
    log.info("review %s applied as job %s (%d spans)", review.pk, job.pk, len(spans))
    return job


def golds_for(jobs: list[RewriteJob], rewrite_settings: Settings) -> dict:
    """`rewrite_many` keyword arguments carrying each reviewed job's spans."""
    if rewrite_settings.detector != "gold":
        return {}
    reviews = {r.job_id: r for r in Review.objects.filter(job__in=jobs).select_related("document")}
    return {"golds": [reviewed_spans(reviews[j.pk]) if j.pk in reviews else [] for j in jobs]}
