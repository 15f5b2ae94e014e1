"""Our ACPC client and shared protocol code read as the reference server (project_acpc_server, ACPC protocol
2.0.0) reads: fixed seats (its dealer's ``-f``), its action letters, its fractional split of a tied pot,
names that keep the log's fields, game files its reader takes, and a client that neither waits forever nor
plays another game than its own.

Our own checks come first and need nothing but this repository. The last tests run the reference itself
where ``POKERLAB_ACPC_SERVER`` names a folder with its sources and its built ``dealer`` (built outside the
repository, its dealer bound to loopback); without it they are skipped, saying so.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents import Agent, make_agent
from pokerlab.cards import parse_cards
from pokerlab.engine import GameConfig, HandState
from pokerlab.engine.showdown import exact_split_nets
from pokerlab.errors import ConfigError, CorruptData, InvalidCards
from pokerlab.interfaces.acpc.channel import Channel, ConnectionClosed
from pokerlab.interfaces.acpc.client import AcpcClient, DealerSilent, play
from pokerlab.interfaces.acpc.client_results import ClientResults
from pokerlab.interfaces.acpc.gamedef import (
    ACPC_UNLIMITED_STACK,
    STANDARD_GAMES,
    gamedef_of,
    parse_gamedef,
    standard_game_name,
)
from pokerlab.interfaces.acpc.matchstate import (
    LETTER_ACTIONS,
    Follower,
    matchstate_of,
    parse_matchstate,
    protocol_name,
    read_action,
    reference_values,
)
from pokerlab.interfaces.acpc.seat import AcpcPlayer
from pokerlab.interfaces.acpc.statelog import parse_acpc_state_line
from pokerlab.interfaces.cli import main

CONFIG = GameConfig()


class _Lines:
    """A channel that plays back a dealer's lines and keeps the answers (no socket); None once they end
    where ``silent`` (a dealer that says nothing more), else the connection closes."""

    def __init__(self, lines, silent=False):
        self.lines, self.answers, self.silent = list(reversed(lines)), [], silent
        self.timeouts = []

    def readline(self, timeout=None):
        self.timeouts.append(timeout)
        if not self.lines:
            if self.silent:
                return None
            raise ConnectionClosed("the script ended")
        return self.lines.pop()

    def send(self, line):
        self.answers.append(line)


class _Seats(Agent):
    """Calls; keeps the position and seat labels of every hand it begins, and every action it observes."""

    name = "seats"

    def __init__(self):
        super().__init__()
        self.seats = []

    def begin_hand(self, start):
        self.seats.append((start.position, start.seats))

    def act(self, view):
        return CALL


def _hand_lines(n, hands, position_of, decide=lambda state: CALL, seed=5):
    """Every line a dealer sends one seat in `hands` hands of `n` players, the seat at position
    ``position_of(h)`` in hand h, the actions chosen by ``decide(state)``; and the final states."""
    rng = np.random.default_rng(seed)
    lines, finals = [], []
    for h in range(hands):
        cards = [int(c) for c in rng.permutation(52)[: 2 * n + 5]]
        state = HandState(CONFIG, cards[: 2 * n], cards[2 * n :])
        p = position_of(h)
        lines.append(matchstate_of(state, p, h).format())
        while not state.is_over:
            state.act(decide(state))
            lines.append(matchstate_of(state, p, h).format())
        finals.append(state)
    return lines, finals


# -- 1. fixed seats (the reference dealer's -f) --------------------------------------------------------


@pytest.mark.parametrize("seating", ["auto", "fixed"])
def test_at_fixed_seats_the_client_labels_every_seat_and_its_column_right(seating, tmp_path):
    """At the reference dealer with ``-f`` seat s sits at position s in every hand: the agent is told the
    seats (0, 1, 2) each hand, not the rotation's, and the client's results folder credits each position's
    net to its own seat, ours included."""
    n, seat, hands = 3, 1, 7
    lines, finals = _hand_lines(n, hands, lambda h: seat, decide=lambda s: FOLD if s.actor == 2 else CALL)
    agent = _Seats()
    results = ClientResults(tmp_path / "out", "me", CONFIG, 0)
    report = AcpcClient(agent, CONFIG, _Lines(lines), results=results, seating=seating).play()
    assert report.hands == hands and report.warnings == 0
    assert agent.seats == [(seat, (0, 1, 2))] * hands
    with open(tmp_path / "out" / "hands.csv") as f:
        rows = list(csv.reader(f))
    assert rows[0][4:] == ["seat-0", "me", "seat-2"]
    for row, state in zip(rows[1:], finals, strict=True):
        assert [int(v) for v in row[4:]] == state.nets
        assert row[3] == "0 1 2"


def test_auto_seating_still_follows_the_rotation_and_says_when_it_cannot_tell():
    n, seat = 3, 2
    lines, _ = _hand_lines(n, 6, lambda h: (seat - h) % n)
    agent = _Seats()
    AcpcClient(agent, CONFIG, _Lines(lines)).play()
    for h, (position, seats) in enumerate(agent.seats):
        assert seats == tuple((q + h) % n for q in range(n)) and seats[position] == seat
    # a match resumed at hand 4: the first hand cannot tell fixed from rotating, the next one can
    lines, _ = _hand_lines(n, 7, lambda h: seat)
    first = next(i for i, line in enumerate(lines) if line.startswith("MATCHSTATE:2:4:"))
    agent = _Seats()
    report = AcpcClient(agent, CONFIG, _Lines(lines[first:])).play()
    assert report.warnings == 1  # hand 4 seated as rotating, said once
    assert [s for _, s in agent.seats[1:]] == [(0, 1, 2)] * 2
    agent = _Seats()
    AcpcClient(agent, CONFIG, _Lines(lines[first:]), seating="fixed").play()
    assert [s for _, s in agent.seats] == [(0, 1, 2)] * 3
    with pytest.raises(ConfigError, match="seating must be one of auto, rotate, fixed"):
        AcpcClient(agent, CONFIG, _Lines([]), seating="moving")


# -- 2. action letters as the reference reads them -----------------------------------------------------


def test_the_reference_letters_mean_what_they_mean_there():
    assert LETTER_ACTIONS == {
        "f": FOLD, "F": FOLD, "c": CALL, "C": CALL, "k": CALL, "K": CALL,
        "r": RAISE, "R": RAISE, "b": RAISE, "B": RAISE,
    }  # fmt: skip
    for answer, action in [("b", RAISE), ("B", RAISE), ("R", RAISE), ("k", CALL), ("K", CALL), ("F", FOLD)]:
        assert read_action(answer) == action
    assert read_action("r because I can") == RAISE and read_action("c:more") == CALL
    assert read_action("") is None and read_action("x") is None and read_action(" r") is None


@pytest.mark.parametrize(
    "betting, plain",
    [
        ("B", "r"),
        ("Rk/", "rc/"),
        ("bC/K", "rc/c"),
        ("kRc/bC/r", "crc/rc/r"),
        ("Kf", "cf"),
        ("kB/BkF", "cr/rcf"),
    ],
)
def test_betting_with_the_reference_letters_replays_as_the_plain_one(betting, plain):
    """Whole lines (the reference) and the client's fast path, a letter a line as a dealer sends them."""

    def line(text):
        board = "".join("/" + r for r in ["2c3c4c", "5d", "6h"][: text.count("/")])
        return f"MATCHSTATE:1:0:{text}:|AsKd{board}"

    def actions(state):
        return [r.action for r in state.actions]

    assert actions(parse_matchstate(line(betting)).replay(CONFIG)) == actions(
        parse_matchstate(line(plain)).replay(CONFIG)
    )
    follower, followed = Follower(CONFIG), 0
    for k in range(len(betting) + 1):
        try:
            reference = parse_matchstate(line(plain[:k])).replay(CONFIG)
        except (CorruptData, InvalidCards):  # a round closed without its "/": no line a dealer sends
            continue
        assert actions(follower.follow_line(line(betting[:k]))) == actions(reference)
        followed += 1
    assert followed >= 2
    with pytest.raises(CorruptData):
        parse_matchstate(line(betting + "x"))


