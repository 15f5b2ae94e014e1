"""pokerlab.programs.barone_while.ceiling: the threshold candidates are the steps they claim to be, the true
equity is right on hands worked by hand, a frozen cube of one candidate plays it in every cell, and the
over-valuing loose-aggressive player judges its hand against one opponent."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest

from pokerlab.agents.stereotypes import StereotypeAgent
from pokerlab.cards import parse_cards
from pokerlab.engine import CALL, FOLD, RAISE, GameConfig, HandState, seat_view
from pokerlab.programs.barone_while.candidate import probabilities

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def ceiling():
    return runpy.run_path(
        str(ROOT / "src" / "pokerlab" / "programs" / "barone_while" / "ceiling.py"), run_name="bw_ceiling"
    )


@pytest.mark.parametrize("t_c, t_r", [(0.55, 0.85), (0.01, 0.03), (0.2, 2.0)])
def test_threshold_candidate_is_a_step(ceiling, t_c, t_r):
    genes = ceiling["threshold_genes"](t_c, t_r)
    below, between = probabilities(genes, 0.8 * t_c), probabilities(genes, 1.2 * t_c)
    assert below[0] > 0.99  # fold below t_c
    assert between[1] > 0.99 or (t_r < 1.5 * t_c and between[1] > 0.5)  # call between
    if t_r < 1.0:
        assert probabilities(genes, min(1.0, 1.2 * t_r))[2] > 0.99  # raise above t_r
    else:
        assert probabilities(genes, 0.999)[2] < 1e-6  # never raises


def test_true_equity_on_hands_worked_by_hand(ceiling):
    equity = ceiling["true_equity"]
    rng = np.random.default_rng(0)
    # river, AA against KK on a dry board: AA always wins; against AA: a split
    board = tuple(parse_cards("2c 7d 9h Js 3c"))
    aa, kk, aa2 = tuple(parse_cards("Ah As")), tuple(parse_cards("Kh Ks")), tuple(parse_cards("Ad Ac"))
    assert equity(aa, board, [kk], rng, 10) == 1.0
    assert equity(kk, board, [aa], rng, 10) == 0.0
    assert equity(aa, board, [aa2], rng, 10) == 0.5
    assert equity(aa, board, [kk, aa2], rng, 10) == 0.5  # two-way split of a three-way pot
    # pre-flop AhAs against KhKs: 0.8236 all-in equity (the well-known 82 %); 4,000 deals, sd 0.006
    assert equity(aa, (), [kk], rng, 4000) == pytest.approx(0.8236, abs=0.025)


def test_frozen_cube_plays_the_candidate_in_every_cell(ceiling):
    cells = ceiling["value_player"](**ceiling["LOOSE_VALUE"])
    agent = ceiling["frozen_cube"](cells)
    assert agent.frozen and agent.cube.genes.shape == (96, 1, 7)
    assert np.array_equal(agent.cube.genes[:48, 0], cells) and np.array_equal(agent.cube.genes[48:, 0], cells)
    assert np.array_equal(ceiling["params_cube"](ceiling["loose_value_params"]()), cells)


@pytest.mark.parametrize("hole, ours, over_valuing", [("Qh 4d", FOLD, CALL), ("7h 4d", CALL, RAISE)])
def test_over_valuing_players_judge_the_flop_against_one_opponent(ceiling, hole, ours, over_valuing):
    # four players limp, the first bets the flop 2c 7d 9h; the second holds Qh 4d (x1 = 0.304: x = x1^3 =
    # 0.028) or 7h 4d (x1 = 0.771: x = 0.457); loose-aggressive continues from x = 0.20, raises from 0.50
    holes = parse_cards(f"As Ks {hole} Ac Kc Ad Kd")
    state = HandState(GameConfig(), holes, parse_cards("2c 7d 9h Js 3c"))
    for action in (CALL, CALL, CALL, CALL, RAISE):
        state.act(action)
    view = seat_view(state, state.actor)
    assert view.position == 1 and view.active_players == 4
    assert StereotypeAgent("loose-aggressive").act(view) == ours
    assert ceiling["OverValuing"]().act(view) == over_valuing
