"""A web table people can trust (issue 25): each attack a hostile player tried, on a live server.

Unpredictable deals across restarts (and reproducible ones only under a practice seed, said so), the
header-rotating brute force, sign-up floods, bodies refused before they are read, look-alike names, nested
bodies and huge ids, log-out closing sockets, the same-origin rules for clients that are not browsers (the
browser's side is in e2e/test_e2e_cross_site.py), security headers, and the log-in flood against a busy
table's hands per second.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from live_server import LiveServer, frames_until, web_config
from sqlalchemy import select
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from pokerlab.arena.dealing import deal_cards
from pokerlab.engine import GameConfig, HandRecord, HandState
from pokerlab.interfaces.phh import hand_from_phh, to_phh
from pokerlab.interfaces.web.db import Database, Hand, User

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "web.py"
BOTS = "10-20/3/call,tight-aggressive"


def dealt(url: str) -> list[tuple[int, int, list[int]]]:
    """(id, seed, hole cards then board) of every finished hand, by id."""
    database = Database.open(url)
    try:
        with database.sessions() as db:
            rows = db.execute(
                select(Hand.id, Hand.seed, Hand.holes, Hand.board)
                .where(Hand.status == "finished")
                .order_by(Hand.id)
            ).all()
    finally:
        database.engine.dispose()
    return [(i, seed, list(holes) + list(board)) for i, seed, holes, board in rows]


def play_a_while(config, hands: int) -> list[tuple[int, int, list[int]]]:
    """Start a server whose bot table plays on, until `hands` more hands are stored; the hands it dealt."""
    before = {h[0] for h in dealt(config.database)}
    server = LiveServer(config)
    try:
        deadline = time.monotonic() + 60
        while len(new := [h for h in dealt(config.database) if h[0] not in before]) < hands:
            assert time.monotonic() < deadline, "the bot table did not play"
            time.sleep(0.05)
        listing = server.client().get("/api/tables").json()
    finally:
        server.stop()
    assert all(t["practice"] == (config.seed is not None) for t in listing)
    return new[:hands]


def test_deals_are_secret_per_hand_stored_for_audit_and_differ_across_restarts(tmp_path, database_url):
    """The predictor of the issue matched hand numbers to deals: without --seed, four starts on one database
    deal different first hands, every hand's stored seed re-deals it, and no seed repeats."""
    config = web_config(tmp_path, BOTS, database=database_url, seed=None, run_bot_tables=True)
    starts = [play_a_while(config, 5) for _ in range(4)]
    firsts = [tuple(hands[0][2]) for hands in starts]
    assert len(set(firsts)) == 4, "a restart dealt the same first hand again"
    every = [h for hands in starts for h in hands]
    assert len({seed for _, seed, _ in every}) == len(every)
    for _, seed, cards in every:
        assert 0 <= seed < 2**63 and deal_cards(seed, 0, 3) == cards  # the audit re-deals it


def test_a_practice_seed_deals_reproducibly_and_says_so(tmp_path, caplog):
    config = web_config(tmp_path, BOTS, seed=11, run_bot_tables=True)
    first = play_a_while(config, 3)
    again = play_a_while(replace(config, database=f"sqlite:///{tmp_path / 'other.db'}"), 3)
    assert [cards for _, _, cards in first] == [cards for _, _, cards in again]
    assert "practice: deals are reproducible (--seed 11)" in caplog.text


def test_no_seed_reaches_a_player(tmp_path):
    server = LiveServer(web_config(tmp_path, "10-20/2/call", seed=None, action_seconds=2.0))
    try:
        alice = server.person("alice")
        alice.post("/api/tables/1/sit", json={"seat": 0})
        with server.socket(alice, 1) as ws:
            seen = frames_until(ws, lambda f: f["type"] == "hand_end")
        replay = alice.get(f"/api/hands/{seen[-1][1]['hand']}")
        seeds = {seed for _, seed, _ in dealt(server.config.database)}
    finally:
        server.stop()
    assert replay.status_code == 200 and seeds
    for text in [raw for raw, _ in seen] + [replay.text]:
        assert '"seed"' not in text and not any(str(seed) in text for seed in seeds)


