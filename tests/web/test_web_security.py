"""Security of the web table, on the raw frames of a real server: no other seat's hole cards before the
showdown, bad and oversized frames and out-of-turn actions refused without effect, logged-out and wrong
users kept out, passwords never in clear, log-in rate limit, the session cookie's flags."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from live_server import LiveServer, frames_until, play, stand_up, web_config
from sqlalchemy import select
from websockets.exceptions import ConnectionClosed, InvalidStatus

from pokerlab.arena.sandbox import _descendants
from pokerlab.cards import format_card
from pokerlab.interfaces.web.accounts import RateLimiter
from pokerlab.interfaces.web.db import Database, Hand


def stored_hands(db_path) -> dict[int, dict]:
    """Every finished hand in the database, by id: seats, holes, shown, actions, nets (by position)."""
    con = sqlite3.connect(db_path)
    rows = con.execute(
        "SELECT id, seats, holes, shown, actions, nets FROM hands WHERE status = 'finished'"
    ).fetchall()
    con.close()
    keys = ("seats", "holes", "shown", "actions", "nets")
    return {r[0]: dict(zip(keys, map(json.loads, r[1:]), strict=True)) for r in rows}


def test_no_other_seats_hole_cards_cross_the_wire_before_the_showdown(tmp_path):
    """A seated person and a spectator read every frame of 25 hands: the person sees its own hole cards,
    nobody sees another seat's before that hand's hand_end, and hand_end shows exactly those shown down."""
    server = LiveServer(web_config(tmp_path, "10-20/4/call,raise,tight-aggressive"))
    try:
        alice, eve = server.person("alice"), server.person("eve")
        assert alice.post("/api/tables/1/sit", json={"seat": 0}).json() == {"seat": 0}
        with server.socket(eve, 1) as spy, server.socket(alice, 1) as ws:
            seen = play(ws, 25)
            last = max(h for h, _, _ in seen if h is not None)
            spied = []
            while not spied or spied[-1][2]["type"] != "hand_end" or spied[-1][0] < last:
                spied += play(spy, 1, action="none")
        hands = stored_hands(tmp_path / "web.db")
        showdowns = 0
        for viewer_seat, frames in ((0, seen), (None, spied)):
            own_seen = set()
            for hand_id, raw, frame in frames:
                if hand_id is None or hand_id not in hands:
                    continue
                hand = hands[hand_id]
                for p, player in enumerate(hand["seats"]):
                    hole = [format_card(c) for c in hand["holes"][2 * p : 2 * p + 2]]
                    present = [f'"{c}"' in raw for c in hole]
                    if player["seat"] == viewer_seat:
                        own_seen.add(hand_id) if all(present) else None
                        continue
                    if frame["type"] == "hand_end":
                        # shown down: both cards present in `shown`; otherwise neither anywhere
                        assert (frame["shown"].get(str(player["seat"])) == hole) == bool(hand["shown"][p])
                        assert any(present) == bool(hand["shown"][p]), (hand_id, p, raw)
                        showdowns += bool(hand["shown"][p])
                    else:
                        assert not any(present), f"seat {player['seat']}'s cards {hole} leaked in {raw}"
            if viewer_seat is not None:
                in_hand = {h for h, _, f in frames if f["type"] == "hand_start" and "hole" in f}
                assert in_hand and in_hand <= own_seen
        assert showdowns > 5  # the check had showdowns to look at
    finally:
        server.stop()


def next_turn(ws, mine: bool) -> dict:
    """Frames until a turn that is (mine=True) or is not (False) this connection's."""
    return frames_until(ws, lambda f: f["type"] == "turn" and ("legal" in f) == mine)[-1][1]


def error_after(ws, text: str) -> str:
    ws.send(text)
    frame = frames_until(ws, lambda f: f["type"] in ("error", "action"))[-1][1]
    assert frame["type"] == "error", frame
    return frame["message"]


