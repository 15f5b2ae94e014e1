"""Heads-up hands per second over the ACPC protocol on loopback, beside the same hands in-process and beside
bare sockets carrying the same messages.

Ours: `run_dealer` in this process and two ``pokerlab acpc play --agent call`` client processes (three
processes, as a real match runs), timed from the end of the first hand to the end of the last (the
clients' start-up left out). Peers, in the same run: ``play_match(["call", "call"])`` with the same seed
and hands in one process (no protocol at all), and the floor: three processes of bare Python sockets
(TCP_NODELAY, one ``sendall`` a message, buffered ``readline``) exchanging the messages our dealer and
clients exchange in such a match, with no poker and no parsing. A heads-up always-call hand is eight
actions; for each, our dealer sends the actor the lines queued for it since it last acted (one message; a
hand's final line goes with the next hand's first) and reads one answer. Beside each rate, the CPU time
(user and system) a hand costs all its processes together, the clients' start-up (measured alone) taken
off; for ours also each process's own (less sensitive to a loaded machine than the rate: the protocol is
sequential, so on an idle machine a hand's wall time is about the CPU on its critical path plus the
loopback wake-ups). Ours is measured twice, alternated: with the dealer polling ``--poll-us`` (default
`DEALER_POLL`, the dealer's own) before each read of an answer sleeps, and with the dealer sleeping at
once (``--poll-us 0``): on a machine whose processors idle between messages the wake-ups are most of a
round trip, which polling spares the dealer (`Channel.poll_for`). Each figure is the best of
``--repeats`` runs.

Against the reference server (``--reference DIR``, default ``$POKERLAB_ACPC_SERVER``: a folder where
``project_acpc_server`` was built from source, its dealer bound to loopback; docs/acpc.md says how): its
``dealer`` with two ``example_player``s, the same dealer with two of our always-call clients (target: at
least 0.8x the hands/s), and our ``pokerlab acpc dealer`` with the reference's command line and two
``example_player``s (target: at least 1.0x), alternated ``--repeats`` times, each timed by its own
transcript (``-T``: from the first state sent to the last answer read, so no program's start-up counts).
``example_player`` acts at random (it raises, calls and folds), so actions a hand are printed beside.
Where no reference is built, the section says so and is skipped.
Usage: ``python benchmarks/acpc.py [--hands N] [--seed S] [--repeats R] [--poll-us U] [--reference DIR]
[--json]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import socket
import subprocess
import sys
import time

import pokerlab
from pokerlab.engine import GameConfig
from pokerlab.interfaces.acpc.dealer import DEALER_POLL, AcpcTable, run_dealer

GAME = "holdem.limit.2p.reverse_blinds"
#: the positions that act in a heads-up always-call hand: the button (1) first pre-flop, then 0 and 1
ACTORS = (1, 0, 0, 1, 0, 1, 0, 1)
LINE = b"MATCHSTATE:0:123:cc/cc/c:As2d|/Kh7c3s/9d\r\n"  # a line of typical length


def _client(port: int, poll_us: float = 0.0) -> subprocess.Popen:
    command = [sys.executable, "-m", "pokerlab.interfaces.cli", "acpc", "play", "--agent", "call"]
    command += ["--game", GAME, "--poll-us", str(poll_us), "127.0.0.1", str(port)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _cpu_of(process: subprocess.Popen) -> float:
    """Wait for a child process; the CPU seconds (user and system) it used."""
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0  # reaped here
    return usage.ru_utime + usage.ru_stime


def client_start_cpu() -> float:
    """CPU seconds a client process spends starting (imports, agent) and stopping, without a dealer: the
    least of three."""
    return min(_cpu_of(_client(1)) for _ in range(3))  # nobody listens on port 1: it starts, fails, exits


def ours(
    hands: int, seed: int, start_cpu: float, poll_us: tuple[float, float] = (0.0, 0.0)
) -> tuple[float, float, list[float]]:
    """Hands/s of our dealer with two of our always-call clients, each in its own process; the CPU seconds
    a hand costs the dealer (from the end of the first hand) and each client (its start-up taken off).
    ``poll_us``: how long the dealer's and the clients' reads poll before they sleep."""
    first: list[float] = []
    finish = AcpcTable.finish_hand

    def timed(self):
        state = finish(self)
        if self.logged == 1:
            first.append(time.perf_counter())
            first.append(time.process_time())
        return state

    clients: list[subprocess.Popen] = []
    AcpcTable.finish_hand = timed
    try:
        result = run_dealer(
            GameConfig(),
            ["call", "call"],
            hands,
            seed,
            on_ports=lambda ports: clients.extend(_client(port, poll_us[1]) for port in ports),
            poll_for=poll_us[0] / 1e6,
        )
        elapsed, dealer_cpu = time.perf_counter() - first[0], time.process_time() - first[1]
    finally:
        AcpcTable.finish_hand = finish
        clients_cpu = [_cpu_of(c) - start_cpu for c in clients]
    assert result.match.hands == hands and not result.left and not any(result.match.faults)
    local = pokerlab.play_match(["call", "call"], hands=hands, seed=seed)
    assert (result.match.nets == local.nets).all()  # the protocol played the same hands
    return (hands - 1) / elapsed, dealer_cpu / (hands - 1), [c / hands for c in clients_cpu]


def in_process(hands: int, seed: int) -> tuple[float, float]:
    """Hands/s of the same match in one process, no protocol, and its CPU seconds a hand."""
    start, cpu = time.perf_counter(), time.process_time()
    result = pokerlab.play_match(["call", "call"], hands=hands, seed=seed)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert result.hands == hands
    return hands / elapsed, cpu / hands


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


def floor(hands: int) -> tuple[float, float]:
    """Hands/s of bare sockets between three processes carrying our messages of a heads-up call match, and
    the CPU seconds a hand costs the three."""
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
    queued = [b"", b""]  # what each seat is sent with its next question
    start, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
    for hand in range(hands):
        for position in ACTORS:
            seat = (position + hand) % 2  # the seats swap positions every hand
            conn, reader = conns[seat]
            conn.sendall(queued[seat] + ask)
            queued[seat] = b""
            queued[1 - seat] += LINE  # the other seat's state after this action
            assert reader.readline().endswith(b":c\r\n")
        for seat in (0, 1):
            queued[seat] += LINE  # the hand's end
    for seat, (conn, _) in enumerate(conns):
        conn.sendall(queued[seat])
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    for (conn, reader), s in zip(conns, listeners, strict=True):
        reader.close()
        conn.close()
        s.close()
    for w in workers:
        w.join(30)
    return hands / elapsed, (cpu + _children_cpu() - children) / hands


def _transcript_rate(path: str) -> tuple[float, float]:
    """Hands/s and actions a hand of a match by its transcript (``ACTION HAND SENT ANSWERED`` lines)."""
    with open(path) as f:
        rows = [line.split() for line in f if line.strip()]
    hands = int(rows[-1][1]) + 1
    return hands / (float(rows[-1][3]) - float(rows[0][2])), len(rows) / hands


def reference_match(reference: str, dealer: str, client: str, hands: int, seed: int, folder: str) -> tuple:
    """(hands/s, actions a hand, the dealer's CPU seconds a hand, a client's) of a heads-up match in
    `folder`: ``dealer`` "reference" or "ours", ``client`` "example" (the reference's ``example_player``)
    or "ours" (``acpc play --agent call``); start-ups included in the CPU."""
    game = os.path.join(folder, "holdem.limit.2p.reverse_blinds.game")
    if not os.path.exists(game):
        from pokerlab.interfaces.acpc.gamedef import load_gamedef

        with open(game, "w") as f:
            f.write(load_gamedef(GAME).to_text())
    name = f"{dealer}-{client}"
    program = [os.path.join(reference, "dealer")]
    if dealer == "ours":
        program = [sys.executable, "-m", "pokerlab.interfaces.cli", "acpc", "dealer"]
    command = [*program, name, game, str(hands), str(seed), "a", "b", "-T", "-q"]
    match = subprocess.Popen(
        command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    ports = match.stdout.readline().split()
    clients = [
        subprocess.Popen(
            [os.path.join(reference, "example_player"), game, "127.0.0.1", port]
            if client == "example"
            else [sys.executable, "-m", "pokerlab.interfaces.cli", "acpc", "play", "--agent", "call"]
            + ["--game", GAME, "127.0.0.1", port],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    score = match.stdout.read()
    _, status, usage = os.wait4(match.pid, 0)
    match.returncode = status
    assert status == 0 and score.startswith("SCORE:"), f"{name}: the match failed"
    clients_cpu = sum(_cpu_of(c) for c in clients) / len(clients)
    rate, actions = _transcript_rate(os.path.join(folder, f"{name}.tlog"))
    return rate, actions, (usage.ru_utime + usage.ru_stime) / hands, clients_cpu / hands


PAIRS = (("reference", "example"), ("reference", "ours"), ("ours", "example"))


def dealer_start_cpu() -> float:
    """CPU seconds our dealer command spends starting (imports, reading its command line and game) and
    stopping, with no match: the least of three."""
    command = [
        sys.executable,
        "-m",
        "pokerlab.interfaces.cli",
        "acpc",
        "dealer",
        "x",
        GAME,
        "0",
        "1",
        "a",
        "b",
    ]
    return min(
        _cpu_of(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for _ in range(3)
    )


def against_reference(reference: str, hands: int, seed: int, repeats: int, client_start: float) -> dict:
    """Each of `PAIRS` ``repeats`` times, alternated: its best hands/s, its actions a hand, and the least
    CPU microseconds a hand of its dealer and of a client, our programs' start-up taken off."""
    import tempfile

    starts = {"ours": dealer_start_cpu(), "reference": 0.0}
    runs: dict[str, list] = {f"{d}-{c}": [] for d, c in PAIRS}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(repeats):
            for dealer, client in PAIRS:
                rate, actions, dealer_cpu, client_cpu = reference_match(
                    reference, dealer, client, hands, seed, folder
                )
                dealer_cpu -= starts[dealer] / hands
                client_cpu -= client_start / hands if client == "ours" else 0.0
                runs[f"{dealer}-{client}"].append((rate, actions, dealer_cpu, client_cpu))
    return {
        name: {
            "hands_per_s": max(r[0] for r in rs),
            "actions_per_hand": rs[0][1],
            "dealer_cpu_us": min(r[2] for r in rs) * 1e6,
            "client_cpu_us": min(r[3] for r in rs) * 1e6,
            "runs_hands_per_s": [r[0] for r in rs],
        }
        for name, rs in runs.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--poll-us", type=float, default=DEALER_POLL * 1e6, help="the dealer's polling")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--reference",
        default=os.environ.get("POKERLAB_ACPC_SERVER"),
        help="a folder with the reference server built (its dealer and example_player)",
    )
    args = parser.parse_args()
    built = args.reference and all(
        os.access(os.path.join(args.reference, p), os.X_OK) for p in ("dealer", "example_player")
    )
    start_cpu = client_start_cpu()
    reference = (
        against_reference(args.reference, args.hands, args.seed, args.repeats, start_cpu) if built else None
    )
    settings = {"acpc_loopback": (args.poll_us, 0.0), "acpc_no_polling": (0.0, 0.0)}
    acpc: dict[str, list] = {name: [] for name in settings}
    for _ in range(args.repeats):  # the two settings alternated, so that both meet the same load
        for name, poll in settings.items():
            acpc[name].append(ours(args.hands, args.seed, start_cpu, poll))
    runs = {name: [(rate, dealer + sum(clients)) for rate, dealer, clients in acpc[name]] for name in acpc}
    runs["play_match"] = [in_process(args.hands, args.seed) for _ in range(args.repeats)]
    runs["bare_sockets"] = [floor(args.hands) for _ in range(args.repeats)]
    rates = {name: max(r for r, _ in runs[name]) for name in runs}
    cpu = {name: min(c for _, c in runs[name]) * 1e6 for name in runs}  # microseconds a hand
    # each process's least CPU a hand over the repeats
    processes = {}
    for name, results in acpc.items():
        processes[name] = {"dealer": min(d for _, d, _ in results) * 1e6}
        for k in range(2):
            processes[name][f"client{k}"] = min(c[k] for _, _, c in results) * 1e6
    if args.json:
        print(
            json.dumps(
                {
                    "hands": args.hands,
                    "seed": args.seed,
                    "repeats": args.repeats,
                    "dealer_poll_us": args.poll_us,
                    "hands_per_s": rates,
                    "cpu_us_per_hand": cpu,
                    "acpc_cpu_us_per_hand_by_process": processes,
                    "against_reference": reference,
                    "acpc_runs": {
                        name: [
                            {"hands_per_s": r, "dealer_us": d * 1e6, "clients_us": [c * 1e6 for c in cs]}
                            for r, d, cs in results
                        ]
                        for name, results in acpc.items()
                    },
                }
            )
        )
        return
    ours_rate, ours_cpu = rates["acpc_loopback"], cpu["acpc_loopback"]
    print(f"heads-up always-call, {args.hands} hands, seed {args.seed}, best of {args.repeats}:")
    rows = [
        ("ACPC over loopback (dealer + 2 clients)", "acpc_loopback", "target 1,000 hands/s"),
        (
            "the same, the dealer sleeping at once",
            "acpc_no_polling",
            f"{rates['acpc_no_polling'] / ours_rate:.2f}x",
        ),
        (
            "play_match in one process",
            "play_match",
            f"the protocol costs {rates['play_match'] / ours_rate:.1f}x",
        ),
        (
            "bare sockets, same messages, 3 processes",
            "bare_sockets",
            f"ours at {ours_rate / rates['bare_sockets']:.2f} of this floor,"
            f" {ours_cpu / cpu['bare_sockets']:.1f}x its CPU",
        ),
    ]
    for title, name, note in rows:
        print(f"  {title:42s} {rates[name]:7.0f} hands/s {cpu[name]:6.0f} us CPU/hand  ({note})")
    if reference is None:
        print("  against the reference server: not built here (--reference DIR or POKERLAB_ACPC_SERVER)")
    else:
        base = reference["reference-example"]["hands_per_s"]
        titles = {
            "reference-example": "reference dealer + 2 example_player",
            "reference-ours": "reference dealer + 2 of our call clients",
            "ours-example": "our dealer + 2 example_player",
        }
        targets = {"reference-ours": "client target 0.8x", "ours-example": "dealer target 1.0x"}
        for name, title in titles.items():
            rate, actions = reference[name]["hands_per_s"], reference[name]["actions_per_hand"]
            note = f"{rate / base:.2f}x; {targets[name]}" if name in targets else "the peer"
            print(f"  {title:42s} {rate:7.0f} hands/s {actions:5.2f} actions/hand  ({note})")
            runs = ", ".join(f"{r:.0f}" for r in reference[name]["runs_hands_per_s"])
            dealer_us, client_us = reference[name]["dealer_cpu_us"], reference[name]["client_cpu_us"]
            print(f"    runs {runs}; CPU a hand: dealer {dealer_us:.0f} us, a client {client_us:.0f} us")
    for name, results in acpc.items():
        each = ", ".join(f"{who} {us:.0f}" for who, us in processes[name].items())
        print(f"  {name}: CPU a hand by process (us, least of {args.repeats}): {each}")
        for rate, dealer, clients in results:
            each = " ".join(f"{c * 1e6:.0f}" for c in clients)
            print(f"    run: {rate:5.0f} hands/s, dealer {dealer * 1e6:.0f} us, clients {each} us")


if __name__ == "__main__":
    main()
