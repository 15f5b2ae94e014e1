"""Loki's pre-flop expert system (Papp §6.1, App. B; Peña node21; Papp 1998 §6.1, App. B).

When Loki first acts pre-flop it picks one betting strategy from its hand's income rate, the expected
number of players and its position, and keeps that strategy for the rest of the round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum

from pokerlab.actions import CALL, FOLD, RAISE


class PreflopStrategy(IntEnum):
    """Pre-flop strategies, least aggressive first (Papp 1998 §6.1, App. B)."""

    MAKE0 = 0  # check if free, otherwise fold
    CALL1 = 1  # check/call; fold to 2+ bets unless money is already in voluntarily
    MAKE1 = 2  # as CALL1, but bet if nobody has
    CALL2 = 3  # always check/call
    MAKE2 = 4  # bet/raise while fewer than 2 bets, then call
    MAKE4 = 5  # bet/raise until capped, then call


#: The IR table each player-count group uses (2, 3-4, 5+ players -> IR2, IR4, IR7).
GROUPS = (2, 4, 7)
TIGHTNESS = ("tight", "moderate", "loose")

#: Table B.1 [base, increment] (IR x 1000) per (group, tightness) for MAKE1, MAKE2, MAKE4.
#: Only the 3-4 player moderate bases and tight MAKE2 are the source's; the rest is Papp 1998 §6.1, App. B's
#: provisional table, chosen to select the same fractions of hands in IR2 and IR7.
THRESHOLDS: Mapping[tuple[int, str], Mapping[PreflopStrategy, tuple[int, int]]] = {
    (2, "tight"): {
        PreflopStrategy.MAKE1: (110, 15),
        PreflopStrategy.MAKE2: (155, 25),
        PreflopStrategy.MAKE4: (340, 25),
    },
    (2, "moderate"): {
        PreflopStrategy.MAKE1: (72, 15),
        PreflopStrategy.MAKE2: (155, 25),
        PreflopStrategy.MAKE4: (339, 25),
    },
    (2, "loose"): {
        PreflopStrategy.MAKE1: (30, 15),
        PreflopStrategy.MAKE2: (120, 25),
        PreflopStrategy.MAKE4: (300, 25),
    },
    (4, "tight"): {
        PreflopStrategy.MAKE1: (100, 25),
        PreflopStrategy.MAKE2: (200, 50),
        PreflopStrategy.MAKE4: (580, 50),
    },
    (4, "moderate"): {
        PreflopStrategy.MAKE1: (50, 25),
        PreflopStrategy.MAKE2: (200, 50),
        PreflopStrategy.MAKE4: (580, 50),
    },
    (4, "loose"): {
        PreflopStrategy.MAKE1: (0, 25),
        PreflopStrategy.MAKE2: (150, 50),
        PreflopStrategy.MAKE4: (500, 50),
    },
    (7, "tight"): {
        PreflopStrategy.MAKE1: (100, 30),
        PreflopStrategy.MAKE2: (256, 60),
        PreflopStrategy.MAKE4: (720, 60),
    },
    (7, "moderate"): {
        PreflopStrategy.MAKE1: (32, 30),
        PreflopStrategy.MAKE2: (256, 60),
        PreflopStrategy.MAKE4: (720, 60),
    },
    (7, "loose"): {
        PreflopStrategy.MAKE1: (-30, 30),
        PreflopStrategy.MAKE2: (200, 60),
        PreflopStrategy.MAKE4: (650, 60),
    },
}


@dataclass(frozen=True)
class PreflopRules:
    """The pre-flop constants: Table B.1 (``thresholds``) and the small blind's fixed thresholds for CALL1
    ("call half a bet") and CALL2 ("call 1.5 bets") [OUR CHOICE, after Papp 1998 §6.1, App. B], consulted
    after the MAKE thresholds. IR x 1000."""

    thresholds: Mapping[tuple[int, str], Mapping[PreflopStrategy, tuple[int, int]]] = field(
        default_factory=lambda: THRESHOLDS
    )
    small_blind_call1: int = -100
    small_blind_call2: int = 50


def expected_players(voluntarily_in: int, still_to_act: int, probability_play: float = 0.6) -> float:
    """Players expected to see the flop: those in voluntarily, Loki, and 60 % of those yet to act.

    [OUR CHOICE, Papp 1998 §6.1, App. B] with Papp's probability_play = 0.6.
    """
    return voluntarily_in + 1 + probability_play * still_to_act


def player_group(expected: float) -> int:
    """The IR table for an expected player count: 2 (IR2), 4 (IR4, 3-4 players) or 7 (IR7, 5+)."""
    n = round(expected)
    return 2 if n <= 2 else 4 if n <= 4 else 7


def preflop_position(seats_left_of_button: int, num_inpot: int) -> int:
    """Players still to act before the small blind's turn comes again (Papp §6.1, Papp 1998 §6.1, App. B).

    seats_left_of_button counts only players still in the pot: small blind 1, big blind 2, ..., the
    button num_inpot. The button gets 0, the small blind num_inpot - 1, the big blind num_inpot - 2.
    """
    return (num_inpot - seats_left_of_button) % num_inpot


def threshold(
    strategy: PreflopStrategy, group: int, tightness: str, position: int, rules: PreflopRules = PreflopRules()
) -> int:
    """threshold = base + increment * position (Papp eq. 6.1), IR x 1000."""
    base, increment = rules.thresholds[(group, tightness)][strategy]
    return base + increment * position


def select_strategy(
    income_rate: float,
    group: int,
    tightness: str,
    position: int,
    small_blind: bool = False,
    rules: PreflopRules = PreflopRules(),
) -> PreflopStrategy:
    """The most aggressive strategy whose threshold the hand's income rate reaches (Peña node21)."""
    for strategy in (PreflopStrategy.MAKE4, PreflopStrategy.MAKE2, PreflopStrategy.MAKE1):
        if income_rate >= threshold(strategy, group, tightness, position, rules):
            return strategy
    if small_blind:
        if income_rate >= rules.small_blind_call2:
            return PreflopStrategy.CALL2
        if income_rate >= rules.small_blind_call1:
            return PreflopStrategy.CALL1
    return PreflopStrategy.MAKE0


def strategy_action(
    strategy: PreflopStrategy, bets: int, to_call: bool, invested_voluntarily: bool, can_raise: bool = True
) -> int:
    """The action a strategy takes: FOLD, CALL (check or call) or RAISE (bet or raise).

    bets: bets and raises made this round so far (the big blind counts as one pre-flop);
    to_call: whether this player faces a bet; invested_voluntarily: whether it already put money in
    this round of its own accord (blinds do not count); can_raise: whether the cap allows a raise.
    """
    if strategy == PreflopStrategy.MAKE4:
        return RAISE if can_raise else CALL
    if strategy == PreflopStrategy.MAKE2:
        return RAISE if bets < 2 and can_raise else CALL
    if strategy == PreflopStrategy.CALL2:
        return CALL
    if strategy in (PreflopStrategy.CALL1, PreflopStrategy.MAKE1):
        if not to_call:
            return RAISE if strategy == PreflopStrategy.MAKE1 and bets == 0 else CALL
        return FOLD if bets >= 2 and not invested_voluntarily else CALL
    return CALL if not to_call else FOLD
