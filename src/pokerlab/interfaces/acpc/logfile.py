"""A dealer's log file written in batches of whole lines: the log and the transcript of a match.

A dealer writes a line to its log every hand (and to its transcript every action); writing each to the
file at once costs a system call a hand, about as much as a seat's message. `LogFile` keeps the lines
and writes them together (one ``write`` of whole lines, so the file never ends inside a line) once
`FLUSH_EVERY` seconds have passed since the last write, checked at the end of each hand (`hand_done`),
and whenever the dealer stops: `close` in its ``finally``, and `stop_on_signals` turns SIGTERM and SIGHUP
into `SystemExit` (Ctrl-C is already `KeyboardInterrupt`), so that a dealer that is stopped, fails or is
interrupted keeps every hand it finished; one killed outright (SIGKILL) loses at most the hands of the
last `FLUSH_EVERY` seconds, and its file still reads back whole.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

#: Seconds between the writes of a dealer's log (at most this much is lost if the dealer is killed).
FLUSH_EVERY = 1.0
#: The signals a dealer turns into `SystemExit` while it plays, to write its logs before it stops.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
_writing = 0  # `LogFile.flush` calls under way: a stop signal waits for them
_deferred: list[int] = []  # a stop signal that came during one


class LogFile:
    """Lines for `file`, kept and written in batches (the module doc); ``every``: seconds between writes
    (0: one write a hand)."""

    def __init__(self, file: TextIO, every: float = FLUSH_EVERY) -> None:
        self.file = file
        self.every = every
        self.pending: list[str] = []
        self.due = time.monotonic() + every

    @classmethod
    def open(cls, path: str | Path, mode: str = "w") -> LogFile:
        """The file at `path` opened (``mode`` "w" or "a") as a `LogFile`."""
        return cls(open(path, mode))  # noqa: SIM115 - closed by `close`

    def __enter__(self) -> LogFile:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def write(self, text: str) -> None:
        """Keep `text` (whole lines, each with its line end) for the next write."""
        self.pending.append(text)

    def hand_done(self) -> None:
        """A hand is over: write what is kept if `every` seconds have passed since the last write."""
        if time.monotonic() >= self.due:
            self.flush()

    def flush(self) -> None:
        """Write what is kept, now (a stop signal that comes meanwhile takes effect once it is written, so
        no line is written twice or lost)."""
        global _writing
        pending = self.pending
        _writing += 1
        try:
            if pending:
                self.file.write("".join(pending))
                self.file.flush()
                pending.clear()
        finally:
            _writing -= 1
        self.due = time.monotonic() + self.every
        if _deferred and not _writing:
            raise SystemExit(128 + _deferred.pop())

    def close(self) -> None:
        """Write what is kept and close the file."""
        try:
            self.flush()
        finally:
            self.file.close()


def _stop(signum: int, frame) -> None:
    if _writing:
        _deferred.append(signum)
    else:
        raise SystemExit(128 + signum)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise `SystemExit` (status 128 + the signal's number), so the
    dealer's ``finally`` writes its logs; the handlers before are put back after. Outside the main thread
    (where no handler can be set) it changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {s: signal.signal(s, _stop) for s in STOP_SIGNALS}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
