"""The seats of a table: how the table talks to an agent, in this process or isolated in its own.

Both kinds answer the same calls, so a table does not know which it has (the ACPC dealer and the web table
use them too):

* ``new_session(rng_entropy)``: a fresh agent, seeded from the entropy (`BotFault` if an isolated bot
  cannot start); ``end_session()``, where a player has it, at its end (an isolated bot's session process
  then ends);
* ``begin_hand(start)``, ``observe(record)``, ``end_hand(end)``: the hooks, where ``wants_begin``,
  ``wants_observe``, ``wants_end`` say the agent listens;
* ``act(view, deadline)``: the agent's action, or a `Decision`; the deadline in seconds (None: an isolated
  player's default, `ACTION_SECONDS`; a local one waits). It raises `Timeout` when the answer does not
  come in time, `Disconnected` when the player is gone for good (its process died), `AgentFailure` when
  the agent's own code raised or its answer does not parse (`arena.wire`);
* ``hook_errors``: what an isolated agent's hooks raised, reported with its answers (one fault each; a
  local agent's hooks raise into the table, and a player without this attribute has none to report);
* ``close()``: the end (an isolated bot's sandbox and every process in it end).

An agent is given by an `AgentSpec`: a registry name, an outside bot "module:Class" / "file.py:Class", or
an instance (a template: each session starts from a copy of it, taken before it plays). A `LocalPlayer`
is trusted code in this process; an `IsolatedPlayer` runs a bot in its own sandboxed process
(`arena.sandbox`), a fresh one every session (`arena.botproc`), and talks to it over `arena.wire`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
import socket
import subprocess
import sys
import time
from dataclasses import dataclass

import numpy as np

from pokerlab.agents import Agent, make_agent
from pokerlab.agents.base import overrides
from pokerlab.agents.registry import is_external
from pokerlab.arena import sandbox, wire
from pokerlab.engine import ActionRecord, GameConfig, HandEnd, HandStart, SeatView
from pokerlab.errors import BotFault, ConfigError


def seat_generator(entropy: list[int]) -> np.random.Generator:
    """The numbers of ``np.random.default_rng(entropy)``, without `entropy` in the generator.

    A seat's entropy begins with the match seed, from which `arena.dealing` computes every deal, and a
    numpy generator keeps the SeedSequence it was made from (its ``bit_generator.seed_seq``, pickled too):
    handed over as is, it would tell an agent every card. This generator's state is a copy (the same
    draws, so the results are unchanged) and its SeedSequence, for ``spawn``, comes from a one-way hash
    of the entropy. What remains is trying seeds one by one through SeedSequence until one gives the
    state: an isolated bot gets only the state (`generator_wire`), no seed reaches its process, but a bot
    that guesses a small seed (0, 1, 42) can confirm it, so against untrusted bots pick a large seed.
    """
    digest = hashlib.blake2b(repr([int(x) for x in entropy]).encode(), digest_size=16).digest()
    bits = np.random.PCG64(np.random.SeedSequence(int.from_bytes(digest, "little")))
    bits.state = np.random.default_rng(entropy).bit_generator.state
    return np.random.Generator(bits)


def generator_wire(entropy: list[int]) -> dict:
    """`seat_generator(entropy)` as plain numbers: its PCG64 state and the number its ``spawn`` derives
    from (the one-way hash), what an isolated bot's process rebuilds it from."""
    bits = seat_generator(entropy).bit_generator
    return {"state": bits.state, "spawn": int(bits.seed_seq.entropy)}


class Timeout(Exception):
    """The player did not answer before the deadline."""


class Disconnected(Exception):
    """The player is gone (process ended, pipe closed) and will not answer again."""


class AgentFailure(Exception):
    """The agent's own code raised; the message holds its error."""


@dataclass(frozen=True)
class AgentSpec:
    """How to make fresh copies of one seat's agent: by name / import path, or from a pickled template of an
    instance (trusted code: it plays only in this process)."""

    name: str
    template: bytes | None = None

    @classmethod
    def of(cls, agent: Agent | str, copies: bool = True) -> AgentSpec:
        """The spec of a seat; an instance is pickled as a template only where ``copies`` are needed."""
        if isinstance(agent, str):
            if not is_external(agent):  # an outside bot is imported only in its own process
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
        agent = agent if agent is not None else self.spec.make()
        agent.seed(seat_generator(rng_entropy))
        self.seat(agent)

    def seat(self, a: Agent) -> None:
        """Play `a` from now on, as it is (no copy, no new seed)."""
        self.agent = a
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

