"""The 52 cards as integer codes, their text form, 64-bit card masks and a seeded deck.

A card code is ``4 * rank + suit`` with rank 0..12 for 2..A and suit 0..3 for clubs, diamonds, hearts,
spades (the layout phevaluator and most C evaluators use), so ``"2c" == 0`` and ``"As" == 51``.
A card mask has bit ``16 * suit + rank`` set for each card: the 13 rank bits of a suit sit in one
16-bit lane, which makes flush and straight tests single shifts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from numba.extending import intrinsic

from pokerlab.errors import InvalidCards

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
RANK_NAMES = (
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
NUM_CARDS = 52

_SUIT_SYMBOLS = {"♣": 0, "♦": 1, "♥": 2, "♠": 3}
_SEPARATORS = " ,;\t\n[]()'\""
_FORMAT_HELP = (
    "a card is a rank (2-9, T or 10, J, Q, K, A) followed by a suit (c, d, h, s), e.g. 'As', 'Td', '10h'"
)

#: CARD_MASKS[code] is the 64-bit mask of one card (bit 16 * suit + rank).
CARD_MASKS = np.array([1 << (16 * (c % 4) + c // 4) for c in range(NUM_CARDS)], dtype=np.uint64)


@intrinsic
def popcount(typingctx, mask):  # noqa: ARG001 - numba's intrinsic signature
    """How many cards a 64-bit mask holds (one popcnt instruction; callable from numba code only)."""

    def codegen(context, builder, signature, args):  # noqa: ARG001
        return builder.ctpop(args[0])

    return mask(mask), codegen


def card_rank(code: int) -> int:
    """Rank 0..12 (2..A) of a card code."""
    return code // 4


def card_suit(code: int) -> int:
    """Suit 0..3 (c, d, h, s) of a card code."""
    return code % 4


def make_card(rank: int, suit: int) -> int:
    """The code of the card of rank 0..12 and suit 0..3."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise InvalidCards(f"no card has rank {rank!r} and suit {suit!r}: rank is 0..12, suit 0..3")
    return 4 * rank + suit


def _parse_one(text: str, whole: str) -> int:
    if len(text) == 3 and text[:2] == "10":
        rank_text, suit_text = "T", text[2]
    elif len(text) == 2:
        rank_text, suit_text = text[0], text[1]
    else:
        raise InvalidCards(f"invalid card {text!r} in {whole!r}: {_FORMAT_HELP}")
    rank = RANK_CHARS.find(rank_text.upper())
    suit = _SUIT_SYMBOLS.get(suit_text, SUIT_CHARS.find(suit_text.lower()))
    if rank < 0 or suit < 0:
        raise InvalidCards(f"invalid card {text!r} in {whole!r}: {_FORMAT_HELP}")
    return 4 * rank + suit


def _split_card_text(text: str) -> list[str]:
    """Cut "Ad Qc", "AdQc", "ad,qc" or "10h 9h" into one piece per card."""
    pieces: list[str] = []
    i = 0
    while i < len(text):
        if text[i] in _SEPARATORS:
            i += 1
            continue
        width = 3 if text.startswith("10", i) else 2
        pieces.append(text[i : i + width])
        i += width
    return pieces


def _item_text(item: object) -> str:
    """An item of a card list as a person reads it in a message: a valid code as its card ("As")."""
    if isinstance(item, int | np.integer) and not isinstance(item, bool) and 0 <= int(item) < NUM_CARDS:
        return format_card(int(item))
    return str(item)


def parse_card(card: str | int) -> int:
    """One card from text ("As", "td", "10h", "A♠") or a code 0..51.

    >>> parse_card("As"), parse_card("10h"), parse_card(0)
    (51, 34, 0)
    """
    codes = parse_cards([card])
    return codes[0]


