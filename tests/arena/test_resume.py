"""--resume: a killed run continues from its complete sessions, to files byte-identical to an uninterrupted
run's; a killed run's files stay readable."""

import csv
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from pokerlab import play_match
from pokerlab.arena import output
from pokerlab.arena.store import read_hands
from pokerlab.errors import ConfigError
from pokerlab.interfaces.cli import main

LINEUP = ["random", "call", "raise"]


class Killed(BaseException):
    """Stands for a kill -9: nothing in the arena catches it."""


def _kill_after(monkeypatch, blocks: int) -> None:
    """Make the results writer die after writing `blocks` blocks (the SQLite commit of the next one done)."""
    real_add = output.ResultsWriter.add
    seen = []

    def add(self, outcomes):
        if len(seen) == blocks:
            self.store.add(((o.hand, o.deal, o.session, o.history) for o in outcomes), [])
            raise Killed  # committed to SQLite, never flushed to the CSV: the worst moment
        seen.append(1)
        real_add(self, outcomes)

    monkeypatch.setattr(output.ResultsWriter, "add", add)


def _files(folder):
    return {name: (folder / name).read_bytes() for name in ("hands.csv", "summary.json", "config.json")}


@pytest.mark.parametrize(
    "options",
    [dict(sessions=3), dict(duplicate=True), dict(sessions=1), dict(sessions=4, workers=2)],
    ids=["three-sessions", "duplicate", "one-session", "two-workers"],
)
def test_resume_is_byte_identical(tmp_path, monkeypatch, options):
    hands = 120 if options.get("duplicate") else 300
    whole = tmp_path / "whole"
    play_match(LINEUP, hands, seed=5, block=40, out=whole, **options)
    killed = tmp_path / "killed"
    with monkeypatch.context() as m:
        _kill_after(m, 4)
        with pytest.raises(Killed):
            play_match(LINEUP, hands, seed=5, block=40, out=killed, **options)
    assert not (killed / "summary.json").exists()
    # the killed run's files are readable: the CSV, and the hand store (replayed hand by hand)
    with (killed / "hands.csv").open(newline="") as file:
        in_csv = len(list(csv.reader(file))) - 1
    in_store = len(list(read_hands(killed / "hands.sqlite")))
    assert 0 < in_csv < in_store  # the SQLite commit comes first: the killed block is there only
    resumed = play_match(LINEUP, hands, seed=5, block=40, out=killed, resume=True, **options)
    assert resumed.hands == (hands * 3 if options.get("duplicate") else hands)
    assert _files(killed) == _files(whole)
    assert len(list(read_hands(killed / "hands.sqlite"))) == resumed.hands


def test_resume_of_a_finished_run_changes_nothing(tmp_path):
    play_match(LINEUP, 100, seed=1, block=30, out=tmp_path / "r", sessions=2)
    before = _files(tmp_path / "r")
    play_match(LINEUP, 100, seed=1, block=30, out=tmp_path / "r", sessions=2, resume=True)
    assert _files(tmp_path / "r") == before


def test_resume_needs_the_same_command(tmp_path):
    play_match(LINEUP, 50, seed=1, out=tmp_path / "r")
    with pytest.raises(ConfigError, match=r"other settings \(seed: 1 there, 2 now\)"):
        play_match(LINEUP, 50, seed=2, out=tmp_path / "r", resume=True)
    with pytest.raises(ConfigError, match="already holds a run.*--resume"):
        play_match(LINEUP, 50, seed=1, out=tmp_path / "r")
    with pytest.raises(ConfigError, match="give out"):
        play_match(LINEUP, 50, seed=1, resume=True)


def test_cli_resume_after_sigkill(tmp_path, capsys):
    """A real kill -9 of `pokerlab match` mid-run, then --resume: the same files as an uninterrupted run."""
    args = ["match", "--agents", "random,call,raise", "--hands", "12000", "--sessions", "4", "--block", "500"]
    args += ["--seed", "3", "--json"]
    killed = tmp_path / "killed"
    command = [sys.executable, "-c", "import sys; from pokerlab.interfaces.cli import main; sys.exit(main())"]
    process = subprocess.Popen([*command, *args, "--out", str(killed)], stderr=subprocess.DEVNULL)
    csv_path = killed / "hands.csv"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not csv_path.exists() or csv_path.stat().st_size < 100_000):
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert not (killed / "summary.json").exists()
    assert main([*args, "--out", str(killed), "--resume"]) == 0
    assert main([*args, "--out", str(tmp_path / "whole")]) == 0
    capsys.readouterr()
    assert _files(killed) == _files(tmp_path / "whole")


