"""A remote seat: the player at a table is an ACPC client at the other end of a socket.

`AcpcPlayer` answers the calls of our other players (`new_session`, `act`, `close`), and takes the
lines the table makes for it (`begin`, `tell`) as others take their notifications, so the dealer is our
`Table` with remote seats. It follows the ACPC dealer's rules
(ACPC protocol 2.0.0):

* a session starts when the client connects and sends ``VERSION:2.<minor>.<rev>``; a client that does not
  connect, stays silent or sends anything else first is gone for the session (its hands are checked or
  folded for);
* every state of the hand goes to every seat (the start, each action, the end with the cards shown
  down); only the actor's answer is read. A seat's lines are queued and sent together when it is to act
  next, or when the session ends (one message instead of one per action: the same lines, in the same
  order; a hand's last line goes with the next hand's first);
* an answer is the line sent, ':' and an action: one that repeats an earlier state is skipped, garbage and
  comments are skipped, an unknown or illegal action is a warning and becomes a call;
* a deadline per action and a time budget per hand: an answer that does not come in time is a `Timeout`
  (the table checks or folds for the seat), a closed connection is `Disconnected` (folded on), and so is
  a client that reads none of its lines for the connect limit (the dealer never blocks on a full socket).
"""

from __future__ import annotations

import logging
import socket
import time

from pokerlab.actions import ACTION_LETTERS, CALL
from pokerlab.arena.players import Disconnected, Timeout
from pokerlab.engine import SeatView
from pokerlab.interfaces.acpc.channel import Channel, ConnectionClosed, LineTooLong

log = logging.getLogger(__name__)
#: Warnings logged per seat before they are only counted.
LOGGED_WARNINGS = 3
_ACTIONS = {letter: action for action, letter in enumerate(ACTION_LETTERS)}  # an answer's action letter


class AcpcPlayer:
    """One seat served over `listener` (a bound, listening socket). The table (`AcpcTable`, which sets
    ``table`` to itself) makes every seat's lines and hands them to `begin` and `tell` as it hands others
    their notifications, so a seat wants none of those."""

    wants_begin = wants_observe = wants_end = False

    def __init__(
        self,
        listener: socket.socket,
        label: str,
        action_timeout: float | None = None,
        hand_timeout: float | None = None,
        connect_timeout: float = 60.0,
        poll_for: float = 0.0,
    ) -> None:
        self.listener = listener
        self.label = label
        self.action_timeout = action_timeout
        self.hand_timeout = hand_timeout
        self.connect_timeout = connect_timeout
        self.poll_for = poll_for  # seconds each read of an answer polls before it sleeps (`Channel`)
        self.table = None
        self.channel: Channel | None = None
        self.gone: str | None = None  # why the seat left, once it has
        self.warnings = 0
        self.last = ""
        self.used = 0.0

    def _warn(self, text: str) -> None:
        self.warnings += 1
        if self.warnings <= LOGGED_WARNINGS:
            log.warning("seat %s: %s", self.label, text)

    def _leave(self, why: str) -> None:
        hand = getattr(self, "hand", None)
        self.gone = f"disconnected: {why}" + ("" if hand is None else f" (in hand {hand})")
        if self.channel is not None:
            self.channel.close()
            self.channel = None
        raise Disconnected(self.gone)

    # -- a session: one connection ------------------------------------------------------------------

    def new_session(self, rng_entropy=None, agent=None) -> None:
        """Wait for the client to connect and send its VERSION line (a failure leaves the seat gone)."""
        self.close()
        self.gone, self.hand, self.warnings = None, None, 0
        self.listener.settimeout(self.connect_timeout)
        try:
            sock, _ = self.listener.accept()
        except OSError:
            self.gone = f"did not connect within {self.connect_timeout} s"
            return
        self.channel = Channel(sock)
        self.channel.send_timeout = self.connect_timeout
        self.channel.poll_for = self.poll_for
        try:
            line = self.channel.readline(self.connect_timeout)
            while line is not None and (not line or line[0] in "#;"):
                line = self.channel.readline(self.connect_timeout)
        except (ConnectionClosed, LineTooLong) as exc:
            line, why = None, str(exc)
        else:
            why = f"sent no VERSION line within {self.connect_timeout} s"
        if line is not None and not line.startswith("VERSION:2."):
            why = f"sent {line[:40]!r} instead of VERSION:2.0.0"
            line = None
        if line is None:
            self.gone = why
            self.channel.close()
            self.channel = None

    def begin(self, lines: tuple[str, str]) -> None:
        """A hand starts: queue the table's seating comment and this seat's first state line."""
        self.hand, self.used = self.table.hand_number, 0.0
        comment, line = lines
        self.tell(comment)
        self.tell(line)

    def tell(self, line: str) -> None:
        """Queue a state line of the hand (sent when the seat is next to act, or the session closes)."""
        if self.channel is None:
            raise Disconnected(self.gone or "not connected")
        self.last = line
        self.channel.queue(line)

    def act(self, view: SeatView, deadline: float | None = None) -> int:
        """Read the answer to the last state sent (the table's deadline is ignored: the seat's own apply)."""
        channel = self.channel
        if channel is None:
            raise Disconnected(self.gone or "not connected")
        limit = self.action_timeout
        if self.hand_timeout is not None:
            left = self.hand_timeout - self.used
            limit = left if limit is None else min(limit, left)
        if limit is not None and limit <= 0:
            raise Timeout(self._late(limit))
        began = time.monotonic()
        wait = limit
        try:
            channel.flush()
            while True:
                try:
                    line = channel.readline(wait)
                except LineTooLong as exc:
                    self._warn(str(exc))
                    line = ""
                if line is None:
                    raise Timeout(self._late(limit))
                state, _, answer = line.rpartition(":")
                if state == self.last:
                    return self._action(answer, view)
                if line and line[0] not in "#;" and not line.startswith("MATCHSTATE:"):
                    self._warn(f"skipped garbage {line[:60]!r}")
                # else a comment, or an answer to an earlier state: late, skipped
                if limit is not None:
                    wait = limit - (time.monotonic() - began)
                    if wait <= 0:
                        raise Timeout(self._late(limit))
        except ConnectionClosed as exc:
            self._leave(str(exc))
        finally:
            self.used += time.monotonic() - began

    def _late(self, limit: float) -> str:
        if self.action_timeout is not None and limit >= self.action_timeout:
            return f"no answer within the action limit of {self.action_timeout} s"
        return f"ran out of the hand's {self.hand_timeout} s"

    def _action(self, answer: str, view: SeatView) -> int:
        action = _ACTIONS.get(answer)
        if action is None:
            self._warn(f"answered {answer[:20]!r}, not f, c or r; taken as a call")
            return CALL
        if action not in view.legal_actions:
            self._warn(f"answered {answer!r}, not legal here; taken as a call")
            return CALL
        return action

    def close(self) -> None:
        if self.channel is not None:
            try:
                self.channel.flush()  # the last hand's end
            except ConnectionClosed:
                pass
            self.channel.close()
            self.channel = None
