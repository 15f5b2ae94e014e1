"""Protocol lines over a TCP socket, with deadlines: the one piece of socket code the client and dealer share.

Lines end in "\\r\\n" when sent and in "\\n" (a "\\r" before it dropped) when read (ACPC protocol 2.0.0). A
line longer than `MAX_LINE` bytes is skipped up to its end and reported as `LineTooLong`. Lines can be
queued and go out together at the next `flush` (one system call, which the other side reads at once);
what is flushed is sent at once (TCP_NODELAY), as the protocol is one short line at a time.

A channel may also poll (`poll_for`): before a read sleeps, it asks the socket again and again without
waiting, for up to that long, yielding the processor between asks to any other process ready to run. A
reply that comes within it is read by a process that never slept, which spares the wake-up: on a virtual
machine whose processors idle between the messages, the wake-up is most of a loopback round trip (busy
polling, as network stacks do for latency; it costs the CPU it polls for when nothing else wants it).
"""

from __future__ import annotations

import math
import os
import select
import socket
import struct
import time

from pokerlab.errors import ConfigError, PokerlabError
from pokerlab.interfaces.acpc.matchstate import MAX_LINE

_TIMEVAL = struct.Struct("@ll")  # struct timeval: seconds, microseconds


class ConnectionClosed(PokerlabError):
    """The other side closed the connection (or it broke)."""


class LineTooLong(PokerlabError):
    """A line longer than the protocol allows arrived; it was skipped."""