def test_bad_and_oversized_frames_and_actions_out_of_turn_are_refused_and_change_nothing(tmp_path):
    slow = Path(__file__).with_name("info_bot.py")
    server = LiveServer(web_config(tmp_path, f"10-20/3/call,{slow}:SlowBot", action_seconds=30.0))
    try:
        alice = server.person("alice")
        with server.socket(alice, 1) as ws:
            alice.post("/api/tables/1/sit", json={"seat": 0})  # connected before her first hand
            sent = []  # the actions alice really took
            for _ in range(3):
                turn = next_turn(ws, mine=True)
                assert "must be JSON" in error_after(ws, "{not json")
                assert "at most 1024 bytes" in error_after(ws, json.dumps({"type": "act", "pad": "x" * 1100}))
                assert "unknown frame type" in error_after(ws, json.dumps({"type": "shout"}))
                assert "not allowed now" in error_after(ws, json.dumps({"type": "act", "action": "check"}))
                assert "not allowed now" in error_after(ws, json.dumps({"type": "act", "action": 2}))
                word = "raise" if "raise" in turn["legal"] else "call"
                ws.send(json.dumps({"type": "act", "action": word}))
                action = frames_until(ws, lambda f: f["type"] == "action")[-1][1]
                assert action["seat"] == 0 and action["action"] in ("bet", "raise", "call", "check")
                sent.append(action["action"])
                # out of turn: alice folds while the slow bot (seat 1) thinks
                frames_until(ws, lambda f: f["type"] == "turn" and f["seat"] == 1)
                assert error_after(ws, json.dumps({"type": "act", "action": "fold"})) == "it is not your turn"
            play(ws, 1)  # finish the hand (calling), so that it is stored
        # the stored hands hold alice's actions exactly as taken: no refused frame became an action
        hands = stored_hands(tmp_path / "web.db")
        taken = []
        for hand_id in sorted(hands):
            hand = hands[hand_id]
            mine = [p for p, pl in enumerate(hand["seats"]) if pl["kind"] == "human"]
            taken += [a for p, a in hand["actions"] if p in mine]
        assert len(taken) >= len(sent) and "fold" not in sent
        assert taken[: len(sent)] == [2 if w in ("bet", "raise") else 1 for w in sent]
    finally:
        server.stop()


def test_logged_out_or_wrong_users_can_neither_act_nor_read(tmp_path):
    server = LiveServer(web_config(tmp_path, "10-20/2/call", action_seconds=1.0))
    try:
        alice, bob = server.person("alice"), server.person("bob")
        anonymous = server.client()
        assert anonymous.get("/api/hands").status_code == 401
        assert anonymous.post("/api/tables/1/sit", json={}).status_code == 401
        with pytest.raises(InvalidStatus) as refused:  # no session: the handshake is refused
            server.socket(anonymous, 1)
        assert refused.value.response.status_code == 403
        alice.post("/api/tables/1/sit", json={"seat": 0})
        with server.socket(alice, 1) as ws, server.socket(bob, 1) as intruder:
            next_turn(ws, mine=True)
            intruder.send(json.dumps({"type": "act", "action": "fold"}))  # bob acts for alice's seat
            refused = frames_until(
                intruder, lambda f: f["type"] in ("error", "action") and f.get("seat") != 1
            )
            assert refused[-1][1] == {"type": "error", "message": "it is not your turn"}
            assert alice.post("/api/logout").status_code == 204
            # the log-out closes her open socket: no frame (no hole card) reaches it any more
            with pytest.raises(ConnectionClosed):
                frames_until(ws, lambda f: False, timeout=10)
            # the turn runs out: alice is checked or folded, never raised
            action = frames_until(intruder, lambda f: f["type"] == "action" and f["seat"] == 0)[-1][1]
            assert action["action"] in ("check", "fold")
            end = frames_until(intruder, lambda f: f["type"] == "hand_end")[-1][1]
        assert alice.get("/api/me").status_code == 401
        assert bob.get("/api/hands").json() == []
        assert bob.get(f"/api/hands/{end['hand']}").status_code == 404
        assert bob.get(f"/api/hands/{end['hand']}/phh").status_code == 404
        assert bob.get("/api/hands/999999").status_code == 404
        alice_again = server.client()
        assert (
            alice_again.post("/api/login", json={"name": "alice", "password": "correct horse"}).status_code
            == 200
        )
        assert alice_again.get(f"/api/hands/{end['hand']}").status_code == 200
    finally:
        server.stop()


def test_passwords_are_never_stored_or_logged_in_clear(tmp_path, caplog):
    password = "Zebra-Quokka-7719"
    server = LiveServer(web_config(tmp_path))
    try:
        with caplog.at_level(logging.DEBUG):
            client = server.client()
            assert client.post("/api/signup", json={"name": "carol", "password": password}).status_code == 201
            client.post("/api/logout")
            assert client.post("/api/login", json={"name": "carol", "password": password}).status_code == 200
            assert (
                client.post("/api/login", json={"name": "carol", "password": password + "x"}).status_code
                == 401
            )
    finally:
        server.stop()
    assert caplog.records and password not in caplog.text
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("web.db*"))
    assert password.encode() not in stored
    con = sqlite3.connect(tmp_path / "web.db")
    (digest,) = con.execute("SELECT password_hash FROM users WHERE name = 'carol'").fetchone()
    (tokens,) = con.execute("SELECT count(*) FROM sessions").fetchone()
    con.close()
    assert digest.startswith("$argon2id$") and tokens == 1  # the log-out ended the first session


def test_log_in_is_rate_limited(live):
    live.person("dave", "right password")
    client = live.client()
    for _ in range(live.config.login_failures):
        assert client.post("/api/login", json={"name": "dave", "password": "wrong one!"}).status_code == 401
    answer = client.post("/api/login", json={"name": "dave", "password": "right password"})
    assert answer.status_code == 429 and "too many" in answer.json()["detail"]
    # another name from the same address is not blocked
    live.person("erin", "right password")
    assert client.post("/api/login", json={"name": "erin", "password": "right password"}).status_code == 200


