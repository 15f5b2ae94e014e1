"""The Baseline control variate: the control's replay against a plain showdown, the cross-fitted estimate
against a plain computation, |z(X - u)| < 3 on simulated matches, and one line for what it cannot judge."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pokerlab.arena.match import play_match
from pokerlab.errors import ConfigError
from pokerlab.evaluation.baseline import baseline_of_folder, control_nets, folds
from pokerlab.evaluation.hindsight import read_hindsight
from pokerlab.evaluation.stats import estimator_row
from pokerlab.evaluator import evaluate
from pokerlab.interfaces.cli import main


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    """A 3-seat match of 360 hands (60 orbits in each fold)."""
    out = tmp_path_factory.mktemp("baseline") / "three"
    play_match(["bpl", "tight-aggressive", "loose-passive"], 360, seed=28, out=out)
    return out


def test_a_calling_control_nets_its_showdown_share_of_every_deal(three):
    """Callers check every deal down: each position nets its share of the big blinds' pot on the deck's
    own five board cards (ties split), whatever the real hand's betting was."""
    record = read_hindsight(three)
    data = control_nets(record, "call", seed=0)
    big_blind = record.config.big_blind
    for k, hand in enumerate(record.hands[:60]):
        board = list(hand.deck[6:11])
        ranks = [evaluate([hand.holes[2 * p], hand.holes[2 * p + 1], *board]) for p in range(3)]
        winners = [p for p in range(3) if ranks[p] == max(ranks)]
        plain = [3 * big_blind / len(winners) * (p in winners) - big_blind for p in range(3)]
        order = [record.labels.index(name) for name in hand.names]
        assert data.adjusted[k, order].tolist() == pytest.approx(plain)
        assert data.raw[k, order].tolist() == list(hand.nets)


def test_the_estimate_is_the_net_less_the_other_folds_beta_times_the_control(three):
    record = read_hindsight(three)
    data = baseline_of_folder(three, seed=2, control="loose-aggressive")
    control = control_nets(record, "loose-aggressive", seed=2).adjusted
    fold = np.array([(h.hand // 3) % 2 for h in record.hands])
    assert fold.tolist() == folds(record).tolist() and 0 < fold.sum() < len(fold)
    for j in range(3):
        for f in (0, 1):
            other = fold != f
            beta = np.cov(control[other, j], data.raw[other, j], bias=True)[0, 1] / control[other, j].var()
            plain = data.raw[fold == f, j] - beta * control[fold == f, j]
            assert np.allclose(data.adjusted[fold == f, j], plain, atol=1e-9)
    assert np.any(np.abs(data.adjusted - data.raw) > 1)


@pytest.mark.parametrize("seats", [3, 6])
def test_unbiased_and_narrower_on_simulated_matches(tmp_path, three, seats):
    """|z| of mean(X - u) under 3 for every seat, and most seats' SD cut."""
    if seats == 6:
        play_match(
            ["bpl", "bpt", "call", "raise", "random", "loose-aggressive"], 240, seed=28, out=tmp_path / "m"
        )
    data = baseline_of_folder(three if seats == 3 else tmp_path / "m", seed=1)
    ratios = []
    for j, label in enumerate(data.labels):
        row = estimator_row("baseline", "-", data.adjusted[:, j], data.raw[:, j], None, 10, 20, 0)
        assert abs(row.bias_z) < 3, (label, row)
        ratios.append(row.sd_ratio)
    assert np.median(ratios) < 0.95


def test_what_the_baseline_cannot_judge_is_one_line(tmp_path, three, capsys):
    play_match(["bpl", "call"], 4, seed=1, out=tmp_path / "dup", duplicate=True)
    with pytest.raises(ConfigError, match="is a duplicate match: the Baseline's control terms cancel"):
        baseline_of_folder(tmp_path / "dup", seed=0)
    play_match(["bpl", "call", "raise"], 7, seed=1, out=tmp_path / "odd")
    with pytest.raises(
        ConfigError, match="every seat in every position equally often: a match of a multiple of 6"
    ):
        baseline_of_folder(tmp_path / "odd", seed=0)
    (tmp_path / "odd" / "hindsight.jsonl").unlink()
    with pytest.raises(ConfigError, match="the Baseline estimator needs the hindsight record"):
        baseline_of_folder(tmp_path / "odd", seed=0)
    assert main(["evaluate", str(three), "--method", "baseline", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["method"] == "baseline" and report["hands"] == 360 and len(report["value_digest"]) == 16
    assert [r["name"] for r in report["seats"]["bpl"]] == ["raw", "baseline"]
    assert main(["evaluate", str(tmp_path / "dup"), "--method", "baseline"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