#: Default seconds an isolated bot has to answer one question, and to start a session.
ACTION_SECONDS = 10.0
START_SECONDS = 10.0
#: Seconds a bot's sandbox has to start (Python and pokerlab's imports, on a machine busy with the others).
BOOT_SECONDS = 60.0
#: Extra environment of a bot's process (one thread per numeric library: seats share the cores).
BOT_ENV = {
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "NUMBA_NUM_THREADS": "1",
    "NUMBA_CACHE_DIR": "/tmp/.numba",
}


def bot_folder(spec: str) -> str | None:
    """The folder of a "file.py:Class" bot, from the spec's text alone (None for other specs)."""
    where = spec.rpartition(":")[0]
    return os.path.dirname(os.path.abspath(where)) if is_external(spec) and where.endswith(".py") else None


def bot_policy(spec: str, mode: str = "required", hidden=()) -> sandbox.SandboxPolicy:
    """The sandbox of a bot's process: Python, pokerlab and a "file.py:Class" bot's folder readable (its
    file alone where that folder is the host's /tmp, `sandbox.readable_for`);
    `hidden` (results folders, other bots' folders) covered where it lies inside one of those."""
    readable = list(sandbox.PYTHON_PATHS)
    if bot_folder(spec):
        readable.append(sandbox.readable_for(spec.rpartition(":")[0]))
    inside = [
        os.path.abspath(h)
        for h in hidden
        if any(os.path.abspath(h).startswith(r.rstrip("/") + "/") for r in readable)
    ]
    return sandbox.SandboxPolicy(readable=tuple(readable), hidden=tuple(inside), env=BOT_ENV, mode=mode)


