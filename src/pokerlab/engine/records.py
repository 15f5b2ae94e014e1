"""Hand records: what a finished hand was (cards, actions, nets), rebuilding it by replay, ACPC STATE lines.

A record lists everything by position (0 = first left of the button, n-1 = the button; see
`pokerlab.engine.state`). `replay` is the one way back from a record (or an imported history) to a
state, so every import goes through the engine's own rules and is rejected with the reason when illegal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from pokerlab.cards import format_card, parse_cards
from pokerlab.engine.config import GameConfig
from pokerlab.engine.state import ACTION_LETTERS, BOARD_SIZE, RAISE, ROUND_NAMES, UNKNOWN, Action, HandState
from pokerlab.errors import CorruptData, IllegalAction, InvalidCards


class HandRecord(NamedTuple):
    """One finished hand (a named tuple: cheap to make for every hand written). Money in chips; lists are
    indexed by position.

    ``holes`` holds 2 * n card codes (`UNKNOWN` = never seen), ``board`` the board cards dealt,
    ``actions`` the betting as (position, action) pairs in order, ``names`` who sat in each position.
    """

    config: GameConfig
    stacks: tuple[int, ...]
    holes: tuple[int, ...]
    board: tuple[int, ...]
    actions: tuple[tuple[int, int], ...]
    nets: tuple[int, ...]
    shown: tuple[bool, ...]
    names: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        """How many positions took part."""
        return len(self.stacks)

    def hole(self, p: int) -> tuple[int, int]:
        """Hole cards of position p (`UNKNOWN` where never seen)."""
        return self.holes[2 * p], self.holes[2 * p + 1]

    def betting_string(self) -> str:
        """The ACPC betting string of the hand ("cr/cc/rc/c")."""
        return replay(self.config, self.stacks, self.holes, self.board, self.actions).betting_string()


def record_of(
    state: HandState, stacks: list[int] | tuple[int, ...], names: list[str] | tuple[str, ...] = ()
) -> HandRecord:
    """The record of a finished hand; ``stacks`` are the positions' chips before the blinds."""
    if not state.is_over:
        raise IllegalAction("only a finished hand has a record")
    return HandRecord(
        state.config,
        tuple(stacks),
        tuple(state.holes),
        state.board_seen,
        tuple([(r.position, r.action) for r in state.actions]),
        tuple(state.nets),
        tuple(state.shown()),
        tuple(names),
    )


def replay(
    config: GameConfig,
    stacks: list[int] | tuple[int, ...],
    holes: list[int] | tuple[int, ...],
    board: list[int] | tuple[int, ...],
    actions,
    *,
    finish: bool = True,
) -> HandState:
    """Rebuild a hand from its stacks, hole cards, board and (position, action) pairs.

    A position of None stands for whoever is to act (for formats that name no players, such as ACPC). An
    entry (position, RAISE, total) also checks that the raise brings the player's bet in the round to
    `total` chips (PHH's "cbr" amounts).

    Raises `IllegalAction` naming the first action that is out of turn or against the rules (and the
    legal ones), `InvalidCards` for repeated cards or a showdown without the cards it needs; with
    ``finish`` also when the actions stop before the hand is over.
    """
    known = [c for c in list(holes) + list(board) if c != UNKNOWN]
    parse_cards(known)  # raises InvalidCards on a repeated or invalid code
    state = HandState(config, list(holes), list(board), list(stacks))
    for k, (p, a, *amount) in enumerate(actions):
        if state.is_over:
            raise IllegalAction(f"action {k + 1} ({_describe(p, a)}) comes after the hand is over")
        if p is not None and p != state.actor:
            raise IllegalAction(
                f"action {k + 1} ({_describe(p, a)}) is out of turn: position {state.actor} "
                f"is to act in the {ROUND_NAMES[state.round]}"
            )
        actor = state.actor
        try:
            state.act(a)
        except IllegalAction as exc:
            raise IllegalAction(f"action {k + 1}: {exc}") from None
        if amount and a == RAISE and state.bets[actor] != amount[0]:
            raise IllegalAction(
                f"action {k + 1} ({_describe(p, a)}) raises to {amount[0]}, but the fixed "
                f"limit makes it a raise to {state.bets[actor]}"
            )
        if len(board) < BOARD_SIZE[state.round] and not state.is_over:
            raise InvalidCards(
                f"the {ROUND_NAMES[state.round]} is reached after action {k + 1} but only "
                f"{len(board)} board cards are given"
            )
    if finish and not state.is_over:
        raise IllegalAction(
            f"the actions stop before the hand is over: position {state.actor} is to act "
            f"in the {ROUND_NAMES[state.round]}"
        )
    return state


