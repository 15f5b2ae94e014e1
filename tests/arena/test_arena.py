import csv
import json
import sqlite3

import numpy as np
import pytest

from pokerlab import GameConfig, duplicate_tournament, play_match
from pokerlab.agents import Agent, Decision
from pokerlab.arena import duplicate_positions
from pokerlab.arena.stats import summarize
from pokerlab.arena.store import read_decisions, read_hands
from pokerlab.engine import CALL
from pokerlab.errors import BotFault, ConfigError, IllegalAction


def test_loki_duplicate_scheme_for_ten_seats():
    positions = duplicate_positions(10)
    assert positions[0] == list(range(10))  # k = 1: player j in seat j
    assert positions[1][:3] == [1, 3, 5]  # k = 2: seats 2, 4, 6 (1-based)
    for k in range(1, 11):
        for j in range(1, 11):
            assert positions[k - 1][j - 1] == (k * j) % 11 - 1


@pytest.mark.parametrize("n", range(2, 11))
def test_duplicate_gives_every_player_every_position_once(n):
    positions = duplicate_positions(n)
    assert all(sorted(row) == list(range(n)) for row in positions)
    assert all(sorted(col) == list(range(n)) for col in zip(*positions, strict=True))


def test_heads_up_duplicate_swaps_seats_on_the_same_cards():
    result = duplicate_tournament(["call", "call"], 50, seed=4)
    assert result.hands == 100
    # identical agents: each deal's two replays cancel exactly
    assert result.results[0].total == 0 and result.results[1].total == 0
    pair = result.nets.reshape(50, 2, 2).sum(axis=1)
    assert (pair == 0).all()


def test_same_seed_same_hands_and_any_worker_count():
    a = play_match(["random", "call", "raise"], 300, seed=11, block=100)
    b = play_match(["random", "call", "raise"], 300, seed=11, block=100, workers=2)
    c = play_match(["random", "call", "raise"], 300, seed=12, block=100)
    assert (a.nets == b.nets).all() and a.nets.shape == (300, 3)
    assert not (a.nets == c.nets).all()
    assert a.nets.sum(axis=1).tolist() == [0] * 300


def test_results_units_and_ci():
    r = play_match(["call", "raise"], 200, GameConfig(small_bet=2), seed=1)
    me = r.results[1]
    assert me.total == int(r.nets[:, 1].sum())
    assert me.sb_per_hand == pytest.approx(me.total / 2 / 200)
    assert me.mbb_per_hand == pytest.approx(1000 * me.total / 2 / 200)
    assert me.ci95[0] < me.sb_per_hand < me.ci95[1]
    stats = summarize(["a"], np.array([[2], [4], [6], [8]]), np.array([0, 0, 1, 1]), 1, 1)
    assert stats[0].std_error == pytest.approx(np.std([3, 7], ddof=1) / np.sqrt(2))


def test_real_stacks_busted_players_leave():
    r = play_match(["raise", "raise", "call"], 2000, GameConfig(stack=200), seed=3, block=2000)
    assert r.hands < 2000  # the session ended when one player held every chip
    assert r.nets.sum() == 0 and sorted(r.nets.sum(axis=0).tolist())[:2] == [-200, -200]


class Crasher(Agent):
    name = "crasher"

    def act(self, view):
        raise RuntimeError("boom")


class Cheater(Agent):
    name = "cheater"

    def act(self, view):
        return 5


def test_agent_that_throws_stops_the_match_in_one_line_unless_faults_are_tolerated(tmp_path, caplog):
    with pytest.raises(
        BotFault, match=r"^agent crasher raised RuntimeError\('boom'\) \(in its first hand"
    ) as stop:
        play_match([Crasher(), "raise"], 20, seed=1, out=tmp_path / "stopped", block=5)
    assert "\n" not in str(stop.value)
    log = (tmp_path / "stopped" / "faults.log").read_text()
    assert 'raise RuntimeError("boom")' in log  # the traceback is kept in the results folder
    r = play_match([Crasher(), "raise"], 20, seed=1, tolerate_faults=True)
    assert r.hands == 20 and r.results[0].faults > 0 and "boom" in caplog.text
    assert (r.nets[:, 0] <= 0).all()


def test_illegal_action_stops_with_legal_ones(tmp_path):
    with pytest.raises(IllegalAction, match="cheater.*legal: FOLD, CALL, RAISE"):
        play_match([Cheater(), "call"], 10, seed=1, out=tmp_path)
    assert (tmp_path / "config.json").exists()


def test_tolerated_an_illegal_action_is_a_fault_like_any_other(caplog):
    """Where faults are tolerated (--tolerate-faults, the web tables), a local agent's illegal answer is
    checked or folded for, counted and logged, as an isolated agent's is: one fault rule."""
    r = play_match([Cheater(), "call"], 10, seed=1, tolerate_faults=True)
    assert r.hands == 10 and r.faults[0] >= 10 and "not one of FOLD, CALL, RAISE" in caplog.text


def test_bad_match_arguments():
    with pytest.raises(ConfigError, match="2 to 10 agents"):
        play_match(["call"], 10)
    with pytest.raises(ConfigError, match="hands"):
        play_match(["call", "call"], 0)


