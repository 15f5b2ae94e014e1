"""Loki-2's selective-sampling simulator (Peña 1999 ch. 5): sampling against the literal rejection sampler,
the river EV of calling against exact enumeration, common random numbers, and the agents by name."""

import json

import numpy as np
import pytest

from pokerlab import play_match
from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.base import Decision
from pokerlab.agents.registry import make_agent
from pokerlab.analysis.strength import hand_strength, holding_strengths
from pokerlab.cards import parse_cards
from pokerlab.engine import GameConfig, HandState, seat_view
from pokerlab.errors import ConfigError
from pokerlab.evaluator import evaluate
from pokerlab.holdings import HOLDING_CARDS, HOLDING_INDEX, NUM_HOLDINGS, holding_index, live_holdings
from pokerlab.programs.loki2 import VARIANTS, Loki2Agent
from pokerlab.programs.loki2.simulate import (
    SimulationConfig,
    folded_keep_weights,
    reference_sample,
    sample_worlds,
    simulate,
    trial_values,
)
from pokerlab.programs.loki2.triples import TripleRules

GENERIC = np.broadcast_to(np.array([0.5, 0.85]), (3, 4, 3, 2)).copy()


def concentrated(holdings: str, rest: float = 0.01) -> np.ndarray:
    """A weight table of 1 on the given holdings (";"-separated) and `rest` elsewhere."""
    table = np.full(NUM_HOLDINGS, rest)
    for h in holdings.split(";"):
        table[holding_index(h)] = 1.0
    return table


def test_sampling_draws_what_rejection_sampling_draws():
    """Pairs drawn in proportion to the keep weights have the distribution of Peña's rejection sampler."""
    hole, board = tuple(parse_cards("Ah 8h")), tuple(parse_cards("9h 8c 2c"))
    keep = {0: concentrated("Ks Kd;Qs Qd;9c 9d;7d 6d", 0.05), 1: folded_keep_weights().copy()}
    trials = 4000
    holes, runouts = sample_worlds(keep, hole, 2, board, 3, trials, np.random.default_rng(1))
    rng = np.random.default_rng(2)
    oracle = [reference_sample(keep, {1}, hole, 2, board, 3, rng) for _ in range(trials)]
    for p in (0, 1):
        ours = np.bincount(HOLDING_INDEX[holes[:, p, 0], holes[:, p, 1]], minlength=NUM_HOLDINGS) / trials
        theirs = np.bincount([HOLDING_INDEX[o[p]] for o in oracle], minlength=NUM_HOLDINGS) / trials
        if p == 0:  # the four heavy holdings: each about 1 / (4 + 0.05 * 1077) of the mass
            heavy = [holding_index(h) for h in ("Ks Kd", "Qs Qd", "9c 9d", "7d 6d")]
            assert ours[heavy].sum() == pytest.approx(theirs[heavy].sum(), abs=0.03)
            assert ours[heavy].sum() == pytest.approx(4 / (4 + 0.05 * (1081 - 4 - 90)), abs=0.03)
        # a folded player holds weak hands: mean IR7 percentile well below a half, equal for both samplers
        keep_of = folded_keep_weights()
        assert (ours * keep_of).sum() == pytest.approx((theirs * keep_of).sum(), abs=0.02)
    # every trial's cards are distinct and the board starts with the flop
    cards = np.concatenate([holes.reshape(trials, -1), runouts], axis=1)
    assert all(len(set(row)) == 11 for row in cards.tolist())
    assert (runouts[:, :3] == board).all()


