"""Hand records: what a finished hand was (cards, actions, nets), rebuilding it by replay, ACPC STATE lines.

A record lists everything by position (0 = first left of the button, n-1 = the button; see
`pokerlab.engine.state`). `replay` is the one way back from a record (or an imported history) to a
state, so every import goes through the engine's own rules and is rejected with the reason when illegal.
"""

from __future__ import annotations

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
    holes = "|".join(
        "".join(format_card(c) for c in record.hole(p) if c != UNKNOWN) for p in range(record.players)
    )
    splits = [0, 3, 4, 5]
    board = "".join(
        "/" + "".join(format_card(c) for c in record.board[splits[r] : splits[r + 1]])
        for r in range(3)
        if len(record.board) > splits[r]
    )
    nets = "|".join(str(v) for v in record.nets)
    names = "|".join(record.names) if record.names else "|".join(f"p{p + 1}" for p in range(record.players))
    betting = record.betting_string()
    return f"STATE:{hand_number}:{betting}:{holes}{board}:{nets}:{names}"


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
