"""An opponent that changes style mid-session: docs/learning-spec-td.md §A.10 (b)'s test of adaptation speed.

``switch:FIRST/SECOND/HANDS`` (e.g. ``switch:tight-passive/loose-aggressive/5000``) plays as the agent FIRST
for its first HANDS hands of a session and as SECOND from then on. Both are made by name, seeded from the
session's generator, and told every hook; the hand count is the number of `begin_hand` calls, so a hand
that ends before this seat acts counts too.
"""

from __future__ import annotations

import numpy as np

from pokerlab.agents.base import Agent, overrides
from pokerlab.agents.registry import make_agent
from pokerlab.errors import ConfigError


class SwitchingAgent(Agent):
    """Plays as `first` for `after` hands of a session, then as `second`."""

    name = "switch"

    def __init__(self, first: Agent, second: Agent, after: int) -> None:
        super().__init__()
        if after < 1:
            raise ConfigError(f"a switching agent switches after at least 1 hand, got {after}")
        self.first, self.second, self.after = first, second, after
        self.hands = 0

    @property
    def current(self) -> Agent:
        """The agent playing this hand."""
        return self.first if self.hands <= self.after else self.second

    def seed(self, rng: np.random.Generator) -> None:
        super().seed(rng)
        self.hands = 0
        for agent in (self.first, self.second):
            agent.seed(np.random.default_rng(rng.integers(2**63)))

    def forget(self) -> None:
        self.hands = 0
        self.first.forget()
        self.second.forget()

    def freeze(self, frozen: bool = True) -> None:
        super().freeze(frozen)
        self.first.freeze(frozen)
        self.second.freeze(frozen)

    def begin_hand(self, start) -> None:
        self.hands += 1
        if overrides(self.current, "begin_hand"):
            self.current.begin_hand(start)

    def observe(self, record) -> None:
        if overrides(self.current, "observe"):
            self.current.observe(record)

    def act(self, view):
        return self.current.act(view)

    def end_hand(self, end) -> None:
        if overrides(self.current, "end_hand"):
            self.current.end_hand(end)


def switching_agent(argument: str) -> SwitchingAgent:
    """The agent "switch:FIRST/SECOND/HANDS" names; `ConfigError` says what is wrong with the argument."""
    parts = argument.split("/")
    if len(parts) != 3 or not parts[2].isdigit():
        raise ConfigError(
            f"switch:{argument}: write switch:FIRST/SECOND/HANDS, "
            "e.g. switch:tight-passive/loose-aggressive/5000"
        )
    return SwitchingAgent(make_agent(parts[0]), make_agent(parts[1]), int(parts[2]))
