"""T4's repair deltas (docs/learning-spec-td.md §A.9 item 7) on tiny runs: each configuration's final result
less the base's of the same seed, recomputed here from the runs' own final.json, and the refusals."""

import csv
import json
import math
from dataclasses import replace

import numpy as np
import pytest

from pokerlab.arena.significance import paired_test
from pokerlab.errors import ConfigError
from pokerlab.interfaces.cli import main
from pokerlab.programs.td.config import PRESETS
from pokerlab.programs.td.studies.repairs import repair_deltas
from pokerlab.programs.td.training import Schedule, train

SCHEDULE = Schedule(opponents=("call",), eval_every=30, eval_deals=3, eval_opponents=("call", "random"))
CONFIGS = {"faithful": PRESETS["faithful"], "action-value": replace(PRESETS["faithful"], head="action_value")}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("repairs")
    for seed in (1, 2, 3):
        for name, config in CONFIGS.items():
            train(config, SCHEDULE, 60, seed, root / f"s{seed}" / name)
    return root


def final(folder, opponent="call"):
    results = json.loads((folder / "final.json").read_text())["results"]
    return next(
        (r["sb_per_hand"], r["ci95_low"], r["ci95_high"]) for r in results if r["opponent"] == opponent
    )


def test_deltas_are_the_runs_differences_seed_by_seed_and_over_seeds(runs, tmp_path):
    folders = sorted(runs.glob("s*/*"))
    results, deltas = repair_deltas(folders, tmp_path / "out", opponent="random")
    assert len(results) == 6
    differences = []
    for seed in (1, 2, 3):
        mine, base = (
            final(runs / f"s{seed}" / "action-value", "random"),
            final(runs / f"s{seed}" / "faithful", "random"),
        )
        row = next(r for r in deltas if r[1] == seed)
        half = math.sqrt(((mine[2] - mine[1]) / 2) ** 2 + ((base[2] - base[1]) / 2) ** 2)
        assert row[0] == "action-value"
        assert row[2] == pytest.approx(mine[0] - base[0], abs=1e-6)
        assert row[3] == pytest.approx(mine[0] - base[0] - half, abs=1e-6)
        differences.append(mine[0] - base[0])
    mean = next(r for r in deltas if r[1] == "mean")
    d = np.array(differences)
    half = 4.302653 * d.std(ddof=1) / math.sqrt(3)  # Student's t, 97.5 %, df = 2 (printed tables: 4.303)
    assert mean[2] == pytest.approx(d.mean(), abs=1e-6)
    assert mean[4] == pytest.approx(d.mean() + half, abs=1e-5)
    assert mean[5] == pytest.approx(paired_test(d, np.zeros(3)).p_greater, abs=1e-6)
    with open(tmp_path / "out" / "deltas.csv") as file:
        assert len(list(csv.reader(file))) == 1 + 4
    assert (tmp_path / "out" / "curves.png").stat().st_size > 0


def test_bad_sets_of_runs_are_refused(runs, tmp_path):
    everything = sorted(runs.glob("s*/*"))
    with pytest.raises(ConfigError, match="no run named 'faithful'"):
        repair_deltas(sorted(runs.glob("s*/action-value")), tmp_path)
    with pytest.raises(ConfigError, match="only 'faithful' runs given"):
        repair_deltas(sorted(runs.glob("s*/faithful")), tmp_path)
    with pytest.raises(ConfigError, match=r"no faithful run for seed\(s\) \[3\]"):
        repair_deltas([f for f in everything if f != runs / "s3" / "faithful"], tmp_path)
    with pytest.raises(ConfigError, match="not evaluated against 'loki1'"):
        repair_deltas(everything, tmp_path, opponent="loki1")
    with pytest.raises(ConfigError, match="two runs named 'faithful' with seed 1"):
        repair_deltas([*everything, runs / "s1" / "faithful"], tmp_path)
    with pytest.raises(ConfigError, match="not a finished `pokerlab train td` run"):
        repair_deltas([tmp_path], tmp_path)


def test_cli_deltas(runs, tmp_path, capsys):
    assert main(["train", "deltas", *map(str, sorted(runs.glob("s*/*"))), "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "action-value     seed mean" in printed and (tmp_path / "results.csv").exists()
    assert (
        main(["train", "deltas", str(runs / "s1" / "faithful"), "--base", "nothing", "--out", str(tmp_path)])
        == 2
    )
