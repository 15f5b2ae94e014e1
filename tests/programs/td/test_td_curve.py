"""Learning curves evaluated after training (docs/learning-spec-td.md §A.9 item 2): the players a run keeps at
its schedule's save_at hands, and `pokerlab train curve` on tiny runs, checked against plain duplicate
matches."""

import csv
import statistics
from dataclasses import replace

import numpy as np
import pytest

import pokerlab.programs.td.studies.curve as td_curve
from pokerlab.arena.match import duplicate_tournament
from pokerlab.errors import ConfigError
from pokerlab.interfaces.cli import main
from pokerlab.programs.td.agent import load_td_agent
from pokerlab.programs.td.config import PRESETS
from pokerlab.programs.td.studies.curve import curves, kept_players
from pokerlab.programs.td.training import Schedule, run_config, train

SCHEDULE = Schedule(opponents=("call", "random"), opponent_id_input=True, eval_deals=2, save_at=(30, 0, 10))


def read(path):
    with open(path) as file:
        return list(csv.reader(file))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("curve")
    for seed in (1, 2):
        train(PRESETS["repaired"], SCHEDULE, 40, seed, root / f"run{seed}")
    return [root / "run1", root / "run2"]


def weights(path):
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


def test_the_run_keeps_its_player_at_the_save_at_hands_and_trains_as_without(runs, tmp_path):
    assert SCHEDULE.save_at == (0, 10, 30)
    kept = kept_players(runs[0])
    assert [h for h, _ in kept] == [0, 10, 30, 40] and kept[-1][1].name == "checkpoint.npz"
    # the same training without save_at: the same files, and its 10-hand player is the kept one
    plain = replace(SCHEDULE, save_at=())
    train(PRESETS["repaired"], plain, 40, 1, tmp_path / "plain")
    for name in ("training.csv", "curve.csv", "final.json", "checkpoint.npz"):
        assert (tmp_path / "plain" / name).read_bytes() == (runs[0] / name).read_bytes()
    assert not (tmp_path / "plain" / "players").exists()
    train(PRESETS["repaired"], replace(plain, checkpoint_every=10), 10, 1, tmp_path / "ten")
    ten, kept_ten = weights(tmp_path / "ten" / "checkpoint.npz"), weights(kept[1][1])
    assert ten.keys() == kept_ten.keys() and all(np.array_equal(ten[k], kept_ten[k]) for k in ten)
    assert load_td_agent(str(kept[0][1])).learner.hands == 0


def test_curve_rows_are_plain_duplicate_matches_for_any_number_of_workers(runs, tmp_path):
    rows = curves(runs, ["call", "raise"], 5, 3, tmp_path / "one")
    assert [r[:4] for r in rows] == [
        [run.name, seed, hands, opponent]
        for run, seed in zip(runs, (1, 2), strict=True)
        for hands in (0, 10, 30, 40)
        for opponent in ("call", "raise")
    ]
    for name, _, hands, opponent, value, low, high in rows:
        where = next(p for h, p in kept_players(runs[int(name[-1]) - 1]) if h == hands)
        player = load_td_agent(str(where))
        player.opponent_id = 0 if opponent == "call" else None  # raise: not a training opponent
        r = duplicate_tournament([player, opponent], 5, player.config.game(), 3).results[0]
        assert [value, low, high] == [round(v, 6) for v in (r.sb_per_hand, *r.ci95)]
    assert curves(runs, ["call", "raise"], 5, 3, tmp_path / "two", workers=2) == rows
    assert read(tmp_path / "one" / "curve.csv") == read(tmp_path / "two" / "curve.csv")
    seeds = read(tmp_path / "one" / "seeds.csv")
    assert len(seeds) == 1 + 4 * 2
    for hands, opponent, n, median, low, high, _, _ in seeds[1:]:
        values = [r[4] for r in rows if r[2] == int(hands) and r[3] == opponent]
        assert n == "2" and float(median) == pytest.approx(statistics.median(values))
        assert (float(low), float(high)) == (min(values), max(values))
    assert (tmp_path / "one" / "curves.png").stat().st_size > 5000


