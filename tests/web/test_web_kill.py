"""Kill -9 of `pokerlab serve` in the middle of a hand: after the restart every bankroll is its start plus
the nets of its finished hands, and the interrupted hands are void with their chips back. On SQLite and
on PostgreSQL (`pokerlab serve --db postgresql+psycopg://...`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import httpx
import pytest
from live_server import books, play
from postgres import free_port
from sqlalchemy import select
from websockets.sync.client import connect

from pokerlab.interfaces.web.app import CSRF_HEADER
from pokerlab.interfaces.web.db import Database, Hand


def start_server(db: str, port: int, *extra: str) -> subprocess.Popen:
    command = [sys.executable, "-m", "pokerlab.interfaces.cli", "serve", "--db", db, "--port", str(port)]
    command += ["--tables", "10-20/3/call,tight-aggressive;10-20/4/loose-aggressive,call", "--seed", "3"]
    server = subprocess.Popen([*command, *extra], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1).status_code == 200:
                return server
        except httpx.TransportError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            raise RuntimeError(f"pokerlab serve did not start: {server.stderr.read().decode()[-2000:]}")
        time.sleep(0.1)


def hand_status(url: str) -> dict[int, str]:
    database = Database(url)
    try:
        with database.sessions() as db:
            return {i: s for i, s in db.execute(select(Hand.id, Hand.status))}
    finally:
        database.engine.dispose()


@pytest.mark.slow  # two server start-ups, about 20 s
def test_kill_9_mid_hand_loses_no_finished_hand_and_voids_the_interrupted_one(database_url):
    db, port = database_url, free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(db, port, "--run-bot-tables", "--pause-seconds", "0", "--action-seconds", "30")
    try:
        alice = httpx.Client(base_url=base, timeout=30, headers={CSRF_HEADER: "pokerlab"})
        assert alice.post("/api/signup", json={"name": "alice", "password": "kill -9 me"}).status_code == 201
        assert alice.post("/api/tables/1/sit", json={"seat": 0}).status_code == 200
        cookie = {"Cookie": f"session={alice.cookies.get('session')}"}
        with connect(f"ws://127.0.0.1:{port}/ws/tables/1", additional_headers=cookie) as ws:
            play(ws, 6, action="raise")
            while True:  # alice's turn: the hand is surely running, and the bot table plays on
                frame = json.loads(ws.recv(timeout=30))
                if frame["type"] == "hand_start":
                    interrupted = frame["hand"]
                if frame["type"] == "turn" and "legal" in frame:
                    break
            os.kill(server.pid, signal.SIGKILL)
            server.wait(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
    before = hand_status(db)
    assert before[interrupted] == "running"
    finished_before = {h for h, s in before.items() if s == "finished"}
    assert len(finished_before) > 6
    server = start_server(db, port)  # bot tables pause now: the books stay still while we read them
    try:
        alice = httpx.Client(base_url=base, timeout=30, headers={CSRF_HEADER: "pokerlab"})
        assert alice.post("/api/login", json={"name": "alice", "password": "kill -9 me"}).status_code == 200
        me = alice.get("/api/me").json()
        curve = alice.get("/api/players/alice/bankroll").json()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    after = hand_status(db)
    assert after[interrupted] == "void"
    assert {h for h, s in after.items() if s == "finished"} == finished_before  # none lost, none made up
    assert "running" not in after.values() and list(after.values()).count("void") >= 1
    accounts, won = books(db)
    for user_id, (name, kind, bankroll) in accounts.items():
        assert bankroll == (1000 if kind == "human" else 0) + won[user_id], name
    assert sum(b for _, _, b in accounts.values()) == 1000
    # the interrupted hand's chips are back: alice has what she had after her last finished hand
    assert me["bankroll"] == curve[-1]["bankroll"] and me["table"] is None
