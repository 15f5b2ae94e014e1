"""The ACPC client and dealer over loopback: against each other, against misbehaving clients, and the client
against a scripted fake dealer. Every socket wait here is bounded by a timeout."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

import pokerlab
from pokerlab.actions import RAISE
from pokerlab.agents import Agent, make_agent
from pokerlab.engine import GameConfig
from pokerlab.interfaces.acpc.channel import Channel, ConnectionClosed
from pokerlab.interfaces.acpc.client import AcpcClient, play
from pokerlab.interfaces.acpc.dealer import run_dealer
from pokerlab.interfaces.acpc.matchstate import parse_matchstate
from pokerlab.interfaces.cli import main

CONFIG = GameConfig()


def _dealer(names, hands, seed=0, **options):
    """Start a dealer in a thread; returns (thread, box with "ports" and later "result")."""
    box: dict = {}
    ready = threading.Event()

    def on_ports(ports):
        box["ports"] = ports
        ready.set()

    def run():
        box["result"] = run_dealer(CONFIG, names, hands, seed, on_ports=on_ports, **options)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    return thread, box


def _clients(names, ports, seed):
    reports: dict = {}
    threads = [
        threading.Thread(
            target=lambda j=j, name=name, port=port: reports.__setitem__(
                j, play(make_agent(name), CONFIG, "127.0.0.1", port, seed)
            ),
            daemon=True,
        )
        for j, (name, port) in enumerate(zip(names, ports, strict=True))
    ]
    for t in threads:
        t.start()
    return threads, reports


@pytest.mark.parametrize("names", [["random", "raise"], ["random", "raise", "call"], ["loki1", "random"]])
def test_our_client_at_our_dealer_equals_play_match(names, tmp_path):
    hands = 60 if "loki1" in names else 200
    thread, box = _dealer(names, hands, seed=5, out=tmp_path / "run", log_path=tmp_path / "acpc.log")
    threads, reports = _clients(names, box["ports"], 5)
    for t in threads + [thread]:
        t.join(60)
        assert not t.is_alive()
    result = box["result"]
    local = pokerlab.play_match(names, hands=hands, seed=5)
    assert (result.match.nets == local.nets).all()
    assert [reports[j].net for j in range(len(names))] == list(local.nets.sum(axis=0))
    assert all(reports[j].hands == hands and reports[j].warnings == 0 for j in reports)
    assert result.left == {} and not any(result.warnings.values())
    log = (tmp_path / "acpc.log").read_text().splitlines()
    assert sum(line.startswith("STATE:") for line in log) == hands
    assert (
        log[-1]
        == result.score
        == "SCORE:" + "|".join(map(str, local.nets.sum(axis=0))) + ":" + "|".join(names)
    )
    assert (tmp_path / "run" / "summary.json").is_file()


class _Raw:
    """A misbehaving client on a raw socket."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.channel = Channel(self.sock)

    def send(self, text):
        self.sock.sendall(text.encode())

    def states(self, timeout=5):
        """Lines until the dealer stops talking for `timeout` s or closes."""
        out = []
        try:
            while (line := self.channel.readline(timeout)) is not None:
                out.append(line)
        except Exception:  # noqa: BLE001 - closed
            pass
        return out


def _misbehave(behaviour, hands=20, **options):
    options = {"action_timeout": 0.3, "hand_timeout": 1.0, "connect_timeout": 1.0, **options}
    thread, box = _dealer(["call", "bad"], hands, **options)
    threads, reports = _clients(["call"], box["ports"][:1], 0)
    began = time.monotonic()
    behaviour(box["ports"][1])
    for t in threads + [thread]:
        t.join(30)
        assert not t.is_alive()
    return box["result"], reports[0], time.monotonic() - began


def test_a_silent_client_without_version_is_folded_for():
    held = []

    def silent(port):
        held.append(socket.create_connection(("127.0.0.1", port), timeout=5))  # connects, says nothing

    result, report, _ = _misbehave(silent)
    assert "no VERSION" in result.left["bad"]
    assert result.match.hands == 20 and report.hands == 20
    # "bad" folds its small blind, or checks its big blind down: call wins 5 or shows down for 10
    nets = list(result.match.nets[:, 0])
    assert nets.count(5) == 10 and set(nets) <= {5, 10, -10}
    held[0].close()


def test_a_client_that_never_connects():
    result, report, _ = _misbehave(lambda port: None)
    assert "did not connect" in result.left["bad"] and report.hands == 20


def test_garbage_and_invalid_actions_become_calls():
    def garbage(port):
        raw = _Raw(port)
        raw.send("VERSION:2.0.0\r\n")
        for _ in range(200):
            try:
                line = raw.channel.readline(2)
            except ConnectionClosed:  # the dealer closed: the match is over
                break
            if line is None:
                break
            if line.startswith("#"):
                continue
            state = parse_matchstate(line)
            if state.is_our_turn(CONFIG):
                raw.send("hello\r\n" + "x" * 5000 + "\n;comment\r\n" + line + ":q\r\n")
        raw.sock.close()

    result, report, _ = _misbehave(garbage, hands=5)
    assert result.match.hands == 5 and report.hands == 5
    assert result.warnings["bad"] >= 5  # garbage, the long line and the unknown action each warned
    assert result.left == {}
    assert (result.match.nets == pokerlab.play_match(["call", "call"], hands=5).nets).all()


