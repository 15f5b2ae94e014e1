"""pokerlab.envs.HoldemAEC: PettingZoo's API tests (AEC and parallel), seeding, zero-sum rewards, masks,
information hiding, seats played by pokerlab agents."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from pokerlab.envs import HoldemAEC, holdem_parallel  # noqa: E402
from pokerlab.errors import ConfigError, IllegalAction  # noqa: E402


def play_hand(env: HoldemAEC, rng: np.random.Generator) -> tuple[list, dict]:
    """Random legal actions through one hand (env already reset); observations seen and final rewards."""
    seen = []
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        seen.append((agent, obs["observation"].tolist(), reward))
        if termination or truncation:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen, dict(env._cumulative_rewards)


@pytest.mark.parametrize("players", [2, 3, 10])
def test_passes_pettingzoo_api_test(players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a Dict observation (observation + action_mask)
        api_test(HoldemAEC(players, seed=players), num_cycles=100)


def test_random_hands_are_reproducible_and_zero_sum():
    runs = []
    for _ in range(2):
        env = HoldemAEC(4)
        rng = np.random.default_rng(0)
        hands = []
        for k in range(10):
            env.reset(seed=21 if k == 0 else None)
            seen, _ = play_hand(env, rng)
            hands.append(seen)
            rewards = {a: seen_reward for a, _, seen_reward in seen}  # each agent's last reward: the hand's
            assert sum(rewards.values()) == pytest.approx(0.0)
            nets = env.state.nets
            for j, agent in enumerate(env.possible_agents):
                assert rewards[agent] * env.config.small_bet == nets[env.seats.index(j)]
        runs.append(hands)
    assert runs[0] == runs[1]


def test_observation_is_the_agents_own_view_only():
    env = HoldemAEC(3, seed=5)
    env.reset(seed=5)
    obs = env.observe("seat_1")
    j = env.seats.index(1)
    own = env.state.holes[2 * j : 2 * j + 2]
    assert sorted(np.flatnonzero(obs["observation"][:52]).tolist()) == sorted(own)
    env.state.holes[2 * ((j + 1) % 3)] = next(c for c in range(52) if c not in env.state.holes)
    assert np.array_equal(env.observe("seat_1")["observation"], obs["observation"])


def test_masks_and_illegal_actions():
    env = HoldemAEC(2, seed=1)
    env.reset()
    actor = env.agent_selection
    assert env.observe(actor)["action_mask"].tolist() == [1, 1, 1]
    other = next(a for a in env.agents if a != actor)
    assert env.observe(other)["action_mask"].tolist() == [0, 0, 0]
    with pytest.raises(IllegalAction, match="is not legal here"):
        env.step(3)
    with pytest.raises(ConfigError, match="2 to 10 players"):
        HoldemAEC(11)


@pytest.mark.parametrize("players, opponents", [(2, None), (3, {1: "loki1"}), (6, {0: "call", 4: "random"})])
def test_passes_pettingzoo_api_tests_with_pokerlab_opponents_and_in_parallel(players, opponents):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(HoldemAEC(players, seed=players, opponents=opponents), num_cycles=100)
        parallel_api_test(holdem_parallel(players, seed=players, opponents=opponents), num_cycles=100)


def test_pokerlab_opponents_play_their_seats_and_the_learners_theirs():
    env = HoldemAEC(3, seed=4, opponents={0: "raise", 2: "call"})
    assert env.possible_agents == ["seat_1"]
    rng = np.random.default_rng(4)
    for k in range(20):
        env.reset(seed=4 if k == 0 else None)
        seen, _ = play_hand(env, rng)
        assert {agent for agent, _, _ in seen} == {"seat_1"}
        last = seen[-1][2]  # the reward it saw at the hand's end
        state, seats = env.state, env.seats
        for position, action in ((r.position, r.action) for r in state.actions):
            if seats[position] == 0:  # the raiser raises while the cap allows, else calls
                assert action in (1, 2)
            if seats[position] == 2:
                assert action == 1
        assert last * env.config.small_bet == state.nets[seats.index(1)]


def test_a_hand_no_learner_acts_in_is_skipped_and_its_nets_reported():
    env = HoldemAEC(3, seed=1, opponents={0: "fold", 1: "fold"})
    skipped = []
    for k in range(6):
        env.reset(seed=1 if k == 0 else None)
        skipped += env.infos["seat_2"]["skipped"]
        play_hand(env, np.random.default_rng(k))
    # seat 2 in the big blind every third hand: both fold to it, and it wins the small blind
    assert skipped and all(net == pytest.approx(0.5) for net in skipped)


def test_a_bad_opponent_map_is_refused():
    with pytest.raises(ConfigError, match="opponents maps a seat 0..2 to an agent's name"):
        HoldemAEC(3, opponents={3: "call"})
    with pytest.raises(ConfigError, match="at least one learner"):
        HoldemAEC(2, opponents={0: "call", 1: "raise"})
