"""Latency per action of the web table under load, beside a bare WebSocket echo server's round trip.

Ours: the web table (`pokerlab.interfaces.web`, the app `pokerlab serve` runs, under uvicorn in its own
process, SQLite in a temporary folder) with ``--tables`` six-seat tables that play on without people
(``run_bot_tables``, no pause between hands); ``--clients`` people sign up, sit ``clients / tables`` to a
table beside the bots and each open a WebSocket; each acts as soon as its turn comes, a seeded random legal
action. The latency of an action is the time from sending ``act`` to receiving that seat's ``action`` frame
(what a person waits for); p50 and p99 over every action of the ``--seconds`` window.

Peer: a bare Starlette WebSocket echo endpoint under the same uvicorn (its own process), with as many
clients sending the same number of frames per second in all: the floor of one WebSocket round trip at that
concurrency on this machine, measured in the same run.

Checks ("no lost hand"): every ``hand_end`` a client saw is stored ``finished`` with the same
nets; every hand stored ``finished`` in the window was seen (the clients read on 3 s after it); no hand
but those cut by the shutdown is left unfinished; the chips of all accounts add up to what the people were
given, and each bankroll is its start plus its finished hands' nets. Sign-ups use cheap argon2 parameters
(sign-up is not what is measured).

Log-in flood (``--flood``): one six-seat bot table playing on, with the real argon2 parameters, and
``FLOOD_CLIENTS`` clients logging in with random names and passwords as fast as answers come, each from a new
``X-Forwarded-For`` address (the server trusts loopback as its proxy: no rate limit stops them, the worst
case). Hands per second at the table in windows with the flood alternating with windows without it (the
median of each, robust to a window another program on the machine slowed); their ratio is the figure (no
peer: the table's own pace without the flood is the yardstick). Usage:
``python benchmarks/web.py [--tables 50] [--clients 200] [--seconds 30] [--seed 0] [--flood] [--json]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import numpy as np

#: Seconds the clients read on, without acting, after the measured window.
DRAIN_SECONDS = 3.0
#: The bots of each load table (two seats; the people take the others).
BOTS = "tight-aggressive,loose-passive"
#: Parallel log-in clients of the flood.
FLOOD_CLIENTS = 12
#: The header the API wants on state-changing requests (pokerlab.interfaces.web.app.CSRF_HEADER).
CSRF = {"X-Requested-With": "pokerlab"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_ours(db: str, port: int, tables: int, seats: int, seed: int) -> None:
    """The web table (run in the server process)."""
    from pokerlab.interfaces.web.config import WebConfig, parse_tables
    from pokerlab.interfaces.web.server import serve

    spec = ";".join([f"10-20/{seats}/{BOTS}"] * tables)
    config = WebConfig(
        database=db,
        tables=parse_tables(spec),
        seed=seed,
        run_bot_tables=True,
        pause_seconds=0.0,
        action_seconds=20.0,
        hash_time_cost=1,
        hash_memory_kib=64,
        address_attempts=10**6,  # every client signs up from loopback
    )
    serve(config, port=port)


def serve_flood(db: str, port: int) -> None:
    """The flood's server: one busy bot table, real argon2, loopback trusted as a proxy (run in the server
    process)."""
    from pokerlab.interfaces.web.config import WebConfig, parse_tables
    from pokerlab.interfaces.web.server import serve

    tables = parse_tables(f"10-20/6/{BOTS},tight-passive,loose-aggressive")
    config = WebConfig(
        database=db, tables=tables, run_bot_tables=True, pause_seconds=0.0, trusted_proxies=("127.0.0.1",)
    )
    serve(config, port=port)


def serve_echo(port: int) -> None:
    """The peer: a bare Starlette WebSocket echo endpoint under uvicorn (run in the server process)."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute

    async def echo(websocket):
        await websocket.accept()
        try:
            while True:
                await websocket.send_text(await websocket.receive_text())
        except Exception:  # noqa: BLE001 - the client left
            pass

    app = Starlette(routes=[WebSocketRoute("/echo", echo)])
    uvicorn.run(app, port=port, log_level="warning", ws_per_message_deflate=False)  # as `serve` runs ours


