"""Loki-2's triple generator, action selector, triple re-weighting and per-opponent thresholds (Peña 1999
node30-35): hand-worked triples, the kernel against the plain reference, and the reference against Loki-1's
own rules at zero interpolation width."""

from dataclasses import replace

import numpy as np
import pytest

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.cards import parse_cards
from pokerlab.engine import GameConfig, HandState
from pokerlab.errors import ConfigError
from pokerlab.holdings import HOLDING_CARDS, holding_index
from pokerlab.modeling.frequencies import ActionFrequencies
from pokerlab.modeling.holding_values import board_values
from pokerlab.programs.loki1 import Loki1Config
from pokerlab.programs.loki1.postflop import PostflopRules, PostflopSituation, decide
from pokerlab.programs.loki2 import Loki2Config
from pokerlab.programs.loki2.reweight import TripleFollower, reweight_by_triples, som_thresholds
from pokerlab.programs.loki2.selector import select_action
from pokerlab.programs.loki2.triples import (
    TripleContext,
    TripleRules,
    holding_triples,
    ramp,
    reference_triple,
    triple_action,
)

NO_DECEPTION = PostflopRules(deception=False)


def context(**changes) -> TripleContext:
    base = TripleContext(
        round_index=1,
        bets_to_call=1,
        bets_made=1,
        bet_size=10,
        later_bet_size=20,
        pot=60,
        to_call=10,
        opponents_active=2,
        opponents_to_act=1,
        called_bet_this_round=False,
        semi_bluffing=False,
        can_raise=True,
    )
    return base._replace(**changes)


def random_context(rng) -> TripleContext:
    rnd = int(rng.integers(1, 4))
    bet = 10 if rnd == 1 else 20
    bets = int(rng.integers(0, 4))
    made = int(rng.integers(bets, 5)) if bets else int(rng.integers(0, 2))
    return TripleContext(
        round_index=rnd,
        bets_to_call=bets,
        bets_made=made,
        bet_size=bet,
        later_bet_size=20,
        pot=float(rng.integers(2, 40) * 5),
        to_call=bets * bet,
        opponents_active=int(rng.integers(1, 9)),
        opponents_to_act=int(rng.integers(0, 4)),
        called_bet_this_round=bool(rng.random() < 0.3),
        semi_bluffing=bool(rng.random() < 0.2),
        can_raise=bool(made < 4),
    )


def random_values(rng):
    hs_n = float(rng.random()) ** 2
    ppot = float(rng.random()) * 0.5
    ehs_opt = hs_n + (1 - hs_n) * ppot
    return hs_n, ehs_opt, max(0.0, ehs_opt - 0.1 * float(rng.random())), ppot


def test_spec_vectors_selector_and_reweighting():
    assert [select_action((0.1, 0.65, 0.25), u) for u in (0.05, 0.5, 0.9)] == [FOLD, CALL, RAISE]
    assert reweight_by_triples(np.array([0.9]), np.array([[0.0, 0.2, 0.8]]), CALL)[0] == pytest.approx(0.18)
    assert reweight_by_triples(np.array([0.9]), np.array([[0.0, 0.2, 0.8]]), FOLD)[0] == 0.01  # the floor
    with pytest.raises(ConfigError, match=r"u in \[0, 1\)"):
        select_action((0.1, 0.65, 0.25), 1.0)


def test_ramp_is_papps_example():
    # Papp 1998 §6.7: bet 0 % at 0.40, 50 % at 0.50, 100 % at 0.60
    assert [ramp(x, 0.5, 0.1) for x in (0.35, 0.40, 0.50, 0.55, 0.60, 0.9)] == pytest.approx(
        [0, 0, 0.5, 0.75, 1, 1]
    )
    assert ramp(0.5, 0.5, 0.0) == 1.0 and ramp(0.4999, 0.5, 0.0) == 0.0


def test_hand_worked_triples():
    rules = TripleRules(rules=NO_DECEPTION)
    # EHS' 0.80 facing one bet, one bet made: Make2 with weight (0.80 - 0.75) / 0.2 = 0.25 raises, Make1 calls
    assert reference_triple(0.8, 0.8, 0.8, 0.0, context(), rules, 0.5, 0.85) == pytest.approx((0, 0.75, 0.25))
    # EHS' 0.45 with nothing to call on the river: Make1 bets with weight 0.25, the rest checks
    river = context(round_index=3, bets_to_call=0, bets_made=0, to_call=0, bet_size=20)
    assert reference_triple(0.45, 0.45, 0.45, 0.0, river, rules, 0.5, 0.85) == pytest.approx((0, 0.75, 0.25))
    # EHS' 0.2 on the river facing a bet: pot odds 20 / 100 = 0.2 exactly, a half call by the odds ramp
    facing = context(round_index=3, to_call=20, bet_size=20, pot=80)
    assert reference_triple(0.2, 0.2, 0.2, 0.0, facing, rules, 0.5, 0.85) == pytest.approx((0.5, 0.5, 0))
    # deception: a strong hand with an opponent to act checks 20 % of the time to check-raise
    deceptive = TripleRules()
    flop = context(bets_to_call=0, bets_made=0, to_call=0)
    assert reference_triple(0.9, 0.95, 0.95, 0.0, flop, deceptive, 0.5, 0.85) == pytest.approx((0, 0.2, 0.8))


