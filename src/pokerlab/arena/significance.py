"""Two-sample tests of mean results: Welch's unequal-variance t-test and the paired t-test, with Student's
t distribution computed here (no SciPy): the CDF through the regularised incomplete beta function,
evaluated by its continued fraction (modified Lentz method).

Used to compare players' per-epoch results (Barone & While 2000 Table 1-2; docs/barone-while.md §11).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from pokerlab.errors import ConfigError

_TINY = 1e-300


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function I_x(a, b) (converges for x < (a+1)/(a+b+2))."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    f = d
    for m in range(1, 1000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            f *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return f


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b) for a, b > 0 and x in [0, 1]."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with `df` degrees of freedom."""
    if math.isinf(df):
        return 0.5 * math.erfc(t / math.sqrt(2.0))
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) = p for Student's t with `df` degrees of freedom, 0 < p < 1 (bisection on
    `t_sf`, to 1e-10), e.g. 4.303 for p = 0.975 and df = 2."""
    if not 0.0 < p < 1.0 or not df > 0:
        raise ConfigError(f"t_quantile needs 0 < p < 1 and df > 0, got p={p!r}, df={df!r}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    low, high = 0.0, 1.0
    while 1.0 - t_sf(high, df) < p:
        low, high = high, 2.0 * high
    while high - low > 1e-10:
        mid = 0.5 * (low + high)
        low, high = (mid, high) if 1.0 - t_sf(mid, df) < p else (low, mid)
    return 0.5 * (low + high)


@dataclass(frozen=True)
class TTest:
    """A t-test of mean(a) > mean(b): the difference of means, t, degrees of freedom, the one-sided p
    (H1: a greater) and the two-sided p."""

    difference: float
    t: float
    df: float
    p_greater: float
    p_two_sided: float

    def to_json(self) -> dict:
        return {k: float(v) for k, v in self.__dict__.items()}


def _check(a: np.ndarray, b: np.ndarray, paired: bool) -> None:
    if len(a) < 2 or len(b) < 2:
        raise ConfigError(f"a t-test needs at least two results on each side, got {len(a)} and {len(b)}")
    if paired and len(a) != len(b):
        raise ConfigError(f"a paired t-test needs equally many results, got {len(a)} and {len(b)}")


def _result(difference: float, se: float, df: float) -> TTest:
    if se == 0.0:
        t = 0.0 if difference == 0 else math.copysign(math.inf, difference)
        p = 0.5 if difference == 0 else float(difference < 0)
        return TTest(difference, t, df, p, 1.0 if difference == 0 else 0.0)
    t = difference / se
    return TTest(difference, t, df, t_sf(t, df), min(1.0, 2.0 * t_sf(abs(t), df)))


def welch_test(a, b) -> TTest:
    """Welch's t-test (unequal variances, Welch-Satterthwaite degrees of freedom) of mean(a) > mean(b)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    _check(a, b, False)
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1)) if se > 0 else len(a) + len(b) - 2
    return _result(float(a.mean() - b.mean()), se, df)


def paired_test(a, b) -> TTest:
    """The paired t-test of mean(a - b) > 0 (results matched pair by pair, e.g. the same epochs' cards)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    _check(a, b, True)
    d = a - b
    return _result(float(d.mean()), math.sqrt(d.var(ddof=1) / len(d)), len(d) - 1)
