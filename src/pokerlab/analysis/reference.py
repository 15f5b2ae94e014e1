"""Plain-Python enumeration of hand strength and hand potential: slow and obviously right.

This is the oracle the fast kernels of `pokerlab.analysis.strength` and `pokerlab.analysis.potential` are
tested against. It follows Billings et al. 1998 §4.2 word for word: for every opponent holding (weighted as
in §4.3),
and for potential every way the board can be completed, compare our best hand with the opponent's.
Holdings of weight 0 are skipped, which changes no sum.
"""

from __future__ import annotations

from itertools import combinations

from pokerlab.analysis.situation import CardsLike, parse_situation
from pokerlab.evaluator import evaluate
from pokerlab.holdings import HOLDING_INDEX, check_weights, uniform_weights

AHEAD, TIED, BEHIND = 0, 1, 2


def _status(ours: int, theirs: int) -> int:
    """AHEAD, TIED or BEHIND, from our rank and the opponent's (higher rank wins)."""
    if ours > theirs:
        return AHEAD
    return TIED if ours == theirs else BEHIND


def _opponents(hole: list[int], board: list[int], weights: object):
    """Every opponent holding (a, b) that shares no card with hole and board, with its weight if not 0."""
    table = uniform_weights() if weights is None else check_weights(weights)
    unseen = [c for c in range(52) if c not in hole and c not in board]
    for a, b in combinations(unseen, 2):
        weight = float(table[HOLDING_INDEX[a, b]])
        if weight != 0.0:
            yield [a, b], weight, unseen


def reference_strength(hole: CardsLike, board: CardsLike, weights: object = None) -> list[float]:
    """[ahead, tied, behind]: weighted counts of opponent holdings we beat, tie and lose to now (§4.2)."""
    hole, board = parse_situation(hole, board)
    counts = [0.0, 0.0, 0.0]
    ours = evaluate(hole + board)
    for opponent, weight, _ in _opponents(hole, board, weights):
        counts[_status(ours, evaluate(opponent + board))] += weight
    return counts


def reference_potential(
    hole: CardsLike, board: CardsLike, cards_to_come: int, weights: object = None
) -> list[list[float]]:
    """The 3x3 potential table T[now][final] (rows and columns: ahead, tied, behind) of Billings et al. 1998
    Table 2.

    Each (opponent holding, set of `cards_to_come` future board cards) case adds the holding's weight.
    """
    hole, board = parse_situation(hole, board, sizes=(3, 4))
    if not 1 <= cards_to_come <= 5 - len(board):
        raise ValueError(f"with {len(board)} board cards, 1 to {5 - len(board)} cards are to come")
    table = [[0.0] * 3 for _ in range(3)]
    now = evaluate(hole + board)
    for opponent, weight, unseen in _opponents(hole, board, weights):
        before = _status(now, evaluate(opponent + board))
        rest = [c for c in unseen if c not in opponent]
        for future in combinations(rest, cards_to_come):
            final = board + list(future)
            table[before][_status(evaluate(hole + final), evaluate(opponent + final))] += weight
    return table
