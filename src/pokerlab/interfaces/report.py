"""Per-agent results as the command line prints them: one row per agent, money in chips and small bets."""

from __future__ import annotations

from collections.abc import Iterable

from pokerlab.arena.stats import AgentResult


def results_table(results: Iterable[AgentResult]) -> str:
    """Seat, agent, total chips, sb/hand, mbb/hand and the 95 % CI of sb/hand; a seat with faults is marked
    "!" and its faults counted, with a line under the table saying what that means."""
    lines = [f"{'seat':>4}  {'agent':<16}{'total':>10}{'sb/hand':>10}{'mbb/hand':>11}  95% CI (sb/hand)"]
    faulty = []
    for r in results:
        mark = "!" if r.faults else " "
        lines.append(
            f"{r.seat:>3}{mark}  {r.agent:<16}{r.total:>10}{r.sb_per_hand:>10.3f}{r.mbb_per_hand:>11.1f}"
            f"  [{r.ci95[0]:.3f}, {r.ci95[1]:.3f}]" + (f"  FAULTS {r.faults}" if r.faults else "")
        )
        if r.faults:
            faulty.append(r.agent)
    if faulty:
        lines.append(f"! {', '.join(faulty)}: faulted (checked or folded for at each fault)")
    return "\n".join(lines)
