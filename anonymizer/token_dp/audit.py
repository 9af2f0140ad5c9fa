"""The shipped attack-audit table and the sentence receipts carry about it.

`audit_table.json` is written by `python -m bench.attack_audit` (full run): for each token
mechanism and audited ε, what the strongest attacker achieved on held-out documents (top-1
recovery against the prior's, and how often the attacker's posterior shift exceeded the
receipt's per-token bound, with a 99 % upper bound), and the default ε the audit chose. An
audit is evidence about the attackers that were tried, not a guarantee; receipts say so.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

AUDIT_TABLE = Path(__file__).with_name("audit_table.json")
AUDITED_SETTINGS = {
    "santext": ("candidates_per_category", "sanitize_general_words"),
    "custext": ("candidates_per_category", "n_clusters", "cluster_size", "sanitize_general_words"),
    "clusant": (
        "candidates_per_category",
        "n_clusters",
        "cluster_size",
        "cluster_push",
        "sanitize_general_words",
    ),
}


@cache
def load_audit_table(path: Path = AUDIT_TABLE) -> dict[str, Any] | None:
    """The table, or None when it is missing or unreadable (receipts then say nothing)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


@dataclass(frozen=True)
class AuditEntry:
    """The audit's figures for one mechanism at the audited ε nearest the requested one."""

    mechanism: str
    epsilon: float  # the audited ε
    requested_epsilon: float
    attacker: str
    recovery: float
    prior_recovery: float
    candidates: int
    violation_rate: float
    violation_bound: float
    confidence: float
    date: str
    software_version: str
    settings: dict[str, Any]
    row: dict[str, Any]

    @property
    def exact(self) -> bool:
        return math.isclose(self.epsilon, self.requested_epsilon, rel_tol=1e-9)

    def to_dict(self) -> dict[str, Any]:
        return {
            "audited_epsilon": self.epsilon,
            "requested_epsilon": self.requested_epsilon,
            "attacker": self.attacker,
            "recovery_top1": self.recovery,
            "prior_recovery_top1": self.prior_recovery,
            "candidates_per_record": self.candidates,
            "violation_rate": self.violation_rate,
            "violation_bound": self.violation_bound,
            "confidence": self.confidence,
            "date": self.date,
            "software_version": self.software_version,
            "audited_settings": self.settings,
            "source": "anonymizer/token_dp/audit_table.json (python -m bench.attack_audit)",
        }


def audit_entry(
    mechanism: str, epsilon: float, table: dict[str, Any] | None = None
) -> AuditEntry | None:
    """The figures at the audited ε nearest `epsilon` on a log scale (ties: the larger ε,
    which leaks more); None without a table, for ε = ∞, or for an unaudited mechanism."""
    table = table if table is not None else load_audit_table()
    if table is None or not math.isfinite(epsilon) or epsilon <= 0:
        return None
    rows = table.get("mechanisms", {}).get(mechanism, {}).get("rows", {})
    if not rows:
        return None
    audited = sorted(float(e) for e in rows)
    nearest = min(audited, key=lambda e: (abs(math.log(e / epsilon)), -e))
    row = rows[f"{nearest:g}"]
    return AuditEntry(
        mechanism=mechanism,
        epsilon=nearest,
        requested_epsilon=float(epsilon),
        attacker=row["attacker"],
        recovery=row["recovery"],
        prior_recovery=row["prior_recovery"],
        candidates=int(table["candidate_set_size"]),
        violation_rate=row["violation_rate"],
        violation_bound=row["violation_bound"],
        confidence=float(table["confidence"]),
        date=table["date"],
        software_version=table["software_version"],
        settings=dict(table.get("settings", {})),
        row=row,
    )


def default_epsilon(mechanism: str, table: dict[str, Any] | None = None) -> float | None:
    """The ε the audit chose as this mechanism's default (None without a table)."""
    table = table if table is not None else load_audit_table()
    if table is None:
        return None
    value = table.get("mechanisms", {}).get(mechanism, {}).get("default_epsilon")
    return None if value is None else float(value)


def default_epsilon_reason(mechanism: str, table: dict[str, Any] | None = None) -> str | None:
    """Why the audit chose that default (the targets it met), for forms and listings."""
    table = table if table is not None else load_audit_table()
    if table is None:
        return None
    entry = table.get("mechanisms", {}).get(mechanism, {})
    reason = entry.get("default_reason")
    if reason is None:
        return None
    return f"{reason} (attack audit of {table['date']})"


def _percent(value: float) -> str:
    return f"{100 * value:.1f} %"


def audit_sentence(entry: AuditEntry, settings: Any) -> str:
    """The receipt's audit line: figures, provenance, and that it is evidence only."""
    parts = [
        f"Audited (evidence, not a guarantee): at ε = {entry.epsilon:g} a learned attacker "
        f"({entry.attacker}) that reads whole sanitized documents recovered "
        f"{_percent(entry.recovery)} of strings (prior {_percent(entry.prior_recovery)}, from "
        f"the same documents with placeholders; {entry.candidates} candidates per string); "
        f"mPL above ε in {_percent(entry.violation_rate)} of pairs "
        f"(≤ {_percent(entry.violation_bound)} at {entry.confidence:.0%})."
    ]
    if not entry.exact:
        parts.append(
            f"The chosen ε = {entry.requested_epsilon:g} was not audited; these are the "
            f"figures of the nearest audited ε = {entry.epsilon:g}."
        )
    differing = [
        f"{name} = {getattr(settings, name)!r} (audited {entry.settings.get(name)!r})"
        for name in AUDITED_SETTINGS.get(entry.mechanism, ())
        if name in entry.settings and getattr(settings, name, None) != entry.settings[name]
    ]
    if differing:
        parts.append(
            "The audit used the default candidate sets and clusters; these settings differ, "
            f"so its figures are indicative only: {', '.join(differing)}."
        )
    parts.append(
        f"Audit of {entry.date}, software {entry.software_version} (python -m "
        "bench.attack_audit). An audit reports what the attackers that were tried achieved "
        "on test documents; a stronger attacker or other documents may do better."
    )
    return " ".join(parts)


def audit_summary_line(audit: dict[str, Any]) -> str:
    """The receipt page's one-line audit summary, from a receipt's `details["audit"]`."""
    line = (
        f"Audited at ε = {audit['audited_epsilon']:g} (evidence, not a guarantee): a learned "
        f"attacker recovered {_percent(audit['recovery_top1'])} of strings (prior "
        f"{_percent(audit['prior_recovery_top1'])}); mPL above ε in "
        f"{_percent(audit['violation_rate'])} of pairs (≤ {_percent(audit['violation_bound'])} "
        f"at {audit['confidence']:.0%}). Audit of {audit['date']}, software "
        f"{audit['software_version']}."
    )
    if not math.isclose(audit["audited_epsilon"], audit["requested_epsilon"], rel_tol=1e-9):
        line += f" (Nearest audited ε to the chosen {audit['requested_epsilon']:g}.)"
    return line
