import numpy as np
import pytest

# hostile bots whose import patches the arena or the web server: the doctest collection must never import them
collect_ignore = ["arena/patcher.py", "web/hostile_bot.py"]


def random_hands(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """n hands of k distinct random card codes (uint8, shape (n, k))."""
    return np.argpartition(rng.random((n, 52)), k - 1, axis=1)[:, :k].astype(np.uint8)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(12345)
