"""Statistics of an estimator beside the raw result: units of independence, means with t intervals, a
bootstrap cross-check, and the variance reduction and unbiasedness diagnostic of a control variate.

The unit of sampling is what is independent: a hand for static agents, a duplicate block (every replay
of one deal) in a duplicate match (as in the ACPC's duplicate matches). A unit's value is its mean
per hand; the estimate is the mean over units, its standard error SD_units / sqrt(n_units), and its 95 %
interval Student's t with n_units - 1 degrees of freedom. Money in small bets per hand (sb/hand) and
milli-big-blinds per hand (mbb/hand).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from pokerlab.arena.significance import t_quantile
from pokerlab.errors import ConfigError

#: Bootstrap resamples by default (the percentile interval's cross-check of the t interval).
BOOTSTRAP_RESAMPLES = 2000
#: |z| of mean(X - u) above which an estimator is flagged as biased.
BIAS_Z = 3.0


def unit_means(values: np.ndarray, units: np.ndarray | None = None) -> np.ndarray:
    """The mean per hand of each unit (in order of first appearance of its id); every hand its own unit
    when ``units`` is None."""
    values = np.asarray(values, dtype=np.float64)
    if units is None:
        return values
    units = np.asarray(units)
    if units.shape != values.shape:
        raise ConfigError(f"{values.size} values but {units.size} unit ids")
    ids, first, index = np.unique(units, return_index=True, return_inverse=True)
    sums = np.bincount(index, weights=values, minlength=ids.size)
    counts = np.bincount(index, minlength=ids.size)
    return (sums / counts)[np.argsort(first)]


@dataclass(frozen=True)
class Interval:
    """A mean over units with its standard error and 95 % t interval (the units' own money unit)."""

    mean: float
    std_error: float
    low: float
    high: float
    units: int

    @classmethod
    def of(cls, unit_values: np.ndarray) -> Interval:
        """The mean of ``unit_values`` and its 95 % t interval (nan bounds for fewer than two units)."""
        x = np.asarray(unit_values, dtype=np.float64)
        if x.size == 0:
            raise ConfigError("no units to summarise")
        mean = float(x.mean())
        if x.size < 2:
            return cls(mean, math.nan, math.nan, math.nan, int(x.size))
        se = float(x.std(ddof=1) / math.sqrt(x.size))
        half = t_quantile(0.975, x.size - 1) * se
        return cls(mean, se, mean - half, mean + half, int(x.size))


def bootstrap_interval(
    unit_values: np.ndarray, seed: int, resamples: int = BOOTSTRAP_RESAMPLES
) -> tuple[float, float]:
    """The 95 % percentile bootstrap interval of the mean over units (Efron & Tibshirani 1993, ch. 13)."""
    x = np.asarray(unit_values, dtype=np.float64)
    rng = np.random.default_rng(seed)
    means = x[rng.integers(0, x.size, (resamples, x.size))].mean(axis=1)
    low, high = np.quantile(means, [0.025, 0.975])
    return float(low), float(high)


def probability_ahead(a: np.ndarray, b: np.ndarray, seed: int, resamples: int = BOOTSTRAP_RESAMPLES) -> float:
    """Bootstrap P(mean a > mean b) over paired units (the same deals), ties counted half: the ACPC's
    total-bankroll ranking probability."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ConfigError(f"paired units differ in number: {a.size} and {b.size}")
    rng = np.random.default_rng(seed)
    index = rng.integers(0, a.size, (resamples, a.size))
    difference = (a[index] - b[index]).mean(axis=1)
    return float(((difference > 0).sum() + 0.5 * (difference == 0).sum()) / resamples)


@dataclass(frozen=True)
class SeatEstimates:
    """Per-hand raw and estimated nets of a results folder (hands x seats, chips, seats in config.json
    order), the unit of each hand (its deal in a duplicate match, else the hand), and the game."""

    labels: list[str]
    raw: np.ndarray
    adjusted: np.ndarray
    units: np.ndarray
    small_bet: int
    big_blind: int
    duplicate: bool

    @classmethod
    def pooled(cls, parts: list[SeatEstimates], names: list[str]) -> SeatEstimates:
        """The parts (named by `names` in errors) as one sample: the first part's seat order, each other
        part's columns matched to it by label, and every part's units kept apart (renumbered)."""
        first = parts[0]
        raw, adjusted, units, offset = [], [], [], 0
        for part, name in zip(parts, names, strict=True):
            if sorted(part.labels) != sorted(first.labels):
                raise ConfigError(
                    f"{name!r} seats {', '.join(part.labels)}, not {', '.join(first.labels)}: pooled folders "
                    "are parts of one match, with the same agents"
                )
            game = (part.small_bet, part.big_blind, part.duplicate)
            if game != (first.small_bet, first.big_blind, first.duplicate):
                raise ConfigError(
                    f"{name!r} is another game (small bet, big blind, duplicate: {game}); pooled folders "
                    f"share the first's {(first.small_bet, first.big_blind, first.duplicate)}"
                )
            order = [part.labels.index(label) for label in first.labels]
            raw.append(part.raw[:, order])
            adjusted.append(part.adjusted[:, order])
            _, renumbered = np.unique(part.units, return_inverse=True)
            units.append(renumbered + offset)
            offset += int(renumbered.max(initial=-1)) + 1
        return cls(
            list(first.labels),
            np.concatenate(raw),
            np.concatenate(adjusted),
            np.concatenate(units),
            first.small_bet,
            first.big_blind,
            first.duplicate,
        )


@dataclass(frozen=True)
class EstimatorRow:
    """One estimator of one seat's result (sb/hand), beside the raw result on the same hands.

    ``sd_ratio`` is SD(X) / SD(u) over units: the interval narrows by it, and 1 / sd_ratio^2 times fewer
    hands give the raw interval's width. ``bias`` is mean(X - u) over units with its standard error and
    z; ``flagged`` when |z| > `BIAS_Z`."""

    name: str
    value_function: str
    sb_per_hand: float
    mbb_per_hand: float
    std_error: float
    ci95: tuple[float, float]
    bootstrap95: tuple[float, float]
    sd_per_unit: float
    sd_ratio: float
    correlation: float
    bias: float
    bias_std_error: float
    bias_z: float
    flagged: bool

    @property
    def variance_reduction(self) -> float:
        """1 - sd_ratio^2: the fraction of the raw variance removed."""
        return 1.0 - self.sd_ratio**2

    def to_json(self) -> dict:
        data = asdict(self)
        data["ci95"], data["bootstrap95"] = list(self.ci95), list(self.bootstrap95)
        data["variance_reduction"] = self.variance_reduction
        return data


def estimator_row(
    name: str,
    value_function: str,
    estimate: np.ndarray,
    raw: np.ndarray,
    units: np.ndarray | None,
    small_bet: float,
    big_blind: float,
    seed: int,
) -> EstimatorRow:
    """The row of an estimator from per-hand values in chips (``estimate`` and ``raw`` on the same hands,
    ``units`` the unit id of each hand)."""
    x, u = unit_means(estimate, units) / small_bet, unit_means(raw, units) / small_bet
    interval = Interval.of(x)
    bias = Interval.of(x - u)
    sd_x, sd_u = float(x.std(ddof=1)), float(u.std(ddof=1))
    z = bias.mean / bias.std_error if bias.std_error > 0 else 0.0 if bias.mean == 0 else math.inf
    correlation = float(np.corrcoef(x, u)[0, 1]) if sd_x > 0 and sd_u > 0 else math.nan
    return EstimatorRow(
        name=name,
        value_function=value_function,
        sb_per_hand=interval.mean,
        mbb_per_hand=interval.mean * small_bet / big_blind * 1000.0,
        std_error=interval.std_error,
        ci95=(interval.low, interval.high),
        bootstrap95=bootstrap_interval(x, seed),
        sd_per_unit=sd_x,
        sd_ratio=sd_x / sd_u if sd_u > 0 else math.nan,
        correlation=correlation,
        bias=bias.mean,
        bias_std_error=bias.std_error,
        bias_z=z,
        flagged=abs(z) > BIAS_Z,
    )


def report_table(seat_rows: dict[str, list[EstimatorRow]], units: int, hands: int) -> str:
    """The rows of every seat as text: sb/hand with the 95 % t interval, SD ratio, variance removed and the
    unbiasedness z, a flag ``BIASED?`` where |z| > 3."""
    who = max([16, *(len(seat) + 2 for seat in seat_rows)])
    what = max([14, *(len(r.name) + 2 for rows in seat_rows.values() for r in rows)])
    lines = [
        f"{hands} hands in {units} units",
        f"{'seat':<{who}}{'estimator':<{what}}{'sb/hand':>9}  {'95% CI':<17}{'SD/unit':>8}{'SD ratio':>9}"
        f"{'var -':>7}{'z(X-u)':>8}",
    ]
    for seat, rows in seat_rows.items():
        for r in rows:
            lines.append(
                f"{seat:<{who}}{r.name:<{what}}{r.sb_per_hand:>+9.3f}  [{r.ci95[0]:+.3f}, {r.ci95[1]:+.3f}]"
                f"{r.sd_per_unit:>9.3f}{r.sd_ratio:>9.3f}{100 * r.variance_reduction:>6.0f}%{r.bias_z:>8.2f}"
                + ("  BIASED?" if r.flagged else "")
            )
    return "\n".join(lines)
