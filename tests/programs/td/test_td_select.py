"""Checkpoint selection on held-out deals (docs/learning-spec-td.md §A.9 item 7): `pokerlab train select`."""

import csv
import json
from dataclasses import replace

import pytest

from pokerlab.agents import make_agent
from pokerlab.errors import ConfigError
from pokerlab.interfaces.cli import main
from pokerlab.programs.td.config import PRESETS
from pokerlab.programs.td.studies.runs import TABLE_SEED, final_table
from pokerlab.programs.td.studies.select import CRITERIA, VALIDATION_SEED, select
from pokerlab.programs.td.training import Schedule, train

#: Stage 2 from hand 20, a snapshot every 20 hands.
SCHEDULE = Schedule(opponents=("call", "random"), opponent_id_input=True, stage2_after=20, snapshot_every=20)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("select") / "run"
    train(PRESETS["repaired"], replace(SCHEDULE, eval_deals=2), 70, 4, folder)
    return folder


def recomputed(folder, criterion):
    """The criterion per candidate, recomputed plainly from select.csv over the fixed opponents."""
    with open(folder / "select.csv") as file:
        rows = list(csv.DictReader(file))
    scores = {}
    for name in dict.fromkeys(r["candidate"] for r in rows):
        mine = [r for r in rows if r["candidate"] == name and r["opponent"] in ("call", "random")]
        if criterion == "mean":
            scores[name] = sum(float(r["sb_per_hand"]) for r in mine) / len(mine)
        else:
            scores[name] = min(float(r["ci95_low"]) for r in mine)
    return scores


@pytest.mark.parametrize("criterion", sorted(CRITERIA))
def test_selection_picks_the_best_candidate_and_copies_it(run, criterion):
    result = select(run, 6, criterion=criterion, opponents=["call", "random", "raise"])
    names = [
        "snapshots/hands-000000020",
        "snapshots/hands-000000040",
        "snapshots/hands-000000060",
        "checkpoint",
    ]
    assert list(result["scores"]) == names and result["judged_on"] == ["call", "random"]
    scores = recomputed(run, criterion)
    best = max(scores.values())
    assert result["chosen"] == next(n for n in names if scores[n] == best)  # ties: the earlier one
    assert result["scores"] == pytest.approx(scores, abs=1e-6)
    assert (run / "best.npz").read_bytes() == (run / f"{result['chosen']}.npz").read_bytes()
    assert json.loads((run / "select.json").read_text())["chosen"] == result["chosen"]
    assert make_agent(f"td:{run}/best").config == make_agent(f"td:{run}/checkpoint").config


def test_the_validation_deals_are_not_the_table_deals(run):
    assert VALIDATION_SEED != TABLE_SEED
    with pytest.raises(ConfigError, match="must differ"):
        select(run, 4, TABLE_SEED)
    select(run, 4, 3)
    with pytest.raises(ConfigError, match="selected on the deals of seed 3"):
        final_table(run, ["call"], 4, 3, style_hands=10, player="best")
    rows = final_table(run, ["call"], 4, TABLE_SEED, style_hands=10, player="best")
    assert (run / "final-table-best.csv").is_file() and rows[0][0] == "call"


def test_bad_input_is_one_error(run, tmp_path, capsys):
    with pytest.raises(ConfigError, match="unknown criterion 'best'"):
        select(run, 4, criterion="best")
    with pytest.raises(ConfigError, match="none of the opponents"):
        select(run, 4, opponents=["raise"])
    train(PRESETS["repaired"], Schedule(opponents=("call",), eval_deals=2), 10, 1, tmp_path / "flat")
    with pytest.raises(ConfigError, match="a selection needs at least two snapshots"):
        select(tmp_path / "flat", 4)
    capsys.readouterr()
    assert main(["train", "select", str(tmp_path / "flat"), "--deals", "4"]) == 2
    assert main(["train", "select", str(run), "--criterion", "best"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "at least two snapshots" in err[0] and "unknown criterion" in err[1]


def test_cli_select_then_table(run, capsys):
    assert main(["train", "select", str(run), "--deals", "4", "--opponents", "call,random"]) == 0
    out = capsys.readouterr().out
    assert "<- chosen" in out and f"td:{run}/best" in out
    assert main(["train", "table", str(run), "--player", "best", "--opponents", "call", "--deals", "3"]) == 0
    assert "final-table-best.csv" in capsys.readouterr().out


def test_a_second_criterion_reuses_the_rows(run, monkeypatch):
    import pokerlab.programs.td.studies.select as td_select

    first = select(run, 5, criterion="mean", opponents=["call", "random"])
    played = []
    real = td_select.versus
    monkeypatch.setattr(td_select, "versus", lambda *a: played.append(a) or real(*a))
    second = select(run, 5, criterion="worst-low", opponents=["call", "random"])
    assert played == [] and second["rows"] == first["rows"]
    assert second["scores"] == pytest.approx(recomputed(run, "worst-low"), abs=1e-6)
    select(run, 5, criterion="worst-low", opponents=["call"])  # other opponents: played again
    assert len(played) == 4
