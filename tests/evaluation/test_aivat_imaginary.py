"""AIVAT's imaginary observations on Kuhn and Leduc poker, by exact enumeration: the estimate's expectation
equals the raw one's for random strategies and any value function, planted mistakes (holdings filtered by
the final board, unnormalised weights, the unknown seat's actions corrected) are caught, and with a good W
it beats the action corrections alone."""

from __future__ import annotations

import numpy as np
import pytest
from tests.evaluation.test_cv_core import exact_means, random_value

from pokerlab.evaluation import toygames
from pokerlab.evaluation.core import corrected
from pokerlab.evaluation.toygames import (
    KUHN,
    LEDUC,
    continuation_value,
    imaginary,
    random_strategy,
    steps_of,
    terminals,
)


@pytest.mark.parametrize(
    ("game", "seat"), [(KUHN, 0), (KUHN, 1), (LEDUC, 1)], ids=["kuhn0", "kuhn1", "leduc1"]
)
def test_imaginary_observations_are_exactly_unbiased(game, seat):
    rng = np.random.default_rng(2018)
    for _ in range(2 if game is KUHN else 1):
        strategy = random_strategy(game, rng)
        raw, mean = exact_means(game, strategy, imaginary(game, random_value(rng), seat, strategy))
        assert np.allclose(mean, raw, atol=1e-12, rtol=0)
        assert abs(raw[0]) > 1e-3  # a game value that a constant estimate would miss


def _final_board(game, h, seat, board):
    """The planted mistake of one public implementation: alternatives filtered by the *final* board."""
    return [a for a in _true_alternatives(game, h, seat) if not set(a[:2]) & set(board)]


_true_alternatives = toygames.alternatives


def test_planted_mistakes_are_caught(monkeypatch):
    rng = np.random.default_rng(7)
    strategy = random_strategy(LEDUC, rng)
    value = random_value(rng)
    terms = [(z, p) for z, p in terminals(LEDUC, strategy)]
    raw = sum(p * LEDUC.utility(z) for z, p in terms)

    # holdings filtered by the final board: one estimator per final board, which knows it
    board: list = []
    monkeypatch.setattr(toygames, "alternatives", lambda g, h, s: _final_board(g, h, s, board))
    mean = np.zeros(2)
    for public in [(), *((c,) for c in LEDUC.deck)]:
        board[:] = public
        estimate = imaginary(LEDUC, value, 0, strategy)
        mean += sum(
            p * estimate(z) for z, p in terms if tuple(e for e in z[2:] if not isinstance(e, str)) == public
        )
    assert not np.allclose(mean, raw, atol=1e-6)
    monkeypatch.undo()

    # the unknown seat's actions corrected as if they were known: the reach of the known seat is right,
    # but the other seat's probabilities are a guess (uniform)
    guess = {k: {a: 1 / len(v) for a in v} for k, v in strategy.items()}
    io = imaginary(LEDUC, value, 0, strategy)
    both = sum(
        p * (io(z) - sum(s.correction for s in steps_of(LEDUC, z, value, {1: guess}, chance=False)))
        for z, p in terms
    )
    assert not np.allclose(both, raw, atol=1e-6)


def test_unnormalised_weights_are_caught():
    """W-bar without dividing by the weights' total (the reach of the known seat's line left in)."""
    rng = np.random.default_rng(11)
    strategy = random_strategy(KUHN, rng)
    terms = terminals(KUHN, strategy)
    raw = sum(p * KUHN.utility(z) for z, p in terms)

    def unnormalised(z):
        alts = toygames.alternatives(KUHN, z, 0)
        return sum(toygames.reach(KUHN, a, 0, strategy) * KUHN.utility(a) for a in alts) / len(alts)

    mean = sum(p * unnormalised(z) for z, p in terms)
    assert not np.allclose(mean, raw, atol=1e-6)


@pytest.mark.parametrize("seed", range(5))
def test_imaginary_observations_beat_action_corrections_with_a_good_value(seed):
    """One seat known, W the exact continuation value: the imaginary observations average the action
    tier's estimate over what the unknown seat cannot tell apart, so their SD is no larger, and both are
    below the chance tier's and the raw SD (Burch et al. 2018 §5)."""
    rng = np.random.default_rng(seed)
    strategy = random_strategy(KUHN, rng)
    value = continuation_value(KUHN, strategy)
    terms = terminals(KUHN, strategy)
    io = imaginary(KUHN, value, 0, strategy)

    def sd(estimate):
        mean = sum(p * estimate(z) for z, p in terms)
        return np.sqrt(sum(p * (estimate(z) - mean) ** 2 for z, p in terms))[0]

    actions = sd(lambda z: corrected(KUHN.utility(z), steps_of(KUHN, z, value, {0: strategy})))
    chance = sd(lambda z: corrected(KUHN.utility(z), steps_of(KUHN, z, value, {})))
    assert sd(io) <= actions + 1e-12
    assert actions < chance < sd(KUHN.utility)
