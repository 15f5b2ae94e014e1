"""pokerlab.envs.HoldemEnv: Gymnasium's checker, seeding, information hiding, zero-sum rewards, masks."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from pokerlab.engine import GameConfig, HandState, seat_view  # noqa: E402
from pokerlab.envs import OBSERVATION_SIZE, HoldemEnv, observation  # noqa: E402
from pokerlab.errors import ConfigError, IllegalAction  # noqa: E402


def play(env: HoldemEnv, hands: int, rng: np.random.Generator, seed: int | None = None):
    """Random legal actions for `hands` hands; every (observation, reward, info["view"]) seen."""
    seen = []
    for k in range(hands):
        obs, info = env.reset(seed=seed if k == 0 else None)
        seen.append((obs.tolist(), 0.0, info["view"]))
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, done, truncated, info = env.step(action)
            assert not truncated
            assert env.observation_space.contains(obs)
            seen.append((obs.tolist(), reward, info["view"]))
    return seen


def test_passes_gymnasium_check_env():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the Box's upper bound is infinity (ring game)
        check_env(HoldemEnv(["random"], seed=3), skip_render_check=True)
        check_env(HoldemEnv(["loki1", "call"], seat=2, seed=4), skip_render_check=True)


def test_same_seed_same_deals_and_opponent_choices():
    first = play(HoldemEnv(["random", "random", "loki1"], seat=1), 15, np.random.default_rng(0), seed=11)
    again = play(HoldemEnv(["random", "random", "loki1"], seat=1), 15, np.random.default_rng(0), seed=11)
    assert first == again
    other = play(HoldemEnv(["random", "random", "loki1"], seat=1), 15, np.random.default_rng(0), seed=12)
    assert first != other
    env = HoldemEnv(["random"])  # reset(seed) restarts the session on the same environment
    assert play(env, 5, np.random.default_rng(1), seed=5) == play(env, 5, np.random.default_rng(1), seed=5)


def test_rewards_are_small_bets_and_sum_to_zero_with_the_opponents():
    env = HoldemEnv(["random", "call", "raise"], seat=3, seed=2)
    rng = np.random.default_rng(2)
    for _ in range(30):
        obs, info = env.reset()
        done = False
        while not done:
            obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            if not done:
                assert reward == 0.0
        assert reward == info["nets"][3]
        assert sum(info["nets"]) == pytest.approx(0.0)
        assert env.state.nets[env.position] == reward * env.config.small_bet


class FixedDealer:
    """Always the same cards (hole cards by position, then the board)."""

    def __init__(self, cards):
        self.card_list = list(cards)

    def cards(self, deal, players):
        return self.card_list


def test_observation_never_depends_on_another_seats_hole_cards():
    # heads-up, seat 0 learns; hand 0 puts seat 0 at position 1 (the button): holes 2, 3 are its own
    board = [40, 41, 42, 43, 44]
    runs = []
    for opponent_hole in ([0, 1], [50, 51]):
        env = HoldemEnv(["call"], seat=0, seed=1)
        env.reset(seed=1)
        env.learning.dealer = FixedDealer(opponent_hole + [2, 3] + board)
        env.learning.hand = -1
        obs, info = env.reset()
        seen = [obs.tolist()]
        for action in (2, 1, 1, 2, 1):  # raise, then call it down (the call agent never folds)
            obs, reward, done, _, info = env.step(action)
            seen.append(obs.tolist())
            if done:
                break
        runs.append((seen, info["view"]))
    assert runs[0] == runs[1]

    # and directly: the same public state with different opponent holes encodes the same
    def encoded(holes):
        state = HandState(env.config, holes, board)
        for action in (1, 2, 1):
            state.act(action)
        assert state.actor == 2  # the button, first to act pre-flop with three players, acts again
        return observation(seat_view(state, state.actor))

    assert np.array_equal(encoded([10, 11, 12, 13, 4, 5]), encoded([30, 31, 32, 33, 4, 5]))


def test_observation_layout():
    env = HoldemEnv(["call", "call"], seat=0, seed=6)
    obs, info = env.reset()
    view = info["view"]
    assert obs.shape == (OBSERVATION_SIZE,) and obs.dtype == np.float32
    assert obs[:52].sum() == 2 and all(obs[c] == 1 for c in view["hole"])
    assert obs[52:104].sum() == 0 and obs[104] == 1  # no board, pre-flop
    assert obs[108 + view["position"]] == 1
    assert obs[120] == view["to_call"] / 10
    assert np.array_equal(obs[149:], info["action_mask"])


def test_illegal_action_is_one_clear_error():
    env = HoldemEnv(["raise"], seed=3)
    obs, info = env.reset()
    for _ in range(100):  # raise into the raiser until the cap leaves the learner only fold or call
        if not info["action_mask"][2]:
            break
        obs, _, done, _, info = env.step(2)
        if done:
            obs, info = env.reset()
    assert info["action_mask"].tolist() == [1, 1, 0]
    with pytest.raises(IllegalAction, match=r"action 2 is not legal here; legal: 0 \(FOLD\), 1 \(CALL\)"):
        env.step(2)
    with pytest.raises(IllegalAction, match="not legal"):
        env.step(7)
    env.step(0)
    with pytest.raises(IllegalAction, match="call reset"):
        env.step(1)


def test_bad_tables_are_config_errors():
    with pytest.raises(ConfigError, match="seat 3"):
        HoldemEnv(["call"], seat=3)
    with pytest.raises(ConfigError, match="1 to 9 opponents"):
        HoldemEnv([])
    with pytest.raises(ConfigError):
        HoldemEnv(["no-such-bot"])


def test_without_gymnasium_the_import_fails_in_one_line():
    import subprocess
    import sys

    code = "import sys; sys.modules['gymnasium'] = None; import pokerlab.envs"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last == "ImportError: pokerlab.envs needs Gymnasium: pip install 'pokerlab[envs]'"


def test_every_masked_out_action_is_refused_and_changes_nothing():
    env = HoldemEnv(["random", "raise"], seat=1, config=GameConfig(small_bet=4, stack=40), seed=8)
    rng = np.random.default_rng(8)
    refused = 0
    for _ in range(60):
        obs, info = env.reset()
        done = False
        while not done:
            mask = info["action_mask"].tolist()
            before = (env.state.actions, env.state.actor)
            for action in [a for a in range(3) if not mask[a]] + [3, -1, 1.5, "1"]:
                with pytest.raises(IllegalAction, match=rf"^action {action!r} is not legal here; legal: "):
                    env.step(action)
                assert (env.state.actions, env.state.actor) == before
                refused += 1
            obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert refused > 4 * 60
