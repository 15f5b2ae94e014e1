"""Results per agent: totals, small bets and milli-big-blinds per hand, standard error and 95 % CI.

The unit of independence is a deal: one hand in an ordinary match, all replays of a deal in a duplicate
match (their luck is shared by construction). The standard error is that of the mean per-unit result.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

import numpy as np

Z95 = 1.959963984540054


def half_width95(values, default: float = float("nan")) -> float:
    """The half-width of the 95 % CI of the mean of `values` (normal approximation, sample standard
    deviation); `default` for fewer than two values.

    >>> round(half_width95([1.0, 3.0]), 4), half_width95([1.0], default=0.0)
    (1.96, 0.0)
    """
    values = np.asarray(values, dtype=np.float64)
    if values.size < 2:
        return default
    return float(Z95 * values.std(ddof=1) / np.sqrt(values.size))


@dataclass(frozen=True)
class AgentResult:
    """One agent's result. Money in chips; rates per hand played; ci95 is the 95 % CI of sb_per_hand."""

    agent: str
    seat: int
    total: int
    hands: int
    sb_per_hand: float
    mbb_per_hand: float
    std_error: float
    ci95: tuple[float, float]
    faults: int = 0

    def to_json(self) -> dict:
        """The fields, and ``faulted``: whether the seat faulted (then it was checked or folded for)."""
        data = asdict(self)
        data["ci95"] = list(self.ci95)
        data["faulted"] = self.faults > 0
        return data


def summarize(
    names: list[str],
    nets: np.ndarray,
    deal_of_hand: np.ndarray,
    small_bet: int,
    big_blind: int,
    faults: list[int] | None = None,
    copies: list[int] | None = None,
) -> list[AgentResult]:
    """Per-agent results from per-hand nets (hands x agents, chips) and the deal index of each hand.

    With ``copies``, column j holds the summed nets of copies[j] players of one kind (pooled results):
    its hands and rates count every copy.
    """
    copies = copies or [1] * nets.shape[1]
    table_hands = nets.shape[0]
    _, unit_index = np.unique(deal_of_hand, return_inverse=True)
    units = np.zeros((unit_index.max() + 1 if table_hands else 0, nets.shape[1]))
    np.add.at(units, unit_index, nets)
    per_unit_hands = np.bincount(unit_index) if table_hands else np.zeros(0)
    out = []
    for j, name in enumerate(names):
        hands = table_hands * copies[j]
        total = int(nets[:, j].sum()) if hands else 0
        sb = total / small_bet / hands if hands else 0.0
        if len(units) > 1:
            rates = units[:, j] / (per_unit_hands * copies[j]) / small_bet
            se = float(rates.std(ddof=1) / np.sqrt(len(rates)))
        else:
            se = float("nan")
        out.append(
            AgentResult(
                agent=name,
                seat=j,
                total=total,
                hands=hands,
                sb_per_hand=sb,
                mbb_per_hand=1000.0 * total / big_blind / hands if hands else 0.0,
                std_error=se,
                ci95=(sb - Z95 * se, sb + Z95 * se),
                faults=faults[j] if faults else 0,
            )
        )
    return out


def pool_by_name(names: list[str], nets: np.ndarray) -> tuple[list[str], np.ndarray, list[int], list[int]]:
    """Pool the columns of players of the same name: (names, summed nets, copies, first seat of each)."""
    kinds = list(dict.fromkeys(names))
    columns = [[j for j, n in enumerate(names) if n == kind] for kind in kinds]
    pooled = np.stack([nets[:, cols].sum(axis=1) for cols in columns], axis=1)
    return kinds, pooled, [len(cols) for cols in columns], [cols[0] for cols in columns]


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