def test_zero_width_triples_are_loki1s_action():
    """δ = δ_o = 0 and no deception: the triple is one-hot on what Loki-1's `decide` does (Peña node31)."""
    rules = TripleRules(rules=NO_DECEPTION, width=0.0, make4_width=0.0, odds_width=0.0)
    rng = np.random.default_rng(5)
    for _ in range(3000):
        c = random_context(rng)
        hs_n, ehs_opt, ehs, ppot = random_values(rng)
        triple = reference_triple(hs_n, ehs_opt, ehs, ppot, c, rules, 0.5, 0.85)
        situation = PostflopSituation(
            c.round_index,
            ehs_opt,
            ehs,
            hs_n,
            ppot,
            c.bets_to_call,
            c.bets_made,
            c.bet_size,
            c.later_bet_size,
            c.pot,
            c.to_call,
            c.opponents_active,
            c.opponents_to_act,
            c.called_bet_this_round,
            c.semi_bluffing,
            c.can_raise,
        )
        action, _ = decide(situation, NO_DECEPTION, rng)
        if action == RAISE and not c.can_raise:
            action = CALL
        if action == FOLD and c.to_call == 0:
            action = CALL
        assert triple == tuple(float(a == action) for a in range(3)), (c, hs_n, ehs_opt, ehs, ppot)


def test_kernel_equals_reference_on_random_inputs():
    rng = np.random.default_rng(11)
    out = np.empty(3)
    for rules in (TripleRules(), TripleRules(rules=NO_DECEPTION, width=0.05, odds_width=0.0)):
        k = rules.as_array()
        for _ in range(2000):
            c = random_context(rng)
            values = random_values(rng)
            t1 = float(rng.uniform(0.3, 0.7))
            t2 = float(rng.uniform(t1, 0.95))
            u = float(rng.random())
            action = triple_action((*c, *values, t1, t2), k, u, out)
            expected = reference_triple(*values, c, rules, t1, t2)
            assert out == pytest.approx(expected, abs=1e-12)
            assert action == select_action(tuple(out.tolist()), u)
            assert sum(expected) == pytest.approx(1.0)
            assert min(expected) >= 0
            assert expected[FOLD] == 0 or c.to_call > 0
            assert expected[RAISE] == 0 or c.can_raise


def test_all_holdings_at_once_equal_one_at_a_time():
    board = tuple(parse_cards("9h 8c 2c Js"))
    strength, potential = board_values(board)
    c, rules = context(round_index=2, bet_size=20, to_call=20, pot=100), TripleRules()
    triples = holding_triples(strength, potential, 3, c, rules, 0.55, 0.8)
    assert np.isnan(triples[holding_index("9h Ad")]).all()  # meets the board
    for i in np.random.default_rng(1).choice(len(triples), 200, replace=False):
        if np.isnan(strength[i]):
            continue
        hs_n = strength[i] ** 3
        ehs = hs_n + (1 - hs_n) * potential[i]
        assert triples[i] == pytest.approx(
            reference_triple(hs_n, ehs, ehs, potential[i], c, rules, 0.55, 0.8)
        )


def test_som_thresholds():
    # Papp's Table B.2 player: facing a bet folds half the time, raises 20 %; facing two bets 70 % / 10 %
    assert som_thresholds(np.array([0.5, 0.3, 0.2]), 1, 0.3, 0.95) == pytest.approx((0.5, 0.8))
    assert som_thresholds(np.array([0.7, 0.2, 0.1]), 2, 0.3, 0.95) == pytest.approx((0.7, 0.9))
    # nothing to call: t1 = t2 = 1 - f''(bet); a maniac's thresholds are clamped at the floor
    assert som_thresholds(np.array([0.0, 0.5, 0.5]), 0, 0.3, 0.95) == pytest.approx((0.5, 0.5))
    assert som_thresholds(np.array([0.0, 0.0, 1.0]), 1, 0.3, 0.95) == pytest.approx((0.3, 0.3))
    assert som_thresholds(np.array([0.99, 0.01, 0.0]), 1, 0.3, 0.95) == pytest.approx((0.95, 0.95))


