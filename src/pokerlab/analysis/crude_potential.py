"""PPOT_c: a crude, fast positive potential for every holding on a board (Papp 1998 §7.2.3).

Re-weighting needs the potential of about a thousand opponent holdings after every action, far too many
for exact enumeration, so Loki counts *outs* by features instead. Our rule [our choice; Papp 1998 §7.2.3
leaves it open]:

* flush draw (four of a suit with at least one hole card): 9 outs; when the board holds three of the suit
  each out counts 0.5 (our suited card a deuce) to 1 (an ace), as rival flush draws are likelier;
* straight draw using a hole card: 4 outs per rank that completes a straight (open-ended 8, gutshot 4),
  3 per rank beside a flush draw (the suited out is already counted);
* improving our pair cards: 2 outs for a hole card above the board (an overcard), 1 for a lower one, and
  1 for a hole card that already pairs (trips);
* at most 15 outs; PPOT_c = max(0.07, outs / unseen cards) (47 unseen on the flop, 46 on the turn), 0.05 for
  made flushes and straights and 0 on the river.

The four constants were fitted to the exact one-card PPOT against a uniform opponent (`tests` check the
fit on fresh boards: |PPOT_c - PPOT1| <= 0.05 in about 90 % of random cases, Papp reports 95 % for his).

`crude_potential` is the plain reference; `crude_potentials` the numba kernel for all 1,326 holdings
(`crude_potentials_of` for any rows of holdings, callable from numba code).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pokerlab.analysis.situation import CardsLike, parse_board
from pokerlab.cards import format_cards, parse_cards
from pokerlab.errors import InvalidCards
from pokerlab.holdings import HOLDING_CARDS, NUM_HOLDINGS

MAX_OUTS = 15.0
FLUSH_OUTS = 9.0
OUTS_PER_STRAIGHT_RANK = 4.0
OVERCARD_OUTS = 2.0
UNDERCARD_OUTS = 1.0
PAIRED_OUTS = 1.0
FLOOR = 0.07
MADE_HAND = 0.05

#: The ten straights as 13-bit rank masks (bit 12 = ace), the wheel A-2-3-4-5 first.
STRAIGHTS = np.array([0b1000000001111] + [0b11111 << low for low in range(9)], dtype=np.int64)


def _has_straight(ranks: int) -> bool:
    return any(ranks & s == s for s in STRAIGHTS.tolist())


def _rank_bits(cards: list[int]) -> int:
    bits = 0
    for c in cards:
        bits |= 1 << (c // 4)
    return bits


def crude_potential(hole: CardsLike, board: CardsLike) -> float:
    """PPOT_c of one holding on a flop or turn (0 on the river): the plain reference, written for clarity."""
    hole_codes = parse_cards(hole)
    board_codes = parse_board(board)
    if len(hole_codes) != 2 or set(hole_codes) & set(board_codes):
        raise InvalidCards(
            f"need two hole cards apart from the board; got {format_cards(hole_codes)!r} "
            f"on {format_cards(board_codes)!r}"
        )
    if len(board_codes) == 5:
        return 0.0
    cards = hole_codes + board_codes
    suits = [sum(1 for c in cards if c % 4 == s) for s in range(4)]
    all_ranks = _rank_bits(cards)
    if max(suits) >= 5 or _has_straight(all_ranks):
        return MADE_HAND
    outs = 0.0
    flush_draw = False
    for s in range(4):
        ours = [c for c in hole_codes if c % 4 == s]
        if suits[s] == 4 and ours:
            flush_draw = True
            top_suited = max(c // 4 for c in ours)
            outs += FLUSH_OUTS if len(ours) == 2 else FLUSH_OUTS * (0.5 + 0.5 * top_suited / 12)
    board_ranks = _rank_bits(board_codes)
    completing = 0
    for r in range(13):
        if not all_ranks >> r & 1:
            # a straight that needs a hole card: the board plus r alone must not make it
            if _has_straight(all_ranks | 1 << r) and not _has_straight(board_ranks | 1 << r):
                completing += 1
    outs += completing * (OUTS_PER_STRAIGHT_RANK - 1 if flush_draw else OUTS_PER_STRAIGHT_RANK)
    hole_ranks = [c // 4 for c in hole_codes]
    top = max(c // 4 for c in board_codes)
    for r in hole_ranks:
        if hole_ranks[0] == hole_ranks[1] or board_ranks >> r & 1:
            outs += PAIRED_OUTS
        else:
            outs += OVERCARD_OUTS if r > top else UNDERCARD_OUTS
    return max(FLOOR, min(outs, MAX_OUTS) / (52 - len(cards)))


#: Whether each 13-bit set of ranks holds a straight (`_has_straight` of every set, for the kernel; tested).
_STRAIGHT_IN = ((np.arange(1 << 13)[:, None] & STRAIGHTS) == STRAIGHTS).any(axis=1)


@nb.njit(cache=True, inline="always")
def _straight_in(ranks: int) -> bool:
    return _STRAIGHT_IN[ranks]


@nb.njit(cache=True)
def crude_potentials_of(board: np.ndarray, holdings: np.ndarray) -> np.ndarray:
    """PPOT_c of each row (two card codes) of `holdings` on `board` (card codes, uint8), in numba code: NaN
    for a holding that meets the board."""
    out = np.full(holdings.shape[0], np.nan)
    board_ranks = 0
    board_suits = np.zeros(4, dtype=np.int64)
    top = 0
    dead = np.zeros(52, dtype=np.bool_)
    for c in board:
        board_ranks |= 1 << (c // 4)
        board_suits[c % 4] += 1
        top = max(top, c // 4)
        dead[c] = True
    unseen = 52 - 2 - board.shape[0]
    for i in range(holdings.shape[0]):
        a, b = holdings[i, 0], holdings[i, 1]
        if dead[a] or dead[b] or board.shape[0] == 5:
            if not (dead[a] or dead[b]):
                out[i] = 0.0
            continue
        ra, rb, sa, sb = a // 4, b // 4, a % 4, b % 4
        all_ranks = board_ranks | (1 << ra) | (1 << rb)
        na, nb_ = board_suits[sa] + 1 + (sa == sb), board_suits[sb] + 1 + (sa == sb)
        if na >= 5 or nb_ >= 5 or _straight_in(all_ranks):
            out[i] = MADE_HAND
            continue
        outs = 0.0
        flush_draw = False
        if sa == sb:
            if na == 4:
                flush_draw = True
                outs += FLUSH_OUTS
        else:
            if na == 4:
                flush_draw = True
                outs += FLUSH_OUTS * (0.5 + 0.5 * ra / 12)
            if nb_ == 4:
                flush_draw = True
                outs += FLUSH_OUTS * (0.5 + 0.5 * rb / 12)
        completing = 0
        for r in range(13):
            if not (all_ranks >> r) & 1:
                if _straight_in(all_ranks | (1 << r)) and not _straight_in(board_ranks | (1 << r)):
                    completing += 1
        outs += completing * (OUTS_PER_STRAIGHT_RANK - 1.0 if flush_draw else OUTS_PER_STRAIGHT_RANK)
        for r in (ra, rb):
            if ra == rb or (board_ranks >> r) & 1:
                outs += PAIRED_OUTS
            elif r > top:
                outs += OVERCARD_OUTS
            else:
                outs += UNDERCARD_OUTS
        out[i] = max(FLOOR, min(outs, MAX_OUTS) / unseen)
    return out


def crude_potentials(board: CardsLike) -> np.ndarray:
    """PPOT_c of each of the 1,326 holdings (HOLDING_CARDS order) on a flop, turn or river; NaN for holdings
    that meet the board."""
    codes = np.array(parse_board(board), dtype=np.uint8)
    result = crude_potentials_of(codes, HOLDING_CARDS)
    assert result.shape == (NUM_HOLDINGS,)
    return result
