"""The simplest players: random (seeded), always call, always raise. Baselines for every experiment."""

from __future__ import annotations

from pokerlab.agents.base import Agent
from pokerlab.engine import CALL, FOLD, RAISE, SeatView


class RandomAgent(Agent):
    """Picks uniformly among the legal actions, except that it never folds when checking is free."""

    name = "random"

    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if view.to_call == 0:
            legal = tuple(a for a in legal if a != FOLD)
        return legal[int(self.rng.integers(len(legal)))]


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
