"""Best-five-of-seven hand ranking: scalar, batch and numba kernels for enumeration.

A rank is an integer 1..7462: higher is better, equal is a tie (7462 is a royal flush, 1 is 7-5-4-3-2
offsuit). Three ways in:

* `evaluate(cards)`: one hand of 5, 6 or 7 cards, as codes or text;
* `evaluate_batch(array (n, 5..7))`: the fast path, numpy in and numpy out;
* numba kernels for enumeration in other kernels: a *partial hand* is a pair ``(key, mask)`` of
  uint64 that starts at ``(START_KEY, 0)`` and takes cards with `add_card`; `rank_of` ranks it once it
  holds 5 to 7 cards. Hole cards plus a board are thus combined with two additions per card.

How the tables work is told in `pokerlab.evaluator_tables`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import NamedTuple

import numba as nb
import numpy as np

from pokerlab.cards import CARD_MASKS, format_cards, parse_cards, popcount
from pokerlab.errors import InvalidCards
from pokerlab.evaluator_tables import (
    FLUSH_BITS,
    RANK_KEY_MASK,
    SLOT_BITS,
    card_keys,
    load_tables,
)
from pokerlab.evaluator_tables import START_KEY as _START_KEY_INT
from pokerlab.handclass import NUM_CLASSES, HandCategory, all_classes, describe_class

_TABLES = load_tables()

#: What each card code adds to a partial hand's key.
CARD_KEYS = card_keys()
#: The key of a hand with no cards yet.
START_KEY = np.uint64(_START_KEY_INT)
#: CATEGORY_OF_RANK[rank] is the `HandCategory` value of a rank (index 0 unused).
CATEGORY_OF_RANK = _TABLES.category

# numba freezes module-level arrays and scalars into the compiled code as constants.
_DISPLACEMENT = _TABLES.displacement
_NONFLUSH = _TABLES.nonflush
_FLUSH = _TABLES.flush
_MULTIPLIER = np.uint64(_TABLES.multiplier)
_FLUSH_BITS = np.uint64(FLUSH_BITS)
_RANK_KEY_MASK = np.uint64(RANK_KEY_MASK)
_SLOT_MASK = np.uint64((1 << SLOT_BITS) - 1)
_SUIT0, _SUIT1, _SUIT2 = (np.uint64(8 << (32 + 4 * s)) for s in range(3))
_LANE = np.uint64(0x1FFF)
_U32, _U49, _U0, _U16, _U48 = np.uint64(32), np.uint64(49), np.uint64(0), np.uint64(16), np.uint64(48)


@nb.njit(inline="always", cache=True)
def add_card(key: np.uint64, mask: np.uint64, card: int) -> tuple[np.uint64, np.uint64]:
    """The partial hand ``(key, mask)`` with one more card code (numba kernel)."""
    return key + CARD_KEYS[card], mask | CARD_MASKS[card]


@nb.njit(inline="always", cache=True)
def rank_of(key: np.uint64, mask: np.uint64) -> np.int32:
    """Rank 1..7462 of a partial hand holding 5 to 7 distinct cards (numba kernel)."""
    flush = key & _FLUSH_BITS
    if flush != _U0:
        if flush & _SUIT0:
            lane = _U0
        elif flush & _SUIT1:
            lane = _U16
        elif flush & _SUIT2:
            lane = _U32
        else:
            lane = _U48
        return np.int32(_FLUSH[(mask >> lane) & _LANE])
    h = (key & _RANK_KEY_MASK) * _MULTIPLIER
    return np.int32(_NONFLUSH[((h >> _U32) + _DISPLACEMENT[h >> _U49]) & _SLOT_MASK])


@nb.njit(cache=True)
def hand_key(cards: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """The partial hand ``(key, mask)`` of an array of card codes (numba kernel)."""
    key, mask = START_KEY, np.uint64(0)
    for c in cards:
        key, mask = add_card(key, mask, c)
    return key, mask


#: The kernels' card tables carry a 53rd, empty card (code 52) that pads 5- and 6-card rows to seven.
_PAD = 52
_ROW_KEYS = np.append(CARD_KEYS, np.uint64(0))
_ROW_MASKS = np.append(CARD_MASKS, np.uint64(0))


@nb.njit(cache=True, nogil=True)
def _rank_rows(cards: np.ndarray, n_cards: int, out: np.ndarray) -> bool:
    """Rank each row of a C-ordered uint8 (n, 7) array (short hands padded with code 52) into out.

    Returns False if some row does not hold n_cards distinct cards. Unrolled: twice the speed of a loop.
    """
    flat = cards.reshape(cards.size)
    expected = np.uint64(n_cards)
    bad = np.uint64(0)
    for i in range(cards.shape[0]):
        b = 7 * i
        c0, c1, c2, c3 = flat[b], flat[b + 1], flat[b + 2], flat[b + 3]
        c4, c5, c6 = flat[b + 4], flat[b + 5], flat[b + 6]
        key = (
            START_KEY
            + _ROW_KEYS[c0]
            + _ROW_KEYS[c1]
            + _ROW_KEYS[c2]
            + _ROW_KEYS[c3]
            + _ROW_KEYS[c4]
            + _ROW_KEYS[c5]
            + _ROW_KEYS[c6]
        )
        mask = (
            _ROW_MASKS[c0]
            | _ROW_MASKS[c1]
            | _ROW_MASKS[c2]
            | _ROW_MASKS[c3]
            | _ROW_MASKS[c4]
            | _ROW_MASKS[c5]
            | _ROW_MASKS[c6]
        )
        bad |= popcount(mask) ^ expected
        out[i] = rank_of(key, mask)
    return bad == 0


def evaluate_batch(cards: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Ranks (int32, shape (n,)) of n hands given as card codes in an (n, 5), (n, 6) or (n, 7) array.

    ``out``, an int32 array of shape (n,), receives the ranks when given (saves allocating it per call).

    Raises `InvalidCards` naming the first row with a code outside 0..51 or a repeated card.
    """
    arr = np.asarray(cards)
    if arr.ndim != 2 or not 5 <= arr.shape[1] <= 7:
        raise InvalidCards(
            f"evaluate_batch needs an array of shape (n, 5), (n, 6) or (n, 7); got {arr.shape}"
        )
    if arr.dtype != np.uint8:
        if not np.issubdtype(arr.dtype, np.integer):
            raise InvalidCards(f"evaluate_batch needs integer card codes 0..51; got dtype {arr.dtype}")
        if arr.size and (arr.min() < 0 or arr.max() > 51):
            row = int(np.argmax(((arr < 0) | (arr > 51)).any(axis=1)))
            raise InvalidCards(f"row {row} of the batch holds a card code outside 0..51: {arr[row].tolist()}")
        arr = arr.astype(np.uint8)
    elif arr.size and arr.max() > 51:
        row = int(np.argmax((arr > 51).any(axis=1)))
        raise InvalidCards(f"row {row} of the batch holds a card code outside 0..51: {arr[row].tolist()}")
    if out is None:
        out = np.empty(arr.shape[0], dtype=np.int32)
    elif out.shape != (arr.shape[0],) or out.dtype != np.int32 or not out.flags.c_contiguous:
        raise InvalidCards(
            f"out must be a contiguous int32 array of shape ({arr.shape[0]},); got {out.dtype} {out.shape}"
        )
    n_cards = arr.shape[1]
    if n_cards < 7:
        padded = np.full((arr.shape[0], 7), _PAD, dtype=np.uint8)
        padded[:, :n_cards] = arr
    else:
        padded = np.ascontiguousarray(arr)
    if not _rank_rows(padded, n_cards, out):
        ordered = np.sort(arr, axis=1)
        row = int(np.argmax((ordered[:, 1:] == ordered[:, :-1]).any(axis=1)))
        raise InvalidCards(f"row {row} of the batch repeats a card: {format_cards(arr[row].tolist())!r}")
    return out