def test_trial_values_equal_holding_strengths():
    """HS_1 in trials (uniform opponent) is `holding_strengths`' value for the same board and holding."""
    hole, board = tuple(parse_cards("Ah 8h")), tuple(parse_cards("9h 8c 2c"))
    keep = {0: np.ones(NUM_HOLDINGS), 1: np.ones(NUM_HOLDINGS)}
    holes, runouts = sample_worlds(keep, hole, 2, board, 3, 5, np.random.default_rng(3))
    strength, potential = trial_values(holes, runouts, 1, [0, 2], np.ones((2, NUM_HOLDINGS)))
    for t in range(5):
        for rnd in (1, 2, 3):
            table = holding_strengths(runouts[t, : 2 + rnd].tolist())
            for p in (0, 2):
                assert strength[t, p, rnd] == pytest.approx(
                    table[HOLDING_INDEX[holes[t, p, 0], holes[t, p, 1]]]
                )
        assert potential[t, 0, 3] == 0.0 and np.isnan(strength[t, 1]).all()


def test_shared_first_round_values_equal_the_plain_path_to_the_last_bit():
    """The table's board valued once (uniform seats from `board_values`, Loki-2's own seat once per hole)
    gives the numbers of valuing it in every trial, on the flop, turn and river."""
    rng = np.random.default_rng(12)
    for board_text, first_round in (("9h 8c 2c", 1), ("Ts 7s 2s 2d", 2), ("Kd Qc 5h 5s 3c", 3)):
        board = tuple(parse_cards(board_text))
        keep = {p: rng.random(NUM_HOLDINGS) for p in range(4)}
        holes, runouts = sample_worlds(keep, tuple(parse_cards("Ah 8h")), 3, board, 4, 30, rng)
        weights = np.ones((3, NUM_HOLDINGS))
        weights[1] = rng.random(NUM_HOLDINGS)  # our own field array, at seat 3
        shared = trial_values(holes, runouts, first_round, [0, 3, 2], weights)
        plain = trial_values(holes, runouts, first_round, [0, 3, 2], weights, shared=False)
        for ours, reference in zip(shared, plain, strict=True):
            assert np.array_equal(ours, reference, equal_nan=True)


def test_weighted_trial_values_equal_hand_strength():
    """Against a weight table (Loki-2's own field array in trials) HS_1 is `hand_strength`'s."""
    hole, board = tuple(parse_cards("Ah 8h")), tuple(parse_cards("9h 8c 2c"))
    field = np.random.default_rng(8).random(NUM_HOLDINGS)
    keep = {0: np.ones(NUM_HOLDINGS), 1: np.ones(NUM_HOLDINGS)}
    holes, runouts = sample_worlds(keep, hole, 2, board, 3, 4, np.random.default_rng(9))
    weights = np.stack([np.ones(NUM_HOLDINGS), field])
    strength, _ = trial_values(holes, runouts, 1, [0, 2], weights)
    for t in range(4):
        for rnd in (1, 2, 3):
            expected = hand_strength(hole, runouts[t, : 2 + rnd].tolist(), field).hand_strength
            assert strength[t, 2, rnd] == pytest.approx(expected, rel=1e-9)


def river_decision():
    """Heads-up river: position 0 bets into us (the button, position 1) with Ah 8h on 9h 8c 2c Js 3d."""
    holes = parse_cards("Ks Kd Ah 8h")
    state = HandState(GameConfig(), holes, parse_cards("9h 8c 2c Js 3d"))
    for action in (CALL, CALL) + (RAISE, CALL) * 2 + (RAISE,):  # limp, check; bet-call flop and turn; bet
        state.act(action)
    assert state.round == 3 and state.actor == 1
    return seat_view(state, 1)


def exact_call_value(view, weights) -> float:
    """EV of calling the river bet by enumerating the opponent's holdings with their weights."""
    board = list(view.board)
    ours = evaluate(list(view.hole) + board)
    live = live_holdings(list(view.hole) + board)
    total = value = 0.0
    for i in np.flatnonzero(live):
        theirs = evaluate(HOLDING_CARDS[i].tolist() + board)
        share = 1.0 if ours > theirs else 0.5 if ours == theirs else 0.0
        total += weights[i]
        value += weights[i] * share
    return value / total * (view.pot + view.to_call) - view.to_call


