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

from pokerlab.arena.dealing import Dealer
from pokerlab.arena.players import AgentSpec, LocalPlayer
from pokerlab.arena.seating import ring_positions
from pokerlab.arena.table import Table
from pokerlab.engine import GameConfig, HandState, seat_view
from pokerlab.envs.encoding import OBSERVATION_SIZE, action_mask, observation, view_dict
from pokerlab.envs.holdem import ACTION_NAMES
from pokerlab.errors import ConfigError, IllegalAction


class HoldemAEC(AECEnv):
    """Fixed-limit hold'em for `players` learning seats (2 to 10): each agent observes a dict with
    ``observation`` (the vector of `pokerlab.envs.encoding`, its own view only) and ``action_mask`` (int8
    FOLD, CALL, RAISE; all 0 when not its turn); actions Discrete(3); rewards each seat's net in small bets
    at the hand's end (0 before), summing to zero."""

    metadata = {"render_modes": [], "name": "pokerlab_holdem_v0", "is_parallelizable": False}

    def __init__(self, players: int = 2, config: GameConfig | None = None, seed: int | None = None) -> None:
        super().__init__()
        if not isinstance(players, int) or not 2 <= players <= 10:
            raise ConfigError(f"a table takes 2 to 10 players, got {players!r}")
        self.config = config if config is not None else GameConfig()
        self.players = players
        self.possible_agents = [f"seat_{j}" for j in range(players)]
        self.render_mode = None
        spec = AgentSpec("call")  # placeholders: every seat is a person's seat, never asked nor told
        self.table = Table(
            [LocalPlayer(spec) for _ in range(players)],
            self.config,
            list(self.possible_agents),
            tolerate_faults=False,
        )
        box = spaces.Box(-1.0, np.inf, (OBSERVATION_SIZE,), np.float32)
        mask = spaces.Box(0, 1, (3,), np.int8)
        self._observation_space = spaces.Dict({"observation": box, "action_mask": mask})
        self._action_space = spaces.Discrete(3)
        self._first_seed = seed
        self._dealer: Dealer | None = None
        self.hand = -1
        self.state: HandState | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def _view(self, agent: str):
        j = self.possible_agents.index(agent)
        return seat_view(self.state, self.seats.index(j), self.seats, self.table.seat_configs[j])

    def observe(self, agent: str) -> dict:
        view = self._view(agent)
        return {"observation": observation(view), "action_mask": action_mask(view)}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new hand: with a seed, the first deal of that seed; without, the next deal."""
        if seed is None and self._dealer is None:
            seed = self._first_seed
            if seed is None:
                seed = int(np.random.SeedSequence().entropy % 2**63)
        if seed is not None:
            self._dealer = Dealer(seed)
            self.hand = -1
            self.table.new_session([[seed, 8, j] for j in range(self.players)])
        self.hand += 1
        n = self.players
        cards = self._dealer.cards(self.hand, n)
        self.state = state = HandState(self.config, cards[: 2 * n], cards[2 * n :])
        self.seats = tuple(ring_positions(list(range(n)), self.hand % n, n))
        self.table.start_hand(state, self.seats, people=frozenset(range(n)))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.agent_selection = self._actor()
        self._update_infos()

    def _actor(self) -> str:
        return self.possible_agents[self.seats[self.state.actor]]

    def _update_infos(self) -> None:
        self.infos = {}
        for agent in self.agents:
            view = self._view(agent)
            self.infos[agent] = {"view": view_dict(view), "action_mask": action_mask(view), "hand": self.hand}

    def step(self, action) -> None:
        """Apply the action of `agent_selection` (None for an agent whose hand is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        legal = state.legal_actions()
        if action not in legal:
            raise IllegalAction(
                f"{agent}: action {action!r} is not legal here; legal: "
                + ", ".join(f"{a} ({ACTION_NAMES[a]})" for a in legal)
                + " (the observation's action_mask marks them)"
            )
        self._cumulative_rewards[agent] = 0.0
        self.table.apply(int(action))
        self._clear_rewards()
        if state.actor >= 0:
            self.agent_selection = self._actor()
        else:
            self.table.finish_hand()
            unit = self.config.small_bet
            nets = state.nets
            for j, name in enumerate(self.possible_agents):
                self.rewards[name] = nets[self.seats.index(j)] / unit
                self.terminations[name] = True
        self._update_infos()
        self._accumulate_rewards()

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None
