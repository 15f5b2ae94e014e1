"""Our dealer against the reference dealer's own logs: the golden matches (`acpc_golden`) played again by
`pokerlab acpc dealer` with the same command line and bots give the same log (every line) and the same
transcript (timestamps aside), and our clients report the values the reference logged for their seats,
fractions of a chip included. No reference build is needed: its logs are in data/acpc/."""

from __future__ import annotations

import io
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from pokerlab.agents import make_agent
from pokerlab.cards import parse_cards
from pokerlab.errors import BotFault, ConfigError
from pokerlab.interfaces.acpc.client import play
from pokerlab.interfaces.acpc.gamedef import load_gamedef
from pokerlab.interfaces.acpc.refdeal import ReferenceDeals, mt19937_state, reference_seats
from pokerlab.interfaces.acpc.refdealer import chips, parse_reference_command, run_reference
from pokerlab.interfaces.acpc.statelog import parse_acpc_state_line

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent / "bots"))
import acpc_script  # noqa: E402
from acpc_golden import DATA, GOLDEN, Golden  # noqa: E402


def _state_lines(path: Path) -> list[list[str]]:
    return [line.split(":") for line in path.read_text().splitlines() if line.startswith("STATE:")]


def _replay(match: Golden, folder: Path, monkeypatch):
    """Play `match` with our dealer in `folder`: (dealer's stderr, SCORE line, each our client's report)."""
    shutil.copy(DATA / f"{match.game}.game", folder)
    monkeypatch.chdir(folder)
    command, extras = parse_reference_command(match.args())
    assert extras == {}
    config = load_gamedef(command.game).to_config()
    n = len(match.bots)
    ready, box, reports = threading.Event(), {}, {}
    err = io.StringIO()

    def dealer():
        try:
            box["score"] = run_reference(
                command,
                stdout=io.StringIO(),
                stderr=err,
                on_ports=lambda ports: (box.update(ports=ports), ready.set()),
            )
        except BotFault as exc:  # pragma: no cover - the assertion below says it
            box["failed"] = exc

    def client(j, bot, port):
        if bot == "script":
            acpc_script.play("127.0.0.1", port)
        else:
            out = folder / f"client{j}"
            reports[j] = play(make_agent(bot), config, "127.0.0.1", port, out=out, name=bot, players=n)

    threads = [threading.Thread(target=dealer, daemon=True)]
    threads[0].start()
    assert ready.wait(10)
    for j, (bot, port) in enumerate(zip(match.bots, box["ports"], strict=True)):
        threads.append(threading.Thread(target=client, args=(j, bot, port), daemon=True))
        threads[-1].start()
    for t in threads:
        t.join(60)
    assert "failed" not in box, box.get("failed")
    return err.getvalue(), box["score"], reports


@pytest.mark.parametrize("match", GOLDEN, ids=[m.name for m in GOLDEN])
def test_our_dealer_logs_what_the_reference_logged(match, tmp_path, monkeypatch):
    err, score, reports = _replay(match, tmp_path, monkeypatch)
    golden = (DATA / f"{match.name}.log").read_text()
    assert (tmp_path / f"{match.name}.log").read_text() == golden  # header, every STATE line, SCORE
    assert score == golden.splitlines()[-1]
    ours, theirs = (
        [line.split()[:2] for line in path.read_text().splitlines()]
        for path in (tmp_path / f"{match.name}.tlog", DATA / f"{match.name}.tlog")
    )
    assert ours == theirs  # every action and its hand, in order
    # the reference warns for each answer it turned into a call; so do we (one per scripted misstep)
    assert err.count("WARNING: invalid action, changed to call") > 0
    # each of our clients: the value of every hand for its seat, as the reference logged it
    names = [f"{bot}{j + 1}" for j, bot in enumerate(match.bots)]
    for j, report in reports.items():
        logged = [
            float(s[4].split("|")[s[5].split("|").index(names[j])])
            for s in _state_lines(DATA / f"{match.name}.log")
        ]
        assert report.values == logged
        assert report.net == pytest.approx(sum(logged), abs=1e-9)
        with (tmp_path / f"client{j}" / "hands.csv").open() as f:
            header, *rows = [line.strip().split(",") for line in f]
        column = header.index(match.bots[j])
        assert [float(r[column]) for r in rows] == logged  # the results folder keeps fractions too


