import json

import numpy as np
import pytest

from pokerlab.arena.stats import pool_by_name, summarize
from pokerlab.interfaces.cli import main
from pokerlab.programs.loki1.experiments import ABLATION, loki_ablation, run_pooled


def test_pooling_counts_every_copy():
    nets = np.array([[10, -4, -6], [-10, 30, -20], [0, 5, -5]])
    kinds, pooled, copies, first = pool_by_name(["a", "b", "a"], nets)
    assert kinds == ["a", "b"] and copies == [2, 1] and first == [0, 1]
    assert pooled.tolist() == [[4, -4], [-30, 30], [-5, 5]]
    a, b = summarize(kinds, pooled, np.array([0, 1, 2]), small_bet=10, big_blind=10, copies=copies)
    assert a.hands == 6 and b.hands == 3
    assert a.sb_per_hand == pytest.approx(-31 / 10 / 6) and b.sb_per_hand == pytest.approx(31 / 10 / 3)


def test_ablation_small_run_is_reproducible_and_written(tmp_path):
    result = loki_ablation(deals=6, seed=3, out=tmp_path / "run")
    again = loki_ablation(deals=6, seed=3)
    assert [r.agent for r in result.results] == list(ABLATION)
    assert result.hands == 60 and all(r.hands == 120 for r in result.results)
    assert [r.total for r in result.results] == [r.total for r in again.results]
    assert sum(r.total for r in result.results) == 0  # chips only change hands
    summary = json.loads((tmp_path / "run" / "pooled_summary.json").read_text())
    expected = json.loads(json.dumps(result.to_json()))
    del expected["out"]
    assert summary == expected
    assert (tmp_path / "run" / "pooled_bankroll.png").stat().st_size > 1000
    # the match's own per-seat files sit beside it
    assert (tmp_path / "run" / "hands.csv").exists()
    # summarize rebuilds the pooled files too
    before = (tmp_path / "run" / "pooled_summary.json").read_bytes()
    (tmp_path / "run" / "pooled_summary.json").unlink()
    (tmp_path / "run" / "pooled_bankroll.png").unlink()
    assert main(["summarize", str(tmp_path / "run")]) == 0
    assert (tmp_path / "run" / "pooled_summary.json").read_bytes() == before
    assert (tmp_path / "run" / "pooled_bankroll.png").exists()


def test_cli_experiment_json(capsys):
    assert main(["experiment", "loki-vs-styles", "--deals", "3", "--seed", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == 30 and out["deals"] == 3 and out["duplicate"] is True
    assert [r["agent"] for r in out["results"]] == [
        "loki1",
        "loose-passive",
        "loose-aggressive",
        "tight-passive",
        "tight-aggressive",
    ]
    assert set(out["results"][0]) >= {"agent", "seat", "total", "sb_per_hand", "mbb_per_hand", "ci95"}


def test_cli_experiment_rejects_unknown_names(capsys):
    assert main(["experiment", "nonsense"]) == 2
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.slow
def test_loki_tops_the_field_of_stereotypes():
    result = run_pooled(
        [
            name
            for name in ("loki1", "loose-passive", "loose-aggressive", "tight-passive", "tight-aggressive")
            for _ in range(2)
        ],
        200,
        seed=11,
        workers=2,
    )
    loki, *others = result.results
    assert loki.agent == "loki1" and loki.ci95[0] > 0
    assert all(loki.sb_per_hand > other.sb_per_hand for other in others)


@pytest.mark.slow
@pytest.mark.parametrize("opponent", ["call", "raise", "random", "loose-aggressive"])
def test_loki_beats_simple_agents_at_ten_seats(opponent):
    result = run_pooled(["loki1"] * 5 + [opponent] * 5, 100, seed=11, workers=2)
    assert result.results[0].ci95[0] > 0, result.results[0]


def test_fig1_readings_change_every_player_alike():
    from pokerlab.errors import ConfigError
    from pokerlab.programs.loki1 import VARIANTS, fig1_reading

    for name in ABLATION:
        read = fig1_reading(VARIANTS[name], "betting-1998")
        assert read.modelling == "generic"
        assert not (read.rules.semi_bluff or read.rules.showdown_odds or read.rules.deception)
        # Fig 1's own differences stay
        assert (read.weighting, read.potential, read.preflop) == (
            VARIANTS[name].weighting,
            VARIANTS[name].potential,
            VARIANTS[name].preflop,
        )
        assert fig1_reading(VARIANTS[name], "ours") == VARIANTS[name]
    with pytest.raises(ConfigError, match="allowed: ours"):
        fig1_reading(VARIANTS["loki1"], "paper")


def test_betting_1998_players_use_only_the_rules_of_billings_1998():
    from pokerlab.arena import play_match
    from pokerlab.programs.loki1.experiments import loki_field

    class Logged:
        rules: set = set()

    players = loki_field(ABLATION, "betting-1998")
    original = type(players[0])._postflop

    def logged(self, view, hand):
        action = original(self, view, hand)
        Logged.rules.add(self.last_rule)
        return action

    for p in players:
        p._postflop = logged.__get__(p)
    play_match(players, 60, seed=4)
    assert Logged.rules and Logged.rules <= {"make4", "make2", "make1", "pot-odds", "fold", "check"}
    assert "pot-odds" in Logged.rules


def test_cli_reading_only_for_the_loki1_fields(capsys):
    assert main(["experiment", "loki-vs-styles", "--deals", "2", "--reading", "generic"]) == 2
    assert "--reading applies to loki-ablation and loki-components" in capsys.readouterr().err
    assert main(["experiment", "loki-components", "--deals", "2", "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["agent"] for r in out["results"]][0] == "loki1-basic" and out["hands"] == 20