# Plain-Python copies of the tables for the scalar path (numpy scalar indexing is slow).
_CARD_KEYS_PY = [int(k) for k in CARD_KEYS]
_CARD_MASKS_PY = [int(m) for m in CARD_MASKS]
_NONFLUSH_PY = _NONFLUSH.tolist()
_DISPLACEMENT_PY = _DISPLACEMENT.tolist()
_FLUSH_PY = _FLUSH.tolist()
_MULTIPLIER_PY = int(_MULTIPLIER)


def evaluate(cards: str | Iterable[str | int]) -> int:
    """Rank 1..7462 (higher is better) of the best five of 5, 6 or 7 cards, given as text or codes.

    >>> evaluate("As Ks Qs Js Ts 2c 3d")
    7462
    >>> evaluate("Kh Kd Ks 5c 5h 2d 3c") > evaluate("Ah Ad As 2c 7h 8d 9c")  # a full house beats trips
    True
    """
    if not (isinstance(cards, (list, tuple)) and all(type(c) is int and 0 <= c < 52 for c in cards)):
        cards = parse_cards(cards)
    key, mask = _START_KEY_INT, 0
    for c in cards:
        key += _CARD_KEYS_PY[c]
        mask |= _CARD_MASKS_PY[c]
    if not 5 <= len(cards) <= 7 or mask.bit_count() != len(cards):
        parse_cards(cards)  # names a repeated card
        raise InvalidCards(f"a hand to rank has 5, 6 or 7 cards; got {len(cards)}: {format_cards(cards)!r}")
    return _rank_key(key, mask)


