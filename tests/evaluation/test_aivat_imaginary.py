"""AIVAT's imaginary observations on Kuhn and Leduc poker, by exact enumeration: the estimate's expectation
equals the raw one's for random strategies and any value function, planted mistakes (holdings filtered by
the final board, unnormalised weights, the unknown seat's actions corrected) are caught, and with a good W
it beats the action corrections alone."""

from __future__ import annotations

import numpy as np
import pytest
from tests.evaluation.test_cv_core import exact_means, random_value

from pokerlab import play_match
from pokerlab.actions import CALL
from pokerlab.agents import Agent
from pokerlab.errors import ConfigError
from pokerlab.evaluation import toygames
from pokerlab.evaluation.aivat import (
    PLAIN_WEIGHTS,
    Imaginary,
    aivat_of_folder,
    fit_imaginary_weights,
    known_by_query,
    with_query,
)
from pokerlab.evaluation.core import corrected
from pokerlab.evaluation.divat import Divat
from pokerlab.evaluation.hindsight import read_hindsight
from pokerlab.evaluation.stats import estimator_row, unit_means
from pokerlab.evaluation.toygames import (
    KUHN,
    LEDUC,
    OneCardPoker,
    continuation_value,
    imaginary,
    random_strategy,
    steps_of,
    terminals,
)
from pokerlab.holdings import HOLDING_CARDS, NUM_HOLDINGS


@pytest.mark.parametrize(
    ("game", "seat"), [(KUHN, 0), (KUHN, 1), (LEDUC, 1)], ids=["kuhn0", "kuhn1", "leduc1"]
)
def test_imaginary_observations_are_exactly_unbiased(game, seat):
    rng = np.random.default_rng(2018)
    for _ in range(2 if game is KUHN else 1):
        strategy = random_strategy(game, rng)
        raw, mean = exact_means(game, strategy, imaginary(game, random_value(rng), seat, strategy))
        assert np.allclose(mean, raw, atol=1e-12, rtol=0)
        assert abs(raw[0]) > 1e-3  # a game value that a constant estimate would miss


def test_weighted_rounds_stay_exactly_unbiased():
    """Any fixed weight of each round's corrections (what the hold'em tier's `IMAGINARY_WEIGHTS` are) keeps
    the expectation the raw one's exactly, and changes the estimate."""
    rng = np.random.default_rng(2009)
    strategy, value = random_strategy(SMALL_LEDUC, rng), random_value(rng)
    raw, mean = exact_means(SMALL_LEDUC, strategy, imaginary(SMALL_LEDUC, value, 1, strategy, (2.3, 0.4)))
    assert np.allclose(mean, raw, atol=1e-12, rtol=0)
    plain = imaginary(SMALL_LEDUC, value, 1, strategy)
    weighted = imaginary(SMALL_LEDUC, value, 1, strategy, (2.3, 0.4))
    assert max(abs(plain(z)[0] - weighted(z)[0]) for z, _ in terminals(SMALL_LEDUC, strategy)) > 1e-3


def _final_board(game, h, seat, board):
    """The planted mistake of one public implementation: alternatives filtered by the *final* board."""
    return [a for a in _true_alternatives(game, h, seat) if not set(a[:2]) & set(board)]


_true_alternatives = toygames.alternatives
#: Leduc with one raise a round: its shared deck and public card, a fifth of its histories.
SMALL_LEDUC = OneCardPoker(ranks=3, suits=2, bets=(2, 4), max_raises=1)


