"""TD-Hold'em's snapshot ladder (docs/learning-spec-td.md §A.9 item 5), exploitability proxy (item 6) and the
median and range over seeds (items 2 and 7) on tiny runs, and their CLI commands."""

import csv
import statistics
from dataclasses import replace

import numpy as np
import pytest

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.arena.match import duplicate_tournament
from pokerlab.engine import HandState, hand_start, seat_view
from pokerlab.errors import ConfigError
from pokerlab.interfaces.cli import main
from pokerlab.programs.td.agent import load_td_agent
from pokerlab.programs.td.config import PRESETS
from pokerlab.programs.td.studies.exploit import exploit, frozen_version
from pokerlab.programs.td.studies.ladder import ladder, rungs, self_id
from pokerlab.programs.td.studies.runs import final_table, style, summarize_runs
from pokerlab.programs.td.training import Schedule, train

#: Stage 2 from hand 20, a snapshot every 20 hands.
SCHEDULE = Schedule(opponents=("call", "random"), opponent_id_input=True, stage2_after=20, snapshot_every=20)


def tiny_run(folder, config=PRESETS["repaired"], hands=70):
    train(config, replace(SCHEDULE, eval_deals=2), hands, 4, folder)
    return folder


def read(path):
    with open(path) as file:
        return list(csv.reader(file))


def test_ladder_plays_every_later_snapshot_against_every_earlier(tmp_path):
    run = tiny_run(tmp_path / "run")
    assert [h for h, _ in rungs(run)] == [20, 40, 60, 70]  # snapshots, then the later final checkpoint
    rows = ladder(run, 6, 2, tmp_path / "ladder")
    assert [(r[0], r[1]) for r in rows] == [(40, 20), (60, 20), (60, 40), (70, 20), (70, 40), (70, 60)]
    later, earlier = (
        self_id(load_td_agent(str(run / "checkpoint"))),
        self_id(load_td_agent(str(run / "snapshots" / "hands-000000020.npz"))),
    )
    assert later.opponent_id == 2  # call, random, then the slot of itself and its snapshots
    direct = duplicate_tournament([later, earlier], 6, later.config.game(), 2).results[0]
    assert rows[3][2] == round(direct.sb_per_hand, 6)
    assert read(tmp_path / "ladder" / "ladder.csv")[1] == [str(v) for v in rows[0]]
    assert (tmp_path / "ladder" / "ladder.png").stat().st_size > 5000


def test_ladder_of_a_player_that_does_not_change_is_all_zero(tmp_path):
    """With α = 0 and no exploration every snapshot is the same greedy player: duplicate results are 0."""
    still = replace(PRESETS["repaired"], alpha=0.0, epsilon_start=0.0, epsilon_end=0.0)
    run = tiny_run(tmp_path / "run", still, 60)
    rows = ladder(run, 8, 1, tmp_path / "ladder")
    assert len(rows) == 3 and all(r[2] == 0.0 for r in rows)


def test_ladder_needs_two_snapshots(tmp_path):
    train(PRESETS["repaired"], Schedule(opponents=("call",), eval_deals=2), 10, 1, tmp_path / "run")
    with pytest.raises(ConfigError, match="at least two snapshots"):
        ladder(tmp_path / "run", 4, 1, tmp_path / "ladder")
    with pytest.raises(ConfigError, match="no such run folder"):
        ladder(tmp_path / "missing", 4, 1, tmp_path / "ladder")


def test_exploit_versions_and_rows(tmp_path):
    run = tiny_run(tmp_path / "run", hands=40)
    greedy, mixed = (frozen_version(str(run), v, 0.25) for v in ("greedy", "mixed"))
    assert (greedy.play_epsilon, mixed.play_epsilon, mixed.opponent_id) == (0.0, 0.25, None)
    with pytest.raises(ConfigError, match="no average-policy network"):
        frozen_version(str(run), "average", 0.1)
    with pytest.raises(ConfigError, match="unknown version 'best'"):
        frozen_version(str(run), "best", 0.1)
    rows = exploit(str(run), 40, 3, tmp_path / "proxy", deals=4, epsilon=0.25)
    assert [r[0] for r in rows] == ["greedy", "mixed"] and all(r[1] == 40 for r in rows)
    for r in rows:
        assert r[3] <= r[2] <= r[4] and r[6] <= r[5] <= r[7]
    assert rows[0][2:] != rows[1][2:]  # the mixed player plays differently
    again = exploit(str(run), 40, 3, tmp_path / "again", deals=4, versions=("greedy",), epsilon=0.25)
    assert again[0] == rows[0]  # seeded: the greedy version alone gives the same row
    assert read(tmp_path / "proxy" / "exploit.csv")[0][:3] == ["version", "hands", "train_sb_per_hand"]
    assert (tmp_path / "proxy" / "exploit.png").stat().st_size > 5000


