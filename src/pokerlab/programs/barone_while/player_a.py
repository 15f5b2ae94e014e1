"""Player A, "a simple, but competent, tight-aggressive player" (Barone & While 2000 §4.3), as one candidate
per hypercube cell (docs/barone-while.md §10; the rules are ours, Findler's could not be retrieved).

Targets on the single-opponent scale x1, for b bets to call: pre-flop, continue 0.62 / 0.58 / 0.52 and
raise 0.66 / 0.63 / 0.58 (early / middle / late) plus 0.02 b, converted to the x = x1^n scale with
n_ref = 9 / 7 / 4; after the flop, continue 0.55 + 0.05 b and raise 0.70 + 0.04 b, plus 0.03 early and minus
0.03 late, n_ref = 1; continue at most 0.95, raise at most 0.97 and at least continue + 0.02. With
t_c = continue^n_ref and t_r = raise^n_ref: a_f = t_c, b_f = g(6/t_c), a_c = (t_c + t_r)/2,
b_c = g(2/(t_r - t_c)), c_c = 0.5, a_r = 1 - t_r, b_r = g(6/t_r), where g(e) = e/(1 + e).

On the single-opponent scale (``scale = "x1"``, for a player whose x is x1 against every opponent,
``multiway_x = "single"``) every threshold is read on x1 (n_ref = 1) and the pre-flop ones are re-tuned
[OUR CHOICE] to the shares of the 1,326 holdings a tight-aggressive player enters with (VPIP 12-30 %,
docs/barone-while.md §10): continue 0.60 / 0.56 / 0.52 (the top 15 / 27 / 41 % by IR2), raise 0.64 / 0.60 /
0.56 (top 7 / 15 / 27 %); the post-flop numbers stay as above.
"""

from __future__ import annotations

import numpy as np

from pokerlab.errors import ConfigError
from pokerlab.programs.barone_while.candidate import gene_from_eval
from pokerlab.programs.barone_while.hypercube import CELL_SHAPE

PREFLOP_CONTINUE = (0.62, 0.58, 0.52)
PREFLOP_RAISE = (0.66, 0.63, 0.58)
PREFLOP_N_REF = (9, 7, 4)
PREFLOP_CONTINUE_X1 = (0.60, 0.56, 0.52)
PREFLOP_RAISE_X1 = (0.64, 0.60, 0.56)
SCALES = ("x", "x1")
PER_BET_PREFLOP = 0.02
POSTFLOP_CONTINUE, POSTFLOP_RAISE = 0.55, 0.70
PER_BET_CONTINUE, PER_BET_RAISE = 0.05, 0.04
POSITION_SHIFT = (0.03, 0.0, -0.03)


def thresholds(stage: int, position: int, bets: int, scale: str = "x") -> tuple[float, float]:
    """(t_c, t_r): player A's continue and raise thresholds on the `scale` ("x" or "x1") of a cell."""
    if scale not in SCALES:
        raise ConfigError(f"unknown scale {scale!r} of player A; scales: {', '.join(SCALES)}")
    if stage == 0:
        single = scale == "x1"
        cont = (PREFLOP_CONTINUE_X1 if single else PREFLOP_CONTINUE)[position] + PER_BET_PREFLOP * bets
        rais = (PREFLOP_RAISE_X1 if single else PREFLOP_RAISE)[position] + PER_BET_PREFLOP * bets
        n_ref = 1 if single else PREFLOP_N_REF[position]
    else:
        cont = POSTFLOP_CONTINUE + PER_BET_CONTINUE * bets + POSITION_SHIFT[position]
        rais = POSTFLOP_RAISE + PER_BET_RAISE * bets + POSITION_SHIFT[position]
        n_ref = 1
    cont = min(cont, 0.95)
    rais = max(min(rais, 0.97), cont + 0.02)
    return cont**n_ref, rais**n_ref


def cell_genes(stage: int, position: int, bets: int, scale: str = "x") -> np.ndarray:
    """Player A's candidate (a_f, b_f, a_c, b_c, c_c, a_r, b_r) for one cell."""
    t_c, t_r = thresholds(stage, position, bets, scale)
    return np.array(
        [
            t_c,
            gene_from_eval(6.0 / t_c),
            (t_c + t_r) / 2.0,
            gene_from_eval(2.0 / (t_r - t_c)),
            0.5,
            1.0 - t_r,
            gene_from_eval(6.0 / t_r),
        ]
    )


def player_a_cells(scale: str = "x") -> np.ndarray:
    """Player A's 48 candidates in hypercube cell order (stage, position, bets to call), shape (48, 7), on
    the x or the x1 `scale`."""
    return np.array([cell_genes(*cell, scale) for cell in np.ndindex(CELL_SHAPE)])
