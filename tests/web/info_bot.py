"""A test bot that logs what it thought: calls always, with numpy-typed info (the server must store it as
plain JSON)."""

import time

import numpy as np

from pokerlab.actions import CALL
from pokerlab.agents.base import Agent, Decision


class InfoBot(Agent):
    def act(self, view):
        info = {"hand_strength": np.float64(0.25), "evs": np.array([0.0, 1.5, -2.0]), "round": view.round}
        return Decision(CALL, (0.0, 1.0, 0.0), info)


class SlowBot(Agent):
    """Calls after 0.2 s: a window in which it is surely not anyone else's turn."""

    def act(self, view):
        time.sleep(0.2)
        return CALL
