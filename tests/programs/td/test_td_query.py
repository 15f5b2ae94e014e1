"""The TD players' batched all-holdings query against its oracle, the plain loop of `action_probabilities`
over the holdings, and its information hiding."""

from dataclasses import replace

import numpy as np
import pytest
from tests.agents.test_policy import random_views
from tests.programs.barone_while.test_bw_policy import Sentinel

from pokerlab.agents.policy import blind_view, policy_by_substitution
from pokerlab.agents.registry import make_agent
from pokerlab.programs.td.agent import TDAgent
from pokerlab.programs.td.config import PRESETS

#: Committed TD players (docs/td-holdem.md): with opponent-model inputs, and without.
WITH_MODELS = "td:docs/results/td-holdem/hidden-80/opponent-model/averaged-s1"
WITHOUT = "td:docs/results/td-holdem/hidden-80/averaged/s1"


def views_by_street(rng, count_preflop: int = 1, count_postflop: int = 1):
    """Random views of the player to act: `count_preflop` before the flop, `count_postflop` after it."""
    views = random_views(rng, 40)
    before = [v for v in views if not v.board][:count_preflop]
    after = [v for v in views if v.board][:count_postflop]
    assert len(before) == count_preflop and len(after) == count_postflop
    return before + after


def assert_query_is_the_loop(agent: TDAgent, view) -> None:
    fast = agent.policy_for_holdings(blind_view(view))
    plain = policy_by_substitution(agent.action_probabilities, blind_view(view))
    np.testing.assert_allclose(fast, plain, rtol=0, atol=1e-12)


@pytest.mark.parametrize("player", [WITH_MODELS, WITHOUT])
@pytest.mark.parametrize("epsilon", [0.0, 0.2])
def test_committed_players_query_equals_the_plain_loop(player, epsilon, rng):
    agent = make_agent(player)
    assert agent.frozen and (agent.learner.opponent_models is not None) == (player == WITH_MODELS)
    agent.play_epsilon = epsilon
    for view in views_by_street(rng, 1 if epsilon else 0, 1):
        assert_query_is_the_loop(agent, view)


@pytest.mark.parametrize(
    "config",
    [
        replace(PRESETS["faithful"], opponent_model_inputs=True, equity="chips"),  # class head, after-states
        replace(PRESETS["faithful"], head="value", average_policy=True, fold_when_free=True),
    ],
    ids=["class-after-states-with-models", "value-average-policy"],
)
def test_after_state_heads_and_the_average_policy_query_equals_the_plain_loop(config, rng):
    agent = TDAgent(config)
    agent.freeze()
    agent.play_epsilon = 0.1
    agent.learner.class_sums[:] = [300.0, 90.0, -70.0, -500.0]  # chip means away from their start
    agent.learner.class_counts[:] = [2, 3, 1, 4]
    for view in views_by_street(rng, 1, 1):
        assert_query_is_the_loop(agent, view)


def test_query_reads_no_hole_and_draws_nothing(rng):
    agent = make_agent(WITH_MODELS)
    agent.play_epsilon = 0.2
    agent.seed(np.random.default_rng(3))
    before = agent.rng.bit_generator.state
    for view in views_by_street(rng, 1, 2):
        answer = agent.policy_for_holdings(view._replace(hole=Sentinel((-1, -1))))
        np.testing.assert_array_equal(answer, agent.policy_for_holdings(blind_view(view)))
    assert agent.rng.bit_generator.state == before
