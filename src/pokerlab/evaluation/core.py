"""The control-variate core, game-agnostic: a hand is a walk of steps, and at every step whose distribution
the evaluator knows (a card; an action of a player that reports its probabilities) the value function's
surprise is taken off the result.

For a fixed value function W (one value per seat) and a terminal history z,

    X(z) = u(z) - sum over known steps t of [ W(h_t x_t) - sum_x P(x | h_t) W(h_t x) ]

Each bracket has conditional mean zero given h_t, so E[X] = E[u] whatever W is; W decides only the
variance (Zinkevich et al. 2006; Burch et al. 2018). A W that is *balanced* at chance
(W(h) = sum_c P(c | h) W(h c)) needs no enumeration of the children: the expected child value is W(h)
itself (the advantage-sum form of Zinkevich et al. 2006).

The core knows nothing of poker: a `Step` carries W at the observed child and the expected child value;
`step` makes one by enumerating a distribution, `balanced_step` from a balanced W. `toygames` walks Kuhn
and Leduc poker into steps for the exact tests.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType

import numpy as np

#: A value function: a history -> one value per seat (chips).
ValueFunction = Callable[[Hashable], np.ndarray]


@dataclass(frozen=True)
class Step:
    """One known step of a hand: W at the child that happened (``observed``) and the expected child value
    under the step's known distribution (``expected``), both per seat. Its correction is their difference."""

    observed: np.ndarray
    expected: np.ndarray

    @property
    def correction(self) -> np.ndarray:
        """W(h x_obs) - E_x W(h x): zero in expectation given h."""
        return self.observed - self.expected


def step(
    value: ValueFunction,
    history: tuple,
    distribution: Sequence[tuple[Hashable, float]],
    observed: Hashable,
) -> Step:
    """The step from ``history`` to ``history + (observed,)``, its expected child value by enumerating
    ``distribution`` ((outcome, probability) pairs summing to 1)."""
    expected = sum(p * np.asarray(value(history + (x,)), dtype=np.float64) for x, p in distribution if p > 0)
    return Step(
        np.asarray(value(history + (observed,)), dtype=np.float64), np.asarray(expected, dtype=np.float64)
    )


def balanced_step(before: np.ndarray, after: np.ndarray) -> Step:
    """A chance step under a W balanced at that node: the expected child value is W before the step."""
    return Step(np.asarray(after, dtype=np.float64), np.asarray(before, dtype=np.float64))


def corrected(utility: np.ndarray, steps: Iterable[Step]) -> np.ndarray:
    """X = u - the sum of the steps' corrections, per seat (chips)."""
    total = np.asarray(utility, dtype=np.float64).copy()
    for s in steps:
        total -= s.correction
    return total


def fit_linear(features: np.ndarray, utility: np.ndarray) -> np.ndarray:
    """Least-squares weights theta for the linear control variate X = u - features @ theta, where row k of
    ``features`` holds hand k's summed corrections of each feature (White & Bowling 2009): theta =
    Cov(features)^-1 Cov(features, u), the variance-minimising choice. Fit it on hands *other* than those it
    will judge: fitted on the evaluated hands, the variance it reports is optimistic."""
    features = np.asarray(features, dtype=np.float64)
    utility = np.asarray(utility, dtype=np.float64)
    centred = features - features.mean(axis=0)
    theta, *_ = np.linalg.lstsq(centred, utility - utility.mean(), rcond=None)
    return theta


def value_digest(name: str, parameters: dict, *modules: ModuleType) -> str:
    """16 hex digits of sha256 over a value function's name, its parameters and the source of the modules
    that compute it. A report records it, so a W changed after the data it judges were seen (which can make
    the variance look smaller than it is) shows as a different digest."""
    text = json.dumps({"name": name, "parameters": parameters}, sort_keys=True)
    text += "".join(inspect.getsource(m) for m in modules)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
