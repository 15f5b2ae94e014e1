"""The four stereotyped opponents of Barone & While 2000 §4.1: loose or tight hand selection by income
rate, passive or aggressive betting by hand strength.

* loose-passive: over-values its hands, but rarely raises, fearing large pots;
* loose-aggressive: over-values its hands, raising often;
* tight-passive: plays few hands, rarely raises;
* tight-aggressive: plays few hands, raising often.

Pre-flop a style enters with the hands whose income rate (the shipped table for the number of players
dealt) lies in its top fraction of the 1,326 holdings and raises with a smaller top fraction; after the flop
it calls from one HS_n (uniform opponents) and bets or raises from another. The fractions and strengths are
[OUR CHOICE]; Barone & While 2000 give only the words. None of them folds when checking is free.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.base import Agent
from pokerlab.analysis.income_rate import shipped_table
from pokerlab.analysis.starting_hands import hand_type
from pokerlab.analysis.strength import hand_strength
from pokerlab.engine import PREFLOP, SeatView
from pokerlab.errors import ConfigError
from pokerlab.modeling.holding_values import sorted_income_rates


@dataclass(frozen=True)
class Style:
    """One stereotype: pre-flop top fractions of holdings to play and to raise, post-flop HS_n to call and
    to bet or raise."""

    play_fraction: float
    raise_fraction: float
    call_strength: float
    raise_strength: float

    def __post_init__(self) -> None:
        for name in ("play_fraction", "raise_fraction", "call_strength", "raise_strength"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ConfigError(f"Style.{name} must be in [0, 1], got {getattr(self, name)!r}")


STYLES: dict[str, Style] = {
    "loose-passive": Style(play_fraction=0.65, raise_fraction=0.03, call_strength=0.25, raise_strength=0.92),
    "loose-aggressive": Style(
        play_fraction=0.65, raise_fraction=0.30, call_strength=0.25, raise_strength=0.60
    ),
    "tight-passive": Style(play_fraction=0.22, raise_fraction=0.03, call_strength=0.55, raise_strength=0.92),
    "tight-aggressive": Style(
        play_fraction=0.22, raise_fraction=0.12, call_strength=0.55, raise_strength=0.72
    ),
}


def income_rate_quantile(players: int, top_fraction: float) -> float:
    """The income rate (x 1000) above which lie the best `top_fraction` of the 1,326 holdings."""
    ordered = sorted_income_rates(players)
    return float(ordered[min(len(ordered) - 1, int((1.0 - top_fraction) * len(ordered)))])


class StereotypeAgent(Agent):
    """A fixed-style player (Barone & While 2000 §4.1); ``StereotypeAgent("tight-aggressive")``."""

    def __init__(self, style: str) -> None:
        super().__init__()
        if style not in STYLES:
            raise ConfigError(f"unknown style {style!r}; styles: {', '.join(STYLES)}")
        self.name, self.style = style, STYLES[style]

    def act(self, view: SeatView) -> int:
        style = self.style
        if view.round == PREFLOP:
            players = min(max(view.players, 2), 10)
            rate = shipped_table(players)[hand_type(view.hole)]
            wants_raise = rate >= income_rate_quantile(players, style.raise_fraction)
            plays = rate >= income_rate_quantile(players, style.play_fraction)
        else:
            opponents = view.active_players - 1
            hs_n = hand_strength(view.hole, view.board, None, opponents).hs_n
            wants_raise = hs_n >= style.raise_strength
            plays = hs_n >= style.call_strength
        if wants_raise and RAISE in view.legal_actions:
            return RAISE
        if plays or view.to_call == 0:
            return CALL
        return FOLD
