"""The cards and seats of the ACPC reference dealer (``project_acpc_server``, protocol 2.0.0) for a seed.

Its random numbers are the 32-bit Mersenne Twister MT19937 (Matsumoto and Nishimura 1998) started from
the match seed by the generator's own integer initialisation (``mt[0] = seed``, ``mt[i] = 1812433253 *
(mt[i-1] ^ (mt[i-1] >> 30)) + i`` mod 2^32, §"init_genrand" of their reference code). Python's
`random.Random` runs the same MT19937, so we load that state into it and take its 32-bit outputs.

Each hand, from the first, deals from a fresh deck ordered suit by suit (clubs, diamonds, hearts, spades),
ranks 2 to A within a suit: a card is drawn at index ``u % left`` (``u`` the next 32-bit output, ``left``
the cards still in the deck) and the deck's last card moves into its place. The hole cards come first,
position by position (two each), then the board, round by round. Card codes are ours: rank * 4 + suit,
which is the reference's numbering too.

Seating: position p of hand h holds seat ``(p + h) mod n`` (the seat rotates one position back each hand)
or, with fixed seats (its ``-f``), seat p, as its ``playerToSeat`` does.
"""

from __future__ import annotations

import random

_N = 624  # MT19937's state words
_DECK = tuple(rank * 4 + suit for suit in range(4) for rank in range(13))


def mt19937_state(seed: int) -> tuple[int, ...]:
    """MT19937's 624 state words after its integer initialisation with `seed` (taken mod 2^32)."""
    words = [seed & 0xFFFFFFFF]
    for i in range(1, _N):
        prev = words[-1]
        words.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    return tuple(words)


class ReferenceDeals:
    """The reference dealer's deals for one seed, hand after hand (call `next` once per hand, in order)."""

    def __init__(self, seed: int, players: int, board: int = 5) -> None:
        if not 0 <= seed < 2**32:
            raise ValueError(f"the reference dealer's seed is 0 to {2**32 - 1}, got {seed}")
        self.rng = random.Random()
        self.rng.setstate((3, (*mt19937_state(seed), _N), None))
        self.count = 2 * players + board

    def next(self) -> list[int]:
        """The next hand's cards: the hole cards by position (two each), then the board."""
        deck = list(_DECK)
        draw = self.rng.getrandbits
        left = len(deck)
        cards = []
        for _ in range(self.count):
            i = draw(32) % left
            cards.append(deck[i])
            left -= 1
            deck[i] = deck[left]
        return cards


def reference_seats(hand: int, players: int, fixed: bool = False) -> list[int]:
    """The seat at each position in `hand` (counted from 0): rotating, or fixed (``-f``)."""
    if fixed:
        return list(range(players))
    return [(p + hand) % players for p in range(players)]