def test_the_golden_logs_hold_a_fractional_split():
    """At least one golden log splits a pot into halves of a chip, so the comparisons above test fractions."""
    values = [v for m in GOLDEN for s in _state_lines(DATA / f"{m.name}.log") for v in s[4].split("|")]
    assert any(not float(v).is_integer() for v in values)


@pytest.mark.parametrize("match", GOLDEN, ids=[m.name for m in GOLDEN])
def test_reference_cards_and_seats_equal_the_logged_ones(match):
    """`ReferenceDeals` and `reference_seats` against the reference's logs, hand by hand."""
    n = len(match.bots)
    deals = ReferenceDeals(match.seed, n)
    names = [f"{bot}{j + 1}" for j, bot in enumerate(match.bots)]
    for fields in _state_lines(DATA / f"{match.name}.log"):
        cards = deals.next()
        holes, *board = fields[3].split("/")
        assert [c for h in holes.split("|") for c in parse_cards(h)] == cards[: 2 * n]
        played = [c for b in board for c in parse_cards(b)]
        assert played == cards[2 * n : 2 * n + len(played)]
        seats = reference_seats(int(fields[1]), n, match.fixed)
        assert fields[5].split("|") == [names[s] for s in seats]


def test_mt19937_state_equals_numpys_legacy_seeding():
    """Our MT19937 initialisation, checked against numpy's (its legacy integer seeding is the same
    init_genrand): the same 32-bit outputs."""
    for seed in (0, 1, 4242, 2**32 - 1):
        bits = np.random.MT19937()
        bits._legacy_seeding(seed)
        expected = [int(bits.random_raw()) for _ in range(1000)]
        deals = ReferenceDeals(seed, 2)
        assert [deals.rng.getrandbits(32) for _ in range(1000)] == expected
        assert mt19937_state(seed)[0] == seed


def test_chips_are_written_as_the_reference_writes_them():
    assert [chips(v) for v in (20.0, -212.5, 0.0, 1 / 3, -7)] == ["20", "-212.5", "0", "0.333333", "-7"]


def test_the_reference_command_line_is_read_as_its_getopt_reads_it():
    command, extras = parse_reference_command(
        ["-q", "m", "holdem.limit.3p", "10", "7", "a", "b", "c", "-f", "-p", "1,2,3", "--t_response", "50"]
        + ["-T", "-l", "--poll-us", "100"]
    )
    assert (command.match, command.hands, command.seed, command.names) == ("m", 10, 7, ("a", "b", "c"))
    assert (command.quiet, command.fixed, command.ports, command.transcript, command.log) == (
        True,
        True,
        (1, 2, 3),
        True,
        False,
    )
    assert (command.t_response, command.t_hand, command.t_per_hand, command.start_timeout) == (
        50,
        600000,
        7000,
        -1,
    )
    assert extras == {"poll-us": "100"}
    assert command.header().splitlines() == [
        "# name/game/hands/seed m holdem.limit.3p 10 7",
        "#--t_response 50",
        "#--t_hand 600000",
        "#--t_per_hand 7000",
    ]


@pytest.mark.parametrize(
    "argv, says",
    [
        (["m", "holdem.limit.3p", "10", "7", "a", "b"], "has 3 players, got 2 names"),
        (["m", "holdem.limit.3p", "0", "7", "a", "b", "c"], "HANDS is a whole number"),
        (["m", "holdem.limit.3p", "5", "2", "a", "b", "c", "-p", "1,2"], "-p takes 3 ports"),
        (
            ["m", "holdem.limit.3p", "5", "2", "a", "b", "c", "--t_hand", "x"],
            "--t_hand takes whole milliseconds",
        ),
        (["m", "holdem.limit.3p", "5", "2", "a", "b", "c", "-x"], "option -x not recognized"),
        (["--game", "holdem.limit.3p", "--hands", "5", "a", "b", "c"], "former command line"),
    ],
)
def test_bad_dealer_command_lines_say_what_is_wrong(argv, says):
    with pytest.raises(ConfigError, match=says):
        parse_reference_command(argv)


# -- a hostile seat under the reference's rules ----------------------------------------------------------


