"""DIVAT for heads-up limit: the baseline policy's worked cases (D1), a value balanced at every card (D2),
known expectations (D3), self-play (D4), and the results-folder checks."""

import numpy as np
import pytest

from pokerlab import play_match
from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.analysis.strength import uniform_strength
from pokerlab.cards import parse_cards
from pokerlab.engine import GameConfig, HandState
from pokerlab.errors import ConfigError
from pokerlab.evaluation.divat import Divat, baseline_action, divat_of_folder, preflop_percentiles
from pokerlab.evaluation.hindsight import HindsightHand
from pokerlab.evaluation.stats import estimator_row
from pokerlab.holdings import HOLDING_INDEX

ALL = (FOLD, CALL, RAISE)


def test_baseline_worked_cases():
    # the nuts bets, raises and caps; air checks and folds to a bet below the B / (P + B) boundary
    assert baseline_action(1.0, 1, 0, 20, 0, ALL) == RAISE
    assert baseline_action(1.0, 1, 10, 60, 3, ALL) == RAISE
    assert baseline_action(1.0, 1, 10, 80, 4, (FOLD, CALL)) == CALL  # capped
    assert baseline_action(0.05, 2, 0, 40, 0, ALL) == CALL  # never folds when checking is free
    # facing 20 into a pot of 60: folds the weakest 20 / 80 = 25 %
    assert baseline_action(0.2499, 2, 20, 60, 1, ALL) == FOLD
    assert baseline_action(0.25, 2, 20, 60, 1, ALL) == CALL
    # two strong hands reach the cap on the river
    config = GameConfig()
    holes = parse_cards("As Ah Ks Kh")
    state = HandState(config, holes, parse_cards("Ac Kc 2d 7h 9s"))
    divat = Divat(config, seed=0)
    while state.round < 3:
        state.act(CALL)
    end = divat.play_round(state)
    assert end.round == 4 and end.betting_string().split("/")[-1] == "rrrrc"


def test_preflop_percentiles_order_the_starting_hands():
    p = preflop_percentiles()
    aces, trash = (HOLDING_INDEX[tuple(parse_cards(cards))] for cards in ("As Ah", "7c 2d"))
    assert p[aces] > 0.99 and p[trash] < 0.2 and abs(p.mean() - 0.5) < 1e-9


def _hand(cards: str, actions=()) -> HindsightHand:
    codes = tuple(parse_cards(cards))
    deck = codes + tuple(c for c in range(52) if c not in codes)
    return HindsightHand(0, 0, 0, ("a", "b"), (10**12, 10**12), deck[:4], deck, deck[4:9], actions, (0, 0))


def _reference_round(state: HandState) -> HandState:
    """The baseline's round played by a plain loop, the strength from the analysis floor's per-hand HS."""
    state = state.copy()
    r = state.round
    while state.actor >= 0 and state.round == r:
        p = state.actor
        hole = state.holes[2 * p : 2 * p + 2]
        s = uniform_strength(hole, list(state.board_seen))
        state.act(baseline_action(s, r, state.to_call(p), state.pot, state.bets_made, state.legal_actions()))
    return state


@pytest.mark.parametrize("flop_bets", [0, 1, 2])
def test_the_value_is_balanced_at_the_turn_and_the_river(flop_bets):
    """D2: V at the end of the flop is the mean over the 45 x 44 ordered turn and river cards of V at the
    end of the baseline's turn, and V at the end of the turn the mean over 44 rivers of the showdown after
    the baseline's river: exactly, with every run-out enumerated."""
    config = GameConfig()
    hand = _hand("Qs Jh 9c 9d Ts 8h 2c 4d 5s")
    divat = Divat(config, seed=0, samples=45 * 44)
    state = hand.start(config)
    state.act(CALL), state.act(CALL)  # pre-flop: call, check
    for _ in range(flop_bets):
        state.act(RAISE)
    while state.round == 1:
        state.act(CALL)
    flop_runouts = divat.runouts(hand, 3)
    assert len(flop_runouts) == 45 * 44 == len(set(flop_runouts))
    turn_values = []
    for turn in sorted({r[3] for r in flop_runouts}):
        start = state.copy()
        start.runout = list(hand.board[:3]) + [turn, 0]
        start.board_seen = tuple(start.runout[:4])
        end_turn = _reference_round(start)
        rivers = divat.runouts(_hand_with(hand, turn), 4)
        assert len(rivers) == 44
        river_values = []
        for runout in rivers:
            s = end_turn.copy()
            s.runout, s.board_seen = list(runout), tuple(runout[:5])
            river_values.append(_reference_round(s).nets)
        expected = np.mean(river_values, axis=0)
        assert np.allclose(divat.value(end_turn, rivers), expected, atol=1e-9)
        turn_values.append(expected)
    assert np.allclose(divat.value(state, flop_runouts), np.mean(turn_values, axis=0), atol=1e-9)


