"""Loki-1's post-flop betting rules, in priority order (Papp §6.2-6.7; Papp 1998 ch. 6).

Aggressive options are tried first and passive calling options last; the first rule that bets, raises
or calls decides. All thresholds are on the optimistic effective hand strength EHS' (Billings et al.
1998 §4.4).
One rule is ours [OUR CHOICE]: with HS_n >= 0.98 (a near-certain winner) Loki raises until the betting
is capped, like the pre-flop Make4, where Papp's Make2 would stop raising at two bets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.analysis.effective import pot_odds
from pokerlab.engine import RIVER


@dataclass(frozen=True)
class PostflopRules:
    """The constants of the post-flop rules; defaults from Papp 1998 App. B, or ours [OUR CHOICE]."""

    make4: float = 0.98  # [OUR CHOICE] a near-certain winner raises until capped, as Make4 does pre-flop
    make2: float = 0.85  # Papp App. B
    make1: float = 0.50  # Papp App. B
    deception: bool = True  # rule 1 [OUR CHOICE parameters below]
    check_raise_strength: float = 0.85
    check_raise_probability: float = 0.2
    bluff_strength: float = 0.3
    bluff_probability: float = 0.05
    bluff_max_opponents: int = 2
    balancing_raise_probability: float = 0.05
    semi_bluff: bool = True  # rule 4
    pot_odds_calls: bool = True  # rule 5
    showdown_odds: bool = True  # rule 6 [OUR CHOICE formula]


@dataclass(frozen=True)
class PostflopSituation:
    """What the rules look at for one decision. Money in chips; probabilities in [0, 1]."""

    round_index: int  # 1 flop, 2 turn, 3 river
    ehs_optimistic: float  # EHS' = HS_n + (1 - HS_n) PPOT
    ehs: float  # EHS = HS_n + (1 - HS_n) PPOT - HS_n NPOT
    hand_strength_n: float  # HS_n
    potential: float  # PPOT used for semi-bluffs and pot odds
    bets_to_call: int
    bets_made: int  # bets and raises made this round
    bet_size: float  # one bet this round
    later_bet_size: float  # one bet in the rounds still to come
    pot: float  # all money in, before our action
    to_call: float
    opponents_active: int
    opponents_to_act: int  # opponents still to act in this round after us
    called_bet_this_round: bool
    semi_bluffing: bool  # we semi-bluffed earlier in this hand
    can_raise: bool


def semi_bluff_odds(bet: float, pot: float) -> float:
    """Pot_Odds2 = 2 bet / ((pot + 4 bet) + 2 bet): could we call a bet and a raise? (Papp eq. 6.5)."""
    return 2 * bet / (pot + 6 * bet)


def showdown_odds(s: PostflopSituation) -> float:
    """EHS needed to call to the showdown, one bet a later street each way [OUR CHOICE, Papp 1998 §6.6]."""
    later = 3 - s.round_index
    invest = s.to_call + later * s.later_bet_size
    final_pot = s.pot + s.to_call + (s.opponents_active + 1) * later * s.later_bet_size
    return invest / (final_pot + invest)


def decide(s: PostflopSituation, rules: PostflopRules, rng: np.random.Generator) -> tuple[int, str]:
    """(action, rule): FOLD, CALL (check or call) or RAISE (bet or raise); rule names what decided it."""
    return decide_by(s, rules, lambda p: rng.random() < p)


def decide_outcomes(s: PostflopSituation, rules: PostflopRules) -> list[tuple[float, int, str]]:
    """Every (probability, action, rule) `decide` can return on `s`, its random draws enumerated (the
    probabilities add up to 1; outcomes of probability 0 are left out)."""
    out = []
    pending: list[tuple[bool, ...]] = [()]
    while pending:
        script = pending.pop()
        drawn: list[bool] = []
        chance = 1.0

        def draw(p: float, script=script, drawn=drawn) -> bool:
            nonlocal chance
            if len(drawn) < len(script):
                hit = script[len(drawn)]
            else:  # a draw not scripted yet: take it, and come back for the miss
                hit = True
                pending.append((*drawn, False))
            drawn.append(hit)
            chance *= p if hit else 1.0 - p
            return hit

        action, rule = decide_by(s, rules, draw)
        if chance > 0:
            out.append((chance, action, rule))
    return out


def decide_by(s: PostflopSituation, rules: PostflopRules, draw: Callable[[float], bool]) -> tuple[int, str]:
    """`decide` with its random draws made by `draw(p)`, True with probability p."""
    facing = s.bets_to_call > 0
    raise_or_call = RAISE if s.can_raise else CALL
    if rules.deception:
        if (
            not facing
            and s.ehs_optimistic >= rules.check_raise_strength
            and s.opponents_to_act > 0
            and draw(rules.check_raise_probability)
        ):
            return CALL, "check-raise"
        if (
            not facing
            and s.round_index == RIVER
            and s.ehs_optimistic < rules.bluff_strength
            and s.opponents_active <= rules.bluff_max_opponents
            and draw(rules.bluff_probability)
        ):
            return RAISE, "bluff"
    if s.hand_strength_n >= rules.make4:
        return raise_or_call, "make4"
    if s.ehs_optimistic >= rules.make2:
        return (RAISE if s.bets_made < 2 and s.can_raise else CALL), "make2"
    if s.ehs_optimistic >= rules.make1:
        if not facing:
            return RAISE, "make1"
        if s.bets_to_call < 2 or s.called_bet_this_round:
            if rules.deception and draw(rules.balancing_raise_probability):
                return raise_or_call, "balancing-raise"
            return CALL, "make1"
    if rules.semi_bluff and not facing:
        # having semi-bluffed, keep betting while nobody else bets (Papp §6.4)
        if s.semi_bluffing or (s.round_index < RIVER and s.potential >= semi_bluff_odds(s.bet_size, s.pot)):
            return RAISE, "semi-bluff"
    if facing:
        chance = s.hand_strength_n if s.round_index == RIVER else s.potential
        if rules.pot_odds_calls and chance >= pot_odds(s.to_call, s.pot):
            return CALL, "pot-odds"
        if rules.showdown_odds and s.round_index < RIVER and s.ehs >= showdown_odds(s):
            return CALL, "showdown-odds"
        return FOLD, "fold"
    return CALL, "check"
