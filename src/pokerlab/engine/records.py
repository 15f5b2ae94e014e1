"""Hand records: what a finished hand was (cards, actions, nets), and rebuilding it by replay.

A record lists everything by position (0 = first left of the button, n-1 = the button; see
`pokerlab.engine.state`). `replay` is the one way back from a record (or an imported history) to a
state, so every import goes through the engine's own rules and is rejected with the reason when illegal.
"""

from __future__ import annotations

from typing import NamedTuple

from pokerlab.cards import parse_cards
from pokerlab.engine.config import GameConfig
from pokerlab.engine.state import BOARD_SIZE, RAISE, ROUND_NAMES, UNKNOWN, Action, HandState
from pokerlab.errors import IllegalAction, InvalidCards


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
