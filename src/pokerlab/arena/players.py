"""The seats of a table: how the table talks to an agent, in this process or isolated in its own.

Both kinds answer the same calls (`new_session`, `begin_hand`, `observe`, `act`, `end_hand`, `close`), so a
table does not know which it has. `act` takes a deadline in seconds (None: wait) and returns what the
agent returned (an action, or a `Decision`, as a plain tuple from an isolated agent), or raises:

* `Timeout` when the answer does not come in time (the table then checks or folds for the player);
* `Disconnected` when the player is gone for good (its process died, or its pipe closed);
* `AgentFailure` when the agent's own code raised.

An agent is given by an `AgentSpec`: a registry name, an external "module:Class" / "file.py:Class", or an
instance (a template: each session starts from a copy of it, taken before it plays).
"""

from __future__ import annotations

import hashlib
import pickle
import time
import traceback
from dataclasses import dataclass
from multiprocessing import get_context

import numpy as np

from pokerlab.agents import Agent, make_agent
from pokerlab.agents.base import Decision, overrides
from pokerlab.engine import ActionRecord, HandEnd, HandStart, SeatView
from pokerlab.errors import ConfigError


def seat_generator(entropy: list[int]) -> np.random.Generator:
    """The numbers of ``np.random.default_rng(entropy)``, without `entropy` in the generator.

    A seat's entropy begins with the match seed, from which `arena.dealing` computes every deal, and a
    numpy generator keeps the SeedSequence it was made from (its ``bit_generator.seed_seq``, pickled too):
    handed over as is, it would tell an agent every card. This generator's state is a copy (the same
    draws, so the results are unchanged) and its SeedSequence, for ``spawn``, comes from a one-way hash
    of the entropy. What remains is trying seeds one by one through SeedSequence until one gives the
    state; against untrusted bots a seed of 64 random bits closes that too.
    """
    digest = hashlib.blake2b(repr([int(x) for x in entropy]).encode(), digest_size=16).digest()
    bits = np.random.PCG64(np.random.SeedSequence(int.from_bytes(digest, "little")))
    bits.state = np.random.default_rng(entropy).bit_generator.state
    return np.random.Generator(bits)


class Timeout(Exception):
    """The player did not answer before the deadline."""


class Disconnected(Exception):
    """The player is gone (process ended, pipe closed) and will not answer again."""


class AgentFailure(Exception):
    """The agent's own code raised; the message holds its error."""


@dataclass(frozen=True)
class AgentSpec:
    """How to make fresh copies of one seat's agent: by name / import path, or from a pickled template."""

    name: str
    template: bytes | None = None

    @classmethod
    def of(cls, agent: Agent | str, copies: bool = True) -> AgentSpec:
        """The spec of a seat; an instance is pickled as a template only where ``copies`` are needed."""
        if isinstance(agent, str):
            make_agent(agent)  # fail early, with the known names
            return cls(agent)
        if not isinstance(agent, Agent):
            raise ConfigError(f"a seat takes an Agent or an agent name, got {type(agent).__name__}")
        if not copies:
            return cls(agent.name, b"")
        try:
            return cls(agent.name, pickle.dumps(agent))
        except Exception as exc:  # noqa: BLE001 - any pickling failure
            raise ConfigError(f"agent {agent.name!r} cannot be copied for a session ({exc!r})") from None

    def make(self) -> Agent:
        """A fresh agent."""
        if self.template == b"":
            raise ConfigError(f"agent {self.name!r} was given as an instance without a template to copy")
        return make_agent(self.name) if self.template is None else pickle.loads(self.template)


class LocalPlayer:
    """An agent in this process (trusted: it could read the table's memory; see `IsolatedPlayer`).

    The deadline is checked after the agent answers: a late answer is thrown away (`Timeout`).
    """

    def __init__(self, spec: AgentSpec, agent: Agent | None = None) -> None:
        self.spec = spec
        self.agent = agent

    def new_session(self, rng_entropy: list[int], agent: Agent | None = None) -> None:
        """Start a session with a fresh agent (or `agent` itself) seeded from `rng_entropy`."""
        self.agent = agent if agent is not None else self.spec.make()
        self.agent.seed(seat_generator(rng_entropy))
        a = self.agent
        self.wants_begin = overrides(a, "begin_hand")
        self.wants_observe = overrides(a, "observe")
        self.wants_end = overrides(a, "end_hand")

    def begin_hand(self, start: HandStart) -> None:
        self.agent.begin_hand(start)

    def observe(self, record: ActionRecord) -> None:
        self.agent.observe(record)

    def act(self, view: SeatView, deadline: float | None):
        began = time.perf_counter()
        try:
            choice = self.agent.act(view)
        except Exception as exc:  # noqa: BLE001 - any failure of the agent's own code
            raise AgentFailure(repr(exc)) from exc
        if deadline is not None and time.perf_counter() - began > deadline:
            raise Timeout(f"answered after {time.perf_counter() - began:.3f} s (limit {deadline} s)")
        return choice

    def end_hand(self, end: HandEnd) -> None:
        self.agent.end_hand(end)

    def close(self) -> None:
        pass


# -- isolation ---------------------------------------------------------------------------------------
#
# The wire: the table sends the hand's start once (with the first question, unless the agent listens
# to begin_hand or observe), then with each question only the records the player has not been sent yet,
# as plain int tuples, and the fields of the view that change ("act"); the player's process rebuilds
# the `SeatView` from them. The end of a hand goes only to agents that listen to end_hand. Pickling a
# whole view of named tuples cost about 35 us a decision, the deltas a few.


