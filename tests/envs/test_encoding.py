"""pokerlab.envs.encoding.Encoder against the one-shot `encode` (the plain reference, every record read at
every view): the same vector, mask and plain view, entry for entry, over random hands of 2, 6 and 10 seats,
across hands, branching states and the environments."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from pokerlab.engine import GameConfig, HandState, seat_view  # noqa: E402
from pokerlab.envs import HoldemAEC, HoldemEnv  # noqa: E402
from pokerlab.envs.encoding import Encoder, encode, plain  # noqa: E402

CONFIGS = [
    GameConfig(),
    GameConfig(small_bet=4, stack=40),  # short stacks: all-ins, stacks in the plain view
    GameConfig(max_raises=None, max_raises_per_player=2, small_bet=2),
    GameConfig(small_bet=6, small_blind=1, big_blind=2, no_cap_heads_up=True),
]


def assert_same(fast, reference):
    """Encoder's (vector, mask) equals encode's, types and all."""
    assert fast[0].dtype == reference[0].dtype == np.float32 and fast[0].shape == reference[0].shape
    assert np.array_equal(fast[0], reference[0]), np.flatnonzero(fast[0] != reference[0])
    assert fast[1].dtype == reference[1].dtype == np.int8 and np.array_equal(fast[1], reference[1])


def assert_same_view(lazy, view):
    """A `PlainView` reads as `plain` of `view`, types and all."""
    expected = plain(view)
    assert lazy == expected and dict(lazy) == expected and len(lazy) == len(expected)
    assert [type(lazy[key]) for key in lazy] == [type(v) for v in expected.values()]


def random_hand(rng: random.Random, n: int, config: GameConfig) -> HandState:
    cards = rng.sample(range(52), 2 * n + 5)
    return HandState(config, cards[: 2 * n], cards[2 * n :], None, n)


@pytest.mark.parametrize("n", [2, 6, 10])
def test_encoder_equals_the_reference_over_random_hands(n):
    rng = random.Random(n)
    encoders = [Encoder() for _ in range(n)]  # one per position, kept across hands as the environments do
    views = 0
    for hand in range(1200 // n + 100):
        config = CONFIGS[hand % len(CONFIGS)]
        state = random_hand(rng, n, config)
        while True:
            for p in range(n):
                if p == state.actor or rng.random() < 0.3:  # some views skip several records
                    view = seat_view(state, p, None, config)
                    assert_same(encoders[p].encode(view), encode(view))
                    views += 1
            if state.actor < 0:
                break
            state.act(rng.choice(state.legal_actions()))
    assert views > 1500


def test_encoder_starts_over_on_a_branch_another_seat_or_a_replayed_deal():
    rng = random.Random(5)
    encoder = Encoder()
    for _ in range(40):
        state = random_hand(rng, 3, CONFIGS[0])
        for _ in range(rng.randrange(1, 5)):
            if state.actor >= 0:
                state.act(rng.choice(state.legal_actions()))
        if state.actor < 0:
            continue
        branches = [state.copy(), state.copy()]  # records shared up to here, then new ones in each
        for branch in branches:
            while branch.actor >= 0 and rng.random() < 0.7:
                branch.act(rng.choice(branch.legal_actions()))
        for view in (
            seat_view(branches[0], 0),
            seat_view(branches[1], 0),
            seat_view(branches[1], 1),  # another position, the same records
            seat_view(state, 0),  # back to fewer records
        ):
            assert_same(encoder.encode(view), encode(view))
    # the same records with another board of the same length, then a shorter one (views are named tuples)
    state = random_hand(rng, 2, CONFIGS[0])
    while state.round < 2:
        state.act(1)
    view = seat_view(state, state.actor)
    unseen = [c for c in range(52) if c not in view.board and c not in view.hole]
    for board in (view.board, (unseen[0], *view.board[1:]), view.board[:3]):
        changed = view._replace(board=board)
        assert_same(encoder.encode(changed), encode(changed))
    # the same deal dealt again (a reset with the same seed): its records are new objects; before any
    # record, with other blinds, or as another table size
    cards = rng.sample(range(52), 9)
    for config, raises in ((CONFIGS[0], 1), (CONFIGS[0], 1), (CONFIGS[0], 0), (GameConfig(small_blind=2), 0)):
        state = HandState(config, cards[:4], cards[4:])
        for _ in range(raises):
            state.act(2)
        view = seat_view(state, 0)
        assert_same(encoder.encode(view), encode(view))
    state = HandState(CONFIGS[0], cards[:4] + [cards[8], 51], cards[4:8] + [50])
    view = seat_view(state, 0)
    assert_same(encoder.encode(view), encode(view))
    # heads-up views before any record: another seat with the same cards, then other cards
    a, b, c, d, e, f = cards[:6]
    for holes, position in (([a, b, c, d], 0), ([c, d, a, b], 1), ([e, f, c, d], 1)):
        view = seat_view(HandState(CONFIGS[0], holes, cards[6:9] + [51, 50]), position)
        assert_same(encoder.encode(view), encode(view))


def test_encoder_hands_out_fresh_arrays():
    state = random_hand(random.Random(1), 2, CONFIGS[0])
    encoder = Encoder()
    view = seat_view(state, state.actor)
    obs, mask = encoder.encode(view)
    obs[:] = 7.0
    mask[:] = 9
    assert_same(encoder.encode(view), encode(view))


@pytest.mark.parametrize("n", [2, 6, 10])
def test_the_environments_observe_what_the_reference_encodes(n):
    rng = np.random.default_rng(n)
    env = HoldemEnv(["random"] * (n - 1), seat=n // 2, config=CONFIGS[n % len(CONFIGS)], seed=n)
    for hand in range(12):
        obs, info = env.reset(seed=n if hand == 0 else None)
        done = False
        while True:
            view = env.learning.view(env.seat)
            assert_same((obs, info["action_mask"]), encode(view))
            assert_same_view(info["view"], view)
            if done:
                break
            obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    aec = HoldemAEC(n, seed=n)
    for hand in range(4):
        aec.reset(seed=n if hand == 0 else None)
        for agent in aec.agent_iter():
            obs, _, termination, truncation, info = aec.last()
            view = aec.learning.view(int(agent[5:]))
            assert_same((obs["observation"], obs["action_mask"]), encode(view))
            assert_same_view(info["view"], view)
            live = not (termination or truncation)
            aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))) if live else None)