def test_planted_mistakes_are_caught(monkeypatch):
    rng = np.random.default_rng(7)
    strategy = random_strategy(SMALL_LEDUC, rng)
    value = random_value(rng)
    terms = [(z, p) for z, p in terminals(SMALL_LEDUC, strategy)]
    raw = sum(p * SMALL_LEDUC.utility(z) for z, p in terms)

    # holdings filtered by the final board: one estimator per final board, which knows it
    board: list = []
    monkeypatch.setattr(toygames, "alternatives", lambda g, h, s: _final_board(g, h, s, board))
    mean = np.zeros(2)
    for public in [(), *((c,) for c in SMALL_LEDUC.deck)]:
        board[:] = public
        estimate = imaginary(SMALL_LEDUC, value, 0, strategy)
        mean += sum(
            p * estimate(z) for z, p in terms if tuple(e for e in z[2:] if not isinstance(e, str)) == public
        )
    assert not np.allclose(mean, raw, atol=1e-6)
    monkeypatch.undo()

    # the unknown seat's actions corrected as if they were known: the reach of the known seat is right,
    # but the other seat's probabilities are a guess (uniform)
    guess = {k: {a: 1 / len(v) for a in v} for k, v in strategy.items()}
    io = imaginary(SMALL_LEDUC, value, 0, strategy)
    assert np.allclose(sum(p * io(z) for z, p in terms), raw, atol=1e-12)  # unmutated: exact
    both = sum(
        p * (io(z) - sum(s.correction for s in steps_of(SMALL_LEDUC, z, value, {1: guess}, chance=False)))
        for z, p in terms
    )
    assert not np.allclose(both, raw, atol=1e-6)


def test_unnormalised_weights_are_caught():
    """W-bar without dividing by the weights' total (the reach of the known seat's line left in)."""
    rng = np.random.default_rng(11)
    strategy = random_strategy(KUHN, rng)
    terms = terminals(KUHN, strategy)
    raw = sum(p * KUHN.utility(z) for z, p in terms)

    def unnormalised(z):
        alts = toygames.alternatives(KUHN, z, 0)
        return sum(toygames.reach(KUHN, a, 0, strategy) * KUHN.utility(a) for a in alts) / len(alts)

    mean = sum(p * unnormalised(z) for z, p in terms)
    assert not np.allclose(mean, raw, atol=1e-6)


@pytest.mark.parametrize("seed", range(5))
def test_imaginary_observations_beat_action_corrections_with_a_good_value(seed):
    """One seat known, W the exact continuation value: the imaginary observations average the action
    tier's estimate over what the unknown seat cannot tell apart, so their SD is no larger, and both are
    below the chance tier's and the raw SD."""
    rng = np.random.default_rng(seed)
    strategy = random_strategy(KUHN, rng)
    value = continuation_value(KUHN, strategy)
    terms = terminals(KUHN, strategy)
    io = imaginary(KUHN, value, 0, strategy)

    def sd(estimate):
        mean = sum(p * estimate(z) for z, p in terms)
        return np.sqrt(sum(p * (estimate(z) - mean) ** 2 for z, p in terms))[0]

    actions = sd(lambda z: corrected(KUHN.utility(z), steps_of(KUHN, z, value, {0: strategy})))
    chance = sd(lambda z: corrected(KUHN.utility(z), steps_of(KUHN, z, value, {})))
    assert sd(io) <= actions + 1e-12
    assert actions < chance < sd(KUHN.utility)


# -- hold'em -------------------------------------------------------------------------------------------


class Reach:
    """Position `k`'s holdings that the other seat cannot rule out, a holding at a time, with their reach
    (the plain oracles below)."""

    def __init__(self, hand, k):
        theirs = {hand.holes[2 * (1 - k)], hand.holes[2 * (1 - k) + 1]}
        self.weight = {g: 1.0 for g in range(NUM_HOLDINGS) if not set(HOLDING_CARDS[g].tolist()) & theirs}

    def live(self, board):
        board = set(board)
        return [g for g, w in self.weight.items() if w > 0 and not set(HOLDING_CARDS[g].tolist()) & board]

    def bar(self, w, board):
        """W-bar: the reach-weighted mean of `w` over the holdings live on `board`."""
        live = self.live(board)
        return sum(self.weight[g] * w[g] for g in live) / sum(self.weight[g] for g in live)

    def expected(self, state, policy, w_of):
        """The reach-weighted expected child value of `k`'s decision at `state` (`w_of`: child -> W)."""
        live, total = self.live(state.board_seen), 0.0
        for a in state.legal_actions():
            child = state.copy()
            child.act(a)
            w = w_of(child)
            total += sum(self.weight[g] * policy[g, a] * w[g] for g in live)
        return total / sum(self.weight[g] for g in live)

    def update(self, policy, action):
        for g in self.weight:
            self.weight[g] *= policy[g, action]