def test_river_call_value_converges_to_exact_enumeration():
    view = river_decision()
    weights = concentrated("Ks Kd;Qs Qd;9c 9d;Jc Th;7d 6d;Ac Js;3s 3c", 0.02)
    exact = exact_call_value(view, weights)
    config = SimulationConfig(trials=6000)
    result = simulate(
        view, {0: weights}, None, GENERIC[:2], False, TripleRules(), config, np.random.default_rng(4)
    )
    assert result.trials == 6000 and 0 < result.se_call < 2
    assert abs(result.ev_call - exact) < 4 * result.se_call
    assert result.ev_raise is not None and result.se_difference is not None


def test_common_random_numbers_reduce_the_variance_of_the_difference():
    view = river_decision()
    weights = concentrated("Ks Kd;Qs Qd;9c 9d;Jc Th;7d 6d;Ac Js;3s 3c", 0.05)
    ses = {}
    for crn in (True, False):
        config = SimulationConfig(trials=1500, common_random_numbers=crn)
        rng = np.random.default_rng(5)
        ses[crn] = simulate(
            view, {0: weights}, None, GENERIC[:2], False, TripleRules(), config, rng
        ).se_difference
    assert ses[True] < 0.75 * ses[False]


def test_always_call_ev_of_calling_equals_the_playout_on_the_last_action():
    """On the river facing a bet heads-up, calling ends the hand: both modes value the call alike."""
    view = river_decision()
    weights = concentrated("Ks Kd;9c 9d;7d 6d", 0.05)
    values = [
        simulate(
            view,
            {0: weights},
            None,
            GENERIC[:2],
            False,
            TripleRules(),
            SimulationConfig(trials=300, mode=m),
            rng,
        ).ev_call
        for m, rng in (("playout", np.random.default_rng(6)), ("always-call", np.random.default_rng(6)))
    ]
    assert values[0] == values[1]


def test_best_action_and_budget():
    view = river_decision()
    rng = np.random.default_rng(7)
    monsters = concentrated("9c 9d;Jc Js;2s 2d", 0.001)
    result = simulate(view, {0: monsters}, None, GENERIC[:2], False, TripleRules(), SimulationConfig(50), rng)
    assert result.ev_call < 0 and result.best_action(view.to_call) == FOLD
    air = concentrated("7d 6d;5c 4c;Qc Tc", 0.001)
    result = simulate(view, {0: air}, None, GENERIC[:2], False, TripleRules(), SimulationConfig(50), rng)
    assert result.ev_call > 0 and result.best_action(view.to_call) in (CALL, RAISE)
    quick = SimulationConfig(trials=100_000, time_budget=0.05, min_trials=10)
    result = simulate(view, {0: air}, None, GENERIC[:2], False, TripleRules(), quick, rng)
    assert 10 <= result.trials < 100_000
    with pytest.raises(ConfigError, match="mode"):
        SimulationConfig(mode="guess")


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_variant_plays_by_name(name):
    agent = make_agent(name)
    assert isinstance(agent, Loki2Agent) and agent.loki2 == VARIANTS[name]
    match = play_match([name, "loki1", "call"], 6, seed=3)
    assert sum(match.nets.sum(axis=0)) == 0


def test_a_simulating_decision_carries_its_evs():
    agent = make_agent("loki2")
    agent.seed(np.random.default_rng(1))
    view = river_decision()
    decision = agent.act(view)
    assert isinstance(decision, Decision)
    info = decision.info
    assert info["trials"] == 500 and info["ev_fold"] == 0.0
    assert {"ev_call", "ev_raise", "se_call", "se_raise", "se_difference", "hs_n", "triple"} <= set(info)
    json.dumps(info)
    assert decision.probabilities[decision.action] == 1.0
    triples = make_agent("loki2-triples")
    decision = triples.act(view)
    assert sum(decision.probabilities) == pytest.approx(1.0) and "ev_call" not in decision.info
