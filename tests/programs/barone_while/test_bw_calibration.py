"""The calibration switches of Barone & While's tables: stereotype readings, stakes, player A on the x1
scale, a use per consultation, the calibration grid and the generation count."""

from dataclasses import replace

import numpy as np
import pytest

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.policy import blind_view, policy_by_substitution
from pokerlab.agents.stereotypes import FEARFUL_X, READINGS, STYLES, StereotypeAgent
from pokerlab.analysis.strength import uniform_strength
from pokerlab.engine import GameConfig, HandState
from pokerlab.engine.view import seat_view
from pokerlab.errors import ConfigError
from pokerlab.modeling.holding_values import sorted_income_rates
from pokerlab.programs.barone_while import calibrate, generations
from pokerlab.programs.barone_while.agent import EvolvingAgent
from pokerlab.programs.barone_while.candidate import probabilities
from pokerlab.programs.barone_while.config import EvolvingConfig, parse_settings
from pokerlab.programs.barone_while.epochs import play_epochs
from pokerlab.programs.barone_while.player_a import (
    PREFLOP_CONTINUE_X1,
    player_a_cells,
    thresholds,
)
from pokerlab.programs.barone_while.situation import opponents_in

SEGMENTS = ("tight-passive", "loose-aggressive")


def _postflop_views(n: int, count: int, seed: int, bet: bool):
    """Views of the player to act on the flop of n-handed hands where everyone called pre-flop (after a
    bet on the flop with `bet`)."""
    rng = np.random.default_rng(seed)
    views = []
    while len(views) < count:
        cards = [int(c) for c in rng.permutation(52)[: 2 * n + 5]]
        state = HandState(GameConfig(stack=1000), cards[: 2 * n], cards[2 * n :], [1000] * n)
        while state.round == 0:
            state.act(CALL)
        if bet:
            state.act(RAISE)
        views.append(seat_view(state, state.actor))
    return views


def test_readings_are_checked_per_style():
    with pytest.raises(ConfigError, match="unknown reading 'never-fold' of tight-passive"):
        StereotypeAgent("tight-passive", "never-fold")
    with pytest.raises(ConfigError, match="loose_reading must be one of"):
        EvolvingConfig(loose_reading="wild")
    assert parse_settings("small_bet=50,tight_reading=fold-to-bets").small_bet == 50


def test_over_valuing_judges_by_x1_in_any_pot():
    spec, over = StereotypeAgent("loose-aggressive"), StereotypeAgent("loose-aggressive", "over-valuing")
    style, differ = STYLES["loose-aggressive"], 0
    for view in _postflop_views(5, 60, seed=1, bet=True):
        x1 = uniform_strength(view.hole, view.board)
        expected = RAISE if x1 >= style.raise_x else CALL if x1 >= style.continue_x else FOLD
        if view.raises >= 2 and x1 < style.raised_x:
            expected = FOLD
        assert over.act(view) == expected
        differ += spec.act(view) != expected  # the spec's x1^4 folds or calls where x1 does not
    assert differ > 0


def test_never_fold_stays_in_against_any_bet_and_tight_fold_to_bets_fears_them():
    never = StereotypeAgent("loose-aggressive", "never-fold")
    fearful = StereotypeAgent("tight-passive", "fold-to-bets")
    folds = 0
    for view in _postflop_views(4, 80, seed=2, bet=True):
        assert never.act(view) != FOLD
        x = uniform_strength(view.hole, view.board) ** (view.active_players - 1)
        assert (fearful.act(view) == FOLD) == (x < FEARFUL_X)
        folds += fearful.act(view) == FOLD
    assert 0 < folds < 80


@pytest.mark.parametrize(("style", "reading"), [(s, r) for s, rs in READINGS.items() for r in rs[1:]])
def test_reading_policy_query_matches_the_plain_rule(style, reading):
    agent = StereotypeAgent(style, reading)
    for view in _postflop_views(3, 6, seed=3, bet=True) + _postflop_views(3, 6, seed=4, bet=False):
        fast = agent.policy_for_holdings(blind_view(view))
        plain = policy_by_substitution(agent.action_probabilities, blind_view(view))
        np.testing.assert_allclose(fast, plain, atol=1e-12)


