"""The four stereotyped opponents of Barone & While 2000 §4.1, one definition for the whole project
(docs/barone-while.md §9): hand selection by income rate, aggression by the probability of winning x.

* loose-passive: over-values its hands, but rarely raises, fearing large pots;
* loose-aggressive: over-values its hands, raises often, and stays in against raises;
* tight-passive: plays few hands, usually with a high chance of winning, rarely raises, fears raises;
* tight-aggressive: plays few hands, raising often.

Pre-flop a style ranks the 1,326 holdings by income rate on the shipped table for the players dealt in
(2: IR2, 3-4: IR4, 5 or more: IR7) and plays its top fraction, raises with a smaller top fraction and,
facing a raise (two bets or more this round), continues only with a third. After the flop it uses
x = x1^n, x1 the hand strength against one random holding and n the opponents still in: bet or raise from
one x, continue from another, facing a raise continue only from a third; checked to, it bets with a
bluffing probability. The numbers are [OUR CHOICE] (docs/barone-while.md §9); Barone & While give only words.

A stereotype's decision is a function of its hole and the public view (its only random draw is the bluff),
so it answers the all-holdings policy query (`pokerlab.agents.policy`): `action_probabilities` is the plain
rule for one view, `policy_for_holdings` the same for all 1,326 holdings at once (one ranking of the
holdings per board); the tests compare the two.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.base import Agent
from pokerlab.agents.policy import board_clash
from pokerlab.analysis.income_rate import shipped_table
from pokerlab.analysis.starting_hands import HOLDING_TYPE, STARTING_HANDS, type_of_codes
from pokerlab.analysis.strength import uniform_holding_strengths, uniform_strength
from pokerlab.engine import PREFLOP, SeatView
from pokerlab.errors import ConfigError
from pokerlab.modeling.holding_values import sorted_income_rates

#: Bets this round (the big blind counting pre-flop) from which a player "faces a raise".
RAISED = 2


@dataclass(frozen=True)
class Style:
    """One stereotype (docs/barone-while.md §9): pre-flop top fractions of the holdings to play, to raise
    and to continue with facing a raise; post-flop x to continue, to bet or raise, and to continue facing a
    raise; the chance of betting when checked to without the strength to bet."""

    play_fraction: float
    raise_fraction: float
    raised_fraction: float
    continue_x: float
    raise_x: float
    raised_x: float
    bluff: float

    def __post_init__(self) -> None:
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
                raise ConfigError(f"Style.{name} must be a number in [0, 1], got {value!r}")


STYLES: dict[str, Style] = {
    "loose-passive": Style(0.60, 0.03, 0.30, 0.20, 0.85, 0.40, 0.0),
    "loose-aggressive": Style(0.60, 0.35, 0.60, 0.20, 0.50, 0.20, 0.15),
    "tight-passive": Style(0.20, 0.03, 0.10, 0.55, 0.85, 0.85, 0.0),
    "tight-aggressive": Style(0.20, 0.10, 0.10, 0.55, 0.65, 0.65, 0.05),
}

#: Styles of ours beyond Barone & While's four (kept apart, so their experiments keep their field). The
#: rock plays only the best fifth of its holdings, raised or not: it folds 80 % of hands at its first action
#: facing a bet (docs/exploitability.md), and after the flop goes on only with a strong hand.
MORE_STYLES: dict[str, Style] = {
    "rock": Style(0.20, 0.03, 0.20, 0.60, 0.85, 0.85, 0.0),
}


def income_rate_table_players(players: int) -> int:
    """The income-rate table a stereotype ranks holdings by: IR2, IR4 (3-4 dealt in) or IR7 (5 or more)."""
    return 2 if players <= 2 else 4 if players <= 4 else 7


@cache
def income_rate_cutoff(players: int, top_fraction: float) -> float:
    """The income rate (x 1000) from which a holding is among the best `top_fraction` of the 1,326 on the
    `players` table (a holding plays if its rate is at least this)."""
    ordered = sorted_income_rates(players)
    return float(ordered[min(len(ordered) - 1, int((1.0 - top_fraction) * len(ordered)))])


class StereotypeAgent(Agent):
    """A fixed-style player (Barone & While 2000 §4.1); ``StereotypeAgent("tight-aggressive")``."""

    def __init__(self, style: str) -> None:
        super().__init__()
        styles = STYLES | MORE_STYLES
        if style not in styles:
            raise ConfigError(f"unknown style {style!r}; styles: {', '.join(styles)}")
        self.name, self.style = style, styles[style]

    def act(self, view: SeatView) -> int:
        style = self.style
        can_raise = RAISE in view.legal_actions
        raised = view.raises >= RAISED and view.to_call > 0
        if view.round == PREFLOP:
            table = income_rate_table_players(view.players)
            rate = shipped_table(table).income_rate[type_of_codes(*view.hole)]
            if can_raise and rate >= income_rate_cutoff(table, style.raise_fraction):
                return RAISE
            if raised:
                return CALL if rate >= income_rate_cutoff(table, style.raised_fraction) else FOLD
            return (
                CALL if view.to_call == 0 or rate >= income_rate_cutoff(table, style.play_fraction) else FOLD
            )
        x = uniform_strength(view.hole, view.board) ** (view.active_players - 1)
        if can_raise and x >= style.raise_x:
            return RAISE
        if view.to_call == 0:
            return RAISE if can_raise and style.bluff and self.rng.random() < style.bluff else CALL
        if raised and x < style.raised_x:
            return FOLD
        return CALL if x >= style.continue_x else FOLD

    def action_probabilities(self, view: SeatView) -> tuple[float, float, float]:
        """(fold, call, raise) that `act` plays on `view` (its hole): 0/1 but for the bluff; draws nothing."""
        style = self.style
        can_raise = RAISE in view.legal_actions
        raised = view.raises >= RAISED and view.to_call > 0
        one = {FOLD: (1.0, 0.0, 0.0), CALL: (0.0, 1.0, 0.0), RAISE: (0.0, 0.0, 1.0)}
        if view.round == PREFLOP:
            table = income_rate_table_players(view.players)
            rate = shipped_table(table).income_rate[type_of_codes(*view.hole)]
            if can_raise and rate >= income_rate_cutoff(table, style.raise_fraction):
                return one[RAISE]
            if raised:
                return one[CALL if rate >= income_rate_cutoff(table, style.raised_fraction) else FOLD]
            return one[
                CALL if view.to_call == 0 or rate >= income_rate_cutoff(table, style.play_fraction) else FOLD
            ]
        x = uniform_strength(view.hole, view.board) ** (view.active_players - 1)
        if can_raise and x >= style.raise_x:
            return one[RAISE]
        if view.to_call == 0:
            bluff = style.bluff if can_raise else 0.0
            return (0.0, 1.0 - bluff, bluff)
        if raised and x < style.raised_x:
            return one[FOLD]
        return one[CALL if x >= style.continue_x else FOLD]

    def policy_for_holdings(self, view: SeatView) -> np.ndarray:
        """The all-holdings policy query: `action_probabilities` for every holding (the view's hole
        ignored), 0 rows for holdings that meet the board."""
        style = self.style
        can_raise = RAISE in view.legal_actions
        raised = view.raises >= RAISED and view.to_call > 0
        out = np.zeros((len(HOLDING_TYPE), 3))
        if view.round == PREFLOP:
            table = income_rate_table_players(view.players)
            rates = shipped_table(table).income_rate
            rate = np.array([rates[name] for name in STARTING_HANDS], dtype=float)[HOLDING_TYPE]
            raise_ = can_raise & (rate >= income_rate_cutoff(table, style.raise_fraction))
            if raised:
                go_on = rate >= income_rate_cutoff(table, style.raised_fraction)
            else:
                go_on = np.full(rate.shape, view.to_call == 0) | (
                    rate >= income_rate_cutoff(table, style.play_fraction)
                )
            out[:, RAISE] = raise_
            out[:, CALL] = ~raise_ & go_on
            out[:, FOLD] = ~raise_ & ~go_on
        else:
            x = np.nan_to_num(uniform_holding_strengths(view.board)) ** (view.active_players - 1)
            raise_ = can_raise & (x >= style.raise_x)
            if view.to_call == 0:
                bluff = style.bluff if can_raise else 0.0
                out[:, RAISE] = np.where(raise_, 1.0, bluff)
                out[:, CALL] = np.where(raise_, 0.0, 1.0 - bluff)
            else:
                go_on = ~(raised & (x < style.raised_x)) & (x >= style.continue_x)
                out[:, RAISE] = raise_
                out[:, CALL] = ~raise_ & go_on
                out[:, FOLD] = ~raise_ & ~go_on
        out[board_clash(view.board)] = 0.0
        return out
