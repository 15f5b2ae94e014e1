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
        self.agent.seed(np.random.default_rng(rng_entropy))
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


def _serve(conn) -> None:
    """The isolated process: hosts one agent, sees only what arrives on `conn`, answers only actions."""
    agent = config = None
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        kind = message[0]
        try:
            if kind == "act":
                _, seq, view = message
                choice = agent.act(view._replace(config=config))
                if isinstance(choice, Decision):
                    choice = tuple(choice)
                conn.send(("action", seq, choice))
            elif kind == "observe":
                agent.observe(message[1])
            elif kind == "begin":
                start = message[1]
                config = start.config
                agent.begin_hand(start)
            elif kind == "end":
                agent.end_hand(message[1])
            elif kind == "session":
                _, spec, entropy = message
                agent = spec.make()
                agent.seed(np.random.default_rng(entropy))
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

    It receives pickled `HandStart`, `ActionRecord`, `SeatView` (without the config, sent once per hand)
    and `HandEnd` messages, and sends back only its actions. A late answer is skipped when it arrives.
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

    def new_session(self, rng_entropy: list[int], agent: Agent | None = None) -> None:
        self._send(("session", self.spec, rng_entropy))
        reply = self._receive(self.start_timeout)
        if reply[0] != "ready":
            raise ConfigError(f"agent {self.spec.name!r} could not start in its process: {reply[-1]}")
        self.wants_begin, self.wants_observe, self.wants_end = reply[1]
        self.wants_begin = True  # the view's config travels with the hand start

    def begin_hand(self, start: HandStart) -> None:
        self._send(("begin", start))

    def observe(self, record: ActionRecord) -> None:
        self._send(("observe", record))

    def act(self, view: SeatView, deadline: float | None):
        self.seq += 1
        seq = self.seq
        self._send(("act", seq, view._replace(config=None)))
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
        self._send(("end", end))

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
