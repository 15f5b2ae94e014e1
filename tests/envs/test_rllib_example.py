"""examples/rllib_ppo.py without training: its `Renamed` table passes PettingZoo's api_test and observes
the table's own vector and mask under the keys RLlib's action-masking module reads; where RLlib is
installed (it is not a test dependency: skipped otherwise), RLlib's `PettingZooEnv` of it plays hands to
their end, step for step as the table played by hand, each paying the learner the hand's net."""

import runpy
import warnings
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from pokerlab.envs import HoldemAEC  # noqa: E402

PATH = Path(__file__).resolve().parents[2] / "examples" / "rllib_ppo.py"


@pytest.fixture(scope="module")
def example() -> SimpleNamespace:
    """The example's names (its module run as a script is not: RLlib is imported only there)."""
    return SimpleNamespace(**runpy.run_path(str(PATH), run_name="rllib_ppo_example"))


def test_the_renamed_table_passes_api_test(example):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a Dict observation (observations + action_mask)
        api_test(example.Renamed(HoldemAEC(2, seed=3, opponents={1: "loose-passive"})), num_cycles=100)


def test_the_renamed_table_observes_what_the_table_observes(example):
    plain = HoldemAEC(2, seed=5, opponents={1: "tight-aggressive"})
    renamed = example.Renamed(HoldemAEC(2, seed=5, opponents={1: "tight-aggressive"}))
    rng = np.random.default_rng(1)
    checked = 0
    for hand in range(30):
        plain.reset(seed=5 if hand == 0 else None)
        renamed.reset(seed=5 if hand == 0 else None)
        for agent in plain.agent_iter():
            want, got = plain.observe(agent), renamed.observe(agent)
            assert renamed.observation_space(agent).contains(got)
            assert np.array_equal(got["observations"], want["observation"])
            assert np.array_equal(got["action_mask"], want["action_mask"])
            _, _, termination, truncation, _ = plain.last()
            action = (
                None if termination or truncation else int(rng.choice(np.flatnonzero(want["action_mask"])))
            )
            plain.step(action)
            renamed.step(action)
            checked += 1
    assert checked > 60


def test_rllib_plays_the_table_to_each_hands_end(example):
    pytest.importorskip("ray.rllib.env.wrappers.pettingzoo_env")
    env = example.table({"seed": 2, "opponent": "call"})
    plain = HoldemAEC(2, seed=2_000_000, opponents={1: "call"})  # the seed `table` gives its first copy
    plain.reset()  # as PettingZooEnv does when it is made: its first reset deals the table's second hand
    rng = np.random.default_rng(2)
    for _ in range(20):
        obs, _ = env.reset()
        plain.reset()
        returned = 0.0
        while True:
            (agent,) = obs
            assert agent == "seat_0" == plain.agent_selection
            assert np.array_equal(obs[agent]["observations"], plain.observe(agent)["observation"])
            action = int(rng.choice(np.flatnonzero(obs[agent]["action_mask"])))
            obs, rewards, terminated, truncated, _ = env.step({agent: action})
            plain.step(action)
            returned += sum(rewards.values())
            if terminated["__all__"] or truncated["__all__"]:
                break
        assert plain.terminations["seat_0"]
        assert returned == pytest.approx(plain.rewards["seat_0"])  # the hand's net, in small bets