def test_state_lines_read_the_reference_letters_too():
    plain = "STATE:3:rc/crf:2c3c|AsAh/4c5c6c:-20|20:a|b"
    lettered = "STATE:3:Bk/KbF:2c3c|AsAh/4c5c6c:-20|20:a|b"
    assert parse_acpc_state_line(lettered, CONFIG) == parse_acpc_state_line(plain, CONFIG)
    with pytest.raises(CorruptData, match=r"uses only f, c \(or k\), r \(or b\) and /"):
        parse_acpc_state_line(lettered.replace("F", "x"), CONFIG)


def test_the_client_plays_a_dealer_that_writes_b_and_k():
    lines = [
        "MATCHSTATE:0:0::AsKd|",  # the big blind heads-up: not our turn
        "MATCHSTATE:0:0:B:AsKd|",  # the button raised ('B'): our turn, a raise to answer
        "MATCHSTATE:0:0:Bk/:AsKd|/2c3c4c",
        "MATCHSTATE:0:0:Bk/K:AsKd|/2c3c4c",
        "MATCHSTATE:0:0:Bk/Kb:AsKd|/2c3c4c",
    ]
    channel = _Lines(lines)
    AcpcClient(_Seats(), CONFIG, channel).play()
    assert channel.answers == [
        "VERSION:2.0.0",
        "MATCHSTATE:0:0:B:AsKd|:c",
        "MATCHSTATE:0:0:Bk/:AsKd|/2c3c4c:c",
        "MATCHSTATE:0:0:Bk/Kb:AsKd|/2c3c4c:c",
    ]


