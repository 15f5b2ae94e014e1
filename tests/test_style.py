"""The one VPIP / PFR / aggression function (`pokerlab.modeling.style`) on chosen rows, and the web
leaderboard's counters read through it from a played hand."""

import pytest

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.engine import GameConfig, HandState
from pokerlab.interfaces.web.store import seat_counters
from pokerlab.modeling.style import style_counts


def test_style_counts_of_chosen_decisions():
    rows = [
        (0, 0, 5, CALL),  # hand 0: a call of 5 pre-flop: voluntary
        (0, 1, 0, CALL),  # a check: neither aggressive nor a call
        (0, 1, 10, CALL),  # a call after the flop
        (1, 0, 0, CALL),  # hand 1: the big blind checks: not voluntary
        (1, 2, 0, RAISE),  # a bet on the turn
        (2, 0, 10, RAISE),  # hand 2: a raise pre-flop, then folds
        (2, 0, 10, FOLD),
        (3, 1, 20, RAISE),  # hand 3: no pre-flop decision (not counted in VPIP's hands)
    ]
    counts = style_counts(rows)
    assert (counts.hands, counts.vpip, counts.pfr) == (3, 2, 1)
    assert counts.raises == (1, 1, 1, 0) and counts.calls == (1, 1, 0, 0)
    assert counts.vpip_share == pytest.approx(2 / 3) and counts.pfr_share == pytest.approx(1 / 3)
    assert counts.aggression() == 2.0 and counts.aggression(0) == 1.5
    empty = style_counts([])
    assert empty.vpip_share == 0.0 and empty.aggression() == float("inf")


def test_the_web_counters_are_the_style_counts_of_a_hand():
    """Heads-up: the button (position 1, the small blind) raises, the big blind re-raises, the button calls;
    the big blind bets the flop and the button calls."""
    state = HandState(GameConfig(), list(range(4)), list(range(10, 15)))
    for action in (RAISE, RAISE, CALL, RAISE, CALL):
        state.act(action)
    assert seat_counters(state, 1) == {"vpip": 1, "pfr": 1, "raises": 1, "calls": 2}
    assert seat_counters(state, 0) == {"vpip": 1, "pfr": 1, "raises": 2, "calls": 0}
