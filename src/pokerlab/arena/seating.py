"""Who sits where: button rotation for ordinary matches, seat permutations for duplicate deals.

Duplicate (Papp 1998, ch. 8; Papp 1998 ch. 8): each deal is replayed once per player with the players
permuted, so that every player holds every position's cards once. For n players with n + 1 prime (2, 4, 6,
10 players) we use Loki's scheme seat(k, j) = (k * j) mod (n + 1), k, j = 1..n, which also seats every
player behind every other exactly once; for other n, a rotation.
"""

from __future__ import annotations


def _is_prime(m: int) -> bool:
    return m > 1 and all(m % d for d in range(2, int(m**0.5) + 1))


def duplicate_positions(n: int) -> list[list[int]]:
    """positions[k][j]: the position (0..n-1) of player j in replay k of a duplicate deal."""
    if _is_prime(n + 1):
        return [[(k * j) % (n + 1) - 1 for j in range(1, n + 1)] for k in range(1, n + 1)]
    return [[(j + k) % n for j in range(n)] for k in range(n)]


def ring_positions(seats_with_chips: list[int], button: int, n_seats: int) -> list[int]:
    """The seats in position order (first left of the button ... the button) among those with chips."""
    return sorted(seats_with_chips, key=lambda s: (s - button - 1) % n_seats)
