"""`LearnerTable`: the arena's `Table` with some seats played by learners (the environment's callers) and
the others by pokerlab agents, as both environments use it.

The learners' seats are people's seats (``people`` in `Table.start_hand`): the table never asks them; an
environment applies their actions (`apply`), and the table asks the agents in the other seats (trusted
code in this process, made from registry names) until a learner must act or the hand is over. A hand in
which no learner acts (all fold to a learner's big blind) is played out and skipped by `start`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.arena.dealing import Dealer
from pokerlab.arena.players import AgentSpec, LocalPlayer
from pokerlab.arena.seating import ring_positions
from pokerlab.arena.table import Table
from pokerlab.engine import GameConfig, HandState, seat_view
from pokerlab.envs.encoding import Encoder, PlainView
from pokerlab.errors import ConfigError, IllegalAction

ACTION_NAMES = ("FOLD", "CALL", "RAISE")
#: The actions, by number.
ACTIONS = (FOLD, CALL, RAISE)


class LearnerTable:
    """A table of ``len(names)`` lasting seats (2 to 10): ``names[j]`` is a registry name for an agent's
    seat, or None for a learner's. ``state`` is the hand being played, ``seats[p]`` the lasting seat at
    position p, ``hand`` the session's hand number."""

    def __init__(self, names: Sequence[str | None], config: GameConfig, labels: Sequence[str]) -> None:
        if not 2 <= len(names) <= 10:
            raise ConfigError(f"a table takes 2 to 10 seats, got {len(names)}")
        self.learners = frozenset(j for j, name in enumerate(names) if name is None)
        if not self.learners:
            raise ConfigError("a table for learning needs at least one learner's seat")
        self.config = config
        self.players = len(names)
        # a learner's seat holds a placeholder the table never asks nor tells
        players = [LocalPlayer(AgentSpec.of("call" if name is None else name)) for name in names]
        self.table = Table(players, config, list(labels), tolerate_faults=False)
        self.dealer: Dealer | None = None
        self.hand = -1
        self.state: HandState | None = None
        self.seats: tuple[int, ...] = ()
        # each button's (lasting seat at each position, position of each lasting seat), made once
        n = self.players
        self._seatings = []
        for button in range(n):
            seats = tuple(ring_positions(list(range(n)), button, n))
            self._seatings.append((seats, tuple(seats.index(j) for j in range(n))))
        self.positions: tuple[int, ...] = ()

    def new_session(self, seed: int, stream: int) -> None:
        """Start the deals of `seed` from the first, the agents seeded from (seed, stream, seat)."""
        self.dealer = Dealer(seed)
        self.hand = -1
        self.table.new_session([[seed, stream, j] for j in range(self.players)])

    def start(self) -> list[list[float]]:
        """Deal hands until a learner is to act; every seat's nets (small bets) in the hands skipped."""
        n, skipped = self.players, []
        while True:
            self.hand += 1
            cards = self.dealer.cards(self.hand, n)
            self.state = HandState(self.config, cards[: 2 * n], cards[2 * n :])
            self.seats, self.positions = self._seatings[self.hand % n]
            self.table.start_hand(self.state, self.seats, people=self.learners)
            self.table.play_on()
            if self.state.actor >= 0:
                return skipped
            skipped.append(self.finish())

    @property
    def actor(self) -> int:
        """The lasting seat of the learner to act, or -1 when the hand is over."""
        return -1 if self.state.actor < 0 else self.seats[self.state.actor]

    def view(self, seat: int):
        """The view of lasting seat `seat` now."""
        return seat_view(self.state, self.positions[seat], self.seats, self.table.seat_configs[seat])

    def apply(self, action, who: str = "") -> None:
        """Play the acting learner's `action` (0 FOLD, 1 CALL, 2 RAISE), then the agents' until a learner
        must act or the hand is over; an illegal action raises `IllegalAction`."""
        table = self.table
        try:
            if action not in ACTIONS:
                raise IllegalAction(action)
            table.apply(int(action))  # the engine refuses an illegal action before it changes anything
        except IllegalAction:
            legal = self.state.legal_actions()
            raise IllegalAction(
                f"{who}action {action!r} is not legal here; legal: "
                + ", ".join(f"{a} ({ACTION_NAMES[a]})" for a in legal)
                + " (the action mask marks them)"
            ) from None
        if table.hand_observers:
            table.tell_observers()
        table.play_on()

    def finish(self) -> list[float]:
        """End the hand (the agents told); every lasting seat's net in small bets."""
        self.table.finish_hand()
        nets, unit = self.state.nets, self.config.small_bet
        return [nets[p] / unit for p in self.positions]


class Seated:
    """What an environment shows of its `LearnerTable` (``self.learning``): the hand, its seating, its
    number."""

    learning: LearnerTable

    @property
    def state(self) -> HandState | None:
        """The hand being played."""
        return self.learning.state

    @property
    def seats(self) -> tuple[int, ...]:
        """The lasting seat at each position of the hand."""
        return self.learning.seats

    @property
    def hand(self) -> int:
        """The session's hand number."""
        return self.learning.hand

    def observed(self, seat: int, encoder: Encoder) -> tuple[np.ndarray, np.ndarray, PlainView]:
        """(observation, action mask, plain view built at its first read) of lasting seat `seat` on the hand
        as it stands, through `encoder` (that seat's: it keeps the hand's vector from call to call)."""
        learning = self.learning
        state, config = learning.state, learning.table.seat_configs[seat]
        position = learning.positions[seat]
        obs, mask = encoder.observe(state, position, config)
        return obs, mask, PlainView(state, position, learning.seats, config)
