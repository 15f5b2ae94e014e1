"""The Python work of our ACPC dealer and client alone, without sockets: CPU a hand, beside `play_match`.

The dealer plays heads-up always-call hands at `run_dealer` with every seat's socket replaced by a channel
that answers a call to the last line it was sent (no other process); the lines each seat was sent are
kept and then read by an `AcpcClient` with the always-call agent from a channel that plays them back. So
the figures are the protocol's own Python work a hand (the engine's included), none of the system calls
and process switches of a real match (`benchmarks/acpc.py` measures those). Under
``valgrind --tool=callgrind`` the difference between runs with ``--only dealer`` at two numbers of hands
gives the dealer's instructions a hand, which a loaded machine does not change; the client's is the same
difference of ``--only client`` runs less the dealer's (the dealer plays to record the lines). With
``--reference`` the dealer is the one of ``pokerlab acpc dealer`` (`run_reference`: each line sent to
every seat as it happens, the log and the transcript written), and the client reads those lines: the
figures that go with the match beside the reference server in `benchmarks/acpc.py`.
Usage: ``python benchmarks/acpc_alone.py [--hands N] [--seed S] [--only dealer|client] [--reference]``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import tempfile
import time
from collections.abc import Iterator

import pokerlab
from pokerlab.agents import make_agent
from pokerlab.engine import GameConfig
from pokerlab.interfaces.acpc.channel import ConnectionClosed
from pokerlab.interfaces.acpc.client import AcpcClient
from pokerlab.interfaces.acpc.dealer import run_dealer
from pokerlab.interfaces.acpc.refdealer import parse_reference_command, run_reference
from pokerlab.interfaces.acpc.seat import AcpcPlayer


class _CallingSeat:
    """A dealer's channel to a client that calls: keeps what it is sent, answers the last line with ':c'."""

    def __init__(self) -> None:
        self.queued: list[str] = []
        self.sent: list[str] = []
        self.send_timeout = None

    def queue(self, line: str) -> None:
        self.queued.append(line)

    def send(self, line: str) -> None:
        self.sent.append(line)

    def flush(self) -> None:
        self.sent += self.queued
        self.queued = []

    def readline(self, timeout: float | None = None) -> str:
        return self.sent[-1] + ":c"

    def close(self) -> None:
        self.flush()


class _PlayBack:
    """A client's channel that plays back a dealer's lines, then closes."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines[::-1]

    def readline(self, timeout: float | None = None) -> str:
        if not self.lines:
            raise ConnectionClosed("the recorded lines ended")
        return self.lines.pop()

    def send(self, line: str) -> None:
        pass


@contextlib.contextmanager
def calling_seats() -> Iterator[list[_CallingSeat]]:
    """Within the block, every dealer seat's channel is a `_CallingSeat` (listed as they are made)."""
    seats: list[_CallingSeat] = []

    def new_session(self, rng_entropy=None, agent=None) -> None:
        self.gone, self.hand, self.asked = None, None, set()
        self.channel = _CallingSeat()
        seats.append(self.channel)

    real = AcpcPlayer.new_session
    AcpcPlayer.new_session = new_session
    try:
        yield seats
    finally:
        AcpcPlayer.new_session = real


def dealer_alone(hands: int, seed: int) -> tuple[float, list[str]]:
    """CPU seconds a hand of `run_dealer` with calling seats, and the lines seat 0 was sent."""
    with calling_seats() as seats:
        cpu = time.process_time()
        result = run_dealer(GameConfig(), ["call", "call"], hands, seed)
        cpu = time.process_time() - cpu
    assert result.match.hands == hands and not any(result.match.faults)
    return cpu / hands, seats[0].sent


def reference_alone(hands: int, seed: int) -> tuple[float, list[str]]:
    """CPU seconds a hand of our reference-mode dealer (`run_reference`, its log and transcript written to
    a scratch folder) with calling seats, and the lines seat 0 was sent (each state as it happens)."""
    here = os.getcwd()
    with calling_seats() as seats, tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            command, _ = parse_reference_command(
                ["m", "holdem.limit.2p.reverse_blinds", str(hands), str(seed), "a", "b", "-T", "-q"]
            )
            cpu = time.process_time()
            run_reference(command, stdout=io.StringIO(), stderr=io.StringIO())
            cpu = time.process_time() - cpu
        finally:
            os.chdir(here)
    return cpu / hands, seats[0].sent


def client_alone(lines: list[str], hands: int) -> float:
    """CPU seconds a hand of an always-call `AcpcClient` reading `lines`."""
    client = AcpcClient(make_agent("call"), GameConfig(), _PlayBack(lines))
    cpu = time.process_time()
    report = client.play()
    cpu = time.process_time() - cpu
    assert report.hands == hands and not report.warnings
    return cpu / hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("dealer", "client"))
    parser.add_argument(
        "--reference",
        action="store_true",
        help="the dealer in reference mode (acpc dealer: each line sent as it happens, log and transcript)",
    )
    args = parser.parse_args()
    dealer, lines = (reference_alone if args.reference else dealer_alone)(args.hands, args.seed)
    print(f"heads-up always-call, {args.hands} hands, seed {args.seed}, no sockets:")
    if args.only != "client":
        print(f"  dealer alone    {dealer * 1e6:6.0f} us CPU/hand")
    if args.only != "dealer":
        print(f"  client alone    {client_alone(lines, args.hands) * 1e6:6.0f} us CPU/hand")
    if args.only is None:
        cpu = time.process_time()
        pokerlab.play_match(["call", "call"], hands=args.hands, seed=args.seed)
        cpu = (time.process_time() - cpu) / args.hands
        print(f"  play_match      {cpu * 1e6:6.0f} us CPU/hand (no protocol)")


if __name__ == "__main__":
    main()
