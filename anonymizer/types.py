"""The library's contracts (DESIGN.md): detections, output spans, receipts, results, protocols.

Receipt extends DESIGN.md's field list with `metric_unit`, `detector`, `statement` and
`details` (mechanism-specific facts such as token counts), so one JSON shape serves every
mechanism. Detection adds `rule_id` (which regex rule fired, for `--list-rules` and review);
its `source` may also be "deny-list" or "propagation" (another mention of a detected name).
Span adds `source`, the detector (or "review") that marked a PII span, for the result page.
Mechanism adds `plan()`, the model-free preview that `anonymizer.plan()` and the web form use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from anonymizer.settings import Settings

ProgressCallback = Callable[[float, str], None]


@dataclass(frozen=True)
class Detection:
    """A PII span found by a detector (character offsets into the original text)."""

    start: int
    end: int
    category: str
    placeholder: str
    source: str
    score: float = 1.0
    rule_id: str | None = None

    def overlaps(self, other: Detection) -> bool:
        return self.start < other.end and other.start < self.end


class Detector(Protocol):
    name: str

    def detect(self, text: str) -> list[Detection]: ...


@dataclass(frozen=True)
class Span:
    """One piece of the output, in order."""

    text: str
    is_pii: bool
    category: str | None = None
    placeholder: str | None = None
    rewritten: str | None = None
    chunk_idx: int | None = None
    source: str | None = None  # which detector (or review) marked a PII span

    @property
    def output_text(self) -> str:
        if self.is_pii and self.placeholder is not None:
            return self.placeholder
        return self.rewritten if self.rewritten is not None else self.text


@dataclass(frozen=True)
class Receipt:
    """The privacy receipt; JSON-serialisable; never claims more than the mechanism gives."""

    mechanism: str
    notion: str
    composition: str | None
    epsilon_total: float | None
    delta_total: float | None
    n_chunks: int
    epsilon_per_chunk: float | None
    delta_per_chunk: float | None
    rho: float | None
    sigma: float | None
    sensitivity: float | None
    clip_radius: float | None
    metric_unit: float | None
    models: dict[str, str]
    seeded: bool
    caveats: list[str]
    created_at: str
    software_version: str
    input_sha256: str
    detector: str | None = None
    statement: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Receipt:
        return cls(**data)


@dataclass(frozen=True)
class RewriteResult:
    original: str
    output: str
    spans: list[Span]
    receipt: Receipt

    @property
    def n_chunks(self) -> int:
        return self.receipt.n_chunks

    @property
    def sigma(self) -> float | None:
        return self.receipt.sigma

    @property
    def epsilon_per_chunk(self) -> float | None:
        return self.receipt.epsilon_per_chunk

    @property
    def delta_per_chunk(self) -> float | None:
        return self.receipt.delta_per_chunk


class Mechanism(Protocol):
    name: str

    def rewrite(
        self, text: str, settings: Settings, progress: ProgressCallback | None = None
    ) -> RewriteResult: ...

    def rewrite_many(
        self, texts: list[str], settings: Settings, progress: ProgressCallback | None = None
    ) -> list[RewriteResult]: ...

    def plan(self, text: str, settings: Settings) -> RewriteResult: ...
