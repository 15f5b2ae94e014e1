"""A remote seat: the player at a table is an ACPC client at the other end of a socket.

`AcpcPlayer` answers the calls of our other players (`new_session`, `act`, `close`), and takes the
lines the table makes for it (`begin`, `tell`) as others take their notifications, so the dealer is our
`Table` with remote seats. It follows the ACPC dealer's rules
(ACPC protocol 2.0.0):

* a session starts when the client connects and sends ``VERSION:2.<minor>.<rev>`` (comment lines first
  are allowed); where the seat has a program (`start`), the program is started for each session, and
  one that ends before it connects is a fault at once;
* every state of the hand goes to every seat (the start, each action, the end with the cards shown
  down); only the actor's answer is read. A seat's lines are queued and sent together when it is to act
  next, or when the session ends (one message instead of one per action: the same lines, in the same
  order; a hand's last line goes with the next hand's first); the reference dealer's seat
  (`refdealer.ReferenceSeat`) sends each line as it comes instead;
* an answer is the line sent, ':' and an action, read as the reference reads it (`read_action`: ``f``,
  ``c`` or ``k``, ``r`` or ``b``, either case, anything after the letter ignored); comment lines (``#``,
  ``;``) are skipped;
* a deadline per action and a time budget per hand, and the connect limit for the client to connect,
  say VERSION and read its lines (the dealer never blocks on a full socket).

The seat's faults go to the table, whose rule applies to them as to any player's (`Table`: it stops the
match with `BotFault`, unless it tolerates faults, when it checks or folds for the seat and counts the
fault): a client that never connects or says VERSION, or whose connection closes (or its program ends),
is `Disconnected` (for the rest of the session); one that does not answer in time is a `Timeout`; a line
that is no answer (garbage, a line over the protocol's limit, an answer to a state it was not asked to
act in) or an action that is unknown or not legal is an `AgentFailure` (a late answer to an earlier
state, after a tolerated timeout, is skipped).
"""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from collections.abc import Callable
from typing import NamedTuple

from pokerlab.arena.players import AgentFailure, Disconnected, Timeout
from pokerlab.arena.sandbox import stop
from pokerlab.interfaces.acpc.channel import Channel, ConnectionClosed, LineTooLong
from pokerlab.interfaces.acpc.matchstate import MAX_LINE, read_action


class Owed(NamedTuple):
    """What a remote seat's answer is checked against: the position to act, its legal actions and the
    chips it owes (`SeatView`'s fields of those names; the client sees the game in its lines, so the
    table builds no whole view for it)."""

    position: int
    legal_actions: tuple[int, ...]
    to_call: int


#: Seconds a seat's program may take to exit once its session is closed, before its process group is killed.
EXIT_GRACE = 2.0
#: Seconds a seat waits, once its connection closed, for its program to end (to say how it ended).
ENDED_WAIT = 0.5
#: Seconds between looks at a seat's program while the seat waits for it to connect.
_LOOK_EVERY = 0.05


