"""`HoldemEnv`: one learning seat against pokerlab agents, a Gymnasium environment (docs/envs.md).

Every hand is played by the arena's `Table` (the one hand loop): the learning seat is a person's seat there
(``people`` in `Table.start_hand`), never asked nor told; the environment applies its action with
`Table.apply`, and the opponents (trusted agents in this process, made from registry names) are asked by
`Table.play_on`, up to the learning seat's next turn. One hand is one episode.

Seeding: ``reset(seed=s)`` starts a session (fresh opponents seeded from s, the deals of seed s from its
first); ``reset()`` without a seed plays the session's next hand (the button moves one seat, the opponents
keep their memory). The same seed gives the same deals and the same choices of the opponents.
"""

from __future__ import annotations

from collections.abc import Sequence

import gymnasium as gym
import numpy as np

from pokerlab.engine import GameConfig
from pokerlab.envs.encoding import OBSERVATION_SIZE, Encoder
from pokerlab.envs.learners import LearnerTable, Seated
from pokerlab.errors import ConfigError, IllegalAction


class HoldemEnv(Seated, gym.Env):
    """Fixed-limit hold'em for one learning seat (lasting seat `seat`) against `opponents` (registry names,
    in the other seats in order): Discrete(3) actions (FOLD, CALL, RAISE), observations of
    `pokerlab.envs.encoding`, the reward the seat's net in small bets at the hand's end (0 before).

    ``info`` holds ``view`` (the seat's view in plain form: a `PlainView`, built at its first read),
    ``action_mask`` (int8 FOLD, CALL, RAISE), ``hand`` (the session's hand number) and, at the end,
    ``nets`` (every lasting seat's net in small bets).
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
        names: list[str | None] = list(opponents)
        names.insert(seat, None)
        labels = [f"{name} (seat {j})" for j, name in enumerate(names)]
        labels[seat] = f"learner (seat {seat})"
        self.learning = LearnerTable(names, config, labels)
        self.action_space = gym.spaces.Discrete(3)
        self.observation_space = gym.spaces.Box(-1.0, np.inf, (OBSERVATION_SIZE,), np.float32)
        self._first_seed = seed
        self._encoder = Encoder()

    @property
    def position(self) -> int:
        """The learning seat's position in the hand."""
        return self.learning.positions[self.seat]

    def _observe(self) -> tuple[np.ndarray, dict]:
        """The learning seat's observation and info on the hand as it stands."""
        obs, mask, view = self.observed(self.seat, self._encoder)
        return obs, {"view": view, "action_mask": mask, "hand": self.learning.hand}

    # -- Gymnasium ------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new hand (see the module doc for what a seed starts)."""
        super().reset(seed=seed)
        if seed is None and self.learning.dealer is None:
            seed = self._first_seed
            if seed is None:
                seed = int(self.np_random.integers(2**63))
        if seed is not None:
            self.learning.new_session(seed, 7)
        skipped = self.learning.start()
        obs, info = self._observe()
        info["skipped"] = [nets[self.seat] for nets in skipped]
        return obs, info

    def step(self, action):
        """Play the learning seat's `action` (0 FOLD, 1 CALL, 2 RAISE), then the opponents' until its next
        turn or the hand's end; an illegal action raises `IllegalAction`."""
        learning = self.learning
        if learning.state is None or learning.actor != self.seat:
            raise IllegalAction("the hand is over (or was never dealt): call reset() before step()")
        learning.apply(action)
        obs, info = self._observe()
        if learning.state.actor >= 0:
            return obs, 0.0, False, False, info
        info["nets"] = nets = learning.finish()
        return obs, nets[self.seat], True, False, info
