"""The observation vector of one seat, made of what its `SeatView` holds only (its own hole cards, the board
and the public betting; never another seat's cards).

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

`encode` builds the vector and mask from a view in one go, reading every record; `Encoder` gives the same
arrays for the successive states of one hand seen by one position, read from the engine's `HandState`
at those entries only (the seat's own cards, the board, each position's chips and folds, the betting
scalars, the seat's legal actions), without building the view, and writing only what changed (what the
environments step with). `plain` is the view in plain form (ints, lists, strings), and `PlainView` the
same built at its first read: the environments' ``info["view"]``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.engine import GameConfig, HandState, SeatView, replay, seat_view
from pokerlab.engine.state import FOLDED, raises_left

#: Length of the observation vector.
OBSERVATION_SIZE = 152
#: Most seats at a table.
MAX_SEATS = 10


def action_mask(view: SeatView) -> np.ndarray:
    """(FOLD, CALL, RAISE) legal for this seat now, as int8 0/1."""
    return _mask_of(view.legal_actions)


def _mask_of(legal: tuple[int, ...]) -> np.ndarray:
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


def encode(view: SeatView) -> tuple[np.ndarray, np.ndarray]:
    """(observation, action mask) of `view`, its records read once."""
    mask = action_mask(view)
    return _vector(view, mask, *_public(view)), mask


def plain(view: SeatView) -> dict:
    """The view in plain form (ints, lists, strings): what `info["view"]` carries."""
    committed, folded = _public(view)
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


class PlainView(Mapping):
    """`plain` of the view of `position` on `state` as the state stands when this is made, built at the
    first read, so that a caller who never reads it pays nothing for it, not even the view: a read-only
    mapping, equal to the dict; ``dict(info["view"])`` gives the dict itself. Only `HandState.act` changes a
    state, each call adding one record, so a read after the state has moved on replays the hand's deal to
    the same number of records (`pokerlab.engine.replay`)."""

    __slots__ = ("_state", "_position", "_seats", "_config", "_records", "_plain")

    def __init__(self, state: HandState, position: int, seats: tuple[int, ...], config: GameConfig) -> None:
        self._state, self._position, self._seats, self._config = state, position, seats, config
        self._records = len(state.actions)
        self._plain: dict | None = None

    def _dict(self) -> dict:
        if self._plain is None:
            state = self._state
            if len(state.actions) != self._records:  # the hand as it stood then: its deal played again
                played = [(r.position, r.action) for r in state.actions[: self._records]]
                state = replay(
                    state.config, state.starting_stacks, state.holes, state.runout, played, finish=False
                )
            self._plain = plain(seat_view(state, self._position, self._seats, self._config))
            self._state = None  # the hand is no longer needed
        return self._plain

    def __getitem__(self, key: str):
        return self._dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._dict())

    def __len__(self) -> int:
        return len(self._dict())

    def __repr__(self) -> str:
        return f"PlainView({self._dict()!r})"


#: The masks of the legal-action tuples the engine gives (any other is built when met).
_MASKS = {legal: _mask_of(legal) for legal in ((), (CALL,), (FOLD, CALL), (FOLD, CALL, RAISE))}


class Encoder:
    """`encode` for the successive states of one hand seen by one position:
    ``Encoder().observe(state, position, config)`` equals ``encode(seat_view(state, position, seats,
    config))`` entry for entry, read from the engine's `HandState` directly (no view built), its cost
    growing with what changed since the previous call rather than with the records.

    It keeps the vector of the last call and writes only the entries that moved: the chips each position
    put in and its folds (the state's ``committed`` and ``status``, what a view's records sum to), the new
    board cards, the round, the betting scalars and the mask. The hole cards, position and players are
    written when it starts over: when `state` is another hand (another object: a copy is a branch), or the
    call is for another position or small bet.
    """

    __slots__ = (
        "_buffer",
        "_cells",
        "_state",
        "_position",
        "_unit",
        "_chips",
        "_in_hand",
        "_board",
        "_round",
        "_legal",
    )

    def __init__(self) -> None:
        self._buffer = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        # the same memory, written an entry at a time in half the time numpy's indexing takes (ints and
        # bools are taken as floats)
        self._cells = memoryview(self._buffer)
        self._state: HandState | None = None

    def _restart(self, state: HandState, position: int, unit: int) -> None:
        """Forget the hand: the vector of `state` at `position` with no chips, fold, board card nor round."""
        self._buffer.fill(0.0)
        cells, holes = self._cells, state.holes
        cells[holes[2 * position]] = cells[holes[2 * position + 1]] = 1.0
        cells[108 + position] = 1.0
        cells[118] = state.n / MAX_SEATS
        self._state, self._position, self._unit = state, position, unit
        self._chips = [0] * state.n
        self._in_hand = state.n
        self._board: tuple[int, ...] = ()
        self._round = self._legal = None

    def observe(self, state: HandState, position: int, config: GameConfig) -> tuple[np.ndarray, np.ndarray]:
        """(observation, action mask) of `position` on `state` as it stands (money in `config`'s small
        bets), as `encode` gives them for its view."""
        unit = config.small_bet
        if state is not self._state or position != self._position or unit != self._unit:
            self._restart(state, position, unit)
        cells = self._cells
        chips = state.committed
        if chips != self._chips:
            last = self._chips
            for p, amount in enumerate(chips):
                if amount != last[p]:
                    cells[123 + p] = amount / unit
            self._chips = chips.copy()
        status = state.status
        if state.in_hand != self._in_hand:
            for p, mark in enumerate(status):
                if mark == FOLDED:
                    cells[133 + p] = 1.0
            self._in_hand = state.in_hand
        board = state.board_seen
        if board is not self._board:
            for card in board[len(self._board) :]:
                cells[52 + card] = 1.0
            self._board = board
        round_index = state.round
        if round_index != self._round:
            if self._round is not None:
                cells[104 + min(self._round, 3)] = 0.0
            cells[104 + min(round_index, 3)] = 1.0
            self._round = round_index
        # the view's chips to call (`seat_view`): none once folded, at most the stack
        owed = state.max_bet - state.bets[position]
        stack = state.stacks[position]
        cells[119] = state.pot / unit
        cells[120] = 0 if status[position] == FOLDED else (owed if owed < stack else stack) / unit
        cells[121] = state.bets_made
        left = raises_left(state, position)
        cells[122] = -1 if left is None else left
        legal = state.legal_actions() if position == state.actor else ()
        mask = _MASKS.get(legal)
        if mask is None:
            mask = _mask_of(legal)
        if legal is not self._legal:
            cells[149], cells[150], cells[151] = FOLD in legal, CALL in legal, RAISE in legal
            self._legal = legal
        return self._buffer.copy(), mask.copy()
