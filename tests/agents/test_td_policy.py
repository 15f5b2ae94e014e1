"""The TD player's all-holdings policy query: what `act` plays, holding by holding, frozen."""

import numpy as np
from test_policy import random_views

from pokerlab.agents.policy import blind_view, board_clash
from pokerlab.agents.registry import make_agent
from pokerlab.holdings import HOLDING_CARDS

#: A committed TD player (docs/td-holdem.md), without opponent-model inputs.
COMMITTED = "td:docs/results/td-holdem/hidden-80/averaged/s1"


def test_td_query_is_act_per_holding(rng):
    agent = make_agent(COMMITTED)
    assert agent.frozen
    for view in random_views(rng, 4):
        policy = agent.policy_for_holdings(blind_view(view))
        clash = board_clash(view.board)
        assert np.all(policy[clash] == 0) and np.allclose(policy[~clash].sum(axis=1), 1)
        for i in rng.choice(np.flatnonzero(~clash), 10, replace=False):
            hole = tuple(int(c) for c in HOLDING_CARDS[i])
            assert policy[i].max() == 1.0 and agent.act(view._replace(hole=hole)) == int(np.argmax(policy[i]))


def test_td_query_mixes_epsilon_as_act_draws(rng):
    agent = make_agent(COMMITTED)
    agent.play_epsilon = 0.3
    view = next(v for v in random_views(rng, 20) if len(v.legal_actions) == 3 and v.to_call)
    i = int(np.flatnonzero(~board_clash(view.board))[0])
    hole = tuple(int(c) for c in HOLDING_CARDS[i])
    row = agent.policy_for_holdings(blind_view(view))[i]
    assert np.isclose(row.min(), 0.1) and np.isclose(row.max(), 0.8)
    agent.seed(np.random.default_rng(2))
    played = np.bincount([agent.act(view._replace(hole=hole)) for _ in range(3000)], minlength=3) / 3000
    np.testing.assert_allclose(played, row, atol=0.03)
