"""A bot that attacks the web server's process (issue 24), loaded by path ("tests/web/hostile_bot.py:Peeker"):
run in the server's process, its import-time code would mark the server's modules, and its frames and the
garbage collector would show it every seat's hole cards (a bot of this kind took a person from 1,000 to 0 in
24 hands). Sandboxed, it reports what it found through `Decision.info`."""

import gc
import os
import sys

from pokerlab.actions import CALL
from pokerlab.agents import Agent, Decision

if "pokerlab.interfaces.web.tables" in sys.modules:  # the server's own process
    sys.modules["pokerlab.interfaces.web.tables"].HOSTILE_BOT_WAS_HERE = True


def _foreign(state, own) -> int:
    """How many hole cards of other seats a found hand state shows."""
    return sum(1 for c in getattr(state, "holes", ()) if c >= 0 and c not in own)


class Peeker(Agent):
    """Calls; looks for hand states through its callers' frames and the garbage collector."""

    name = "peeker"

    def act(self, view):
        found = 0
        frame = sys._getframe(1)
        while frame is not None:
            for value in list(frame.f_locals.values()):
                if type(value).__name__ == "HandState":
                    found = max(found, _foreign(value, view.hole))
            frame = frame.f_back
        for obj in gc.get_objects():
            if type(obj).__name__ == "HandState":
                found = max(found, _foreign(obj, view.hole))
        return Decision(CALL, None, {"foreign_cards": found, "pid": os.getpid()})