def wrong_logins(client, count: int, name: str = "victim", rotate: bool = True) -> list[int]:
    """Status codes of `count` wrong-password log-ins, each (with `rotate`) from a new X-Forwarded-For."""
    codes = []
    for k in range(count):
        headers = {"X-Forwarded-For": f"10.0.{k // 250}.{k % 250 + 1}"} if rotate else {}
        body = {"name": name, "password": f"guess {k:04d}"}
        codes.append(client.post("/api/login", json=body, headers=headers).status_code)
    return codes


def test_a_rotating_x_forwarded_for_does_not_bypass_the_log_in_limit(tmp_path):
    """Forwarded headers are believed only from a --trusted-proxy; from one, each name still has a limit of
    its own (from any address) and each address one for any names."""
    config = web_config(tmp_path)
    server = LiveServer(config)
    try:
        server.person("victim", "the right one")
        codes = wrong_logins(server.client(), 8)
        assert codes == [401] * 5 + [429] * 3  # the header was ignored: one address, one name
    finally:
        server.stop()
    proxied = LiveServer(replace(config, trusted_proxies=("127.0.0.1",), name_failures=6, address_failures=6))
    try:
        client = proxied.client()
        assert wrong_logins(client, 8) == [401] * 6 + [429] * 2  # the name's own limit
        right = {"name": "victim", "password": "the right one"}
        locked = client.post("/api/login", json=right, headers={"X-Forwarded-For": "10.9.9.9"})
        assert locked.status_code == 429
        one_address = [wrong_logins(client, 1, name=f"user{k}", rotate=False)[0] for k in range(8)]
        assert one_address == [401] * 6 + [429] * 2  # the address's own limit, whatever the names
    finally:
        proxied.stop()


def test_sign_ups_and_log_ins_per_address_are_limited(tmp_path):
    server = LiveServer(web_config(tmp_path, address_attempts=4))
    try:
        client = server.client()
        codes = [
            client.post("/api/signup", json={"name": f"p{k}", "password": "password1"}).status_code
            for k in range(6)
        ]
        assert codes == [201] * 4 + [429] * 2
        answer = client.post("/api/login", json={"name": "p0", "password": "password1"})
        assert answer.status_code == 429 and "from your address" in answer.json()["detail"]
    finally:
        server.stop()


def raw_request(live, head: str, chunks=(), limit: int = 300 * 2**20) -> tuple[str, int]:
    """Send a request head, then chunks until the server answers (or `limit` bytes); (the answer, bytes of
    body sent)."""
    host, port = live.url.removeprefix("http://").split(":")
    sent = 0
    with socket.create_connection((host, int(port)), timeout=30) as conn:
        conn.sendall(head.encode())
        conn.settimeout(0.001)
        for chunk in chunks:
            try:
                answer = conn.recv(65536)
                break  # the server answered while the body was streaming
            except TimeoutError:
                pass
            try:
                conn.sendall(chunk)
            except OSError:  # the server closed the connection
                break
            sent += len(chunk)
            if sent >= limit:
                break
        else:
            answer = b""
        conn.settimeout(10)
        while b"\r\n\r\n" not in answer:
            more = conn.recv(65536)
            if not more:
                break
            answer += more
    return answer.decode("latin-1"), sent


def test_bodies_are_refused_by_length_and_while_streaming(live):
    """A 300 MB body is never read: by its Content-Length before a byte of it, and chunked after 4 KiB."""
    head = "POST /api/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Requested-With: p\r\n"
    answer, _ = raw_request(live, head + "Content-Length: 300000000\r\n\r\n")
    assert answer.startswith("HTTP/1.1 413") and "at most 4096 bytes" in answer
    chunk = b"10000\r\n" + b" " * 0x10000 + b"\r\n"  # 64 KiB chunks of JSON whitespace
    answer, sent = raw_request(live, head + "Transfer-Encoding: chunked\r\n\r\n", iter(lambda: chunk, None))
    assert answer.startswith("HTTP/1.1 413"), answer[:200]
    assert sent < 32 * 2**20  # refused after a few socket buffers, not after 300 MB


def test_names_are_nfkc_case_insensitive_and_whole(live):
    client = live.client()
    live.person("victim", "password1")
    for name in ("victim\n", "victim\r", "vic\x00tim", "\tvictim", "victim "):
        answer = client.post("/api/signup", json={"name": name, "password": "password1"})
        assert answer.status_code == 400 and "letters, digits" in answer.json()["detail"], repr(name)
    for name in ("Victim", "VICTIM", "ｖｉｃｔｉｍ"):  # the last one fullwidth: NFKC makes it victim
        answer = client.post("/api/signup", json={"name": name, "password": "password1"})
        assert answer.status_code == 409 and "taken" in answer.json()["detail"], name
    assert (
        client.post("/api/login", json={"name": "VICTIM", "password": "password1"}).json()["name"] == "victim"
    )
    names = [row["name"] for row in client.get("/api/leaderboard").json()]
    assert names.count("victim") == 1 and not any(n.lower() == "victim" and n != "victim" for n in names)


