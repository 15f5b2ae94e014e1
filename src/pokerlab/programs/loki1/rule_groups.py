"""Loki-1's post-flop rules (`postflop.decide_outcomes`) applied to many holdings at once, by grouping them
by what the rules compare.

On one decision the rules see a holding only through its values (HS_n, EHS, EHS', PPOT), and only by
comparing them with thresholds (Papp 1998 §6.2-6.7). So the rules are asked once for one holding, with
values that note each comparison made with them (`Traced`), every outcome of the random draws included;
every holding whose values come out the same in all those comparisons gets the same outcomes, and the
rules are asked again for one of the holdings left. A decision takes as many rule calls as there are
groups (a handful), not one per holding. A value the rules use in any other way than a comparison with a
number (arithmetic, truth, another value) raises: the grouping would no longer be sound.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

import numpy as np

from pokerlab.programs.loki1.postflop import PostflopRules, PostflopSituation, decide_outcomes

#: The values of a holding the rules read, in the order of `holding_values`' columns.
VALUE_NAMES = ("hand_strength_n", "ehs", "ehs_optimistic", "potential")

_COMPARISONS = {"__lt__": operator.lt, "__le__": operator.le, "__gt__": operator.gt, "__ge__": operator.ge}
_REFUSED = (
    "__eq__ __ne__ __bool__ __hash__ __float__ __int__ __round__ __abs__ __neg__ __pos__ __add__ __radd__ "
    "__sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __floordiv__ __rfloordiv__ __mod__ "
    "__rmod__ __pow__ __rpow__ __divmod__ __rdivmod__ __trunc__ __floor__ __ceil__"
).split()


class Traced(float):
    """One of a holding's values that notes every comparison the rules make with it, as (column, operator,
    threshold, result), in `notes`."""

    def __new__(cls, value: float, column: int, notes: list):
        self = super().__new__(cls, value)
        self.column, self.notes = column, notes
        return self


def _comparison(name: str) -> Callable:
    compare = _COMPARISONS[name]

    def method(self: Traced, other: object) -> bool:
        if isinstance(other, Traced) or not isinstance(other, int | float | np.number):
            raise TypeError(f"the post-flop rules compared {VALUE_NAMES[self.column]} with {other!r}")
        mine, threshold = float.__float__(self), float(other)
        result = compare(mine, threshold)
        self.notes.append((self.column, compare, threshold, result))
        return result

    return method


def _refusal(name: str) -> Callable:
    def method(self: Traced, *args: object) -> None:
        raise TypeError(
            f"the post-flop rules used {VALUE_NAMES[self.column]} by {name}: holdings are grouped by the "
            "comparisons of their values with numbers only"
        )

    return method


for _name in _COMPARISONS:
    setattr(Traced, _name, _comparison(_name))
for _name in _REFUSED:
    setattr(Traced, _name, _refusal(_name))


def rule_groups(
    make: Callable[..., PostflopSituation], values: np.ndarray, semi_bluffing: bool, rules: PostflopRules
) -> list[tuple[np.ndarray, list[tuple[float, int, str]]]]:
    """[(rows, outcomes)]: the rows of `values` (float[n, 4], `VALUE_NAMES`), split into groups that the
    rules treat alike, each with `decide_outcomes` of the situation ``make(*values[row], semi_bluffing)``
    of every row in it."""
    left = np.arange(len(values))
    groups = []
    while left.size:
        notes: list = []
        first = values[left[0]]
        traced = [Traced(float(first[k]), k, notes) for k in range(len(VALUE_NAMES))]
        outcomes = decide_outcomes(make(*traced, semi_bluffing), rules)
        alike = np.ones(left.size, dtype=bool)
        for column, compare, threshold, result in set(notes):
            alike &= compare(values[left, column], threshold) == result
        groups.append((left[alike], outcomes))
        left = left[~alike]
    return groups