def spawn(*args: str) -> subprocess.Popen:
    """A server process; its log goes to a temporary file (a pipe nobody reads would fill and stop it)."""
    log = tempfile.TemporaryFile(mode="w+")
    server = subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.DEVNULL, stderr=log)
    server.log = log
    return server


def log_tail(server: subprocess.Popen) -> str:
    server.log.seek(0)
    return server.log.read()[-2000:]


async def wait_ready(server: subprocess.Popen, url: str) -> None:
    deadline = time.monotonic() + 120
    async with httpx.AsyncClient() as client:
        while True:
            try:
                await client.get(url, timeout=1)
                return
            except httpx.TransportError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: {log_tail(server)}")
            await asyncio.sleep(0.2)


class Player:
    """One person's WebSocket: acts at its turns, times its actions, keeps the hand_end frames seen."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.latencies: list[float] = []
        self.ends: dict[int, dict] = {}
        self.seat = None
        self.sent_at = None

    async def run(self, ws, until: float, drain: float = DRAIN_SECONDS) -> None:
        """Play until `until`, then only read for `drain` seconds (the hand_end frames still on the way)."""
        while True:
            left = until + drain - time.perf_counter()
            if left <= 0:
                return
            try:
                raw = await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                return
            frame = json.loads(raw)
            kind = frame["type"]
            if kind == "table":
                self.seat = frame["you"]
            elif kind == "turn" and "legal" in frame and time.perf_counter() < until:
                legal = frame["legal"]
                self.sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": legal[self.rng.integers(len(legal))]}))
            elif kind == "action" and frame["seat"] == self.seat and self.sent_at is not None:
                self.latencies.append(time.perf_counter() - self.sent_at)
                self.sent_at = None
            elif kind == "hand_end":
                self.ends[frame["hand"]] = frame


async def load_ours(tables: int, clients: int, seconds: float, seed: int, folder: Path) -> dict:
    """Run the load against our server; the figures and the checks' results."""
    from websockets.asyncio.client import connect

    per_table = -(-clients // tables)
    seats = per_table + len(BOTS.split(","))
    db_path = folder / "load.db"
    port = free_port()
    server = spawn("--serve-ours", f"sqlite:///{db_path}", str(port), str(tables), str(seats), str(seed))
    base = f"http://127.0.0.1:{port}"
    try:
        await wait_ready(server, f"{base}/api/tables")
        rngs = [np.random.default_rng([seed, k]) for k in range(clients)]
        gate = asyncio.Semaphore(16)

        async def join(k: int) -> str:
            async with gate, httpx.AsyncClient(base_url=base, timeout=60, headers=CSRF) as client:
                answer = await client.post("/api/signup", json={"name": f"p{k}", "password": "load test"})
                assert answer.status_code == 201, answer.text
                sat = await client.post(f"/api/tables/{k % tables + 1}/sit", json={"seat": k // tables})
                assert sat.status_code == 200, sat.text
                return client.cookies.get("session")

        tokens = await asyncio.gather(*(join(k) for k in range(clients)))
        sockets = [
            await connect(
                f"ws://127.0.0.1:{port}/ws/tables/{k % tables + 1}",
                additional_headers={"Cookie": f"session={token}"},
            )
            for k, token in enumerate(tokens)
        ]
        players = [Player(rng) for rng in rngs]
        con = sqlite3.connect(db_path)
        (first,) = con.execute("SELECT coalesce(max(id), 0) FROM hands").fetchone()
        start = time.perf_counter()
        began = time.time()
        await asyncio.gather(*(p.run(ws, start + seconds) for p, ws in zip(players, sockets, strict=True)))
        left = time.time() - DRAIN_SECONDS
        for ws in sockets:
            await ws.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)
    rows = con.execute("SELECT id, status, seats, nets, ended FROM hands").fetchall()
    accounts = con.execute("SELECT id, kind, bankroll FROM users").fetchall()
    con.close()
    stored = {
        i: (s, json.loads(seats), json.loads(nets) if nets else None, e) for i, s, seats, nets, e in rows
    }
    seen = {}
    for p in players:
        seen.update(p.ends)
    lost = [h for h, end in seen.items() if stored.get(h, ("?",))[0] != "finished"]
    for h, end in seen.items():
        status, seat_list, nets, _ = stored[h]
        assert {str(s["seat"]): n for s, n in zip(seat_list, nets, strict=True)} == end["nets"], h
    unseen = [h for h, (s, _, _, e) in stored.items() if s == "finished" and h not in seen and e < left]
    unseen = [h for h in unseen if h > first and stored[h][3] > began]
    unfinished = [h for h, (s, *_) in stored.items() if s != "finished"]
    won = {i: 0 for i, _, _ in accounts}
    for status, seat_list, nets, _ in stored.values():
        if status == "finished":
            for s, n in zip(seat_list, nets, strict=True):
                won[s["user_id"]] += n
    books_ok = all(b == (1000 if kind == "human" else 0) + won[i] for i, kind, b in accounts)
    conserved = sum(b for _, _, b in accounts) == 1000 * clients
    in_window = [h for h, (s, _, _, e) in stored.items() if s == "finished" and began <= e <= left]
    latencies = np.array([x for p in players for x in p.latencies])
    return {
        "hands": len(in_window),
        "hands_per_s": len(in_window) / (left - began),
        "actions": int(latencies.size),
        "actions_per_s": latencies.size / (left - began),
        "p50_ms": float(np.percentile(latencies, 50) * 1000),
        "p99_ms": float(np.percentile(latencies, 99) * 1000),
        "lost": len(lost),
        "unseen": len(unseen),
        "unfinished": len(unfinished),
        "books_ok": books_ok,
        "chips_conserved": conserved,
        "tables": tables,
    }


async def load_echo(clients: int, seconds: float, rate: float, seed: int) -> dict:
    """The peer: `clients` sockets sending `rate` frames per second in all to the echo server."""
    from websockets.asyncio.client import connect

    port = free_port()
    server = spawn("--serve-echo", str(port))
    try:
        await wait_ready(server, f"http://127.0.0.1:{port}/")
        sockets = [await connect(f"ws://127.0.0.1:{port}/echo") for _ in range(clients)]
        interval = clients / max(rate, 1e-9)
        rng = np.random.default_rng(seed)
        latencies: list[float] = []
        until = time.perf_counter() + seconds
        frame = json.dumps({"type": "act", "action": "call"})

        async def client(ws, phase: float) -> None:
            await asyncio.sleep(phase)
            while time.perf_counter() < until:
                sent = time.perf_counter()
                await ws.send(frame)
                await ws.recv()
                latencies.append(time.perf_counter() - sent)
                await asyncio.sleep(max(0.0, interval - (time.perf_counter() - sent)))

        await asyncio.gather(*(client(ws, rng.random() * interval) for ws in sockets))
        for ws in sockets:
            await ws.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)
    values = np.array(latencies)
    return {
        "frames": int(values.size),
        "p50_ms": float(np.percentile(values, 50) * 1000),
        "p99_ms": float(np.percentile(values, 99) * 1000),
    }


def finished(con: sqlite3.Connection) -> int:
    return con.execute("SELECT count(*) FROM hands WHERE status = 'finished'").fetchone()[0]


async def flood_ours(seconds: float, rounds: int, folder: Path) -> dict:
    """Hands per second at a busy table in `rounds` pairs of windows of `seconds`: quiet, then flooded."""
    db_path = folder / "flood.db"
    port = free_port()
    server = spawn("--serve-flood", f"sqlite:///{db_path}", str(port))
    base = f"http://127.0.0.1:{port}"
    answers: dict[int, int] = {}
    try:
        await wait_ready(server, f"{base}/api/tables")
        con = sqlite3.connect(db_path)
        await asyncio.sleep(seconds)  # warm up: the bots' first hands, the database's first pages
        flooding = asyncio.Event()
        sent = 0

        async def flooder(k: int) -> None:
            nonlocal sent
            async with httpx.AsyncClient(base_url=base, timeout=60, headers=CSRF) as client:
                while True:
                    await flooding.wait()
                    sent += 1
                    n = sent
                    forwarded = {"X-Forwarded-For": f"10.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"}
                    body = {"name": f"x{k}n{n}", "password": f"guess {n:08d}"}
                    answer = await client.post("/api/login", json=body, headers=forwarded)
                    answers[answer.status_code] = answers.get(answer.status_code, 0) + 1

        tasks = [asyncio.create_task(flooder(k)) for k in range(FLOOD_CLIENTS)]
        rates: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(rounds):
            for flood in (False, True):
                if flood:
                    flooding.set()
                else:
                    flooding.clear()
                    await asyncio.sleep(0.5)  # the log-ins under way end
                before, start = finished(con), time.perf_counter()
                await asyncio.sleep(seconds)
                rates[flood].append((finished(con) - before) / (time.perf_counter() - start))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        con.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)
    quiet, flooded = (float(np.median(rates[flood])) for flood in (False, True))
    return {
        "quiet_hands_per_s": quiet,
        "flooded_hands_per_s": flooded,
        "ratio": flooded / quiet if quiet else 0.0,
        "rates": {"quiet": rates[False], "flooded": rates[True]},
        "sent": sent,
        "logins": sum(answers.values()),
        "logins_per_s": sum(answers.values()) / (seconds * rounds),
        "answers": {str(k): v for k, v in sorted(answers.items())},
    }


