"""Pooled evidence tables (`pokerlab.arena.evidence`): a kind's pooled rate is the mean of its copies'
rates in the match's own summary, rows of matches not re-run are kept, and a broken folder is refused."""

import json

import pytest

from pokerlab.arena import evidence
from pokerlab.arena.evidence import collect, pooled_match
from pokerlab.errors import CorruptData
from pokerlab.interfaces.cli import main


def match(folder, agents, deals=6):
    argv = [
        "match",
        "--agents",
        agents,
        "--duplicate",
        "--deals",
        str(deals),
        "--seed",
        "3",
        "--out",
        str(folder),
    ]
    assert main([*argv, "--no-progress"]) == 0
    return json.loads((folder / "summary.json").read_text())["results"]


def test_copies_pool_to_the_mean_of_their_rates_and_rows_are_kept(tmp_path, capsys):
    runs = tmp_path / "runs"
    seats = match(runs / "ten-call-random", "call,call,random,random")
    heads_up = match(runs / "hu-call-random", "call,random", deals=8)
    row = pooled_match(runs / "ten-call-random")
    assert (row["player"], row["opponent"], row["copies"], row["hands"]) == ("call", "random", [2, 2], 24)
    assert row["sb_per_hand"] == pytest.approx((seats[0]["sb_per_hand"] + seats[1]["sb_per_hand"]) / 2)
    assert row["command"] == "pokerlab match --agents call,call,random,random --duplicate --deals 6 --seed 3"
    assert pooled_match(runs / "hu-call-random")["ci95"] == pytest.approx(heads_up[0]["ci95"])
    out = tmp_path / "out"
    rows = collect(runs, out, lambda name: name.split("-")[0], "test")
    assert [r["setting"] for r in rows] == ["hu", "ten"] and (out / "sb-per-hand.png").is_file()
    (runs / "hu-call-random" / "summary.json").unlink()  # no longer a finished match: its row is kept
    kept = collect(runs, out, lambda name: name.split("-")[0], "test")
    assert kept == json.loads(json.dumps(rows))
    assert evidence.main([str(runs)], out, lambda name: name.split("-")[0], "test", tmp_path / "unused") == 0
    assert "hu" in capsys.readouterr().out
    assert evidence.main([], out, str, "test", tmp_path / "missing") == 2
    assert "missing: no such folder of match results" in capsys.readouterr().err
    (runs / "ten-call-random" / "hands.csv").write_text("hand,deal\n1,x\n")
    with pytest.raises(CorruptData, match="ten-call-random is not a finished"):
        collect(runs, out, lambda name: name, "test")
