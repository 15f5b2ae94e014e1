"""The simplest players: random (seeded), always call, always raise, always fold. Baselines for every
experiment. All of them ignore their cards, so they answer the all-holdings policy query
(`pokerlab.agents.policy`) with one row for every holding."""

from __future__ import annotations

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.base import Agent
from pokerlab.agents.policy import same_for_all_holdings
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

    def action_probabilities(self, view: SeatView) -> tuple[float, float, float]:
        """(fold, call, raise) that `act` draws from on `view` (any hole); draws nothing."""
        legal = view.legal_actions
        if view.to_call == 0:
            return (0.0, 0.5, 0.5) if RAISE in legal else (0.0, 1.0, 0.0)
        share = 1.0 / len(legal)
        return tuple(share if a in legal else 0.0 for a in (FOLD, CALL, RAISE))

    def policy_for_holdings(self, view: SeatView) -> np.ndarray:
        """The all-holdings policy query: the same row for every holding."""
        return same_for_all_holdings(view, self.action_probabilities(view))


class CallAgent(Agent):
    """Always checks or calls (a "calling station")."""

    name = "call"

    def act(self, view: SeatView) -> int:
        return CALL

    def policy_for_holdings(self, view: SeatView) -> np.ndarray:
        """The all-holdings policy query: call with every holding."""
        return same_for_all_holdings(view, (0.0, 1.0, 0.0))


class RaiseAgent(Agent):
    """Bets or raises whenever allowed, else calls (a "maniac")."""

    name = "raise"

    def act(self, view: SeatView) -> int:
        return RAISE if RAISE in view.legal_actions else CALL

    def policy_for_holdings(self, view: SeatView) -> np.ndarray:
        """The all-holdings policy query: raise with every holding where allowed, else call."""
        return same_for_all_holdings(
            view, (0.0, 0.0, 1.0) if RAISE in view.legal_actions else (0.0, 1.0, 0.0)
        )


class FoldAgent(Agent):
    """Folds whenever it owes chips, else checks (always-fold).

    Johanson et al. 2011's always-fold, which concedes 750 mbb/g heads-up."""

    name = "fold"

    def act(self, view: SeatView) -> int:
        return FOLD if view.to_call > 0 else CALL

    def policy_for_holdings(self, view: SeatView) -> np.ndarray:
        """The all-holdings policy query: fold with every holding where it owes chips, else check."""
        return same_for_all_holdings(view, (1.0, 0.0, 0.0) if view.to_call > 0 else (0.0, 1.0, 0.0))
