"""Heads-up hands per second over the ACPC protocol on loopback, beside the same hands in-process and beside
bare sockets carrying the same messages.

Ours: `run_dealer` in this process and two ``pokerlab acpc play --agent call`` client processes (three
processes, as a real match runs), timed from the end of the first hand to the end of the last (the
clients' start-up left out). Peers, in the same run: ``play_match(["call", "call"])`` with the same seed
and hands in one process (no protocol at all), and the floor: three processes of bare Python sockets
(TCP_NODELAY, one ``sendall`` a message, buffered ``readline``) exchanging the messages our dealer and
clients exchange in such a match, with no poker and no parsing. A heads-up always-call hand is
eight actions; for each, our dealer sends the actor its lines (one message) and reads one answer, and at
the end of the hand it sends each seat the final line. Each figure is the best of ``--repeats`` runs.
Usage: ``python benchmarks/acpc.py [--hands N] [--seed S] [--repeats R] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import socket
import subprocess
import sys
import time

import pokerlab
from pokerlab.engine import GameConfig
from pokerlab.interfaces.acpc.dealer import AcpcTable, run_dealer

GAME = "holdem.limit.2p.reverse_blinds"
#: the positions that act in a heads-up always-call hand: the button (1) first pre-flop, then 0 and 1
ACTORS = (1, 0, 0, 1, 0, 1, 0, 1)
LINE = b"MATCHSTATE:0:123:cc/cc/c:As2d|/Kh7c3s/9d\r\n"  # a line of typical length


def ours(hands: int, seed: int) -> float:
    """Hands/s of our dealer with two of our always-call clients, each in its own process."""
    first: list[float] = []
    finish = AcpcTable.finish_hand

    def timed(self):
        state = finish(self)
        if self.logged == 1:
            first.append(time.perf_counter())
        return state

    clients = []

    def start(ports):
        for port in ports:
            command = [sys.executable, "-m", "pokerlab.interfaces.cli", "acpc", "play", "--agent", "call"]
            command += ["--game", GAME, "127.0.0.1", str(port)]
            clients.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))

    AcpcTable.finish_hand = timed
    try:
        result = run_dealer(GameConfig(), ["call", "call"], hands, seed, on_ports=start)
        elapsed = time.perf_counter() - first[0]
    finally:
        AcpcTable.finish_hand = finish
        for c in clients:
            c.wait(30)
    assert result.match.hands == hands and not result.left and not any(result.warnings.values())
    local = pokerlab.play_match(["call", "call"], hands=hands, seed=seed)
    assert (result.match.nets == local.nets).all()  # the protocol played the same hands
    return (hands - 1) / elapsed


def in_process(hands: int, seed: int) -> float:
    """Hands/s of the same match in one process, no protocol."""
    start = time.perf_counter()
    result = pokerlab.play_match(["call", "call"], hands=hands, seed=seed)
    elapsed = time.perf_counter() - start
    assert result.hands == hands
    return hands / elapsed


def _echo(port: int) -> None:
    """A floor client: answer every message that ends in a question, read the others."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    reader = sock.makefile("rb")
    sock.sendall(b"VERSION:2.0.0\r\n")
    for line in reader:
        if line.endswith(b"?\r\n"):
            sock.sendall(line[:-3] + b":c\r\n")
    sock.close()


def floor(hands: int) -> float:
    """Hands/s of bare sockets between three processes carrying our messages of a heads-up call match."""
    listeners = []
    for _ in range(2):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        listeners.append(s)
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_echo, args=(s.getsockname()[1],)) for s in listeners]
    for w in workers:
        w.start()
    conns = []
    for s in listeners:
        conn, _ = s.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conns.append((conn, conn.makefile("rb")))
        assert conns[-1][1].readline().startswith(b"VERSION")
    ask = LINE[:-2] + b"?\r\n"
    start = time.perf_counter()
    for hand in range(hands):
        for position in ACTORS:
            conn, reader = conns[(position + hand) % 2]  # the seats swap positions every hand
            conn.sendall(ask)
            assert reader.readline().endswith(b":c\r\n")
        for conn, _ in conns:
            conn.sendall(LINE)
    elapsed = time.perf_counter() - start
    for (conn, reader), s in zip(conns, listeners, strict=True):
        reader.close()
        conn.close()
        s.close()
    for w in workers:
        w.join(30)
    return hands / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rates = {
        "acpc_loopback": max(ours(args.hands, args.seed) for _ in range(args.repeats)),
        "play_match": max(in_process(args.hands, args.seed) for _ in range(args.repeats)),
        "bare_sockets": max(floor(args.hands) for _ in range(args.repeats)),
    }
    if args.json:
        print(json.dumps({"hands": args.hands, "seed": args.seed, **rates}))
        return
    ours_rate = rates["acpc_loopback"]
    print(f"heads-up always-call, {args.hands} hands, seed {args.seed}, best of {args.repeats}:")
    print(
        f"  ACPC over loopback (dealer + 2 client processes): {ours_rate:8.0f} hands/s (the issue asks 1,000)"
    )
    print(
        f"  play_match in one process:                       {rates['play_match']:8.0f} hands/s"
        f"  (protocol costs {rates['play_match'] / ours_rate:.1f}x)"
    )
    print(
        f"  bare sockets, same messages, 3 processes:        {rates['bare_sockets']:8.0f} hands/s"
        f"  (ours at {ours_rate / rates['bare_sockets']:.2f} of this floor)"
    )


if __name__ == "__main__":
    main()
