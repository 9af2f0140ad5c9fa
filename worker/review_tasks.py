"""The review's detection pass (cpu queue): find the candidate spans of one document."""

from __future__ import annotations

import logging

from celery import shared_task

from anonymizer import AnonymizerError, Settings
from anonymizer.review import review_candidates
from webapp.jobs import review as reviews
from webapp.jobs.models import Review

log = logging.getLogger(__name__)


@shared_task(name="worker.review_tasks.detect_for_review", acks_late=True)
def detect_for_review(review_id: int) -> None:
    review = (
        Review.objects.select_related("document")
        .filter(pk=review_id, state=Review.State.DETECTING)
        .first()
    )
    if review is None:
        log.info("review %s not waiting for detection", review_id)
        return
    try:
        candidates = review_candidates(review.document.text, Settings.from_mapping(review.settings))
    except AnonymizerError as exc:
        reviews.fail_review(review_id, str(exc))
        return
    except Exception as exc:  # a review must end with a reason, never stay "detecting"
        log.exception("review %s crashed", review_id)
        reviews.fail_review(review_id, f"Internal error while detecting ({type(exc).__name__}).")
        return
    reviews.record_candidates(review_id, candidates)
    log.info("review %s: %d candidate spans", review_id, len(candidates))
