"""Fuzzing the ACPC client and dealer (hypothesis, derandomized): truncated lines, wrong hand numbers, unknown
action letters, huge lines, garbage, silence and disconnects at any point. Neither side raises, neither
waits past its time limits, and no finished hand is lost: the client keeps every hand whose final line it
was sent, the dealer plays every hand it was asked for, and both results folders and the ACPC log read
back whole. Every socket wait is bounded."""

from __future__ import annotations

import socket
import threading
import time

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerlab.agents import make_agent
from pokerlab.arena.output import summarize_folder
from pokerlab.engine import GameConfig, HandState
from pokerlab.errors import BotFault
from pokerlab.interfaces.acpc.channel import Channel
from pokerlab.interfaces.acpc.client import AcpcClient, play
from pokerlab.interfaces.acpc.client_results import ClientResults
from pokerlab.interfaces.acpc.dealer import run_dealer
from pokerlab.interfaces.acpc.matchstate import matchstate_of, parse_matchstate

CONFIG = GameConfig()
FUZZ = settings(
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _real_hands(hands=6, seed=0):
    """The lines a heads-up dealer sends the seat at position (h + 1) % 2 in hand h, hand after hand, for
    random play: (lines, final line) per hand."""
    rng = np.random.default_rng(seed)
    out = []
    for h in range(hands):
        cards = [int(c) for c in rng.permutation(52)[:9]]
        state = HandState(CONFIG, cards[:4], cards[4:])
        p = (h + 1) % 2
        lines = [matchstate_of(state, p, h).format()]
        while not state.is_over:
            state.act(int(rng.choice(state.legal_actions())))
            lines.append(matchstate_of(state, p, h).format())
        out.append(lines)
    return out


REAL = _real_hands()
STREAM = [line for hand in REAL for line in hand]
FINALS = {hand[-1] for hand in REAL}


def _junk(draw, line: str) -> bytes:
    """A bad line made from a real one."""
    kind = draw(st.sampled_from(["truncated", "hand", "letter", "huge", "text", "comment", "binary"]))
    if kind == "truncated":
        return line[: draw(st.integers(0, len(line) - 1))].encode()
    if kind == "hand":  # a hand number no real hand has (or none at all)
        number = draw(st.one_of(st.integers(1000, 10**9), st.integers(-5, -1), st.just("x")))
        word, position, _, rest = line.split(":", 3)
        return f"{word}:{position}:{number}:{rest}".encode()
    if kind == "letter":
        head, betting, cards = line.rsplit(":", 2)
        at = draw(st.integers(0, len(betting)))
        letter = draw(st.sampled_from("xqk0 R-C"))
        return f"{head}:{betting[:at]}{letter}{betting[at:]}:{cards}".encode()
    if kind == "huge":
        return line.encode() * draw(st.integers(100, 2000))
    if kind == "text":
        return draw(st.text(max_size=60)).replace("\n", " ").encode()
    if kind == "comment":
        return draw(st.sampled_from([b"# pokerlab seats 7|9", b"# pokerlab seats x", b";", b"#"]))
    return draw(st.binary(max_size=40)).replace(b"\n", b" ")


@st.composite
def dealer_streams(draw):
    """The bytes a fuzzed dealer sends: the real lines with junk lines between them, cut off at some
    point (possibly inside a line); which real final lines were sent whole before the cut; and whether
    the client keeps a results folder."""
    chunks, whole_finals = [], []
    for line in STREAM:
        for _ in range(draw(st.integers(0, 2))):
            chunks.append(_junk(draw, line) + draw(st.sampled_from([b"\n", b"\r\n"])))
        chunks.append(line.encode() + b"\r\n")
        if line in FINALS:
            whole_finals.append((len(chunks), line))
    cut = draw(st.integers(0, len(chunks)))
    data = b"".join(chunks[:cut])
    if cut < len(chunks) and draw(st.booleans()):
        data += chunks[cut][: draw(st.integers(0, len(chunks[cut])))]  # disconnect inside a line
    with_folder = draw(st.integers(0, 3)) == 0  # a results folder costs a plot: a quarter of the runs
    return data, [line for at, line in whole_finals if at <= cut], with_folder


def _serve(data: bytes):
    """A dealer on a loopback port that sends `data` once a client says anything, reads all it answers,
    then closes; returns (port, thread, what the client sent)."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(10)
    heard: list[bytes] = []

    def run():
        conn, _ = server.accept()
        conn.settimeout(10)
        heard.append(conn.recv(100))
        reader = threading.Thread(target=lambda: _drain(conn, heard), daemon=True)
        reader.start()
        conn.sendall(data)
        conn.shutdown(socket.SHUT_WR)
        reader.join(10)
        conn.close()
        server.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return server.getsockname()[1], thread, heard


def _drain(conn, heard):
    try:
        while chunk := conn.recv(65536):
            heard.append(chunk)
    except OSError:
        pass


@settings(FUZZ, max_examples=50)
@given(stream=dealer_streams())
def test_the_client_survives_any_dealer_and_keeps_every_finished_hand(stream, tmp_path_factory):
    data, finals, with_folder = stream
    out = tmp_path_factory.mktemp("client") / "run" if with_folder else None
    port, thread, heard = _serve(data)
    began = time.monotonic()
    report = play(make_agent("random"), CONFIG, "127.0.0.1", port, out=out)  # raises nothing
    thread.join(10)
    assert not thread.is_alive() and time.monotonic() - began < 10
    assert b"".join(heard).startswith(b"VERSION:2.0.0\r\n")
    assert set(finals) <= set(report.finals)  # every hand finished on the wire is the client's
    if report.hands and with_folder:
        summary = summarize_folder(out)  # the folder reads back whole
        assert summary.hands == report.hands
    answers = b"".join(heard).decode().split("\r\n")[1:-1]
    for answer in answers:  # every answer is a state it was sent and a legal action
        state, _, letter = answer.rpartition(":")
        assert state.encode() in data and letter in ("f", "c", "r")
        assert parse_matchstate(state).is_our_turn(CONFIG)


@st.composite
def client_behaviours(draw):
    """What a fuzzed client does: how it starts, then, each time it is to act, one behaviour; and whether
    the dealer keeps a results folder."""
    start = draw(st.sampled_from(["version", "version", "version", "garbage", "silent", "leave"]))
    acts = draw(
        st.lists(
            st.sampled_from(
                [
                    "ok",
                    "ok",
                    "ok",
                    "letter",
                    "truncated",
                    "hand",
                    "huge",
                    "garbage",
                    "late",
                    "silent",
                    "leave",
                ]
            ),
            max_size=12,
        )
    )
    with_folder = draw(st.integers(0, 3)) == 0  # a results folder costs a plot: a quarter of the runs
    return start, acts, with_folder


def _fuzz_client(port, start, acts):
    """A client that misbehaves as told; it plays a legal call once the behaviours run out."""
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    except OSError:
        return
    channel = Channel(sock)
    try:
        if start == "leave":
            return
        if start == "garbage":
            sock.sendall(b"HELLO\r\n")
        elif start == "version":
            sock.sendall(b"VERSION:2.0.0\r\n")
        behaviours = iter(acts)
        while True:
            line = channel.readline(5)
            if line is None:
                return
            if not line.startswith("MATCHSTATE") or not parse_matchstate(line).is_our_turn(CONFIG):
                continue
            kind = next(behaviours, "ok")
            if kind == "leave":
                return
            if kind in ("silent",):
                continue  # the dealer times this seat out and moves on
            if kind == "late":
                time.sleep(0.3)
            answer = {
                "letter": f"{line}:x",
                "truncated": f"{line[: len(line) // 2]}:c",
                "hand": line.replace(f":{parse_matchstate(line).hand}:", ":999999:", 1) + ":c",
                "huge": "x" * 9000 + f"\r\n{line}:c",
                "garbage": f"garbage\r\n{line}:c",
            }.get(kind, f"{line}:c")
            sock.sendall(answer.encode() + b"\r\n")
    except Exception:  # noqa: BLE001 - the dealer closed on us: the session is over
        return
    finally:
        sock.close()


@settings(FUZZ, max_examples=12)
@given(behaviour=client_behaviours(), tolerate=st.booleans())
def test_the_dealer_survives_any_client(behaviour, tolerate, tmp_path_factory):
    """With faults tolerated the dealer plays every hand; without, the client's first fault stops the match
    with `BotFault` (no SCORE line; the log and the results folder keep the hands finished before it,
    every one of which reached our client). Either way within its limits."""
    start, acts, with_folder = behaviour
    hands = 4
    folder = tmp_path_factory.mktemp("dealer")
    box: dict = {}
    ready = threading.Event()

    def deal():
        try:
            box["result"] = run_dealer(
                CONFIG,
                ["call", "fuzz"],
                hands,
                seed=2,
                out=folder / "run" if with_folder else None,
                log_path=folder / "acpc.log",
                action_timeout=0.2,
                hand_timeout=0.6,
                connect_timeout=0.5,
                on_ports=lambda ports: (box.setdefault("ports", ports), ready.set()),
                tolerate_faults=tolerate,
            )
        except BotFault as exc:
            box["failed"] = exc

    dealer = threading.Thread(target=deal, daemon=True)
    began = time.monotonic()
    dealer.start()
    assert ready.wait(10)
    reports: dict = {}
    ours = threading.Thread(
        target=lambda: reports.setdefault(
            "call", play(make_agent("call"), CONFIG, "127.0.0.1", box["ports"][0])
        ),
        daemon=True,
    )
    fuzz = threading.Thread(target=_fuzz_client, args=(box["ports"][1], start, acts), daemon=True)
    ours.start()
    fuzz.start()
    for t in (dealer, ours, fuzz):
        t.join(30)
        assert not t.is_alive()
    # bounded by the limits: a connect wait, and at most a hand's budget for each hand
    assert time.monotonic() - began < 0.5 + hands * 0.6 + 5
    log = (folder / "acpc.log").read_text().splitlines()
    played = sum(line.startswith("STATE:") for line in log)
    if "failed" in box:
        assert not tolerate and log[-1] == f"# {box['failed']}" and "\n" not in str(box["failed"])
        assert str(box["failed"]).startswith("agent fuzz ")
        assert played < hands and reports["call"].hands == played
        assert not any(line.startswith("SCORE:") for line in log)
        if with_folder:  # a stopped run's folder, as a killed one's: summarized from what it kept
            assert (folder / "run" / "config.json").is_file()
        return
    result = box["result"]
    assert result.match.hands == hands and reports["call"].hands == hands
    assert reports["call"].net == result.match.nets[:, 0].sum()
    assert played == hands and log[-1] == result.score
    if with_folder:
        assert (summarize_folder(folder / "run").nets == result.match.nets).all()


def test_client_results_close_without_hands(tmp_path):
    """A connection that ends before any hand leaves no folder behind, and raises nothing."""
    results = ClientResults(tmp_path / "none", "call", CONFIG, 0)
    server = socket.create_server(("127.0.0.1", 0))
    sock = socket.create_connection(server.getsockname(), timeout=5)
    conn, _ = server.accept()
    conn.close()
    server.close()
    report = AcpcClient(make_agent("call"), CONFIG, Channel(sock), results=results).play()
    assert report.hands == 0 and not (tmp_path / "none").exists()
