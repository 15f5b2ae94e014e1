"""A person at the terminal: shows the cards, pot and legal actions, and asks until the answer is legal."""

from __future__ import annotations

import sys
from typing import TextIO

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.base import Agent
from pokerlab.cards import format_cards
from pokerlab.engine import ROUND_NAMES, HandEnd, SeatView

_WORDS = {
    "f": FOLD,
    "fold": FOLD,
    "c": CALL,
    "call": CALL,
    "check": CALL,
    "k": CALL,
    "r": RAISE,
    "raise": RAISE,
    "bet": RAISE,
    "b": RAISE,
}


class HumanAgent(Agent):
    """Plays the decisions typed at a terminal (streams injectable for tests)."""

    name = "human"

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        super().__init__()
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def _say(self, text: str) -> None:
        print(text, file=self.stdout, flush=True)

    def act(self, view: SeatView) -> int:
        board = format_cards(view.board) or "-"
        names = {
            FOLD: "fold",
            CALL: "call" if view.to_call else "check",
            RAISE: "raise" if view.to_call else "bet",
        }
        choices = "/".join(f"[{names[a][0]}]{names[a][1:]}" for a in view.legal_actions)
        self._say(
            f"{ROUND_NAMES[view.round]}: you hold {format_cards(view.hole)}, board {board}, "
            f"pot {view.pot}, to call {view.to_call}, betting {view.betting or '-'}"
        )
        while True:
            self.stdout.write(f"your action ({choices})? ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                raise EOFError("no more input: the player left")
            action = _WORDS.get(line.strip().lower())
            if action in view.legal_actions:
                return action
            self._say(f"'{line.strip()}' is not one of {choices}; try again")

    def end_hand(self, end: HandEnd) -> None:
        shown = ", ".join(f"position {p}: {format_cards(c)}" for p, c in sorted(end.shown.items()))
        self._say(
            f"hand over: board {format_cards(end.board) or '-'}; "
            f"{'shown ' + shown if shown else 'no showdown'}; you {end.nets[end.position]:+d}"
        )
