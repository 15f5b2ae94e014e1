"""Effective hand strength and pot odds: the numbers Loki's betting rules compare with thresholds.

EHS = HS_n + (1 - HS_n) Ppot - HS_n Npot (Papp 1998 eq. 6.3, §6.3); the optimistic EHS' =
HS_n + (1 - HS_n) Ppot (Papp eq. 6.4; the EHS of Billings et al. 1998 §4.4) is what Loki bets on. Pot odds are
to_call / (pot + to_call) (Billings et al. 1998 §4.4): call when the chance to win is at least that.
"""

from __future__ import annotations

from pokerlab.errors import ConfigError


def _probability(name: str, value: float) -> float:
    if not 0.0 <= value <= 1.0:
        raise ConfigError(f"{name} is a probability in [0, 1]; got {value!r}")
    return float(value)


def effective_hand_strength(hs_n: float, ppot: float, npot: float) -> float:
    """EHS in [0, 1]: ahead now and not drawn out on, or behind and drawing ahead (Papp eq. 6.3)."""
    hs_n, ppot, npot = _probability("hs_n", hs_n), _probability("ppot", ppot), _probability("npot", npot)
    return hs_n + (1 - hs_n) * ppot - hs_n * npot


def optimistic_hand_strength(hs_n: float, ppot: float) -> float:
    """EHS' in [0, 1]: ahead now, or behind and drawing ahead; Npot left out (Papp eq. 6.4, Billings et al.
    1998 §4.4)."""
    hs_n, ppot = _probability("hs_n", hs_n), _probability("ppot", ppot)
    return hs_n + (1 - hs_n) * ppot


def pot_odds(to_call: float, pot: float) -> float:
    """to_call / (pot + to_call), in [0, 1): the winning chance a call needs (Billings et al. 1998 §4.4);
    `pot` holds every bet made so far, in chips.

    >>> round(pot_odds(to_call=20, pot=175), 3)
    0.103
    """
    if to_call < 0 or pot < 0 or pot + to_call == 0:
        raise ConfigError(
            f"pot odds need to_call >= 0 and pot >= 0, not both 0; got to_call={to_call!r}, pot={pot!r}"
        )
    return to_call / (pot + to_call)


def call_value(win_probability: float, to_call: float, pot: float) -> float:
    """Expected chips won by calling: p * pot - (1 - p) * to_call; >= 0 exactly when p >= pot odds
    (Papp 1998 §6.2-6.7 rule 5, derived from Papp §6.5's examples)."""
    p = _probability("win_probability", win_probability)
    pot_odds(to_call, pot)
    return p * pot - (1 - p) * to_call
