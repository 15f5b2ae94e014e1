"""`HoldemEnv`: one learning seat against pokerlab agents, a Gymnasium environment (docs/envs.md).

Every hand is played by the arena's `Table` (the one hand loop): the learning seat is a person's seat there
(``people`` in `Table.start_hand`), never asked nor told; the environment applies its action with
`Table.apply`, and the opponents (trusted agents in this process, made from registry names) are asked by
`Table.step`. One hand is one episode.

Seeding: ``reset(seed=s)`` starts a session (fresh opponents seeded from s, the deals of seed s from its
first); ``reset()`` without a seed plays the session's next hand (the button moves one seat, the opponents
keep their memory). The same seed gives the same deals and the same choices of the opponents.
"""

from __future__ import annotations

from collections.abc import Sequence

import gymnasium as gym
import numpy as np

from pokerlab.arena.dealing import Dealer
from pokerlab.arena.players import AgentSpec, LocalPlayer
from pokerlab.arena.seating import ring_positions
from pokerlab.arena.table import Table
from pokerlab.engine import GameConfig, HandState, seat_view
from pokerlab.envs.encoding import OBSERVATION_SIZE, encode
from pokerlab.errors import ConfigError, IllegalAction

ACTION_NAMES = ("FOLD", "CALL", "RAISE")


class HoldemEnv(gym.Env):
    """Fixed-limit hold'em for one learning seat (lasting seat `seat`) against `opponents` (registry names,
    in the other seats in order): Discrete(3) actions (FOLD, CALL, RAISE), observations of
    `pokerlab.envs.encoding`, the reward the seat's net in small bets at the hand's end (0 before).

    ``info`` holds ``view`` (the seat's view as a dict), ``action_mask`` (int8 FOLD, CALL, RAISE),
    ``hand`` (the session's hand number) and, at the end, ``nets`` (every lasting seat's net in small bets).
    A hand in which the learning seat never acts (all fold to its big blind) is played out and skipped:
    ``info["skipped"]`` lists the seat's nets in small bets in those hands.
    """

    metadata = {"render_modes": []}

    def __init__(
        self,
        opponents: Sequence[str] = ("loki1",),
        seat: int = 0,
        config: GameConfig | None = None,
        seed: int | None = None,
    ) -> None:
        if isinstance(opponents, str):
            opponents = [opponents]
        n = len(opponents) + 1
        if not 2 <= n <= 10:
            raise ConfigError(f"a table takes 1 to 9 opponents, got {len(opponents)}")
        if not 0 <= seat < n:
            raise ConfigError(f"seat {seat} is not one of the table's seats 0..{n - 1}")
        self.config = config = config if config is not None else GameConfig()
        self.seat = seat
        self.players = n
        self.opponents = list(opponents)
        names = list(opponents)
        names.insert(seat, "call")  # the learning seat's placeholder: a person's seat, never asked nor told
        players = [LocalPlayer(AgentSpec.of(name)) for name in names]
        labels = [f"{name} (seat {j})" for j, name in enumerate(names)]
        labels[seat] = f"learner (seat {seat})"
        self.table = Table(players, config, labels, tolerate_faults=False)
        self.action_space = gym.spaces.Discrete(3)
        self.observation_space = gym.spaces.Box(-1.0, np.inf, (OBSERVATION_SIZE,), np.float32)
        self._first_seed = seed
        self._root: int | None = None
        self._dealer: Dealer | None = None
        self.hand = -1
        self.state: HandState | None = None

    # -- the hand loop, through the arena's table ------------------------------------------------------
    def _start(self) -> list[float]:
        """Deal hands until the learning seat is to act; the seat's nets in the hands skipped."""
        table, n, seat = self.table, self.players, self.seat
        skipped = []
        while True:
            self.hand += 1
            cards = self._dealer.cards(self.hand, n)
            state = HandState(self.config, cards[: 2 * n], cards[2 * n :])
            seats = tuple(ring_positions(list(range(n)), self.hand % n, n))
            table.start_hand(state, seats, people=frozenset({seat}))
            self.state, self.seats, self.position = state, seats, seats.index(seat)
            self._advance()
            if state.actor >= 0:
                return skipped
            table.finish_hand()
            skipped.append(state.nets[self.position] / self.config.small_bet)

    def _advance(self) -> None:
        """Let the opponents act until the learning seat must, or the hand is over."""
        state, table, position = self.state, self.table, self.position
        while state.actor >= 0 and state.actor != position:
            table.step()

    def _view(self):
        return seat_view(self.state, self.position, self.seats, self.table.seat_configs[self.seat])

    def _observe(self) -> tuple[np.ndarray, dict]:
        """The learning seat's observation and info on the hand as it stands."""
        obs, mask, plain = encode(self._view())
        return obs, {"view": plain, "action_mask": mask, "hand": self.hand}

    # -- Gymnasium ------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new hand (see the module doc for what a seed starts)."""
        super().reset(seed=seed)
        if seed is None and self._dealer is None:
            seed = self._first_seed
            if seed is None:
                seed = int(self.np_random.integers(2**63))
        if seed is not None:
            self._root = seed
            self._dealer = Dealer(seed)
            self.hand = -1
            self.table.new_session([[seed, 7, j] for j in range(self.players)])
        skipped = self._start()
        obs, info = self._observe()
        info["skipped"] = skipped
        return obs, info

    def step(self, action):
        """Play the learning seat's `action` (0 FOLD, 1 CALL, 2 RAISE), then the opponents' until its next
        turn or the hand's end; an illegal action raises `IllegalAction`."""
        state = self.state
        if state is None or state.actor != self.position:
            raise IllegalAction("the hand is over (or was never dealt): call reset() before step()")
        legal = state.legal_actions()
        if action not in legal:
            raise IllegalAction(
                f"action {action!r} is not legal here; legal: "
                + ", ".join(f"{a} ({ACTION_NAMES[a]})" for a in legal)
                + " (info['action_mask'] marks them)"
            )
        table = self.table
        table.apply(int(action))
        if table.hand_observers:
            table.tell_observers()
        self._advance()
        obs, info = self._observe()
        if state.actor >= 0:
            return obs, 0.0, False, False, info
        table.finish_hand()
        unit = self.config.small_bet
        nets = state.nets
        info["nets"] = [nets[self.seats.index(j)] / unit for j in range(self.players)]
        return obs, nets[self.position] / unit, True, False, info
