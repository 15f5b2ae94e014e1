"""The action selector: Loki-2's stand-alone betting strategy "B" draws its action from its own probability
triple (Billings et al. 1999 §4; Peña 1999 node30).

With u uniform in [0, 1): fold if u < f, call if u < f + c, else raise. [OUR CHOICE, Peña 1999 node30]
the same u may be kept for the whole hand, so that Loki-2 is consistently aggressive or passive within a hand.

>>> [select_action((0.1, 0.65, 0.25), u) for u in (0.05, 0.5, 0.9)]  # the selector's example triple
[0, 1, 2]
"""

from __future__ import annotations

import numba as nb

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.errors import ConfigError


def select_action(triple: tuple[float, float, float], u: float) -> int:
    """FOLD, CALL or RAISE for a triple (fold, call, raise) and a uniform u in [0, 1)."""
    if not 0.0 <= u < 1.0:
        raise ConfigError(f"the action selector needs u in [0, 1), got {u!r}")
    return draw(triple[0], triple[1], u)


@nb.njit(cache=True)
def draw(fold: float, call: float, u: float) -> int:
    """The selector's rule for fold and call probabilities and a uniform u, unchecked (numba, so that the
    simulator's play-outs draw with the same code, `pokerlab.programs.loki2.triples.triple_action`)."""
    if u < fold:
        return FOLD
    if u < fold + call:
        return CALL
    return RAISE