def test_a_client_that_disconnects_mid_match():
    def leave(port):
        raw = _Raw(port)
        raw.send("VERSION:2.0.0\r\n")
        answered = 0
        while answered < 3:
            line = raw.channel.readline(5)
            if (
                line is not None
                and line.startswith("MATCHSTATE")
                and parse_matchstate(line).is_our_turn(CONFIG)
            ):
                raw.send(line + ":c\r\n")
                answered += 1
        raw.sock.close()

    result, report, _ = _misbehave(leave)
    assert result.left["bad"].startswith("disconnected")
    assert result.match.hands == 20 and report.hands == 20


def test_a_slow_client_times_out_per_action_and_per_hand():
    def slow(port):
        raw = _Raw(port)
        raw.send("VERSION:2.0.0\r\n")
        ends = time.monotonic() + 20
        while time.monotonic() < ends:
            try:
                line = raw.channel.readline(5)
            except Exception:  # noqa: BLE001 - the dealer closed: done
                break
            if line is None:
                break
            if line.startswith("MATCHSTATE") and parse_matchstate(line).is_our_turn(CONFIG):
                time.sleep(0.4)  # later than the action limit of 0.3 s
                try:
                    raw.send(line + ":r\r\n")
                except OSError:  # the dealer closed: done
                    break
        raw.sock.close()

    result, report, took = _misbehave(slow, hands=6)
    assert result.match.hands == 6 and report.hands == 6
    assert result.match.faults[1] >= 6  # timed out at least once a hand
    assert took < 15  # bounded by the limits, not by the client


class _OneAction(Agent):
    name = "one"

    def __init__(self, action):
        super().__init__()
        self.action = action
        self.hands = 0

    def act(self, view):
        return self.action

    def end_hand(self, end):
        self.hands += 1


def test_client_lines_at_a_scripted_fake_dealer():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(10)
    received: list[str] = []
    script = [
        "# a comment",
        "; another",
        "MATCHSTATE:1:0::|AsKd",  # our turn (the button, pre-flop)
        "MATCHSTATE:1:0:r:|AsKd",  # not our turn: no answer
        "MATCHSTATE:1:0:rc/:|AsKd/2c3c4c",
        "MATCHSTATE:1:0:rc/r:|AsKd/2c3c4c",  # our turn
        "garbage that is no state",
        "MATCHSTATE:1:0:rc/rr:|AsKd/2c3c4c",
        "MATCHSTATE:1:0:rc/rrf:|AsKd/2c3c4c",  # over: the agent hears the end
        "MATCHSTATE:0:1::QhQd|",  # hand 1: not our turn
    ]

    def fake():
        conn, _ = server.accept()
        channel = Channel(conn)
        received.append(channel.readline(5))
        for line in script:
            channel.send(line)
            if line in ("MATCHSTATE:1:0::|AsKd", "MATCHSTATE:1:0:rc/r:|AsKd/2c3c4c"):
                received.append(channel.readline(5))
        channel.close()

    thread = threading.Thread(target=fake, daemon=True)
    thread.start()
    agent = _OneAction(RAISE)
    channel = Channel(socket.create_connection(("127.0.0.1", server.getsockname()[1]), timeout=10))
    report = AcpcClient(agent, CONFIG, channel).play()
    thread.join(10)
    server.close()
    assert received == [
        "VERSION:2.0.0",
        "MATCHSTATE:1:0::|AsKd:r",
        "MATCHSTATE:1:0:rc/r:|AsKd/2c3c4c:r",
    ]
    assert report.hands == 1 and agent.hands == 1 and report.net == 30  # won the pre-flop 20 and the flop bet
    assert report.warnings == 1  # the garbage line


def test_cli_errors_are_one_line(capsys):
    assert main(["acpc", "dealer", "--game", "holdem.limit.3p", "--hands", "2", "a", "b"]) == 2
    assert "3 players" in capsys.readouterr().err
    assert main(["acpc", "play", "--agent", "call", "--game", "holdem.limit.3p", "127.0.0.1", "1"]) == 2
    assert "cannot connect" in capsys.readouterr().err


def test_acpc_match_command_plays_duplicate_over_the_protocol(capsys, tmp_path):
    status = main(
        ["acpc", "match", "--game", "holdem.limit.2p.reverse_blinds", "--hands", "30", "--seed", "4",
         "--connect-timeout", "30", "--json", "--out", str(tmp_path / "m"), "random", "raise"]
    )  # fmt: skip
    assert status == 0
    result = json.loads(capsys.readouterr().out)
    local = pokerlab.duplicate_tournament(["random", "raise"], deals=30, seed=4)
    assert [r["total"] for r in result["results"]] == [r.total for r in local.results]
    assert result["hands"] == 60 and (tmp_path / "m" / "summary.json").is_file()