def parse_cards(cards: str | Iterable[str | int]) -> list[int]:
    """Card codes from text ("Ad Qc", "AdQc", "ad,qc") or an iterable of texts and codes.

    Raises `InvalidCards` naming the bad piece for malformed text, codes outside 0..51, or a card
    that appears twice.

    >>> parse_cards("Ad Qc")  # code = 4 * rank + suit: Ad = 4 * 12 + 1, Qc = 4 * 10 + 0
    [49, 40]
    >>> parse_cards("AdQc") == parse_cards("ad, qc") == parse_cards(["Ad", 40]) == parse_cards("A♦ Q♣")
    True
    >>> parse_cards("10h 9h")
    [34, 30]
    >>> parse_cards("As As")
    Traceback (most recent call last):
    pokerlab.errors.InvalidCards: card 'As' appears twice in 'As As'
    """
    if isinstance(cards, str):
        items: list[str | int] = list(_split_card_text(cards))
        whole = cards
    else:
        items = list(cards)
        whole = " ".join(_item_text(c) for c in items)
    codes: list[int] = []
    for item in items:
        if isinstance(item, str):
            pieces = _split_card_text(item)
            if len(pieces) != 1:
                raise InvalidCards(f"invalid card {item!r} in {whole!r}: {_FORMAT_HELP}")
            codes.append(_parse_one(pieces[0], whole))
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            if not 0 <= int(item) < NUM_CARDS:
                raise InvalidCards(f"invalid card code {int(item)} in {whole!r}: codes are 0..51")
            codes.append(int(item))
        else:
            raise InvalidCards(f"invalid card {item!r} in {whole!r}: {_FORMAT_HELP}, or a code 0..51")
    seen: set[int] = set()
    for code in codes:
        if code in seen:
            raise InvalidCards(f"card {format_card(code)!r} appears twice in {whole!r}")
        seen.add(code)
    return codes


def format_card(code: int) -> str:
    """Text of one card code, e.g. 51 -> "As".

    >>> format_card(51), format_card(0)
    ('As', '2c')
    """
    if not 0 <= code < NUM_CARDS:
        raise InvalidCards(f"invalid card code {code!r}: codes are 0..51")
    return RANK_CHARS[code // 4] + SUIT_CHARS[code % 4]


def format_cards(codes: Iterable[int], sep: str = " ") -> str:
    """Text of several card codes, e.g. [49, 40] -> "Ad Qc".

    >>> format_cards([49, 40]), format_cards(parse_cards("ts 9s"), sep="")
    ('Ad Qc', 'Ts9s')
    """
    return sep.join(format_card(int(c)) for c in codes)


def card_mask(codes: Iterable[int]) -> int:
    """The 64-bit mask (bit 16 * suit + rank) of a set of card codes.

    >>> hex(card_mask(parse_cards("2c As")))  # 2c: bit 0; As: bit 16 * 3 + 12 = 60
    '0x1000000000000001'
    """
    mask = 0
    for code in codes:
        mask |= 1 << (16 * (code % 4) + code // 4)
    return mask


def mask_cards(mask: int) -> list[int]:
    """The card codes in a 64-bit card mask, lowest code first.

    >>> format_cards(mask_cards(card_mask(parse_cards("Ad Qc"))))
    'Qc Ad'
    """
    return [c for c in range(NUM_CARDS) if mask >> (16 * (c % 4) + c // 4) & 1]


class Deck:
    """A 52-card deck dealt in an order drawn from an explicit `numpy.random.Generator`.

    ``Deck(rng, dead=[...])`` leaves the dead cards out (cards already known to be elsewhere).

    >>> deck = Deck(np.random.default_rng(7), dead=parse_cards("Ad Qc"))
    >>> len(deck), len(deck.deal(5)), deck.remaining
    (50, 5, 45)
    """

    def __init__(self, rng: np.random.Generator, dead: Sequence[int] = ()) -> None:
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"Deck needs a numpy.random.Generator, got {type(rng).__name__}")
        self._rng = rng
        dead_set = set(parse_cards(list(dead)))
        self._cards = np.array([c for c in range(NUM_CARDS) if c not in dead_set], dtype=np.uint8)
        self._next = 0
        self.shuffle()

    def shuffle(self) -> None:
        """Put every card back and draw a new order."""
        self._rng.shuffle(self._cards)
        self._next = 0

    def deal(self, n: int = 1) -> list[int]:
        """The next n card codes; raises `InvalidCards` when fewer than n remain."""
        if n < 0 or self._next + n > len(self._cards):
            raise InvalidCards(f"cannot deal {n} cards: {self.remaining} remain in the deck")
        out = self._cards[self._next : self._next + n]
        self._next += n
        return [int(c) for c in out]

    @property
    def remaining(self) -> int:
        """How many cards are left to deal."""
        return len(self._cards) - self._next

    def __len__(self) -> int:
        return self.remaining
