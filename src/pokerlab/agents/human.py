"""A person at the terminal: a table that reads like a card room, and prompts until the answer is legal.

The agent hooks draw the table: `begin_hand` shows who sits where (name, seat, blinds, stacks) and the hole
cards, the pot counting the blinds as posted (`HandStart.blinds`: a short stack posts less, all in);
`observe` spells out every action ("loki1 (seat 3) raises to 20"); the board is shown by round as it is
dealt, the pot after each round; `end_hand` shows the hands shown down with their names
(`pokerlab.evaluator.describe`), who won what, and the player's running total. Actions of a round are shown
once its board is known (at the player's turn or at the end of the hand), so they never precede the cards.

Folding when checking is free is never offered; typing it asks for confirmation. At the end of input the
agent raises `PlayerLeft` (not an `Exception`, so that the table does not take it for a bug in the agent and
play on): the front end ends the session there and reports the hands played so far.
"""

from __future__ import annotations

import sys
from typing import TextIO

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.base import Agent
from pokerlab.cards import format_cards
from pokerlab.engine import (
    BOARD_SIZE,
    RIVER,
    ROUND_NAMES,
    ActionRecord,
    BettingFacts,
    HandEnd,
    HandStart,
    SeatView,
)
from pokerlab.engine.state import blind_positions
from pokerlab.evaluator import describe, evaluate

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


class PlayerLeft(BaseException):  # noqa: N818 - an event, like KeyboardInterrupt, not an error
    """The person at the terminal left (end of input): the session ends here."""


