"""Worked examples from Papp 1998 and Billings et al. 1998 and rule-by-rule checks of Loki-1's pure decision
functions."""

from dataclasses import replace

import numpy as np
import pytest

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.analysis.effective import pot_odds
from pokerlab.modeling.frequencies import (
    DEFAULT_FREQUENCIES,
    ActionFrequencies,
    threshold_percentile,
)
from pokerlab.modeling.reweighting import MIN_WEIGHT, percentile_value, reweight, reweight_factor
from pokerlab.programs.loki1.postflop import (
    PostflopRules,
    PostflopSituation,
    decide,
    semi_bluff_odds,
)
from pokerlab.programs.loki1.preflop import (
    PreflopRules,
    PreflopStrategy,
    expected_players,
    player_group,
    preflop_position,
    select_strategy,
    strategy_action,
    threshold,
)


def test_preflop_vector_a8s_dealer_moderate_four_players():
    assert [
        threshold(s, 4, "moderate", 0)
        for s in (PreflopStrategy.MAKE4, PreflopStrategy.MAKE2, PreflopStrategy.MAKE1)
    ] == [580, 200, 50]
    assert select_strategy(338, 4, "moderate", position=0) == PreflopStrategy.MAKE2
    assert select_strategy(338, 4, "moderate", position=3) == PreflopStrategy.MAKE1  # Make2 needs 350 there
    assert select_strategy(600, 4, "moderate", position=0) == PreflopStrategy.MAKE4
    assert select_strategy(-500, 4, "moderate", position=0) == PreflopStrategy.MAKE0


def test_position_counts_players_left_to_act_before_the_small_blind():
    n = 6
    assert preflop_position(n, n) == 0  # button
    assert preflop_position(1, n) == n - 1  # small blind
    assert preflop_position(2, n) == n - 2  # big blind
    assert preflop_position(3, n) == n - 3  # first to act
    # a later position lowers the thresholds
    assert threshold(PreflopStrategy.MAKE2, 7, "loose", 0) < threshold(PreflopStrategy.MAKE2, 7, "loose", 5)


def test_groups_from_expected_players():
    assert expected_players(voluntarily_in=1, still_to_act=2) == pytest.approx(3.2)
    assert player_group(1.6) == 2 and player_group(3.2) == 4 and player_group(4.4) == 4
    assert player_group(4.6) == 7


def test_small_blind_call_strategies():
    assert select_strategy(60, 7, "tight", position=9, small_blind=True) == PreflopStrategy.CALL2
    stricter = PreflopRules(small_blind_call2=100)
    assert select_strategy(60, 7, "tight", 9, True, stricter) == PreflopStrategy.CALL1
    assert select_strategy(-50, 7, "tight", position=9, small_blind=True) == PreflopStrategy.CALL1
    assert select_strategy(-50, 7, "tight", position=9, small_blind=False) == PreflopStrategy.MAKE0


@pytest.mark.parametrize(
    "strategy, bets, to_call, invested, expected",
    [
        (PreflopStrategy.MAKE0, 1, True, False, FOLD),
        (PreflopStrategy.MAKE0, 1, False, False, CALL),
        (PreflopStrategy.CALL1, 1, True, False, CALL),
        (PreflopStrategy.CALL1, 2, True, False, FOLD),
        (PreflopStrategy.CALL1, 2, True, True, CALL),
        (PreflopStrategy.MAKE1, 1, True, False, CALL),
        (PreflopStrategy.MAKE1, 0, False, False, RAISE),
        (PreflopStrategy.MAKE1, 3, True, False, FOLD),
        (PreflopStrategy.CALL2, 4, True, False, CALL),
        (PreflopStrategy.MAKE2, 1, True, False, RAISE),
        (PreflopStrategy.MAKE2, 2, True, True, CALL),
        (PreflopStrategy.MAKE4, 3, True, True, RAISE),
    ],
)
def test_strategy_actions(strategy, bets, to_call, invested, expected):
    assert strategy_action(strategy, bets, to_call, invested) == expected


def test_capped_betting_turns_raises_into_calls():
    assert strategy_action(PreflopStrategy.MAKE4, 4, True, True, can_raise=False) == CALL
    assert strategy_action(PreflopStrategy.MAKE2, 1, True, False, can_raise=False) == CALL


def test_reweighting_vector():
    factors = reweight_factor(np.array([0.3, 0.6, 0.7, 0.9]), mu=0.6, sigma=0.2)
    assert factors == pytest.approx([0.01, 0.5, 0.75, 1.0])
    w = reweight(
        np.array([1.0, 0.02, 0.5, 1.0]),
        np.array([0.3, 0.3, 0.7, 0.9]),
        0.6,
        0.2,
        possible=np.array([True, True, True, False]),
    )
    assert w == pytest.approx([MIN_WEIGHT, MIN_WEIGHT, 0.375, 0.0])


def test_percentile_value_nearest_point():
    values = np.arange(101, dtype=float)
    assert percentile_value(values, 0.7) == 70.0
    assert percentile_value(values, 0.0) == 0.0 and percentile_value(values, 1.0) == 100.0


