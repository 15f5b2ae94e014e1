"""Loki-1 made fast plays exactly as before: every hand's nets equal those of the plain computation (the
potential counts cache off) and those the code gave before it was made fast."""

import hashlib

import numpy as np
import pytest

from pokerlab import play_match
from pokerlab.analysis.potential import COUNTS_CACHE
from pokerlab.programs.loki1 import VARIANTS, Loki1Agent

FIELD = ["loki1", "loki1-uniform", "loki1-no-potential", "loki1-basic", "loki1-simple-preflop"]

#: sha256 of the nets (int64, hands x seats) of `_nets(case)`, made by the code before the caches and fast
#: paths (commit 569ce71)
BEFORE = {
    "ring": "f64b313ac971c09433156983d4b4d0e732aef6438d657631723804b0b8d3d8cb",
    "duplicate": "931dc3c066104117ac6e862e532256f34d24dde55668cc8762047929344feef9",
    "generic": "5e5e741618c1cc82cc76c1fc6850a68f77e30b3e72a20329eee1aa7f983c408b",
}


def _nets(case: str) -> np.ndarray:
    if case == "generic":  # generic modelling, and opponents that are not Loki
        players = [Loki1Agent(VARIANTS[n]) for n in ["loki1-generic", "loki1"] * 3] + ["raise", "call"]
        return play_match(players, 150, seed=12).nets
    players = [Loki1Agent(VARIANTS[name]) for name in FIELD for _ in range(2)]
    duplicate = case == "duplicate"
    hands = 15 if duplicate else 150  # 15 deals replayed at every seat are 150 hands
    return play_match(players, hands, seed=11, duplicate=duplicate).nets


@pytest.fixture
def cache_off():
    COUNTS_CACHE.clear()
    COUNTS_CACHE.enabled = False
    yield
    COUNTS_CACHE.enabled = True
    COUNTS_CACHE.clear()


def _digest(nets: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(nets, dtype=np.int64).tobytes()).hexdigest()


@pytest.mark.parametrize("case", ["ring", "duplicate", "generic"])
def test_every_hand_as_without_the_cache_and_as_before(case, request):
    request.getfixturevalue("cache_off")
    plain = _nets(case)
    COUNTS_CACHE.enabled = True
    cached = _nets(case)
    assert COUNTS_CACHE.hits > 0 and COUNTS_CACHE.misses > 0
    assert len(plain) == 150 and np.abs(plain).sum() > 0
    assert np.array_equal(cached, plain)
    assert _digest(cached) == BEFORE[case]


def test_one_mixed_frequency_equals_the_mixed_row_to_the_last_bit():
    from pokerlab.modeling.frequencies import ActionFrequencies

    rng = np.random.default_rng(3)
    for _ in range(200):
        freq = ActionFrequencies()
        freq.counts[:] = rng.integers(0, 12, freq.counts.shape) * (rng.random(freq.counts.shape) < 0.6)
        for round_index in range(4):
            for bets in range(4):
                row = freq.mixed(round_index, bets)
                got = [freq.mixed_frequency(round_index, bets, a) for a in range(3)]
                assert got == row.tolist()


def test_reweighting_kernel_equals_the_numpy_reference_to_the_last_bit():
    from pokerlab.modeling.reweighting import reweight, reweight_into

    rng = np.random.default_rng(5)
    for _ in range(200):
        weights = np.fmax(0.01, rng.random(1326) * (rng.random(1326) < 0.9))
        values = rng.random(1326)
        values[rng.random(1326) < 0.1] = np.nan  # holdings that meet the board
        values[:5] = [0.2, 0.4, 0.6, 0.8, 1.0]  # exactly on the ramp's ends
        mu, sigma = float(rng.choice([0.6, rng.random()])), float(rng.choice([0.2, 0.0, rng.random()]))
        out = np.empty(1326)
        reweight_into(out, weights, values, mu, sigma)
        assert np.array_equal(out, reweight(weights, values, mu, sigma))


def test_field_array_equals_the_plain_field_array():
    from pokerlab.holdings import field_array
    from pokerlab.programs.loki1.opponents import HandFollower

    rng = np.random.default_rng(6)
    for _ in range(50):
        follower = HandFollower(10, 3, (0, 1), VARIANTS["loki1"], (10, 10, 20, 20))
        follower.weights[:] = np.fmax(0.01, rng.random(follower.weights.shape))
        for p in rng.choice([p for p in range(10) if p != 3], size=rng.integers(0, 8), replace=False):
            follower.folded[p] = True
        dead = tuple(int(c) for c in rng.permutation(52)[:5])
        tables = [follower.weights[p] for p in follower.opponents()]
        assert np.array_equal(follower.field(dead), field_array(tables, dead))


def test_pairwise_sum_equals_numpy_sum_to_the_last_bit():
    from pokerlab.programs.loki1.opponents import _pairwise_sum

    rng = np.random.default_rng(7)
    for n in [*range(0, 300, 7), 1035, 1081, 1326, 40_000]:
        x = rng.random(n) * 1e3 * (rng.random(n) < 0.7)
        assert _pairwise_sum(x) == x.sum()