@pytest.mark.parametrize(
    "answer, action", [("B", RAISE), ("b", RAISE), ("R", RAISE), ("k", CALL), ("K", CALL), ("r 42", RAISE),
                       ("c:and more", CALL), ("F", FOLD)]
)  # fmt: skip
def test_a_seat_reads_an_answer_as_the_reference_does(answer, action):
    """The dealer's seat takes the reference's letters (``b`` a raise, not a call or a fault) and ignores
    what follows the letter."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    theirs = socket.create_connection(listener.getsockname(), timeout=5)
    ours, _ = listener.accept()
    try:
        seat = AcpcPlayer(listener, "x", action_timeout=5.0)
        seat.channel, seat.last = Channel(ours), "MATCHSTATE:1:0::|AsKd"
        theirs.sendall(f"MATCHSTATE:1:0::|AsKd:{answer}\r\n".encode())
        assert seat.act(SimpleNamespace(legal_actions=(FOLD, CALL, RAISE))) == action
    finally:
        for s in (listener, ours, theirs):
            s.close()


# -- 3. odd chips: the reference splits a tied pot in equal parts ---------------------------------------


def _tied_hand():
    """Three players, the small blind folds, the other two tie on a royal flush board: a pot of 25."""
    holes = parse_cards("2c3c2d3d4h5h")
    state = HandState(CONFIG, holes, parse_cards("AsKsQsJsTs"))
    while not state.is_over:
        state.act(FOLD if state.actor == 0 else CALL)
    return state


def test_a_tied_odd_pot_is_split_in_halves_as_the_reference_splits_it():
    state = _tied_hand()
    assert sorted(state.nets) == [-5, 2, 3]  # our engine: the odd chip to the first winner
    assert reference_values(state) == [-5.0, 2.5, 2.5]
    lines = [matchstate_of(state, 1, 0).format()]
    report = AcpcClient(_Seats(), CONFIG, _Lines(lines)).play()
    assert report.values == [2.5] and report.net == 2.5


def test_reference_values_sum_to_zero_and_differ_from_ours_only_by_the_odd_chips():
    rng = np.random.default_rng(3)
    for _ in range(600):
        n = int(rng.integers(2, 7))
        stack = None if rng.random() < 0.5 else int(rng.integers(20, 200))
        config = GameConfig(stack=stack)
        cards = [int(c) for c in rng.permutation(52)[: 2 * n + 5]]
        stacks = [int(rng.integers(15, 200)) for _ in range(n)] if stack else None
        state = HandState(config, cards[: 2 * n], cards[2 * n :], stacks)
        while not state.is_over:
            legal = state.legal_actions()
            state.act(FOLD if FOLD in legal and rng.random() < 0.15 else legal[int(rng.integers(len(legal)))])
        values = reference_values(state)
        assert abs(sum(values)) < 1e-9
        assert all(abs(v - net) < n for v, net in zip(values, state.nets, strict=True))
    assert reference_values(_tied_hand()) != [float(net) for net in _tied_hand().nets]


#: STATE lines of the reference dealer's logs (3 seats -f, and 6 seats -f, of the runs in docs/acpc.md):
#: its values split a tie exactly and print 6 decimals
REFERENCE_STATES = [
    ("STATE:31:cfc/cc/rc/cc:3dQh|8hJs|8dJd/9hJcKc/Qd/Ad:-5|2.5|2.5:p0|p1|p2", [-5, 2.5, 2.5]),
    (
        "STATE:136:rfcrfcrcfc/crcc/crcc/crcc:2s4s|4c8d|5dTs|JhAs|2d4h|5c3h/QhJcQd/Kh/Ks:"
        "-5|11.666667|11.666667|0|11.666667|-30:p0|p1|p2|p3|p4|p5",
        [-5, 35 / 3, 35 / 3, 0, 35 / 3, -30],
    ),
]


@pytest.mark.parametrize("line, values", REFERENCE_STATES)
def test_the_reference_logs_tied_pots_are_read_and_valued_as_it_values_them(line, values):
    """Our STATE line reader takes the reference's exact split (it refused 32 of 1,000 lines of a 6-seat
    log before), and our values of the replayed hand are the log's."""
    record = parse_acpc_state_line(line, CONFIG)
    assert sum(record.nets) == 0 and record.nets != [round(v) for v in values]
    state = HandState(CONFIG, list(record.holes), list(record.board))
    for _, action in record.actions:
        state.act(action)
    assert reference_values(state) == pytest.approx(values)
    assert exact_split_nets(state.committed, state.ranks) == pytest.approx(values)
    wrong = line.replace("-5|", "-6|", 1)
    with pytest.raises(CorruptData, match="differ from the replayed nets"):
        parse_acpc_state_line(wrong, CONFIG)