class HumanAgent(Agent):
    """Plays the decisions typed at a terminal (streams injectable for tests).

    ``names`` gives the display name of each lasting seat (default "seat j"); the person's own seat shows
    as "you".
    """

    name = "human"

    def __init__(
        self, stdin: TextIO | None = None, stdout: TextIO | None = None, names: list[str] | None = None
    ) -> None:
        super().__init__()
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.names = names
        self.total = 0
        self.hands = 0
        self.totals: dict[int, int] = {}
        self.start: HandStart | None = None
        self.pending: list[ActionRecord] = []
        self.shown_round = 0  # set per hand by begin_hand, with `facts`, the hand's betting

    def _say(self, text: str) -> None:
        print(text, file=self.stdout, flush=True)

    def _who(self, position: int) -> str:
        start = self.start
        if start is None:
            return f"position {position}"
        if position == start.position:
            return "you"
        seat = start.seats[position]
        name = self.names[seat] if self.names and seat < len(self.names) else "player"
        return f"{name} (seat {seat})"

    # -- the hand -----------------------------------------------------------------------------------

    def begin_hand(self, start: HandStart) -> None:
        self.start = start
        self.pending = []
        n, config = start.players, start.config
        small, big = blind_positions(n)
        posted = start.blinds  # what was posted: a short stack posts less than the blind, all in
        self.facts = BettingFacts(n, posted, tuple(config.bet_size(r) for r in range(4)))
        self.shown_round = 0
        self._say(f"\n=== hand {start.hand + 1} " + "=" * 50)
        width = max(24, *(len(self._who(p)) + 2 for p in range(n)))  # a long name never runs into its role
        for p in range(n):
            roles = ["button"] if p == n - 1 else []
            roles += ["small blind"] if p == small else ["big blind"] if p == big else []
            blind = config.big_blind if p == big else config.small_blind if p == small else 0
            if posted[p] < blind:  # only a stack shorter than the blind posts less
                roles[-1] += f" {posted[p]} (all-in)"
            role = ", ".join(roles)
            stack = "" if start.stacks is None else f"  stack {start.stacks[p]}"
            self._say(f"  {self._who(p):<{width}}{role:<24}{stack}".rstrip())
        self._say(
            f"blinds {config.small_blind}/{config.big_blind}; you hold {format_cards(start.hole)}; "
            f"pot {self.facts.pot}"
        )

    def observe(self, record: ActionRecord) -> None:
        self.pending.append(record)

    def _spell(self, record: ActionRecord) -> str:
        self.facts.take(record)
        p = record.position
        who = self._who(p)
        you = who == "you"
        if record.action == FOLD:
            return f"{who} fold{'' if you else 's'}"
        if record.action == CALL:
            if record.to_call == 0:
                return f"{who} check{'' if you else 's'}"
            return f"{who} call{'' if you else 's'} {record.amount}{self._all_in(p)}"
        verb = "bet" if record.raises == 0 else "raise"
        verb = verb if you else verb + "s"
        return f"{who} {verb} {'to ' if 'raise' in verb else ''}{self.facts.bets[p]}{self._all_in(p)}"

    def _all_in(self, position: int) -> str:
        stacks = self.start.stacks if self.start else None
        committed = self.facts.committed
        return " (all-in)" if stacks is not None and committed[position] >= stacks[position] else ""

    def _flush(self, board: tuple[int, ...]) -> None:
        """Show the pending actions, each round's board before its first action."""
        for record in self.pending:
            self._show_board(board, record.round)
            self._say(f"  {self._spell(record)}")
        self.pending = []

    def _show_board(self, board: tuple[int, ...], upto: int) -> None:
        while self.shown_round < upto and len(board) >= BOARD_SIZE[self.shown_round + 1]:
            self.shown_round += 1
            r = self.shown_round
            new = board[BOARD_SIZE[r - 1] : BOARD_SIZE[r]]
            old = f"{format_cards(board[: BOARD_SIZE[r - 1]])} + " if r > 1 else ""
            self._say(f"{ROUND_NAMES[r]}: {old}{format_cards(new)}   (pot {self.facts.pot})")

    def act(self, view: SeatView) -> int:
        if self.start is None:  # asked without begin_hand (a view built by hand): its betting so far
            self.facts = BettingFacts(
                view.players, view.blinds, tuple(view.config.bet_size(r) for r in range(4))
            )
            for record in view.actions:
                self.facts.take(record)
            self.pending = []
        self._flush(view.board)
        self._show_board(view.board, view.round)
        free = view.to_call == 0
        raise_word = "bet" if view.raises == 0 else "raise"
        bets = view.bets
        size = view.config.small_bet if view.round < 2 else view.config.big_bet
        total = max(bets) + size  # what a bet or raise brings this round's bet to
        if view.stacks is not None:
            total = min(total, bets[view.position] + view.stacks[view.position])  # all-in for less
        amount = f" {total}" if raise_word == "bet" else f" to {total}"
        names = {
            FOLD: "fold",
            CALL: "check" if free else f"call {view.to_call}",
            RAISE: raise_word + amount,
        }
        offered = [a for a in view.legal_actions if not (free and a == FOLD)]
        choices = "/".join(f"[{names[a][0]}]{names[a][1:]}" for a in offered)
        owe = f", {view.to_call} to call" if view.to_call else ""
        self._say(
            f"{ROUND_NAMES[view.round]}: you hold {format_cards(view.hole)}, board "
            f"{format_cards(view.board) or '-'}, pot {view.pot}{owe}"
        )
        while True:
            line = self._ask(f"your action ({choices})? ")
            action = _WORDS.get(line.strip().lower())
            if action == FOLD and free and FOLD in view.legal_actions:
                if self._ask("checking is free: fold anyway? [y/N] ").strip().lower() in ("y", "yes"):
                    return FOLD
                continue
            if action in view.legal_actions:
                return action
            self._say(f"'{line.strip()}' is not one of {choices}; try again")

    def _ask(self, prompt: str) -> str:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self._say("")
            raise PlayerLeft("end of input: the player left")
        return line

    def end_hand(self, end: HandEnd) -> None:
        self._flush(end.board)
        self._show_board(
            end.board, max(r for r, size in enumerate(BOARD_SIZE[: RIVER + 1]) if size <= len(end.board))
        )
        names = {}
        for p, hole in sorted(end.shown.items()):
            names[p] = describe(evaluate(list(hole) + list(end.board))).description
            self._say(
                f"  {self._who(p)} show{'' if p == end.position else 's'} {format_cards(hole)}: {names[p]}"
            )
        for p, net in enumerate(end.nets):
            if net > 0:
                won = net + self.facts.committed[p]
                hand = f" with {names[p]}" if p in names else ""
                verb = "win" if p == end.position else "wins"
                self._say(f"  {self._who(p)} {verb} {won}{hand} (net {net:+d})")
        for p, net in enumerate(end.nets):
            seat = self.start.seats[p]
            self.totals[seat] = self.totals.get(seat, 0) + net
        mine = end.nets[end.position]
        self.total += mine
        self.hands += 1
        me = self.start.seats[end.position]
        others = ", ".join(
            f"{self.names[s] if self.names and s < len(self.names) else f'seat {s}'} {t:+d}"
            for s, t in sorted(self.totals.items())
            if s != me
        )
        self._say(f"you {mine:+d} this hand; after {self.hands} hand(s): you {self.total:+d}, {others}")
