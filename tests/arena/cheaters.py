"""Agents for the arena's tests, loaded by path ("tests/arena/cheaters.py:Class") so that they also run
isolated in their own processes. Each tells what it managed through `Decision.info`."""

import gc
import itertools
import os
import sys
import time

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents import Agent, Decision
from pokerlab.arena.dealing import deal_cards


def _foreign_cards(state, own) -> int:
    """How many hole cards of other positions a found `HandState` reveals."""
    return sum(1 for c in state.holes if c >= 0 and c not in own)


class Cheat(Agent):
    """Tries the three routes of issue 8 to see other seats' cards or change the rules: the frames above
    its own, the garbage collector's objects, and the view's config. It raises with a winning hand it
    found out about, folds a losing one, and says how many foreign hole cards it saw."""

    name = "cheat"

    def act(self, view):
        leaked = 0
        frame = sys._getframe(1)
        while frame is not None and not leaked:
            for value in list(frame.f_locals.values()):
                if type(value).__name__ == "HandState":
                    leaked = _foreign_cards(value, view.hole)
                    break
            frame = frame.f_back
        by_gc = 0
        if view.round == 0 and view.actions[-1:] and view.actions[-1].position != view.position:
            for obj in gc.get_objects():
                if type(obj).__name__ == "HandState" and tuple(obj.holes[:2]) != ():
                    by_gc = max(by_gc, _foreign_cards(obj, view.hole))
        object.__setattr__(view.config, "max_bets", 10**9)  # lift the cap, if the config were shared
        action = RAISE if RAISE in view.legal_actions else CALL
        return Decision(action, (0.0, 0.5, 0.5), {"frame": leaked, "gc": by_gc})


class Counter(Agent):
    """A learner in miniature: counts the hands it has been told about, across blocks."""

    name = "counter"
    learns = True

    def __init__(self) -> None:
        super().__init__()
        self.hands = 0

    def forget(self) -> None:
        self.hands = 0

    def end_hand(self, end):
        if not self.frozen:
            self.hands += 1

    def act(self, view):
        return Decision(CALL, None, {"hands": self.hands})


class Memory(Agent):
    """Remembers every showdown by the shown hole cards and the flop, which together name the deal, and
    after the flop bets the house when it holds cards it remembers winning on this flop (folds those it
    remembers losing). Only a deal met twice helps it; before the flop it just calls."""

    name = "memory"

    def __init__(self) -> None:
        super().__init__()
        self.won: dict[frozenset, bool] = {}
        self.hits = 0

    def end_hand(self, end):
        for p, cards in end.shown.items():
            self.won[frozenset(cards) | frozenset(end.board[:3])] = end.nets[p] > 0

    def act(self, view):
        known = self.won.get(frozenset(view.hole) | frozenset(view.board[:3])) if view.board else None
        if known is not None:
            self.hits += 1
        if known is True:
            action = RAISE if RAISE in view.legal_actions else CALL
        elif known is False and view.to_call:
            action = FOLD
        else:
            action = CALL
        return Decision(action, None, {"hits": self.hits})


class Sleeper(Agent):
    """Answers after ``SLEEP`` seconds (raising), or at once (calling) when it has slept twice this hand."""

    name = "sleeper"
    SLEEP = 0.3

    def act(self, view):
        time.sleep(self.SLEEP)
        return RAISE if RAISE in view.legal_actions else CALL


class Quitter(Agent):
    """Leaves the table (its process ends) at its third decision."""

    name = "quitter"

    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0

    def act(self, view):
        self.decisions += 1
        if self.decisions == 3:
            os._exit(3)
        return CALL


class Garbage(Agent):
    """Answers with something that is not an action."""

    name = "garbage"

    def act(self, view):
        return 7


class SeedThief(Agent):
    """Tries to learn the match seed, from which every deal follows (`arena.dealing`): first from the
    SeedSequence inside its generator, then by trying small seeds until one makes its generator's first
    state. After the flop it says which route gave a seed that deals its own cards and this board."""

    name = "seed-thief"
    SMALL = 16  # seeds tried by brute force: 0 .. SMALL - 1
    LOOK = 64  # deals of a candidate seed compared with the hand in play

    def seed(self, rng):
        super().seed(rng)
        self.first_state = rng.bit_generator.state["state"]
        self.route = None

    def _deals_this_hand(self, seed, view) -> bool:
        n = view.players
        for d in range(self.LOOK):
            cards = deal_cards(seed, d, n)
            if set(cards[2 * n : 2 * n + 3]) == set(view.board[:3]) and set(view.hole) <= set(cards[: 2 * n]):
                return True
        return False

    def _steal(self, view) -> str:
        entropy = np.atleast_1d(self.rng.bit_generator.seed_seq.entropy)
        if any(self._deals_this_hand(int(e), view) for e in entropy):
            return "seed_seq"
        for seed, session, j in itertools.product(range(self.SMALL), range(8), range(view.players)):
            state = np.random.default_rng([seed, 1, session, j]).bit_generator.state["state"]
            if state == self.first_state and self._deals_this_hand(seed, view):
                return "brute force"
        return "none"

    def act(self, view):
        if view.board and self.route is None:
            self.route = self._steal(view)
        return Decision(CALL, None, {"route": self.route})
