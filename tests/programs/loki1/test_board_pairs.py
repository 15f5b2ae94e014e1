"""Loki-1's values of every holding at once (`board_pairs`, `holding_values`) against Loki's own values
computed one holding at a time (`Loki1Agent._own_values`, the plain path of `act`), and its rules asked once
per group of holdings (`rule_groups`) against `decide_outcomes` asked for each."""

import operator
from dataclasses import replace

import numpy as np
import pytest

from pokerlab.actions import CALL
from pokerlab.agents.policy import board_clash
from pokerlab.analysis.effective import pot_odds
from pokerlab.cards import parse_cards
from pokerlab.engine import GameConfig, HandState
from pokerlab.engine.view import seat_view
from pokerlab.evaluator import rank_holdings
from pokerlab.holdings import HOLDING_CARDS
from pokerlab.programs.loki1 import VARIANTS, Loki1Agent
from pokerlab.programs.loki1.board_pairs import board_pairs, plain_counts
from pokerlab.programs.loki1.holdings_policy import holding_values
from pokerlab.programs.loki1.postflop import (
    PostflopSituation,
    decide_outcomes,
    semi_bluff_odds,
    showdown_odds,
)
from pokerlab.programs.loki1.rule_groups import VALUE_NAMES, Traced, rule_groups


def view_on(board: list[int], players: int):
    """The view of the first player to act on the last street of `board`, everyone having checked to it."""
    state = HandState(GameConfig(), [-1] * (2 * players), board)
    street = len(board) - 2
    while seat_view(state, state.actor).round < street:
        state.act(CALL)
    return seat_view(state, state.actor)


@pytest.mark.parametrize(
    "board, players, variant, weights",
    [
        ("Ah 7h 2c", 2, "loki1", "random"),  # two cards to come, and one for PPOT
        ("9s 8s 7s", 3, "loki1", "random"),  # one suit; two opponents' field
        ("Ah 7h 2c", 2, "loki1-flop-one-card", "random"),
        ("Ah 7h 2c", 2, "loki1-no-potential", "random"),
        ("Kd Kc 5h 5s", 2, "loki1-uniform", "uniform"),  # paired twice, uniform weights
        ("Qh Jd Tc 9s", 2, "loki1", "random"),  # four to a straight: long runs of ties now
        ("Qh Jd Tc 9s 8h", 3, "loki1", "random"),  # a straight on the board: everyone ties with it
    ],
)
def test_every_holding_gets_loki_own_values(board, players, variant, weights, rng):
    """HS_n, EHS, EHS' and PPOT of every holding (a sample checked) are those `act` computes with it."""
    config = (
        replace(VARIANTS["loki1"], flop_lookahead=1)
        if variant == "loki1-flop-one-card"
        else VARIANTS[variant]
    )
    agent = Loki1Agent(config)
    view = view_on(parse_cards(board), players)
    hand = agent._new_hand(players, view.position, (-1, -1), view.config, view.seats, view.blinds)
    hand.follow(view.actions, view.board, {}, view.seats, learning=False)
    hand.catch_up(view.round)
    if weights == "random":
        hand.weights[:] = rng.uniform(0.01, 1.0, hand.weights.shape)
    values = holding_values(agent, view, hand)
    clash = board_clash(view.board)
    assert np.all(values[clash] == 0)
    live = np.flatnonzero(~clash)
    for i in rng.choice(live, 30, replace=False):
        own = agent._own_values(view._replace(hole=tuple(int(c) for c in HOLDING_CARDS[i])), hand)
        np.testing.assert_allclose(values[i], own, rtol=0, atol=1e-12, err_msg=f"holding {i}")
    assert np.all((values[live] >= 0) & (values[live] <= 1 + 1e-12))


def test_board_pairs_runs_are_the_ties_now(rng):
    """The order is by rank now, each holding's run is the holdings of its rank, and a pair's counts are zero
    exactly where the two holdings share a card, each completion counted once for one of the two otherwise
    (2 ahead + tied of one and of the other add up to twice the completions)."""
    board = tuple(parse_cards("Qh Jd Tc 9s"))
    pairs = board_pairs(board, 1)
    n = pairs.order.size
    assert n == 48 * 47 // 2 and set(pairs.order) == set(np.flatnonzero(~board_clash(board)))
    ranks = np.array(rank_holdings(board, HOLDING_CARDS[pairs.order].tolist()))
    assert np.all(np.diff(ranks) >= 0)
    for i in range(n):  # the run of i: the holdings of its rank, all of them
        low, high = pairs.first_tied[i], pairs.after_tied[i]
        assert np.all(ranks[low:high] == ranks[i]) and low <= i < high
        assert (low == 0 or ranks[low - 1] < ranks[i]) and (high == n or ranks[high] > ranks[i])
    for i in rng.choice(n, 40, replace=False):
        shares = (pairs.cards[:, :, None] == pairs.cards[i][None, None, :]).any(axis=(1, 2))
        assert np.all(pairs.equity[i, shares] == 0) and np.all(pairs.equity[shares, i] == 0)
        others = ~shares
        np.testing.assert_array_equal(pairs.equity[i, others] + pairs.equity[others, i], 2 * pairs.cases)
        for card in pairs.cards[i]:
            holders = pairs.holders[card]
            assert np.all((pairs.cards[holders] == card).any(axis=1)) and holders.size == 47


