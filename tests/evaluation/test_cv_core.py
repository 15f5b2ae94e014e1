"""The control-variate core on Kuhn and Leduc poker, by exact enumeration of every terminal history (T1-T5):
the corrected value's expectation equals the raw one's for random strategies and any value function, and a
planted bias is caught."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.evaluation.core import Step, balanced_step, corrected, fit_linear, step, value_digest
from pokerlab.evaluation.toygames import (
    KUHN,
    LEDUC,
    OneCardPoker,
    continuation_value,
    random_strategy,
    steps_of,
    terminals,
)

GAMES = pytest.mark.parametrize("game", [KUHN, LEDUC], ids=["kuhn", "leduc"])


def random_value(rng: np.random.Generator, zero_sum: bool = False):
    """An arbitrary W: an independent random vector per history (filled in lazily, reproducibly)."""
    table: dict[tuple, np.ndarray] = {}

    def value(h: tuple) -> np.ndarray:
        if h not in table:
            v = rng.normal(0.0, 5.0, 2)
            table[h] = np.array([v[0], -v[0]]) if zero_sum else v
        return table[h]

    return value


def exact_means(game: OneCardPoker, strategy, estimate) -> tuple[np.ndarray, np.ndarray]:
    """(E[u], E[X]) over every terminal history, ``estimate(z)`` giving X(z)."""
    raw = corrected_mean = np.zeros(2)
    for z, p in terminals(game, strategy):
        raw = raw + p * game.utility(z)
        corrected_mean = corrected_mean + p * estimate(z)
    return raw, corrected_mean


@GAMES
@pytest.mark.parametrize("known_seats", [(), (0,), (1,), (0, 1)])
def test_t1_exact_unbiasedness_for_random_strategies_and_values(game, known_seats):
    rng = np.random.default_rng(28)
    for _ in range(3):
        strategy = random_strategy(game, rng)
        value = random_value(rng)
        known = {seat: strategy for seat in known_seats}
        raw, mean = exact_means(
            game, strategy, lambda z, v=value, k=known: corrected(game.utility(z), steps_of(game, z, v, k))
        )
        assert np.allclose(mean, raw, atol=1e-12, rtol=0)


@GAMES
def test_t1_advantage_sum_with_a_balanced_value_is_unbiased(game):
    """W = the continuation value of some *other* strategy is balanced at chance, so chance steps need W
    only before and after the card (Zinkevich et al. 2006)."""
    rng = np.random.default_rng(7)
    strategy, other = random_strategy(game, rng), random_strategy(game, rng)
    value = continuation_value(game, other)

    def estimate(z):
        steps = []
        for t in range(len(z)):
            if game.chance(z[:t]) is not None:
                steps.append(balanced_step(value(z[:t]), value(z[: t + 1])))
        return corrected(game.utility(z), steps)

    raw, mean = exact_means(game, strategy, estimate)
    assert np.allclose(mean, raw, atol=1e-12, rtol=0)
    # and the balanced shortcut is the enumerated step, exactly
    z = terminals(game, strategy)[0][0]
    for t in range(len(z)):
        dist = game.chance(z[:t])
        if dist is not None:
            assert np.allclose(step(value, z[:t], dist, z[t]).expected, value(z[:t]), atol=1e-12)


def mutated(game, z, value, strategy, mutation):
    """X under a planted mistake in the correction terms."""
    steps = []
    for t in range(len(z)):
        h = z[:t]
        dist = game.chance(h)
        if dist is not None:
            if mutation == "no card removal":  # every card of the deck counted, dealt ones included
                dist = [(c, 1.0 / len(game.deck)) for c in game.deck]
            if mutation == "balanced shortcut, unbalanced W":
                steps.append(balanced_step(value(h), value(h + (z[t],))))
                continue
            steps.append(step(value, h, dist, z[t]))
        elif game.seat(h) == 0:
            steps.append(step(value, h, list(strategy[game.infoset(h)].items()), z[t]))
        elif mutation == "unknown seat corrected":  # seat 1's actions corrected with a guessed (uniform) σ
            acts = game.actions(h)
            steps.append(step(value, h, [(a, 1 / len(acts)) for a in acts], z[t]))
    return corrected(game.utility(z), steps)


@GAMES
@pytest.mark.parametrize(
    "mutation", ["no card removal", "balanced shortcut, unbalanced W", "unknown seat corrected"]
)
def test_t1_planted_bias_is_caught(game, mutation):
    rng = np.random.default_rng(3)
    strategy = random_strategy(game, rng)
    value = random_value(rng)
    raw, mean = exact_means(game, strategy, lambda z: mutated(game, z, value, strategy, mutation))
    assert np.abs(mean - raw).max() > 1e-3
    honest = exact_means(game, strategy, lambda z: mutated(game, z, value, strategy, "none"))
    assert np.allclose(honest[1], honest[0], atol=1e-12, rtol=0)


@GAMES
def test_t2_zero_variance_with_both_seats_known_and_the_true_value(game):
    rng = np.random.default_rng(11)
    strategy = random_strategy(game, rng)
    value = continuation_value(game, strategy)
    known = {0: strategy, 1: strategy}
    root = value(())
    raw_values, one_known = [], []
    for z, p in terminals(game, strategy):
        assert np.allclose(corrected(game.utility(z), steps_of(game, z, value, known)), root, atol=1e-12)
        raw_values.append((p, game.utility(z)[0]))
        one_known.append((p, corrected(game.utility(z), steps_of(game, z, value, {0: strategy}))[0]))

    def sd(pairs):
        p = np.array([q for q, _ in pairs])
        x = np.array([v for _, v in pairs])
        return float(np.sqrt(p @ (x - p @ x) ** 2))

    assert sd(one_known) < sd(raw_values)


@GAMES
def test_t3_a_zero_value_leaves_the_result_alone(game):
    strategy = random_strategy(game, np.random.default_rng(5))
    for z, _ in terminals(game, strategy):
        steps = steps_of(game, z, lambda h: np.zeros(2), {0: strategy, 1: strategy})
        assert np.array_equal(corrected(game.utility(z), steps), game.utility(z))


@GAMES
def test_t4_zero_sum_values_keep_the_estimate_zero_sum(game):
    rng = np.random.default_rng(9)
    strategy = random_strategy(game, rng)
    value = random_value(rng, zero_sum=True)
    for z, _ in terminals(game, strategy):
        x = corrected(game.utility(z), steps_of(game, z, value, {0: strategy}))
        assert abs(x.sum()) < 1e-12


def test_t5_linear_weights_fitted_on_one_sample_lower_the_variance_on_another():
    """White & Bowling 2009: theta from sample A, judged on an independent sample B; any fixed theta
    keeps the estimate exactly unbiased."""
    rng = np.random.default_rng(2028)
    game = LEDUC
    strategy = random_strategy(game, rng)
    features = [continuation_value(game, random_strategy(game, rng)) for _ in range(3)] + [random_value(rng)]

    def phi(z):  # per feature: seat 0's summed chance corrections
        return np.array([sum(s.correction[0] for s in steps_of(game, z, f, {})) for f in features])

    paths = terminals(game, strategy)
    probs = np.array([p for _, p in paths])
    phis = np.array([phi(z) for z, _ in paths])
    utils = np.array([game.utility(z)[0] for z, _ in paths])
    a, b = (rng.choice(len(paths), 4000, p=probs / probs.sum()) for _ in range(2))
    theta = fit_linear(phis[a], utils[a])
    x_b = utils[b] - phis[b] @ theta
    assert x_b.std() < 0.9 * utils[b].std()
    # exact: E[u - phi @ theta] = E[u] for the fitted (now fixed) theta
    assert abs(probs @ (utils - phis @ theta) - probs @ utils) < 1e-12


def test_fit_linear_recovers_known_weights():
    rng = np.random.default_rng(4)
    features = rng.normal(size=(500, 3))
    theta = np.array([1.5, -2.0, 0.25])
    assert np.allclose(fit_linear(features, 3.0 + features @ theta), theta)


def test_a_step_is_its_correction():
    s = Step(np.array([3.0, -3.0]), np.array([1.0, -1.0]))
    assert np.array_equal(s.correction, [2.0, -2.0])
    assert np.array_equal(corrected(np.array([5.0, -5.0]), [s, s]), [1.0, -1.0])


def test_a_value_digest_names_the_function_its_parameters_and_its_code():
    from pokerlab.evaluation import core, toygames

    first = value_digest("luck", {"samples": 10}, core)
    assert first == value_digest("luck", {"samples": 10}, core) and len(first) == 16
    assert first != value_digest("luck", {"samples": 11}, core)
    assert first != value_digest("luck", {"samples": 10}, core, toygames)