def test_mixed_player_mixes_at_its_rate(tmp_path):
    """A frozen player with play_epsilon = 1 plays uniformly among its options (never folding for free)."""
    run = tiny_run(tmp_path / "run", hands=40)
    player = frozen_version(str(run), "mixed", 1.0)
    player.seed(np.random.default_rng(0))
    state = HandState(player.config.game(), [0, 1, 2, 3], [4, 5, 6, 7, 8])
    view = seat_view(state, state.actor)
    player.begin_hand(hand_start(state, state.actor))
    counts = np.bincount([player.act(view) for _ in range(3000)], minlength=3)
    assert np.all(np.abs(counts / 3000 - 1 / 3) < 0.04)


def test_cli_ladder_and_exploit(tmp_path, capsys):
    run = tiny_run(tmp_path / "run", hands=40)
    assert main(["train", "ladder", str(run), "--deals", "3", "--seed", "1"]) == 0
    assert "40 vs" in capsys.readouterr().out and (run / "ladder" / "ladder.png").is_file()
    out = tmp_path / "proxy"
    assert main(["train", "exploit", str(run), "--hands", "20", "--deals", "2", "--out", str(out)]) == 0
    assert "greedy" in capsys.readouterr().out and (out / "exploit.csv").is_file()
    assert main(["train", "exploit", str(run), "--hands", "20", "--versions", "best", "--out", str(out)]) == 2
    assert "unknown version" in capsys.readouterr().err
    assert main(["train", "ladder", str(tmp_path / "none")]) == 2


def test_style_counts_by_hand():
    """Hand-worked: hand 0 completes the small blind and folds to a flop bet; hand 1 checks its big blind
    then bets and calls a raise on the flop; hand 2 raises pre-flop and raises twice on the turn.
    VPIP 2/3 (hands 0, 2), PFR 1/3, AF = 3 bets and raises / 1 call of a bet after the flop."""
    decisions = [
        (0, 0, 5, CALL),
        (0, 1, 10, FOLD),
        (1, 0, 0, CALL),
        (1, 1, 0, RAISE),
        (1, 1, 10, CALL),
        (2, 0, 5, RAISE),
        (2, 2, 20, RAISE),
        (2, 2, 20, RAISE),
    ]
    assert style(decisions) == {"vpip": 2 / 3, "pfr": 1 / 3, "af": 3.0}


def test_final_table_and_cli(tmp_path, capsys):
    run = tiny_run(tmp_path / "run", hands=30)
    rows = final_table(run, ["call", "raise", "loki1"], 5, 1, style_hands=40)  # Loki-1 answers Decisions
    assert [r[0] for r in rows] == ["call", "raise", "loki1"]
    vs_call = rows[0]
    assert vs_call[2] <= vs_call[1] <= vs_call[3] and 0 <= vs_call[5] <= vs_call[4] <= 1
    assert rows[1][6] == float("inf") or rows[1][6] >= 0
    header = ["opponent", "sb_per_hand", "ci95_low", "ci95_high", "vpip", "pfr", "af"]
    assert read(run / "final-table.csv")[0] == header
    assert (
        main(["train", "table", str(run), "--opponents", "random", "--deals", "3", "--style-hands", "10"])
        == 0
    )
    assert "random" in capsys.readouterr().out
    assert main(["train", "table", str(tmp_path / "none"), "--opponents", "random"]) == 2


def test_summary_gives_median_and_range_over_seeds_at_shared_points(tmp_path):
    """seeds.csv against a plain recomputation from each run's curve.csv: only the evaluation points every
    run has (run 1 is evaluated every 10 hands, runs 2 and 3 every 20), the median, the range and how many
    runs' CIs lie above or below 0."""
    runs = []
    for seed, every in ((1, 10), (2, 20), (3, 20)):
        runs.append(tmp_path / f"run{seed}")
        train(PRESETS["repaired"], replace(SCHEDULE, eval_every=every, eval_deals=3), 40, seed, runs[-1])
    summarize_runs(runs, tmp_path / "summary")
    rows = read(tmp_path / "summary" / "seeds.csv")
    assert rows[0] == ["hands", "opponent", "runs", "median", "min", "max", "ci_above_0", "ci_below_0"]
    curves = [read(run / "curve.csv")[1:] for run in runs]
    assert sorted({int(r[0]) for r in rows[1:]}) == [0, 20, 40]
    assert len(rows) == 1 + 3 * 3  # three points, three opponents
    for hands, opponent, n, median, low, high, above, below in rows[1:]:
        points = [next(r for r in curve if r[:2] == [hands, opponent]) for curve in curves]
        values = [float(p[2]) for p in points]
        assert n == "3" and float(median) == pytest.approx(statistics.median(values))
        assert (float(low), float(high)) == (min(values), max(values))
        assert int(above) == sum(float(p[3]) > 0 for p in points)
        assert int(below) == sum(float(p[4]) < 0 for p in points)
    assert any(float(r[4]) < float(r[5]) for r in rows[1:])  # the seeds differ somewhere
    assert (tmp_path / "summary" / "curves.png").stat().st_size > 5000
