"""Re-weighting an opponent's weight table after an action (Papp 1998 §7.2.1).

The observed action is taken to need a hand value at least a threshold with mean μ and spread σ.
Holdings well below lose nearly all their weight, holdings well above keep it, with a linear ramp
between: factor(v) = 0.01 below μ - σ, 1 above μ + σ, (v - μ + σ) / 2σ between.

`reweight` is the plain numpy reference; `reweight_into` the numba kernel a player uses at every
observed action, with the same arithmetic element by element (equal to the last bit, tested).
"""

from __future__ import annotations

import numba as nb
import numpy as np

#: No holding that is still possible drops below this weight (Papp 1998 §7.2.1).
MIN_WEIGHT = 0.01


def reweight_factor(values: np.ndarray | float, mu: float, sigma: float) -> np.ndarray:
    """The multiplier for holdings of the given value(s): 0.01 .. 1, a linear ramp over μ ± σ."""
    values = np.asarray(values, dtype=np.float64)
    if sigma <= 0:
        return np.where(values >= mu, 1.0, MIN_WEIGHT)
    ramp = (values - mu + sigma) / (2 * sigma)
    return np.where(values < mu - sigma, MIN_WEIGHT, np.where(values > mu + sigma, 1.0, ramp))


def reweight(
    weights: np.ndarray, values: np.ndarray, mu: float, sigma: float, possible: np.ndarray | None = None
) -> np.ndarray:
    """New weights: w * factor(v), floored at MIN_WEIGHT (also where v is NaN); impossible holdings get 0."""
    new = np.fmax(MIN_WEIGHT, weights * reweight_factor(values, mu, sigma))
    if possible is not None:
        new = np.where(possible, new, 0.0)
    return new


def percentile_value(sorted_values: np.ndarray, percentile: float) -> float:
    """The value at a percentile in [0, 1] of an ascending array (nearest point; Papp 1998 §7.2.2)."""
    i = int(round(percentile * (len(sorted_values) - 1)))
    return float(sorted_values[min(max(i, 0), len(sorted_values) - 1)])


@nb.njit(cache=True)
def reweight_into(out: np.ndarray, weights: np.ndarray, values: np.ndarray, mu: float, sigma: float) -> None:
    """``out[:] = reweight(weights, values, mu, sigma)`` without temporaries (numba kernel; `out` may be a
    row of a table, `weights` another row's copy)."""
    low, high, width = mu - sigma, mu + sigma, 2 * sigma
    for i in range(weights.size):
        v = values[i]
        if sigma <= 0:
            factor = 1.0 if v >= mu else MIN_WEIGHT
        elif v < low:
            factor = MIN_WEIGHT
        elif v > high:
            factor = 1.0
        else:
            factor = (v - mu + sigma) / width  # NaN stays NaN, and the floor below takes it
        w = weights[i] * factor
        out[i] = w if w > MIN_WEIGHT else MIN_WEIGHT
