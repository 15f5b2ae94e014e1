"""The luck of the board, as a control variate for the evolving player's fitness (docs/barone-while.md §14;
``fitness_signal = "luck_adjusted"``, [OUR CHOICE, a repair]).

AIVAT (Burch, Schmid, Moravcik, Morrill and Bowling 2018, "AIVAT: A New Variance Reduction Technique for
Agent Evaluation in Imperfect Information Games", AAAI; arXiv 1612.06915), after the advantage sum of
Zinkevich, Bowling, Bard, Kan and Billings 2006 (the basis of DIVAT), subtracts at every chance event of a
hand the value estimate after the event minus its expectation over the event's outcomes: each term has
expectation zero whatever happened before, so the corrected result keeps the expected chips of the player
for any value estimate, and the better the estimate follows the result the smaller its variance. We keep
only the chance events of the board (flop, turn, river) and the simplest value estimate the player already
has:

    V(deal of round r) = P_r * x_r,   x_r = HS(hole, board_r) ** n_r

with P_r the chips in the pot when round r's cards are dealt (blinds and every bet of the rounds before),
n_r the opponents still in at that moment and HS the hand strength against one random holding
(`pokerlab.analysis.strength.uniform_strength`; x = x1^n as docs/barone-while.md §2). The correction of a
deal that happened while the player was still in is P_r * (x_r - E[x_r]), the expectation over every
card (or flop) the deal could have brought, uniform over the cards the player did not see: exact, the
46-47 turn or river cards enumerated, the 19,600 flops averaged once per starting-hand type
(`flop_means`, shipped as `flop_table`). The luck-adjusted result is R minus the sum of the corrections.
[Measured, docs/barone-while.md §14: P_r * x_r follows R better than 1.5 P_r * x_r, (P_r + 2 or 4 bets)
* x_r or P_r * x1_r; it removes 10-25 % of the variance of a hand's result, not more: what is left is
the luck of the opponents' hidden cards, which the seat does not see.]

Only what the player's seat saw enters: its own hole cards, the board dealt, the blinds and the public
actions (`HandEnd`); nobody's hidden cards, and the correction is computed after the hand, for the fitness
only, never for a decision. Each term has expectation zero given the seat's cards alone, whatever the
player's decisions. AIVAT's unbiasedness needs the expectation given the whole history,
the cards no one holds: the opponents who stay in hold better cards than random (card removal), so given
the betting the terms are not exactly zero-mean; measured, the mean luck is within one to two standard
errors of zero (+0.3 ± 0.3 and +0.6 ± 0.4 chips a hand, docs/barone-while.md §14).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from functools import cache
from importlib import resources

import numpy as np

from pokerlab.actions import FOLD
from pokerlab.analysis.starting_hands import STARTING_HANDS, example_holding, type_of_codes
from pokerlab.analysis.strength import uniform_strength
from pokerlab.engine import BOARD_SIZE, RIVER, ActionRecord

_MAX_OPPONENTS = 9
FLOP_FILE = "flop_strength_means.json"


def flop_means(first: int, second: int) -> np.ndarray:
    """E[HS(hole, flop) ** n] for n = 0..9 over the 19,600 flops of the 50 unseen cards: the plain
    reference (about a second) of the shipped table `flop_table`."""
    deck = [c for c in range(52) if c not in (first, second)]
    strengths = np.array(
        [uniform_strength((first, second), flop) for flop in itertools.combinations(deck, 3)]
    )
    return np.array([np.mean(strengths**n) for n in range(_MAX_OPPONENTS + 1)])


def build_flop_table() -> dict[str, list[float]]:
    """`flop_means` of one hole of each of the 169 types (the mean is the same for every hole of a type:
    the flops are the same under any permutation of the suits); ``python -m
    pokerlab.programs.barone_while.luck`` writes it to the shipped file."""
    return {name: flop_means(*example_holding(name)).tolist() for name in STARTING_HANDS}


@cache
def flop_table() -> dict[str, np.ndarray]:
    """The shipped `build_flop_table` (src/pokerlab/data/flop_strength_means.json)."""
    with resources.files("pokerlab.data").joinpath(FLOP_FILE).open() as f:
        return {name: np.array(values) for name, values in json.load(f).items()}


def expected_x(hole: tuple[int, int], board: Sequence[int], opponents: int) -> float:
    """E[HS(hole, board + next cards) ** opponents] over the next deal from `board` (pre-flop: the flop;
    else one card), uniform over the cards not in `hole` or `board`."""
    if not board:
        return float(flop_table()[type_of_codes(*hole)][opponents])
    seen = set(hole) | set(board)
    board = tuple(board)
    values = [uniform_strength(hole, board + (c,)) ** opponents for c in range(52) if c not in seen]
    return float(np.mean(values))


def board_luck(
    hole: tuple[int, int],
    position: int,
    players: int,
    blinds: Sequence[int],
    actions: Sequence[ActionRecord],
    board: Sequence[int],
) -> float:
    """The sum of P_r * (x_r - E[x_r]) over the board deals of a finished hand that found `position` still
    in (module doc): what the board brought the player beyond its expectation, in chips."""
    luck = 0.0
    for r in range(1, RIVER + 1):
        size = BOARD_SIZE[r]
        if len(board) < size:
            break
        before = [a for a in actions if a.round < r]
        folded = {a.position for a in before if a.action == FOLD}
        if position in folded:
            break
        pot = sum(blinds) + sum(a.amount for a in before)
        opponents = players - len(folded) - 1
        previous = tuple(board[: BOARD_SIZE[r - 1]])
        x = uniform_strength(hole, tuple(board[:size])) ** opponents
        luck += pot * (x - expected_x(hole, previous, opponents))
    return luck


if __name__ == "__main__":
    out = resources.files("pokerlab.data").joinpath(FLOP_FILE)
    with open(str(out), "w") as f:
        json.dump(build_flop_table(), f, indent=0)
    print(f"wrote {out}")