def test_frequencies_mix_with_defaults_then_trust_observations():
    f = ActionFrequencies()
    assert f.mixed(0, 1) == pytest.approx(DEFAULT_FREQUENCIES[1])
    for _ in range(10):
        f.observe(0, 1, RAISE)
    assert f.mixed(0, 1) == pytest.approx(0.5 * np.array([0, 0, 1]) + 0.5 * DEFAULT_FREQUENCIES[1])
    # the flop falls back on the same player's pre-flop frequencies
    assert f.mixed(1, 1) == pytest.approx(f.mixed(0, 1))
    for _ in range(30):
        f.observe(0, 5, FOLD)  # 2+ bets bucket
    assert f.mixed(0, 2) == pytest.approx([1, 0, 0])


def test_threshold_percentiles():
    freq = np.array([0.5, 0.3, 0.2])
    assert threshold_percentile(freq, CALL, 1) == 0.5  # calls and raises alike: beat those who fold
    assert threshold_percentile(freq, RAISE, 1) == 0.5
    assert threshold_percentile(np.array([0.0, 0.7, 0.3]), RAISE, 0) == pytest.approx(0.7)
    assert threshold_percentile(freq, CALL, 0) is None  # a free check says nothing
    assert threshold_percentile(freq, FOLD, 1) is None


def test_pot_odds_vector():
    assert pot_odds(4, 20) == pytest.approx(4 / 24)
    ev = lambda p, pot, call: p * (pot + call) - call  # noqa: E731
    assert ev(0.2, 20, 4) == pytest.approx(0.8) and ev(0.2, 12, 4) == pytest.approx(-0.8)
    assert semi_bluff_odds(10, 40) == pytest.approx(20 / 100)


BASE = PostflopSituation(
    round_index=1,
    ehs_optimistic=0.5,
    ehs=0.5,
    hand_strength_n=0.5,
    potential=0.0,
    bets_to_call=0,
    bets_made=0,
    bet_size=10,
    later_bet_size=20,
    pot=40,
    to_call=0,
    opponents_active=2,
    opponents_to_act=1,
    called_bet_this_round=False,
    semi_bluffing=False,
    can_raise=True,
)
PLAIN = PostflopRules(deception=False)


def rule(s, rules=PLAIN, seed=0):
    return decide(s, rules, np.random.default_rng(seed))


def test_postflop_priority_order():
    assert rule(
        replace(BASE, hand_strength_n=0.99, ehs_optimistic=0.99, bets_to_call=3, bets_made=3, to_call=30)
    ) == (RAISE, "make4")
    assert rule(replace(BASE, ehs_optimistic=0.9)) == (RAISE, "make2")
    assert rule(replace(BASE, ehs_optimistic=0.9, bets_to_call=2, bets_made=2, to_call=20)) == (CALL, "make2")
    assert rule(replace(BASE, ehs_optimistic=0.6)) == (RAISE, "make1")
    assert rule(replace(BASE, ehs_optimistic=0.6, bets_to_call=1, bets_made=1, to_call=10)) == (CALL, "make1")
    # make1 facing two bets falls through unless it already called a bet this round
    facing2 = replace(
        BASE,
        ehs_optimistic=0.6,
        hand_strength_n=0.6,
        bets_to_call=2,
        bets_made=2,
        to_call=20,
        potential=0.0,
        ehs=0.1,
    )
    assert rule(facing2) == (FOLD, "fold")
    assert rule(replace(facing2, called_bet_this_round=True)) == (CALL, "make1")
    assert rule(replace(BASE, ehs_optimistic=0.3, potential=0.25)) == (RAISE, "semi-bluff")
    assert rule(replace(BASE, ehs_optimistic=0.3, potential=0.15)) == (CALL, "check")
    assert rule(replace(BASE, ehs_optimistic=0.3, semi_bluffing=True, round_index=3)) == (RAISE, "semi-bluff")
    facing = replace(BASE, ehs_optimistic=0.3, ehs=0.0, bets_to_call=1, bets_made=1, to_call=10, pot=50)
    assert rule(replace(facing, potential=0.2)) == (CALL, "pot-odds")  # needs 10/60
    assert rule(replace(facing, potential=0.1)) == (FOLD, "fold")
    river = replace(facing, round_index=3, potential=0.0)
    assert rule(replace(river, hand_strength_n=0.2)) == (CALL, "pot-odds")
    assert rule(replace(river, hand_strength_n=0.1)) == (FOLD, "fold")
    assert rule(replace(facing, potential=0.0, ehs=0.45)) == (CALL, "showdown-odds")


def test_never_folds_when_checking_is_free():
    rng = np.random.default_rng(3)
    for _ in range(2000):
        s = replace(
            BASE,
            ehs_optimistic=rng.random(),
            ehs=rng.random(),
            hand_strength_n=rng.random(),
            potential=rng.random(),
            round_index=int(rng.integers(1, 4)),
        )
        assert decide(s, PostflopRules(), rng)[0] != FOLD


def test_deception_frequencies():
    rng = np.random.default_rng(5)
    strong = replace(BASE, ehs_optimistic=0.95)
    checks = sum(decide(strong, PostflopRules(), rng)[1] == "check-raise" for _ in range(4000)) / 4000
    assert checks == pytest.approx(0.2, abs=0.03)
    weak_river = replace(BASE, ehs_optimistic=0.1, round_index=3)
    bluffs = sum(decide(weak_river, PostflopRules(), rng)[1] == "bluff" for _ in range(4000)) / 4000
    assert bluffs == pytest.approx(0.05, abs=0.015)
