"""The 169 starting-hand types: 13 pairs ("TT"), 78 suited ("T9s") and 78 offsuit ("T9o") (Billings et al.
1998 §4.1).

Types are listed in the grid order of Papp's Appendix A read from the top: for each high rank from the ace
down, the pair, then for each lower rank the suited and the offsuit type. `GRID` lays them out as the
source does: row and column are ranks 2..A, suited when row > column, offsuit when row < column, pairs on
the diagonal.
"""

from __future__ import annotations

import numpy as np

from pokerlab.analysis.situation import CardsLike
from pokerlab.cards import RANK_CHARS, format_cards, make_card, parse_cards
from pokerlab.errors import InvalidCards
from pokerlab.holdings import HOLDING_CARDS

NUM_TYPES = 169


def _name(high: int, low: int, suited: bool) -> str:
    if high == low:
        return RANK_CHARS[high] * 2
    return RANK_CHARS[high] + RANK_CHARS[low] + ("s" if suited else "o")


def _all_types() -> list[str]:
    names = []
    for high in range(12, -1, -1):
        names.append(_name(high, high, False))
        for low in range(high - 1, -1, -1):
            names += [_name(high, low, True), _name(high, low, False)]
    return names


#: The 169 type names, aces first ("AA", "AKs", "AKo", ..., "32s", "32o", "22").
STARTING_HANDS: tuple[str, ...] = tuple(_all_types())
TYPE_INDEX = {name: i for i, name in enumerate(STARTING_HANDS)}

#: GRID[row][col]: the type of ranks row and col (0..12 = 2..A); suited where row > col, else offsuit.
GRID = [[_name(max(r, c), min(r, c), r > c) for c in range(13)] for r in range(13)]


def hand_type(hole: CardsLike) -> str:
    """The type of two hole cards, e.g. "Ah Kh" -> "AKs", "7c 2d" -> "72o", "Td Tc" -> "TT"."""
    codes = parse_cards(hole)
    if len(codes) != 2:
        raise InvalidCards(f"a starting hand has 2 cards; got {len(codes)}: {format_cards(codes)!r}")
    return type_of_codes(codes[0], codes[1])


def type_of_codes(first: int, second: int) -> str:
    """The type of two distinct card codes, unchecked (an engine view's hole cards): `hand_type` without
    parsing."""
    (r1, s1), (r2, s2) = divmod(first, 4), divmod(second, 4)
    return _name(max(r1, r2), min(r1, r2), s1 == s2)


#: HOLDING_TYPE[i] is the index in STARTING_HANDS of holding i (see `pokerlab.holdings.HOLDING_CARDS`).
HOLDING_TYPE = np.array([TYPE_INDEX[hand_type(h.tolist())] for h in HOLDING_CARDS], dtype=np.int16)


def check_type(name: str) -> str:
    """A type name as written here ("AKs"), from any case ("aks"); `InvalidCards` if it is none of the 169."""
    fixed = name[:2].upper() + name[2:].lower() if isinstance(name, str) else name
    if fixed not in TYPE_INDEX:
        raise InvalidCards(f"invalid starting-hand type {name!r}: a pair 'TT', suited 'T9s' or offsuit 'T9o'")
    return fixed


def example_holding(name: str) -> tuple[int, int]:
    """One holding of the type (all are alike by suit symmetry): suited in spades, else spade and heart."""
    fixed = check_type(name)
    high, low = RANK_CHARS.index(fixed[0]), RANK_CHARS.index(fixed[1])
    return make_card(high, 3), make_card(low, 3 if fixed.endswith("s") else 2)


def combinations_of(name: str) -> int:
    """How many of the 1,326 holdings have the type: 6 per pair, 4 suited, 12 offsuit."""
    fixed = check_type(name)
    return 6 if len(fixed) == 2 else (4 if fixed.endswith("s") else 12)
