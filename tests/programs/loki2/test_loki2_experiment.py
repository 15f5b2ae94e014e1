"""Peña 1999's design for Loki-2 (Peña 1999 node37): 8 controls + 2 variants, duplicate, and its CLI."""

import json

import pytest

from pokerlab.errors import ConfigError
from pokerlab.interfaces.cli import EXPERIMENTS, main
from pokerlab.programs.loki2.experiments import MATCHUPS, loki2_experiment, parse_matchups, peña_lineup


def test_lineup_is_eight_controls_and_two_variants():
    lineup = peña_lineup("loki2-triples", "loki1")
    assert len(lineup) == 10 and lineup.count("loki2-triples") == 2 and lineup.count("loki1") == 8
    assert parse_matchups(None) == list(MATCHUPS) and parse_matchups("triples, betting") == [
        "triples",
        "betting",
    ]
    with pytest.raises(ConfigError, match="known: betting"):
        parse_matchups("betting,magic")
    assert EXPERIMENTS["loki2"] is loki2_experiment


def test_small_run_writes_the_summary_and_is_reproducible(tmp_path):
    result = loki2_experiment(deals=2, seed=4, only="betting,reweighting", out=tmp_path / "run")
    again = loki2_experiment(deals=2, seed=4, only="betting,reweighting")
    assert [r.agent for r in result.results] == ["loki2-betting vs loki1", "loki2-reweighting vs loki1"]
    assert [r.total for r in result.results] == [r.total for r in again.results]
    assert result.hands == 40 and all(r.hands == 40 for r in result.results)  # 2 copies x 20 hands
    summary = json.loads((tmp_path / "run" / "loki2_summary.json").read_text())
    assert [row["matchup"] for row in summary["rows"]] == ["betting", "reweighting"]
    assert summary["rows"][0]["sb_per_hand"] == pytest.approx(result.results[0].sb_per_hand)
    assert (tmp_path / "run" / "loki2.png").stat().st_size > 1000
    assert (tmp_path / "run" / "betting" / "pooled_summary.json").exists()


def test_cli_only_is_checked(capsys):
    assert main(["experiment", "loki2", "--only", "nonsense", "--deals", "1"]) == 2
    assert "known: betting" in capsys.readouterr().err
    assert main(["experiment", "loki-ablation", "--only", "betting", "--deals", "1"]) == 2
    assert main(["experiment", "loki2", "--only", "triples", "--deals", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["agent"] for r in out["results"]] == ["loki2-triples vs loki1"] and out["hands"] == 10
