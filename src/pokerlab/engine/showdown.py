"""Settling a showdown: the main pot and each side pot on its own, ties split (docs/getting-started.md).

Pots are cut at each distinct amount committed by a player still in the hand: the slice between two such
levels holds every player's chips in that band (folded players' included) and is contested by the players
still in who committed at least its top. A slice with a single contender is an uncalled bet going back.
Chips a folded player committed above every remaining player (possible only after folding when checking
was free) are dead money in the last pot.
Adjacent pots won by exactly the same players are combined before they are split (as PokerKit does), and
the odd chips of a split go to the first winner left of the button (the lowest position).
"""

from __future__ import annotations


def settle(committed: list[int], ranks: list[int]) -> list[int]:
    """Chips each position takes from the pot.

    ``committed[i]``: chips position i put in over the whole hand; ``ranks[i]``: its hand rank 1..7462,
    or 0 for a folded player (who contests nothing).
    """
    n = len(committed)
    winnings = [0] * n
    levels = sorted({committed[i] for i in range(n) if ranks[i]})
    if len(levels) == 1:  # everyone still in put in as much: one pot, the whole of it (the loop's first pass)
        best = max(ranks)
        winners = [i for i in range(n) if ranks[i] == best]
        share, odd = divmod(sum(committed), len(winners))
        for i in winners:
            winnings[i] = share
        winnings[winners[0]] += odd
        return winnings
    previous, top = 0, max(committed)
    pots: list[list] = []  # [amount, winners]
    for level in levels:
        cut = top if level == levels[-1] else level
        pot = 0
        for c in committed:
            if c > previous:
                pot += (c if c < cut else cut) - previous
        best, winners = 0, []
        for i in range(n):
            if ranks[i] and committed[i] >= level:
                if ranks[i] > best:
                    best, winners = ranks[i], [i]
                elif ranks[i] == best:
                    winners.append(i)
        if pots and pots[-1][1] == winners:
            pots[-1][0] += pot
        else:
            pots.append([pot, winners])
        previous = level
    for pot, winners in pots:
        share, odd = divmod(pot, len(winners))
        for i in winners:
            winnings[i] += share
        winnings[winners[0]] += odd
    return winnings


def exact_split_nets(committed: list[int], ranks: list[int]) -> list[float]:
    """Each position's net (chips, summing to 0) where every pot is split in exactly equal parts, fractions
    of a chip included, as the ACPC reference server counts a showdown (its ``valueOfState``): 2.5 and 2.5
    where `settle` gives the odd chip to the first winner.

    ``committed`` and ``ranks`` as `settle` takes them. The pots are the layers of what the positions put
    in, from the smallest amount up, each contested by every position that put chips into it (a folded one
    loses its part); a position's net is, over the layers it put chips into, its share of the layer won
    less its part in it.
    """
    n = len(committed)
    nets = [0.0] * n
    below = 0
    for level in sorted({c for c in committed if c > 0}):
        size = level - below
        inside = [i for i in range(n) if committed[i] >= level]
        best = max(ranks[i] for i in inside)
        winners = [i for i in inside if ranks[i] == best and best > 0]
        for i in inside:
            if i in winners:
                nets[i] += size * (len(inside) - len(winners)) / len(winners)
            else:
                nets[i] -= size
        below = level
    return nets
