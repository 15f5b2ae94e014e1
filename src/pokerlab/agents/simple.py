"""The simplest players: random (seeded), always call, always raise. Baselines for every experiment."""

from __future__ import annotations

import numpy as np

from pokerlab.actions import CALL, RAISE
from pokerlab.agents.base import Agent
from pokerlab.engine import SeatView

_BATCH = 512


class RandomAgent(Agent):
    """Picks uniformly among the legal actions, except that it never folds when checking is free.

    Uniforms are drawn from the agent's generator in batches of 512 (one generator call per batch, not per
    decision), so a seeded agent makes the same choices in any run.
    """

    name = "random"

    def __init__(self) -> None:
        super().__init__()
        self.seed(self.rng)

    def seed(self, rng: np.random.Generator) -> None:
        super().seed(rng)
        self._uniforms: list[float] = []

    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if not self._uniforms:
            self._uniforms = self.rng.random(_BATCH).tolist()[::-1]
        u = self._uniforms.pop()
        if view.to_call == 0:  # check, or bet half the time where betting is legal (never fold)
            return RAISE if RAISE in legal and u >= 0.5 else CALL
        return legal[int(u * len(legal))]


class CallAgent(Agent):
    """Always checks or calls (a "calling station")."""

    name = "call"

    def act(self, view: SeatView) -> int:
        return CALL


class RaiseAgent(Agent):
    """Bets or raises whenever allowed, else calls (a "maniac")."""

    name = "raise"

    def act(self, view: SeatView) -> int:
        return RAISE if RAISE in view.legal_actions else CALL
