"""The batch form: the submit form's mechanism and settings, with several files (or one .zip)
in place of the single document."""

from __future__ import annotations

from django import forms
from django.conf import settings

from webapp.batches.archives import BatchError, batch_uploads
from webapp.batches.models import Batch
from webapp.batches.services import (
    BatchDocument,
    UnreadableDocuments,
    read_documents,
    submit_batch,
)
from webapp.jobs.forms import SubmitForm


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several uploaded files; each is checked by the batch reader, not here."""

    def __init__(self, **kwargs) -> None:  # type: ignore[no-untyped-def]
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ".txt,.md,.docx,.pdf,.zip"}))
        super().__init__(required=False, **kwargs)

    def clean(self, data, initial=None):  # type: ignore[no-untyped-def]
        return [f for f in (data if isinstance(data, list | tuple) else [data]) if f]


class BatchForm(SubmitForm):
    files = MultipleFileField(
        label="Documents",
        help_text=(
            f"Several .txt, .md, .docx or .pdf files, or one .zip of them; at most "
            f"{settings.BATCH_MAX_DOCUMENTS} documents and "
            f"{settings.BATCH_MAX_TOTAL_BYTES // 1_000_000} MB in all."
        ),
    )
    DOCUMENT_FIELDS = (*SubmitForm.DOCUMENT_FIELDS, "files")
    SINGLE_DOCUMENT_FIELDS = ("text", "file", "document")

    def __init__(self, *args, upload_refusal: str | None = None, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        for name in self.SINGLE_DOCUMENT_FIELDS:
            self.fields.pop(name, None)
        self.fields["name"].label = "Batch name"
        self.fields["name"].help_text = "Optional; defaults to the first file's name."
        self.upload_refusal = upload_refusal
        self.documents: list[BatchDocument] = []
        self.problems: list[str] = []

    @property
    def document_fields(self) -> list[forms.BoundField]:
        return [self["name"], self["files"]]

    def submit(self) -> Batch:
        """Queue the batch this valid form describes (the page and the API alike); raises
        ledger.BudgetExceeded when it does not fit."""
        return submit_batch(
            self.user,
            name=self.cleaned_data.get("name", ""),
            documents=self.documents,
            rewrite_settings=self.rewrite_settings,
            pseudonym_set=self.cleaned_data.get("pseudonym_set", ""),
        )

    def _clean_document(self, data: dict) -> None:
        if self.upload_refusal:
            self.add_error("files", self.upload_refusal)
            return
        files = self.files.getlist("files") if hasattr(self.files, "getlist") else []
        try:
            uploads = batch_uploads([(f.name, f.read()) for f in files])
            self.documents = read_documents(uploads)
        except UnreadableDocuments as exc:
            self.problems = exc.problems
            self.add_error(
                "files",
                f"{len(exc.problems)} of the documents cannot be read, so nothing was "
                "submitted; fix or leave out these and try again:",
            )
        except BatchError as exc:
            self.add_error("files", str(exc))
