"""The averaged player of a TD run (the schedule's polyak): θ̄ is the plain exponential moving average of
the player's weights after every hand, the training is the same as without it, it resumes to the same
files, and it plays by name."""

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from pokerlab.agents import make_agent
from pokerlab.arena.match import duplicate_tournament
from pokerlab.errors import ConfigError
from pokerlab.programs.td.agent import checkpoint_path, load_td_agent
from pokerlab.programs.td.config import PRESETS
from pokerlab.programs.td.training import Schedule, Trainer, train

HANDS = 30
BASE = Schedule(opponents=("call", "raise", "self"), opponent_id_input=True, eval_deals=2, stage2_after=10)
SCHEDULE = replace(BASE, polyak=7, snapshot_every=5)


def theta(path):
    with np.load(path) as data:
        return data["learned/theta"]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("polyak") / "run"
    train(PRESETS["repaired"], SCHEDULE, HANDS, 3, out)
    return out


def test_the_average_is_the_moving_average_of_the_weights_after_every_hand(run, tmp_path):
    # the oracle: the same training keeping its player after every hand, averaged by a plain loop
    kept = replace(SCHEDULE, polyak=0, save_at=tuple(range(HANDS + 1)))
    train(PRESETS["repaired"], kept, HANDS, 3, tmp_path / "kept")
    players = sorted((tmp_path / "kept" / "players").glob("hands-*.npz"))
    assert len(players) == HANDS + 1
    mean = theta(players[0])
    for path in players[1:]:
        mean = mean + (theta(path) - mean) / 7
    averaged = theta(run / "averaged.npz")
    assert np.allclose(averaged, mean, rtol=0, atol=1e-12)
    assert not np.allclose(averaged, theta(run / "checkpoint.npz"))  # it is not the last player
    assert load_td_agent(str(run / "averaged")).learner.hands == HANDS


def test_the_training_is_the_same_as_without_it(run, tmp_path):
    train(PRESETS["repaired"], replace(SCHEDULE, polyak=0), HANDS, 3, tmp_path / "plain")
    for name in ("training.csv", "curve.csv", "checkpoint.npz"):
        assert (tmp_path / "plain" / name).read_bytes() == (run / name).read_bytes()
    plain = json.loads((tmp_path / "plain" / "final.json").read_text())
    final = json.loads((run / "final.json").read_text())
    assert "averaged" not in plain and not (tmp_path / "plain" / "averaged.npz").exists()
    assert final["results"] == plain["results"]
    assert [r["opponent"] for r in final["averaged"]] == list(SCHEDULE.eval_opponents)


def test_the_averaged_rows_of_final_json_are_plain_duplicate_matches(run):
    final = json.loads((run / "final.json").read_text())
    for row in final["averaged"]:
        player = load_td_agent(str(run / "averaged"))
        player.opponent_id = ("call", "raise").index(row["opponent"]) if row["opponent"] != "random" else None
        r = duplicate_tournament([player, row["opponent"]], 2, player.config.game(), SCHEDULE.eval_seed)
        assert row["sb_per_hand"] == round(r.results[0].sb_per_hand, 6)


@pytest.mark.parametrize("networks", [False, True])
def test_with_a_time_constant_of_one_hand_the_average_is_the_player(tmp_path, networks):
    config = replace(PRESETS["repaired"], opponent_networks=networks)
    train(config, replace(SCHEDULE, polyak=1), 12, 5, tmp_path / "one")
    one = tmp_path / "one"
    assert theta(one / "averaged.npz").shape == theta(one / "checkpoint.npz").shape
    assert np.array_equal(theta(one / "averaged.npz"), theta(one / "checkpoint.npz"))
    assert theta(one / "checkpoint.npz").ndim == (2 if networks else 1)


def test_an_interrupted_run_resumes_to_the_same_average(run, tmp_path):
    short = replace(SCHEDULE, checkpoint_every=10)
    train(PRESETS["repaired"], short, 20, 3, tmp_path / "split")
    train(PRESETS["repaired"], short, HANDS, 3, tmp_path / "split", resume=True)
    whole = tmp_path / "whole"
    train(PRESETS["repaired"], short, HANDS, 3, whole)
    for name in ("averaged.npz", "checkpoint.npz", "final.json"):
        assert (tmp_path / "split" / name).read_bytes() == (whole / name).read_bytes()


def test_bad_time_constants_and_a_run_without_an_average_are_refused():
    for bad in (-1, 2.5, True):
        with pytest.raises(ConfigError, match="polyak must be an integer >= 0"):
            Schedule(polyak=bad)
    trainer = Trainer.start(PRESETS["repaired"], BASE, 1)
    with pytest.raises(ConfigError, match="keeps no averaged weights: set the schedule's polyak"):
        trainer.averaged_player()


@pytest.mark.parametrize("where", ["hidden-80/averaged/s1", "hidden-80/opponent-model/averaged-s3"])
def test_the_committed_averaged_players_play_by_name(where):
    root = Path(__file__).resolve().parents[3]
    name = f"td:{root}/docs/results/td-holdem/{where}"
    player = make_agent(name)
    assert player.frozen and player.config.hidden == 80 and player.learner.hands == 1_000_000
    assert player.config.opponent_model_inputs == ("opponent-model" in where)
    r = duplicate_tournament([name, "call"], 20, player.config.game(), 1).results[0]
    assert r.hands == 40


def test_asking_a_run_without_an_average_for_it_names_the_players_it_has(tmp_path):
    train(PRESETS["repaired"], replace(BASE, checkpoint_every=5), 5, 1, tmp_path / "plain")
    with pytest.raises(ConfigError, match=r"no TD checkpoint at .*averaged.*plain holds checkpoint\)"):
        checkpoint_path(tmp_path / "plain" / "averaged")
    with pytest.raises(ConfigError, match=r"training folder\)$"):
        checkpoint_path(tmp_path / "nowhere" / "averaged")
