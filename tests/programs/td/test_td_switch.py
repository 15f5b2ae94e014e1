"""The switching opponent and TD-Hold'em's adaptation study (docs/learning-spec-td.md §A.10 (b)) on tiny
runs."""

import csv
from dataclasses import replace

import numpy as np
import pytest

from pokerlab import play_match
from pokerlab.agents import make_agent
from pokerlab.arena.dealing import Dealer
from pokerlab.errors import ConfigError
from pokerlab.interfaces.cli import main
from pokerlab.programs.td.agent import load_td_agent
from pokerlab.programs.td.config import PRESETS
from pokerlab.programs.td.studies.switch import play_sessions, switch_study
from pokerlab.programs.td.training import Schedule, play_series, train


def test_a_switching_agent_plays_its_first_style_then_its_second():
    """Against always-call, switch:call/raise/10 wins what always-call wins in hands 1-10 and what
    always-raise wins from hand 11 (the same deals: nets depend on the cards and actions only)."""
    switching = play_match(["switch:call/raise/10", "call"], 20, seed=5).nets
    calls = play_match(["call", "call"], 20, seed=5).nets
    raises = play_match(["raise", "call"], 20, seed=5).nets
    assert (switching[:10] == calls[:10]).all() and (switching[10:] == raises[10:]).all()
    assert not (calls[10:] == raises[10:]).all()  # the comparison can fail


@pytest.mark.parametrize(
    "spec, message",
    [
        ("switch:call/raise", "switch:FIRST/SECOND/HANDS"),
        ("switch:call/raise/x", "switch:FIRST/SECOND/HANDS"),
        ("switch:call/raise/0", "at least 1 hand"),
        ("switch:nobody/raise/5", "unknown agent 'nobody'"),
    ],
)
def test_bad_switching_specs_say_what_is_allowed(spec, message):
    with pytest.raises(ConfigError, match=message):
        make_agent(spec)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two tiny trained players, without and with opponent-model inputs."""
    schedule = Schedule(opponents=("call", "random"), opponent_id_input=True, eval_deals=2)
    folder = tmp_path_factory.mktemp("runs")
    made = []
    for name, inputs in (("plain", False), ("modelled", True)):
        config = replace(PRESETS["repaired"], opponent_model_inputs=inputs)
        train(config, schedule, 60, 4, folder / name)
        made.append(str(folder / name))
    return made


def test_switch_study_windows_curves_and_modes(runs, tmp_path):
    rows = switch_study(runs, tmp_path / "s", after=30, sessions=3, window=10, seed=2)
    assert [(r[0], r[1], r[2], r[3]) for r in rows[:6]] == [
        ("plain", mode, window, first)
        for mode in ("learning", "frozen")
        for window, first in (("before", 21), ("after", 31), ("end", 51))
    ]
    assert len(rows) == 15 and all(r[5] <= r[4] <= r[6] and r[7] == 3 for r in rows)
    assert [r[1] for r in rows[6::3]] == ["learning", "model", "frozen"]  # the model mode: modelled only
    with open(tmp_path / "s" / "switch-curve.csv") as file:
        points = list(csv.DictReader(file))
    curve = {(r["run"], r["mode"], int(r["hand"])): float(r["rolling_sb_per_hand"]) for r in points}
    for r in rows:  # each window's mean is the rolling mean ending at its last hand
        assert curve[(r[0], r[1], r[3] + 9)] == pytest.approx(r[4], abs=1e-5)
    assert (tmp_path / "s" / "switch.png").stat().st_size > 5000
    # common random numbers and seeds: a frozen player meets the same results again; a learning one moves
    opponent = "switch:tight-passive/loose-aggressive/30"
    modes = ("frozen", "frozen", "learning")
    frozen, again, learning = (play_sessions(runs[0], opponent, 60, 2, 2, m) for m in modes)
    assert np.array_equal(frozen, again) and not np.array_equal(frozen, learning)
    with pytest.raises(ConfigError, match="unknown mode 'lazy'"):
        play_sessions(runs[0], opponent, 60, 2, 2, "lazy")


@pytest.mark.parametrize("models_learn", [False, True])
def test_a_frozen_player_can_let_only_its_opponent_models_learn(runs, models_learn):
    player, other = load_td_agent(runs[1]), make_agent("loose-aggressive")
    player.models_learn_frozen = models_learn
    player.seed(np.random.default_rng(1))
    other.seed(np.random.default_rng(2))
    theta, models = player.learner.network.theta.copy(), player.learner.opponent_models.state()
    play_series(player, other, player.config.game(), Dealer(3), 30)
    after = player.learner.opponent_models.state()
    assert np.array_equal(theta, player.learner.network.theta)  # the network never moves when frozen
    assert any(not np.array_equal(models[k], after[k]) for k in models) == models_learn


def test_an_interrupted_study_keeps_what_it_played(runs, tmp_path, monkeypatch):
    from pokerlab.programs.td.studies import switch as td_switch

    played = []

    def stop_at_the_third(*args, **kwargs):
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(args[5])
        return play_sessions(*args, **kwargs)

    monkeypatch.setattr(td_switch, "play_sessions", stop_at_the_third)
    with pytest.raises(KeyboardInterrupt):
        switch_study(runs, tmp_path / "cut", after=20, sessions=2, window=5, seed=2)
    with open(tmp_path / "cut" / "switch.csv") as file:
        kept = list(csv.DictReader(file))
    assert played == ["learning", "frozen"] and [r["mode"] for r in kept] == ["learning"] * 3 + ["frozen"] * 3


def test_switch_study_refuses_bad_settings(runs, tmp_path):
    with pytest.raises(ConfigError, match="window must be 1 to 30"):
        switch_study(runs, tmp_path, after=30, window=31)
    with pytest.raises(ConfigError, match="missing: give the folder of a `pokerlab train td` run"):
        switch_study([str(tmp_path / "missing")], tmp_path)
    with pytest.raises(ConfigError, match="unknown agent"):
        switch_study(runs, tmp_path, first="nobody")
    with pytest.raises(ConfigError, match="give the folder of a `pokerlab train td` run"):
        switch_study([f"{runs[0]}/checkpoint.npz"], tmp_path)


def test_cli_train_switch(runs, tmp_path, capsys):
    out = tmp_path / "cli"
    argv = ["train", "switch", runs[0], "--after", "20", "--sessions", "2", "--window", "5", "--seed", "1"]
    assert main([*argv, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "plain" in printed and "frozen" in printed and (out / "switch.csv").is_file()
    assert main([*argv[:-2], "--window", "50", "--out", str(out)]) == 2
    assert "window must be 1 to 20" in capsys.readouterr().err
