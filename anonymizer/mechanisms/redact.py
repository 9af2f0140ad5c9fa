"""Placeholder redaction: replace detected spans, keep everything else. No formal guarantee."""

from __future__ import annotations

from anonymizer.mechanisms.base import (
    Plan,
    SequentialBatchMixin,
    detect_and_segment,
    report,
    spans_from_pieces,
    stitch,
)
from anonymizer.receipts import NO_GUARANTEE_CAVEAT, build_receipt
from anonymizer.registry import MechanismInfo, register
from anonymizer.settings import Settings
from anonymizer.types import Detection, ProgressCallback, Receipt, RewriteResult

NAME = "redact"


class RedactMechanism(SequentialBatchMixin):
    name = NAME

    def rewrite(
        self,
        text: str,
        settings: Settings,
        progress: ProgressCallback | None = None,
        *,
        gold: list[Detection] | None = None,
    ) -> RewriteResult:
        report(progress, 0.0, "detecting")
        plan = self.plan(text, settings, gold=gold)
        report(progress, 1.0, "done")
        return RewriteResult(text, stitch(plan.spans), plan.spans, plan.receipt)

    def plan(self, text: str, settings: Settings, *, gold: list[Detection] | None = None) -> Plan:
        pieces = detect_and_segment(text, settings, gold=gold)
        spans = spans_from_pieces(pieces, numbered=False)
        return Plan(text, spans, self._receipt(text, settings, spans))

    def _receipt(self, text: str, settings: Settings, spans: list) -> Receipt:
        counts: dict[str, int] = {}
        for span in spans:
            if span.is_pii:
                counts[span.category] = counts.get(span.category, 0) + 1
        return build_receipt(
            mechanism=NAME,
            settings=settings,
            text=text,
            notion="none",
            statement="Placeholder redaction only: detected PII spans were replaced by "
            "category placeholders and all other text was released unchanged. This carries "
            "no formal privacy guarantee.",
            caveats=[NO_GUARANTEE_CAVEAT],
            details={"redacted_spans": sum(counts.values()), "redacted_by_category": counts},
        )


register(
    MechanismInfo(
        name=NAME,
        title="Placeholder redaction",
        guarantee="none (heuristic)",
        description="Replaces detected PII with placeholders such as [EMAIL]; the rest of "
        "the text is unchanged. Fast, but no formal guarantee.",
        parameters=(
            "detector",
            "whitelist_categories",
            "allow_list",
            "deny_list",
            "operator",
            "mask_keep_length",
            "fake_locale",
        ),
        factory=RedactMechanism,
    )
)
