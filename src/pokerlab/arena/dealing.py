"""The cards of every deal, from the match seed alone: deal d is the same whoever plays it, in any order.

Deal d's deck order sorts the 52 cards by a keyed 64-bit hash of (deal, card): a card's key is
splitmix64(splitmix64(k0 ^ d) + k1 + card), with (k0, k1) drawn once from ``SeedSequence([seed, 0])``
(any size of seed), and the deal is the first 2n + 5 cards of that order (hole cards by position, then
the board). splitmix64 is Steele, Lea and Flood's (2014) 64-bit finaliser; ties between two of the 52
keys are negligibly rare and broken by card code. A per-deal random generator cost about 35 us a hand;
`Dealer` computes blocks of deals at once with numpy (about 1 us a deal) and `deal_cards` is the plain
reference it is tested against.
"""

from __future__ import annotations

import numpy as np

_MASK = (1 << 64) - 1
_GOLDEN, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
#: Deals computed at once by a `Dealer`.
BLOCK = 256


def _splitmix64(x: int) -> int:
    z = (x + _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return z ^ (z >> 31)


def deal_keys(seed: int) -> tuple[int, int]:
    """The two 64-bit keys of a match seed (a non-negative int of any size)."""
    k0, k1 = np.random.SeedSequence([seed, 0]).generate_state(2, np.uint64)
    return int(k0), int(k1)


def deal_cards(seed: int, deal: int, players: int) -> list[int]:
    """The 2 * players hole cards (by position) and 5 board cards of deal `deal`: the plain reference."""
    k0, k1 = deal_keys(seed)
    base = _splitmix64(k0 ^ deal)
    order = sorted(range(52), key=lambda card: (_splitmix64((base + k1 + card) & _MASK), card))
    return order[: 2 * players + 5]


def _splitmix64_array(x: np.ndarray) -> np.ndarray:
    z = x + np.uint64(_GOLDEN)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
    return z ^ (z >> np.uint64(31))


def deal_block(seed: int, first: int, count: int) -> np.ndarray:
    """Deck orders of deals first .. first + count - 1, shape (count, 52), vectorised."""
    k0, k1 = deal_keys(seed)
    deals = np.arange(first, first + count, dtype=np.uint64)
    base = _splitmix64_array(deals ^ np.uint64(k0))
    keys = _splitmix64_array(base[:, None] + np.uint64(k1) + np.arange(52, dtype=np.uint64)[None, :])
    return np.argsort(keys, axis=1, kind="stable")


class Dealer:
    """Serves the deals of one seed, computing them a block of `BLOCK` at a time."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._first = -1
        self._rows: list[list[int]] = []

    def cards(self, deal: int, players: int) -> list[int]:
        """The same cards as ``deal_cards(seed, deal, players)``."""
        row = deal - self._first
        if not 0 <= row < len(self._rows):
            self._first = deal
            self._rows = deal_block(self.seed, deal, BLOCK).tolist()
            row = 0
        return self._rows[row][: 2 * players + 5]
