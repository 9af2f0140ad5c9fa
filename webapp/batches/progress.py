"""A batch's progress from its jobs' rows: counts by state, overall percent, finished or not."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from webapp.batches.models import Batch, BatchItem
from webapp.jobs.models import RewriteJob


@dataclass(frozen=True)
class BatchProgress:
    items: list[BatchItem]
    counts: dict[str, int]

    @property
    def total(self) -> int:
        return len(self.items)

    @property
    def finished(self) -> bool:
        return all(item.job.is_finished for item in self.items)

    @property
    def percent(self) -> int:
        if not self.items:
            return 100
        done = sum(1.0 if i.job.is_finished else i.job.progress for i in self.items)
        return round(100 * done / len(self.items))

    @property
    def n_succeeded(self) -> int:
        return self.counts.get(RewriteJob.State.SUCCEEDED, 0)

    @property
    def summary(self) -> str:
        order = [s.value for s in RewriteJob.State]
        parts = [f"{self.counts[s]} {s}" for s in order if self.counts.get(s)]
        return ", ".join(parts)


def batch_progress(batch: Batch) -> BatchProgress:
    items = list(
        batch.items.select_related("job", "job__document", "job__receipt").order_by("position")
    )
    return BatchProgress(items, dict(Counter(item.job.state for item in items)))
