"""Check the per-user receipt hash chains (tamper evidence).

Each receipt stores SHA-256(canonical JSON of its payload, the previous receipt's hash, its
job and owner) and the previous receipt's hash. Walking each user's receipts in the order
`complete_job` chains them (created_at, pk), the first receipt whose stored hash does not
match its contents, or whose link does not match the receipt before it, is the first
broken link. Editing a payload breaks its own hash; editing a payload and re-hashing it, or
deleting a receipt, breaks the next link. Rewriting a user's newest receipt together with its
hash cannot be detected from inside the database: keep an external copy of the chain heads
(`verify_receipts --heads`) to catch that.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby

from webapp.jobs.models import Receipt
from webapp.jobs.services import receipt_hash


@dataclass(frozen=True)
class BrokenLink:
    receipt_id: int
    job_id: int
    owner_id: int
    username: str
    created_at: datetime
    position: int  # 1-based position in the user's chain
    reason: str

    def __str__(self) -> str:
        return (
            f"receipt {self.receipt_id} (job {self.job_id}, user {self.username}, "
            f"#{self.position} in the chain, {self.created_at:%Y-%m-%d %H:%M:%S}): {self.reason}"
        )


@dataclass(frozen=True)
class ChainHead:
    owner_id: int
    username: str
    length: int
    sha256: str


@dataclass(frozen=True)
class ChainReport:
    n_receipts: int
    n_chains: int
    broken: list[BrokenLink] = field(default_factory=list)  # the first break of each chain
    heads: list[ChainHead] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.broken

    @property
    def first_broken(self) -> BrokenLink | None:
        """The earliest broken link over all users."""
        return min(self.broken, key=lambda b: (b.created_at, b.receipt_id), default=None)


def verify_receipt_chains(owner_id: int | None = None) -> ChainReport:
    """Recompute every receipt hash and link; report the first break of each user's chain."""
    receipts = Receipt.objects.select_related("owner").order_by("owner_id", "created_at", "pk")
    if owner_id is not None:
        receipts = receipts.filter(owner_id=owner_id)
    n_receipts = 0
    broken: list[BrokenLink] = []
    heads: list[ChainHead] = []
    for owner, chain in groupby(receipts.iterator(), key=lambda r: r.owner_id):
        previous = ""
        found: BrokenLink | None = None
        length = 0
        last = None
        for position, receipt in enumerate(chain, start=1):
            length, last = position, receipt
            reason = _problem(receipt, previous)
            if reason and found is None:
                found = BrokenLink(
                    receipt_id=receipt.pk,
                    job_id=receipt.job_id,
                    owner_id=owner,
                    username=receipt.owner.get_username(),
                    created_at=receipt.created_at,
                    position=position,
                    reason=reason,
                )
            previous = receipt.sha256
        n_receipts += length
        if found is not None:
            broken.append(found)
        if last is not None:
            heads.append(ChainHead(owner, last.owner.get_username(), length, last.sha256))
    return ChainReport(n_receipts=n_receipts, n_chains=len(heads), broken=broken, heads=heads)


def _problem(receipt: Receipt, previous_sha256: str) -> str | None:
    if receipt.prev_sha256 != previous_sha256:
        return (
            "its link does not match the receipt before it (stored previous hash "
            f"{receipt.prev_sha256[:12] or '(none)'}…, chain has {previous_sha256[:12] or '(none)'}"
            "…): a receipt before it was removed, re-hashed or inserted"
        )
    expected = receipt_hash(receipt.payload, receipt.prev_sha256, receipt.job_id, receipt.owner_id)
    if expected != receipt.sha256:
        return (
            f"its contents do not match its stored SHA-256 ({receipt.sha256[:12]}…; contents "
            f"hash to {expected[:12]}…): the stored receipt was altered"
        )
    return None