# -- 4. names that keep the STATE and SCORE fields ------------------------------------------------------


def test_names_with_colons_and_spaces_keep_the_log_fields(capsys, tmp_path, monkeypatch):
    assert protocol_name('cmd:"./bot --flag"') == 'cmd_"./bot_--flag"'
    assert protocol_name("a|b\tc\nd") == "a_b_c_d" and protocol_name("") == "_"
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "match.log"
    args = ["acpc", "dealer", "match", "holdem.limit.2p.reverse_blinds", "3", "0", "--start_timeout", "200"]
    assert main([*args, "--tolerate-faults", "-q", "cmd:./bot --x", "two words"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1].endswith(":cmd_./bot_--x|two_words")
    states = [line for line in log.read_text().splitlines() if line.startswith("STATE:")]
    assert len(states) == 3
    for line in states:
        assert len(line.split(":")) == 6 and set(line.split(":")[5].split("|")) == {
            "cmd_./bot_--x",
            "two_words",
        }
        parse_acpc_state_line(line, CONFIG)


# -- 5. game files for 5 to 10 players -------------------------------------------------------------------


def _per_seat_counts(text):
    """What the reference's reader counts of each per-seat line (it reads a line's integers until one
    fails), and its count of stacks without a stack line: 4."""
    counts = {"stack": 4}
    for line in text.splitlines():
        for key in ("stack", "blind"):
            if line.lower().startswith(key):
                counts[key] = len(line.partition("=")[2].split())
    return counts


@pytest.mark.parametrize("players", range(2, 11))
def test_every_seat_has_a_stack_and_a_blind_where_the_reference_needs_them(players):
    text = STANDARD_GAMES[standard_game_name(players)]
    counts = _per_seat_counts(text)
    assert counts["stack"] >= players and counts["blind"] >= players
    game = parse_gamedef(text)
    assert game.to_config() == CONFIG and game.to_text() == text
    assert gamedef_of(game.to_config(), players) == game
    assert ("stack = " in text) == (players > 4)  # the 2- and 3-player files stay ACPC's own
    if players > 4:
        assert f"stack = {' '.join([str(ACPC_UNLIMITED_STACK)] * players)}\n" in text
    stacked = gamedef_of(GameConfig(stack=1000), players)
    assert parse_gamedef(stacked.to_text()).to_config() == GameConfig(stack=1000)


# -- 7. a silent dealer, a line of another game ----------------------------------------------------------


def test_a_silent_dealer_stops_the_client_with_one_line(capsys):
    lines, _ = _hand_lines(2, 1, lambda h: 0)
    channel = _Lines(lines[:1], silent=True)
    with pytest.raises(
        DealerSilent, match=r"^the dealer sent nothing for 0.25 s; the client stopped after 0"
    ):
        AcpcClient(_Seats(), CONFIG, channel, timeout=0.25).play()
    assert set(channel.timeouts) == {0.25}
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    held = []
    threading.Thread(target=lambda: held.append(server.accept()), daemon=True).start()
    began = time.monotonic()
    status = main(
        ["acpc", "play", "--agent", "call", "--game", "holdem.limit.2p.reverse_blinds", "--timeout", "0.3",
         "127.0.0.1", str(server.getsockname()[1])]
    )  # fmt: skip
    assert status == 2 and time.monotonic() - began < 5
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the dealer sent nothing for 0.3 s" in err and "--timeout" in err
    server.close()
    with pytest.raises(ConfigError, match="timeout must be positive"):
        AcpcClient(_Seats(), CONFIG, channel, timeout=0)


def test_a_line_of_another_number_of_players_is_refused_naming_it():
    line = "MATCHSTATE:0:0::AsKd||"
    with pytest.raises(ConfigError) as caught:
        AcpcClient(_Seats(), CONFIG, _Lines([line]), players=2).play()
    assert str(caught.value) == f"the dealer's line {line!r} has 3 players; the game has 2 (--game)"
    report = AcpcClient(_Seats(), CONFIG, _Lines(["MATCHSTATE:0:0::AsKd|"]), players=2).play()
    assert report.warnings == 0


# -- the reference server itself, where it is built -------------------------------------------------------

REFERENCE = os.environ.get("POKERLAB_ACPC_SERVER")
needs_reference = pytest.mark.skipif(
    not REFERENCE or not (Path(REFERENCE) / "dealer").is_file() or shutil.which("gcc") is None,
    reason="POKERLAB_ACPC_SERVER names no folder with the reference server's sources and built dealer "
    "(and gcc); see docs/acpc.md",
)


@needs_reference
def test_the_reference_reader_takes_every_standard_game(tmp_path):
    """The reference's own ``readGame`` (built here from its sources with a five-line main of ours) reads
    each of our game files, and what it prints back is the same game to us."""
    source = Path(REFERENCE)
    main_c = tmp_path / "readgame.c"
    main_c.write_text(
        '#include <stdio.h>\n#include "game.h"\n'
        "int main(void) { Game *g = readGame(stdin); if (!g) return 1; printGame(stdout, g); return 0; }\n"
    )
    binary = tmp_path / "readgame"
    subprocess.run(
        ["gcc", "-O1", "-I", str(source), "-o", str(binary), str(main_c), str(source / "game.c"),
         str(source / "rng.c")],
        check=True, timeout=120, capture_output=True, cwd=source,
    )  # fmt: skip
    for players in range(2, 11):
        text = STANDARD_GAMES[standard_game_name(players)]
        done = subprocess.run([str(binary)], input=text, capture_output=True, text=True, timeout=10)
        assert done.returncode == 0, f"{players} players: {done.stderr.strip()}"
        assert parse_gamedef(done.stdout).to_config() == CONFIG


@needs_reference
@pytest.mark.parametrize("players, fixed", [(2, False), (3, True), (3, False), (6, True)])
def test_our_clients_at_the_reference_dealer_count_its_values(players, fixed, tmp_path):
    """Our clients at the reference dealer (``-f`` or its rotation): no warnings, every hand's value the
    value its log gives the player, fractions included, each results folder's columns the log's players
    and values (fractions too), and the seats the agents were told the log's."""
    hands, seed = 300, 7
    game = tmp_path / "game"
    game.write_text(STANDARD_GAMES[standard_game_name(players)])
    names = [f"p{j}" for j in range(players)]
    command = [str(Path(REFERENCE) / "dealer"), "m", str(game), str(hands), str(seed), *names, "-q"]
    dealer = subprocess.Popen(
        command + (["-f"] if fixed else []), cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        ports = [int(p) for p in dealer.stdout.readline().split()]
        assert len(ports) == players
        reports: dict = {}
        agents = ["random", "call", "raise", "random", "call", "random"][:players]

        def run(j):
            reports[j] = play(
                make_agent(agents[j]), CONFIG, "127.0.0.1", ports[j], seed, out=tmp_path / f"out{j}",
                name=names[j], players=players, timeout=60,
            )  # fmt: skip

        threads = [threading.Thread(target=run, args=(j,), daemon=True) for j in range(players)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert dealer.wait(30) == 0
    finally:
        dealer.kill()
        dealer.wait()
    assert "WARNING" not in dealer.stderr.read()
    truth = {}
    for line in (tmp_path / "m.log").read_text().splitlines():
        if line.startswith("STATE:"):
            fields = line.split(":")
            truth[int(fields[1])] = dict(
                zip(fields[5].split("|"), map(float, fields[4].split("|")), strict=True)
            )
    assert len(truth) == hands
    for j in range(players):
        report = reports[j]
        assert report.hands == hands and report.warnings == 0
        assert report.values == pytest.approx([truth[h][names[j]] for h in range(hands)], abs=1e-6)  # %.6f
        with open(tmp_path / f"out{j}" / "hands.csv") as f:
            rows = list(csv.reader(f))
        labels = [names[j] if c == names[j] else f"p{c.removeprefix('seat-')}" for c in rows[0][4:]]
        assert labels == names
        for row in rows[1:]:  # the log's values, fractions of a chip included
            values = truth[int(row[0])]
            assert [float(v) for v in row[4:]] == pytest.approx([values[label] for label in labels], abs=1e-6)
    score = (tmp_path / "m.log").read_text().splitlines()[-1]
    totals = dict(
        zip(score.split(":")[2].split("|"), map(float, score.split(":")[1].split("|")), strict=True)
    )
    for j in range(players):
        assert reports[j].net == pytest.approx(totals[names[j]], abs=1e-5)
    assert re.match(r"SCORE:", score)


def test_without_seat_comments_the_client_seats_as_the_acpc_dealer():
    """ACPC's reference dealer seats lasting seat (p + h) mod n at position p in hand h (its seatToPlayer,
    the seats turning one position a hand); our client, told nothing, labels the seats the same way, so
    the seat it plays from (here lasting seat 2 of 3) keeps its number in every hand."""
    n, seat, config = 3, 2, GameConfig()
    rng = np.random.default_rng(5)
    lines = []
    for h in range(6):
        cards = [int(c) for c in rng.permutation(52)[: 2 * n + 5]]
        state = HandState(config, cards[: 2 * n], cards[2 * n :])
        p = (seat - h) % n  # where ACPC's dealer puts lasting seat 2 in hand h
        lines.append(matchstate_of(state, p, h).format())
        while not state.is_over:
            state.act(1)
            lines.append(matchstate_of(state, p, h).format())
    agent = _Seats()
    AcpcClient(agent, config, _Lines(lines)).play()
    assert len(agent.seats) == 6
    for h, (position, seats) in enumerate(agent.seats):
        assert seats == tuple((q + h) % n for q in range(n)) and seats[position] == seat
