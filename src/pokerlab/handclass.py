"""Plain-Python poker hand classes: the slow, obviously right reference that the fast evaluator is
built from and tested against.

A *hand class* is what decides a showdown between five cards: a category (high card .. straight flush)
and the tie-break ranks in order of importance. There are exactly 7,462 classes; ranking them from
worst (1) to best (7,462) gives the integer ranks that `pokerlab.evaluator` returns.
"""

from __future__ import annotations

from collections import Counter
from enum import IntEnum
from functools import cache
from itertools import combinations, combinations_with_replacement

from pokerlab.cards import RANK_NAMES

NUM_CLASSES = 7462


class HandCategory(IntEnum):
    """The nine hand categories, worst first."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """The category as a player says it, e.g. "Full House"."""
        return self.name.replace("_", " ").title().replace(" A ", " a ").replace(" Of ", " of ")


#: A hand class: (category, tie-break ranks 0..12, most important first).
HandClass = tuple[int, tuple[int, ...]]


def _straight_high(distinct_desc: list[int]) -> int | None:
    """High rank of a five-rank straight (3 for the wheel A-2-3-4-5), or None."""
    if len(distinct_desc) != 5:
        return None
    if distinct_desc[0] - distinct_desc[4] == 4:
        return distinct_desc[0]
    if distinct_desc == [12, 3, 2, 1, 0]:
        return 3
    return None


def classify_ranks(ranks: tuple[int, ...] | list[int], flush: bool) -> HandClass:
    """The class of five cards given their ranks (0..12) and whether they share one suit."""
    ranks = sorted(ranks, reverse=True)
    counts = Counter(ranks)
    # groups: (count, rank), biggest group first, higher rank first within equal counts
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    high = _straight_high(sorted(counts, reverse=True))
    if high is not None and flush:
        return (HandCategory.STRAIGHT_FLUSH, (high,))
    if groups[0][0] == 4:
        return (HandCategory.FOUR_OF_A_KIND, (groups[0][1], groups[1][1]))
    if groups[0][0] == 3 and groups[1][0] == 2:
        return (HandCategory.FULL_HOUSE, (groups[0][1], groups[1][1]))
    if flush:
        return (HandCategory.FLUSH, tuple(ranks))
    if high is not None:
        return (HandCategory.STRAIGHT, (high,))
    if groups[0][0] == 3:
        return (HandCategory.THREE_OF_A_KIND, tuple(r for _, r in groups))
    if groups[0][0] == 2 and groups[1][0] == 2:
        return (HandCategory.TWO_PAIR, tuple(r for _, r in groups))
    if groups[0][0] == 2:
        return (HandCategory.ONE_PAIR, tuple(r for _, r in groups))
    return (HandCategory.HIGH_CARD, tuple(ranks))


def classify_five(cards: tuple[int, ...] | list[int]) -> HandClass:
    """The class of five distinct card codes."""
    return classify_ranks([c // 4 for c in cards], len({c % 4 for c in cards}) == 1)


@cache
def all_classes() -> tuple[HandClass, ...]:
    """All 7,462 hand classes, worst first: index i holds the class of rank i + 1."""
    classes = set()
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        classes.add(classify_ranks(ranks, flush=False))
        if len(set(ranks)) == 5:
            classes.add(classify_ranks(ranks, flush=True))
    ordered = tuple(sorted(classes))
    assert len(ordered) == NUM_CLASSES
    return ordered


@cache
def class_ranks() -> dict[HandClass, int]:
    """Map from hand class to its rank 1..7462 (higher is better)."""
    return {cls: i + 1 for i, cls in enumerate(all_classes())}


def reference_rank(cards: list[int] | tuple[int, ...]) -> int:
    """Rank 1..7462 of the best five of 5 to 7 card codes, by trying every five (slow, for tests)."""
    ranks = class_ranks()
    return max(ranks[classify_five(five)] for five in combinations(cards, 5))


_PLURAL = {4: "Sixes"}


def rank_plural(rank: int) -> str:
    """Plural name of a rank 0..12: "Twos" .. "Aces", "Sixes"."""
    return _PLURAL.get(rank, RANK_NAMES[rank] + "s")


def describe_class(cls: HandClass) -> str:
    """The class as a player writes it, e.g. "Full House, Kings full of Fives"."""
    category, tb = HandCategory(cls[0]), cls[1]
    name = RANK_NAMES
    if category == HandCategory.STRAIGHT_FLUSH:
        return "Royal Flush" if tb[0] == 12 else f"Straight Flush, {name[tb[0]]} high"
    if category == HandCategory.FOUR_OF_A_KIND:
        return f"Four of a Kind, {rank_plural(tb[0])} with {name[tb[1]]} kicker"
    if category == HandCategory.FULL_HOUSE:
        return f"Full House, {rank_plural(tb[0])} full of {rank_plural(tb[1])}"
    if category == HandCategory.FLUSH:
        return f"Flush, {name[tb[0]]} high"
    if category == HandCategory.STRAIGHT:
        return f"Straight, {name[tb[0]]} high"
    if category == HandCategory.THREE_OF_A_KIND:
        return f"Three of a Kind, {rank_plural(tb[0])}"
    if category == HandCategory.TWO_PAIR:
        return f"Two Pair, {rank_plural(tb[0])} and {rank_plural(tb[1])}"
    if category == HandCategory.ONE_PAIR:
        return f"Pair of {rank_plural(tb[0])}"
    return f"High Card, {name[tb[0]]}"