def measure_flood(seconds: float = 3.0, rounds: int = 3) -> dict:
    """The log-in flood's figures (hands per second without and with it)."""
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(flood_ours(seconds, rounds, Path(tmp)))


def measure(tables: int, clients: int, seconds: float, seed: int) -> dict:
    """Our figures and the peer's, measured one after the other in this run."""
    with tempfile.TemporaryDirectory() as tmp:
        ours = asyncio.run(load_ours(tables, clients, seconds, seed, Path(tmp)))
    peer = asyncio.run(load_echo(clients, seconds, ours["actions_per_s"], seed))
    return {
        "tables": tables,
        "clients": clients,
        "seconds": seconds,
        "seed": seed,
        "ours": ours,
        "peer": peer,
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve-ours":
        db, port, tables, seats, seed = sys.argv[2:7]
        serve_ours(db, int(port), int(tables), int(seats), int(seed))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--serve-echo":
        serve_echo(int(sys.argv[2]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--serve-flood":
        serve_flood(sys.argv[2], int(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--flood", action="store_true", help="also the log-in flood against a busy table")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.tables, args.clients, args.seconds, args.seed)
    if args.flood:
        result["flood"] = measure_flood()
    if args.json:
        print(json.dumps(result))
        return
    ours, peer = result["ours"], result["peer"]
    print(
        f"{args.tables} bot tables, {args.clients} WebSocket clients, {args.seconds:g} s, seed {args.seed}, "
        f"{os.cpu_count()} cores"
    )
    print(f"{'':<26}{'p50 ms':>9}{'p99 ms':>9}{'frames/s':>10}")
    rate = ours["actions_per_s"]
    print(f"{'web table: act -> action':<26}{ours['p50_ms']:>9.2f}{ours['p99_ms']:>9.2f}{rate:>10.0f}")
    print(
        f"{'peer: bare echo':<26}{peer['p50_ms']:>9.2f}{peer['p99_ms']:>9.2f}"
        f"{peer['frames'] / args.seconds:>10.0f}"
    )
    print(
        f"ours / peer p50 {ours['p50_ms'] / peer['p50_ms']:.1f}x, p99 {ours['p99_ms'] / peer['p99_ms']:.1f}x"
    )
    print(
        f"hands {ours['hands']} ({ours['hands_per_s']:.1f}/s); lost {ours['lost']}, finished but unseen "
        f"{ours['unseen']}, unfinished at shutdown {ours['unfinished']} (<= {args.tables}); books "
        f"{'ok' if ours['books_ok'] else 'WRONG'}, "
        f"chips {'conserved' if ours['chips_conserved'] else 'NOT conserved'}"
    )
    if args.flood:
        flood = result["flood"]
        print(
            f"{'log-in flood, one table':<26}{'quiet':>9}{'flooded':>9}{'ratio':>10}   (no peer: the table "
            f"without the flood; {FLOOD_CLIENTS} clients, {flood['logins_per_s']:.1f} log-ins/s, answers "
            f"{flood['answers']})"
        )
        print(
            f"{'hands/s':<26}{flood['quiet_hands_per_s']:>9.1f}{flood['flooded_hands_per_s']:>9.1f}"
            f"{flood['ratio']:>10.2f}"
        )


if __name__ == "__main__":
    main()
