"""The hand-strength inputs of the repaired TD player (docs/learning-spec-td.md §A.8.2): HS_1 and showdown
equity against one uniformly random hand, both in [0, 1] with ties counted half.

* HS_1 is the hand strength of Billings et al. 1998 §4.1 with uniform weights.
* Showdown equity: the chance to win at showdown with the board dealt out. River: HS_1. Turn: exact, from
  the one-card potential table (Billings et al. 1998 §4.2). Flop: Monte-Carlo over `samples` (opponent
  hand, turn, river) triples drawn by a counter-based generator keyed on the known cards, so the value is a
  pure function of the cards (the same in every run); `samples = 0` enumerates exactly (slow, ~1M ranks).
* Pre-flop both are the all-in equity against one random hand, (IR2 / 1000 + 1) / 2 from the shipped
  income-rate table (Papp 1998 §5.1: IR2 is the two-player income rate) [OUR CHOICE for HS_1].
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numba as nb
import numpy as np

from pokerlab.analysis.income_rate import shipped_table
from pokerlab.analysis.potential import potential_counts
from pokerlab.analysis.strength import rank_with
from pokerlab.analysis.strength import uniform_strength as postflop_strength
from pokerlab.cards import CARD_MASKS, NUM_CARDS
from pokerlab.evaluator import add_card, hand_key

_UNIFORM = np.ones(1326)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@cache
def _preflop_equity(low: int, high: int) -> float:
    return (shipped_table(2).of([low, high]) / 1000 + 1) / 2


def preflop_equity(hole: Sequence[int]) -> float:
    """All-in equity of two hole cards against one random hand, from the shipped IR2 table."""
    return _preflop_equity(min(hole), max(hole))


def uniform_strength(hole: Sequence[int], board: Sequence[int]) -> float:
    """HS_1 against a uniform hand (pre-flop: the all-in equity)."""
    return postflop_strength(hole, board) if board else preflop_equity(hole)


def showdown_equity(hole: Sequence[int], board: Sequence[int], samples: int = 256) -> float:
    """Chance to win at showdown (ties half) against one uniform hand with the board dealt out."""
    if not board:
        return preflop_equity(hole)
    if len(board) == 5:
        return uniform_strength(hole, board)
    hole_array, board_array = np.array(hole, np.uint8), np.array(board, np.uint8)
    if len(board) == 3 and samples > 0:
        return flop_equity_sampled(hole_array, board_array, samples)
    final = potential_counts(hole_array, board_array, _UNIFORM, 5 - len(board)).sum(axis=0)
    return (final[0] + final[1] / 2) / final.sum()


@nb.njit(cache=True)
def _mix(z: np.uint64) -> np.uint64:
    """splitmix64's finaliser (a counter-based generator: one 64-bit draw per counter value)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def flop_equity_sampled(hole: np.ndarray, board: np.ndarray, samples: int) -> float:
    """Showdown equity on a flop from `samples` random (opponent hand, turn, river) draws; the draws are
    keyed on the cards' mask, so equal cards give equal values (numba kernel)."""
    key, mask = hand_key(board)
    dead = mask | CARD_MASKS[hole[0]] | CARD_MASKS[hole[1]]
    unseen = np.empty(NUM_CARDS, np.int64)
    n = 0
    for c in range(NUM_CARDS):
        if (CARD_MASKS[c] & dead) == 0:
            unseen[n] = c
            n += 1
    counter = dead * _GOLDEN
    score = 0.0
    for _ in range(samples):
        for i in range(4):  # a partial Fisher-Yates shuffle: 4 distinct cards
            counter += _GOLDEN
            j = i + np.int64(_mix(counter) % np.uint64(n - i))
            unseen[i], unseen[j] = unseen[j], unseen[i]
        k, m = add_card(key, mask, unseen[2])
        k, m = add_card(k, m, unseen[3])
        ours = rank_with(k, m, hole[0], hole[1])
        theirs = rank_with(k, m, unseen[0], unseen[1])
        score += 1.0 if ours > theirs else (0.5 if ours == theirs else 0.0)
    return score / samples
