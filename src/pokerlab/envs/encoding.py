"""The observation vector of one seat, built from its `SeatView` only (never from the hand's state).

Layout (float32, `OBSERVATION_SIZE` = 152 entries; money in small bets; positions 0..n-1, n-1 the button):

====== ======= ==============================================================================
start  length  entry
====== ======= ==============================================================================
0      52      own hole cards, one-hot by card code (two ones)
52     52      board cards, one-hot by card code (0, 3, 4 or 5 ones)
104    4       betting round, one-hot (pre-flop, flop, turn, river)
108    10      own position, one-hot
118    1       players in the hand / 10
119    1       pot
120    1       chips to call
121    1       bets and raises made this round (the big blind counting pre-flop)
122    1       raises the cap still allows (-1: uncapped)
123    10      chips each position put in during the hand (blinds included); 0 past the players
133    10      1 for each position that folded
143    6       reserved (0), so that the layout can grow without moving
149    3       the action mask: FOLD, CALL, RAISE legal (all 0 when it is not this seat's turn)
====== ======= ==============================================================================
"""

from __future__ import annotations

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.engine import SeatView

#: Length of the observation vector.
OBSERVATION_SIZE = 152
#: Most seats at a table.
MAX_SEATS = 10


def action_mask(view: SeatView) -> np.ndarray:
    """(FOLD, CALL, RAISE) legal for this seat now, as int8 0/1."""
    legal = view.legal_actions
    return np.array([FOLD in legal, CALL in legal, RAISE in legal], dtype=np.int8)


def observation(view: SeatView) -> np.ndarray:
    """The vector of the module doc for `view` (money in the config's small bets)."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    unit = float(view.config.small_bet)
    obs[list(view.hole)] = 1.0
    if view.board:
        obs[[52 + c for c in view.board]] = 1.0
    obs[104 + min(view.round, 3)] = 1.0
    obs[108 + view.position] = 1.0
    obs[118] = view.players / MAX_SEATS
    obs[119] = view.pot / unit
    obs[120] = view.to_call / unit
    obs[121] = view.raises
    obs[122] = -1.0 if view.raises_left is None else view.raises_left
    obs[123 : 123 + view.players] = np.asarray(view.committed, dtype=np.float32) / unit
    obs[133 : 133 + view.players] = view.folded
    obs[149:152] = action_mask(view)
    return obs


def view_dict(view: SeatView) -> dict:
    """The view in plain form (ints, lists, strings): what `info["view"]` carries."""
    return {
        "position": view.position,
        "players": view.players,
        "hole": list(view.hole),
        "board": list(view.board),
        "round": view.round,
        "pot": view.pot,
        "to_call": view.to_call,
        "raises": view.raises,
        "raises_left": view.raises_left,
        "legal_actions": list(view.legal_actions),
        "betting": view.betting,
        "committed": list(view.committed),
        "folded": list(view.folded),
        "seats": list(view.seats),
        "stacks": None if view.stacks is None else list(view.stacks),
        "small_bet": view.config.small_bet,
    }
