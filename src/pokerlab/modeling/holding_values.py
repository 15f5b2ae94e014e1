"""The hand value of every holding that re-weighting compares with a threshold (Papp §7.2.2-7.2.3;
Papp 1998 §7.2.2-7.2.3), computed once per board and shared by every observer in the process.

Pre-flop the value is the holding's IR7 income rate; after the flop it is EHS' = HS_1 + (1 - HS_1) PPOT_c
against a uniform opponent, with the crude potential PPOT_c.
"""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np

from pokerlab.analysis.crude_potential import crude_potentials_of
from pokerlab.analysis.income_rate import shipped_table
from pokerlab.analysis.starting_hands import HOLDING_TYPE, STARTING_HANDS
from pokerlab.analysis.strength import uniform_holding_strengths
from pokerlab.holdings import HOLDING_CARDS


def _frozen(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


@cache
def income_rates(players: int) -> np.ndarray:
    """The shipped income rate (x 1000) for `players` of each of the 1,326 holdings (read-only)."""
    table = shipped_table(players)
    by_type = np.array([table[name] for name in STARTING_HANDS], dtype=np.float64)
    return _frozen(by_type[HOLDING_TYPE])


@cache
def sorted_income_rates(players: int) -> np.ndarray:
    """The 1,326 holdings' income rates for `players` in ascending order (percentiles to IR values)."""
    return _frozen(np.sort(income_rates(players)))


def preflop_values() -> np.ndarray:
    """IR7 of each holding: the pre-flop hand value of re-weighting (Papp §7.2.2), read-only."""
    return income_rates(7)


def sorted_preflop_values() -> np.ndarray:
    """The 1,326 IR7 values in ascending order, for turning a percentile into an IR threshold."""
    return sorted_income_rates(7)


@lru_cache(maxsize=256)
def board_values(board: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(HS_1 against a uniform opponent, PPOT_c) of every holding on a board of engine card codes (not
    checked; NaN where a holding meets the board); read-only, cached per board so that all observers at a
    table share the work (`holding_strengths` and `crude_potentials` are the checked references)."""
    codes = np.array(board, dtype=np.uint8)
    return _frozen(uniform_holding_strengths(codes)), _frozen(crude_potentials_of(codes, HOLDING_CARDS))


@lru_cache(maxsize=256)
def postflop_values(board: tuple[int, ...]) -> np.ndarray:
    """EHS' = HS_1 + (1 - HS_1) PPOT_c of each holding on a board (NaN where a holding meets the board);
    read-only, cached per board so that all observers at a table share the work."""
    strength, potential = board_values(board)
    return _frozen(strength + (1.0 - strength) * potential)
