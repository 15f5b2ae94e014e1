"""Loki-1's and Loki-2's all-holdings policy queries against their own `act`, replayed holding by holding
(Loki-1 with every random draw enumerated, Loki-2 with its hand's uniform kept in the interval its actions
allow): the plain oracles of the vectorised queries."""

import copy

import numpy as np
import pytest

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.base import split_decision
from pokerlab.agents.policy import blind_view, board_clash, holdings_policy_refusal, supports_holdings_policy
from pokerlab.engine import GameConfig, HandState
from pokerlab.engine.view import seat_view
from pokerlab.holdings import HOLDING_CARDS
from pokerlab.programs.loki1 import Loki1Agent
from pokerlab.programs.loki1.config import VARIANTS
from pokerlab.programs.loki1.postflop import PostflopSituation, decide, decide_outcomes
from pokerlab.programs.loki2 import VARIANTS as LOKI2
from pokerlab.programs.loki2 import Loki2Agent


class Scripted:
    """A random generator whose draws follow a script of intervals of [0, 1), enumerating the rest."""

    def __init__(self, cuts, script, pending):
        self.cuts, self.script, self.pending, self.used = cuts, script, pending, []

    def random(self):
        i = len(self.used)
        if i < len(self.script):
            pick = self.script[i]
        else:  # a draw not scripted yet: take the first interval, come back for the others
            pick = 0
            self.pending.extend((*self.used, other) for other in range(1, len(self.cuts) - 1))
        self.used.append(pick)
        return self.cuts[pick]

    def chance(self):
        return float(np.prod([self.cuts[p + 1] - self.cuts[p] for p in self.used]))


def decisions_with(view, holding):
    """The acting player's views at each of its decisions of the hand so far, rebuilt by the engine with
    `holding` as its hole, each with the action it took (None for the last: `view` itself)."""
    holes = [-1] * (2 * view.players)
    holes[2 * view.position], holes[2 * view.position + 1] = holding
    state = HandState(view.config, holes, list(view.board))
    decisions = []
    for record in view.actions:
        if record.position == view.position:
            decisions.append((seat_view(state, view.position), record.action))
        state.act(record.action)
    return [*decisions, (seat_view(state, view.position), None)]


def replayed(agent, view, holding):
    """(fold, call, raise) of `act` on `view` with `holding` given Loki's own actions so far (each of its
    decisions replayed on a view the engine rebuilds with that hole), or None if the holding could not
    have played them. Each random draw u takes one of the intervals between the rules' probabilities, on
    which every test ``u < p`` comes out the same."""
    rules = agent.config.rules
    cuts = sorted(
        {0.0, 1.0, rules.check_raise_probability, rules.bluff_probability, rules.balancing_raise_probability}
    )
    decisions = decisions_with(view, holding)
    out, consistent, pending = np.zeros(3), 0.0, [()]
    while pending:
        player = copy.deepcopy(agent)
        player.rng = Scripted(cuts, pending.pop(), pending)
        for seen, taken in decisions:
            action = split_decision(player.act(seen))[0]
            if taken is None:
                out[action] += player.rng.chance()
                consistent += player.rng.chance()
            elif action != taken:
                break
    return out / consistent if consistent > 0 else None


def loki_views(rng, count, agent):
    """Views of Loki-1 at random decisions of heads-up hands it plays against a random caller/raiser."""
    views = []
    while len(views) < count:
        cards = rng.permutation(52)[:9].tolist()
        state = HandState(GameConfig(), cards[:4], cards[4:])
        loki = int(rng.integers(2))
        player = copy.deepcopy(agent)
        while not state.is_over:
            view = seat_view(state, state.actor)
            if state.actor == loki:
                if rng.random() < 0.35 and (state.round > 0 or rng.random() < 0.3):
                    views.append(view)
                    break
                action = split_decision(player.act(view))[0]
            else:
                action = int(rng.choice([a for a in view.legal_actions if a != FOLD]))
            state.act(action)
    return views


