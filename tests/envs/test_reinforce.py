"""examples/reinforce.py: a linear softmax policy trained by REINFORCE through `HoldemEnv`, then played by
name. Its features are checked against the cards written out by hand, its policy gradient against finite
differences, and a short training against the better half of a known result: it must beat its untrained
self on the same duplicate deals."""

import importlib.util
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import pokerlab  # noqa: E402
from pokerlab.cards import parse_cards  # noqa: E402
from pokerlab.engine import HandState, seat_view  # noqa: E402
from pokerlab.envs import observation  # noqa: E402

PATH = Path(__file__).resolve().parents[2] / "examples" / "reinforce.py"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("reinforce_example", PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # importable by name, so that a match can copy its agents
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def view_after_flop(hole: str, board: str):
    """Heads-up: the button calls, the big blind checks; the big blind's view, first to act on the flop."""
    state = HandState(pokerlab.GameConfig(), parse_cards(hole + " 2c 3d"), parse_cards(board + " Jh Qh"))
    while state.round == 0:
        state.act(1)
    return seat_view(state, state.actor)


@pytest.mark.parametrize(
    "hole, board, high, low, pair, suited, on_board",
    [
        ("Kh Ks", "Kd 7c 2s", 11, 11, 1, 0, 1),  # a pair in the hole, and a king on the board
        ("Ah 9h", "Kd 7c 2s", 12, 7, 0, 1, 0),  # suited, nothing on the board
        ("4c Td", "Kd 4s 2s", 8, 2, 0, 0, 1),  # the four paired on the board
    ],
)
def test_features_read_the_cards_and_the_betting(example, hole, board, high, low, pair, suited, on_board):
    view = view_after_flop(hole, board)
    assert view.hole == tuple(parse_cards(hole))
    f = example.features(observation(view))
    assert f.tolist()[:6] == [1, high / 12, low / 12, pair, suited, on_board]
    assert f[6:10].tolist() == [0, 1, 0, 0]  # the flop
    assert f[10] == 0 and f[11] == pytest.approx(2 / 10)  # nothing to call; the big blind twice in the pot


def test_the_policy_gradient_is_the_derivative_of_the_log_probability(example, rng):
    weights, f = rng.normal(size=(3, example.FEATURES)), rng.normal(size=example.FEATURES)
    for mask in (np.array([1, 1, 1]), np.array([0, 1, 1]), np.array([1, 1, 0])):
        p = example.probabilities(weights, f, mask)
        assert p.sum() == pytest.approx(1) and (p[mask == 0] == 0).all()
        for action in np.flatnonzero(mask):
            step, numeric = 1e-6, np.zeros_like(weights)
            for index in np.ndindex(weights.shape):
                moved = weights.copy()
                moved[index] += step
                numeric[index] = (
                    np.log(example.probabilities(moved, f, mask)[action]) - np.log(p[action])
                ) / step
            assert np.allclose(np.outer(np.eye(3)[action] - p, f), numeric, atol=1e-4)


def test_a_short_training_beats_the_untrained_policy_and_plays_by_name(example, tmp_path):
    weights, curve = example.train("loose-passive", 3000, seed=1, every=3000, deals=300)
    (zero, untrained, _, untrained_high), (hands, trained, trained_low, _) = curve
    assert (zero, hands) == (0, 3000)
    assert trained_low > untrained_high  # on the same deals, the CIs apart
    np.savez(tmp_path / "w.npz", weights=weights)
    pokerlab.register("reinforce-test", partial(example.LinearPolicy, tmp_path / "w.npz"))
    by_name = pokerlab.duplicate_tournament(["reinforce-test", "call"], 50, seed=3)
    as_instance = pokerlab.duplicate_tournament([example.LinearPolicy(weights), "call"], 50, seed=3)
    assert np.array_equal(by_name.nets, as_instance.nets)
