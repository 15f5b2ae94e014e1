"""Hand strength: the (weighted) chance that our hand is the best one now (Billings et al. 1998 §4.2; Papp
1998 §5.2-5.2.1).

Against one opponent we count the subcases we are ahead of, tied with and behind, each with the
opponent's weight, and HS = (ahead + tied/2) / (ahead + tied + behind). Against n opponents Loki uses
HS_n = HS^n (Papp eq. 5.3) with HS computed against the field array (`field_hand_strength`); the product
of per-opponent strengths (Papp eq. 5.4) is `product_hand_strength`. `holding_strengths` gives HS_1 of
all 1,326 holdings on one board at once, as opponent modelling needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numba as nb
import numpy as np

from pokerlab.analysis.situation import (
    CardsLike,
    Situation,
    is_subcase,
    parse_board,
    parse_situation,
    situation,
)
from pokerlab.cards import CARD_MASKS
from pokerlab.errors import ConfigError
from pokerlab.evaluator import add_card, hand_key, rank_of
from pokerlab.handclass import NUM_CLASSES
from pokerlab.holdings import (
    HOLDING_CARDS,
    check_weights,
    field_array,
    uniform_weights,
)


@dataclass(frozen=True)
class HandStrength:
    """Weighted counts of the opponent's subcases we are ahead of, tied with and behind (Billings et al. 1998
    §4.2).

    With uniform weights the counts are numbers of holdings (628 / 9 / 444 for A♦Q♣ on 3♥4♣J♥).
    `opponents` is the n of HS_n.
    """

    ahead: float
    tied: float
    behind: float
    opponents: int = 1
    weighted: bool = False

    @property
    def hand_strength(self) -> float:
        """HS = (ahead + tied/2) / all, in [0, 1]: the chance we hold the better hand now."""
        return (self.ahead + self.tied / 2) / (self.ahead + self.tied + self.behind)

    @property
    def hs_n(self) -> float:
        """HS_n = HS^n for n opponents (Papp eq. 5.3), in [0, 1]."""
        return self.hand_strength**self.opponents

    def to_dict(self) -> dict:
        """The counts (integers when unweighted), HS, n and HS_n."""
        count = float if self.weighted else int
        return {
            "ahead": count(self.ahead),
            "tied": count(self.tied),
            "behind": count(self.behind),
            "hand_strength": self.hand_strength,
            "opponents": self.opponents,
            "hs_n": self.hs_n,
        }


@nb.njit(inline="always", cache=True)
def rank_with(key: np.uint64, mask: np.uint64, first: int, second: int) -> np.int32:
    """Rank of the partial hand ``(key, mask)`` (e.g. a board) with two more cards (numba kernel)."""
    key, mask = add_card(key, mask, first)
    key, mask = add_card(key, mask, second)
    return rank_of(key, mask)


@nb.njit(cache=True)
def strength_counts(hole: np.ndarray, board: np.ndarray, weights: np.ndarray) -> tuple[float, float, float]:
    """Weighted (ahead, tied, behind) of our hole cards against every subcase on the board (numba kernel)."""
    board_key, board_mask = hand_key(board)
    ours = rank_with(board_key, board_mask, hole[0], hole[1])
    dead = board_mask | CARD_MASKS[hole[0]] | CARD_MASKS[hole[1]]
    ahead = tied = behind = 0.0
    for i in range(HOLDING_CARDS.shape[0]):
        if not is_subcase(i, dead, weights):
            continue
        theirs = rank_with(board_key, board_mask, HOLDING_CARDS[i, 0], HOLDING_CARDS[i, 1])
        if ours > theirs:
            ahead += weights[i]
        elif ours == theirs:
            tied += weights[i]
        else:
            behind += weights[i]
    return ahead, tied, behind


_UNIFORM_TABLE = uniform_weights()


def uniform_strength(hole: Sequence[int], board: Sequence[int]) -> float:
    """HS against one uniformly random holding, from card codes an engine view already checked (no parsing):
    the fast path of players that need it at every decision; `hand_strength` is its reference."""
    ahead, tied, behind = strength_counts(
        np.array(hole, dtype=np.uint8), np.array(board, dtype=np.uint8), _UNIFORM_TABLE
    )
    return (ahead + tied / 2) / (ahead + tied + behind)


def strength_of(known: Situation, opponents: int = 1) -> HandStrength:
    """Hand strength in a prepared `Situation`; HS_n for `opponents` = n >= 1."""
    if not isinstance(opponents, int) or opponents < 1:
        raise ConfigError(f"the number of opponents is an integer >= 1; got {opponents!r}")
    ahead, tied, behind = strength_counts(known.hole, known.board, known.weights)
    return HandStrength(ahead, tied, behind, opponents, known.weighted)


def hand_strength(
    hole: CardsLike, board: CardsLike, weights: object = None, opponents: int = 1
) -> HandStrength:
    """Hand strength of our `hole` cards on a flop, turn or river `board` against an opponent whose
    holdings are weighted by `weights` (1,326 floats, None for uniform); HS_n for `opponents` = n.

    >>> hs = hand_strength("Ad Qc", "3h 4c Jh")  # Billings et al. 1998 §4.2: 628 ahead / 9 tied / 444 behind
    >>> hs.to_dict()["ahead"], hs.to_dict()["tied"], hs.to_dict()["behind"], round(hs.hand_strength, 3)
    (628, 9, 444, 0.585)
    >>> round(hand_strength("Ad Qc", "3h 4c Jh", opponents=5).hs_n, 3)  # HS^5 (Billings et al. 1998 §4.2)
    0.069
    """
    return strength_of(situation(hole, board, weights), opponents)


def field_hand_strength(hole: CardsLike, board: CardsLike, tables: Sequence[np.ndarray]) -> HandStrength:
    """HS_n against the field array of the active opponents' weight tables, n = their number
    (Papp 1998 §5.2.1, §7.3.1 (b): Loki's method)."""
    hole_codes, board_codes = parse_situation(hole, board)
    return hand_strength(hole_codes, board_codes, field_array(tables, hole_codes + board_codes), len(tables))


def product_hand_strength(hole: CardsLike, board: CardsLike, tables: Sequence[np.ndarray]) -> float:
    """HS_n as the product of the hand strengths against each opponent's own weights (Papp eq. 5.4,
    Papp 1998 §5.2.1, §7.3.1 (a)), in [0, 1]."""
    if len(tables) == 0:
        raise ConfigError("product_hand_strength needs the weight table of at least one opponent")
    return float(np.prod([hand_strength(hole, board, t).hand_strength for t in tables]))


@nb.njit(cache=True)
def _all_strengths(board: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """HS_1 of every holding on the board against weighted opponents; NaN where it meets the board.

    One pass ranks every holding and sorts them by rank (a counting sort); a walk up the ranks keeps the
    weight below each rank, in all and per card, so that the opponent holdings that share a card with a
    holding are taken out again: holding i is among the holdings of both its cards, taken out twice, so
    put in once. Weights that add up exactly in any order (e.g. uniform) give the same numbers as
    `strength_counts` one holding at a time.
    """
    board_key, board_mask = hand_key(board)
    n = HOLDING_CARDS.shape[0]
    ranks = np.zeros(n, dtype=np.int32)  # 0: the holding meets the board
    first_at = np.zeros(NUM_CLASSES + 2, dtype=np.int64)  # holdings of rank < r, then the sort's cursor
    card_all = np.zeros(CARD_MASKS.size)  # the weight of every live holding with the card
    everyone = 0.0
    for i in range(n):
        first, second = HOLDING_CARDS[i, 0], HOLDING_CARDS[i, 1]
        if (CARD_MASKS[first] | CARD_MASKS[second]) & board_mask:
            continue
        ranks[i] = rank_with(board_key, board_mask, first, second)
        first_at[ranks[i] + 1] += 1
        card_all[first] += weights[i]
        card_all[second] += weights[i]
        everyone += weights[i]
    for r in range(1, NUM_CLASSES + 2):
        first_at[r] += first_at[r - 1]
    live = first_at[NUM_CLASSES + 1]
    by_rank = np.empty(live, dtype=np.int64)
    for i in range(n):
        if ranks[i] > 0:
            by_rank[first_at[ranks[i]]] = i
            first_at[ranks[i]] += 1
    out = np.full(n, np.nan)
    below = 0.0
    card_below = np.zeros(CARD_MASKS.size)
    card_level = np.zeros(CARD_MASKS.size)
    k = 0
    while k < live:  # one rank at a time
        end, level, r = k, 0.0, ranks[by_rank[k]]
        while end < live and ranks[by_rank[end]] == r:
            i = by_rank[end]
            level += weights[i]
            card_level[HOLDING_CARDS[i, 0]] += weights[i]
            card_level[HOLDING_CARDS[i, 1]] += weights[i]
            end += 1
        for q in range(k, end):
            i = by_rank[q]
            a, b, w = HOLDING_CARDS[i, 0], HOLDING_CARDS[i, 1], weights[i]
            ahead = below - card_below[a] - card_below[b]
            tied = level + w - card_level[a] - card_level[b]
            total = everyone + w - card_all[a] - card_all[b]
            if total > 0:
                out[i] = (ahead + tied / 2) / total
        for q in range(k, end):
            a, b = HOLDING_CARDS[by_rank[q], 0], HOLDING_CARDS[by_rank[q], 1]
            card_below[a] += card_level[a]
            card_below[b] += card_level[b]
            card_level[a] = card_level[b] = 0.0
        below += level
        k = end
    return out


def uniform_holding_strengths(board: Sequence[int] | np.ndarray) -> np.ndarray:
    """HS_1 of each holding against a uniform opponent, from card codes an engine view already checked (no
    parsing): the fast path of the hand values every observer shares; `holding_strengths` is its
    reference (the same kernel after the checks)."""
    return _all_strengths(np.asarray(board, dtype=np.uint8), _UNIFORM_TABLE)


def holding_strengths(board: CardsLike, weights: object = None) -> np.ndarray:
    """HS_1 of each of the 1,326 holdings (`pokerlab.holdings.HOLDING_CARDS` order) on a flop, turn or river
    `board` against an opponent weighted by `weights` (None: uniform), leaving out the opponent holdings
    that share a card with the holding; NaN for holdings that meet the board (and where no weight is left).
    """
    board_codes = np.array(parse_board(board), dtype=np.uint8)
    return _all_strengths(board_codes, uniform_weights() if weights is None else check_weights(weights))
