"""Differential test: random hands played and settled by PokerKit replay here to the same nets.

Short stacks (5 to 120 chips against 5/10 blinds) make all-ins and side pots common. PokerKit's cap is four
bets or raises over the blind, hence ``blind_counts_as_bet=False``.
"""

import warnings

import numpy as np
import pytest

pytest.importorskip("pokerkit")

from pokerkit_hands import play_pokerkit_hand  # noqa: E402
from pokerlab.engine import GameConfig, replay  # noqa: E402

CONFIG = GameConfig(blind_counts_as_bet=False, stack=1000)


def check_hands(count, seed):
    rng = np.random.default_rng(seed)
    side_pots = 0
    for _ in range(count):
        n = int(rng.integers(2, 11))
        deep = rng.random() < 0.2
        stacks = rng.integers(5, 1000 if deep else 120, n).tolist()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, holes, board, actions, nets = play_pokerkit_hand(rng, stacks)
        state = replay(CONFIG, stacks, holes, board, actions)
        assert state.nets == nets, (stacks, holes, board, actions)
        live = [state.committed[i] for i in range(n) if not state.folded(i)]
        side_pots += len(set(live)) > 1
    return side_pots


def test_pokerkit_hands_settle_alike():
    assert check_hands(1500, seed=2026) > 100


@pytest.mark.slow
def test_pokerkit_hands_settle_alike_many():
    check_hands(4000, seed=7)