_SLOT_MASK_PY = (1 << SLOT_BITS) - 1


def _rank_key(key: int, mask: int) -> int:
    """Rank of a partial hand of 5 to 7 cards held as Python ints (the plain twin of `rank_of`)."""
    flush = key & FLUSH_BITS
    if flush:
        lane = 16 * ((flush >> 32).bit_length() // 4 - 1)
        return _FLUSH_PY[(mask >> lane) & 0x1FFF]
    h = ((key & RANK_KEY_MASK) * _MULTIPLIER_PY) & 0xFFFFFFFFFFFFFFFF
    return _NONFLUSH_PY[((h >> 32) + _DISPLACEMENT_PY[h >> 49]) & _SLOT_MASK_PY]


def rank_holdings(board: Sequence[int], holdings: Sequence[Sequence[int]]) -> list[int]:
    """Ranks 1..7462 of several holdings (card codes) on one board of 3 to 5 card codes.

    The board's partial hand is built once and shared, so a showdown costs two additions and one lookup
    per player. No validation: callers (the engine's showdown) pass distinct codes 0..51.
    """
    key, mask = _START_KEY_INT, 0
    for c in board:
        key += _CARD_KEYS_PY[c]
        mask |= _CARD_MASKS_PY[c]
    ranks = []
    for hole in holdings:
        k, m = key, mask
        for c in hole:
            k += _CARD_KEYS_PY[c]
            m |= _CARD_MASKS_PY[c]
        ranks.append(_rank_key(k, m))
    return ranks


def best_five(cards: str | Iterable[str | int]) -> list[int]:
    """The five of 5 to 7 cards that make the hand's rank (the highest five where several tie).

    >>> from pokerlab.cards import format_cards
    >>> format_cards(best_five("Kh Kd Ks 5c 5h 2d 3c"))
    'Kh Kd Ks 5c 5h'
    """
    codes = parse_cards(cards)
    rank = evaluate(codes)
    fives = [list(f) for f in combinations(codes, 5) if evaluate(f) == rank]
    return max(fives, key=lambda f: sorted(f, reverse=True))


class RankDescription(NamedTuple):
    """What a rank means: its category and the description a player would write."""

    rank: int
    category: HandCategory
    description: str


def category(rank: int) -> HandCategory:
    """The `HandCategory` of a rank 1..7462.

    >>> category(evaluate("Kh Kd Ks 5c 5h 2d 3c")).name
    'FULL_HOUSE'
    """
    _check_rank(rank)
    return HandCategory(int(CATEGORY_OF_RANK[rank]))


def describe(rank: int) -> RankDescription:
    """Category and description of a rank, e.g. 7296 -> Full House, "Full House, Aces full of Kings".

    >>> rank, kind, text = describe(evaluate("Kh Kd Ks 5c 5h 2d 3c"))
    >>> rank, kind.name, text
    (7276, 'FULL_HOUSE', 'Full House, Kings full of Fives')
    >>> describe(1).description, describe(7462).description
    ('High Card, Seven', 'Royal Flush')
    """
    _check_rank(rank)
    cls = all_classes()[rank - 1]
    return RankDescription(rank, HandCategory(cls[0]), describe_class(cls))


def _check_rank(rank: int) -> None:
    if not isinstance(rank, (int, np.integer)) or not 1 <= rank <= NUM_CLASSES:
        raise InvalidCards(f"invalid hand rank {rank!r}: ranks are 1..{NUM_CLASSES}")


@nb.njit(cache=True, nogil=True)
def seven_card_rank_counts() -> np.ndarray:
    """How many of the C(52, 7) = 133,784,560 seven-card hands have each rank (index 0 unused).

    Enumerates every hand, combining cards incrementally as partial hands.
    """
    counts = np.zeros(NUM_CLASSES + 1, dtype=np.int64)
    for c1 in range(46):
        k1, m1 = add_card(START_KEY, np.uint64(0), c1)
        for c2 in range(c1 + 1, 47):
            k2, m2 = add_card(k1, m1, c2)
            for c3 in range(c2 + 1, 48):
                k3, m3 = add_card(k2, m2, c3)
                for c4 in range(c3 + 1, 49):
                    k4, m4 = add_card(k3, m3, c4)
                    for c5 in range(c4 + 1, 50):
                        k5, m5 = add_card(k4, m4, c5)
                        for c6 in range(c5 + 1, 51):
                            k6, m6 = add_card(k5, m5, c6)
                            for c7 in range(c6 + 1, 52):
                                k7, m7 = add_card(k6, m6, c7)
                                counts[rank_of(k7, m7)] += 1
    return counts