def _describe(p: int | None, a: int) -> str:
    name = Action(a).name if a in (0, 1, 2) else repr(a)
    return name if p is None else f"position {p} {name}"


# -- ACPC STATE lines ---------------------------------------------------------------------------------


def acpc_state_line(record: HandRecord, hand_number: int = 0) -> str:
    """The hand as an ACPC dealer log line: STATE:<hand>:<betting>:<holes|...>/<board>:<nets>:<names>.

    ACPC seats are our positions (the ACPC limit games post the blinds as we do, "reverse blinds"
    heads-up).
    """
    names = record.names or tuple(f"p{p + 1}" for p in range(record.players))
    return format_state_line(
        hand_number, record.betting_string(), record.holes, record.board, record.nets, names
    )


def format_state_line(
    hand_number: int,
    betting: str,
    holes: Sequence[int],
    board: Sequence[int],
    nets: Sequence[int],
    names: Sequence[str],
) -> str:
    """An ACPC STATE line from its parts (hole cards by position, `UNKNOWN` left out; the board split by
    round with "/").

    >>> format_state_line(3, "cc/r", [0, 4, 51, 50], [8, 12, 16, 20], [20, -20], ["a", "b"])
    'STATE:3:cc/r:2c3c|AsAh/4c5c6c/7c:20|-20:a|b'
    """
    hole_text = "|".join(
        "".join(format_card(c) for c in holes[2 * p : 2 * p + 2] if c != UNKNOWN) for p in range(len(nets))
    )
    board_text = "".join(
        "/" + "".join(map(format_card, board[a:b])) for a, b in ((0, 3), (3, 4), (4, 5)) if len(board) > a
    )
    return (
        f"STATE:{hand_number}:{betting}:{hole_text}{board_text}:{'|'.join(map(str, nets))}:{'|'.join(names)}"
    )


def parse_acpc_state_line(line: str, config: GameConfig, stacks: list[int] | None = None) -> HandRecord:
    """Replay an ACPC STATE line under `config` (stacks default to the config's) into a record.

    The betting letters are replayed by the engine; the result's nets must match the line's when it has
    them, else `CorruptData`.
    """
    parts = line.strip().split(":")
    if len(parts) < 4 or parts[0] != "STATE":
        raise CorruptData(f"not an ACPC STATE line: {line.strip()!r}")
    betting, cards = parts[2], parts[3]
    hole_part, *board_parts = cards.split("/")
    seats = hole_part.split("|")
    n = len(seats)
    holes: list[int] = []
    for text in seats:
        codes = parse_cards(text)
        if len(codes) not in (0, 2):
            raise InvalidCards(f"a seat holds two hole cards, got {text!r} in {line.strip()!r}")
        holes += codes or [UNKNOWN, UNKNOWN]
    board = [c for part in board_parts for c in parse_cards(part)]
    letters = betting.replace("/", "")
    bad = set(letters) - set(ACTION_LETTERS)
    if bad:
        raise CorruptData(f"betting {betting!r} holds {sorted(bad)}; limit betting uses only f, c, r and /")
    actions = [(None, ACTION_LETTERS.index(letter)) for letter in letters]
    start = list(stacks) if stacks is not None else [config.starting_stack()] * n
    state = replay(config, start, holes, board, actions)
    record = record_of(state, start, parts[5].split("|") if len(parts) > 5 else ())
    if len(parts) > 4 and parts[4]:
        given = [int(float(v)) for v in parts[4].split("|")]
        if given != list(record.nets):
            raise CorruptData(f"the line's nets {given} differ from the replayed nets {list(record.nets)}")
    return record
