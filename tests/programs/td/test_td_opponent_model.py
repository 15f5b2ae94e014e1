"""The next-action model of docs/learning-spec-td.md §A.10: the context on a worked hand, information hiding,
the network's gradient step against finite differences, the frequency table, and the study's rows."""

import numpy as np
import pytest

from pokerlab.actions import CALL, RAISE
from pokerlab.cards import parse_cards
from pokerlab.engine import GameConfig, HandState, seat_view
from pokerlab.modeling.next_action import FrequencyTable, NextActionNetwork, context, scores
from pokerlab.programs.td.studies.runs import opponent_model_study


def flop_view(holes="2c 7d Ah Kh"):
    """Pre-flop the button raises, the big blind calls; on A♠ K♦ 3♠ the big blind bets; the button acts."""
    state = HandState(GameConfig(), parse_cards(holes), parse_cards("As Kd 3s 8h 4s"))
    for action in (RAISE, CALL, RAISE):
        state.act(action)
    return seat_view(state, state.actor)


def test_context_worked_example():
    view = flop_view()
    assert view.position == 1 and view.to_call == 10 and view.pot == 50
    x = context(view)
    expected = [
        10 / 60,  # pot odds: 10 to call into 50
        1.0,  # bets / (bets + calls): one raise, no call
        20 / 50,  # put in 20 of the 50
        0.0,  # nothing put in this round yet
        0, 1, 0,  # one bet to call
        1, 0, 0,  # the flop
        1.0,  # faced a bet (the big blind) at its previous decision
        1.0,  # its previous action was a raise
        0.2, 0.2, 0.0,  # dealt, active, yet to act this round (the big blind has acted)
        0.0,  # two spades: no flush possible
        1.0, 1.0,  # ace and king on board
        2 / 3,  # A, K of three cards
    ]  # fmt: skip
    assert x.tolist() == pytest.approx(expected)


def test_context_hides_hole_cards():
    assert np.array_equal(context(flop_view("2c 7d Ah Kh")), context(flop_view("2c 7d Qc Jc")))


def test_network_step_follows_the_log_loss_gradient():
    rng = np.random.default_rng(1)
    net = NextActionNetwork(rng, scale=0.5)
    x, action = rng.random(19), 2

    def loss():
        return -np.log(net.predict(x)[action])

    eps = 1e-6
    numeric = {}
    for name in ("w1", "b1", "w2", "b2"):
        p = getattr(net, name)
        grad = np.zeros_like(p)
        for index in np.ndindex(p.shape):
            saved = p[index]
            p[index] = saved + eps
            up = loss()
            p[index] = saved - eps
            down = loss()
            p[index] = saved
            grad[index] = (up - down) / (2 * eps)
        numeric[name] = grad
    before = {name: getattr(net, name).copy() for name in numeric}
    net.learn(x, action)
    for name, grad in numeric.items():
        assert np.allclose(before[name] - getattr(net, name), net.alpha * grad, atol=1e-8)


def test_frequency_table_and_scores():
    table = FrequencyTable()
    x = context(flop_view())
    for _ in range(7):
        table.learn(x, CALL)
    assert table.predict(x).tolist() == pytest.approx([1 / 10, 8 / 10, 1 / 10])
    accuracy, loss = scores(table, [x, x], [CALL, RAISE])
    assert accuracy == 0.5 and loss == pytest.approx(-(np.log(0.8) + np.log(0.1)) / 2)


def test_study_beats_the_uniform_guess_on_a_predictable_opponent():
    rows = opponent_model_study(["tight-passive"], 300, 150, 3)
    by_model = {r[2]: r for r in rows}
    assert by_model["frequency table"][4] < by_model["uniform"][4]
    network, uniform = by_model["network"], by_model["uniform"]
    assert network[1] > 100 and network[3] > uniform[3] and network[4] < uniform[4]


def test_cli_opponent_model(tmp_path, capsys):
    from pokerlab.interfaces.cli import main

    out = tmp_path / "study"
    args = [
        "train",
        "opponent-model",
        "--opponents",
        "tight-passive",
        "--train-hands",
        "60",
        "--test-hands",
        "30",
    ]
    assert main([*args, "--seed", "2", "--out", str(out)]) == 0
    assert (
        len((out / "model_study.csv").read_text().splitlines()) == 4 and (out / "model_study.png").is_file()
    )
    assert "tight-passive" in capsys.readouterr().out
    assert main([*args[:3], "nobody", "--out", str(out)]) == 2
