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

`encode` builds the vector and mask from a view in one go, reading every record; `Encoder` gives the same
arrays for the successive views of one seat, taking in only the records new since its last view (what the
environments step with). `plain` is the view in plain form (ints, lists, strings), and `PlainView` the same
built at its first read: the environments' ``info["view"]``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.engine import SeatView

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
    """`plain` of a view, built at the first read, so that a caller who never reads it pays nothing for it
    (a view is immutable: it is the view as it was when handed out): a read-only mapping, equal to the
    dict; ``dict(info["view"])`` gives the dict itself."""

    __slots__ = ("_view", "_plain")

    def __init__(self, view: SeatView) -> None:
        self._view = view
        self._plain: dict | None = None

    def _dict(self) -> dict:
        if self._plain is None:
            self._plain = plain(self._view)
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
    """`encode` for the successive views of one seat: ``Encoder().encode(view)`` equals ``encode(view)``
    entry for entry, its cost growing with the records new since the previous call rather than all of them.

    It keeps the vector of the last view and the chips each position put in, and takes in the new records
    (a fold puts in no chips). It starts over from the view when the view is of another hand (the last
    record taken in is not the same object in it), of another position, hole cards, blinds or small bet,
    or when its board does not extend the last one. (Before any record, the vector is made of those, the
    board and the betting of the view alone, so a view of another hand with the same ones gives the same
    vector.)
    """

    __slots__ = (
        "_buffer",
        "_cells",
        "_chips",
        "_seen",
        "_last",
        "_position",
        "_hole",
        "_blinds",
        "_unit",
        "_board",
        "_round",
        "_legal",
    )

    def __init__(self) -> None:
        self._buffer = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        # the same memory, written an entry at a time in half the time numpy's indexing takes (ints and
        # bools are taken as floats)
        self._cells = memoryview(self._buffer)
        self._seen = 0
        self._position = self._hole = self._blinds = self._unit = None

    def _restart(self, view: SeatView) -> None:
        """Forget the hand: the vector of `view` before any record, no record taken in."""
        self._buffer.fill(0.0)
        cells = self._cells
        hole, n, unit = view.hole, view.players, view.config.small_bet
        cells[hole[0]] = cells[hole[1]] = 1.0
        cells[108 + view.position] = 1.0
        cells[118] = n / MAX_SEATS
        for p, chips in enumerate(view.blinds):
            if chips:
                cells[123 + p] = chips / unit
        self._chips = list(view.blinds)
        self._seen, self._last = 0, None
        self._position, self._hole, self._blinds, self._unit = view.position, hole, view.blinds, unit
        self._board: tuple[int, ...] = ()
        self._round = self._legal = None

    def encode(self, view: SeatView) -> tuple[np.ndarray, np.ndarray]:
        """(observation, action mask) of `view`, as `encode` gives them."""
        actions = view.actions
        seen = self._seen
        if (
            len(actions) < seen
            or (seen and actions[seen - 1] is not self._last)
            or view.position != self._position
            or view.hole != self._hole
            or view.blinds != self._blinds
            or view.config.small_bet != self._unit
        ):
            self._restart(view)
            seen = 0
        cells, unit = self._cells, self._unit
        if len(actions) > seen:
            committed = self._chips
            for _, p, action, amount, _, _, _ in actions[seen:]:
                if amount:
                    committed[p] += amount
                    cells[123 + p] = committed[p] / unit
                elif action == FOLD:
                    cells[133 + p] = 1.0
            self._seen, self._last = len(actions), actions[-1]
        board = view.board
        if board is not self._board:
            old = self._board
            if board[: len(old)] != old:
                self._restart(view)
                return self.encode(view)
            for card in board[len(old) :]:
                cells[52 + card] = 1.0
            self._board = board
        round_index = view.round
        if round_index != self._round:
            if self._round is not None:
                cells[104 + min(self._round, 3)] = 0.0
            cells[104 + min(round_index, 3)] = 1.0
            self._round = round_index
        left = view.raises_left
        cells[119] = view.pot / unit
        cells[120] = view.to_call / unit
        cells[121] = view.raises
        cells[122] = -1 if left is None else left
        legal = view.legal_actions
        mask = _MASKS.get(legal)
        if mask is None:
            mask = _mask_of(legal)
        if legal != self._legal:
            cells[149], cells[150], cells[151] = FOLD in legal, CALL in legal, RAISE in legal
            self._legal = legal
        return self._buffer.copy(), mask.copy()