def test_decide_outcomes_are_the_draws_of_decide(rng):
    """Every outcome decide_outcomes lists is what decide returns with draws forced that way, and the
    probabilities match the frequencies of decide with a real generator."""
    rules = VARIANTS["loki1"].rules
    situation = PostflopSituation(3, 0.2, 0.2, 0.2, 0.1, 0, 0, 20, 20, 60, 0, 1, 1, False, False, True)
    outcomes = decide_outcomes(situation, rules)
    assert np.isclose(sum(p for p, _, _ in outcomes), 1) and {rule for _, _, rule in outcomes} == {
        "bluff",
        "check",
    }
    draws = np.random.default_rng(3)
    counts = {}
    for _ in range(20000):
        key = decide(situation, rules, draws)
        counts[key] = counts.get(key, 0) + 1
    for p, action, rule in outcomes:
        assert abs(counts[(action, rule)] / 20000 - p) < 0.01


@pytest.mark.parametrize("variant", ["loki1", "loki1-no-potential"])
def test_loki1_query_is_act_replayed_holding_by_holding(variant, rng):
    agent = Loki1Agent(VARIANTS[variant])
    agent.freeze()
    views = loki_views(rng, 6, agent)
    assert any(v.round == 1 for v in views) and any(v.round >= 2 for v in views)
    checked = 0
    for view in views:
        policy = agent.policy_for_holdings(blind_view(view))
        clash = board_clash(view.board)
        assert np.all(policy[clash] == 0) and np.allclose(policy[~clash].sum(axis=1), 1)
        live = np.flatnonzero(~clash)
        sample = rng.choice(live, 16, replace=False).tolist()
        true = int(np.flatnonzero((HOLDING_CARDS == sorted(view.hole)).all(axis=1))[0])
        for i in [true, *sample]:
            plain = replayed(agent, view, tuple(int(c) for c in HOLDING_CARDS[i]))
            if plain is None:
                assert i != true  # the holding Loki was dealt played the hand
                continue
            np.testing.assert_allclose(policy[i], plain, atol=1e-9, err_msg=f"holding {i} on {view}")
            checked += 1
    assert checked >= 20  # holdings that could have played the hand (the others are checked for sums only)


def views_on_street(rng, count, agent, street, players):
    """Views of Loki-1 (seat 0) at its first decision on `street` of hands it plays against random
    callers and raisers."""
    views = []
    while len(views) < count:
        cards = rng.permutation(52)[: 2 * players + 5].tolist()
        state = HandState(GameConfig(), cards[: 2 * players], cards[2 * players :])
        player = copy.deepcopy(agent)
        while not state.is_over:
            view = seat_view(state, state.actor)
            if state.actor == 0 and view.round == street:
                views.append(view)
                break
            if state.actor == 0:
                action = split_decision(player.act(view))[0]
            else:
                action = int(rng.choice([a for a in view.legal_actions if a != FOLD]))
            state.act(action)
    return views


@pytest.mark.parametrize("street, players", [(3, 2), (2, 3)])
def test_loki1_query_on_later_streets_is_act_replayed(street, players, rng):
    """River views (the flop's and turn's decisions replayed for every holding) and three-handed turn views
    (the field array of two opponents)."""
    agent = Loki1Agent()
    agent.freeze()
    checked = 0
    for view in views_on_street(rng, 2, agent, street, players):
        policy = agent.policy_for_holdings(blind_view(view))
        clash = board_clash(view.board)
        assert np.all(policy[clash] == 0) and np.allclose(policy[~clash].sum(axis=1), 1)
        true = int(np.flatnonzero((HOLDING_CARDS == sorted(view.hole)).all(axis=1))[0])
        for i in [true, *rng.choice(np.flatnonzero(~clash), 8, replace=False).tolist()]:
            plain = replayed(agent, view, tuple(int(c) for c in HOLDING_CARDS[i]))
            if plain is not None:
                np.testing.assert_allclose(policy[i], plain, atol=1e-9, err_msg=f"holding {i} on {view}")
                checked += 1
    assert checked >= 4


def test_loki1_query_draws_nothing_and_learns_nothing(rng):
    agent = Loki1Agent()
    views = loki_views(rng, 3, agent)
    agent.seed(np.random.default_rng(4))
    before, counts = agent.rng.bit_generator.state, copy.deepcopy(agent.frequencies)
    for view in views:
        agent.policy_for_holdings(blind_view(view))
    assert agent.rng.bit_generator.state == before and agent.frequencies.keys() == counts.keys()
    for view in views:  # the hole of the view asked about is not read: the true one changes nothing
        fresh = copy.deepcopy(Loki1Agent())
        np.testing.assert_array_equal(
            fresh.policy_for_holdings(view), Loki1Agent().policy_for_holdings(blind_view(view))
        )


