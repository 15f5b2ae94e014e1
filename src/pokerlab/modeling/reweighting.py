"""Re-weighting an opponent's weight table after an action (Papp 1998 §7.2.1).

The observed action is taken to need a hand value at least a threshold with mean μ and spread σ.
Holdings well below lose nearly all their weight, holdings well above keep it, with a linear ramp
between: factor(v) = 0.01 below μ - σ, 1 above μ + σ, (v - μ + σ) / 2σ between.
"""

from __future__ import annotations

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
