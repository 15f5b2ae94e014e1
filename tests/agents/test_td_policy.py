"""The TD player's all-holdings policy query: what `act` plays, holding by holding, frozen."""

import numpy as np

from pokerlab.agents.policy import blind_view, board_clash
from pokerlab.agents.registry import make_agent
from pokerlab.engine import GameConfig, HandState
from pokerlab.engine.view import seat_view
from pokerlab.holdings import HOLDING_CARDS

#: A committed TD player (docs/td-holdem.md), without opponent-model inputs.
COMMITTED = "td:docs/results/td-holdem/hidden-80/averaged/s1"


def td_views(rng, count):
    views = []
    while len(views) < count:
        cards = rng.permutation(52)[:9].tolist()
        state = HandState(GameConfig(), cards[:4], cards[4:])
        while not state.is_over:
            if rng.random() < 0.3:
                views.append(seat_view(state, state.actor))
                break
            state.act(int(rng.choice([a for a in state.legal_actions() if a != 0] or state.legal_actions())))
    return views


def test_td_query_is_act_per_holding(rng):
    agent = make_agent(COMMITTED)
    assert agent.frozen
    for view in td_views(rng, 4):
        policy = agent.policy_for_holdings(blind_view(view))
        clash = board_clash(view.board)
        assert np.all(policy[clash] == 0) and np.allclose(policy[~clash].sum(axis=1), 1)
        for i in rng.choice(np.flatnonzero(~clash), 10, replace=False):
            hole = tuple(int(c) for c in HOLDING_CARDS[i])
            assert policy[i].max() == 1.0 and agent.act(view._replace(hole=hole)) == int(np.argmax(policy[i]))


def test_td_query_mixes_epsilon_as_act_draws(rng):
    agent = make_agent(COMMITTED)
    agent.play_epsilon = 0.3
    view = next(v for v in td_views(rng, 20) if len(v.legal_actions) == 3 and v.to_call)
    i = int(np.flatnonzero(~board_clash(view.board))[0])
    hole = tuple(int(c) for c in HOLDING_CARDS[i])
    row = agent.policy_for_holdings(blind_view(view))[i]
    assert np.isclose(row.min(), 0.1) and np.isclose(row.max(), 0.8)
    agent.seed(np.random.default_rng(2))
    played = np.bincount([agent.act(view._replace(hole=hole)) for _ in range(3000)], minlength=3) / 3000
    np.testing.assert_allclose(played, row, atol=0.03)
