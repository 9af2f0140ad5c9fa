"""Views of the review flow, the restore page and the original-format download.

Every form is a plain POST with a redirect back (works without JavaScript); with HTMX the
same endpoints return the review body fragment instead.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from anonymizer.detection.categories import CATEGORIES
from anonymizer.review import ACCEPT, REJECT, is_accepted
from webapp.jobs import review as reviews
from webapp.jobs.mappings import MappingUnavailable, restore_for_job
from webapp.jobs.models import OutputFile, ReplacementMapping, Review, RewriteJob
from webapp.jobs.presentation import paginate, review_segments, source_label, split_lines
from webapp.ledger.services import BudgetExceeded


def _get_review_for_user(request: HttpRequest, review_id: int) -> Review:
    return get_object_or_404(
        Review.objects.select_related("document", "job").filter(owner=request.user), pk=review_id
    )


def _page_number(request: HttpRequest) -> int:
    raw = request.POST.get("page") or request.GET.get("page") or "1"
    return int(raw) if raw.isdecimal() else 1


def review_context(review: Review, page: int = 1) -> dict:
    context: dict = {"review": review, "categories": CATEGORIES}
    if review.state != Review.State.READY or review.document.is_purged:
        return context
    text = review.document.text
    candidates = reviews.candidates_of(review)
    decisions = reviews.decisions_of(review)
    added = reviews.added_of(review)
    segments = review_segments(text, candidates, decisions, added, review.threshold)
    shown = paginate(split_lines(segments), page)
    first, last = shown.offsets
    rows = []
    for i, c in enumerate(candidates):
        if not first <= c.start < last:
            continue  # the list follows the page of text (long documents)
        decision = decisions.get(i)
        rows.append(
            {
                "index": i,
                "text": text[c.start : c.end],
                "category": c.category,
                "score": c.score,
                "source": source_label(c.source, c.rule_id),
                "accepted": is_accepted(c, decision, review.threshold),
                "decided": decision is not None,
            }
        )
    final = reviews.reviewed_spans(review)
    context.update(
        page=shown,
        rows=rows,
        added_rows=[
            {"index": i, "text": text[a.start : a.end], "category": a.category}
            for i, a in enumerate(added)
        ],
        n_final=len(final),
        n_kept=sum(
            1
            for i, c in enumerate(candidates)
            if not is_accepted(c, decisions.get(i), review.threshold)
        ),
    )
    return context


@login_required
def review_detail(request: HttpRequest, review_id: int) -> HttpResponse:
    review = _get_review_for_user(request, review_id)
    if review.state == Review.State.APPLIED and review.job_id:
        return redirect("job_detail", job_id=review.job_id)
    return render(request, "jobs/review.html", review_context(review, _page_number(request)))


@login_required
def review_status(request: HttpRequest, review_id: int) -> HttpResponse:
    """Polled while the detection pass runs; refreshes the page once it is done."""
    review = _get_review_for_user(request, review_id)
    response = render(request, "jobs/review.html#status", review_context(review))
    if review.state != Review.State.DETECTING and request.htmx:
        response["HX-Refresh"] = "true"
    return response


def _after_change(request: HttpRequest, review: Review) -> HttpResponse:
    page = _page_number(request)
    if request.htmx:
        review.refresh_from_db()
        return render(request, "jobs/review.html#body", review_context(review, page))
    return redirect(
        reverse("review_detail", args=[review.pk]) + (f"?page={page}" if page > 1 else "")
    )


def _run(request: HttpRequest, review: Review, action) -> HttpResponse:  # type: ignore[no-untyped-def]
    try:
        action()
    except (reviews.ReviewError, KeyError) as exc:
        message = str(exc) if isinstance(exc, reviews.ReviewError) else "Unknown category."
        if request.htmx:
            context = review_context(review, _page_number(request))
            context["action_error"] = message
            return render(request, "jobs/review.html#body", context)
        messages.error(request, message)
    return _after_change(request, review)


@login_required
@require_POST
def review_decide(request: HttpRequest, review_id: int) -> HttpResponse:
    """Accept/reject/reset one span or every span of its string; `toggle` flips one span."""
    review = _get_review_for_user(request, review_id)
    post = request.POST

    def act() -> None:
        if post.get("toggle", "").isdecimal():
            index = int(post["toggle"])
            candidates = reviews.candidates_of(review)
            if not 0 <= index < len(candidates):
                raise reviews.ReviewError("Unknown span.")
            decision = reviews.decisions_of(review).get(index)
            accepted = is_accepted(candidates[index], decision, review.threshold)
            reviews.decide(review, index, REJECT if accepted else ACCEPT)
            return
        index = post.get("index", "")
        if not index.isdecimal():
            raise reviews.ReviewError("Unknown span.")
        reviews.decide(
            review,
            int(index),
            post.get("decision", ""),
            every_occurrence=post.get("scope") == "string",
        )

    return _run(request, review, act)


@login_required
@require_POST
def review_add(request: HttpRequest, review_id: int) -> HttpResponse:
    """Mark a missed string: typed (every occurrence) or selected (with its offset)."""
    review = _get_review_for_user(request, review_id)
    post = request.POST
    start = post.get("start", "")

    def act() -> None:
        needle = post.get("text", "")
        if not needle.strip():
            raise reviews.ReviewError("Type or select the text to mark.")
        reviews.add_string(
            review,
            needle,
            post.get("category", ""),
            start=int(start) if start.isdecimal() else None,
            every_occurrence=post.get("every") == "1" or not start.isdecimal(),
        )

    return _run(request, review, act)


@login_required
@require_POST
def review_remove_added(request: HttpRequest, review_id: int) -> HttpResponse:
    review = _get_review_for_user(request, review_id)
    index = request.POST.get("index", "")
    return _run(
        request,
        review,
        lambda: reviews.remove_added(review, int(index) if index.isdecimal() else -1),
    )


@login_required
@require_POST
def review_threshold(request: HttpRequest, review_id: int) -> HttpResponse:
    review = _get_review_for_user(request, review_id)

    def act() -> None:
        try:
            value = float(request.POST.get("threshold", ""))
        except ValueError:
            raise reviews.ReviewError("The threshold must be a number between 0 and 1.") from None
        reviews.set_threshold(review, value)

    return _run(request, review, act)


@login_required
@require_POST
def review_apply(request: HttpRequest, review_id: int) -> HttpResponse:
    review = _get_review_for_user(request, review_id)
    try:
        job = reviews.apply_review(review)
    except (reviews.ReviewError, BudgetExceeded) as exc:
        messages.error(request, str(exc))
        return redirect("review_detail", review_id=review.pk)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("job_detail", args=[job.pk])
        return response
    return redirect("job_detail", job_id=job.pk)


# --- restore and the original-format download ---------------------------------------------


def _get_job_for_user(request: HttpRequest, job_id: int) -> RewriteJob:
    return get_object_or_404(
        RewriteJob.objects.select_related("document").filter(owner=request.user), pk=job_id
    )


@login_required
def restore(request: HttpRequest, job_id: int) -> HttpResponse:
    """Paste text that came back (an assistant's answer) and get the originals put back."""
    job = _get_job_for_user(request, job_id)
    mapping = ReplacementMapping.objects.filter(job=job, owner=request.user).first()
    context: dict = {"job": job, "mapping": mapping, "pasted": "", "restored": None}
    if request.method == "POST":
        context["pasted"] = request.POST.get("text", "")[:200_000]
        try:
            context["restored"] = restore_for_job(job, context["pasted"])
        except MappingUnavailable as exc:
            context["error"] = str(exc)
    template = "jobs/restore.html#result" if request.htmx else "jobs/restore.html"
    return render(request, template, context)


@login_required
def download_original_format(request: HttpRequest, job_id: int) -> HttpResponse:
    from webapp.jobs.downloads import file_stem

    job = _get_job_for_user(request, job_id)
    output = OutputFile.objects.filter(job=job).first()
    if output is None:
        return HttpResponse(
            "This job has no output in the original format.", status=409, content_type="text/plain"
        )
    response = HttpResponse(bytes(output.data), content_type=output.content_type)
    filename = f"{file_stem(job)}-anonymized.{output.extension}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