def test_summarize_rebuilds_summary_and_plot(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "r"
    play_match(LINEUP, 200, seed=2, block=50, out=folder, sessions=2)
    before = _files(folder)
    (folder / "summary.json").unlink()
    (folder / "bankroll.png").unlink()
    assert main(["summarize", str(folder)]) == 0
    assert "200 of 200 hands, 2 session(s) complete" in capsys.readouterr().out
    assert _files(folder) == before and (folder / "bankroll.png").stat().st_size > 10_000
    # a killed run: a summary of the hands it kept
    killed = tmp_path / "killed"
    with monkeypatch.context() as m:
        _kill_after(m, 3)
        with pytest.raises(Killed):
            play_match(LINEUP, 200, seed=2, block=50, out=killed, sessions=2)
    assert main(["summarize", str(killed), "--json"]) == 0
    assert '"hands": 100, "hands_asked": 200' in capsys.readouterr().out
    assert (killed / "bankroll.png").exists()
    assert main(["summarize", str(tmp_path / "nothing")]) == 2
    assert "not a results folder" in capsys.readouterr().err


def test_bankroll_plot_with_bands_and_no_hands(tmp_path):
    import numpy as np

    output.plot_bankroll(np.zeros((0, 2), dtype=np.int64), ["a", "b"], 10, tmp_path / "empty.png")
    nets = np.array([[10, -10], [-20, 20], [5, -5], [5, -5]])
    output.plot_bankroll(nets, ["a", "b"], 10, tmp_path / "p.png", np.array([0, 0, 1, 1]), "title")
    assert (tmp_path / "empty.png").stat().st_size > 5000 and (tmp_path / "p.png").stat().st_size > 5000


def test_resume_refuses_when_hands_csv_is_gone(tmp_path, capsys):
    """hands.csv deleted after a finished run: --resume refuses in one line and leaves summary.json alone
    (never a summary of 0 hands with bare NaN)."""
    folder = tmp_path / "r"
    args = ["match", "--agents", "random,call", "--hands", "60", "--sessions", "2", "--seed", "1"]
    assert main([*args, "--out", str(folder)]) == 0
    before = (folder / "summary.json").read_bytes()
    (folder / "hands.csv").unlink()
    capsys.readouterr()
    assert main([*args, "--out", str(folder), "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "hands.csv is missing" in err and "60 hands" in err, err
    assert (folder / "summary.json").read_bytes() == before
    # a folder whose hands.csv holds fewer hands than its complete sessions: refused too
    (folder / "hands.csv").write_text("hand,deal,session,positions,random,call\n")
    assert main([*args, "--out", str(folder), "--resume"]) == 2
    assert "holds 0" in capsys.readouterr().err


def test_summary_json_is_strict_json_with_no_hands(tmp_path):
    """A summary of a folder with no hands has nulls where a statistic is undefined, never NaN."""
    folder = tmp_path / "r"
    play_match(LINEUP, 30, seed=1, out=folder)
    (folder / "hands.csv").write_text("hand,deal,session,positions,random,call,raise\n")
    output.summarize_folder(folder)
    text = (folder / "summary.json").read_text()
    assert "NaN" not in text
    json.loads(text, parse_constant=lambda c: pytest.fail(f"bare {c} in summary.json"))


@pytest.fixture
def tiny_disk(tmp_path):
    """A real 256 KiB file system (tmpfs; needs root), unmounted after the test."""
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], capture_output=True, check=False
    )
    if made.returncode:
        pytest.skip("no tmpfs to fill (mount needs root); the seam test below covers the same path")
    yield mount
    subprocess.run(["umount", "--lazy", str(mount)], check=False)  # lazy: a file still open


def test_match_on_a_full_disk_is_one_line_and_keeps_what_was_written(tiny_disk, capsys):
    folder = tiny_disk / "r"
    args = ["match", "--agents", "random,call", "--hands", "20000", "--seed", "1", "--out", str(folder)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "disk is full" in err and "stay readable" in err, err
    kept = list(read_hands(folder / "hands.sqlite"))
    assert kept and [n for n, _ in kept] == list(range(len(kept)))
    with (folder / "hands.csv").open() as file:
        assert len(list(csv.reader(file))) - 1 >= len(kept)


def test_a_write_that_fails_mid_run_is_one_line(tmp_path, monkeypatch, capsys):
    """The same through the seam, for machines without root: SQLite reports a full disk on the 3rd block."""
    import sqlite3

    from pokerlab.arena import store

    real_add, calls = store.HandStore.add, []

    def add(self, hands, decisions=()):
        calls.append(1)
        if len(calls) == 3:
            raise sqlite3.OperationalError("database or disk is full")
        real_add(self, hands, decisions)

    monkeypatch.setattr(store.HandStore, "add", add)
    folder = tmp_path / "r"
    args = ["match", "--agents", "random,call", "--hands", "400", "--block", "100", "--seed", "1"]
    assert main([*args, "--out", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"pokerlab: error: cannot write the results folder {str(folder)!r}: database or disk is full; "
        f"the hands written before stay readable (pokerlab summarize {folder})\n"
    )
    assert len(list(read_hands(folder / "hands.sqlite"))) == 200


@pytest.mark.parametrize("agents, shaded", [(2, True), (4, False)])
def test_bankroll_bands_of_many_agents_are_edges_not_overlapping_areas(tmp_path, monkeypatch, agents, shaded):
    """Up to two agents, each band is a shaded area; with more (the pooled plot's kinds), shaded bands
    overlap into one muddy area, so each is drawn as its two dotted edges in the agent's colour."""
    import matplotlib.figure
    import numpy as np

    seen = []
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", lambda fig, *a, **k: seen.append(fig.axes[0]))
    nets = np.random.default_rng(1).integers(-20, 21, size=(200, agents))
    output.plot_bankroll(nets, [f"k{j}" for j in range(agents)], 10, tmp_path / "p.png")
    ax = seen[0]
    assert len(ax.collections) == (agents if shaded else 0)
    dotted = [line for line in ax.get_lines() if line.get_linestyle() == ":"]
    assert len(dotted) == (0 if shaded else 2 * agents)