def _hostile(port: int, behaviour: str) -> None:
    """A heads-up client that calls on its turns, misbehaving: ``noisy`` first sends garbage and an answer
    to another state each turn; ``silent`` stops answering on its 5th turn; ``leave`` closes then."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(b"VERSION:2.0.0\r\n")
    turns = 0
    with sock, sock.makefile("r", newline="\n") as lines:
        for line in lines:
            line = line.rstrip("\r\n")
            if not (line.startswith("MATCHSTATE:") and acpc_script.to_act(line)):
                continue
            turns += 1
            noise = ""
            if behaviour == "noisy":  # one send: a second small one would wait for the first's ACK
                noise = "garbage\r\nMATCHSTATE:0:999::AsKd|:c\r\n# a comment\r\n"
            elif turns == 5:
                if behaviour == "leave":
                    return
                time.sleep(1.0)
            sock.sendall(f"{noise}{line}:c\r\n".encode())


def _reference_match(tmp_path, monkeypatch, args, seats):
    """Our dealer with `args`; ``seats[j](port)`` plays seat j. (SCORE line or the `BotFault`, stderr)."""
    monkeypatch.chdir(tmp_path)
    command, _ = parse_reference_command(args)
    box, ready, err = {}, threading.Event(), io.StringIO()

    def on_ports(ports):
        box["ports"] = ports
        ready.set()

    def dealer():
        try:
            box["result"] = run_reference(command, stdout=io.StringIO(), stderr=err, on_ports=on_ports)
        except BotFault as exc:
            box["result"] = exc

    threads = [threading.Thread(target=dealer, daemon=True)]
    threads[0].start()
    assert ready.wait(10)
    threads += [
        threading.Thread(target=s, args=(p,), daemon=True) for s, p in zip(seats, box["ports"], strict=True)
    ]
    for t in threads[1:]:
        t.start()
    for t in threads:
        t.join(60)
        assert not t.is_alive()
    return box["result"], err.getvalue()


def test_garbage_and_stray_answers_are_skipped_with_warnings_as_the_reference_does(tmp_path, monkeypatch):
    """A seat that sends garbage, an answer to another state and a comment before each answer plays the
    same match as a plain caller: the golden heads-up log, byte for byte, and a warning for each."""
    match = GOLDEN[0]
    assert match.bots == ("call", "script")
    shutil.copy(DATA / f"{match.game}.game", tmp_path)
    seats = [lambda port: _hostile(port, "noisy"), lambda port: acpc_script.play("127.0.0.1", port)]
    score, err = _reference_match(tmp_path, monkeypatch, match.args(), seats)
    assert (tmp_path / f"{match.name}.log").read_text() == (DATA / f"{match.name}.log").read_text()
    assert err.count("WARNING: bad state format in response") > 100  # once a turn of the noisy seat
    assert err.count("WARNING: ignoring un-requested response") == err.count("bad state format")
    assert score == (DATA / f"{match.name}.log").read_text().splitlines()[-1]


@pytest.mark.parametrize(
    "behaviour, says",
    [("silent", "timed out (no answer within the action limit of 0.3 s)"), ("leave", "left")],
)
def test_a_seat_that_runs_out_of_time_or_leaves_stops_the_match(behaviour, says, tmp_path, monkeypatch):
    args = ["m", "holdem.limit.2p.reverse_blinds", "50", "1", "a", "b", "--t_response", "300", "-q"]
    seats = [lambda port: _hostile(port, behaviour), lambda port: _hostile(port, "calls")]
    result, _ = _reference_match(tmp_path, monkeypatch, args, seats)
    assert isinstance(result, BotFault) and says in str(result) and "the match stopped after" in str(result)
    log = (tmp_path / "m.log").read_text().splitlines()
    assert len(log) >= 5 and not any(line.startswith("SCORE") for line in log)  # header, hands, no SCORE
    assert all(line.startswith("STATE:") for line in log[4:])


def test_without_q_stderr_traces_every_line_as_the_reference_does(tmp_path, monkeypatch):
    """Not quiet: each line sent (``TO``) and read (``FROM``) on stderr, the start, the finish and the seats'
    seconds at hand 0; one TO line a seat for each state of the transcript and each hand's start and end."""
    args = ["m", "holdem.limit.2p.reverse_blinds", "3", "5", "a", "b", "-T"]
    seats = [lambda port: acpc_script.play("127.0.0.1", port)] * 2
    score, err = _reference_match(tmp_path, monkeypatch, args, seats)
    assert score.startswith("SCORE:") and err.endswith(score + "\n")
    lines = err.splitlines()
    actions = (tmp_path / "m.tlog").read_text().splitlines()
    tos = [line for line in lines if line.startswith("TO ")]
    froms = [line for line in lines if line.startswith("FROM ")]
    assert len(tos) == 2 * (len(actions) + 3)  # a line a seat: each hand's start, each action, no more
    assert len(froms) == len(actions) and all(
        re.match(r"FROM [12] at \d+\.\d{6} MATCHSTATE:", f) for f in froms
    )
    assert all(re.match(r"TO [12] at \d+\.\d{6} MATCHSTATE:\d:\d:", t) for t in tos)
    assert sum(line.startswith(("STARTED at", "FINISHED at")) for line in lines) == 2
    assert [line for line in lines if line.startswith("Seconds")] == [
        "Seconds cumulatively spent in match for seat 0: 0",
        "Seconds cumulatively spent in match for seat 1: 0",
    ]


