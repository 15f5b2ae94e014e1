"""The environments' fast paths against their plain ones, over many seeded hands at 2, 6 and 10 seats: the
opponents asked through the table's direct loop (`Table.play_on`) or one `Table.step` at a time, the
observation taken in by an `Encoder` from the engine's state or read whole by `encode` from the seat's
view, ``info["view"]`` built at its first read (`PlainView`, read here only after the hand is over: the
hand replayed) or at once (`plain`). The same observations, masks, rewards, nets and views, hand for
hand."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pokerlab.engine import GameConfig, seat_view  # noqa: E402
from pokerlab.envs import HoldemAEC, HoldemEnv  # noqa: E402
from pokerlab.envs.encoding import PlainView, encode, plain  # noqa: E402

#: Opponents who never listen in, so that the fast environment's table asks them directly.
QUIET = ["random", "call", "raise", "random", "tight-aggressive", "random", "loose-passive", "random", "call"]


class OneShot:
    """The plain observation: `encode` of the seat's view, every record read at every call."""

    @staticmethod
    def observe(state, position, config):
        return encode(seat_view(state, position, None, config))


def plain_paths(learning, encoders):
    """Make `learning` (a `LearnerTable`) ask its agents one `Table.step` at a time, and observe through
    `encode`: a table that logs decisions never takes the direct loop."""
    learning.table.log_decisions = True
    return {key: OneShot() for key in encoders}


def play_env(env: HoldemEnv, hands: int, seed: int, fast: bool) -> list:
    """Every (observation, mask, reward, view) of `hands` hands, actions drawn from `seed`; the views of the
    fast environment read only at the end."""
    rng = np.random.default_rng(seed)
    if not fast:
        env._encoder = plain_paths(env.learning, ["learner"])["learner"]
    seen, views = [], []
    for k in range(hands):
        obs, info = env.reset(seed=seed if k == 0 else None)
        reward, done = 0.0, False
        while True:
            assert env.learning.table.asked_directly is fast
            seen.append((obs.tolist(), info["action_mask"].tolist(), reward, info.get("nets")))
            views.append(info["view"] if fast else plain(env.learning.view(env.seat)))
            if done:
                break
            obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    if fast:
        assert all(type(view) is PlainView for view in views)
        views = [dict(view) for view in views]
    return seen, views


@pytest.mark.parametrize(("n", "hands"), [(2, 400), (6, 150), (10, 80)])
def test_holdem_env_fast_paths_equal_the_plain_ones(n, hands):
    config = GameConfig(small_bet=4, stack=60) if n == 6 else GameConfig()  # short stacks: all-ins, side pots
    runs = [
        play_env(HoldemEnv(QUIET[: n - 1], seat=n // 2, config=config, seed=n), hands, n, fast)
        for fast in (True, False)
    ]
    assert runs[0] == runs[1]
    assert len(runs[0][0]) > 2 * hands


def play_aec(env: HoldemAEC, hands: int, seed: int, fast: bool) -> list:
    """Every agent's (observation, mask, reward, view) of `hands` hands, actions drawn from `seed`."""
    rng = np.random.default_rng(seed)
    if not fast:
        env._encoders = plain_paths(env.learning, env._encoders)
    seen = []
    for k in range(hands):
        env.reset(seed=seed if k == 0 else None)
        for agent in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            assert env.learning.table.asked_directly is fast
            mask = obs["action_mask"].tolist()
            seen.append((agent, obs["observation"].tolist(), mask, reward, info["view"]))
            live = not (termination or truncation)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))) if live else None)
    return [(*entry[:4], dict(entry[4])) for entry in seen]


@pytest.mark.parametrize("n", [2, 6, 10])
def test_aec_fast_paths_equal_the_plain_ones(n):
    opponents = {j: QUIET[j] for j in range(0, n, 2)} if n > 2 else {1: "random"}
    runs = [play_aec(HoldemAEC(n, seed=n, opponents=opponents), 40, n, fast) for fast in (True, False)]
    assert runs[0] == runs[1]