class _Hand:
    """What the isolated process knows of the current hand: its start and the records so far."""

    def __init__(self, start: HandStart) -> None:
        self.start = start
        self.actions: tuple[ActionRecord, ...] = ()

    def add(self, records) -> tuple[ActionRecord, ...]:
        new = tuple(tuple.__new__(ActionRecord, r) for r in records)
        self.actions += new
        return new

    def view(self, fields) -> SeatView:
        board, round_index, pot, to_call, legal, raises, left = fields
        start = self.start
        return tuple.__new__(
            SeatView,
            (
                start.config,
                start.position,
                start.players,
                start.hole,
                board,
                round_index,
                self.actions,
                pot,
                to_call,
                legal,
                raises,
                left,
                start.seats,
                start.blinds,
                start.stacks,
            ),
        )


def _serve(conn) -> None:
    """The isolated process: hosts one agent, sees only what arrives on `conn`, answers only actions."""
    agent = hand = None
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        kind = message[0]
        try:
            if kind == "act":
                _, seq, start, records, fields = message
                if start is not None:  # the hand's start, sent with its first question
                    hand = _Hand(start)
                    agent.begin_hand(start)
                hand.add(records)
                choice = agent.act(hand.view(fields))
                if isinstance(choice, Decision):
                    choice = tuple(choice)
                conn.send(("action", seq, choice))
            elif kind == "observe":
                for record in hand.add(message[1]):
                    agent.observe(record)
            elif kind == "begin":
                hand = _Hand(message[1])
                agent.begin_hand(hand.start)
            elif kind == "end":
                _, records, nets, shown, board = message
                hand.add(records)
                agent.end_hand(HandEnd(hand.start.position, nets, shown, board, hand.actions))
            elif kind == "session":
                _, spec, generator = message
                agent = spec.make()
                agent.seed(generator)
                hooks = tuple(overrides(agent, h) for h in ("begin_hand", "observe", "end_hand"))
                conn.send(("ready", hooks))
            elif kind == "close":
                return
        except Exception as exc:  # noqa: BLE001 - reported to the table, which records a fault
            detail = "".join(traceback.format_exception_only(exc)).strip()
            if kind in ("act", "session"):
                conn.send(("error", message[1] if kind == "act" else None, detail))


class IsolatedPlayer:
    """An agent in its own process (started with "spawn": it inherits nothing of the arena's memory).

    It receives the hand's start, the action records and the changing fields of its views, rebuilds its
    views from them, and sends back only its actions. A late answer is skipped when it arrives.
    """

    def __init__(self, spec: AgentSpec, start_timeout: float = 60.0) -> None:
        self.spec = spec
        self.start_timeout = start_timeout
        context = get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child,), daemon=True, name=f"agent {spec.name}")
        self.process.start()
        child.close()
        self.seq = 0
        self.sent = 0  # records of the current hand sent so far
        self.gone = False

    def _send(self, message) -> None:
        if self.gone:
            raise Disconnected("the player has left")
        try:
            self.conn.send(message)
        except (OSError, EOFError, BrokenPipeError) as exc:
            self.gone = True
            raise Disconnected(f"the player's process is gone ({exc!r})") from None

    def _receive(self, deadline: float | None):
        if deadline is not None and not self.conn.poll(deadline):
            if not self.process.is_alive():
                self.gone = True
                raise Disconnected(f"the player's process ended (exit code {self.process.exitcode})")
            raise Timeout(f"no answer within {deadline} s")
        try:
            return self.conn.recv()
        except (OSError, EOFError) as exc:
            self.gone = True
            raise Disconnected(f"the player's process is gone ({exc!r})") from None

    def _new_records(self, actions) -> tuple:
        new = actions[self.sent :]
        self.sent = len(actions)
        return tuple(map(tuple, new))

    def new_session(self, rng_entropy: list[int], agent: Agent | None = None) -> None:
        self._send(("session", self.spec, seat_generator(rng_entropy)))
        reply = self._receive(self.start_timeout)
        if reply[0] != "ready":
            raise ConfigError(f"agent {self.spec.name!r} could not start in its process: {reply[-1]}")
        self.wants_begin = True  # the process needs each hand's start to rebuild its views
        _, self.wants_observe, self.wants_end = reply[1]
        self.begin_now = reply[1][0] or self.wants_observe  # else the start waits for the first question
        self.pending = None

    def begin_hand(self, start: HandStart) -> None:
        self.sent = 0
        if self.begin_now:
            self._send(("begin", start))
        else:
            self.pending = start

    def observe(self, record: ActionRecord) -> None:
        self.sent += 1
        self._send(("observe", (tuple(record),)))

    def act(self, view: SeatView, deadline: float | None):
        self.seq += 1
        seq = self.seq
        fields = (
            view.board,
            view.round,
            view.pot,
            view.to_call,
            view.legal_actions,
            view.raises,
            view.raises_left,
        )
        start, self.pending = self.pending, None
        self._send(("act", seq, start, self._new_records(view.actions), fields))
        ends = None if deadline is None else time.perf_counter() + deadline
        while True:
            left = None if ends is None else max(0.0, ends - time.perf_counter())
            reply = self._receive(left)
            if reply[1] != seq:
                continue  # a late answer to an earlier question
            if reply[0] == "error":
                raise AgentFailure(reply[2])
            return reply[2]

    def end_hand(self, end: HandEnd) -> None:
        self._send(("end", self._new_records(end.actions), end.nets, end.shown, end.board))

    def close(self) -> None:
        if not self.gone:
            try:
                self.conn.send(("close",))
            except (OSError, EOFError):
                pass
        self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=2)
        self.conn.close()
