"""The simplest players: random (seeded), always call, always raise, always fold, a fixed mix. Baselines
for every experiment. All of them ignore their cards, so they answer the all-holdings policy query
(`pokerlab.agents.policy`) with one row for every holding."""

from __future__ import annotations

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.base import Agent
from pokerlab.agents.policy import same_for_all_holdings
from pokerlab.engine import SeatView
from pokerlab.errors import ConfigError

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


class MixAgent(Agent):
    """Folds, calls and raises with fixed probabilities whatever its cards ("mix:call=0.5,raise=0.5").

    In a lineup, where commas separate players, write the mix with slashes: "mix:call=0.5/raise=0.5".
    A fold when checking is free is played as a check and a raise at the cap as a call, as in Johanson et
    al. 2011's fixed strategies (`pokerlab exploit --exact` computes their exact best response).
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        values = dict.fromkeys(("fold", "call", "raise"), 0.0)
        for part in text.replace("/", ",").split(","):
            key, eq, number = part.strip().partition("=")
            try:
                if key not in values:
                    raise ValueError(key)
                values[key] = float(number) if eq else 1.0
            except ValueError:
                raise ConfigError(
                    f"a mix is like call=0.5,raise=0.5 (fold, call, raise); got {text!r}"
                ) from None
        if any(not 0 <= v <= 1 for v in values.values()) or abs(sum(values.values()) - 1) > 1e-9:
            raise ConfigError(f"a mix's probabilities lie in [0, 1] and add up to 1; got {text!r}")
        self.name = f"mix:{text}"
        self.triple = (values["fold"], values["call"], values["raise"])

    def action_probabilities(self, view: SeatView) -> tuple[float, float, float]:
        """(fold, call, raise) that `act` draws from on `view` (any hole); draws nothing."""
        fold, call, raise_ = self.triple
        if view.to_call == 0:
            call, fold = call + fold, 0.0
        if RAISE not in view.legal_actions:
            call, raise_ = call + raise_, 0.0
        return fold, call, raise_

    def act(self, view: SeatView) -> int:
        fold, call, _ = self.action_probabilities(view)
        u = self.rng.random()
        return FOLD if u < fold else CALL if u < fold + call else RAISE

    def policy_for_holdings(self, view: SeatView) -> np.ndarray:
        """The all-holdings policy query: the same row for every holding."""
        return same_for_all_holdings(view, self.action_probabilities(view))
