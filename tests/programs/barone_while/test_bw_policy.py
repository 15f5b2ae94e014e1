"""Barone & While's evolving players answer the all-holdings policy query: what `act` plays from the
current pointers (or the average candidates), for every holding at once, purely, without the hole."""

import copy

import numpy as np
import pytest
from tests.agents.test_policy import random_views as heads_up_views

from pokerlab.actions import FOLD
from pokerlab.agents.policy import blind_view, board_clash, policy_by_substitution, supports_holdings_policy
from pokerlab.agents.registry import make_agent
from pokerlab.engine import GameConfig, HandStart, HandState
from pokerlab.engine.view import seat_view
from pokerlab.programs.barone_while.agent import EvolvingAgent
from pokerlab.programs.barone_while.config import EvolvingConfig


def random_views(rng: np.random.Generator, count: int, players: int = 2):
    """Views of the player to act at random points of random hands: heads-up as the other query tests
    draw them, or three-handed after a random number of non-folding actions (every seat)."""
    if players == 2:
        return heads_up_views(rng, count)
    views = []
    while len(views) < count:
        cards = rng.permutation(52)[: 2 * players + 5].tolist()
        state = HandState(
            GameConfig(stack=1000), cards[: 2 * players], cards[2 * players :], [1000] * players
        )
        for _ in range(int(rng.integers(0, 4 * players))):
            legal = [a for a in state.legal_actions() if a != FOLD]
            state.act(int(rng.choice(legal)))
            if state.is_over:
                break
        else:
            views.append(seat_view(state, state.actor))
    return views


def evolved(config: EvolvingConfig, seed: int) -> EvolvingAgent:
    """A frozen player whose members differ (random start) and whose pointers sit anywhere."""
    agent = EvolvingAgent(config, init_seed=seed)
    members = np.random.default_rng(seed).integers(0, config.population_size, agent.cube.pointer.size)
    agent.cube.pointer[:] = members
    agent.freeze()
    return agent


CONFIGS = [
    EvolvingConfig(),
    EvolvingConfig(frozen_play="average", multiway_x="player_a_n"),
    EvolvingConfig(uses_rule="per_consultation", shared_u=False, population_size=3),
    EvolvingConfig(opponent_segments="seat"),  # several populations read one shared u
]


@pytest.mark.parametrize("config", CONFIGS, ids=["cycle", "average", "per-consultation", "seat-segments"])
def test_query_matches_the_plain_rule_for_every_holding(config, rng):
    agent = evolved(config, 4)
    views = random_views(rng, 6) + random_views(rng, 3, players=3)
    assert {v.position for v in views} >= {0, 1} and {v.round for v in views} >= {0, 1}
    for view in views:
        fast = agent.policy_from_pointers(blind_view(view))
        plain = policy_by_substitution(agent.action_probabilities, blind_view(view))
        np.testing.assert_allclose(fast, plain, atol=1e-12)
        clash = board_clash(view.board)
        assert np.all(fast[clash] == 0) and np.allclose(fast[~clash].sum(axis=1), 1)


def test_plain_rule_is_what_act_plays_over_its_uniform(rng):
    """act with its uniform set on a fine grid plays each action on the share of the grid the plain rule
    gives it (heads-up: one uniform a decision)."""
    agent = evolved(EvolvingConfig(), 5)
    grid = (np.arange(2000) + 0.5) / 2000
    for view in random_views(rng, 10):
        start = HandStart(view.position, view.players, view.hole, None, view.seats, view.config, 0)
        agent.begin_hand(start)
        played = np.zeros(3)
        for u in grid:
            agent._uniforms = [float(u)]
            played[agent.act(view)] += 1
        np.testing.assert_allclose(played / len(grid), agent.action_probabilities(view), atol=2e-3)


class Sentinel(tuple):
    """A hole that fails loudly when read."""

    def __iter__(self):
        raise AssertionError("the query read the hole")

    def __getitem__(self, item):
        raise AssertionError("the query read the hole")


def test_query_reads_no_hole_draws_nothing_and_moves_no_pointer(rng):
    agent = evolved(EvolvingConfig(uses_rule="per_consultation"), 6)
    agent.seed(np.random.default_rng(1))
    before, pointers = agent.rng.bit_generator.state, agent.cube.pointer.copy()
    for view in random_views(rng, 6) + random_views(rng, 3, players=3):
        answer = agent.policy_from_pointers(view._replace(hole=Sentinel((-1, -1))))
        np.testing.assert_array_equal(answer, agent.policy_from_pointers(blind_view(view)))
    assert agent.rng.bit_generator.state == before
    np.testing.assert_array_equal(agent.cube.pointer, pointers)


def test_player_a_answers_the_same_from_any_pointer(rng):
    """bw-a starts with every member a copy of player A's cell: its answer does not depend on the cycle."""
    agent = make_agent("bw-a")
    agent.freeze()
    other = copy.deepcopy(agent)
    other.cube.pointer[:] = 7
    assert supports_holdings_policy(agent)
    for view in random_views(rng, 6):
        np.testing.assert_array_equal(
            agent.policy_for_holdings(blind_view(view)), other.policy_for_holdings(blind_view(view))
        )


def test_the_query_is_offered_only_where_the_cycle_cannot_change_it():
    cycling = evolved(EvolvingConfig(), 3)
    assert not supports_holdings_policy(cycling)
    with pytest.raises(AttributeError, match="frozen_play = 'average'"):
        cycling.policy_for_holdings  # noqa: B018
    assert supports_holdings_policy(evolved(EvolvingConfig(frozen_play="average"), 3))
    learning = EvolvingAgent(EvolvingConfig(frozen_play="average"), init_seed=3)  # plays its members
    assert not supports_holdings_policy(learning)