def test_the_reference_plays_each_opponent_on_the_same_deals(runs, tmp_path):
    rows = curves(runs, ["call", "random", "raise"], 4, 3, tmp_path / "r", workers=2, reference="raise")
    assert rows == curves(runs, ["call", "random", "raise"], 4, 3, tmp_path / "plain")
    game = load_td_agent(str(runs[0] / "checkpoint.npz")).config.game()
    table = read(tmp_path / "r" / "reference.csv")
    assert table[0] == ["opponent", "sb_per_hand", "ci95_low", "ci95_high"]
    assert [r[0] for r in table[1:]] == ["call", "random"]  # not against itself
    for name, *values in table[1:]:
        r = duplicate_tournament(["raise", name], 4, game, 3).results[0]
        assert [float(v) for v in values] == [round(v, 6) for v in (r.sb_per_hand, *r.ci95)]
    with pytest.raises(ConfigError, match="unknown agent|known"):
        curves(runs, ["call"], 2, 1, tmp_path / "bad", reference="nobody")


def test_a_second_call_plays_only_what_is_missing(runs, tmp_path, monkeypatch):
    full = curves(runs, ["call"], 4, 5, tmp_path / "c")
    lines = (tmp_path / "c" / "curve.csv").read_text().splitlines()
    (tmp_path / "c" / "curve.csv").write_text("\n".join(lines[:4]) + "\n")  # as if interrupted
    played = []
    real = td_curve._play
    monkeypatch.setattr(td_curve, "_play", lambda task: played.append(task[:3]) or real(task))
    assert curves(runs, ["call"], 4, 5, tmp_path / "c") == full
    assert played == [("run1", 1, 40), *(("run2", 2, h) for h in (0, 10, 30, 40))]
    played.clear()
    assert curves(runs, ["call"], 4, 5, tmp_path / "c") == full and played == []
    curves(runs, ["call"], 4, 6, tmp_path / "c")  # other deals: everything again
    assert len(played) == 8


def test_bad_input_is_one_clear_error(runs, tmp_path, capsys):
    with pytest.raises(ConfigError, match="save_at must be a list of training hands"):
        Schedule(save_at=(10, -1))
    with pytest.raises(ConfigError, match="save_at must be a list"):
        Schedule(save_at=5)
    config = tmp_path / "c.json"
    config.write_text('{"preset": "repaired", "schedule": {"save_at": ["1000"]}}')
    with pytest.raises(ConfigError, match="save_at"):
        run_config(path=config)
    train(PRESETS["repaired"], replace(SCHEDULE, save_at=()), 10, 1, tmp_path / "flat")
    with pytest.raises(ConfigError, match="needs at least two players"):
        curves([tmp_path / "flat"], ["call"], 2, 1, tmp_path / "out")
    with pytest.raises(ConfigError, match="must differ"):
        curves([runs[0], runs[0]], ["call"], 2, 1, tmp_path / "out")
    with pytest.raises(ConfigError, match="not a `pokerlab train td` run|no such|give the folder"):
        curves([tmp_path / "none"], ["call"], 2, 1, tmp_path / "out")
    assert main(["train", "curve", str(tmp_path / "none"), "--out", str(tmp_path / "o")]) == 2
    assert "give the folder" in capsys.readouterr().err


def test_cli_curve(runs, tmp_path, capsys):
    out = tmp_path / "cli"
    assert (
        main(["train", "curve", *map(str, runs), "--opponents", "call", "--deals", "3", "--out", str(out)])
        == 0
    )
    printed = capsys.readouterr().out
    assert "run2" in printed and "curves in" in printed
    assert read(out / "curve.csv")[0] == [
        "run",
        "seed",
        "hands",
        "opponent",
        "sb_per_hand",
        "ci95_low",
        "ci95_high",
    ]


def test_a_run_trained_further_loses_its_old_final_point(tmp_path):
    run = tmp_path / "run"
    train(PRESETS["repaired"], SCHEDULE, 20, 3, run)
    first = curves([run], ["call"], 3, 1, tmp_path / "c")
    assert [r[2] for r in first] == [0, 10, 20]
    train(PRESETS["repaired"], SCHEDULE, 40, 3, run, resume=True)
    assert [r[2] for r in curves([run], ["call"], 3, 1, tmp_path / "c")] == [0, 10, 30, 40]


def test_cli_says_when_the_results_folder_cannot_be_made(runs, tmp_path, capsys):
    (tmp_path / "file").write_text("")
    out = tmp_path / "file" / "curve"
    assert (
        main(["train", "curve", str(runs[0]), "--opponents", "call", "--deals", "2", "--out", str(out)]) == 2
    )
    err = capsys.readouterr().err
    assert err.startswith("pokerlab: error: cannot use") and "file" in err and "Traceback" not in err
