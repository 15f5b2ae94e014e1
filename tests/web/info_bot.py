"""A test bot that logs what it thought: calls always, with numpy-typed info (the server must store it as
plain JSON)."""

import time

import numpy as np

from pokerlab.actions import CALL, FOLD
from pokerlab.agents.base import Agent, Decision


class InfoBot(Agent):
    def act(self, view):
        info = {"hand_strength": np.float64(0.25), "evs": np.array([0.0, 1.5, -2.0]), "round": view.round}
        return Decision(CALL, (0.0, 1.0, 0.0), info)


class ShyInfoBot(InfoBot):
    """Logs like InfoBot, and folds to any bet after the flop: against a bettor it never shows its cards."""

    def act(self, view):
        decision = super().act(view)
        return decision._replace(action=FOLD) if view.round > 0 and view.to_call > 0 else decision


class SlowBot(Agent):
    """Calls after 0.2 s: a window in which it is surely not anyone else's turn."""

    def act(self, view):
        time.sleep(0.2)
        return CALL


class IllegalBot(Agent):
    """Answers 7, which is no action at all: a fault the table must show, never a quiet check."""

    def act(self, view):
        return 7