def plain_imaginary(hand, policies, k, tier: Imaginary) -> float:
    """X of position `k` by the telescoped form, a holding at a time: the deal's mean value, plus the
    change of W-bar at every action of the other seat, plus, at every action of `k`, the reach-weighted
    expected child value less W-bar before it (no card term: W is balanced at cards for every holding)."""
    reach = Reach(hand, k)
    state = hand.start(tier.config)
    x = sum(state.committed) / 2 - state.committed[k]
    last = -1  # the round of the last action (W mid-round finishes it with the baseline)
    for i, (p, action, _) in enumerate(hand.actions):
        board, r = state.board_seen, state.round
        tables = tier.tables(hand, k, state)
        before = reach.bar(tier.values(state, k, tables, last), board)
        if p == k:
            x += reach.expected(state, policies[i], lambda c, t=tables, r=r: tier.values(c, k, t, r)) - before
            reach.update(policies[i], action)
            state.act(action)
        else:
            state.act(action)
            x += reach.bar(tier.values(state, k, tables, r), board) - before  # before any new card
        last = r if state.round == r else -1
    return x


def test_the_value_of_a_holding_mid_round_is_the_baseline_finishing_it(tmp_path):
    """W(g, state) of the imaginary tier, all holdings at once, against DIVAT's own baseline playing the
    round out for each holding g given to the known seat."""
    play_match(["loose-aggressive", "loose-passive"], 8, seed=4, out=tmp_path / "m")
    record = read_hindsight(tmp_path / "m")
    tier, divat = Imaginary(record.config, seed=1, samples_preflop=40), Divat(record.config, seed=1)
    rng = np.random.default_rng(0)
    checked = 0
    for hand in record.hands:
        state = hand.start(record.config)
        for _, action, _ in hand.actions[:-1]:
            r = state.round
            state.act(action)
            if state.round != r or state.is_over:
                continue
            for k in (0, 1):
                tables = tier.tables(hand, k, state)
                w = tier.values(state, k, tables, r)
                seen = set(state.board_seen) | set(state.holes[2 * (1 - k) : 2 * (1 - k) + 2])
                for g in rng.choice(NUM_HOLDINGS, 40, replace=False):
                    if set(HOLDING_CARDS[g].tolist()) & seen:
                        continue
                    other = state.copy()
                    other.holes[2 * k : 2 * k + 2] = HOLDING_CARDS[g].tolist()
                    end = divat.play_round(other)
                    if end.is_over and any(end.folds()):
                        want = end.nets[k]
                    else:
                        want = tables.equity[g] * sum(end.committed) - end.committed[k]
                    assert w[g] == pytest.approx(want, abs=1e-9)
                    checked += 1
    assert checked > 200


def plain_brackets(hand, policies, k, tier: Imaginary) -> tuple[float, list[float]]:
    """(u-bar(end), the brackets by round) of position `k`, a holding at a time: the deal's W-bar less its
    mean by symmetry; at each action of `k`, W-bar after it (the reach updated) less the reach-weighted
    expected child value; at each round's cards, W-bar after them less W-bar before; each counted in
    the round whose pot values it (the round of the action, or the round the cards end)."""
    reach = Reach(hand, k)
    state = hand.start(tier.config)
    brackets = [0.0] * 4
    start = reach.bar(tier.values(state, k, tier.tables(hand, k, state), -1), ())
    brackets[0] = start - (sum(state.committed) / 2 - state.committed[k])
    for i, (p, action, _) in enumerate(hand.actions):
        board, r = state.board_seen, state.round
        tables = tier.tables(hand, k, state)
        if p == k:
            expected = reach.expected(state, policies[i], lambda c, t=tables, r=r: tier.values(c, k, t, r))
            reach.update(policies[i], action)
            state.act(action)
            brackets[r] += reach.bar(tier.values(state, k, tables, r), board) - expected
        else:
            state.act(action)
        if len(state.board_seen) > len(board):
            before = reach.bar(tier.values(state, k, tables, r), board)
            after = tier.values(state, k, tier.tables(hand, k, state), state.round - 1)
            brackets[r] += reach.bar(after, state.board_seen) - before
    end = reach.bar(tier.values(state, k, tier.tables(hand, k, state), -1), state.board_seen)
    return end, brackets


