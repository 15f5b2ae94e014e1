"""What the web table stores: bankrolls that are the sum of the finished hands, chips conserved, statistics,
replays with the bots' logged thoughts, PHH that replays, void hands, and the levels. The tests taking
`database_url` run on SQLite and on PostgreSQL (conftest.py), from migrations on an empty database."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import numpy as np
import pytest
from live_server import LiveServer, books, play, stand_up, web_config
from sqlalchemy import select

from pokerlab.engine import CALL, FOLD, RAISE, ROUND_NAMES, UNKNOWN, GameConfig, HandState
from pokerlab.interfaces.phh import read_phh
from pokerlab.interfaces.web.db import Database, Hand, User
from pokerlab.interfaces.web.store import HandLedger, seat_counters
from pokerlab.interfaces.web.tables import jsonable

INFO_BOT = f"{Path(__file__).with_name('info_bot.py')}:InfoBot"
SHY_INFO_BOT = f"{Path(__file__).with_name('info_bot.py')}:ShyInfoBot"


def test_bankrolls_are_the_sum_of_finished_hands_and_chips_are_conserved(tmp_path, database_url):
    tables = "10-20/4/call,loose-aggressive,tight-passive"
    server = LiveServer(web_config(tmp_path, tables, database=database_url))
    try:
        alice = server.person("alice")
        alice.post("/api/tables/1/sit", json={})
        with server.socket(alice, 1) as ws:
            play(ws, 12, action="raise")
        stand_up(alice, 1)
        me = alice.get("/api/me").json()
        curve = alice.get("/api/players/alice/bankroll").json()
        board = {row["name"]: row for row in alice.get("/api/leaderboard").json()}
    finally:
        server.stop()
    accounts, won = books(database_url)
    for user_id, (name, kind, bankroll) in accounts.items():
        assert bankroll == (1000 if kind == "human" else 0) + won[user_id], name
    assert sum(b for _, _, b in accounts.values()) == 1000  # one person was given 1,000; nothing else
    alice_id = next(i for i, (n, _, _) in accounts.items() if n == "alice")
    assert me["bankroll"] == accounts[alice_id][2] != 1000
    assert curve[-1]["bankroll"] == me["bankroll"] and len(curve) == board["alice"]["hands"] >= 12
    assert board["alice"]["vpip"] == board["alice"]["pfr"] > 0  # raising every hand she is asked pre-flop
    expected = (me["bankroll"] - 1000) / 10 / board["alice"]["hands"]
    assert abs(board["alice"]["sb_per_hand"] - expected) < 1e-9


def test_statistics_counters_of_a_hand_worked_by_hand():
    """Three players, 10/20: p0 (small blind) raises, p1 (big blind) re-raises, button folded first;
    p0 calls; flop: p0 checks, p1 bets, p0 calls; turn and river checked."""
    state = HandState(GameConfig(), list(range(6)), [10, 11, 12, 13, 14])
    for action in (FOLD, RAISE, RAISE, CALL, CALL, RAISE, CALL, CALL, CALL, CALL, CALL):
        state.act(action)
    assert state.is_over
    # p2, the button, acts first pre-flop (left of the big blind) and folds
    assert seat_counters(state, 2) == {"vpip": 0, "pfr": 0, "raises": 0, "calls": 0}
    assert seat_counters(state, 0) == {"vpip": 1, "pfr": 1, "raises": 1, "calls": 2}
    assert seat_counters(state, 1) == {"vpip": 1, "pfr": 1, "raises": 2, "calls": 0}


def test_replay_shows_own_and_shown_cards_and_the_bots_thoughts_and_phh_replays(tmp_path, database_url):
    server = LiveServer(web_config(tmp_path, f"10-20/3/{INFO_BOT},call", database=database_url))
    try:
        alice = server.person("alice")
        alice.post("/api/tables/1/sit", json={"seat": 0})
        with server.socket(alice, 1) as ws:
            play(ws, 8)
        stand_up(alice, 1)
        listed = alice.get("/api/hands").json()
        replays = [alice.get(f"/api/hands/{h['id']}").json() for h in listed]
        phhs = alice.get("/api/hands/phh")
        single = alice.get(f"/api/hands/{listed[0]['id']}/phh")
    finally:
        server.stop()
    assert len(listed) >= 8 and [h["id"] for h in listed] == sorted((h["id"] for h in listed), reverse=True)
    thoughts = 0
    for listing, replay in zip(listed, replays, strict=True):
        assert replay["nets"]["0"] == listing["net"] and sum(replay["nets"].values()) == 0
        assert set(replay["holes"]) == {"0"} | set(replay["shown"])
        kinds = {s["seat"]: s["name"] for s in replay["seats"]}
        for step in replay["steps"]:
            # an outside bot's seat is named by its class, numbered when repeated ("InfoBot #2"), never by its
            # file's path on the server
            assert "info_bot.py" not in kinds[step["seat"]]
            if kinds[step["seat"]].startswith("InfoBot") and str(step["seat"]) in replay["holes"]:
                round_index = ROUND_NAMES.index(step["round"])
                assert step["info"] == {
                    "probabilities": [0.0, 1.0, 0.0],
                    "info": {"hand_strength": 0.25, "evs": [0.0, 1.5, -2.0], "round": round_index},
                }
                thoughts += 1
            else:
                assert step["info"] is None
    assert thoughts > 0
    assert phhs.headers["content-disposition"].startswith("attachment")
    path = tmp_path / "alice.phhs"
    path.write_text(phhs.text)
    hands = read_phh(path)  # every hand played through the engine again
    assert len(hands) == len(listed) and all(h.error is None for h in hands)
    for hand, replay in zip(hands, reversed(replays), strict=True):
        assert list(hand.record.nets) == [replay["nets"][str(s["seat"])] for s in replay["seats"]]
        assert list(hand.record.names) == [s["name"] for s in replay["seats"]]
        hidden = len(replay["seats"]) - len(replay["holes"])
        assert sum(hand.record.hole(p)[0] == UNKNOWN for p in range(len(replay["seats"]))) == hidden
    assert single.text in phhs.text and single.headers["content-disposition"].startswith("attachment")


def test_a_hand_left_running_is_void_and_changes_no_bankroll(database_url):
    database = Database(database_url)
    database.migrate()
    store = HandLedger(database)
    bot = store.bot_user("call")
    hand_id = store.start(1, "10-20", GameConfig().to_dict(), 1, [{"user_id": bot}] * 2, [2000, 2000], 5)
    database.engine.dispose()
    database = Database(database_url)  # a restart: a new engine on the same database
    store = HandLedger(database)
    assert store.void_running() == 1 and store.void_running() == 0
    with database.sessions() as db:
        assert db.scalar(select(Hand.status).where(Hand.id == hand_id)) == "void"
        assert db.scalar(select(User.bankroll).where(User.id == bot)) == 0
    database.engine.dispose()


def test_a_bots_non_finite_numbers_are_stored_as_null(database_url):
    """NaN and infinities in a bot's info (strict JSON, and so PostgreSQL's json, has no such numbers)."""
    info = {"ev": float("nan"), "evs": np.array([1.5, np.inf]), "hs": np.float64("-inf"), "n": np.int64(3)}
    decision = jsonable(info)
    assert decision == {"ev": None, "evs": [1.5, None], "hs": None, "n": 3}
    database = Database(database_url)
    database.migrate()
    store = HandLedger(database)
    seats = [{"user_id": store.bot_user("call")}, {"user_id": store.bot_user("raise")}]
    hand_id = store.start(1, "10-20", GameConfig().to_dict(), 1, seats, [2000, 2000], 5)
    state = HandState(GameConfig(), list(range(4)), [10, 11, 12, 13, 14])
    state.act(FOLD)
    store.finish(hand_id, state, seats, [decision])
    with database.sessions() as db:
        assert db.scalar(select(Hand.decisions).where(Hand.id == hand_id)) == [decision]
        assert sorted(db.scalars(select(User.bankroll))) == [-5, 5]  # the small blind (5) folded to the big
    database.engine.dispose()


def test_levels_open_at_their_bankroll_thresholds(tmp_path):
    server = LiveServer(web_config(tmp_path, "10-20/2/call;20-40/2/call;50-100/2/call"))
    try:
        alice, bob = server.person("alice"), server.person("bob")
        assert alice.get("/api/me").json()["levels"] == ["10-20"]
        assert [t["open"] for t in alice.get("/api/tables").json()] == [True, False, False]
        refused = alice.post("/api/tables/2/sit", json={})
        assert refused.status_code == 403 and "2000" in refused.json()["detail"]
        con = sqlite3.connect(tmp_path / "web.db")
        con.execute("UPDATE users SET bankroll = 2000 WHERE name = 'alice'")
        con.commit()
        assert alice.get("/api/me").json()["levels"] == ["10-20", "20-40"]
        assert alice.post("/api/tables/3/sit", json={}).status_code == 403
        assert alice.post("/api/tables/2/sit", json={"seat": 1}).json() == {"seat": 1}
        assert alice.post("/api/tables/1/sit", json={}).status_code == 409  # one table at a time
        con.execute("UPDATE users SET bankroll = 2000 WHERE name = 'bob'")
        con.commit()
        con.close()
        assert bob.post("/api/tables/2/sit", json={"seat": 1}).status_code == 409  # alice's seat
        assert bob.post("/api/tables/2/sit", json={"seat": 7}).status_code == 400
        assert bob.post("/api/tables/9/sit", json={}).status_code == 404
        stand_up(alice, 2)
        assert alice.post("/api/tables/1/sit", json={}).status_code == 200
    finally:
        server.stop()


def test_reconnect_to_the_same_seat_and_tables_without_people_pause(tmp_path):
    server = LiveServer(web_config(tmp_path, "10-20/3/call,raise"))
    try:
        alice = server.person("alice")
        alice.post("/api/tables/1/sit", json={"seat": 2})
        with server.socket(alice, 1) as ws:
            play(ws, 2)
        with server.socket(alice, 1) as ws:  # back: the whole picture, and the same seat
            table = json.loads(ws.recv(timeout=10))
            assert table["type"] == "table" and table["you"] == 2
            assert table["seats"][2]["name"] == "alice" and table["seats"][2]["connected"]
            frames = play(ws, 2)
            assert any(f["type"] == "hand_start" and len(f["hole"]) == 2 for _, _, f in frames)
        stand_up(alice, 1)
        count = len(alice.get("/api/hands").json())
        con = sqlite3.connect(tmp_path / "web.db")
        (before,) = con.execute("SELECT count(*) FROM hands").fetchone()
        time.sleep(0.5)
        (after,) = con.execute("SELECT count(*) FROM hands").fetchone()
        con.close()
        assert before == after and count >= 4  # nobody sits: the table deals no more hands
    finally:
        server.stop()


@pytest.mark.parametrize("show_thoughts", [False, True])
def test_a_bots_thoughts_stay_hidden_with_its_cards(tmp_path, show_thoughts):
    """Against a bettor the shy bot folds after the flop and never shows: its logged thoughts, which
    would tell about its cards, are left out of the replay with them, unless the server shows them all."""
    server = LiveServer(web_config(tmp_path, f"10-20/2/{SHY_INFO_BOT}", show_thoughts=show_thoughts))
    try:
        alice = server.person("alice")
        alice.post("/api/tables/1/sit", json={"seat": 1})
        with server.socket(alice, 1) as ws:
            play(ws, 4, "raise")
        stand_up(alice, 1)
        replays = [alice.get(f"/api/hands/{h['id']}").json() for h in alice.get("/api/hands").json()]
    finally:
        server.stop()
    folded = 0
    for replay in replays:
        bot_steps = [step for step in replay["steps"] if step["seat"] == 0]
        if "0" in replay["holes"]:  # shown down (a hand dealt before alice's socket was open: she checked)
            assert all(step["info"] is not None for step in bot_steps)
        elif bot_steps:  # (none where alice, gone, folded first)
            assert bot_steps[-1]["action"] == "fold"
            assert all((step["info"] is not None) == show_thoughts for step in bot_steps)
            folded += 1
    assert folded >= 3


def test_loki2s_thoughts_reach_the_replay(tmp_path):
    """A real bot's log (Loki-2: hand strength, probability triple, simulated EVs) is stored as JSON."""
    server = LiveServer(web_config(tmp_path, "10-20/3/loki2,call"))
    try:
        alice = server.person("alice")
        alice.post("/api/tables/1/sit", json={"seat": 2})
        with server.socket(alice, 1) as ws:
            play(ws, 3)
        stand_up(alice, 1)
        steps = [
            s
            for h in alice.get("/api/hands").json()
            for s in alice.get(f"/api/hands/{h['id']}").json()["steps"]
        ]
    finally:
        server.stop()
    thoughts = [s["info"] for s in steps if s["seat"] == 0 and s["info"] is not None]
    triples = [t for t in thoughts if "triple" in t["info"]]  # after the flop; before it, only the rule
    assert triples and all("rule" in t["info"] for t in thoughts)
    for t in triples:
        assert abs(sum(t["probabilities"]) - 1) < 1e-9
        assert 0 <= t["info"]["hs_n"] <= 1 and abs(sum(t["info"]["triple"]) - 1) < 1e-6