class Channel:
    """Reads and writes lines on a connected socket.

    The socket blocks, but no call waits unbounded except a read without a deadline: a read with one
    waits at most the time left, rounded up to the millisecond, in the kernel (``SO_RCVTIMEO``, set again
    only when that changes), and a send never waits in the kernel (``MSG_DONTWAIT``), polling while the
    other side reads for at most `send_timeout`. So a read and a send are one system call each (Python's
    own socket timeouts would add a mode switch and a poll to each). Each receive is split into lines at
    once, kept until read.
    """

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setblocking(True)
        self.writable = select.poll()
        self.writable.register(sock, select.POLLOUT)
        self.lines: list[bytes | None] = []  # lines received and not yet read, the next one last
        self.partial = b""  # the start of a line whose end has not come
        self.skipping = False  # inside an over-long line, dropping bytes up to its end
        self.queued: list[str] = []
        self.receive_limit = 0  # the socket's SO_RCVTIMEO in milliseconds (0: none)
        #: seconds a send may wait for the other side to read (None: no limit)
        self.send_timeout: float | None = None
        #: seconds a read polls without sleeping before it sleeps (0: it sleeps at once)
        self.poll_for = 0.0

    def readline(self, timeout: float | None = None) -> str | None:
        """The next line (without its end); None when `timeout` seconds pass first.

        Raises `ConnectionClosed` at the end of the stream, `LineTooLong` for a line over `MAX_LINE` bytes.
        """
        if not self.lines:
            ends = None if timeout is None else time.monotonic() + timeout
            while not self.lines:
                if not self._receive(ends):
                    return None
        line = self.lines.pop()
        if line is None or (len(line) > MAX_LINE and len(line.rstrip(b"\r")) > MAX_LINE):
            raise LineTooLong(f"a line over {MAX_LINE} bytes was skipped")
        return line.decode("utf-8", "replace").rstrip("\r")

    def _receive(self, ends: float | None) -> bool:
        """Receive what has come (waiting until `ends`, a `time.monotonic` time; None: no limit) and split
        it into lines; False when the deadline passes first."""
        data = self._poll(ends) if self.poll_for > 0 else None
        if data is None:
            data = self._sleep_receive(ends)
            if data is None:
                return False
        if not data:
            raise ConnectionClosed("the other side closed the connection")
        lines: list[bytes | None] = (self.partial + data).split(b"\n")
        self.partial = lines.pop()
        if self.skipping and lines:
            lines[0] = None  # the end of the over-long line
            self.skipping = False
        if len(self.partial) > MAX_LINE + 1:
            self.partial, self.skipping = b"", True
        lines.reverse()
        self.lines = lines
        return True

    def _sleep_receive(self, ends: float | None) -> bytes | None:
        """What a receive sleeping until `ends` (a `time.monotonic` time; None: no limit) gets: None when
        the deadline passes first."""
        limit = 0
        if ends is not None:
            left = ends - time.monotonic()
            if left <= 0:
                return None
            limit = math.ceil(left * 1000)
        try:
            if limit != self.receive_limit:
                seconds, ms = divmod(limit, 1000)
                self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, _TIMEVAL.pack(seconds, ms * 1000))
                self.receive_limit = limit
            return self.sock.recv(65536)
        except BlockingIOError:  # SO_RCVTIMEO ran out: the deadline passed
            return None
        except OSError as exc:
            raise ConnectionClosed(f"the connection broke ({exc.strerror or exc})") from None

    def _poll(self, ends: float | None) -> bytes | None:
        """What a receive without waiting gets, asked until something comes or `poll_for` seconds (or the
        deadline `ends`) pass, the processor yielded between asks: None when nothing came."""
        stop = time.monotonic() + self.poll_for
        if ends is not None and ends < stop:
            stop = ends
        recv = self.sock.recv
        while True:
            try:
                return recv(65536, socket.MSG_DONTWAIT)
            except BlockingIOError:
                if time.monotonic() >= stop:
                    return None
                os.sched_yield()  # a process ready here (perhaps the one we wait for) goes first
            except OSError as exc:
                raise ConnectionClosed(f"the connection broke ({exc.strerror or exc})") from None

    def queue(self, line: str) -> None:
        """Keep a line to send with the next `flush`."""
        self.queued.append(line)

    def flush(self) -> None:
        """Send the queued lines; `ConnectionClosed` when the other side is gone or reads none of them
        within `send_timeout`."""
        if self.queued:
            data = ("\r\n".join(self.queued) + "\r\n").encode()
            self.queued = []
            self._send(data)

    def send(self, line: str) -> None:
        """Send one line (and any queued before it); `ConnectionClosed` when the other side is gone."""
        if self.queued:
            self.queued.append(line)
            self.flush()
        else:
            self._send((line + "\r\n").encode())

    def _send(self, data: bytes) -> None:
        try:
            sent = self.sock.send(data, socket.MSG_DONTWAIT)
        except BlockingIOError:
            sent = 0
        except OSError as exc:
            raise ConnectionClosed(f"cannot send ({exc.strerror or exc})") from None
        if sent == len(data):
            return
        view = memoryview(data)[sent:]
        ends = None if self.send_timeout is None else time.monotonic() + self.send_timeout
        while view:
            try:
                view = view[self.sock.send(view, socket.MSG_DONTWAIT) :]
            except BlockingIOError:
                if not _wait(self.writable, ends):
                    raise ConnectionClosed(f"the other side read nothing for {self.send_timeout} s") from None
            except OSError as exc:
                raise ConnectionClosed(f"cannot send ({exc.strerror or exc})") from None

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


#: The longest a read may poll before it sleeps, in seconds.
MAX_POLL = 0.1


def check_poll(seconds: float) -> None:
    """`ConfigError` unless `seconds` is a polling time a channel takes: 0 to `MAX_POLL`."""
    number = isinstance(seconds, int | float) and not isinstance(seconds, bool)
    if not (number and 0 <= seconds <= MAX_POLL):
        got = f"{seconds * 1e6:g}" if number else repr(seconds)
        raise ConfigError(f"a read polls 0 to {MAX_POLL * 1e6:.0f} microseconds before it sleeps, got {got}")


def _wait(poller: select.poll, ends: float | None) -> bool:
    """Wait until `poller`'s socket is ready (or in error, which the next call reports); False when the
    deadline `ends` (a `time.monotonic` time; None: never) passes first."""
    while True:
        if ends is None:
            wait = None
        else:
            left = ends - time.monotonic()
            if left <= 0:
                return False
            wait = math.ceil(left * 1000)  # milliseconds, rounded up: never a busy loop
        try:
            return bool(poller.poll(wait)) or ends is None
        except InterruptedError:
            continue
