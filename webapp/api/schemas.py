"""Request and response shapes of the API (they are also the OpenAPI schema)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ninja import Field, Schema


class Error(Schema):
    detail: str
    errors: dict[str, list[str]] = Field(
        default_factory=dict, description="Messages per field; `non_field` for the whole request."
    )


class SubmitIn(Schema):
    text: str = Field("", description="The document, pasted (or give `document`).")
    document: int | None = Field(
        None, description="Instead of text: the id of one of your stored documents to run again."
    )
    name: str = Field("", description="Document name; defaults to its first line.")
    settings: dict[str, Any] = Field(
        default_factory=dict,
        description=(
            "`mechanism` plus that mechanism's parameters (see GET /api/mechanisms), "
            'e.g. {"mechanism": "redact", "detector": "regex"}.'
        ),
    )


class PlanIn(Schema):
    text: str
    settings: dict[str, Any] = Field(default_factory=dict)


class DocumentOut(Schema):
    id: int
    name: str
    source: str
    n_chars: int
    created_at: datetime
    purged_at: datetime | None


class JobLinks(Schema):
    self: str
    page: str
    output: str
    original_format: str
    restore: str
    spans: str
    receipt: str
    bundle: str
    cancel: str
    delete_original: str


class QueueOut(Schema):
    name: str = Field(description="cpu or gpu")
    ahead: int = Field(description="Queued jobs on this queue that run before this one.")
    running: int = Field(description="Jobs running on this queue now.")
    typical_seconds: float | None = Field(
        description="Median duration of recent jobs of this mechanism."
    )
    wait_seconds: float | None = Field(description="Rough wait until this job starts.")
    wait: str


class JobOut(Schema):
    id: int
    document: DocumentOut
    mechanism: str
    settings: dict[str, Any]
    state: str = Field(description="queued | running | succeeded | failed | cancelled")
    finished: bool
    progress: float = Field(description="0 to 1")
    stage: str
    error: str = Field(description="Why a failed job failed; empty otherwise.")
    cancel_requested: bool
    epsilon: float | None
    delta: float | None
    n_chunks: int | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    queue: QueueOut | None = Field(description="Its place in its queue while it is queued.")
    links: JobLinks


class JobSummary(Schema):
    id: int
    document_name: str
    document_purged: bool
    mechanism: str
    state: str
    epsilon: float | None
    delta: float | None
    n_chunks: int | None
    created_at: datetime
    url: str


class JobPage(Schema):
    count: int
    page: int
    num_pages: int
    next: str | None
    previous: str | None
    results: list[JobSummary]


class SpanOut(Schema):
    text: str | None = Field(description="Original text of this piece; null once deleted.")
    is_pii: bool
    category: str | None
    placeholder: str | None
    rewritten: str | None
    chunk_idx: int | None


class ReceiptOut(Schema):
    job: int
    sha256: str
    prev_sha256: str
    receipt: dict[str, Any]


class BudgetAfterOut(Schema):
    fits: bool
    chargeable: bool
    epsilon_job: float
    epsilon_remaining_after: float | None
    more_like_this: int | None
    message: str
    coverage: str = Field(description="Which releases the spent figure covers and leaves out.")


class PlanOut(Schema):
    receipt: dict[str, Any]
    exact: bool = Field(
        description="false: the text is over the inline planning limit, and the receipt is the "
        "bound its submission is reserved at (one chunk); the worker plans it exactly."
    )
    pii_spans: int | None = Field(description="Detected PII spans; null when not detected here.")
    unavailable: str | None = Field(description="Why the mechanism cannot run here, if it cannot.")
    budget: BudgetAfterOut


class MechanismOut(Schema):
    name: str
    title: str
    guarantee: str
    description: str
    parameters: list[str]
    uses_epsilon: bool
    uses_delta: bool
    needs_gpu: bool
    available: bool
    unavailable_reason: str | None


class BudgetOut(Schema):
    epsilon_cap: float | None = Field(description="null: no cap")
    delta: float = Field(description="The cap's δ; every ε here is at this δ.")
    cap_is_default: bool
    epsilon_spent: float
    epsilon_committed: float = Field(description="Spent plus what queued/running jobs reserve.")
    epsilon_remaining: float | None
    reserved_jobs: int
    noised_releases: int
    coverage: str = Field(
        description="Which releases the ε figures cover (the formally private ones) and which "
        "they leave out (no guarantee, other notions)."
    )
    require_formal_guarantee: bool = Field(
        description="Your cap admits only releases with a formal guarantee."
    )


class BatchItemOut(Schema):
    position: int
    filename: str
    job: int
    state: str
    progress: float
    stage: str
    error: str
    url: str


class BatchOut(Schema):
    id: int
    name: str
    mechanism: str
    settings: dict[str, Any]
    created_at: datetime
    finished: bool
    percent: int = Field(description="0–100 over all documents")
    counts: dict[str, int] = Field(description="documents per job state")
    documents: list[BatchItemOut]
    links: dict[str, str]


class RestoreIn(Schema):
    text: str = Field(
        max_length=200_000,
        description="Text that came back, e.g. an assistant's answer quoting [PERSON_2].",
    )


class RestoreOut(Schema):
    text: str = Field(description="The text with the job's originals put back.")
    replaced: int = Field(description="Occurrences put back.")
    distinct: int = Field(description="Distinct replacements found.")
