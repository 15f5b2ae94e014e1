"""pokerlab.envs.encoding.Encoder (read from the engine's state) against the one-shot `encode` of the
seat's view (the plain reference, every record read at every view), and `PlainView` read late against
`plain` of the view made then: the same vector, mask and plain view, entry for entry, over random hands of
2, 6 and 10 seats, across hands, branching states and the environments."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from pokerlab.engine import GameConfig, HandState, seat_view  # noqa: E402
from pokerlab.envs import HoldemAEC, HoldemEnv  # noqa: E402
from pokerlab.envs.encoding import Encoder, PlainView, encode, plain  # noqa: E402

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
    views, late = 0, []
    for hand in range(1200 // n + 100):
        config = CONFIGS[hand % len(CONFIGS)]
        state = random_hand(rng, n, config)
        while True:
            for p in range(n):
                if p == state.actor or rng.random() < 0.3:  # some calls skip several records
                    view = seat_view(state, p, None, config)
                    assert_same(encoders[p].observe(state, p, config), encode(view))
                    if rng.random() < 0.1:  # read once the hand is over: replayed to this record
                        late.append((PlainView(state, p, view.seats, config), view))
                    views += 1
            if state.actor < 0:
                break
            state.act(rng.choice(state.legal_actions()))
    assert views > 1500
    assert len(late) > 100
    for lazy, view in late:
        assert_same_view(lazy, view)


def test_encoder_starts_over_on_another_hand_a_branch_another_seat_or_small_bet():
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
        for hand, position, config in (
            (branches[0], 0, CONFIGS[0]),
            (branches[1], 0, CONFIGS[0]),
            (branches[1], 1, CONFIGS[0]),  # another position, the same records
            (branches[1], 1, CONFIGS[1]),  # another small bet
            (state, 1, CONFIGS[1]),  # back to fewer records
        ):
            assert_same(
                encoder.observe(hand, position, config), encode(seat_view(hand, position, None, config))
            )
    # the same deal dealt again (a reset with the same seed): a new state; before any record, with other
    # blinds, or as another table size
    cards = rng.sample(range(52), 9)
    for config, raises in ((CONFIGS[0], 1), (CONFIGS[0], 1), (CONFIGS[0], 0), (GameConfig(small_blind=2), 0)):
        state = HandState(config, cards[:4], cards[4:])
        for _ in range(raises):
            state.act(2)
        assert_same(encoder.observe(state, 0, config), encode(seat_view(state, 0)))
    state = HandState(CONFIGS[0], cards[:4] + [cards[8], 51], cards[4:8] + [50])
    assert_same(encoder.observe(state, 0, CONFIGS[0]), encode(seat_view(state, 0)))
    # heads-up before any record: another seat with the same cards, then other cards
    a, b, c, d, e, f = cards[:6]
    for holes, position in (([a, b, c, d], 0), ([c, d, a, b], 1), ([e, f, c, d], 1)):
        state = HandState(CONFIGS[0], holes, cards[6:9] + [51, 50])
        assert_same(encoder.observe(state, position, CONFIGS[0]), encode(seat_view(state, position)))


def test_encoder_hands_out_fresh_arrays():
    state = random_hand(random.Random(1), 2, CONFIGS[0])
    encoder = Encoder()
    obs, mask = encoder.observe(state, state.actor, CONFIGS[0])
    obs[:] = 7.0
    mask[:] = 9
    assert_same(encoder.observe(state, state.actor, CONFIGS[0]), encode(seat_view(state, state.actor)))


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
