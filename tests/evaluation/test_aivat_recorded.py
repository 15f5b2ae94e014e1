"""AIVAT for a seat known by the answers it gave during the match (policies.bin): a learner is evaluated
with its answers then, both seats known gives the mean of the two seats' estimates (exactly unbiased on
Kuhn poker, narrower than the worse seat's alone), and a torn or contradicted record gets one line."""

import shutil

import numpy as np
import pytest
from tests.arena.test_policy_record import Learner
from tests.evaluation.test_cv_core import random_value

from pokerlab import play_match
from pokerlab.arena.policy_record import POLICIES_FILE, decode, encode, read_policies, records
from pokerlab.errors import ConfigError
from pokerlab.evaluation.aivat import (
    Imaginary,
    aivat_of_folder,
    decoded,
    recorded_seats,
    with_query,
)
from pokerlab.evaluation.hindsight import read_hindsight
from pokerlab.evaluation.stats import estimator_row
from pokerlab.evaluation.toygames import KUHN, continuation_value, imaginary, random_strategy, terminals
from pokerlab.holdings import HOLDING_INDEX


def _sd(terms, estimate):
    mean = sum(p * estimate(z) for z, p in terms)
    return np.sqrt(sum(p * (estimate(z) - mean) ** 2 for z, p in terms))[0], mean


def test_both_seats_known_is_exact_and_narrower_than_the_worse_seat_on_kuhn():
    """The mean of the two seats' imaginary estimates: E X = E u exactly, for the exact continuation value
    and for an arbitrary W; with the exact value its SD is below the larger of the two seats' SDs always,
    and below both for most strategies (not all: averaging with a much noisier seat can cost)."""
    below_both = 0
    for seed in range(6):
        rng = np.random.default_rng(seed)
        strategy = random_strategy(KUHN, rng)
        terms = terminals(KUHN, strategy)
        raw = sum(p * KUHN.utility(z) for z, p in terms)
        for value in (continuation_value(KUHN, strategy), random_value(rng)):
            one = [imaginary(KUHN, value, k, strategy) for k in (0, 1)]
            both_sd, both_mean = _sd(terms, lambda z, one=one: (one[0](z) + one[1](z)) / 2)
            assert np.allclose(both_mean, raw, atol=1e-12)
        exact = [imaginary(KUHN, continuation_value(KUHN, strategy), k, strategy) for k in (0, 1)]
        sds = [_sd(terms, e)[0] for e in exact]
        both_sd, _ = _sd(terms, lambda z, e=exact: (e[0](z) + e[1](z)) / 2)
        assert both_sd < max(sds)
        below_both += both_sd < min(sds)
    assert below_both >= 3


@pytest.fixture(scope="module")
def learner_match(tmp_path_factory):
    out = tmp_path_factory.mktemp("recorded") / "m"
    play_match(
        [Learner(), "tight-passive"],
        60,
        seed=11,
        duplicate=True,
        out=out,
        log_policies=True,
        log_decisions=True,
    )
    return out


def test_a_learner_is_known_by_its_recorded_answers_and_both_seats_narrow_it(learner_match):
    record = read_hindsight(learner_match)
    answers = read_policies(learner_match)
    assert recorded_seats(record.hands, answers) == {"learner", "tight-passive"}
    tiers = aivat_of_folder(learner_match, seed=3, samples=4, samples_preflop=60)
    rows = {
        tier: estimator_row(tier, "", d.adjusted[:, 0], d.raw[:, 0], d.units, d.small_bet, d.big_blind, 0)
        for tier, d in tiers.items()
    }
    assert all(abs(r.bias_z) < 3 for r in rows.values())
    assert rows["imaginary"].sd_ratio < rows["chance"].sd_ratio
    # both seats known against each seat alone (V2), on the same hands: the learner's result
    tier = Imaginary(record.config, seed=3, samples_preflop=60)
    alone, both = {"learner": [], "tight-passive": []}, []
    for hand in record.hands:
        hand, policies = with_query(hand, record.config, {}, frozenset(alone), decoded(answers, hand))
        mine = hand.names.index("learner")
        x = {hand.names[k]: tier.hand(hand, policies, k)[mine] for k in (0, 1)}
        for name, value in x.items():
            alone[name].append(value)
        both.append((x["learner"] + x["tight-passive"]) / 2)
    sds = {name: np.std(values) for name, values in alone.items()}
    assert np.std(both) < max(sds.values())


def test_a_torn_record_stops_and_contradicting_answers_are_set_aside(learner_match, tmp_path, caplog):
    """A hand without its record: one line. Answers that contradict what the seat played (here its own
    holding's row forged to rule out the action it took) are not its policy: the seat is evaluated as if
    it had given none, and a warning says so."""
    copy = tmp_path / "copy"
    shutil.copytree(learner_match, copy)
    path = copy / POLICIES_FILE
    kept = list(records(path.read_bytes(), path))
    path.write_bytes(b"".join(whole for hand, _, _, whole in kept if hand != 7))
    with pytest.raises(ConfigError, match=r"hand 7: policies.bin holds no answer for .* torn or incomplete"):
        aivat_of_folder(copy, seed=0, samples=2, samples_preflop=10)
    record = read_hindsight(copy)
    hand = next(h for h in record.hands if h.hand == 7)
    i = next(i for i, (p, _, _) in enumerate(hand.actions) if hand.names[p] == "learner")
    p, action, _ = hand.actions[i]
    answers = decode(next(payload for h, _, payload, _ in kept if h == 7))
    answers[i][HOLDING_INDEX[hand.holes[2 * p], hand.holes[2 * p + 1]]] = np.eye(3)[(action + 1) % 3]
    forged = encode(7, 0, sorted(answers.items()))
    path.write_bytes(b"".join(forged if hand == 7 else whole for hand, _, _, whole in kept))
    set_aside = aivat_of_folder(copy, seed=0, samples=2, samples_preflop=10)
    assert "hand 7" in caplog.text and "its recorded answer is not what it played" in caplog.text
    (copy / POLICIES_FILE).unlink()  # the learner unknown; the stereotype known by its fresh query
    without = aivat_of_folder(copy, seed=0, samples=2, samples_preflop=10)
    assert np.array_equal(without["imaginary"].adjusted, set_aside["imaginary"].adjusted)