def test_rate_limiter_window_slides():
    limiter = RateLimiter(limit=3, window=60.0)
    for t in (0.0, 10.0, 20.0):
        assert not limiter.blocked(("a", "n"), now=t)
        limiter.hit(("a", "n"), now=t)
    assert limiter.blocked(("a", "n"), now=59.0)
    assert not limiter.blocked(("b", "n"), now=59.0) and not limiter.blocked(("a", "m"), now=59.0)
    assert not limiter.blocked(("a", "n"), now=60.5)  # the first failure left the window
    assert not limiter.blocked(("a", "n"), now=200.0) and limiter._times == {}  # quiet keys are forgotten


def test_the_session_cookie_is_http_only_same_site_and_secure_over_https(live):
    """Over plain HTTP the cookie cannot be Secure (the browser would drop it); behind a proxy that ends
    TLS and says so (X-Forwarded-Proto from a --trusted-proxy) it is; from anyone else the header is
    ignored."""
    body = {"name": "fay", "password": "right password"}
    plain = live.client().post("/api/signup", json=body).headers["set-cookie"].lower()
    assert "httponly" in plain and "samesite=strict" in plain and "secure" not in plain
    untrusted = live.client().post("/api/login", json=body, headers={"X-Forwarded-Proto": "https"})
    assert untrusted.status_code == 200 and "secure" not in untrusted.headers["set-cookie"].lower()
    proxied = LiveServer(replace(live.config, trusted_proxies=("127.0.0.1",)))
    try:
        tls = proxied.client().post("/api/login", json=body, headers={"X-Forwarded-Proto": "https"})
        assert tls.status_code == 200 and "; secure" in tls.headers["set-cookie"].lower()
    finally:
        proxied.stop()


def test_an_outside_bot_runs_sandboxed_never_in_the_server(tmp_path):
    """A `file.py:Class` bot at a web table is imported only in its own sandboxed process: its import-time
    code never reaches the server's modules, its frames and the garbage collector show it no card of another
    seat, and its process ends with the server. (Run in the server's process, as it was, the same bot finds
    the live hand state and every hole card.)"""
    hostile = f"{Path(__file__).with_name('hostile_bot.py')}:Peeker"
    before = set(_descendants(os.getpid()))  # what other fixtures started (a PostgreSQL server, ...)
    server = LiveServer(web_config(tmp_path, f"10-20/3/{hostile},call"))
    try:
        alice = server.person("alice")
        alice.post("/api/tables/1/sit", json={"seat": 1})
        with server.socket(alice, 1) as ws:
            play(ws, 6)
        stand_up(alice, 1)
        bots = set(_descendants(os.getpid())) - before
        assert bots, "the outside bot has a process of its own"
    finally:
        server.stop()
    tables = sys.modules["pokerlab.interfaces.web.tables"]
    assert not hasattr(tables, "HOSTILE_BOT_WAS_HERE")
    assert not any("hostile_bot" in name for name in sys.modules)
    database = Database.open(server.config.database)
    with database.sessions() as session:
        decisions = [d for hand in session.scalars(select(Hand)) for d in hand.decisions or []]
    infos = [d["info"] for d in decisions if d and d["info"]]
    assert len(infos) >= 6
    assert all(i["foreign_cards"] == 0 and i["pid"] != os.getpid() for i in infos)
    ends = time.monotonic() + 5
    while (left := bots & set(_descendants(os.getpid()))) and time.monotonic() < ends:
        time.sleep(0.05)
    assert left == set()


def test_a_bots_illegal_answer_is_a_visible_fault_not_a_quiet_check(tmp_path):
    """A bot answering 7 is checked or folded for by the arena table's fault rule (it was quietly checked
    or folded at the web table alone): the ``action`` frame everyone sees and the stored decision say so."""
    cheat = f"{Path(__file__).with_name('info_bot.py')}:IllegalBot"
    server = LiveServer(web_config(tmp_path, f"10-20/3/{cheat},call"))
    try:
        alice = server.person("alice")
        alice.post("/api/tables/1/sit", json={"seat": 1})
        with server.socket(alice, 1) as ws:
            seen = [frame for _, _, frame in play(ws, 3)]
        stand_up(alice, 1)
    finally:
        server.stop()
    actions = [f for f in seen if f["type"] == "action"]
    faults = [f for f in actions if "fault" in f]
    assert faults and {f["seat"] for f in faults} <= {0, 2}, actions
    assert all(f["action"] in ("check", "fold") and "answered 7, not one of" in f["fault"] for f in faults)
    assert not any("fault" in f for f in actions if f["seat"] == 1)  # the person's own actions
    database = Database.open(server.config.database)
    with database.sessions() as session:
        stored = [d for hand in session.scalars(select(Hand)) for d in hand.decisions or [] if d]
    assert stored and all("answered 7" in d["fault"] for d in stored)
