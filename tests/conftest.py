import numpy as np
import pytest

# hostile bots whose import patches the arena or the web server: the doctest collection must never import them
collect_ignore = ["arena/patcher.py", "web/hostile_bot.py"]


def pytest_addoption(parser):
    parser.addoption(
        "--reproduce",
        action="store_true",
        help="also run the `reproduction` tests: published figures re-made in full (`make reproduce`)",
    )


def pytest_collection_modifyitems(config, items):
    """`reproduction` tests re-make a published figure in full and take minutes: `make test` (and so CI) skips
    them, saying so; `make reproduce` runs them (`pytest --reproduce -m reproduction`)."""
    if config.getoption("--reproduce"):
        return
    skip = pytest.mark.skip(reason="re-makes a published figure in full (minutes): run `make reproduce`")
    for item in items:
        if "reproduction" in item.keywords:
            item.add_marker(skip)


def random_hands(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """n hands of k distinct random card codes (uint8, shape (n, k))."""
    return np.argpartition(rng.random((n, 52)), k - 1, axis=1)[:, :k].astype(np.uint8)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(12345)