def test_the_holdem_tier_matches_a_plain_holding_at_a_time_computation(tmp_path):
    """Weight 1 in every round: the telescoped form. Any weights: u-bar(end) less the weighted brackets,
    each round's brackets as a plain loop counts them."""
    play_match(["loose-passive", "loose-aggressive"], 12, seed=3, out=tmp_path / "m")
    record = read_hindsight(tmp_path / "m")
    known, _ = known_by_query(record.labels)
    tier = Imaginary(record.config, seed=5, samples_preflop=50, weights=PLAIN_WEIGHTS)
    weights = (2.5, 1.75, 1.25, 0.5)
    weighted = Imaginary(record.config, seed=5, samples_preflop=50, weights=weights)
    rounds = set()
    for hand in record.hands:
        hand, policies = with_query(hand, record.config, known)
        for k in (0, 1):
            x = tier.hand(hand, policies, k)
            assert x[0] == -x[1]
            assert abs(x[k] - plain_imaginary(hand, policies, k, tier)) < 1e-9
            end, brackets = plain_brackets(hand, policies, k, weighted)
            assert abs(weighted.hand(hand, policies, k)[k] - (end - np.dot(weights, brackets))) < 1e-9
            rounds |= {r for r, b in enumerate(brackets) if abs(b) > 1e-9}
    assert rounds == {0, 1, 2, 3}


def test_imaginary_weights_are_checked():
    for bad in ((1.0, 2.0, 3.0), (1.0, float("nan"), 1.0, 1.0), ("a", 1, 1, 1)):
        with pytest.raises(ConfigError, match="4 finite weights"):
            Imaginary.checked(bad)


def test_the_tiers_on_stereotypes_are_unbiased_and_the_imaginary_tier_is_narrowest(tmp_path):
    """Neither seat reports probabilities; both are known by their query (V1 at small scale)."""
    play_match(["tight-passive", "loose-aggressive"], 300, seed=28, duplicate=True, out=tmp_path / "m")
    tiers = aivat_of_folder(tmp_path / "m", seed=28, samples=4, samples_preflop=100)
    rows = {
        tier: estimator_row(tier, "", d.adjusted[:, 0], d.raw[:, 0], d.units, d.small_bet, d.big_blind, 0)
        for tier, d in tiers.items()
    }
    assert set(rows) == {"chance", "actions", "imaginary"}
    assert all(abs(r.bias_z) < 3 for r in rows.values())
    assert rows["imaginary"].sd_ratio < min(rows["chance"].sd_ratio, rows["actions"].sd_ratio, 0.8)


def test_the_fitted_weights_minimise_the_variance_in_sample(tmp_path):
    """`fit_imaginary_weights` gives the weights of the narrowest tier on the hands it was fitted on."""
    play_match(["tight-passive", "loose-aggressive"], 40, seed=5, duplicate=True, out=tmp_path / "m")
    fitted = np.array(fit_imaginary_weights([tmp_path / "m"], seed=3, samples_preflop=20))

    def sd(weights):
        tiers = aivat_of_folder(tmp_path / "m", seed=3, samples=1, samples_preflop=20, weights=tuple(weights))
        return unit_means(tiers["imaginary"].adjusted[:, 0], tiers["imaginary"].units).std()

    best = sd(fitted)
    assert best < sd(PLAIN_WEIGHTS) - 1e-6
    for r in range(4):
        assert best < sd(fitted + 0.2 * np.eye(4)[r]) - 1e-6


class Impostor(Agent):
    """Sits as the rock and calls everything."""

    name = "rock"

    def act(self, view):
        return CALL


def test_a_seat_that_does_not_play_its_query_is_refused(tmp_path):
    play_match([Impostor(), "call"], 20, seed=1, out=tmp_path / "m")
    with pytest.raises(ConfigError, match="rock took call where its policy query gives .* did not play"):
        aivat_of_folder(tmp_path / "m", seed=0)
    known, why = known_by_query(["loki1", "call", "td", "me.py:Bot", "nobody"])
    assert set(known) == {"call"} and known["call"].frozen
    assert "learns during the match" in why["loki1"] and "learns during the match" in why["td"]
    assert "not ours to run" in why["me.py:Bot"] and "not a registered player" in why["nobody"]
