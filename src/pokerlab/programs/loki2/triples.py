"""The triple generator: for any holding in any public state, the probability triple (fold, call, raise)
of what Loki would do with it (Billings et al. 1999 §4; Peña 1999 ch. 3-4, node31).

Peña's generator is Loki-1's post-flop strategy (Papp 1998 ch. 6) rewritten to give pure triples, with the
boundaries between actions smoothed by linear interpolation. Ours [OUR CHOICE, Peña 1999 node31] is Loki-1's
rules with the hand value jittered uniformly by +-δ, which is exactly a linear ramp
``ramp(x, t, δ) = clamp((x - (t - δ)) / 2δ, 0, 1)`` at each threshold:

* with weight ramp(HS_n, make4): raise until capped (`PostflopRules.make4`);
* with weight ramp(EHS', t2) less that: Make2 (raise while fewer than two bets, then call);
* with weight ramp(EHS', t1) less that: Make1 (bet, or call; facing two bets without having called it
  falls through);
* the rest: the semi-bluff (free to act) or the pot-odds and showdown-odds calls (facing a bet), each test
  smoothed by δ_o on (chance - odds); what is left folds (checks when free, so f = 0 whenever to_call = 0).

Loki-1's deceptive plays come first as small probabilities: a check meant to check-raise (its mass goes to
"call", a check) and the river bluff. With δ = δ_o = 0 and no deception the triple is one-hot on Loki-1's
action (`pokerlab.programs.loki1.postflop.decide`), which the tests check.

`reference_triple` is the plain version for one holding (also what an agent uses for its own hand);
`holding_triples` the numba kernel for all 1,326 holdings of one player at once, as re-weighting needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numba as nb
import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.engine import RIVER, BettingContext
from pokerlab.errors import ConfigError
from pokerlab.programs.loki1.postflop import PostflopRules, semi_bluff_odds, showdown_odds
from pokerlab.programs.loki2.selector import draw


@dataclass(frozen=True)
class TripleRules:
    """The generator's constants: Loki-1's rule constants (``rules``; their make1 / make2 are the generic
    thresholds t1 / t2) and the interpolation widths [OUR CHOICE, Peña 1999 node31]: ``width`` δ on EHS' (Papp
    1998 §6.7's own ramp, 0.40-0.60 around 0.50), ``make4_width`` on HS_n (narrow: HS_n cannot pass 1),
    ``odds_width`` δ_o on (chance - odds)."""

    rules: PostflopRules = PostflopRules()
    width: float = 0.10
    make4_width: float = 0.02
    odds_width: float = 0.05

    def __post_init__(self) -> None:
        for name in ("width", "make4_width", "odds_width"):
            value = getattr(self, name)
            if not 0.0 <= value <= 0.5:
                raise ConfigError(f"TripleRules.{name} is an interpolation width in [0, 0.5], got {value!r}")

    def as_array(self) -> np.ndarray:
        """The constants in the order the kernels read them (`_RULE_FIELDS`)."""
        r = self.rules
        return np.array(
            [
                r.make4,
                float(r.deception),
                r.check_raise_strength,
                r.check_raise_probability,
                r.bluff_strength,
                r.bluff_probability,
                r.bluff_max_opponents,
                r.balancing_raise_probability,
                float(r.semi_bluff),
                float(r.pot_odds_calls),
                float(r.showdown_odds),
                self.width,
                self.make4_width,
                self.odds_width,
            ]
        )


class TripleContext(NamedTuple):
    """The public state a triple is asked in, from the acting player's side (money in chips); its fields
    are those of Loki-1's `PostflopSituation` that do not depend on the hand, so Loki-1's odds formulas read
    it as they are."""

    round_index: int  # 1 flop, 2 turn, 3 river
    bets_to_call: int
    bets_made: int  # bets and raises made this round
    bet_size: float
    later_bet_size: float  # a bet in the rounds still to come
    pot: float  # all money in, before the action
    to_call: float
    opponents_active: int
    opponents_to_act: int  # active opponents who have not acted yet this round (`BettingContext`)
    called_bet_this_round: bool
    semi_bluffing: bool
    can_raise: bool

    @classmethod
    def of(cls, context: BettingContext, later_bet_size: float, semi_bluffing: bool) -> TripleContext:
        """The triple context of a decision's `BettingContext` (the engine's betting facts), with the bet of
        the rounds to come and whether the player is semi-bluffing."""
        return cls(
            context.round,
            context.bets_to_call,
            context.bets_made,
            context.bet_size,
            later_bet_size,
            context.pot,
            context.to_call,
            context.opponents_active,
            context.opponents_to_act,
            context.called_bet,
            semi_bluffing,
            context.can_raise,
        )


def ramp(x: float, threshold: float, width: float) -> float:
    """The chance that x, jittered uniformly by +-width, reaches `threshold`: a linear ramp in [0, 1]
    (a step, x >= threshold, at width 0)."""
    if width <= 0:
        return 1.0 if x >= threshold else 0.0
    return min(1.0, max(0.0, (x - threshold + width) / (2 * width)))


def reference_triple(
    hs_n: float,
    ehs_optimistic: float,
    ehs: float,
    potential: float,
    c: TripleContext,
    rules: TripleRules,
    t1: float,
    t2: float,
) -> tuple[float, float, float]:
    """(fold, call, raise) for one holding: the plain reference of the generator (see the module doc).

    hs_n, ehs_optimistic (EHS'), ehs and potential (PPOT) in [0, 1]; t1 / t2 the Make1 / Make2 thresholds.
    """
    r, width = rules.rules, rules.width
    pt = [0.0, 0.0, 0.0]
    facing = c.bets_to_call > 0
    raise_or_call = RAISE if c.can_raise else CALL
    mass = 1.0
    if r.deception and not facing:
        if c.opponents_to_act > 0:
            p = r.check_raise_probability * ramp(ehs_optimistic, r.check_raise_strength, width)
            pt[CALL] += mass * p
            mass *= 1 - p
        if c.round_index == RIVER and c.opponents_active <= r.bluff_max_opponents:
            p = r.bluff_probability * (1 - ramp(ehs_optimistic, r.bluff_strength, width))
            pt[RAISE] += mass * p
            mass *= 1 - p
    q4 = ramp(hs_n, r.make4, rules.make4_width)
    q2 = max(ramp(ehs_optimistic, t2, width), q4)
    q1 = max(ramp(ehs_optimistic, t1, width), q2)
    pt[raise_or_call] += mass * q4
    pt[RAISE if c.bets_made < 2 and c.can_raise else CALL] += mass * (q2 - q4)
    make1, rest = mass * (q1 - q2), mass * (1 - q1)
    if not facing:
        pt[RAISE] += make1
    elif c.bets_to_call < 2 or c.called_bet_this_round:
        balancing = r.balancing_raise_probability if r.deception else 0.0
        pt[raise_or_call] += make1 * balancing
        pt[CALL] += make1 * (1 - balancing)
    else:
        rest += make1
    if not facing:
        if r.semi_bluff:
            if c.semi_bluffing:
                s = 1.0
            elif c.round_index < RIVER:
                s = ramp(potential - semi_bluff_odds(c.bet_size, c.pot), 0.0, rules.odds_width)
            else:
                s = 0.0
            pt[RAISE] += rest * s
            rest *= 1 - s
        pt[CALL] += rest
    else:
        if r.pot_odds_calls:
            chance = hs_n if c.round_index == RIVER else potential
            s = ramp(chance - c.to_call / (c.pot + c.to_call), 0.0, rules.odds_width)
            pt[CALL] += rest * s
            rest *= 1 - s
        if r.showdown_odds and c.round_index < RIVER:
            s = ramp(ehs - showdown_odds(c), 0.0, rules.odds_width)
            pt[CALL] += rest * s
            rest *= 1 - s
        pt[FOLD] += rest
    return legal_triple(pt, c.to_call > 0, c.can_raise)


def legal_triple(pt, facing: bool, can_raise: bool) -> tuple[float, float, float]:
    """A triple with the mass of moves the player cannot make moved to call: no fold when checking is
    free, no raise when the cap (or the stacks) forbid it (as Loki-1's `act` does)."""
    fold, call, raise_ = pt
    if not facing:
        call, fold = call + fold, 0.0
    if not can_raise:
        call, raise_ = call + raise_, 0.0
    return fold, call, raise_


def context_array(c: TripleContext) -> np.ndarray:
    """The context as the float array the kernels read (`TripleContext` field order)."""
    return np.array(c, dtype=np.float64)


@nb.njit(inline="always", cache=True)
def _ramp(x, threshold, width):
    if width <= 0:
        return 1.0 if x >= threshold else 0.0
    return min(1.0, max(0.0, (x - threshold + width) / (2 * width)))


@nb.njit(cache=True)
def triple_action(values, k, u, out):
    """`reference_triple` written for numba, all its numbers in one tuple ``values``: the `TripleContext`
    fields in order (ints and bools as they are), then HS_n, EHS', EHS, PPOT, t1 and t2; rules `k`
    (`TripleRules.as_array`); writes (fold, call, raise) into `out` and returns the action the selector
    draws from it with the uniform `u` (`pokerlab.programs.loki2.selector.draw`). One tuple argument and the
    draw in the same call keep the simulator's inner loop cheap."""
    fold, call, out[2] = _triple(
        values[12], values[13], values[14], values[15], values, k, values[16], values[17]
    )
    out[0], out[1] = fold, call
    return draw(fold, call, u)


@nb.njit(inline="always", cache=True)
def _triple(hs_n, ehs_opt, ehs, potential, c, k, t1, t2):
    rnd, b, made, bet, later, pot, to_call = c[0], c[1], c[2], c[3], c[4], c[5], c[6]
    active, to_act, called, bluffing, can_raise = c[7], c[8], c[9] > 0, c[10] > 0, c[11] > 0
    width, odds_width = k[11], k[13]
    f = cl = r = 0.0
    facing = b > 0
    mass = 1.0
    if k[1] > 0 and not facing:
        if to_act > 0:
            p = k[3] * _ramp(ehs_opt, k[2], width)
            cl += mass * p
            mass *= 1 - p
        if rnd == RIVER and active <= k[6]:
            p = k[5] * (1 - _ramp(ehs_opt, k[4], width))
            r += mass * p
            mass *= 1 - p
    q4 = _ramp(hs_n, k[0], k[12])
    q2 = max(_ramp(ehs_opt, t2, width), q4)
    q1 = max(_ramp(ehs_opt, t1, width), q2)
    if can_raise:
        r += mass * q4
    else:
        cl += mass * q4
    if made < 2 and can_raise:
        r += mass * (q2 - q4)
    else:
        cl += mass * (q2 - q4)
    make1, rest = mass * (q1 - q2), mass * (1 - q1)
    if not facing:
        r += make1
    elif b < 2 or called:
        balancing = k[7] if k[1] > 0 else 0.0
        if can_raise:
            r += make1 * balancing
        else:
            cl += make1 * balancing
        cl += make1 * (1 - balancing)
    else:
        rest += make1
    if not facing:
        if k[8] > 0:
            if bluffing:
                s = 1.0
            elif rnd < RIVER:
                s = _ramp(potential - 2 * bet / (pot + 6 * bet), 0.0, odds_width)
            else:
                s = 0.0
            r += rest * s
            rest *= 1 - s
        cl += rest
    else:
        if k[9] > 0:
            chance = hs_n if rnd == RIVER else potential
            s = _ramp(chance - to_call / (pot + to_call), 0.0, odds_width)
            cl += rest * s
            rest *= 1 - s
        if k[10] > 0 and rnd < RIVER:
            n_later = 3 - rnd
            invest = to_call + n_later * later
            final_pot = pot + to_call + (active + 1) * n_later * later
            s = _ramp(ehs - invest / (final_pot + invest), 0.0, odds_width)
            cl += rest * s
            rest *= 1 - s
        f += rest
    if to_call <= 0:
        cl += f
        f = 0.0
    if not can_raise:
        cl += r
        r = 0.0
    return f, cl, r


@nb.njit(inline="always", cache=True)
def holding_triple(hs, ppot, opponents, c, k, t1, t2):
    """The triple of one holding from its HS_1 and PPOT_c, as `holding_triples` asks it (numba kernel):
    HS_n = HS_1^n by repeated products, EHS' = HS_n + (1 - HS_n) PPOT standing in for EHS too."""
    hs_n = hs
    for _ in range(opponents - 1):
        hs_n *= hs
    ehs_opt = hs_n + (1 - hs_n) * ppot
    return _triple(hs_n, ehs_opt, ehs_opt, ppot, c, k, t1, t2)


@nb.njit(cache=True)
def _holding_triples(strength, potential, opponents, c, k, t1, t2):
    n = strength.shape[0]
    out = np.full((n, 3), np.nan)
    for i in range(n):
        hs = strength[i]
        if hs != hs:  # NaN: the holding meets the board
            continue
        out[i, 0], out[i, 1], out[i, 2] = holding_triple(hs, potential[i], opponents, c, k, t1, t2)
    return out


def holding_triples(
    strength: np.ndarray,
    potential: np.ndarray,
    opponents: int,
    context: TripleContext,
    rules: TripleRules,
    t1: float,
    t2: float,
) -> np.ndarray:
    """The triple of every holding (shape (1326, 3); NaN rows where `strength` is NaN) for a player with
    `opponents` active opponents: HS_n = HS_1^n from each holding's `strength` HS_1, EHS' = HS_n +
    (1 - HS_n) PPOT from its `potential`, and EHS' also in the showdown-odds test (no NPOT is known for a
    crude potential) [OUR CHOICE, Peña 1999 node31, node34]."""
    return _holding_triples(
        strength, potential, float(opponents), context_array(context), rules.as_array(), t1, t2
    )