def test_small_bet_scales_what_a_folding_player_pays_in_blinds():
    """A player who folds everything loses exactly its blinds: five times as much at small bet 50 as at 10,
    on the same seats (epochs of 3 hands: nobody can go broke and change the hands)."""
    fold_cells = np.tile([0.999, 0.999, 0.5, 0.0, 0.0, 0.0, 0.0], (48, 1))  # fold(x) = e^{999(0.999-x)}
    losses = []
    for small_bet in (10, 50):
        agent = EvolvingAgent(EvolvingConfig(population_size=1, small_bet=small_bet), SEGMENTS)
        agent.cube.genes[:] = np.tile(fold_cells, (2, 1))[:, None, :]
        agent.freeze()
        losses.append(play_epochs(agent, "tight", 8, seed=7, hands=3).player)
    assert np.all(losses[0] <= 0) and losses[0].sum() < 0 and np.array_equal(losses[1], 5 * losses[0])


def test_player_a_on_the_x1_scale_enters_with_its_share_of_holdings():
    x1 = (np.asarray(sorted_income_rates(2), dtype=float) / 1000 + 1) / 2
    shares = [float((x1 >= t).mean()) for t in PREFLOP_CONTINUE_X1]
    assert shares == pytest.approx([0.145, 0.273, 0.407], abs=0.005)  # the docstring's 15 / 27 / 41 %
    cells = player_a_cells("x1")
    for position in range(3):
        t_c, t_r = thresholds(0, position, 0, "x1")
        assert t_c == pytest.approx(PREFLOP_CONTINUE_X1[position])
        fold_below, fold_above = probabilities(cells[position * 4], [t_c - 0.05, t_c + 0.03])[:, 0]
        assert fold_below > 0.5 > fold_above
    assert np.array_equal(player_a_cells("x1")[12:], player_a_cells()[12:])  # post-flop unchanged
    with pytest.raises(ConfigError, match="unknown scale"):
        thresholds(0, 0, 0, "x2")


def test_per_consultation_counts_a_use_and_moves_the_pointer_for_every_opponent():
    """Uses equal the per-opponent consultations the player made, counted at its decisions; the per-hand
    rule counts far fewer."""
    counted = {}
    for rule in ("per_hand", "per_consultation"):
        config = EvolvingConfig(multiway_x="single", uses_rule=rule)
        agent = EvolvingAgent(config, SEGMENTS, "player_a")
        act, consultations = agent.act, [0]

        def counting(view, act=act, consultations=consultations):
            consultations[0] += len(opponents_in(view))
            return act(view)

        agent.act = counting
        play_epochs(agent, "mixed", 1, seed=3, hands=40)
        assert agent.cube.generation.max() == 0
        counted[rule] = (int(agent.cube.uses.sum()), consultations[0])
    assert counted["per_consultation"][0] == counted["per_consultation"][1]
    assert counted["per_hand"][0] < counted["per_consultation"][0] / 2


def test_per_consultation_reproduces_when_every_member_has_answered_enough():
    config = EvolvingConfig(uses_rule="per_consultation", population_size=2, uses_per_generation=1)
    agent = EvolvingAgent(config, SEGMENTS, "player_a")
    uses = []
    end = agent.end_hand

    def logging_end(hand_end):
        uses.append(agent.cube.uses.copy())
        end(hand_end)

    agent.end_hand = logging_end
    play_epochs(agent, "mixed", 1, seed=5, hands=30)
    # a population reproduces at the end of every hand in which both members had answered at least once
    due = sum((u.min(axis=1) >= 1) for u in uses)
    assert np.array_equal(agent.cube.generation, due) and agent.cube.generation.max() > 3


def test_acceptance_rule_of_a_cell():
    row = {"w_loose": 100.0, "w_loose_ci95": 50.0, "w_tight": -10.0, "vpip": 0.2}
    assert calibrate.accepted(row)
    assert not calibrate.accepted({**row, "w_loose_ci95": 120.0})  # interval reaches 0
    assert not calibrate.accepted({**row, "w_tight": 5.0})
    assert not calibrate.accepted({**row, "vpip": 0.31})
    assert not calibrate.accepted(
        {**row, "w_loose": 40.0, "w_loose_ci95": 10.0, "w_tight": -10.0, "vpip": 0.11}
    )


