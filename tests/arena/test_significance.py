"""Welch's and the paired t-test against published critical values and a plain re-computation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pokerlab.arena.significance import incomplete_beta, paired_test, t_quantile, t_sf, welch_test
from pokerlab.errors import ConfigError


@pytest.mark.parametrize(
    ("t", "df", "two_sided"),
    [(2.228, 10, 0.05), (12.706, 1, 0.05), (2.086, 20, 0.05), (2.845, 20, 0.01), (1.984, 100, 0.05)],
)
def test_t_distribution_matches_the_printed_critical_values(t, df, two_sided):
    assert 2 * t_sf(t, df) == pytest.approx(two_sided, abs=2e-4)


def test_t_distribution_limits_and_symmetry():
    assert t_sf(0.0, 7) == pytest.approx(0.5, abs=1e-12)
    assert t_sf(-1.3, 7) == pytest.approx(1 - t_sf(1.3, 7), abs=1e-12)
    assert t_sf(1.959963984540054, math.inf) == pytest.approx(0.025, abs=1e-12)
    assert t_sf(1.96, 1e7) == pytest.approx(t_sf(1.96, math.inf), abs=1e-6)
    # df = 1 is the Cauchy distribution: P(T > t) = 1/2 - atan(t)/pi
    for t in (0.3, 1.0, 4.0):
        assert t_sf(t, 1) == pytest.approx(0.5 - math.atan(t) / math.pi, abs=1e-12)
    # I_x(1, 1) = x; I_x(a, 1) = x^a
    assert incomplete_beta(1, 1, 0.3) == pytest.approx(0.3) and incomplete_beta(3, 1, 0.5) == pytest.approx(
        0.125
    )


@pytest.mark.parametrize(("p", "df", "t"), [(0.975, 2, 4.303), (0.975, 10, 2.228), (0.995, 20, 2.845)])
def test_t_quantile_matches_the_printed_critical_values(p, df, t):
    assert t_quantile(p, df) == pytest.approx(t, abs=5e-4)


def test_t_quantile_inverts_the_distribution():
    # df = 1 is the Cauchy distribution, whose quantile is tan(pi (p - 1/2)); df = inf the normal one
    for p in (0.6, 0.9, 0.975):
        assert t_quantile(p, 1) == pytest.approx(math.tan(math.pi * (p - 0.5)), abs=1e-8)
    assert t_quantile(0.975, math.inf) == pytest.approx(1.959963984540054, abs=1e-8)
    assert t_quantile(0.1, 5) == pytest.approx(-t_quantile(0.9, 5), abs=1e-12)
    assert 1 - t_sf(t_quantile(0.8, 3.5), 3.5) == pytest.approx(0.8, abs=1e-9)
    for p, df in ((0.0, 3), (1.0, 3), (0.5, 0)):
        with pytest.raises(ConfigError, match="0 < p < 1 and df > 0"):
            t_quantile(p, df)


def test_welch_and_paired_statistics_by_hand():
    a, b = np.array([3.0, 5.0, 7.0, 9.0]), np.array([1.0, 2.0, 2.0, 3.0, 2.0])
    va, vb = np.var(a, ddof=1) / 4, np.var(b, ddof=1) / 5
    welch = welch_test(a, b)
    assert welch.t == pytest.approx((6.0 - 2.0) / math.sqrt(va + vb))
    assert welch.df == pytest.approx((va + vb) ** 2 / (va**2 / 3 + vb**2 / 4))
    assert welch.p_two_sided == pytest.approx(2 * welch.p_greater)
    paired = paired_test([3, 5, 7, 9], [1, 4, 4, 6])  # differences 2, 1, 3, 3
    assert paired.t == pytest.approx(2.25 / (np.std([2, 1, 3, 3], ddof=1) / 2))
    assert paired.df == 3
    with pytest.raises(ConfigError, match="equally many"):
        paired_test([1, 2, 3], [1, 2])


def test_the_tests_hold_their_size_on_noise():
    rng = np.random.default_rng(0)
    rejections = sum(
        welch_test(rng.normal(0, 1, 30), rng.normal(0, 3, 12)).p_two_sided < 0.05 for _ in range(2000)
    )
    assert 0.035 < rejections / 2000 < 0.065
