"""The all-holdings policy query: card-blind players and the stereotypes answer what `act` plays, purely."""

import numpy as np
import pytest

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.policy import (
    NO_HOLE,
    blind_view,
    board_clash,
    holdings_policy_refusal,
    policy_by_substitution,
    supports_holdings_policy,
)
from pokerlab.agents.simple import CallAgent, FoldAgent, MixAgent, RaiseAgent, RandomAgent
from pokerlab.agents.stereotypes import MORE_STYLES, STYLES, StereotypeAgent
from pokerlab.engine import GameConfig, HandState
from pokerlab.engine.view import seat_view
from pokerlab.errors import ConfigError
from pokerlab.holdings import HOLDING_CARDS


def random_views(rng: np.random.Generator, count: int):
    """Views of the player to act at random points of random heads-up hands."""
    views = []
    while len(views) < count:
        cards = rng.permutation(52)[:9].tolist()
        state = HandState(GameConfig(), cards[:4], cards[4:])
        while not state.is_over:
            if rng.random() < 0.3:
                views.append(seat_view(state, state.actor))
                break
            legal = state.legal_actions()
            state.act(int(rng.choice([a for a in legal if a != FOLD] or legal)))
    return views


@pytest.mark.parametrize("style", sorted(STYLES | MORE_STYLES))
def test_stereotype_query_matches_the_plain_rule_and_act(style, rng):
    agent = StereotypeAgent(style)
    for view in random_views(rng, 12):
        fast = agent.policy_for_holdings(blind_view(view))
        plain = policy_by_substitution(agent.action_probabilities, blind_view(view))
        np.testing.assert_allclose(fast, plain, atol=1e-12)
        clash = board_clash(view.board)
        assert np.all(fast[clash] == 0) and np.allclose(fast[~clash].sum(axis=1), 1)
        probabilities = agent.action_probabilities(view)
        if max(probabilities) == 1.0:  # no bluff to draw: act plays it
            assert agent.act(view) == int(np.argmax(probabilities))


@pytest.mark.parametrize(
    "agent", [CallAgent(), RaiseAgent(), FoldAgent(), RandomAgent(), MixAgent("call=0.5,raise=0.5")]
)
def test_card_blind_players_answer_one_row_for_every_holding(agent, rng):
    for view in random_views(rng, 20):
        policy = agent.policy_for_holdings(blind_view(view))
        live = policy[~board_clash(view.board)]
        assert np.allclose(live, live[0]) and np.isclose(live[0].sum(), 1)
        legal = set(view.legal_actions)
        assert all(live[0][a] == 0 for a in (FOLD, CALL, RAISE) if a not in legal)


def test_the_query_draws_nothing_from_the_random_stream(rng):
    agent = RandomAgent()
    agent.seed(np.random.default_rng(7))
    before = agent.rng.bit_generator.state
    for view in random_views(rng, 10):
        agent.policy_for_holdings(blind_view(view))
    assert agent.rng.bit_generator.state == before


def test_blind_view_hides_the_hole(rng):
    view = random_views(rng, 1)[0]
    assert blind_view(view).hole == NO_HOLE
    assert supports_holdings_policy(CallAgent()) and not supports_holdings_policy(object())
    assert holdings_policy_refusal(object()) == "it has no policy_for_holdings"


def test_mix_plays_a_free_fold_as_a_check_and_a_capped_raise_as_a_call(rng):
    agent = MixAgent("fold=0.2,call=0.3,raise=0.5")
    for view in random_views(rng, 30):
        fold, call, raise_ = agent.action_probabilities(view)
        assert np.isclose(fold + call + raise_, 1)
        assert fold == (0.2 if view.to_call else 0.0)
        assert raise_ == (0.5 if RAISE in view.legal_actions else 0.0)
        assert agent.act(view) in view.legal_actions
    with pytest.raises(ConfigError, match="a mix"):
        MixAgent("call=0.5,limp=0.5")
    with pytest.raises(ConfigError, match="add up to 1"):
        MixAgent("call=0.5,raise=0.6")


def test_the_rock_folds_four_hands_in_five_at_its_first_action_facing_a_bet():
    """Its share of the 1,326 holdings folded as the button's first action, and as the big blind facing a
    raise, from the query and from `act` holding by holding."""
    rock = StereotypeAgent("rock")
    state = HandState(GameConfig(), [-1] * 4, [])
    button = seat_view(state, state.actor)
    state.act(RAISE)
    big_blind = seat_view(state, state.actor)
    for view in (button, big_blind):
        assert view.to_call > 0 and len(view.actions) == (0 if view is button else 1)
        folds = rock.policy_for_holdings(view)[:, FOLD].mean()
        assert 0.78 <= folds <= 0.82
        acted = [rock.act(view._replace(hole=tuple(int(c) for c in h))) for h in HOLDING_CARDS]
        assert np.isclose(np.mean(np.array(acted) == FOLD), folds)
