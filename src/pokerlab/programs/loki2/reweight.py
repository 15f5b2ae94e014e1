"""Re-weighting by triples ("R") and specific opponent modelling by per-opponent thresholds (Billings et al.
1999 §4; Peña 1999 node34-35).

After the flop, when an opponent acts, every holding h he may hold gets w[h] <- w[h] * PT(h)[action], with
PT(h) the triple of h in his context at that moment: calls and raises are told apart, and checks re-weight
too (negative re-weighting, which Loki-1 lacked). [OUR CHOICE, Peña 1999 node34] the 0.01 floor of Loki-1 is
kept. Pre-flop, Loki-1's income-rate re-weighting stays (Papp 1998 §7.2.2).

The opponent's hand value is EHS' = HS_n + (1 - HS_n) PPOT_c, HS_n = HS_1^n with HS_1 against a uniform
opponent and n his active opponents [OUR CHOICE, Papp 1998 §7.2.3; Peña 1999 node31]: one pass over all
holdings per board, shared by every observer in the process.

Generic modelling asks every opponent's triples with Loki-1's thresholds 0.50 / 0.85; specific modelling
with his own, from his mixed action frequencies f'' in the context (`som_thresholds`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from pokerlab.actions import FOLD, RAISE
from pokerlab.engine import BOARD_SIZE, PREFLOP, ActionRecord
from pokerlab.modeling.frequencies import DEFAULT_FREQUENCIES, ActionFrequencies, bet_bucket
from pokerlab.modeling.holding_values import board_values
from pokerlab.modeling.reweighting import MIN_WEIGHT
from pokerlab.programs.loki1.opponents import HandFollower
from pokerlab.programs.loki2.triples import TripleContext, TripleRules, holding_triples


def reweight_by_triples(weights: np.ndarray, triples: np.ndarray, action: int) -> np.ndarray:
    """New weights w * PT[action], floored at 0.01 (also where the triple is NaN, a holding meeting the
    board).

    >>> from pokerlab.actions import CALL
    >>> round(float(reweight_by_triples(np.array([0.9]), np.array([[0.0, 0.2, 0.8]]), CALL)[0]), 12)  # node34
    0.18
    """
    return np.fmax(MIN_WEIGHT, weights * triples[:, action])


@lru_cache(maxsize=128)
def triple_factors(
    board: tuple[int, ...],
    opponents: int,
    context: TripleContext,
    rules: TripleRules,
    t1: float,
    t2: float,
    action: int,
) -> np.ndarray:
    """PT(h)[action] of every holding h on `board` (`holding_triples`' arguments, the board's
    `board_values`; NaN where h meets the board): read-only, cached, as every observer of one action at a
    table asks the same public question."""
    strength, potential = board_values(board)
    triples = holding_triples(strength, potential, opponents, context, rules, t1, t2)
    column = np.ascontiguousarray(triples[:, action])
    column.flags.writeable = False
    return column


def reweight_in_place(weights: np.ndarray, factors: np.ndarray) -> None:
    """``weights[:] = max(0.01, weights * factors)`` in place, with an opponent's `triple_factors`: what
    `reweight_by_triples` of `holding_triples` gives, to the last bit (tested)."""
    np.multiply(weights, factors, out=weights)
    np.fmax(weights, MIN_WEIGHT, out=weights)


def som_thresholds(mixed: np.ndarray, bets_to_call: int, low: float, high: float) -> tuple[float, float]:
    """(t1, t2) of an opponent from his mixed frequencies f'' (fold, call, raise) in a context [OUR CHOICE,
    Peña 1999 node35]: t1 = f''(fold), t2 = 1 - f''(raise) on the EHS' scale (the percentile reading of Papp
    1998 §7.2), clamped to [low, high], t2 >= t1. With nothing to call a fold says nothing and either Make
    rule bets, so t1 = t2 = 1 - f''(bet) there.

    >>> som_thresholds(np.array([0.5, 0.3, 0.2]), 1, 0.3, 0.95)  # Papp's Table B.2 player facing a bet
    (0.5, 0.8)
    """
    if bet_bucket(bets_to_call) == 0:
        t1 = t2 = 1.0 - float(mixed[RAISE])
    else:
        t1, t2 = float(mixed[FOLD]), 1.0 - float(mixed[RAISE])
    t1 = min(max(t1, low), high)
    t2 = min(max(t2, t1, low), high)
    return t1, t2


class TripleFollower(HandFollower):
    """Loki-1's `HandFollower` whose post-flop re-weighting is by triples (``modelling`` from the
    Loki-1 config: generic or specific thresholds); pre-flop, and when ``by_triples`` is off, it is
    Loki-1's own. ``blinds`` are the chips each position posted, to know the pot at every action."""

    def __init__(self, players, me, hole, config, bet_sizes, blinds, loki2) -> None:
        super().__init__(players, me, hole, config, bet_sizes, blinds)
        self.loki2 = loki2

    def context(self, record: ActionRecord) -> TripleContext:
        """The context of the opponent who took `record`, when he took it (before it changed anything)."""
        return TripleContext.of(self.facts.context_of(record), self.bet_sizes[-1], False)

    def thresholds(
        self, freq: ActionFrequencies | None, round_index: int, bets_to_call: int
    ) -> tuple[float, float]:
        """(t1, t2) of an opponent's triples in a round, facing `bets_to_call` (Peña 1999 node35)."""
        loki2, rules = self.loki2, self.loki2.triples.rules
        if self.config.modelling == "generic":
            return rules.make1, rules.make2
        if freq is None:
            mixed = DEFAULT_FREQUENCIES[bet_bucket(bets_to_call)]
        else:  # the two entries read, each with `mixed`'s arithmetic
            fold, raise_ = (freq.mixed_frequency(round_index, bets_to_call, a) for a in (FOLD, RAISE))
            mixed = (fold, 1.0 - fold - raise_, raise_)
        return som_thresholds(mixed, bets_to_call, loki2.som_low, loki2.som_high)

    def _observe(self, record, faced, board, frequencies, identity, reweighting, learning) -> None:
        if self.round == PREFLOP or self.loki2.reweighting != "triples":
            super()._observe(record, faced, board, frequencies, identity, reweighting, learning)
            return
        # Loki-1 counts the action; the re-weighting is ours
        super()._observe(record, faced, board, frequencies, identity, False, learning)
        p, action = record.position, record.action
        if action == FOLD or not (reweighting and self.config.weighting):
            return
        context = self.context(record)
        t1, t2 = self.thresholds(frequencies.get(identity), self.round, faced)
        board = board[: BOARD_SIZE[self.round]]  # the round's board
        opponents = max(context.opponents_active, 1)
        factors = triple_factors(board, opponents, context, self.loki2.triples, t1, t2, action)
        reweight_in_place(self.weights[p], factors)