# -- a dealer stopped or killed mid-match leaves a log that reads back -----------------------------------


def _caller(port: int) -> None:
    """Our always-call client, which ends when the dealer goes away."""
    config = load_gamedef("holdem.limit.2p.reverse_blinds").to_config()
    play(make_agent("call"), config, "127.0.0.1", port, players=2)


def test_a_stopped_or_killed_dealer_leaves_a_whole_log(tmp_path):
    """Two dealer commands mid-match: the one stopped (SIGTERM) writes every hand it finished before it
    exits (status 143; its log's hands are those of its transcript, the last perhaps unfinished), the one
    killed (SIGKILL) loses at most the last second's hands; both logs are whole lines, hands 0, 1, ... in
    order, each read back by the STATE line reader."""
    game = load_gamedef("holdem.limit.2p.reverse_blinds")
    dealers, threads = {}, []
    for how in ("stopped", "killed"):
        folder = tmp_path / how
        folder.mkdir()
        command = [sys.executable, "-m", "pokerlab.interfaces.cli", "acpc", "dealer", how]
        command += ["holdem.limit.2p.reverse_blinds", "1000000", "3", "a", "b", "-T", "-q"]
        dealers[how] = subprocess.Popen(command, cwd=folder, stdout=subprocess.PIPE, text=True)
    for dealer in dealers.values():
        for port in dealer.stdout.readline().split():
            threads.append(threading.Thread(target=_caller, args=(int(port),), daemon=True))
            threads[-1].start()
    logs = {how: tmp_path / how / f"{how}.log" for how in dealers}
    ends = time.monotonic() + 30
    while not all(_state_lines(log) for log in logs.values() if log.exists()) or not all(
        log.exists() for log in logs.values()
    ):  # the first batch of hands written (after a second)
        assert time.monotonic() < ends, "no hand logged within 30 s"
        time.sleep(0.05)
    dealers["stopped"].send_signal(signal.SIGTERM)
    dealers["killed"].kill()
    assert dealers["stopped"].wait(30) == 128 + signal.SIGTERM
    dealers["killed"].wait(30)
    for t in threads:
        t.join(30)
    hands = {}
    for how, log in logs.items():
        text = log.read_text()
        lines = text.splitlines()
        assert text.endswith("\n") and lines[0] == f"# name/game/hands/seed {how} " + (
            "holdem.limit.2p.reverse_blinds 1000000 3"
        )
        states = lines[4:]
        assert states and not any(line.startswith("SCORE") for line in states)
        for k, line in enumerate(states):
            assert line.startswith(f"STATE:{k}:")
            parse_acpc_state_line(line, game.to_config())
        hands[how] = len(states)
    transcript = (tmp_path / "stopped" / "stopped.tlog").read_text()
    assert transcript.endswith("\n")
    played = int(transcript.splitlines()[-1].split()[1])  # the last hand with an action
    assert hands["stopped"] in (played, played + 1)  # every finished hand logged
