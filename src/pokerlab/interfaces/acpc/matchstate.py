"""ACPC MATCHSTATE lines: parse, format, and replay them through the engine to see whose turn it is.

A line is ``MATCHSTATE:<position>:<hand>:<betting>:<cards>`` (ACPC protocol 2.0.0): ``betting`` holds the
actions of each round separated by '/', ``f``, ``c`` and
``r`` (no-limit games add the raise-to amount, ``r250``); ``cards`` holds each position's hole cards
separated by '|' (empty where unseen) and then, after '/', the board cards of each round dealt. Lines
longer than `MAX_LINE` bytes are refused, as the protocol's fixed buffers do.

Whose turn it is is never read from the line: the betting is replayed by our engine with the unseen
cards unknown, so a line that breaks the rules is refused with the engine's reason.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from pokerlab.cards import format_card, parse_cards
from pokerlab.engine import ACTION_LETTERS, UNKNOWN, GameConfig, HandState, replay
from pokerlab.errors import ConfigError, CorruptData, InvalidCards

#: The longest line the protocol allows, in bytes (without the line end).
MAX_LINE = 4096
_TOKEN = re.compile(r"([fcr])(\d*)")


class MatchState(NamedTuple):
    """One MATCHSTATE line: ``holes`` per position (empty tuple: unseen), ``board`` per round after the
    pre-flop (flop, turn, river, as far as dealt), ``betting`` the ACPC betting string as sent."""

    position: int
    hand: int
    betting: str
    holes: tuple[tuple[int, ...], ...]
    board: tuple[tuple[int, ...], ...]

    @property
    def players(self) -> int:
        return len(self.holes)

    def format(self) -> str:
        """The line, without its line end."""
        holes = "|".join("".join(format_card(c) for c in h) for h in self.holes)
        board = "".join("/" + "".join(format_card(c) for c in r) for r in self.board)
        return f"MATCHSTATE:{self.position}:{self.hand}:{self.betting}:{holes}{board}"

    def actions(self) -> list[tuple[int, int, int | None]]:
        """(round, action, raise-to amount or None) of every action in the betting string."""
        out = []
        for r, text in enumerate(self.betting.split("/")):
            pos = 0
            while pos < len(text):
                m = _TOKEN.match(text, pos)
                if m is None:
                    raise CorruptData(f"betting {self.betting!r}: unknown action at {text[pos:]!r}")
                if m.group(2) and m.group(1) != "r":
                    raise CorruptData(f"betting {self.betting!r}: only a raise carries an amount")
                out.append((r, ACTION_LETTERS.index(m.group(1)), int(m.group(2)) if m.group(2) else None))
                pos = m.end()
        return out

    def replay(self, config: GameConfig) -> HandState:
        """The hand so far, played by the engine with the unseen hole cards unknown.

        Raises `ConfigError` for no-limit amounts, `IllegalAction` / `InvalidCards` for a line that breaks
        the rules (the engine's reason).
        """
        actions = self.actions()
        if any(a[2] is not None for a in actions):
            raise ConfigError(
                f"betting {self.betting!r} has no-limit amounts; only limit games are supported"
            )
        holes: list[int] = []
        for h in self.holes:
            holes += list(h) if h else [UNKNOWN, UNKNOWN]
        board = [c for r in self.board for c in r]
        state = replay(
            config,
            [config.starting_stack()] * self.players,
            holes,
            board,
            [(None, a) for _, a, _ in actions],
            finish=False,
        )
        rounds = self.betting.count("/")
        if min(state.round, 3) != rounds and not state.is_over:
            raise CorruptData(f"betting {self.betting!r} is in round {rounds}, the rules say {state.round}")
        return state

    def is_our_turn(self, config: GameConfig) -> bool:
        """Whether the rules make this line's position the one to act (False once the hand is over)."""
        state = self.replay(config)
        return not state.is_over and state.actor == self.position


def parse_matchstate(line: str) -> MatchState:
    """Read a MATCHSTATE line (its line end optional); `CorruptData` names what is wrong."""
    text = line.rstrip("\r\n")
    if len(text.encode()) > MAX_LINE:
        raise CorruptData(f"a protocol line is at most {MAX_LINE} bytes, got {len(text.encode())}")
    parts = text.split(":")
    if len(parts) != 5 or parts[0] != "MATCHSTATE":
        raise CorruptData(f"not a MATCHSTATE line: {_short(text)}")
    try:
        position, hand = int(parts[1]), int(parts[2])
    except ValueError:
        raise CorruptData(f"position and hand must be numbers: {_short(text)}") from None
    hole_text, *board_text = parts[4].split("/")
    try:
        holes = tuple(tuple(parse_cards(h)) for h in hole_text.split("|"))
        board = tuple(tuple(parse_cards(b)) for b in board_text)
    except InvalidCards as exc:
        raise CorruptData(f"bad cards in {_short(text)}: {exc}") from None
    if not 0 <= position < len(holes) or position < 0 or hand < 0:
        raise CorruptData(f"position {position} outside the {len(holes)} players: {_short(text)}")
    if any(len(h) not in (0, 2) for h in holes) or len(board) > 3:
        raise CorruptData(f"a hold'em seat holds 2 cards and the board 3 rounds: {_short(text)}")
    state = MatchState(position, hand, parts[3], holes, board)
    state.actions()  # raises on unknown action letters
    return state


def matchstate_of(state: HandState, position: int, hand: int) -> MatchState:
    """The line the dealer sends `position` in `state`: its own cards, the cards shown down at the end of
    a showdown, the board dealt so far."""
    shown = state.shown() if state.is_over and state.showdown else [False] * state.n
    holes = tuple(
        (state.holes[2 * p], state.holes[2 * p + 1]) if p == position or shown[p] else ()
        for p in range(state.n)
    )
    board = state.board_seen
    rounds = tuple(tuple(board[a:b]) for a, b in ((0, 3), (3, 4), (4, 5)) if len(board) >= b)
    return MatchState(position, hand, state.betting_string(), holes, rounds)


def _short(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:77] + "...")
