"""`pokerlab play` driven through a pseudo-terminal, as a person would: the table, the actions spelled out,
no fold offered when checking is free, a clean end at end of input, the hands kept with --out."""

import os
import pty
import select
import subprocess
import sys
import time

import pytest

from pokerlab.arena.store import read_hands

pytestmark = pytest.mark.skipif(not hasattr(pty, "openpty"), reason="needs a pseudo-terminal")


class Terminal:
    def __init__(self, args):
        self.master, slave = pty.openpty()
        code = "import sys; from pokerlab.interfaces.cli import main; sys.exit(main())"
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, *args], stdin=slave, stdout=slave, stderr=slave, close_fds=True
        )
        os.close(slave)
        self.text = ""

    def expect(self, what: str, timeout: float = 30.0) -> str:
        """Read until `what` appears after what was already consumed; returns the text up to it."""
        deadline = time.monotonic() + timeout
        while what not in self.text:
            assert time.monotonic() < deadline, f"no {what!r} in {self.text[-2000:]!r}"
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the child closed the terminal
                    chunk = b""
                if not chunk and self.process.poll() is not None:
                    raise AssertionError(f"exited before {what!r}: {self.text[-2000:]!r}")
                self.text += chunk.decode()
        head, _, self.text = self.text.partition(what)
        return head + what

    def send(self, line: str) -> None:
        os.write(self.master, line.encode())

    def rest(self) -> str:
        out = self.text
        while True:
            ready, _, _ = select.select([self.master], [], [], 5)
            if not ready:
                break
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk.decode()
        self.process.wait(timeout=30)
        os.close(self.master)
        return out


def test_play_at_a_terminal(tmp_path):
    out = tmp_path / "played"
    term = Terminal(["play", "--opponents", "call,raise", "--hands", "20", "--seed", "4", "--out", str(out)])
    seen = term.expect("your action (")
    assert "you sit in seat 0 against call (seat 1), raise (seat 2)" in seen
    assert "=== hand 1" in seen and "small blind" in seen and "big blind" in seen and "you hold" in seen
    hands_done, free_seen, transcript = 0, False, seen
    for _ in range(40):
        choices = term.expect("? ")
        transcript += choices
        if "[c]heck" in choices and not free_seen:
            assert "[f]old" not in choices  # folding is not offered when checking is free
            term.send("f\n")
            transcript += term.expect("fold anyway? [y/N] ")
            term.send("n\n")  # no: asked again
            transcript += term.expect("? ")
            free_seen = True
        term.send("c\n")
        hands_done = transcript.count("this hand;")
        if hands_done >= 3:
            break
        transcript += term.expect("your action (")
    assert free_seen
    assert "raise (seat 2) raises to" in transcript or "raise (seat 2) bets" in transcript
    assert "flop: " in transcript
    term.send("\x04")  # Ctrl-D: end of input
    rest = term.rest()
    assert term.process.returncode == 0, rest
    assert "end of input: you left the table" in rest and "Traceback" not in rest
    assert "hands you are" in rest
    played = int(rest.split("after ")[-1].split(" hands")[0])
    assert played >= 3
    assert len(list(read_hands(out / "hands.sqlite"))) == played
    assert (out / "summary.json").exists()
