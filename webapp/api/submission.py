"""API input through the page's own SubmitForm, so the API accepts and refuses exactly what the
form does (document checks, the registry's parameters, Settings validation)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile

from anonymizer import list_mechanisms
from webapp.jobs.forms import SubmitForm
from webapp.jobs.models import RewriteJob
from webapp.jobs.submission import SubmissionRefused, submit_form


class Refused(Exception):
    """A request the API answers with an error body: status, message and per-field errors."""

    def __init__(self, status: int, detail: str, errors: dict[str, list[str]] | None = None):
        super().__init__(detail)
        self.status, self.detail, self.errors = status, detail, errors or {}


def bound_form(  # type: ignore[no-untyped-def]
    user,
    settings: dict[str, Any],
    *,
    text: str = "",
    name: str = "",
    document: int | None = None,
    upload: UploadedFile | None = None,
    files=None,
    for_preview: bool = False,
    form_class: type[SubmitForm] = SubmitForm,
    form_kwargs: dict[str, Any] | None = None,
    problems: Callable[[Any], dict[str, list[str]]] = lambda form: {},
) -> SubmitForm:
    """A validated form (the submit form, or a subclass such as the batch form), or
    Refused(422) with the form's errors keyed by field."""
    mechanism = settings.get("mechanism")
    names = [m.name for m in list_mechanisms()]
    if mechanism not in names:
        problem = "is required" if not mechanism else f"{mechanism!r} is not a mechanism"
        raise Refused(
            422,
            f"settings.mechanism {problem}; choose one of {', '.join(names)}.",
            {"mechanism": [f"choose one of {', '.join(names)}"]},
        )
    fields = SubmitForm(initial={"mechanism": settings.get("mechanism")}, user=user).fields
    data: dict[str, Any] = {"name": name, "text": text}
    if document is not None:
        data["document"] = str(document)
    # A setting left out takes the default the page shows preselected.
    for key, field in fields.items():
        if key not in SubmitForm.DOCUMENT_FIELDS and field.initial is not None:
            data[key] = _form_value(field.initial, field)
    for key, value in settings.items():
        if value is not None:
            data[key] = _form_value(value, fields.get(key))
    form = form_class(
        data,
        files if files is not None else ({"file": upload} if upload else {}),
        user=user,
        for_preview=for_preview,
        **(form_kwargs or {}),
    )
    unknown = sorted(set(settings) - set(form.fields) - {"mechanism"} | _document_keys(settings))
    if unknown:
        takes = ", ".join(n for n in form.fields if n not in form_class.DOCUMENT_FIELDS)
        raise Refused(
            422,
            f"Unknown setting(s) for {form.info.name}: {', '.join(unknown)}. It takes: {takes}.",
            {"settings": [f"unknown: {', '.join(unknown)}"]},
        )
    if not form.is_valid():
        errors = {
            ("non_field" if field == "__all__" else field): list(messages)
            for field, messages in form.errors.items()
        }
        for field, extra in problems(form).items():
            errors[field] = [*errors.get(field, []), *extra]
        first_field, first = next(iter(errors.items()))
        raise Refused(422, f"{first_field}: {first[0]}", errors)
    return form


def parse_settings(raw: str) -> dict[str, Any]:
    """The `settings` form field of a multipart request: a JSON object."""
    try:
        settings = json.loads(raw or "{}")
    except ValueError as exc:
        raise Refused(
            422, f"settings is not valid JSON ({exc}).", {"settings": [str(exc)]}
        ) from None
    if not isinstance(settings, dict):
        raise Refused(422, "settings must be a JSON object.", {"settings": ["not an object"]})
    return settings


def _document_keys(settings: dict[str, Any]) -> set[str]:
    return set(settings) & {"name", "text", "file", "files", "document"}


def _form_value(value: Any, field: forms.Field | None) -> Any:
    """A JSON value as the form's widget reads it: a list stays a list for a multiple choice
    and becomes lines for a text area (allow/deny lists)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, list | tuple):
        items = [str(v) for v in value]
        return items if isinstance(field, forms.MultipleChoiceField) else "\n".join(items)
    return str(value)


def submit(user, form: SubmitForm) -> RewriteJob:  # type: ignore[no-untyped-def]
    """Plan (bounded), reserve budget and queue the job, exactly as the submit page does."""
    try:
        return submit_form(user, form)
    except SubmissionRefused as exc:
        raise Refused(409 if exc.over_budget else 422, str(exc)) from None