def test_loki1_query_resumes_a_kept_replay_to_the_same_answer(rng):
    """Asked along a hand, the query resumes from its kept replay; a fresh copy computes from scratch."""
    agent = Loki1Agent()
    agent.freeze()
    cards = rng.permutation(52)[:9].tolist()
    state = HandState(GameConfig(), cards[:4], cards[4:])
    player, asked = copy.deepcopy(agent), 0
    while not state.is_over:
        view = seat_view(state, state.actor)
        if state.actor == 0:
            kept = agent.policy_for_holdings(blind_view(view))
            fresh = copy.deepcopy(Loki1Agent(agent.config)).policy_for_holdings(blind_view(view))
            np.testing.assert_array_equal(kept, fresh)
            asked += 1
            action = split_decision(player.act(view))[0]
        else:
            action = CALL
        state.act(action)
    assert asked >= 2


def test_only_the_loki2_that_bets_by_triples_answers():
    assert supports_holdings_policy(Loki1Agent()) and supports_holdings_policy(
        Loki2Agent(LOKI2["loki2-triples"])
    )
    for simulating_or_rules in ("loki2", "loki2-reweighting", "loki2-sim-call"):
        agent = Loki2Agent(LOKI2[simulating_or_rules])
        assert not supports_holdings_policy(agent)
        assert "only betting by triples does" in holdings_policy_refusal(agent)


def replayed_triples(agent, view, holding):
    """(fold, call, raise) of Loki-2's `act` on `view` with `holding`, given its actions so far: at each
    decision its triple comes from `act` (the decision's probabilities), the hand's uniform u is kept
    inside the part of [0, 1) its actions allow (and set there for the replay), and what each drawn action
    plays as is what `act` plays with u inside that action's interval; None if the holding could not have
    played them."""
    decisions = decisions_with(view, holding)
    player, low, high = copy.deepcopy(agent), 0.0, 1.0
    for seen, taken in decisions:
        action, probabilities, _ = split_decision(copy.deepcopy(player).act(seen))
        if probabilities is None:  # pre-flop: Loki-1's expert system, no draw
            if taken is None:
                return np.eye(3)[action]
            if action != taken:
                return None
            player.act(seen)
            continue
        edges = np.concatenate([[0.0], np.cumsum(probabilities)])
        edges[-1] = 1.0
        plays = {}
        for a in range(3):
            if probabilities[a] > 0:
                probe = copy.deepcopy(player)
                probe._u = (edges[a] + edges[a + 1]) / 2
                plays[a] = split_decision(probe.act(seen))[0]
        if taken is None:
            out = np.zeros(3)
            for a, plays_as in plays.items():
                out[plays_as] += max(min(high, edges[a + 1]) - max(low, edges[a]), 0.0) / (high - low)
            return out
        allowed = [a for a, plays_as in plays.items() if plays_as == taken]
        if not allowed:
            return None
        low, high = max(low, edges[min(allowed)]), min(high, edges[max(allowed) + 1])
        if not high > low:
            return None
        player._u = (low + high) / 2
        assert split_decision(player.act(seen))[0] == taken
    raise AssertionError("the last decision is the view's")


def test_loki2_triples_query_is_act_replayed_holding_by_holding(rng):
    """On views after a post-flop decision of Loki-2 (its uniform then ties the decisions together)."""
    agent = Loki2Agent(LOKI2["loki2-triples"])
    agent.freeze()
    views = [
        v
        for v in loki_views(rng, 40, agent)
        if any(r.position == v.position and r.round > 0 for r in v.actions)
    ][:5]
    checked = tied = 0
    for view in views:
        policy = agent.policy_for_holdings(blind_view(view))
        clash = board_clash(view.board)
        assert np.all(policy[clash] == 0) and np.allclose(policy[~clash].sum(axis=1), 1)
        true = int(np.flatnonzero((HOLDING_CARDS == sorted(view.hole)).all(axis=1))[0])
        for i in [true, *rng.choice(np.flatnonzero(~clash), 24, replace=False).tolist()]:
            hole = tuple(int(c) for c in HOLDING_CARDS[i])
            plain = replayed_triples(agent, view, hole)
            if plain is None:
                assert i != true
                continue
            np.testing.assert_allclose(policy[i], plain, atol=1e-9, err_msg=f"holding {i}")
            checked += 1
            fresh = split_decision(copy.deepcopy(agent).act(view._replace(hole=hole)))[1]
            tied += fresh is not None and not np.allclose(plain, fresh)
    assert checked >= 20 and tied >= 2  # holdings whose earlier actions changed the chances now