def test_phh_export_escapes_any_name():
    """Names an older server let in (a newline, quotes, a backslash, NUL) stay inside their TOML strings."""
    pokerkit_hands = pytest.importorskip("pokerkit_hands")
    state = HandState(GameConfig(), list(range(4)), [10, 11, 12, 13, 14])
    while not state.is_over:
        state.act(1)
    names = ('victim\n[1]\nplayers = ["x"]', 'say "hi"\\ nul\x00\x7f')
    record = HandRecord(
        state.config, tuple(state.starting_stacks), tuple(state.holes), tuple(state.board_seen),
        tuple((r.position, r.action) for r in state.actions), tuple(state.nets), tuple(state.shown()), names,
    )  # fmt: skip
    text = to_phh(record)
    assert tomllib.loads(text)["players"] == list(names)
    assert hand_from_phh(tomllib.loads(text)).names == names
    assert pokerkit_hands.replay_in_pokerkit(text) == list(record.nets)


def test_bad_bodies_and_ids_are_4xx_with_one_detail_line(live):
    alice = live.person("alice")
    for depth in (1000, 2000):
        answer = alice.post("/api/tables/1/sit", content="[" * depth + "]" * depth)
        assert answer.status_code == 400 and "JSON object" in answer.json()["detail"]
    for path, status in (
        (f"/api/hands/{10**25}", 404),
        (f"/api/hands/{2**31}", 404),
        (f"/api/hands/{2**31}/phh", 404),
        ("/api/hands/abc", 400),
        ("/api/hands/-1", 400),
        ("/api/hands/1.5", 400),
        (f"/api/hands/{'9' * 5000}", 404),
    ):
        answer = alice.get(path)
        assert answer.status_code == status and isinstance(answer.json()["detail"], str), (path, answer.text)
    for path, status in ((f"/api/tables/{10**25}/sit", 404), ("/api/tables/x/leave", 400)):
        answer = alice.post(path, json={})
        assert answer.status_code == status and isinstance(answer.json()["detail"], str), path
    for table in (str(10**25), "x", "9" * 5000):
        with pytest.raises(InvalidStatus) as refused:
            connect(f"{live.ws_url}/ws/tables/{table}", additional_headers={"Cookie": cookie(alice)})
        assert refused.value.response.status_code == 403


def cookie(client) -> str:
    return f"session={client.cookies.get('session')}"


def test_log_out_everywhere_closes_every_socket_of_the_person(live):
    phone = live.person("alice")
    laptop = live.client()
    assert laptop.post("/api/login", json={"name": "alice", "password": "correct horse"}).status_code == 200
    bob = live.person("bob")
    with live.socket(phone, 1) as first, live.socket(laptop, 1) as second, live.socket(bob, 1) as other:
        for ws in (first, second, other):
            frames_until(ws, lambda f: f["type"] == "table")
        assert phone.post("/api/logout-everywhere").status_code == 204
        for ws in (first, second):
            with pytest.raises(ConnectionClosed):
                frames_until(ws, lambda f: False, timeout=10)
        other.send(json.dumps({"type": "ping"}))
        assert frames_until(other, lambda f: f["type"] == "pong")  # bob's socket stays open
    assert laptop.get("/api/me").status_code == 401 and phone.get("/api/me").status_code == 401
    assert bob.get("/api/me").status_code == 200


