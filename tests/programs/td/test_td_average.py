"""The average-policy network of stage 3 (docs/learning-spec-td.md §A.8.3): reservoir sampling, the
cross-entropy step against finite differences, imitation of a known policy, and play from it when frozen."""

from dataclasses import replace

import numpy as np
import pytest

from pokerlab.actions import CALL, RAISE
from pokerlab.engine import GameConfig, HandState, seat_view
from pokerlab.programs.td.agent import TDAgent
from pokerlab.programs.td.average import AveragePolicy, softmax
from pokerlab.programs.td.config import PRESETS


def test_reservoir_keeps_every_decision_equally_likely():
    rng = np.random.default_rng(0)
    kept = np.zeros(100)
    for _ in range(400):
        policy = AveragePolicy(1, 2, 10, 0.1, rng)
        for i in range(100):
            policy.remember(np.array([float(i)]), 0, rng)
        kept[policy.memory[:, 0].astype(int)] += 1
    assert kept.sum() == 4000 and np.abs(kept / 400 - 0.1).max() < 0.06  # each kept with p = 10 / 100


def test_step_follows_the_cross_entropy_gradient():
    rng = np.random.default_rng(1)
    policy = AveragePolicy(6, 4, 5, 0.1, rng)
    x, action = rng.normal(size=6), 1
    theta = policy.network.theta

    def loss():
        return -np.log(softmax(policy.network(x))[action])

    numeric = np.zeros_like(theta)
    for i in range(theta.size):
        saved = theta[i]
        theta[i] = saved + 1e-6
        up = loss()
        theta[i] = saved - 1e-6
        down = loss()
        theta[i] = saved
        numeric[i] = (up - down) / 2e-6
    before, expected = theta.copy(), loss()
    assert policy.step(x, action) == pytest.approx(expected, rel=1e-12)  # the loss before the step
    assert np.allclose(before - policy.network.theta, 0.1 * numeric, atol=1e-8)


def test_imitates_a_known_policy():
    rng = np.random.default_rng(2)
    policy = AveragePolicy(2, 8, 2000, 0.2, rng)
    for _ in range(2000):
        x = rng.random(2)
        policy.remember(x, CALL if x[0] > 0.5 else RAISE, rng)
    policy.train(20000, rng)
    tests = rng.random((200, 2))
    right = [np.argmax(policy.probabilities(x, (0, 1, 2))) == (CALL if x[0] > 0.5 else RAISE) for x in tests]
    assert np.mean(right) > 0.9


def test_frozen_player_acts_from_the_average_policy():
    state = HandState(GameConfig(), list(range(4)), list(range(10, 15)))
    view = seat_view(state, state.actor)  # the button, pre-flop: fold, call or raise
    decisions = {}
    for mix in (0.0, 1.0):
        agent = TDAgent(replace(PRESETS["repaired"], average_policy=True, average_mix=mix))
        agent.learner.average.network.b2[:] = [0.0, 0.0, 30.0]  # the average policy always raises
        agent.learner.network.b2[:] = [1.0, -1.0]  # the greedy TD action: Q(call) > Q(raise)
        agent.freeze()
        agent.seed(np.random.default_rng(5))
        decisions[mix] = {agent.act(view) for _ in range(20)}
    assert decisions[0.0] == {RAISE}  # always from the average policy
    assert decisions[1.0] == {CALL}  # always the greedy TD action