class IsolatedPlayer:
    """A bot in its own sandboxed process, a fresh one every session (see the module doc).

    Its process sees only what arrives on the wire: each hand's start, the action records and the changing
    fields of its views, sent with its next question (one round trip a decision). A late answer is skipped
    when it arrives. ``sandbox_mode`` is "required" or "best-effort" (`arena.sandbox`); ``hidden`` paths
    stay out of its sight even inside a folder it may read.
    """

    def __init__(
        self,
        spec: AgentSpec,
        config: GameConfig | None = None,
        start_timeout: float = START_SECONDS,
        sandbox_mode: str = "required",
        hidden=(),
    ) -> None:
        if spec.template is not None:
            raise ConfigError(
                f"agent {spec.name!r} is an instance (trusted code, played in this process): isolate "
                "agents given by name or as module:Class / file.py:Class"
            )
        self.spec = spec
        folder = bot_folder(spec.name)  # the bot's process starts in /tmp: its file by absolute path
        self.where = os.path.join(folder, spec.name.rpartition("/")[2]) if folder else spec.name
        config = config or GameConfig()
        self.config = {f.name: getattr(config, f.name) for f in dataclasses.fields(config) if f.init}
        self.start_timeout = start_timeout
        self.name = spec.name
        self.control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        warm = () if is_external(spec.name) else (spec.name,)  # a registered agent is warmed up
        argv = [sys.executable, "-I", "-B", "-m", "pokerlab.arena.botproc", str(theirs.fileno()), *warm]
        self.process = sandbox.start_sandboxed(
            argv,
            bot_policy(spec.name, sandbox_mode, hidden),
            keep_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        theirs.close()
        self.greeted = False
        self.sock: socket.socket | None = None
        self.seq = 0
        self.hook_errors: list[str] = []
        self.receive = wire.Receiver()

    # the wire

    def _recv(self, sock: socket.socket, seconds: float, limit: float | None = None) -> bytes:
        """The next packet within `seconds` (else `Timeout`, which names the `limit`, default `seconds`)."""
        if sock.gettimeout() != seconds:  # setting it costs system calls: most questions share one
            sock.settimeout(seconds)
        try:
            packet = self.receive(sock)
        except (TimeoutError, BlockingIOError):  # the latter: no time left at all
            raise Timeout(f"no answer within {limit or seconds:g} s") from None
        except OSError as exc:
            packet = b""
            detail = repr(exc)
        else:
            detail = "its process ended"
        if not packet:
            self.gone = True
            raise Disconnected(f"the player is gone ({detail})")
        return packet

    def _flush(self, question: list | None = None) -> None:
        """Send the outbox (and the question) as one packet."""
        if question is not None:
            self.outbox.append(question)
        if not self.outbox:
            return
        if self.gone:
            raise Disconnected("the player has left")
        try:
            self.sock.send(wire.dumps(self.outbox))
        except OSError as exc:
            self.gone = True
            raise Disconnected(f"the player's process is gone ({exc!r})") from None
        finally:
            self.outbox = []

    def _note(self, errors: tuple[int, list[str]]) -> None:
        count, lines = errors
        self.hook_errors += lines + [lines[-1] if lines else "a hook raised"] * (count - len(lines))

    # the session

    def new_session(self, rng_entropy: list[int], agent: Agent | None = None) -> None:
        """A fresh process for the bot, seeded from `rng_entropy`; `BotFault` if it does not start."""
        if agent is not None:
            raise ConfigError(f"agent {self.name!r} is isolated: it cannot play a given instance")
        self.end_session()
        self.outbox: list = []
        self.sent = 0  # records of the current hand sent so far
        self.overdue = False  # a question timed out and its answer has not come
        fault = f"bot {self.name!r}"
        try:
            if not self.greeted:
                hello = wire.loads(self._recv(self.control, max(BOOT_SECONDS, self.start_timeout)))
                if hello != ["hello", wire.VERSION]:
                    raise BotFault(
                        f"{fault}: its process speaks {hello!r:.60}, not wire version {wire.VERSION}"
                    )
                self.greeted = True
            sandbox.share_cpus(self.process.pid)  # booted anywhere, it now plays on the table's CPU
            self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            message = ["session", wire.VERSION, self.where, self.config, generator_wire(rng_entropy)]
            socket.send_fds(self.control, [wire.dumps(message)], [theirs.fileno()])
            theirs.close()
            self.gone = False
            reply = wire.loads(self._recv(self.sock, self.start_timeout))
        except (Timeout, Disconnected, OSError, wire.WireError) as exc:
            detail = str(exc)
            if self.process.poll() is not None:
                detail = f"its sandbox ended (exit code {self.process.returncode})"
            self.gone = True
            raise BotFault(f"{fault} did not start a session: {detail}") from None
        hooks = reply[1] if type(reply) is list and len(reply) == 2 and reply[0] == "ready" else None
        if type(hooks) is not list or len(hooks) != 3 or not all(type(h) is bool for h in hooks):
            self.gone = True
            if type(reply) is list and len(reply) == 2 and reply[0] == "refused":
                raise BotFault(f"{fault} could not start: {reply[1]!s:.300}")
            raise BotFault(f"{fault} did not start a session: it said {reply!r:.80}")
        self.wants_begin = True  # the process needs each hand's start to rebuild its views
        _, self.wants_observe, self.wants_end = hooks
        self.listens = any(hooks)  # else only the start of a hand it acts in need reach it

    def end_session(self) -> None:
        """Deliver what waits, collect the hooks' errors, and end the session's process. A bot that let
        its latest question time out is not waited for (its hooks' late errors are lost with it): it may
        never answer, and every match with a stuck bot would hang at the end for `start_timeout`."""
        if self.sock is None:
            return
        try:
            if not self.gone and not self.overdue:
                self._flush(["q"])
                kind, _, _, errors = wire.answer(self._recv(self.sock, self.start_timeout))
                while kind != "q":  # late answers to earlier questions
                    kind, _, _, errors = wire.answer(self._recv(self.sock, self.start_timeout))
                self._note(errors)
        except (Timeout, Disconnected, wire.WireError):
            pass  # the process ends now whatever it says
        finally:
            self.sock.close()
            self.sock = None

    # the hand

    def _records(self, actions) -> None:
        if len(actions) > self.sent:
            self.outbox.append(["r", actions[self.sent :]])
            self.sent = len(actions)

    def begin_hand(self, start: HandStart) -> None:
        self.sent = 0
        if not self.listens:
            self.outbox.clear()  # the last hand's start, unused: it did not act there
        self.outbox.append(wire.begin_event(start))

    def observe(self, record: ActionRecord) -> None:
        """Nothing to send now: the records go with the next question or the hand's end."""

    def act(self, view: SeatView, deadline: float | None):
        self.seq += 1
        seq = self.seq
        self._records(view.actions)
        self._flush(wire.question_event(seq, view))
        seconds = ACTION_SECONDS if deadline is None else deadline
        ends = time.perf_counter() + seconds
        left = seconds
        while True:
            try:
                packet = self._recv(self.sock, left, seconds)
            except Timeout:
                self.overdue = True  # still thinking, or stuck: the session's end will not wait for it
                raise
            try:
                kind, answered, payload, errors = wire.answer(packet)
            except wire.WireError as exc:
                raise AgentFailure(str(exc)) from None
            self._note(errors)
            if answered != seq:  # a late answer to an earlier question
                left = max(0.0, ends - time.perf_counter())
                continue
            self.overdue = False  # it answers the latest question: it keeps up again
            if kind == "x":
                raise AgentFailure(payload)
            return payload

    def end_hand(self, end: HandEnd) -> None:
        if self.wants_observe or self.wants_end:
            self._records(end.actions)
            self.outbox.append(wire.end_event(end))

    def hang_up(self) -> None:
        """End the session and close the control socket: the sandbox then ends by itself (`close` waits
        for it; a table hangs up on every bot first, so that they end side by side)."""
        self.end_session()
        self.control.close()

    def close(self) -> None:
        self.hang_up()
        sandbox.stop(self.process)
