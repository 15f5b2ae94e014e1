"""Loki-1 made fast plays exactly as before: every hand's nets equal those of the plain computation (the
potential counts cache off) and those the code gave before it was made fast."""

import hashlib

import numpy as np
import pytest

from pokerlab import play_match
from pokerlab.agents.loki1 import VARIANTS, Loki1Agent
from pokerlab.analysis.potential import COUNTS_CACHE

FIELD = ["loki1", "loki1-uniform", "loki1-no-potential", "loki1-basic", "loki1-simple-preflop"]

#: sha256 of the nets (int64, hands x seats) of `_nets(duplicate)`, made before the caches and fast paths
BEFORE = {
    False: "f64b313ac971c09433156983d4b4d0e732aef6438d657631723804b0b8d3d8cb",
    True: "931dc3c066104117ac6e862e532256f34d24dde55668cc8762047929344feef9",
}


def _nets(duplicate: bool) -> np.ndarray:
    players = [Loki1Agent(VARIANTS[name]) for name in FIELD for _ in range(2)]
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


@pytest.mark.parametrize("duplicate", [False, True])
def test_every_hand_as_without_the_cache_and_as_before(duplicate, request):
    request.getfixturevalue("cache_off")
    plain = _nets(duplicate)
    COUNTS_CACHE.enabled = True
    cached = _nets(duplicate)
    assert COUNTS_CACHE.hits > 0 and COUNTS_CACHE.misses > 0
    assert plain.shape == (150, 10) and np.abs(plain).sum() > 0
    assert np.array_equal(cached, plain)
    assert _digest(cached) == BEFORE[duplicate]
