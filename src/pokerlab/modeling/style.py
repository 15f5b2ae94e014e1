"""A player's style from its decisions: VPIP, PFR and aggression, the statistics every table of the project
reports the same way (the web leaderboard, the TD studies, Barone & While's player A).

A decision is a (hand, round, to call, action) row: the hand it was taken in (any key that tells hands
apart), the betting round (0 = pre-flop), the chips owed before acting, and FOLD, CALL or RAISE.

* VPIP: hands in which the player put chips in voluntarily before the flop (a call of a positive amount, or
  a bet or raise), over the hands with a pre-flop decision;
* PFR: hands with a pre-flop bet or raise, over the same hands;
* aggression factor: bets and raises over calls of a positive amount (checks count as neither), in the
  rounds asked for (Billings et al. 1998 §2 describes opponents by these frequencies).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pokerlab.actions import CALL, RAISE

#: The betting rounds, pre-flop to river.
ROUNDS = 4


@dataclass(frozen=True, slots=True)
class StyleCounts:
    """The counts behind the style statistics: hands with a pre-flop decision, of them those with chips put
    in voluntarily pre-flop (``vpip``) and with a pre-flop raise (``pfr``), and per round the bets and
    raises and the calls of a positive amount."""

    hands: int
    vpip: int
    pfr: int
    raises: tuple[int, ...]
    calls: tuple[int, ...]

    @property
    def vpip_share(self) -> float:
        """VPIP in [0, 1] (0 without a pre-flop decision)."""
        return self.vpip / max(1, self.hands)

    @property
    def pfr_share(self) -> float:
        """PFR in [0, 1] (0 without a pre-flop decision)."""
        return self.pfr / max(1, self.hands)

    def aggression(self, first_round: int = 1) -> float:
        """Bets and raises over calls of a positive amount from `first_round` on (default: after the
        flop is dealt, the usual aggression factor); infinity without such a call."""
        calls = sum(self.calls[first_round:])
        return sum(self.raises[first_round:]) / calls if calls else float("inf")


def style_counts(decisions: Iterable[tuple[int, int, int, int]]) -> StyleCounts:
    """The `StyleCounts` of (hand, round, to call, action) rows (see the module doc)."""
    hands, voluntary, raised = set(), set(), set()
    raises, calls = [0] * ROUNDS, [0] * ROUNDS
    for hand, round_index, to_call, action in decisions:
        if action == RAISE:
            raises[round_index] += 1
        elif action == CALL and to_call > 0:
            calls[round_index] += 1
        if round_index == 0:
            hands.add(hand)
            if action == RAISE or (action == CALL and to_call > 0):
                voluntary.add(hand)
            if action == RAISE:
                raised.add(hand)
    return StyleCounts(len(hands), len(voluntary), len(raised), tuple(raises), tuple(calls))
