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


def _public(view: SeatView) -> tuple[list[int], list[bool]]:
    """(chips each position put in during the hand, whether each folded): the engine's betting facts."""
    facts = view.betting_facts()
    return facts.committed, facts.folded


def _vector(view: SeatView, mask: np.ndarray, committed: list[int], folded: list[bool]) -> np.ndarray:
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    unit = view.config.small_bet
    n = view.players
    hole = view.hole
    obs[hole[0]] = obs[hole[1]] = 1.0
    for card in view.board:
        obs[52 + card] = 1.0
    obs[104 + min(view.round, 3)] = 1.0
    obs[108 + view.position] = 1.0
    left = view.raises_left
    obs[118:123] = (
        n / MAX_SEATS,
        view.pot / unit,
        view.to_call / unit,
        view.raises,
        -1 if left is None else left,
    )
    obs[123 : 123 + n] = [c / unit for c in committed]
    obs[133 : 133 + n] = folded
    obs[149:152] = mask
    return obs


def observation(view: SeatView) -> np.ndarray:
    """The vector of the module doc for `view` (money in the config's small bets)."""
    return _vector(view, action_mask(view), *_public(view))


def encode(view: SeatView) -> tuple[np.ndarray, np.ndarray, dict]:
    """(observation, action mask, the view in plain form) of `view`, its records read once."""
    mask = action_mask(view)
    committed, folded = _public(view)
    return _vector(view, mask, committed, folded), mask, _plain(view, committed, folded)


def view_dict(view: SeatView) -> dict:
    """The view in plain form (ints, lists, strings): what `info["view"]` carries."""
    return _plain(view, *_public(view))


def _plain(view: SeatView, committed: list[int], folded: list[bool]) -> dict:
    starting = view.starting_stacks
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
        "committed": committed,
        "folded": folded,
        "seats": list(view.seats),
        "stacks": None if starting is None else [s - c for s, c in zip(starting, committed, strict=True)],
        "small_bet": view.config.small_bet,
    }
