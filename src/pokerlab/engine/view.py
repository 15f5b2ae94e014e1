"""What one position may know of a hand: the views the engine hands to agents (GUIDE.md, "agents").

* `HandStart`: the position's own seat, hole cards and who sits where, when a hand begins;
* `SeatView`: everything public plus the own hole cards, when the position must act;
* `HandEnd`: the nets and the cards shown down, when the hand is over.

All three are named tuples of ints, tuples and `ActionRecord`s, so they are cheap to build and read-only:
nothing in them refers to the `HandState`, and their ``config`` is a copy the engine does not use, so an
agent that tampers with it changes nothing but its own copy. Other positions' hole cards appear only in a
`HandEnd`, and only for the positions that showed them down.

`state_from_view` goes the other way: an engine state consistent with a view, the unseen cards filled in by
the caller (simulation search such as Loki-2's, and local best response, need it).
"""

from __future__ import annotations

import copy
from typing import NamedTuple

from pokerlab.engine.config import GameConfig
from pokerlab.engine.state import BOARD_SIZE, RAISE, ActionRecord, HandState, betting_string
from pokerlab.errors import InvalidCards

_new = tuple.__new__


class HandStart(NamedTuple):
    """The start of a hand for one position (money in chips; ``stacks`` None in the unlimited ring game).

    ``seats[p]`` names the player at position p by its lasting seat number, the same across the hands of a
    session, so that opponents can be modelled while positions rotate. ``hand`` counts the session's
    hands from 0.
    """

    position: int
    players: int
    hole: tuple[int, int]
    stacks: tuple[int, ...] | None
    seats: tuple[int, ...]
    config: GameConfig
    hand: int


class SeatView(NamedTuple):
    """One position's view of a hand when it must act (money in chips; position n-1 is the button).

    * ``actions``: every `ActionRecord` of the hand so far (round, position, action, chips put in, chips
      to call before acting, raises so far, raises left).
    * ``bets``: each position's chips put in during this round; ``committed``: during the whole hand
      (blinds included), so ``pot == sum(committed)``.
    * ``stacks``: chips behind (None in the unlimited ring game); ``to_call``: chips this position owes.
    * ``raises`` / ``raises_left``: bets and raises made this round (the big blind counting pre-flop) and
      those the cap still allows (None: uncapped).
    * ``legal_actions``: what this position may do now (empty when it is not its turn).
    """

    config: GameConfig
    position: int
    players: int
    hole: tuple[int, int]
    board: tuple[int, ...]
    round: int
    actions: tuple[ActionRecord, ...]
    stacks: tuple[int, ...] | None
    bets: tuple[int, ...]
    committed: tuple[int, ...]
    folded: tuple[bool, ...]
    pot: int
    to_call: int
    legal_actions: tuple[int, ...]
    raises: int
    raises_left: int | None
    seats: tuple[int, ...]

    @property
    def is_button(self) -> bool:
        """Whether this position holds the button."""
        return self.position == self.players - 1

    @property
    def active_players(self) -> int:
        """Players who have not folded."""
        return self.folded.count(False)

    @property
    def betting(self) -> str:
        """The betting in ACPC form ("cr/cc/rc/c")."""
        return betting_string(self.actions, self.round)

    @property
    def bet_size(self) -> int:
        """The fixed bet and raise size of this round, in chips."""
        return self.config.bet_size(self.round)

    @property
    def can_raise(self) -> bool:
        """Whether a bet or raise is legal now."""
        return RAISE in self.legal_actions


class HandEnd(NamedTuple):
    """The end of a hand for one position: every position's net chips, the cards shown down
    (position -> hole cards, only those who showed), the board dealt and every action."""

    position: int
    nets: tuple[int, ...]
    shown: dict[int, tuple[int, int]]
    board: tuple[int, ...]
    actions: tuple[ActionRecord, ...]


def seat_view(
    state: HandState,
    position: int,
    seats: tuple[int, ...] | None = None,
    config: GameConfig | None = None,
) -> SeatView:
    """The view of `position` on `state`; `seats` gives each position's lasting seat number (default: the
    positions), `config` the copy of the game handed out (default: a new copy)."""
    n = state.n
    holes = state.holes
    game = state.config
    stack = state.stacks[position]
    to_call = state.max_bet - state.bets[position]
    if to_call > stack:
        to_call = stack
    if state.folded(position):
        to_call = 0
    made = state.bets_made
    left = game.max_bets - made
    if left > 1 << 29 or (game.no_cap_heads_up and state.in_hand == 2):
        left = None
    committed = state.committed
    return _new(
        SeatView,
        (
            copy.copy(game) if config is None else config,
            position,
            n,
            (holes[2 * position], holes[2 * position + 1]),
            tuple(state.runout[: BOARD_SIZE[state.round]]),
            state.round,
            state.actions,
            None if game.stack is None else tuple(state.stacks),
            tuple(state.bets),
            tuple(committed),
            state.folds(),
            sum(committed),
            to_call,
            state.legal_actions() if position == state.actor else (),
            made,
            left,
            tuple(range(n)) if seats is None else seats,
        ),
    )


def hand_start(
    state: HandState,
    position: int,
    seats: tuple[int, ...] | None = None,
    config: GameConfig | None = None,
    hand: int = 0,
) -> HandStart:
    """What `position` learns when the hand starts (before any action): its cards and the table."""
    n = state.n
    stacks = [s + c for s, c in zip(state.stacks, state.committed, strict=True)]  # before the blinds
    return HandStart(
        position,
        n,
        (state.holes[2 * position], state.holes[2 * position + 1]),
        None if state.config.stack is None else tuple(stacks),
        tuple(range(n)) if seats is None else seats,
        copy.copy(state.config) if config is None else config,
        hand,
    )


def hand_end(state: HandState, position: int) -> HandEnd:
    """What `position` learns when the hand is over: nets and the cards shown down."""
    holes = state.holes
    shown = {}
    if state.showdown:
        shown = {p: (holes[2 * p], holes[2 * p + 1]) for p, s in enumerate(state.shown()) if s}
    return HandEnd(position, tuple(state.nets), shown, tuple(state.board), state.actions)


def state_from_view(view: SeatView, holes, runout) -> HandState:
    """An engine state that reaches `view`, with the unseen cards chosen by the caller.

    ``holes`` are 2 * players card codes holding ``view.hole`` at the view's position; ``runout`` the five
    board cards in dealing order, starting with ``view.board``. Starting stacks are the view's stacks plus
    the chips committed (the config's starting stack in the unlimited ring game). Raises `InvalidCards`
    when the cards contradict the view.
    """
    p, n = view.position, view.players
    holes, runout = list(holes), list(runout)
    if len(holes) != 2 * n or tuple(holes[2 * p : 2 * p + 2]) != tuple(view.hole):
        raise InvalidCards(
            f"state_from_view needs {2 * n} hole cards with the view's own {view.hole} at position {p}"
        )
    if tuple(runout[: len(view.board)]) != tuple(view.board):
        raise InvalidCards(f"the runout must start with the view's board {view.board}, got {runout}")
    if len(set(holes + runout)) != len(holes) + len(runout):
        raise InvalidCards("state_from_view: a card is repeated among the hole cards and the runout")
    stacks = None
    if view.stacks is not None:
        stacks = [s + c for s, c in zip(view.stacks, view.committed, strict=True)]
    state = HandState(view.config, holes, runout, stacks, n)
    for record in view.actions:
        state.act(record.action)
    return state
