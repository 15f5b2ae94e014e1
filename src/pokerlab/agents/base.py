"""The Agent protocol: how any player, program or person, takes part in a hand (GUIDE.md, "agents").

An agent sees the game only through a `SeatView` of its own position and answers with an action (0 fold,
1 check/call, 2 bet/raise). After every hand it is told the result, with the cards shown down; between
matches (and at each block of a match, see `pokerlab.arena`) it is reset with its own seeded
`numpy.random.Generator`, so that a run is reproducible from its seed.
"""

from __future__ import annotations

import numpy as np

from pokerlab.engine import SeatView


class Agent:
    """Base class of every player. Subclasses override `act`, and `reset` / `hand_over` when they learn.

    ``name`` is the registry name the agent was made under.
    """

    name = "agent"

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def reset(self, rng: np.random.Generator) -> None:
        """Forget everything learned and take a new random generator (start of a match or block)."""
        self.rng = rng

    def act(self, view: SeatView) -> int:
        """The action for the position to act: one of ``view.legal_actions``."""
        raise NotImplementedError

    def hand_over(self, view: SeatView, nets: tuple[int, ...]) -> None:
        """Called after each hand with the final view (shown cards in ``view.shown``) and every position's
        net chips. The default ignores it."""
