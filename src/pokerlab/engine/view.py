"""What one position may know of a hand: the views the engine hands to agents.

* `HandStart`: the position's own seat, hole cards and who sits where, when a hand begins;
* `SeatView`: everything public plus the own hole cards, when the position must act;
* `HandEnd`: the nets and the cards shown down, when the hand is over.

All three are named tuples of ints, tuples and `ActionRecord`s, so they are cheap to build and read-only:
nothing in them refers to the `HandState`, and their ``config`` is a copy the engine does not use, so an
agent that tampers with it changes nothing but its own copy. Other positions' hole cards appear only in a
`HandEnd`, and only for the positions that showed them down.

`BettingFacts` and `BettingContext` are the facts about the betting that players read (bets to call, raises
left, pot, opponents still to act...): computed here, once, from the records, for every player.

`state_from_view` goes the other way: an engine state consistent with a view, the unseen cards filled in by
the caller (simulation search such as Loki-2's, and local best response, need it).
"""

from __future__ import annotations

import copy
from typing import NamedTuple

from pokerlab.engine.config import GameConfig
from pokerlab.engine.state import (
    CALL,
    FOLD,
    FOLDED,
    RAISE,
    ActionRecord,
    HandState,
    betting_string,
    raises_left,
)
from pokerlab.errors import InvalidCards

_new = tuple.__new__


class HandStart(NamedTuple):
    """The start of a hand for one position (money in chips; ``stacks`` None in the unlimited ring game).

    ``seats[p]`` names the player at position p by its lasting seat number, the same across the hands of a
    session, so that opponents can be modelled while positions rotate. ``hand`` counts the session's
    hands from 0; ``blinds`` are the chips each position posted as a blind.
    """

    position: int
    players: int
    hole: tuple[int, int]
    stacks: tuple[int, ...] | None
    seats: tuple[int, ...]
    config: GameConfig
    hand: int
    blinds: tuple[int, ...] = ()


class SeatView(NamedTuple):
    """One position's view of a hand when it must act (money in chips; position n-1 is the button).

    * ``actions``: every `ActionRecord` of the hand so far (round, position, action, chips put in, chips
      to call before acting, raises so far, raises left).
    * ``pot``: chips in the pot, this round's bets included; ``to_call``: chips this position owes.
    * ``raises`` / ``raises_left``: bets and raises made this round (the big blind counting pre-flop) and
      those the cap still allows (None: uncapped).
    * ``legal_actions``: what this position may do now (empty when it is not its turn).
    * ``blinds``: chips each position posted as a blind; ``starting_stacks``: chips each position held
      before the blinds (None in the unlimited ring game).

    ``bets`` (this round), ``committed`` (the whole hand, blinds included), ``stacks`` (chips behind) and
    ``folded`` are computed from the records when read, so a view costs the same for every table size.
    """

    config: GameConfig
    position: int
    players: int
    hole: tuple[int, int]
    board: tuple[int, ...]
    round: int
    actions: tuple[ActionRecord, ...]
    pot: int
    to_call: int
    legal_actions: tuple[int, ...]
    raises: int
    raises_left: int | None
    seats: tuple[int, ...]
    blinds: tuple[int, ...]
    starting_stacks: tuple[int, ...] | None

    @property
    def committed(self) -> tuple[int, ...]:
        """Chips each position has put in during the whole hand, blinds included (their sum is the pot)."""
        chips = list(self.blinds)
        for record in self.actions:
            chips[record.position] += record.amount
        return tuple(chips)

    @property
    def bets(self) -> tuple[int, ...]:
        """Chips each position has put in during this round (the blinds count pre-flop)."""
        current = self.round
        chips = list(self.blinds) if current == 0 else [0] * self.players
        for record in self.actions:
            if record.round == current:
                chips[record.position] += record.amount
        return tuple(chips)

    @property
    def stacks(self) -> tuple[int, ...] | None:
        """Chips each position has behind (None in the unlimited ring game)."""
        if self.starting_stacks is None:
            return None
        return tuple(s - c for s, c in zip(self.starting_stacks, self.committed, strict=True))

    @property
    def folded(self) -> tuple[bool, ...]:
        """Whether each position has folded."""
        gone = {r.position for r in self.actions if r.action == FOLD}
        return tuple(p in gone for p in range(self.players))

    @property
    def is_button(self) -> bool:
        """Whether this position holds the button."""
        return self.position == self.players - 1

    @property
    def active_players(self) -> int:
        """Players who have not folded."""
        return self.players - sum(1 for r in self.actions if r.action == FOLD)

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

    def betting_facts(self) -> BettingFacts:
        """The hand's betting so far (`BettingFacts`: chips each position put in, folds ...), taken from the
        records (a new object on each call)."""
        facts = BettingFacts(self.players, self.blinds, tuple(self.config.bet_size(r) for r in range(4)))
        for record in self.actions:
            facts.take(record)
        return facts

    @property
    def context(self) -> BettingContext:
        """The betting facts this position faces (`BettingContext`), taken from the records on each read."""
        return self.betting_facts().context(self)


class BettingContext(NamedTuple):
    """The facts about the betting one position faces at one decision (money in chips), the inputs of
    Loki's betting strategies (Billings et al. 1998 §3.3; Papp 1998 §6.2; Billings et al. 1999 §3).

    * ``bet_size``: the round's fixed bet; ``to_call``: chips owed; ``bets_to_call``: whole bets owed, a part
      bet (the small blind's half bet, an all-in for less) counting as one;
    * ``bets_made``: bets and raises made this round (the big blind counting pre-flop); ``raises_left``: those
      the cap still allows (None: uncapped); ``can_raise``: whether a bet or raise is open to the position
      (at a view: it is among the legal actions; at a record of a past decision: the cap allowed one);
    * ``pot``: chips in the pot before the decision, blinds included (at a view: the view's);
    * ``opponents_active``: opponents who have not folded; ``opponents_to_act``: the active opponents who
      have not acted yet in this round (a raise does not count again those who acted before it);
    * ``called_bet``: the position has called a bet (a positive amount) earlier in this round.
    """

    round: int
    bet_size: int
    to_call: int
    bets_to_call: int
    bets_made: int
    raises_left: int | None
    can_raise: bool
    pot: int
    opponents_active: int
    opponents_to_act: int
    called_bet: bool


