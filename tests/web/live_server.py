"""Helpers of the web table's tests: a real server (uvicorn on a free loopback port in a thread, a temporary
SQLite file unless given a database URL, cheap password hashes), clients (httpx for HTTP with cookies,
`websockets` for raw frames), and playing hands over a socket. (Not conftest.py: other test folders have
their own conftest modules.)"""

from __future__ import annotations

import json
import threading
import time

import httpx
import uvicorn
from sqlalchemy import select
from websockets.sync.client import connect

from pokerlab.interfaces.web.app import CSRF_HEADER
from pokerlab.interfaces.web.config import WebConfig, parse_tables
from pokerlab.interfaces.web.db import Database, Hand, User
from pokerlab.interfaces.web.server import uvicorn_config


class LiveServer:
    """A running server: its config, base URLs, and helpers to make people and open sockets."""

    def __init__(self, config: WebConfig) -> None:
        self.config = config
        self.uvicorn = uvicorn.Server(uvicorn_config(config, "127.0.0.1", 0, log_level="warning"))
        self.thread = threading.Thread(target=self.uvicorn.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.uvicorn.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        port = self.uvicorn.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"

    def client(self) -> httpx.Client:
        """An HTTP client as the page is one: it sends the CSRF header (no Origin, as a non-browser)."""
        return httpx.Client(base_url=self.url, timeout=30, headers={CSRF_HEADER: "pokerlab"})

    def person(self, name: str, password: str = "correct horse") -> httpx.Client:
        """A new signed-up person's HTTP client (the session cookie in its jar)."""
        client = self.client()
        answer = client.post("/api/signup", json={"name": name, "password": password})
        assert answer.status_code == 201, answer.text
        return client

    def socket(self, client: httpx.Client, table: int):
        """A raw WebSocket to a table, authenticated by the client's session cookie."""
        token = client.cookies.get("session")
        return connect(f"{self.ws_url}/ws/tables/{table}", additional_headers={"Cookie": f"session={token}"})

    def stop(self) -> None:
        self.uvicorn.should_exit = True
        self.thread.join(timeout=30)


def frames_until(ws, stop, timeout: float = 30.0) -> list[tuple[str, dict]]:
    """(raw text, parsed) of every frame received until `stop(parsed)` is true (that frame included)."""
    out = []
    deadline = time.monotonic() + timeout
    while True:
        raw = ws.recv(timeout=max(0.01, deadline - time.monotonic()))
        assert isinstance(raw, str)
        frame = json.loads(raw)
        out.append((raw, frame))
        if stop(frame):
            return out


def web_config(tmp_path, tables: str = "10-20/3/call,tight-aggressive", **overrides) -> WebConfig:
    settings = dict(
        database=f"sqlite:///{tmp_path / 'web.db'}",
        tables=parse_tables(tables),
        seed=7,
        action_seconds=5.0,
        pause_seconds=0.0,
        hash_time_cost=1,
        hash_memory_kib=64,
    )
    settings.update(overrides)
    return WebConfig(**settings)


def play(ws, hands: int, action: str = "call") -> list[tuple[int | None, str, dict]]:
    """Play `hands` whole hands with one action word (call where it is not legal); returns (hand id, raw
    frame, frame) of every frame."""
    out, current, ended = [], None, 0
    while ended < hands:
        raw = ws.recv(timeout=30)
        frame = json.loads(raw)
        if frame["type"] == "hand_start":
            current = frame["hand"]
        elif frame["type"] == "table" and frame["hand"]:
            current = frame["hand"]["hand"]
        out.append((current, raw, frame))
        if frame["type"] == "turn" and "legal" in frame:
            word = action if action in frame["legal"] else "call"
            ws.send(json.dumps({"type": "act", "action": word}))
        if frame["type"] == "hand_end" and current is not None:
            ended += 1
    return out


def books(url: str) -> tuple[dict[int, tuple[str, str, int]], dict[int, int]]:
    """(accounts: id -> (name, kind, bankroll), id -> sum of its nets over the finished hands) of the
    database at `url`, the sum taken from the hands' own nets by position, not from the per-player rows."""
    database = Database(url)
    try:
        with database.sessions() as db:
            accounts = {
                i: (n, k, b)
                for i, n, k, b in db.execute(select(User.id, User.name, User.kind, User.bankroll))
            }
            won = dict.fromkeys(accounts, 0)
            for seats, nets in db.execute(select(Hand.seats, Hand.nets).where(Hand.status == "finished")):
                for seat, net in zip(seats, nets, strict=True):
                    won[seat["user_id"]] += net
    finally:
        database.engine.dispose()
    return accounts, won


def stand_up(client, table: int) -> None:
    """Leave the table and wait until the hand running there is over (the table then pauses)."""
    assert client.post(f"/api/tables/{table}/leave").status_code == 204
    deadline = time.monotonic() + 30
    while client.get("/api/me").json()["table"] is not None:
        assert time.monotonic() < deadline
        time.sleep(0.05)
