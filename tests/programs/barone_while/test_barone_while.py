"""Barone & While's experiments on tiny runs: the machinery (epochs, targets, tests, plots, files, CLI)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pokerlab.agents.stereotypes import StereotypeAgent
from pokerlab.errors import ConfigError
from pokerlab.interfaces.cli import main
from pokerlab.programs.barone_while import EvolvingAgent
from pokerlab.programs.barone_while.epochs import TABLES, play_epochs
from pokerlab.programs.barone_while.experiments import bw_1, bw_2, bw_3, e1_targets
from pokerlab.programs.barone_while.plots import moving_average


def test_epochs_conserve_chips_and_repeat_with_the_seed():
    runs = []
    for _ in range(2):
        player = EvolvingAgent(segments=("tight-passive", "loose-aggressive"), start="player_a")
        player.freeze()
        runs.append(play_epochs(player, "mixed", 3, seed=4))
    run = runs[0]
    opponents = TABLES["mixed"]
    total = run.player + sum(w * opponents.count(s) for s, w in run.opponents.items())
    assert np.allclose(total, 0) and run.hands == 300
    assert np.array_equal(runs[0].player, runs[1].player)  # same seed, same frozen player: same epochs
    with pytest.raises(ConfigError, match="unknown table 'medium'"):
        play_epochs(player, "medium", 1, 0)
    # opponents standing in for the stereotypes: the same agents give the same epochs; others do not
    same = play_epochs(player, "mixed", 3, seed=4, opponents=[StereotypeAgent(s) for s in opponents])
    assert np.array_equal(same.player, run.player)
    calls = play_epochs(player, "mixed", 3, seed=4, opponents=["call"] * 9)
    assert not np.array_equal(calls.player, run.player) and set(calls.opponents) == set(run.opponents)
    with pytest.raises(ConfigError, match="the mixed table seats 9 opponents, got 2"):
        play_epochs(player, "mixed", 1, 0, opponents=["call"] * 2)


def test_moving_average_against_a_plain_loop():
    w = np.random.default_rng(0).normal(size=57)
    plain = [np.mean(w[max(0, i - 19) : i + 1]) for i in range(57)]
    assert moving_average(w, 20) == pytest.approx(plain)


def test_e1_targets_by_hand():
    w = np.concatenate([np.full(100, -50.0), np.full(200, -10.0), np.full(500, 5.0), np.full(200, 20.0)])
    w[300:] += np.tile([3.0, -3.0], 350)
    t = e1_targets(w)
    assert t["E1a"]["mean_w"] == -50 and t["E1a"]["pass"]
    assert t["E1b"]["first_epoch_ma_above_0"] is not None and t["E1b"]["first_epoch_ma_above_0"] > 300
    assert not t["E1b"]["pass"]
    assert t["E1c"]["mean_w"] == pytest.approx(20.0) and t["E1c"]["pass"]
    assert t["E1d"]["losing_epochs"] == {"101-300": 200, "801-1000": 0} and t["E1d"]["pass"]
    lucky = np.full(1000, -100.0)
    lucky[0], lucky[150:] = 1500.0, 100.0  # one lucky first epoch does not count; the full average does
    assert e1_targets(lucky)["E1b"]["first_epoch_ma_above_0"] == 161


def test_bw1_writes_figure_summary_and_players(tmp_path):
    result = bw_1(epochs=3, seed=2, runs=1, out=tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["experiment"] == "bw-1" and summary["runs"][0]["hands"] == 300
    assert (tmp_path / "fig1.png").stat().st_size > 10_000
    player = EvolvingAgent.from_file(tmp_path / "player-seed2.npz")
    assert player.cube.segments == ("tight-passive", "loose-aggressive")
    assert result.lines[0].startswith("bw-1: 1 run(s) of 3 epochs")
    first = summary["runs"][0]["E1b"]["first_epoch_ma_above_0"]
    assert ("MA never > 0" if first is None else f"MA>0 at epoch {first};") in result.lines[1]


def test_bw2_then_bw3_from_its_file(tmp_path):
    two = bw_2(epochs=2, seed=1, out=tmp_path / "two", metric_hands=300)
    run = two.summary["runs"][0]
    assert run["different_actions"]["post_river_decisions"] > 0
    assert len(run["properties"]) == 4
    assert (tmp_path / "two" / "fig2-A-tight-seed1.png").is_file()
    assert (tmp_path / "two" / "fig3-A-loose-seed1.png").is_file()
    three = bw_3(epochs=3, seed=1, players=[tmp_path / "two" / run["player_file"]], out=tmp_path / "three")
    table2 = three.summary["runs"][0]["table2"]
    assert set(table2) == {"tight", "loose"} and set(table2["tight"]) == {"A^tight", "A", "A^loose"}
    assert len(three.summary["runs"][0]["inequalities"]) == 4
    assert (tmp_path / "three" / "table2-run0.png").is_file()


def test_cli_experiment_and_show_player(tmp_path, capsys):
    assert main(["experiment", "bw-1", "--epochs", "2", "--runs", "1", "--out", str(tmp_path / "r")]) == 0
    assert "E1a" in capsys.readouterr().out
    assert main(["show-player", str(tmp_path / "r" / "player-seed0.npz"), "--json"]) == 0
    about = json.loads(capsys.readouterr().out)
    assert about["segments"] == ["tight-passive", "loose-aggressive"] and len(about["plots"]) == 2
    assert main(["experiment", "bw-1", "--deals", "5"]) == 2
    assert "--deals does not apply to experiment bw-1" in capsys.readouterr().err
    assert main(["show-player", str(tmp_path / "missing.npz")]) == 2
    assert "no agent file" in capsys.readouterr().err


def test_settings_from_text():
    from pokerlab.programs.barone_while.config import parse_settings

    config = parse_settings("multiway_x=single, sigma=0.1,one_fifth_rule=true,population_size=8")
    assert (config.multiway_x, config.sigma, config.one_fifth_rule, config.population_size) == (
        "single",
        0.1,
        True,
        8,
    )
    with pytest.raises(ConfigError, match="bad setting 'speed=3'"):
        parse_settings("speed=3")
    with pytest.raises(ConfigError, match="setting sigma takes a float"):
        parse_settings("sigma=big")
    with pytest.raises(ConfigError, match="es_scheme must be one of 'per_slot', 'truncation'"):
        parse_settings("es_scheme=best")


def test_preflop_rates_of_players_that_always_fold_or_always_raise():
    from pokerlab.programs.barone_while.candidate import GENE_MAX
    from pokerlab.programs.barone_while.experiments import preflop_rates

    player = EvolvingAgent(segments=("tight-passive", "loose-aggressive"))
    player.cube.genes[:] = [GENE_MAX, GENE_MAX, 0.5, 0.5, 0.0, 0.5, 0.0]  # always fold (check when free)
    folder = preflop_rates(player.learned_state(), 2, seed=3)
    assert folder["hands"] > 150 and folder["vpip"] == 0 and folder["pfr"] == 0 and not folder["pass"]
    player.cube.genes[:] = [0.0, GENE_MAX, 0.5, 0.5, 0.0, GENE_MAX, GENE_MAX]  # always raise
    raiser = preflop_rates(player.learned_state(), 2, seed=3)
    assert raiser["vpip"] == 1.0 and raiser["pfr"] > 0.7  # capped pots leave only a call


def test_fig1_of_runs_with_other_settings_have_other_titles(tmp_path, monkeypatch):
    from pokerlab.programs.barone_while import EvolvingConfig
    from pokerlab.programs.barone_while import experiments as barone_while

    titles = []
    monkeypatch.setattr(barone_while, "plot_epochs", lambda runs, path, title, **kw: titles.append(title))
    bw_1(epochs=3, seed=2, runs=1, out=tmp_path / "default")
    bw_1(epochs=3, seed=2, runs=1, out=tmp_path / "truncation", config=EvolvingConfig(es_scheme="truncation"))
    assert titles[0] != titles[1] and titles[1].endswith("es_scheme=truncation")
    assert barone_while.config_note(EvolvingConfig()) == ""