def random_situations(rng, count):
    """Makers of post-flop situations on random betting facts (each as `Loki1Agent._situation` makes them),
    with the thresholds those facts give (pot odds, semi-bluff and showdown odds)."""
    for _ in range(count):
        round_index = int(rng.integers(1, 4))
        bets_to_call = int(rng.integers(0, 3))
        bet_size = 10.0 if round_index == 1 else 20.0
        facts = dict(
            round_index=round_index,
            bets_to_call=bets_to_call,
            bets_made=int(rng.integers(bets_to_call, 4)),
            bet_size=bet_size,
            later_bet_size=20.0,
            pot=float(rng.integers(2, 30)) * 10,
            to_call=bets_to_call * bet_size,
            opponents_active=int(rng.integers(1, 4)),
            opponents_to_act=int(rng.integers(0, 3)),
            called_bet_this_round=bool(rng.integers(2)),
            can_raise=bool(rng.integers(2)),
        )

        def make(*values, facts=facts):  # the values in `VALUE_NAMES` order, then semi-bluffing
            return PostflopSituation(
                **dict(zip((*VALUE_NAMES, "semi_bluffing"), values, strict=True)), **facts
            )

        probe = make(0.0, 0.0, 0.0, 0.0, False)
        odds = [
            pot_odds(probe.to_call, probe.pot),
            semi_bluff_odds(bet_size, probe.pot),
            showdown_odds(probe),
        ]
        yield make, odds


def test_rules_asked_per_group_are_the_rules_asked_per_holding(rng):
    """On random betting facts and values (some exactly at the rules' thresholds), every holding of a group
    gets the outcomes `decide_outcomes` gives it, and the groups split the holdings."""
    rules = VARIANTS["loki1"].rules
    constants = [rules.make4, rules.make2, rules.make1, rules.check_raise_strength, rules.bluff_strength]
    sizes = []
    for make, odds in random_situations(rng, 30):
        values = rng.random((150, 4))
        at = rng.random(values.shape) < 0.2  # some values exactly at a threshold
        values[at] = rng.choice(constants + odds, int(at.sum()))
        for bluffing in (False, True):
            groups = rule_groups(make, values, bluffing, rules)
            rows = np.sort(np.concatenate([group for group, _ in groups]))
            np.testing.assert_array_equal(rows, np.arange(len(values)))
            for group, outcomes in groups:
                for row in group:
                    assert decide_outcomes(make(*values[row], bluffing), rules) == outcomes
            sizes.append(len(groups))
    assert max(sizes) <= 12 and max(sizes) >= 4  # a handful of rule calls, not one per holding


def test_a_value_used_but_by_comparison_with_a_number_is_refused():
    notes: list = []
    value = Traced(0.4, 1, notes)
    assert value >= 0.3 and not 0.5 <= value
    assert notes == [(1, operator.ge, 0.3, True), (1, operator.ge, 0.5, False)]
    uses = [
        lambda v: v + 0.1,
        lambda v: 2 * v,
        lambda v: -v,
        lambda v: bool(v),
        lambda v: float(v),
        lambda v: v == 0.4,
        lambda v: v < Traced(0.5, 2, notes),
        lambda v: v > "0.5",
    ]
    for use in uses:
        with pytest.raises(TypeError, match="ehs"):
            use(value)


@pytest.mark.parametrize(
    "board, cards_to_come",
    [
        ("9s 8s 7s", 2),  # one suit: every holding can flush, six renamings keep the board
        ("Ah 7h 2c", 2),  # two suits
        ("Kd Kc 5h", 2),  # paired: full houses beat flushes
        ("Kh Kd 5h", 2),  # paired, two suits
        ("9s 8s 7s", 1),
        ("7h 7d 7c", 1),  # three of a kind
        ("Ah 7h 2c", 1),
        ("9h 8h 2h 3h", 1),  # four of a suit on the turn: every holding can flush
        ("Ah 7h 2h 5d", 1),  # three of a suit on the turn
        ("Qh Jd Tc 9s", 1),  # no flush: the rank classes alone
        ("Kd Kc 5h 5s", 1),
    ],
)
def test_pair_tallies_equal_the_counts_holding_by_holding(board, cards_to_come):
    """The counts made for every pair at once (rank classes, flush corrections) are exactly those of the
    per-holding kernels (`plain_pair_counts`)."""
    codes = tuple(parse_cards(board))
    pairs = board_pairs(codes, cards_to_come)
    equity, tied_ahead = plain_counts(codes, cards_to_come, pairs)
    np.testing.assert_array_equal(pairs.equity, equity)
    np.testing.assert_array_equal(pairs.tied_ahead, tied_ahead)
    assert pairs.equity.dtype == np.float32 and pairs.tied_ahead.shape == tied_ahead.shape


def test_pair_tallies_on_random_boards(rng):
    """Random flops, with two cards to come and one, and turns, against the per-holding kernels."""
    for size in (3, 3, 4, 4):
        codes = tuple(int(c) for c in rng.choice(52, size, replace=False))
        for cards_to_come in (2, 1) if size == 3 else (1,):
            pairs = board_pairs(codes, cards_to_come)
            equity, tied_ahead = plain_counts(codes, cards_to_come, pairs)
            np.testing.assert_array_equal(pairs.equity, equity)
            np.testing.assert_array_equal(pairs.tied_ahead, tied_ahead)
