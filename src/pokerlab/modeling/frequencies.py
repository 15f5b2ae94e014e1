"""Per-opponent action frequencies and the thresholds they imply (Papp 1998 §7.1).

An opponent's actions are counted per context: betting round (pre-flop, flop, turn, river) times bets
to call (0, 1, 2 or more), twelve categories in all. Sparse categories are mixed with defaults, and a
frequency becomes a *threshold*: the percentile of hands the observed action seems to require.
"""

from __future__ import annotations

import numpy as np

from pokerlab.actions import FOLD, RAISE

ROUNDS = 4
BET_BUCKETS = 3
#: Observations after which a category's own frequencies are trusted alone (Papp eq. 7.3).
FULL_TRUST = 20

#: d'[bets to call][action]: the "typical IRC player" (Papp App. B, Table B.2).
DEFAULT_FREQUENCIES = np.array([[0.0, 0.5, 0.5], [0.5, 0.3, 0.2], [0.7, 0.2, 0.1]])


def bet_bucket(bets_to_call: int) -> int:
    """The bets-to-call category 0, 1 or 2 (two or more)."""
    return min(max(bets_to_call, 0), BET_BUCKETS - 1)


class ActionFrequencies:
    """Counts of fold / check-call / bet-raise per (round, bets to call), kept across hands."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts = np.zeros((ROUNDS, BET_BUCKETS, 3), dtype=np.int64)

    def observe(self, round_index: int, bets_to_call: int, action: int) -> None:
        """Count one action (FOLD, CALL or RAISE) taken facing bets_to_call in a round 0..3."""
        self.counts[round_index, bet_bucket(bets_to_call), action] += 1

    def mixed(self, round_index: int, bets_to_call: int) -> np.ndarray:
        """f''[round, bets]: observed frequencies, mixed with a fallback until FULL_TRUST observations.

        The fallback is d' pre-flop and this player's own f'' of the previous round later
        (Papp 1998 §7.1.1, our reconstruction of Papp eqs. 7.3-7.4).
        """
        b = bet_bucket(bets_to_call)
        fallback = DEFAULT_FREQUENCIES[b] if round_index == 0 else self.mixed(round_index - 1, b)
        row = self.counts[round_index, b]
        n = int(row.sum())
        if n >= FULL_TRUST:
            return row / n
        if n == 0:
            return fallback.copy()
        return (n / FULL_TRUST) * (row / n) + (1 - n / FULL_TRUST) * fallback

    def mixed_frequency(self, round_index: int, bets_to_call: int, action: int) -> float:
        """``mixed(round_index, bets_to_call)[action]``, computed alone with the same arithmetic (the fast
        path of re-weighting, which needs one entry)."""
        b = bet_bucket(bets_to_call)
        row = self.counts[round_index, b].tolist()  # Python ints: int / int is numpy's float64 division
        n = row[0] + row[1] + row[2]
        if n >= FULL_TRUST:
            return row[action] / n
        if round_index == 0:
            fallback = float(DEFAULT_FREQUENCIES[b, action])
        else:
            fallback = self.mixed_frequency(round_index - 1, b, action)
        if n == 0:
            return fallback
        return (n / FULL_TRUST) * (row[action] / n) + (1 - n / FULL_TRUST) * fallback


def threshold_percentile(frequencies: np.ndarray, action: int, bets_to_call: int) -> float | None:
    """μ as a percentile in [0, 1] of the hands an observed action seems to need (Papp 1998 §7.1.2).

    Loki-1 tells only folding from playing: a call or raise facing a bet needs a hand better than the
    fraction that folds (μ = f''(fold)); a bet when nothing is to call needs μ = 1 - f''(bet). A check
    when free and a fold say nothing (None): no negative re-weighting.
    """
    if action == FOLD:
        return None
    if bet_bucket(bets_to_call) == 0:
        if action != RAISE:
            return None
        return float(1.0 - frequencies[RAISE])
    return float(frequencies[FOLD])
