"""The repaired TD player's hand-strength inputs against a plain enumeration with the batch evaluator."""

import itertools

import numpy as np
import pytest

from pokerlab import evaluate_batch
from pokerlab.analysis.income_rate import income_rate
from pokerlab.cards import parse_cards
from pokerlab.programs.td.strength import flop_equity_sampled, showdown_equity, uniform_strength


def equity_by_enumeration(hole, board):
    """Showdown equity against one uniform hand: every opponent holding and every completion of the board."""
    unseen = [c for c in range(52) if c not in hole and c not in board]
    ours, theirs = [], []
    for rest in itertools.combinations(unseen, 5 - len(board)):
        left = [c for c in unseen if c not in rest]
        for opp in itertools.combinations(left, 2):
            ours.append(list(hole) + list(board) + list(rest))
            theirs.append(list(opp) + list(board) + list(rest))
    a = evaluate_batch(np.array(ours, np.uint8))
    b = evaluate_batch(np.array(theirs, np.uint8))
    return float(np.mean((a > b) + 0.5 * (a == b)))


def test_turn_and_river_equity_exact():
    hole = parse_cards("Ad Qc")
    for board in ("3h 4c Jh 2s", "3h 4c Jh 2s Qd"):
        board = parse_cards(board)
        assert showdown_equity(hole, board) == pytest.approx(equity_by_enumeration(hole, board), abs=1e-12)
    river = parse_cards("3h 4c Jh 2s Qd")
    assert uniform_strength(hole, river) == pytest.approx(equity_by_enumeration(hole, river), abs=1e-12)


def test_flop_equity_sampled_is_unbiased_and_deterministic():
    rng = np.random.default_rng(3)
    gaps = []
    for _ in range(30):
        cards = rng.permutation(52)[:5].tolist()
        hole, board = np.array(cards[:2], np.uint8), np.array(cards[2:], np.uint8)
        exact = showdown_equity(cards[:2], cards[2:], samples=0)
        sampled = flop_equity_sampled(hole, board, 256)
        assert sampled == flop_equity_sampled(hole, board, 256)  # a pure function of the cards
        gaps.append(sampled - exact)
    gaps = np.array(gaps)
    assert abs(gaps.mean()) < 3 * 0.5 / np.sqrt(256 * 30) + 0.01
    assert np.abs(gaps).max() < 0.12


def test_flop_exact_matches_enumeration():
    hole, board = parse_cards("Ah 8h"), parse_cards("9h 8c 2c")
    assert showdown_equity(hole, board, samples=0) == pytest.approx(
        equity_by_enumeration(hole, board), abs=1e-12
    )


def test_preflop_is_the_ir2_equity():
    assert uniform_strength(parse_cards("As Ad"), []) == pytest.approx(0.852)  # LEARNING-SPEC §B.2
    assert showdown_equity(parse_cards("7c 2d"), []) == (income_rate("7c 2d", 2) / 1000 + 1) / 2
