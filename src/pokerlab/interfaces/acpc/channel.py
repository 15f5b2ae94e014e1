"""Protocol lines over a TCP socket, with deadlines: the one piece of socket code the client and dealer share.

Lines end in "\\r\\n" when sent and in "\\n" (a "\\r" before it dropped) when read (ACPC protocol 2.0.0). A
line longer than `MAX_LINE` bytes is skipped up to its end and reported as `LineTooLong`. Lines can be
queued and go out together at the next `flush` (one system call, which the other side reads at once);
what is flushed is sent at once (TCP_NODELAY), as the protocol is one short line at a time.
"""

from __future__ import annotations

import math
import select
import socket
import time

from pokerlab.errors import PokerlabError
from pokerlab.interfaces.acpc.matchstate import MAX_LINE


class ConnectionClosed(PokerlabError):
    """The other side closed the connection (or it broke)."""


class LineTooLong(PokerlabError):
    """A line longer than the protocol allows arrived; it was skipped."""


class Channel:
    """Reads and writes lines on a connected socket.

    The socket stays non-blocking and every wait is a `poll` with the time left, so a read is a poll and
    a receive, and a send one system call while the other side keeps reading (Python's own socket
    timeouts would add a mode switch and a poll to each).
    """

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setblocking(False)
        self.readable = select.poll()
        self.readable.register(sock, select.POLLIN)
        self.writable = select.poll()
        self.writable.register(sock, select.POLLOUT)
        self.buffer = b""
        self.queued: list[str] = []
        self.skipping = False  # inside an over-long line, dropping bytes up to its end
        #: seconds a send may wait for the other side to read (None: no limit)
        self.send_timeout: float | None = None

    def readline(self, timeout: float | None = None) -> str | None:
        """The next line (without its end); None when `timeout` seconds pass first.

        Raises `ConnectionClosed` at the end of the stream, `LineTooLong` for a line over `MAX_LINE` bytes.
        """
        ends = None if timeout is None else time.monotonic() + timeout
        while True:
            i = self.buffer.find(b"\n")
            if i >= 0:
                line, self.buffer = self.buffer[:i].rstrip(b"\r"), self.buffer[i + 1 :]
                if self.skipping or len(line) > MAX_LINE:
                    self.skipping = False
                    raise LineTooLong(f"a line over {MAX_LINE} bytes was skipped")
                return line.decode("utf-8", "replace")
            if len(self.buffer) > MAX_LINE + 1:
                self.buffer, self.skipping = b"", True
            if not _wait(self.readable, ends):
                return None
            try:
                data = self.sock.recv(65536)
            except BlockingIOError:
                continue
            except OSError as exc:
                raise ConnectionClosed(f"the connection broke ({exc.strerror or exc})") from None
            if not data:
                raise ConnectionClosed("the other side closed the connection")
            self.buffer += data

    def queue(self, line: str) -> None:
        """Keep a line to send with the next `flush`."""
        self.queued.append(line)

    def flush(self) -> None:
        """Send the queued lines; `ConnectionClosed` when the other side is gone or reads none of them
        within `send_timeout`."""
        if not self.queued:
            return
        data = memoryview("\r\n".join(self.queued).encode() + b"\r\n")
        self.queued = []
        ends = None if self.send_timeout is None else time.monotonic() + self.send_timeout
        while data:
            try:
                data = data[self.sock.send(data) :]
            except BlockingIOError:
                if not _wait(self.writable, ends):
                    raise ConnectionClosed(f"the other side read nothing for {self.send_timeout} s") from None
            except OSError as exc:
                raise ConnectionClosed(f"cannot send ({exc.strerror or exc})") from None

    def send(self, line: str) -> None:
        """Send one line (and any queued before it); `ConnectionClosed` when the other side is gone."""
        self.queued.append(line)
        self.flush()

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


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