def test_calibration_grid_shares_runs_on_common_cards(tmp_path):
    rows = calibrate.grid(2, seed=1)
    assert len(rows) == 18 and sum(r["accepted"] == calibrate.accepted(r) for r in rows) == 18
    by = {(r["small_bet"], r["loose_reading"], r["tight_reading"]): r for r in rows}
    for (bet, loose, tight), r in by.items():
        assert r["w_loose"] == by[bet, loose, "spec"]["w_loose"]  # the loose table ignores the tight reading
        assert r["w_tight"] == by[bet, "spec", tight]["w_tight"]
    again = calibrate.play_a(
        replace(calibrate.A_CONFIG, small_bet=25, loose_reading="never-fold"), "loose", 2, 1
    )
    assert again.w.mean() == by[25, "never-fold", "spec"]["w_loose"]
    calibrate.write_grid(rows, tmp_path, "test")
    assert (tmp_path / "grid.csv").read_text().count("\n") == 19 and (tmp_path / "grid.png").stat().st_size


def test_generation_count_matches_the_uses_and_extrapolates_linearly():
    config = EvolvingConfig(uses_rule="per_consultation", population_size=4, uses_per_generation=2)
    counted = generations.count(config, epochs=2, seed=0, start="player_a")
    table = counted["generations"]
    assert table["loose-aggressive"]["max"][0] > 0
    for stats in table.values():
        assert all(
            lo <= mean <= hi for lo, mean, hi in zip(stats["min"], stats["mean"], stats["max"], strict=True)
        )
    scaled = generations.extrapolate(counted, 20)
    assert scaled["loose-aggressive"]["max"][0] == pytest.approx(10 * table["loose-aggressive"]["max"][0])
    assert "EXTRAPOLATED" in generations.lines(counted, 20)[-1]


def test_spread_records_every_reproduction_of_the_same_run():
    config = EvolvingConfig(uses_rule="per_consultation", population_size=4, uses_per_generation=2)
    measured = generations.spread(config, epochs=2, seed=0, start="player_a")
    counted = generations.count(config, epochs=2, seed=0, start="player_a")
    total = sum(round(m * 12) for stats in counted["generations"].values() for m in stats["mean"])
    assert measured["reproductions"] == total > 0
    lo, mid, hi = measured["credited_hands_per_member_p10_p50_p90"]
    assert 0 <= lo <= mid <= hi


def test_per_credit_counts_a_use_for_every_member_credited():
    config = EvolvingConfig(uses_rule="per_credit", multiway_x="single", player_a_scale="x1")
    agent = EvolvingAgent(config, SEGMENTS, "player_a")
    play_epochs(agent, "mixed", 1, seed=2, hands=60)
    cube = agent.cube
    assert cube.generation.max() == 0 and cube.uses.sum() > 0
    assert np.array_equal(cube.uses, cube.credit_count)
    cube.uses[5] = 0
    cube.uses[5, 0] = 20 * 25 - 1  # one member holds every use: the population is due on the total
    assert not cube.due(5)
    cube.uses[5, 1] = 1
    assert cube.due(5)


def test_cycling_alone_leaves_a_player_of_identical_members_unchanged_own_draws_do_not():
    """Members all player A: cycling per consultation with one shared uniform plays exactly as cycling per
    hand; a uniform per consultation (the tightest of several draws is played) plays tighter."""
    played = {}
    for name, settings in {
        "per_hand": {},
        "cycling": {"uses_rule": "per_consultation"},
        "own draws": {"uses_rule": "per_consultation", "shared_u": False},
    }.items():
        config = EvolvingConfig(multiway_x="single", player_a_scale="x1", **settings)
        agent = EvolvingAgent(config, SEGMENTS, "player_a")
        agent.freeze()
        agent.situations = []
        play_epochs(agent, "mixed", 2, seed=4, hands=50)
        played[name] = agent.situations
    assert played["cycling"] == played["per_hand"]
    folds = {
        k: sum(s[6] == FOLD for s in v if s[1] == 0) / sum(s[1] == 0 for s in v) for k, v in played.items()
    }
    assert folds["own draws"] > folds["per_hand"]
