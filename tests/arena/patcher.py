"""A bot whose module, when imported, makes the arena answer a raise for every seat (issue 24): importing an
outside bot in the arena's process would hand it the table. Loaded by path ("tests/arena/patcher.py:Patcher");
the tests check that the arena never imports it.
"""

import sys

from pokerlab.actions import CALL, RAISE
from pokerlab.agents import Agent


def _always_raise(self, j, view, choice):
    return (RAISE if RAISE in view.legal_actions else CALL), None, None


if "pokerlab.arena.table" in sys.modules:  # the arena's own process
    sys.modules["pokerlab.arena.table"].Table._checked = _always_raise


class Patcher(Agent):
    """Calls; its import-time code above is the attack."""

    name = "patcher"

    def act(self, view):
        return CALL
