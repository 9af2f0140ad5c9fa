"""Submitting what a valid submit form describes: plan with bounded work, reserve budget, queue
the job. The submit page and the JSON API both call this, so they admit and refuse alike."""

from __future__ import annotations

import logging

from django.db import transaction

from webapp.jobs import services
from webapp.jobs.forms import SubmitForm
from webapp.jobs.models import RewriteJob
from webapp.jobs.planning import PLANNING_ERRORS, PlanningError, plan_bounded, planning_message
from webapp.jobs.review import attach_pseudonym_set
from webapp.ledger.services import BudgetExceeded

log = logging.getLogger(__name__)


class SubmissionRefused(Exception):
    """The job was not stored: the settings cannot be planned, or the budget cannot take it."""

    def __init__(self, message: str, *, over_budget: bool = False) -> None:
        super().__init__(message)
        self.over_budget = over_budget


def submit_form(user, form: SubmitForm) -> RewriteJob:  # type: ignore[no-untyped-def]
    """Queue the job of a valid submit form for `user`, or raise SubmissionRefused."""
    try:
        planned = plan_bounded(form.document_text, form.rewrite_settings).receipt
    except PlanningError as exc:
        raise SubmissionRefused(str(exc)) from None
    try:
        with transaction.atomic():  # the set is attached before the worker is rung
            if form.existing_document is not None:
                job = services.submit_job(
                    user, form.existing_document, form.rewrite_settings, planned=planned
                )
            else:
                job = services.submit_text(
                    user,
                    name=form.cleaned_data["name"],
                    text=form.document_text,
                    rewrite_settings=form.rewrite_settings,
                    source=form.document_source,
                    planned=planned,
                    original_file=form.original_file,
                )
            attach_pseudonym_set(job, form.cleaned_data.get("pseudonym_set", ""))
            return job
    except BudgetExceeded as exc:
        raise SubmissionRefused(str(exc), over_budget=True) from None
    except PLANNING_ERRORS as exc:  # the ledger's maths on extreme settings
        log.info("submission refused: %s: %s", type(exc).__name__, exc)
        raise SubmissionRefused(planning_message(exc)) from None