class AcpcPlayer:
    """One seat served over `listener` (a bound, listening socket). The table (`AcpcTable`, which sets
    ``table`` to itself) makes every seat's lines and hands them to `begin` and `tell` as it hands others
    their notifications, so a seat wants none of those.

    ``program``, where given, starts the seat's client for a session: called with the session's number
    (counted from 0), it returns the started process, which must lead its own process group
    (``start_new_session``). The seat watches it while it waits for the connection, names how it ended
    when the connection closes, and kills its process group when the session closes.
    """

    wants_begin = wants_observe = wants_end = False

    hook_errors = ()  # the table asks after errors of hooks; a seat has none (its faults are raised)

    def __init__(
        self,
        listener: socket.socket,
        label: str,
        action_timeout: float | None = None,
        hand_timeout: float | None = None,
        connect_timeout: float | None = 60.0,
        poll_for: float = 0.0,
        program: Callable[[int], subprocess.Popen] | None = None,
    ) -> None:
        self.listener = listener
        self.label = label
        self.port = listener.getsockname()[1]
        self.action_timeout = action_timeout
        self.hand_timeout = hand_timeout
        self.connect_timeout = connect_timeout
        self.poll_for = poll_for  # seconds each read of an answer polls before it sleeps (`Channel`)
        self.program = program
        self.process: subprocess.Popen | None = None
        self.sessions = 0
        self.table = None
        self.channel: Channel | None = None
        self.gone: str | None = None  # why the seat left, once it has
        self.hand: int | None = None
        self.last = ""
        self.asked: set[str] = set()  # the states this seat was asked to act in, this session
        self.used = 0.0

    def _leave(self, why: str) -> None:
        ended = self._program_ended(ENDED_WAIT)
        self.gone = f"disconnected ({why}{f'; its program {ended}' if ended else ''})"
        if self.hand is not None:
            self.gone = f"in hand {self.hand}: {self.gone}"
        if self.channel is not None:
            self.channel.close()
            self.channel = None
        raise Disconnected(self.gone)

    def _program_ended(self, wait: float = 0.0) -> str | None:
        """How the seat's program ended ("exited with status 1", "was killed by signal 9"), waiting up to
        `wait` seconds for it; None while it runs, or where the seat has none."""
        if self.process is None:
            return None
        try:
            status = self.process.wait(wait) if wait else self.process.poll()
        except subprocess.TimeoutExpired:
            return None
        if status is None:
            return None
        if status < 0:
            return f"was killed by signal {-status} ({signal.Signals(-status).name})"
        return f"exited with status {status}"

    # -- a session: one connection ------------------------------------------------------------------

    def start(self) -> None:
        """Start the seat's program for the next session (where it has one; its errors, such as
        `SandboxUnavailable`, pass on)."""
        if self.program is not None:
            self.process = self.program(self.sessions)
        self.sessions += 1

    def new_session(self, rng_entropy=None, agent=None) -> None:
        """Wait for the client to connect and send its VERSION line (a failure leaves the seat gone: the
        table hears of it, `Disconnected`, at the seat's first line)."""
        self.close_connection()
        self.hand, self.asked = None, set()
        self.gone = self._connect()
        if self.gone is not None and self.channel is not None:
            self.channel.close()
            self.channel = None

    def end_session(self) -> None:
        """The session's last hand is over (the connection closes with `close`)."""

    def _connect(self) -> str | None:
        """Accept the client and read its VERSION line; why not, where it failed."""
        ends = None if self.connect_timeout is None else time.monotonic() + self.connect_timeout
        while True:  # watching the program between looks at the listener, where there is one
            left = None if ends is None else max(0.0, ends - time.monotonic())
            look = _LOOK_EVERY if left is None else min(left, _LOOK_EVERY)
            self.listener.settimeout(look if self.process else left)
            try:
                sock, _ = self.listener.accept()
                break
            except OSError:
                ended = self._program_ended()
                if ended:
                    return f"did not connect to port {self.port}: its program {ended}"
                if ends is not None and time.monotonic() >= ends:
                    return f"did not connect to port {self.port} within {self.connect_timeout} s"
        self.channel = Channel(sock)
        self.channel.send_timeout = self.connect_timeout
        self.channel.poll_for = self.poll_for
        try:
            line = self.channel.readline(self.connect_timeout)
            while line is not None and (not line or line[0] in "#;"):
                line = self.channel.readline(self.connect_timeout)
        except (ConnectionClosed, LineTooLong) as exc:
            ended = self._program_ended(ENDED_WAIT)
            return f"sent no VERSION line ({exc}{f'; its program {ended}' if ended else ''})"
        if line is None:
            return f"sent no VERSION line within {self.connect_timeout} s"
        if not line.startswith("VERSION:2."):
            return f"sent {line[:40]!r} instead of VERSION:2.0.0"
        return None

    def begin(self, lines: tuple[str, ...]) -> None:
        """A hand starts: take the table's seating comment (where it says one) and this seat's first state
        line."""
        self.hand, self.used = self.table.hand_number, 0.0
        for line in lines:
            self.tell(line)

    def tell(self, line: str) -> None:
        """Queue a state line of the hand (sent when the seat is next to act, or the session closes)."""
        if self.channel is None:
            raise Disconnected(self.gone or "not connected")
        self.last = line
        self.channel.queue(line)

    def act(self, view: Owed, deadline: float | None = None) -> int:
        """Read the answer to the last state sent (the table's deadline is ignored: the seat's own apply)."""
        channel = self.channel
        if channel is None:
            raise Disconnected(self.gone or "not connected")
        limit = self._limit()
        if limit is not None and limit <= 0:
            raise self._late(limit)
        self.asked.add(self.last)
        began = time.monotonic()
        wait = limit
        try:
            channel.flush()
            while True:
                try:
                    line = channel.readline(wait)
                except LineTooLong:
                    raise AgentFailure(f"sent a line over {MAX_LINE} bytes") from None
                if line is None:
                    raise self._late(limit)
                if line.startswith(self.last) and line[len(self.last) : len(self.last) + 1] == ":":
                    return self._action(line[len(self.last) + 1 :], view)
                self._stray(line)
                if limit is not None:
                    wait = limit - (time.monotonic() - began)
                    if wait <= 0:
                        raise self._late(limit)
        except ConnectionClosed as exc:
            self._leave(str(exc))
        finally:
            self.used += time.monotonic() - began

    def _limit(self) -> float | None:
        """Seconds this answer may take: the action limit, within what is left of the hand's budget."""
        limit = self.action_timeout
        if self.hand_timeout is not None:
            left = self.hand_timeout - self.used
            limit = left if limit is None else min(limit, left)
        return limit

    def _stray(self, line: str) -> None:
        """A line read while waiting for the answer that is not the answer: a comment, or a late answer
        to an earlier state, is skipped; anything else is an `AgentFailure`."""
        if line and line[0] not in "#;" and line.rpartition(":")[0] not in self.asked:
            if line.startswith("MATCHSTATE:"):
                raise AgentFailure(f"answered a state it was not asked to act in: {line[:60]!r}")
            raise AgentFailure(f"sent {line[:60]!r}, which is no answer")

    def _late(self, limit: float) -> Timeout:
        if self.action_timeout is not None and limit >= self.action_timeout:
            return Timeout(f"no answer within the action limit of {self.action_timeout} s")
        return Timeout(f"ran out of the hand's {self.hand_timeout} s")

    def _action(self, answer: str, view: Owed) -> int:
        action = read_action(answer)
        if action is None:
            raise AgentFailure(f"answered {answer[:20]!r}, not f, c/k or r/b")
        if action not in view.legal_actions:
            raise AgentFailure(f"answered {answer!r}, not legal here")
        return action

    def close_connection(self) -> None:
        """Send what is queued (the last hand's end) and close the connection."""
        if self.channel is not None:
            try:
                self.channel.flush()
            except ConnectionClosed:
                pass
            self.channel.close()
            self.channel = None

    def close(self) -> None:
        """End the session: close the connection, then let the seat's program exit (`EXIT_GRACE` s) and
        kill its process group, so that nothing it started outlives the session."""
        self.close_connection()
        process, self.process = self.process, None
        if process is not None:
            stop(process, EXIT_GRACE)
