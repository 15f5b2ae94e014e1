"""The ACPC client and dealer over loopback: against each other, against misbehaving clients, and the client
against a scripted fake dealer. Every socket wait here is bounded by a timeout."""

from __future__ import annotations

import json
import re
import socket
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import pokerlab
from pokerlab.actions import RAISE
from pokerlab.agents import Agent, make_agent
from pokerlab.arena.match import unique_labels
from pokerlab.arena.output import summarize_folder
from pokerlab.arena.store import read_hands
from pokerlab.engine import ACTION_LETTERS, UNKNOWN, GameConfig, HandState
from pokerlab.errors import BotFault, ConfigError
from pokerlab.interfaces.acpc.channel import Channel, ConnectionClosed
from pokerlab.interfaces.acpc.client import AcpcClient, play
from pokerlab.interfaces.acpc.dealer import run_dealer
from pokerlab.interfaces.acpc.matchstate import (
    SEATS_COMMENT,
    matchstate_of,
    parse_matchstate,
    protocol_name,
    reference_values,
)
from pokerlab.interfaces.acpc.statelog import parse_acpc_state_line
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
        try:
            box["result"] = run_dealer(CONFIG, names, hands, seed, on_ports=on_ports, **options)
        except BotFault as exc:
            box["failed"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    return thread, box


def _clients(names, ports, seed, poll_for=0.0):
    reports: dict = {}
    threads = [
        threading.Thread(
            target=lambda j=j, name=name, port=port: reports.__setitem__(
                j, play(make_agent(name), CONFIG, "127.0.0.1", port, seed, poll_for=poll_for)
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
    totals = _reference_totals(*_true_states(tmp_path / "acpc.log", hands), names)
    assert [reports[j].net for j in range(len(names))] == pytest.approx(totals)
    assert np.abs(np.array(totals) - local.nets.sum(axis=0)).max() < hands * len(names)  # odd chips only
    assert all(reports[j].hands == hands and reports[j].warnings == 0 for j in reports)
    assert result.left == {} and not any(result.match.faults)
    log = (tmp_path / "acpc.log").read_text().splitlines()
    assert sum(line.startswith("STATE:") for line in log) == hands
    assert (
        log[-1]
        == result.score
        == "SCORE:" + "|".join(map(str, local.nets.sum(axis=0))) + ":" + "|".join(names)
    )
    assert (tmp_path / "run" / "summary.json").is_file()


def test_polling_dealer_and_clients_play_the_same_hands(tmp_path):
    """`poll_for` on both sides (`Channel.poll_for`) changes only when the lines are read: the same nets as
    `play_match`, no warning."""
    names, hands = ["random", "raise", "call"], 120
    thread, box = _dealer(names, hands, seed=3, poll_for=2e-4, log_path=tmp_path / "acpc.log")
    threads, reports = _clients(names, box["ports"], 3, poll_for=1e-4)
    for t in threads + [thread]:
        t.join(60)
        assert not t.is_alive()
    local = pokerlab.play_match(names, hands=hands, seed=3)
    assert (box["result"].match.nets == local.nets).all()
    totals = _reference_totals(*_true_states(tmp_path / "acpc.log", hands), names)
    assert [reports[j].net for j in range(len(names))] == pytest.approx(totals)
    assert not any(r.warnings for r in reports.values()) and not any(box["result"].match.faults)


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


def _misbehave(behaviour, hands=20, log_path=None, **options):
    """Seat "bad" plays `behaviour(port)` beside our calling client; (the dealer's result or its
    `BotFault`, the calling client's report, seconds taken)."""
    options = {"action_timeout": 0.3, "hand_timeout": 1.0, "connect_timeout": 1.0, **options}
    thread, box = _dealer(["call", "bad"], hands, log_path=log_path, **options)
    threads, reports = _clients(["call"], box["ports"][:1], 0)
    began = time.monotonic()
    behaviour(box["ports"][1])
    for t in threads + [thread]:
        t.join(30)
        assert not t.is_alive()
    return box.get("result", box.get("failed")), reports[0], time.monotonic() - began


def _calls_then(misbehave, after=6):
    """A client that says VERSION, calls on its first `after` turns, then does ``misbehave(raw, line)``
    with the state it is to answer (and closes when the dealer is done)."""

    def client(port):
        raw = _Raw(port)
        raw.send("VERSION:2.0.0\r\n")
        answered = 0
        try:
            while (line := raw.channel.readline(5)) is not None:
                if line.startswith("MATCHSTATE") and parse_matchstate(line).is_our_turn(CONFIG):
                    if answered == after:
                        misbehave(raw, line)
                        if raw.sock.fileno() < 0:
                            return
                    else:
                        raw.send(line + ":c\r\n")
                    answered += 1
        except (ConnectionClosed, OSError):  # the dealer closed: the match is over
            pass
        raw.sock.close()

    return client


def _answers_every_line(port):
    """Says VERSION, then calls on its first six turns (four a hand) and answers every state line after (its
    turn or not) with a call."""
    raw = _Raw(port)
    raw.send("VERSION:2.0.0\r\n")
    turns = 0
    try:
        while (line := raw.channel.readline(5)) is not None:
            if line.startswith("MATCHSTATE"):
                ours = parse_matchstate(line).is_our_turn(CONFIG)
                if ours or turns >= 6:
                    raw.send(line + ":c\r\n")
                turns += ours
    except (ConnectionClosed, OSError):  # the dealer closed: the match is over
        pass
    raw.sock.close()


HOSTILE = {
    # name: (the client, what its line says); a client that connects faults in the second hand
    "never connects": (lambda port: None, "left the table (did not connect to port "),
    "connects, says nothing": (
        lambda port: _HELD.append(socket.create_connection(("127.0.0.1", port), timeout=5)),
        "left the table (sent no VERSION line within 1.0 s) (in its first hand; ",
    ),
    "goes silent": (
        _calls_then(lambda raw, line: None),
        "timed out (no answer within the action limit of 0.3 s) (1 faults in the session; ",
    ),
    "sends garbage": (
        _calls_then(lambda raw, line: raw.send(f"hello\r\n{line}:c\r\n")),
        "failed: sent 'hello', which is no answer (1 faults",
    ),
    "answers out of turn": (
        _answers_every_line,
        "failed: answered a state it was not asked to act in: 'MATCHSTATE:",
    ),
    "sends an unknown action": (
        _calls_then(lambda raw, line: raw.send(f"{line}:q\r\n")),
        "failed: answered 'q', not f, c/k or r/b (1 faults",
    ),
    "disconnects mid-hand": (
        _calls_then(lambda raw, line: raw.sock.close()),
        "left the table (in hand 1: disconnected (the other side closed the connection)) (1 faults",
    ),
}
_HELD: list[socket.socket] = []


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_hostile_client_stops_the_match_with_one_line(hostile, tmp_path):
    """As ACPC's reference dealer: `BotFault` naming the player, its port, what happened and when; no
    SCORE line, the hands finished before the fault kept in the log as a calling client would have
    played them."""
    client, says = HOSTILE[hostile]
    failed, report, took = _misbehave(client, log_path=tmp_path / "acpc.log")
    while _HELD:
        _HELD.pop().close()
    assert isinstance(failed, BotFault), failed
    line = str(failed)
    assert line.startswith("agent bad ") and says in line and "\n" not in line
    assert "; --tolerate-faults checks or folds for it); the match stopped after " in line
    log = (tmp_path / "acpc.log").read_text().splitlines()
    played = [row for row in log if row.startswith("STATE:")]
    assert not any(row.startswith("SCORE:") for row in log) and log[-1] == f"# {line}"
    assert line.endswith(f"the match stopped after {len(played)} hand" + ("" if len(played) == 1 else "s"))
    assert len(played) == (0 if hostile in ("never connects", "connects, says nothing") else 1)
    thread, box = _dealer(["call", "bad"], 20, log_path=tmp_path / "clean.log")
    threads, _ = _clients(["call", "call"], box["ports"], 0)
    for t in threads + [thread]:
        t.join(30)
    clean = (tmp_path / "clean.log").read_text().splitlines()
    assert played == [row for row in clean if row.startswith("STATE:")][: len(played)]
    assert took < 10


@pytest.mark.parametrize("hostile", HOSTILE)
def test_with_tolerate_faults_a_hostile_client_is_checked_or_folded_for(hostile):
    """``tolerate_faults`` keeps the old rule: the match plays every hand, the other seat's client sees
    them all, and the hostile seat's faults are counted (and why it left, where it left)."""
    client, _ = HOSTILE[hostile]
    result, report, _ = _misbehave(client, tolerate_faults=True)
    while _HELD:
        _HELD.pop().close()
    assert result.match.hands == 20 and report.hands == 20
    assert result.match.faults[1] >= 1 and result.match.faults[0] == 0
    assert result.match.results[1].faults == result.match.faults[1]  # the results table marks the seat
    gone = {"never connects": "did not connect", "connects, says nothing": "no VERSION"}.get(hostile)
    if gone or hostile == "disconnects mid-hand":
        assert (gone or "disconnected") in result.left["bad"]
    else:
        assert result.left == {}


def test_tolerated_bad_lines_are_checked_or_folded_for_and_counted():
    """Garbage, an over-long line and an unknown action on every turn: with faults tolerated each is a
    fault of the seat, checked or folded for (an answer that comes after is stale, skipped), and the match
    plays every hand."""

    def garbage(port):
        raw = _Raw(port)
        raw.send("VERSION:2.0.0\r\n")
        try:
            while (line := raw.channel.readline(2)) is not None:
                if line.startswith("MATCHSTATE") and parse_matchstate(line).is_our_turn(CONFIG):
                    raw.send("hello\r\n" + "x" * 5000 + "\n;comment\r\n" + line + ":q\r\n")
        except (ConnectionClosed, OSError):  # the dealer closed: the match is over
            pass
        raw.sock.close()

    result, report, _ = _misbehave(garbage, hands=5, tolerate_faults=True)
    assert result.match.hands == 5 and report.hands == 5
    assert result.match.faults[1] >= 5 and result.match.faults[0] == 0  # a fault on every one of its turns
    assert result.left == {}


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

    result, report, took = _misbehave(slow, hands=3, tolerate_faults=True)
    assert result.match.hands == 3 and report.hands == 3
    assert result.match.faults[1] >= 3  # timed out at least once a hand
    assert took < 15  # bounded by the limits, not by the client
    failed, report, took = _misbehave(slow, hands=3)
    assert "timed out (no answer within the action limit of 0.3 s) (in its first hand;" in str(failed)
    assert took < 5


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
    assert main(["acpc", "dealer", "-q", "m", "holdem.limit.3p", "2", "0", "a", "b"]) == 2  # options anywhere
    assert "3 players" in capsys.readouterr().err
    assert main(["acpc", "dealer", "--help"]) == 0
    assert "MATCH GAME HANDS SEED NAME..." in capsys.readouterr().out
    assert main(["acpc", "play", "--agent", "call", "--game", "holdem.limit.3p", "127.0.0.1", "1"]) == 2
    assert "cannot connect" in capsys.readouterr().err
    assert (
        main(["acpc", "dealer", "m", "holdem.limit.2p.reverse_blinds", "2", "0", "a", "b", "--poll-us", "-5"])
        == 2
    )
    assert "polls 0 to 100000 microseconds" in capsys.readouterr().err
    assert (
        main(
            [
                "acpc",
                "match",
                "--game",
                "holdem.limit.2p.reverse_blinds",
                "--client-poll-us",
                "1e9",
                "call",
                "call",
            ]
        )
        == 2
    )
    assert "polls 0 to" in capsys.readouterr().err


def test_acpc_dealer_command_fails_or_tolerates_a_player_that_never_connects(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the dealer writes m.log here
    args = ["acpc", "dealer", "m", "holdem.limit.2p.reverse_blinds", "3", "0", "alice", "bob", "-q"]
    assert main([*args, "--start_timeout", "200"]) == 1
    out, err = capsys.readouterr()
    assert len(out.split()) == 2 and "SCORE" not in out  # the ports, then nothing
    *header, last = err.splitlines()
    assert header[0] == "# name/game/hands/seed m holdem.limit.2p.reverse_blinds 3 0" and len(header) == 4
    assert re.match(r"pokerlab: error: agent (alice|bob) left the table \(did not connect to port \d+", last)
    assert last.endswith(
        " within 0.2 s) (in its first hand; --tolerate-faults checks or folds for it); the match "
        "stopped after 0 hands"
    )
    assert (tmp_path / "m.log").read_text().splitlines() == header  # no hand, no SCORE line
    assert main([*args, "--start_timeout", "200", "--tolerate-faults"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[-1].startswith("SCORE:") and out.splitlines()[-1].endswith(":alice|bob")
    assert re.search(r"^alice: 1 fault; left: did not connect to port \d+ within 0.2 s$", err, re.M)
    assert re.search(r"^bob: 1 fault; left: did not connect to port \d+ within 0.2 s$", err, re.M)


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


BOT = Path(__file__).parent / "bots" / "acpc_bot.py"


def _bot(*behaviour):
    return f"cmd:{sys.executable} {BOT} {' '.join(behaviour)}"


def _acpc_match(capfd, *agents, connect_timeout=30.0):
    began = time.monotonic()
    status = main(
        ["acpc", "match", "--game", "holdem.limit.2p.reverse_blinds", "--hands", "6", "--seed", "1",
         "--connect-timeout", str(connect_timeout), *agents]
    )  # fmt: skip
    out, err = capfd.readouterr()
    return status, out, err.strip(), time.monotonic() - began


def _running(*command: str) -> list[int]:
    """The live (not zombie) processes running exactly `command`, in any namespace."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if (entry / "cmdline").read_bytes().split(b"\0")[:-1] == [w.encode() for w in command]:
                if (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                    found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.mark.parametrize(
    "bot, says",
    [
        (f"cmd:{sys.executable} -c 'raise SystemExit(3)'", "its program exited with status 3)"),
        (
            _bot("crash", "3"),
            "in hand 0: disconnected (the other side closed the connection; its program exited with "
            "status 1)",
        ),
    ],
)
def test_acpc_match_stops_at_a_program_that_exits(bot, says, capfd):
    """A cmd: bot that exits at once, or crashes mid-match: one line, exit status 1, no SCORE line, and no
    wait for the connect limit."""
    status, out, err, took = _acpc_match(capfd, "call", bot)
    assert status == 1 and "SCORE" not in out
    name = protocol_name(bot)  # the name in the log (no ':' or spaces)
    assert err.startswith(f"pokerlab: error: session 0: agent {name} left the table (") and says in err
    assert "\n" not in err and took < 20


def test_acpc_match_stops_at_a_program_that_never_connects_and_ends_it(capfd):
    code = 'import subprocess, time; subprocess.Popen(["sleep", "3002"]); time.sleep(300)'
    never = f"cmd:{sys.executable} -c '{code}'"
    status, out, err, took = _acpc_match(capfd, never, "call", connect_timeout=1.0)
    assert status == 1 and "SCORE" not in out and "\n" not in err
    assert "left the table (sent no VERSION line within 1.0 s) (in its first hand; " in err and took < 10
    assert err.endswith("; the match stopped after 0 hands")
    assert _running("sleep", "3002") == []  # the program and its child ended with its sandbox


def test_acpc_match_ends_what_a_bot_started(capfd):
    status, out, _, _ = _acpc_match(capfd, _bot("fork"), "call")
    assert status == 0 and "SCORE:" in out
    assert _running("sleep", "3001") == []


def test_a_sandboxed_bot_has_its_one_connection_and_no_other(capfd, monkeypatch):
    """The bot plays its match through its connection to the dealer; a second connection, to a port that
    listens on the host's 127.0.0.1, fails (its own network namespace), and nothing reaches that port.
    (Its script is named by a relative path, which the sandbox, starting in its own /tmp, still finds.)"""
    other = socket.create_server(("127.0.0.1", 0))
    other.settimeout(0.5)
    monkeypatch.chdir(BOT.parent)
    bot = f"cmd:{sys.executable} ./{BOT.name} connect {other.getsockname()[1]}"
    status, out, err, _ = _acpc_match(capfd, bot, "call")
    assert status == 0 and "SCORE:" in out and "12 hands over the ACPC protocol" in out
    assert err.count("second connection: failed (") == 2 and "opened" not in err  # once a session
    with pytest.raises(TimeoutError):
        other.accept()
    other.close()


def test_a_sandboxed_bot_sees_neither_the_results_folder_nor_the_log(capfd, tmp_path):
    """Its own folder is visible to it (it names it), the results folder in it is not; a log file there
    (every hole card of every hand) is refused with one line, as it cannot be hidden."""
    bot = tmp_path / "bot.py"
    bot.write_text(BOT.read_text())
    run = tmp_path / "run"
    status, out, err, _ = _acpc_match(
        capfd, f"cmd:{sys.executable} {bot} look {run / 'config.json'}", "call", "--out", str(run)
    )
    assert status == 0 and (run / "config.json").is_file()
    assert err.count(f"sees {run / 'config.json'}: False") == 2
    log = tmp_path / "match.log"
    status, out, err, _ = _acpc_match(capfd, f"cmd:{sys.executable} {bot} call", "call", "--log", str(log))
    assert status == 2 and err.startswith(f"pokerlab: error: {log} lies in {tmp_path}, which the client ")
    assert err.endswith("can read: put it elsewhere") and "\n" not in err


def test_without_a_sandbox_layer_cmd_bots_are_refused_or_run_with_the_rest(capfd, monkeypatch):
    """--sandbox required (the default) refuses with one line where a layer is missing; best-effort says
    so and plays (here with no namespaces at all: the relay then listens on a port of the host)."""
    from pokerlab.arena import sandbox

    monkeypatch.setattr(sandbox, "missing_layers", lambda: ["namespaces need bubblewrap"])
    status, out, err, _ = _acpc_match(capfd, _bot("call"), "call")
    assert status == 2 and "SCORE" not in out
    missing = "sandbox layers missing: namespaces need bubblewrap (or run with --sandbox best-effort)"
    assert err == f"pokerlab: error: {missing}"
    monkeypatch.setattr(sandbox, "_namespaces_work", lambda: False)
    status, out, err, _ = _acpc_match(capfd, _bot("call"), "call", "--sandbox", "best-effort")
    assert status == 0 and "SCORE:0|0:" in out


def test_acpc_match_tolerates_a_crashing_bot_when_asked(capfd):
    status, out, err, _ = _acpc_match(capfd, "call", _bot("crash", "3"), "--tolerate-faults")
    assert status == 0 and "SCORE:" in out
    row = next(line for line in out.splitlines() if "crash" in line)
    assert row.endswith("]  FAULTS 2")  # its row in the results table is marked: it left both sessions
    assert "crash_3: 2 faults; left: session 0: in hand 0: disconnected" in err
    assert "; session 1: in hand 0: disconnected (the other side closed the connection; its program" in err


# -- the proof: every message of long matches, checked --------------------------------------------------


class _Recording(Channel):
    """A client's channel that keeps every line it reads and sends."""

    def __init__(self, sock):
        super().__init__(sock)
        self.talk: list[tuple[str, str]] = []  # ("in" | "out", line)

    def readline(self, timeout=None):
        line = super().readline(timeout)
        if line is not None:
            self.talk.append(("in", line))
        return line

    def send(self, line):
        self.talk.append(("out", line))
        super().send(line)


def _true_states(log_path, hands):
    """Every state of every hand the dealer logged (the start, after each action), rebuilt by the engine
    from its STATE lines (which must replay to the nets they state), and the names by position."""
    hands_states, names = [], []
    for line in log_path.read_text().splitlines():
        if line.startswith("STATE:"):
            record = parse_acpc_state_line(line, CONFIG)
            state = HandState(CONFIG, list(record.holes), list(record.board))
            states = [state.copy()]
            for _, action in record.actions:
                state.act(action)
                states.append(state.copy())
            hands_states.append(states)
            names.append(line.rsplit(":", 1)[1].split("|"))
    assert len(hands_states) == hands
    return hands_states, names


def _reference_totals(states, seated, names):
    """Each player's total over the logged hands (`_true_states`) as the reference counts a hand
    (`reference_values`: a tied pot split in equal parts, fractions included), what our clients report; by the
    players named."""
    labels = unique_labels(names, sep="-")
    totals = [0.0] * len(labels)
    for hand_states, at in zip(states, seated, strict=True):
        values = reference_values(hand_states[-1])
        for j, label in enumerate(labels):
            totals[j] += values[at.index(label)]
    return totals


def _check_conversation(talk, states, label, names):
    """The whole conversation of one client: VERSION first; every line it read parses back to itself and
    is, in order, exactly what `matchstate_of` makes of the dealer's true state for its position (hands in
    order, none missing, each ending in its finished state); every line it sent is the state it was
    answering, ':' and the very action the dealer then applied, legal there, once per turn of its seat."""
    assert talk[0] == ("out", "VERSION:2.0.0")
    hand, k, asked = -1, -1, None
    for direction, line in talk[1:]:
        if direction == "out":
            assert asked is not None and line.startswith(asked + ":"), line
            state, nxt = states[hand][k], states[hand][k + 1]
            letter = line[len(asked) + 1 :]
            assert ACTION_LETTERS.index(letter) == nxt.actions[-1].action
            assert ACTION_LETTERS.index(letter) in state.legal_actions()
            asked = None
            continue
        if line.startswith("#"):
            assert line.startswith(SEATS_COMMENT)
            continue
        ms = parse_matchstate(line)
        assert ms.format() == line
        if ms.hand != hand:
            assert hand < 0 or k == len(states[hand]) - 1  # the last hand ended
            hand, k = ms.hand, -1
            assert hand < len(states) and names[hand][ms.position] == label
        assert asked is None  # no state goes unanswered when it was the seat's turn
        k_now = len(ms.betting) - ms.betting.count("/")  # limit betting: a letter an action
        assert k_now >= k  # lines of a hand only ever grow
        k = k_now
        truth = states[hand][k]
        assert line == matchstate_of(truth, ms.position, hand).format()
        asked = line if not truth.is_over and truth.actor == ms.position else None
    assert hand == len(states) - 1 and k == len(states[hand]) - 1


@pytest.fixture
def quick_threads():
    """Threads that wait on a socket get the interpreter back within 0.1 ms (the dealer and its clients
    share this process here: the default 5 ms hand-over would be most of the run)."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)
    yield
    sys.setswitchinterval(interval)


def _proof(names, hands, seed, tmp_path):
    log = tmp_path / "acpc.log"
    thread, box = _dealer(
        names, hands, seed, log_path=log, action_timeout=30.0, hand_timeout=60.0, connect_timeout=30.0
    )
    channels = [
        _Recording(socket.create_connection(("127.0.0.1", port), timeout=30)) for port in box["ports"]
    ]
    reports: dict = {}
    threads = [
        threading.Thread(
            target=lambda j=j: reports.__setitem__(
                j, AcpcClient(make_agent(names[j]), CONFIG, channels[j], seed).play()
            ),
            daemon=True,
        )
        for j in range(len(names))
    ]
    for t in threads:
        t.start()
    for t in threads + [thread]:
        t.join(600)
        assert not t.is_alive()
    result = box["result"]
    local = pokerlab.play_match(names, hands=hands, seed=seed)
    assert (result.match.nets == local.nets).all()  # the same hands, the same results, seat by seat
    assert result.left == {} and not any(result.match.faults)
    states, seated = _true_states(log, hands)
    labels = unique_labels(names, sep="-")
    totals = _reference_totals(states, seated, names)
    for j, channel in enumerate(channels):
        assert reports[j].warnings == 0 and reports[j].hands == hands
        assert reports[j].net == pytest.approx(totals[j])
        _check_conversation(channel.talk, states, labels[j], seated)
    for h, (hand_states, at) in enumerate(zip(states, seated, strict=True)):  # the log's nets are the match's
        nets = hand_states[-1].nets
        assert [nets[at.index(label)] for label in labels] == list(result.match.nets[h])


@pytest.mark.parametrize(
    "names, hands",
    [(["random", "raise"], 300), (["random", "raise", "call"], 100), (["random", "raise", "call"] * 2, 40)],
)
def test_every_message_of_a_short_match_is_valid(names, hands, quick_threads, tmp_path):
    _proof(names, hands, seed=11, tmp_path=tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize(
    "names, hands",
    [
        (["random", "raise"], 3000),
        (["random", "raise", "call"], 2000),
        (["random", "call", "raise", "call", "random", "call"], 1000),
        (["loki1", "random", "loki1-basic"], 300),
    ],
)
def test_every_message_of_thousands_of_hands_is_valid(names, hands, quick_threads, tmp_path):
    _proof(names, hands, seed=12, tmp_path=tmp_path)


def test_the_client_writes_every_hand_to_its_results_folder(tmp_path):
    names = ["random", "raise", "call"]
    thread, box = _dealer(names, 120, seed=3)
    outs = [tmp_path / f"client{j}" for j in range(3)]
    reports: dict = {}
    threads = [
        threading.Thread(
            target=lambda j=j: reports.__setitem__(
                j, play(make_agent(names[j]), CONFIG, "127.0.0.1", box["ports"][j], 3, out=outs[j])
            ),
            daemon=True,
        )
        for j in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads + [thread]:
        t.join(60)
        assert not t.is_alive()
    nets = box["result"].match.nets  # whole chips: our engine gives a split pot's odd chip to one winner
    for j, out in enumerate(outs):
        summary = summarize_folder(out)  # rebuilt from config.json and hands.csv alone
        labels = [names[j] if s == j else f"seat-{s}" for s in range(3)]
        assert summary.labels == labels and list(summary.nets[:, j]) == reports[j].values
        # the reference's count: a tied pot split in equal parts, within a chip of ours, every hand zero-sum
        assert (np.abs(summary.nets - nets) < 1).all() and (summary.nets.sum(axis=1) == 0).all()
        assert json.loads((out / "summary.json").read_text())["hands"] == 120
        records = list(read_hands(out / "hands.sqlite"))
        assert [h for h, _ in records] == list(range(120))
        for _, record in records:  # this seat's cards, and the others' only where shown down
            position = record.names.index(names[j])
            seen = [UNKNOWN not in record.hole(q) for q in range(3)]
            assert seen == [q == position or record.shown[q] for q in range(3)]
    with pytest.raises(ConfigError, match="already holds a run"):
        play(make_agent("call"), CONFIG, "127.0.0.1", 1, out=outs[0])


@pytest.mark.parametrize(
    "bad, says",
    [
        ("cmd:'unterminated", ": cannot split its command (no closing quotation)"),
        ("cmd:  ", " names no program"),
    ],
)
def test_acpc_match_with_a_bad_cmd_is_one_line_and_leaves_no_client(bad, says, capfd):
    client = (sys.executable, "-m", "pokerlab.interfaces.cli", "acpc", "play")
    before = set(_running_prefix(*client))
    status, out, err, _ = _acpc_match(capfd, "call", bad)
    assert status == 2 and err.startswith(f"pokerlab: error: agent {bad!r}{says}") and "\n" not in err, err
    time.sleep(0.5)
    assert set(_running_prefix(*client)) - before == set(), "an acpc play client outlived the match"


def _running_prefix(*prefix: str) -> list[int]:
    """The live processes whose command line starts with `prefix`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")[:-1]
            if words[: len(prefix)] == [w.encode() for w in prefix]:
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.mark.parametrize(
    ("names", "hands", "options", "message"),
    [
        (["call"], 10, {}, "a match needs 2 to 10 agents, got 1"),
        (["call"] * 2, 0, {}, "hands must be a positive integer, got 0"),
        (["call"] * 2, 0, {"duplicate": True}, "deals must be a positive integer, got 0"),
        (["call"] * 2, 5, {"hand_timeout": 0}, "hand_timeout must be a positive number of seconds"),
    ],
)
def test_dealer_checks_a_match_as_play_match_does(names, hands, options, message):
    """The dealer's arguments are checked by the arena's own `check_match`, before any port is opened."""
    with pytest.raises(ConfigError, match=message):
        run_dealer(CONFIG, names, hands, **options)
    if "hand_timeout" not in options:  # a match in this process has no hand deadline
        with pytest.raises(ConfigError, match=message):
            pokerlab.play_match(names, hands, CONFIG, **options)