def test_results_folder(tmp_path):
    out = tmp_path / "run"
    r = play_match(["random", "call", "raise"], 120, seed=5, out=out, block=50)
    assert {p.name for p in out.iterdir()} == {
        "config.json",
        "hands.csv",
        "hands.sqlite",
        "hindsight.jsonl",
        "summary.json",
        "bankroll.png",
    }
    assert json.loads((out / "config.json").read_text())["seed"] == 5
    rows = list(csv.reader(open(out / "hands.csv")))
    assert rows[0] == ["hand", "deal", "session", "positions", "random", "call", "raise"] and len(rows) == 121
    summary = json.loads((out / "summary.json").read_text())
    assert summary["hands"] == 120 and summary["results"][2]["agent"] == "raise"
    records = list(read_hands(out / "hands.sqlite"))
    assert len(records) == 120
    for (_, record), row in zip(records, rows[1:], strict=True):
        by_seat = [0] * 3
        for p, seat in enumerate(map(int, row[3].split())):
            by_seat[seat] = record.nets[p]
        assert by_seat == [int(x) for x in row[4:]]
    assert sqlite3.connect(out / "hands.sqlite").execute("SELECT COUNT(*) FROM hands").fetchone() == (120,)
    assert r.out == out


class SeatWatcher(Agent):
    """Records, for every view it gets, which lasting seat number it is told it sits in."""

    def __init__(self) -> None:
        super().__init__()
        self.own_seats: set[int] = set()
        self.tables: set[tuple[int, ...]] = set()

    def act(self, view):
        self.own_seats.add(view.seats[view.position])
        self.tables.add(tuple(sorted(view.seats)))
        return Decision(CALL, info={"seat": view.seats[view.position]})


def test_views_name_each_player_by_a_lasting_seat(tmp_path):
    """Positions rotate with the button, but view.seats names each player the same way every hand."""
    watchers = [SeatWatcher() for _ in range(4)]
    play_match(watchers, 20, seed=3)  # one session in this process: the instances themselves play
    for j, w in enumerate(watchers):
        assert w.own_seats == {j}
        assert w.tables == {(0, 1, 2, 3)}
    # duplicate: every rotation plays fresh copies; the decision log says which seat decided
    play_match(watchers, 20, seed=3, duplicate=True, out=tmp_path / "d", log_decisions=True)
    decisions = read_decisions(tmp_path / "d" / "hands.sqlite")
    assert len(decisions) >= 20 * 4 and {d["seat"] for d in decisions} == {0, 1, 2, 3}
    assert all(d["info"] == {"seat": d["seat"]} for d in decisions)


class InterruptedInCompiledCode(Agent):
    """Ctrl-C landing inside a numba dispatcher: a SystemError whose cause is the KeyboardInterrupt."""

    name = "loki-like"

    def __init__(self, hook: bool = False) -> None:
        self.hook = hook

    def _interrupt(self):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise SystemError("<numba dispatcher> returned a result with an exception set") from exc

    def act(self, view):
        if not self.hook:
            self._interrupt()
        return CALL

    def observe(self, record):
        if self.hook:
            self._interrupt()


@pytest.mark.parametrize("hook", [False, True], ids=["act", "observe"])
def test_ctrl_c_inside_an_agent_is_an_interrupt_not_its_fault(tmp_path, hook, caplog):
    with pytest.raises(KeyboardInterrupt):
        play_match([InterruptedInCompiledCode(hook), "raise"], 20, seed=1, out=tmp_path / "r", block=5)
    assert not (tmp_path / "r" / "faults.log").exists() and "loki-like" not in caplog.text
    with pytest.raises(KeyboardInterrupt):  # the same when faults are tolerated: Ctrl-C is never a fault
        play_match([InterruptedInCompiledCode(hook), "raise"], 20, seed=1, tolerate_faults=True)


def test_cli_ctrl_c_is_one_line_and_exit_130(monkeypatch, capsys):
    from pokerlab.agents import simple
    from pokerlab.interfaces.cli import main

    monkeypatch.setattr(simple.CallAgent, "act", lambda self, view: InterruptedInCompiledCode()._interrupt())
    assert main(["match", "--agents", "call,raise", "--hands", "20", "--seed", "1"]) == 130
    assert capsys.readouterr().err == "pokerlab: interrupted\n"


def test_timeouts_say_round_durations():
    import time

    from pokerlab.arena.table import seconds_rounded

    class Slow(Agent):
        name = "slow"

        def act(self, view):
            time.sleep(0.02)
            return CALL

    with pytest.raises(BotFault) as stop:
        play_match([Slow(), "call"], 3, seed=1, action_timeout=0.0123456789)
    assert "(limit 0.0123 s)" in str(stop.value) and "0.0123456789" not in str(stop.value)
    assert seconds_rounded("no answer within 0.4999988479999047 s") == "no answer within 0.5 s"
    assert seconds_rounded("took 12.5 s of 10 s; hand 1.23456") == "took 12.5 s of 10 s; hand 1.23456"


def test_a_real_ctrl_c_during_a_loki_match_is_one_line_and_exit_130():
    """SIGINT to a running `pokerlab match` of Loki-1 (numba kernels on every decision): "interrupted",
    exit 130, no fault of a bot (the unit test above makes the compiled-code case certain)."""
    import signal
    import subprocess
    import sys
    import time

    code = "import sys; from pokerlab.interfaces.cli import main; sys.exit(main())"
    process = subprocess.Popen(
        [sys.executable, "-c", code, "match", "--agents", "loki1,loki1,call", "--hands", "100000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a background job ignores it
    )
    time.sleep(2.5)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert (process.returncode, err) == (130, "pokerlab: interrupted\n")