def follower_on_flop(modelling="specific"):
    """Three players; position 2 (us) follows the hand to the flop 9h 8c 2c, where position 0 acts next."""
    config = GameConfig()
    holes = parse_cards("Ks Kd 7h 6h Ah 8h")
    runout = parse_cards("9h 8c 2c Js 3d")
    state = HandState(config, holes, runout)
    for action in (CALL, CALL, CALL):  # button calls, small blind completes, big blind checks
        state.act(action)
    loki2 = Loki2Config(loki1=Loki1Config(modelling=modelling))
    follower = TripleFollower(3, 2, (holes[4], holes[5]), loki2.loki1, (10, 10, 20, 20), state.blinds, loki2)
    return state, follower, loki2


@pytest.mark.parametrize("modelling", ["generic", "specific"])
def test_reweighting_after_the_flop_multiplies_by_the_triple(modelling):
    state, follower, loki2 = follower_on_flop(modelling)
    frequencies = {}
    follower.follow(state.actions, tuple(state.board), frequencies, (0, 1, 2))
    before = follower.weights[0].copy()
    state.act(RAISE)  # position 0 bets the flop
    follower.follow(state.actions, tuple(state.board), frequencies, (0, 1, 2))
    after = follower.weights[0]
    strength, potential = board_values(tuple(state.board))
    # position 0 bet facing nothing: pot 30, two opponents, both to act after it, one bet made
    c = context(bets_to_call=0, bets_made=0, to_call=0, pot=30, opponents_to_act=2)
    if modelling == "generic":
        t1, t2 = 0.5, 0.85
    else:
        t1, t2 = som_thresholds(frequencies[0].mixed(1, 0), 0, loki2.som_low, loki2.som_high)
    for holding in ("Ks Kd", "7d 2d", "Qc Jc", "As 8s"):
        i = holding_index(holding)
        hs_n = strength[i] ** 2
        ehs = hs_n + (1 - hs_n) * potential[i]
        triple = reference_triple(hs_n, ehs, ehs, potential[i], c, loki2.triples, t1, t2)
        assert after[i] == pytest.approx(max(0.01, before[i] * triple[RAISE]))
    # a bet makes air less likely than a set
    assert after[holding_index("9c 9d")] > after[holding_index("7d 3s")]


def test_a_check_reweights_too():
    """Negative re-weighting (Peña node34): a check lowers the weight of the hands that would have bet."""
    state, follower, _ = follower_on_flop()
    follower.follow(state.actions, tuple(state.board), {}, (0, 1, 2))
    before = follower.weights[0].copy()
    state.act(CALL)  # position 0 checks
    follower.follow(state.actions, tuple(state.board), {}, (0, 1, 2))
    kept = follower.weights[0] / before
    set_of_nines, air = holding_index("9c 9d"), holding_index("7d 3s")
    assert kept[set_of_nines] < 0.5 and kept[air] == 1.0


def test_specific_thresholds_follow_the_opponent():
    state, follower, _ = follower_on_flop()
    tight = ActionFrequencies()
    for _ in range(40):
        tight.observe(1, 1, FOLD)
    loose = ActionFrequencies()
    for _ in range(40):
        loose.observe(1, 1, CALL)
    assert (
        follower.thresholds(tight, 1, 1)[0]
        > follower.thresholds(None, 1, 1)[0]
        > follower.thresholds(loose, 1, 1)[0]
    )


def test_configs_are_checked():
    with pytest.raises(ConfigError, match="betting"):
        Loki2Config(betting="psychic")
    with pytest.raises(ConfigError, match="width"):
        TripleRules(width=0.7)
    with pytest.raises(ConfigError, match="som_low"):
        replace(Loki2Config(), som_low=0.9, som_high=0.5)
    assert HOLDING_CARDS.shape == (1326, 2)


def test_in_place_reweighting_equals_triples_then_product_to_the_last_bit():
    from pokerlab.programs.loki2.reweight import reweight_in_place, triple_factors

    rng = np.random.default_rng(4)
    rules = TripleRules()
    for _ in range(60):
        cards = rng.permutation(52)[: rng.integers(3, 6)]
        board = tuple(int(x) for x in cards)
        strength, potential = board_values(board)
        c = context(
            round_index=len(cards) - 2,
            bets_to_call=int(rng.integers(0, 3)),
            bets_made=int(rng.integers(0, 4)),
            bet_size=10 if len(cards) == 3 else 20,
            pot=float(rng.integers(20, 300)),
            to_call=float(rng.choice([0, 10, 20, 40])),
            opponents_active=int(rng.integers(1, 9)),
            opponents_to_act=int(rng.integers(0, 5)),
            called_bet_this_round=bool(rng.random() < 0.5),
            can_raise=bool(rng.random() < 0.8),
        )
        weights = np.fmax(0.01, rng.random(1326))
        t1, t2 = sorted(rng.uniform(0.3, 0.95, 2))
        opponents, action = int(rng.integers(1, 6)), int(rng.integers(0, 3))
        expected = reweight_by_triples(
            weights, holding_triples(strength, potential, opponents, c, rules, t1, t2), action
        )
        reweight_in_place(weights, triple_factors(board, opponents, c, rules, t1, t2, action))
        assert np.array_equal(weights, expected)