class BettingFacts:
    """The betting of one hand taken in one `ActionRecord` at a time: the pot, the chips each position put in
    (``committed``: the whole hand; ``bets``: this round, the blinds counting pre-flop), who folded, and who
    acted and who called a bet in the current round; `context` gives a decision's `BettingContext`. The one
    place these facts are computed: a view's `SeatView.context`, Loki's hand followers and the narrator
    read them.

    ``blinds`` are the chips each position posted before the first record; ``bet_sizes`` the bet of each
    round.
    """

    __slots__ = ("players", "bet_sizes", "round", "committed", "round_start", "folded", "acted", "called")

    def __init__(self, players: int, blinds: tuple[int, ...], bet_sizes: tuple[int, ...]) -> None:
        self.players, self.bet_sizes = players, bet_sizes
        self.committed = list(blinds)
        self.round_start = [0] * players  # chips in when the round began (the blinds count pre-flop)
        self.folded = [False] * players
        self.round = 0
        self.start_round(0)

    def start_round(self, round_index: int) -> None:
        """Open a betting round: nobody has acted or called in it yet, nor bet in it after the pre-flop."""
        if round_index != self.round:
            self.round = round_index
            self.round_start = list(self.committed)
        self.acted = [False] * self.players
        self.called = [False] * self.players

    def take(self, record: ActionRecord) -> None:
        """Take in the next record (its round is opened first when it is a new one); a handful of list
        updates, as Loki's followers take in every record of every hand."""
        round_index, p, action, amount, to_call = record[:5]
        if round_index != self.round:
            self.start_round(round_index)
        self.committed[p] += amount
        if action == FOLD:
            self.folded[p] = True
        elif action == CALL and to_call > 0:
            self.called[p] = True
        self.acted[p] = True

    @property
    def pot(self) -> int:
        """Chips in the pot, blinds included."""
        return sum(self.committed)

    @property
    def bets(self) -> list[int]:
        """Chips each position has put in during this round (the blinds count pre-flop)."""
        return [c - s for c, s in zip(self.committed, self.round_start, strict=True)]

    def opponents_active(self, position: int) -> int:
        """Opponents of `position` who have not folded."""
        folded = self.folded
        return sum(1 for q in range(self.players) if q != position and not folded[q])

    def opponents_to_act(self, position: int) -> int:
        """Active opponents of `position` who have not acted yet in this round."""
        folded, acted = self.folded, self.acted
        return sum(1 for q in range(self.players) if q != position and not folded[q] and not acted[q])

    def context(self, view: SeatView) -> BettingContext:
        """The context of `view`'s position now (every record of the view taken in)."""
        if view.round != self.round:
            self.start_round(view.round)
        can_raise = RAISE in view.legal_actions
        return self._context(
            view.position, view.round, view.to_call, view.raises, view.raises_left, can_raise, view.pot
        )

    def context_of(self, record: ActionRecord) -> BettingContext:
        """The context of the decision `record` shows (taken in up to, not including, `record`)."""
        if record.round != self.round:
            self.start_round(record.round)
        left = record.raises_left
        return self._context(
            record.position,
            record.round,
            record.to_call,
            record.raises,
            left,
            left is None or left > 0,
            self.pot,
        )

    def _context(self, p, round_index, to_call, raises, raises_left, can_raise, pot) -> BettingContext:
        bet = self.bet_sizes[round_index]
        folded, acted = self.folded, self.acted
        active = to_act = 0  # `opponents_active` and `opponents_to_act` in one pass
        for q in range(self.players):
            if q != p and not folded[q]:
                active += 1
                if not acted[q]:
                    to_act += 1
        bets_to_call = -(-to_call // bet)
        return BettingContext(
            round_index, bet, to_call, bets_to_call, raises, raises_left, can_raise, pot, active, to_act,
            self.called[p],
        )  # fmt: skip


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
    holes = state.holes
    game = state.config
    owed = state.max_bet - state.bets[position]
    stack = state.stacks[position]
    to_call = 0 if state.status[position] == FOLDED else owed if owed < stack else stack
    made = state.bets_made
    left = raises_left(state, position)
    return _new(
        SeatView,
        (
            copy.copy(game) if config is None else config,
            position,
            state.n,
            (holes[2 * position], holes[2 * position + 1]),
            state.board_seen,
            state.round,
            state.actions,
            state.pot,
            to_call,
            state.legal_actions() if position == state.actor else (),
            made,
            left,
            tuple(range(state.n)) if seats is None else seats,
            state.blinds,
            None if game.stack is None else state.starting_stacks,
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
    return HandStart(
        position,
        n,
        (state.holes[2 * position], state.holes[2 * position + 1]),
        None if state.config.stack is None else state.starting_stacks,
        tuple(range(n)) if seats is None else seats,
        copy.copy(state.config) if config is None else config,
        hand,
        state.blinds,
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
    board cards in dealing order, starting with ``view.board``. Raises `InvalidCards` when the cards
    contradict the view.
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
    stacks = None if view.starting_stacks is None else list(view.starting_stacks)
    state = HandState(view.config, holes, runout, stacks, n)
    for record in view.actions:
        state.act(record.action)
    return state
