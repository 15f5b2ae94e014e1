"""Statistics of the evaluation reports (S1-S3): interval coverage, duplicate units, ranking probability."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pokerlab.errors import ConfigError
from pokerlab.evaluation.stats import (
    Interval,
    bootstrap_interval,
    estimator_row,
    probability_ahead,
    report_table,
    unit_means,
)


def test_s1_t_intervals_cover_the_truth_95_percent_of_the_time():
    rng = np.random.default_rng(2026)
    covered = 0
    runs = 2000
    for _ in range(runs):
        ci = Interval.of(rng.normal(0.3, 2.0, 15))
        covered += ci.low <= 0.3 <= ci.high
    assert abs(covered / runs - 0.95) <= 0.01


def test_s1_the_bootstrap_interval_is_near_the_t_interval_on_normal_data():
    x = np.random.default_rng(1).normal(0.0, 1.0, 400)
    ci, boot = Interval.of(x), bootstrap_interval(x, seed=3)
    assert abs(boot[0] - ci.low) < 0.02 and abs(boot[1] - ci.high) < 0.02


def test_s2_a_duplicate_block_is_one_unit():
    # deals 7 and 3, each replayed twice: the unit value is the mean per hand of its replays
    values = np.array([4.0, 1.0, -2.0, 3.0])
    units = np.array([7, 3, 7, 3])
    assert np.array_equal(unit_means(values, units), [1.0, 2.0])
    ci = Interval.of(unit_means(values, units))
    assert ci.units == 2 and ci.mean == 1.5
    assert math.isclose(ci.std_error, 0.5)  # SD of (1, 2) is 1/sqrt(2), over sqrt(2) units
    assert math.isclose(ci.high - ci.mean, 12.706204736 * 0.5, rel_tol=1e-8)  # t(0.975, 1 df)


def test_s3_identical_agents_are_ahead_half_the_time():
    a = np.random.default_rng(5).normal(0.0, 1.0, 300)
    assert probability_ahead(a, a.copy(), seed=1) == 0.5
    assert probability_ahead(a + 0.5, a, seed=1) == 1.0


def test_a_row_checks_against_a_plain_computation():
    rng = np.random.default_rng(8)
    raw = rng.normal(0.0, 10.0, 1000)
    luck = rng.normal(0.0, 9.0, 1000)
    estimate = raw - luck  # the luck removed: a narrower estimate of the same mean
    row = estimator_row("x", "w", estimate, raw, None, small_bet=2, big_blind=2, seed=0)
    x, u = estimate / 2, raw / 2
    assert math.isclose(row.sb_per_hand, x.mean())
    assert math.isclose(row.mbb_per_hand, 1000 * x.mean())
    assert math.isclose(row.sd_ratio, x.std(ddof=1) / u.std(ddof=1))
    assert math.isclose(row.variance_reduction, 1 - row.sd_ratio**2)
    assert math.isclose(row.bias, (x - u).mean())
    assert math.isclose(row.bias_z, (x - u).mean() / ((x - u).std(ddof=1) / math.sqrt(1000)))
    assert not row.flagged
    biased = estimator_row("x", "w", estimate + 2.0, raw, None, 2, 2, 0)
    assert biased.flagged and "BIASED?" in report_table({"a": [biased]}, 1000, 1000)


def test_bad_shapes_are_one_clear_error():
    with pytest.raises(ConfigError, match="3 values but 2 unit ids"):
        unit_means(np.zeros(3), np.zeros(2))
    with pytest.raises(ConfigError, match="no units"):
        Interval.of(np.zeros(0))
