"""The token mechanisms' default ε, chosen from the audit.

Policy (two targets; the default is the largest audited ε meeting both):
1. PBmPL: against the strongest attacker, the 99 % upper bound on Pr[mPL > ε] (the receipt's
   own per-token bound, under joint observation; Hoeffding over every evaluation document,
   `ampl.pooled`) is at most `tolerance`.
2. Recovery: on every evaluation set, the strongest learned attacker's top-1 recovery
   exceeds its own prior's (the same attacker on the placeholder-redacted document) by at
   most `advantage`.
Why both: mPL is normalised by ε·d, so a mechanism whose posterior shifts grow with ε no
faster than its bound passes target 1 at every ε while it gives more strings away as ε grows;
target 2 is the figure a reader of the receipt sees ("recovered x % (prior y %)"). Where no
audited ε meets both, the mechanism keeps no audit-backed default: its smallest audited ε is
used and the table says the targets were not met.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from bench.attack_audit.ampl import EXACT, strongest


class Policy(NamedTuple):
    tolerance: float = 0.05
    advantage: float = 0.05


DEFAULT_POLICY = Policy()


def advantage(row: dict[str, Any]) -> tuple[float, str, str]:
    """The largest top-1 gain of a learned attacker over its prior, and where."""
    best = (-1.0, "", "")
    for attacker, result in row["attackers"].items():
        if attacker == EXACT and len(row["attackers"]) > 1:
            continue
        for name, metrics in result["sets"].items():
            gain = metrics["top1"] - metrics["prior_top1"]
            if gain > best[0]:
                best = (gain, attacker, name)
    return best


def choose_defaults(rows: list[dict[str, Any]], policy: Policy) -> dict[str, Any]:
    mechanisms: dict[str, Any] = {}
    for variant in dict.fromkeys(r["mechanism"] for r in rows):
        checks = []
        for row in sorted(
            (r for r in rows if r["mechanism"] == variant), key=lambda r: r["epsilon"]
        ):
            worst = strongest(row, row["epsilon"])
            gain, attacker, name = advantage(row)
            checks.append(
                {
                    "epsilon": row["epsilon"],
                    "violation_bound": worst["bound99"] if worst else 1.0,
                    "violation_ok": bool(worst and worst["bound99"] <= policy.tolerance),
                    "advantage": gain,
                    "advantage_attacker": attacker,
                    "advantage_set": name,
                    "advantage_ok": gain <= policy.advantage,
                }
            )
        passing = [c for c in checks if c["violation_ok"] and c["advantage_ok"]]
        if passing:
            chosen = passing[-1]["epsilon"]
            why = (
                f"largest audited ε with Pr[mPL > ε] ≤ {policy.tolerance:.0%} (99 % bound) and a "
                f"top-1 gain over the prior ≤ {100 * policy.advantage:.0f} points"
            )
        else:
            first = checks[0]
            chosen = first["epsilon"]
            why = (
                f"no audited ε met both targets (at the smallest, ε = {chosen:g}: violation "
                f"bound {first['violation_bound']:.0%}, top-1 gain "
                f"{100 * first['advantage']:.0f} points); the smallest audited ε is the default"
            )
        mechanisms[variant] = {"default_epsilon": chosen, "default_reason": why, "checks": checks}
    note = (
        f"Targets: PBmPL at the receipt's own ε with δ = {policy.tolerance:.0%} (99 % Hoeffding "
        "bound over every evaluation document; seed 004 calibrates its achievable δ near 5 %, "
        "appendix F.1) and a top-1 recovery gain of the strongest learned attacker over its "
        f"prior of at most {100 * policy.advantage:.0f} percentage points on every evaluation "
        "set (what the receipt's 'recovered x % (prior y %)' shows). Chosen: "
        + "; ".join(
            f"{v} ε = {m['default_epsilon']:g} ({m['default_reason']})"
            for v, m in mechanisms.items()
        )
        + "."
    )
    return {"policy": policy._asdict(), "mechanisms": mechanisms, "note": note}