def test_loki1_query_carries_a_semi_bluff_into_the_next_round():
    """Loki (big blind) checked pre-flop, bet the flop and was called; on the turn a holding that bet as a
    semi-bluff keeps betting. The draws among the holdings are compared with the replay, where the
    semi-bluff state decides."""
    from pokerlab.cards import parse_cards
    from pokerlab.programs.loki1.holdings_policy import holding_values

    agent = Loki1Agent()
    agent.freeze()
    board = parse_cards("Ah 7h 2c Kd 9s")
    state = HandState(GameConfig(), [-1, -1, -1, -1], board)
    for action in (CALL, CALL, RAISE):  # button calls, Loki checks; flop: Loki bets
        state.act(action)
    flop = seat_view(state, 1)
    state.act(CALL)
    turn = seat_view(state, 0)
    assert turn.round == 2 and turn.to_call == 0
    follower = Loki1Agent()._new_hand(2, 0, (-1, -1), GameConfig(), (0, 1), flop.blinds)
    follower.follow(flop.actions[:-1], flop.board, {}, (0, 1), learning=False)
    follower.catch_up(1)
    values = holding_values(agent, seat_view_before_bet(flop), follower)
    draws = np.flatnonzero((values[:, 2] < 0.5) & (values[:, 3] > 0.2))
    policy = agent.policy_for_holdings(blind_view(turn))
    checked = 0
    for i in draws[:: max(1, len(draws) // 15)]:
        plain = replayed(agent, turn, tuple(int(c) for c in HOLDING_CARDS[i]))
        if plain is not None:
            np.testing.assert_allclose(policy[i], plain, atol=1e-9)
            checked += plain[RAISE] == 1.0
    assert checked >= 3  # semi-bluffers that bet the turn whatever they hold


def seat_view_before_bet(flop):
    """Loki's flop view before its bet (the flop view of the caller, less Loki's bet)."""
    state = HandState(GameConfig(), [-1, -1, -1, -1], list(flop.board))
    for record in flop.actions[:-1]:
        state.act(record.action)
    return seat_view(state, 0)


@pytest.mark.parametrize("board", ["Ah 7h 2c", "Ah 7h 2h", "7c 7d 2h", "Ah 7h 2c Kd"])
def test_board_tables_by_renamed_suits_are_the_per_holding_counts(board, rng):
    """The board's pair tables, rows filled from a suit renaming of another holding's counts included, are
    the per-holding kernel's own counts, on boards with one, two and three suits, and paired."""
    from pokerlab.analysis.potential import (
        AHEAD,
        TIED,
        one_card_holding_counts,
        rank_table,
        two_card_holding_counts,
    )
    from pokerlab.cards import parse_cards
    from pokerlab.programs.loki1.board_pairs import _BOARD_PAIRS, board_pairs

    cards = tuple(parse_cards(board))
    _BOARD_PAIRS.clear()
    for to_come in (1, 2) if len(cards) == 3 else (1,):
        pairs = board_pairs(cards, to_come)
        codes = np.array(cards, dtype=np.uint8)
        shared = rank_table(codes, to_come + 2)
        kernel = two_card_holding_counts if to_come == 2 else one_card_holding_counts
        for i in rng.choice(pairs.order.size, 40, replace=False):
            counts = kernel(HOLDING_CARDS[pairs.order[i]].astype(np.uint8), codes, shared)[1][pairs.order]
            np.testing.assert_array_equal(pairs.equity[i], 2 * counts[:, AHEAD] + counts[:, TIED])
            low, high = pairs.first_tied[i], pairs.after_tied[i]
            np.testing.assert_array_equal(pairs.tied_ahead[i, : high - low], counts[low:high, AHEAD])
            assert np.all(pairs.tied_ahead[i, high - low :] == 0)
