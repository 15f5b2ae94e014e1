"""Where a decision of the evolving player sits in the hypercube, and its probability of winning x
(Barone & While 2000 §3.2-3.3; docs/barone-while.md §2 and §5).

* x1: after the flop, hand strength against one uniformly random holding (ties count half); pre-flop,
  (IR2/1000 + 1)/2, the all-in equity against one random hand (IR2 = 2 P(win) - 1, Papp 1998 §5.1).
  x = x1^n with n the opponents still in the hand (``multiway_x = "power"``), or x1 (``"single"``).
* position: early, middle or late by our index in this round's acting order (§5).
* bets to call: chips owed over the round's bet size, rounded up (or down), at most 3 (§5).
"""

from __future__ import annotations

import math

from pokerlab.analysis.income_rate import shipped_table
from pokerlab.analysis.starting_hands import type_of_codes
from pokerlab.analysis.strength import uniform_strength
from pokerlab.engine import PREFLOP, blind_positions

EARLY, MIDDLE, LATE = 0, 1, 2
POSITIONS = ("early", "middle", "late")
STAGES = ("pre-flop", "post-flop", "post-turn", "post-river")
#: The hypercube's risk dimension: 0, 1, 2 or 3 bets to call (docs/barone-while.md §5).
MAX_BETS_TO_CALL = 3


def single_opponent_x(hole: tuple[int, int], board: tuple[int, ...]) -> float:
    """x1 in [0, 1]: the chance `hole` (card codes) beats one random holding on `board` (docs/barone-while.md
    §2)."""
    if not board:
        return (shipped_table(2).income_rate[type_of_codes(*hole)] / 1000.0 + 1.0) / 2.0
    return uniform_strength(hole, board)


def position_class(index: int, players: int) -> int:
    """EARLY, MIDDLE or LATE for the `index`-th to act (0 first) of `players` (>= 2): f = i/(m - 1), early
    below 1/3, middle below 2/3 (in integers, docs/barone-while.md §5)."""
    if 3 * index < players - 1:
        return EARLY
    if 3 * index < 2 * (players - 1):
        return MIDDLE
    return LATE


def acting_order(players: int, round_index: int) -> list[int]:
    """Positions in this round's acting order: pre-flop from left of the big blind (heads-up: the button
    first), later rounds from position 0 (the engine's positions, `pokerlab.engine.state`)."""
    first = (blind_positions(players)[1] + 1) % players if round_index == PREFLOP else 0
    return list(range(first, players)) + list(range(first))


def hand_position(view, among_active: bool = True) -> int:
    """The position class of the acting seat: its index in this round's acting order among the players
    still in the hand (``among_active``) or among all dealt in (``position_rule = "dealt_order"``)."""
    order = acting_order(view.players, view.round)
    if among_active:
        folded = view.folded
        order = [p for p in order if not folded[p]]
    return position_class(order.index(view.position), len(order))


def bets_to_call(view, round_up: bool = True) -> int:
    """Bets owed now: (highest contribution this round - ours) / bet size, rounded up (the small blind's half
    bet counts as 1) or down, at most 3."""
    bets = view.bets
    owed = (max(bets) - bets[view.position]) / view.bet_size
    count = math.ceil(owed) if round_up else math.floor(owed)
    return min(MAX_BETS_TO_CALL, count)


def opponents_in(view) -> list[int]:
    """Positions of the opponents still in the hand (not folded, all-ins included), in the order they act
    after us this round."""
    folded = view.folded
    order = acting_order(view.players, view.round)
    me = order.index(view.position)
    after = order[me + 1 :] + order[:me]
    return [p for p in after if not folded[p]]