def _hand_with(hand: HindsightHand, turn: int) -> HindsightHand:
    board = hand.board[:3] + (turn,)
    rest = tuple(c for c in hand.deck if c not in hand.holes + board)
    deck = hand.holes + board + rest
    return HindsightHand(0, 0, 0, hand.names, hand.stacks, hand.holes, deck, deck[4:9], (), (0, 0))


def _rows(out, samples=16):
    data = divat_of_folder(out, seed=1, samples=samples)
    return [
        estimator_row(
            "divat", "", data.adjusted[:, j], data.raw[:, j], data.units, data.small_bet, data.big_blind, 0
        )
        for j in range(2)
    ], data


def test_known_expectations_and_self_play(tmp_path):
    """D3: always-raise against always-call is worth 0 to each (every hand a capped showdown); D4:
    self-play is worth 0, on a narrower interval than the raw result's; against a check-folder DIVAT's
    mean stays by the raw one."""
    play_match(["raise", "call"], 300, seed=2, out=tmp_path / "rc")  # no duplicate: it would cancel exactly
    rows, data = _rows(tmp_path / "rc")
    assert rows[0].ci95[0] < 0 < rows[0].ci95[1] and abs(rows[0].bias_z) < 3 and rows[0].sd_ratio < 0.5
    assert np.allclose(data.adjusted.sum(axis=1), 0)
    play_match(["fold", "call"], 100, seed=2, duplicate=True, out=tmp_path / "fc")
    rows, data = _rows(tmp_path / "fc")
    assert abs(rows[0].bias_z) < 3
    play_match(["tight-aggressive", "tight-aggressive"], 300, seed=3, out=tmp_path / "self")
    rows, _ = _rows(tmp_path / "self")
    assert rows[0].ci95[0] < 0 < rows[0].ci95[1] and rows[0].sd_ratio < 1


def test_a_folder_divat_does_not_cover_gets_one_line(tmp_path):
    play_match(["call", "raise", "call"], 5, seed=1, out=tmp_path / "three")
    with pytest.raises(ConfigError, match="DIVAT covers heads-up matches; .* has 3 seats"):
        divat_of_folder(tmp_path / "three", seed=0)
    play_match(["call", "raise"], 5, GameConfig(stack=200), seed=1, out=tmp_path / "stacks")
    with pytest.raises(ConfigError, match="unlimited stacks"):
        divat_of_folder(tmp_path / "stacks", seed=0)


@pytest.mark.reproduction
def test_the_published_divat_figure_of_loki1_against_tight_aggressive(tmp_path):
    """docs/evaluation.md's row, re-made in full (20,000 hands, minutes): Loki-1 against tight-aggressive,
    10,000 duplicate deals, match seed 28, evaluation seed 1: DIVAT +0.227 +- 0.018 sb/hand beside the raw
    +0.210 +- 0.023, SD ratio 0.794, z(X - u) +1.13."""
    play_match(["loki1", "tight-aggressive"], 10000, seed=28, duplicate=True, out=tmp_path / "m")
    data = divat_of_folder(tmp_path / "m", seed=1)
    row = estimator_row("divat", "", data.adjusted[:, 0], data.raw[:, 0], data.units, 10, 10, 0)
    assert round(row.sb_per_hand, 3) == 0.227 and round(row.sd_ratio, 3) == 0.794 and abs(row.bias_z) < 3
