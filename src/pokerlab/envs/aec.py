"""`HoldemAEC`: every seat a learner, a PettingZoo AEC environment (docs/envs.md).

Each hand is played by the arena's `Table` with every seat a person's seat (``people`` in
`Table.start_hand`): the table asks nobody, and `step` applies the action of the agent to act with
`Table.apply`. One hand is one episode; agents are "seat_0" .. "seat_{n-1}" (lasting seats; positions rotate
from hand to hand). ``reset(seed=s)`` starts the deals of seed s from the first; ``reset()`` deals the next.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

try:
    from pettingzoo import AECEnv
except ImportError:  # pragma: no cover - the extra is installed for the tests
    raise ImportError("pokerlab.envs.HoldemAEC needs PettingZoo: pip install 'pokerlab[envs]'") from None

from pokerlab.engine import GameConfig
from pokerlab.envs.encoding import OBSERVATION_SIZE, Encoder
from pokerlab.envs.learners import LearnerTable, Seated
from pokerlab.errors import ConfigError


class HoldemAEC(Seated, AECEnv):
    """Fixed-limit hold'em for `players` seats (2 to 10), each a learning agent ("seat_j") unless
    `opponents` gives it to a pokerlab agent (lasting seat -> registry name, trusted code in this process,
    asked by the table). Each agent observes a dict with ``observation`` (the vector of
    `pokerlab.envs.encoding`, its own view only) and ``action_mask`` (int8 FOLD, CALL, RAISE; all 0 when
    not its turn); actions Discrete(3); rewards each seat's net in small bets at the hand's end (0 before),
    summing to zero when every seat learns. A hand in which no learner acts is played out and skipped
    (``infos[agent]["skipped"]`` at reset: the agent's nets in those hands)."""

    metadata = {"render_modes": [], "name": "pokerlab_holdem_v0", "is_parallelizable": False}

    def __init__(
        self,
        players: int = 2,
        config: GameConfig | None = None,
        seed: int | None = None,
        opponents: dict[int, str] | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(players, int) or not 2 <= players <= 10:
            raise ConfigError(f"a table takes 2 to 10 players, got {players!r}")
        opponents = dict(opponents or {})
        for j, name in opponents.items():
            if j not in range(players) or not isinstance(name, str):
                raise ConfigError(
                    f"opponents maps a seat 0..{players - 1} to an agent's name, got {j!r}: {name!r}"
                )
        self.config = config if config is not None else GameConfig()
        self.players = players
        names = [opponents.get(j) for j in range(players)]
        self.possible_agents = [f"seat_{j}" for j in range(players) if names[j] is None]
        self._seat_of = {agent: int(agent[5:]) for agent in self.possible_agents}
        self._encoders = {agent: Encoder() for agent in self.possible_agents}
        self.render_mode = None
        labels = [f"seat_{j}" if name is None else f"{name} (seat {j})" for j, name in enumerate(names)]
        self.learning = LearnerTable(names, self.config, labels)
        box = spaces.Box(-1.0, np.inf, (OBSERVATION_SIZE,), np.float32)
        mask = spaces.Box(0, 1, (3,), np.int8)
        self._observation_space = spaces.Dict({"observation": box, "action_mask": mask})
        self._action_space = spaces.Discrete(3)
        self._first_seed = seed

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def observe(self, agent: str) -> dict:
        obs, mask, _ = self.observed(self._seat_of[agent], self._encoders[agent])
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new hand: with a seed, the first deal of that seed; without, the next deal."""
        if seed is None and self.learning.dealer is None:
            seed = self._first_seed
            if seed is None:
                seed = int(np.random.SeedSequence().entropy % 2**63)
        if seed is not None:
            self.learning.new_session(seed, 8)
        skipped = self.learning.start()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.agent_selection = f"seat_{self.learning.actor}"
        self._update_infos()
        for agent, seat in self._seat_of.items():
            self.infos[agent]["skipped"] = [nets[seat] for nets in skipped]

    def _update_infos(self) -> None:
        self.infos = {}
        for agent in self.agents:
            _, mask, view = self.observed(self._seat_of[agent], self._encoders[agent])
            self.infos[agent] = {"view": view, "action_mask": mask, "hand": self.hand}

    def step(self, action) -> None:
        """Apply the action of `agent_selection` (None for an agent whose hand is over), then the pokerlab
        agents' until a learner must act."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.learning.apply(action, f"{agent}: ")
        self._clear_rewards()
        if self.learning.actor >= 0:
            self.agent_selection = f"seat_{self.learning.actor}"
        else:
            nets = self.learning.finish()
            for name, seat in self._seat_of.items():
                self.rewards[name] = nets[seat]
                self.terminations[name] = True
        self._update_infos()
        self._accumulate_rewards()

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


def holdem_parallel(
    players: int = 2,
    config: GameConfig | None = None,
    seed: int | None = None,
    opponents: dict[int, str] | None = None,
):
    """`HoldemAEC` in PettingZoo's parallel API (PettingZoo's own turn-based conversion): each step takes an
    action from every live agent and plays the one whose turn it is (the others' are not used, and their
    action masks are all 0)."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    return turn_based_aec_to_parallel(HoldemAEC(players, config, seed, opponents))