def test_requests_from_another_origin_or_without_the_csrf_header_are_refused(tmp_path):
    server = LiveServer(web_config(tmp_path, allowed_origins=("https://poker.example",)))
    try:
        alice = server.person("alice")
        evil = {"Origin": "http://127.0.0.1:1"}
        answer = alice.post("/api/tables/1/sit", json={}, headers=evil)
        assert answer.status_code == 403 and "another site" in answer.json()["detail"]
        bare = httpx.Client(base_url=server.url, cookies=alice.cookies)
        answer = bare.post("/api/tables/1/sit", json={})  # no X-Requested-With: a cross-site form's post
        assert answer.status_code == 403 and "x-requested-with" in answer.json()["detail"]
        assert alice.get("/api/me").json()["table"] is None
        own, allowed = {"Origin": server.url}, {"Origin": "https://poker.example"}
        assert alice.post("/api/tables/1/sit", json={}, headers=own).status_code == 200
        assert alice.post("/api/tables/1/leave", headers=allowed).status_code == 204
        headers = {"Cookie": cookie(alice), **evil}
        with pytest.raises(InvalidStatus) as refused:
            connect(f"{server.ws_url}/ws/tables/1", additional_headers=headers)
        assert refused.value.response.status_code == 403
        with connect(
            f"{server.ws_url}/ws/tables/1", origin=server.url, additional_headers={"Cookie": cookie(alice)}
        ) as ws:
            assert frames_until(ws, lambda f: f["type"] == "table")
    finally:
        server.stop()


def test_every_answer_carries_the_security_headers(live):
    for path in ("/", "/api/tables", "/api/me", "/favicon.svg"):
        headers = live.client().get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
        assert "script-src 'self';" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "same-origin"
    assert live.client().get("/favicon.svg").status_code == 200


def test_bots_of_one_name_at_a_table_have_distinct_names(tmp_path):
    server = LiveServer(web_config(tmp_path, "10-20/5/call,tight-aggressive"))
    try:
        (table,) = server.client().get("/api/tables").json()
    finally:
        server.stop()
    assert [s["name"] for s in table["seats"]] == [
        "call",
        "tight-aggressive",
        "call #2",
        "tight-aggressive #2",
        "call #3",
    ]
    assert [s["agent"] for s in table["seats"]] == ["call", "tight-aggressive"] * 2 + ["call"]


def test_the_leaderboard_ranks_by_chips_won(live):
    """A person who lost is not above a bot's books that won (people start at 1,000, books at 0)."""
    alice = live.person("alice")
    database = Database(live.config.database)
    try:
        with database.write() as db:
            db.execute(User.__table__.update().where(User.name == "alice").values(bankroll=745))
            db.execute(User.__table__.update().where(User.name == "call (bot)").values(bankroll=200))
    finally:
        database.engine.dispose()
    board = alice.get("/api/leaderboard").json()
    assert [(r["name"], r["net"]) for r in board] == [
        ("call (bot)", 200),
        ("tight-aggressive (bot)", 0),
        ("alice", -255),
    ]


@pytest.mark.slow  # a server start-up and six windows of hands: about 20 s (twice that if it looks again)
def test_a_log_in_flood_leaves_a_busy_table_at_least_80_percent_of_its_pace():
    """12 clients log in with random names, each from a new forwarded address (nothing rate-limits them),
    against a table of bots playing on: its hands per second stay within 20 % of its pace without them."""
    spec = importlib.util.spec_from_file_location("web_benchmark", BENCHMARK)
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    for _ in range(2):  # a second look only if another program on this shared machine got in the way
        result = benchmark.measure_flood(seconds=1.5, rounds=3)
        # the flood was under way: every client had a log-in waiting for argon2, none answered otherwise
        assert result["sent"] >= benchmark.FLOOD_CLIENTS and set(result["answers"]) <= {"401"}
        assert result["quiet_hands_per_s"] > 5
        if result["ratio"] >= 0.8:
            break
    assert result["ratio"] >= 0.8, result


def test_log_ins_past_the_hashing_queue_are_told_to_come_back(tmp_path):
    """One hashing thread resting 99 times as long as it hashed, one log-in waiting: the rest get 503
    at once, and their work never reaches argon2. (The rest stays well inside the clients' timeout even on
    a loaded machine, where one cheap hash can take tens of milliseconds.)"""
    server = LiveServer(web_config(tmp_path, hash_queue=1, hash_share=0.01))
    try:
        clients = [server.client() for _ in range(6)]
        body = {"name": "nobody", "password": "password1"}
        with ThreadPoolExecutor(6) as pool:
            answers = list(pool.map(lambda c: c.post("/api/login", json=body), clients))
    finally:
        server.stop()
    codes = sorted(a.status_code for a in answers)
    assert codes.count(503) >= 3 and set(codes) <= {401, 503}, codes
    busy = next(a for a in answers if a.status_code == 503)
    assert "busy" in busy.json()["detail"]
