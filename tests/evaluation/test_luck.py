"""Luck-adjusted winnings: the equity kernel against plain enumeration, the balance that makes the estimate
unbiased, the estimate against a plain replay, |z(X - u)| < 3 on simulated matches at 2, 6 and 10 seats."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

from pokerlab.arena.match import play_match
from pokerlab.arena.store import read_hands
from pokerlab.cards import parse_cards
from pokerlab.engine import UNKNOWN, GameConfig, replay
from pokerlab.errors import ConfigError, CorruptData
from pokerlab.evaluation import luck
from pokerlab.evaluation.luck import equity_shares, luck_adjusted, luck_of_folder
from pokerlab.evaluation.stats import estimator_row, unit_means
from pokerlab.evaluator import evaluate, evaluate_batch
from pokerlab.interfaces.cli import main


def plain_equity(holdings, board, dead):
    """The oracle: every completion of the board, ranked one hand at a time with the scalar evaluator."""
    gone = {c for h in holdings for c in h} | set(board) | set(dead)
    deck = [c for c in range(52) if c not in gone]
    shares = np.zeros(len(holdings))
    completions = list(itertools.combinations(deck, 5 - len(board)))
    for more in completions:
        ranks = [evaluate(list(h) + list(board) + list(more)) for h in holdings]
        best = max(ranks)
        winners = [i for i, r in enumerate(ranks) if r == best]
        for i in winners:
            shares[i] += 1 / len(winners)
    return shares / len(completions)


def random_spot(rng, holdings: int, board: int, dead: int):
    cards = rng.permutation(52)[: 2 * holdings + board + dead].tolist()
    hands = [cards[2 * i : 2 * i + 2] for i in range(holdings)]
    return hands, tuple(cards[2 * holdings : 2 * holdings + board]), tuple(cards[2 * holdings + board :])


@pytest.mark.parametrize("board_size", [3, 4, 5])
@pytest.mark.parametrize("holdings", [2, 4])
def test_exact_equity_matches_plain_enumeration(board_size, holdings):
    rng = np.random.default_rng(board_size * 10 + holdings)
    for _ in range(2):
        hands, board, dead = random_spot(rng, holdings, board_size, dead=2)
        fast = equity_shares(np.array(hands), board, dead, rng, samples=1)
        assert np.allclose(fast, plain_equity(hands, board, dead), atol=1e-12)
        assert abs(fast.sum() - 1) < 1e-12


def test_preflop_equity_is_an_unbiased_sample_of_the_exact_one():
    hands = [parse_cards("Ah As"), parse_cards("Kd Kc")]
    deck = [c for c in range(52) if c not in hands[0] + hands[1]]
    boards = np.array(list(itertools.combinations(deck, 5)), dtype=np.uint8)  # all 1,712,304
    ranks = [
        evaluate_batch(np.hstack([np.broadcast_to(np.array(h, np.uint8), (len(boards), 2)), boards]))
        for h in hands
    ]
    exact = float(((ranks[0] > ranks[1]) + 0.5 * (ranks[0] == ranks[1])).mean())
    samples = 50_000
    sampled = equity_shares(np.array(hands), (), (), np.random.default_rng(3), samples)[0]
    assert abs(sampled - exact) < 4 * 0.5 / np.sqrt(samples)


@pytest.mark.parametrize("board_size", [3, 4])
def test_equity_is_balanced_over_the_next_card(board_size):
    """The mean of the equity after each possible next card is the equity before it: the balance that
    lets each chance correction be W(after) - W(before) with mean zero."""
    rng = np.random.default_rng(board_size)
    hands, board, dead = random_spot(rng, 3, board_size, dead=4)
    before = equity_shares(np.array(hands), board, dead, rng, 1)
    gone = {c for h in hands for c in h} | set(board) | set(dead)
    after = [equity_shares(np.array(hands), board + (c,), dead, rng, 1) for c in range(52) if c not in gone]
    assert np.allclose(np.mean(after, axis=0), before, atol=1e-12)


def plain_terms(record, equity):
    """A second implementation: replay every prefix of the betting, find where cards were dealt, and take
    W(after) - W(before) of each card, by street (deal, flop, turn, river)."""
    n, board = record.players, record.board
    states = [
        replay(record.config, record.stacks, record.holes, board, record.actions[:k], finish=False)
        for k in range(len(record.actions) + 1)
    ]

    def w(state, cards):
        live = [p for p in range(n) if not state.folded(p)]
        dead = [c for p in range(n) if p not in live for c in record.hole(p)]
        shares = np.zeros(n)
        shares[live] = equity([record.hole(p) for p in live], tuple(board[:cards]), tuple(dead))
        return shares * state.pot - np.array(state.committed)

    terms = np.zeros((4, n))
    terms[0] = w(states[0], 0) - (states[0].pot / n - np.array(states[0].committed))
    sizes = (0, 3, 4, 5)
    for before, after in zip([states[0], *states], states, strict=False):
        for street in range(before.round + 1, min(after.round, 3) + 1):
            terms[street] = w(after, sizes[street]) - w(after, sizes[street - 1])
    return terms


def exact_or_even(holdings, board, dead, rng=None, samples=0):
    """Exact equity after the flop, an even split before it: deterministic, for comparing implementations."""
    holdings = [tuple(int(c) for c in h) for h in holdings]
    return plain_equity(holdings, board, dead) if board else np.full(len(holdings), 1 / len(holdings))


def test_the_estimate_matches_a_plain_replay(tmp_path, monkeypatch):
    play_match(["random", "call", "raise", "bpl"], 40, seed=4, out=tmp_path / "m")
    monkeypatch.setattr(luck, "equity_shares", exact_or_even)
    for _, record in read_hands(tmp_path / "m" / "hands.sqlite"):
        terms = plain_terms(record, exact_or_even)
        for weights in [(1, 1, 1, 1), (2.0, 0.5, 3.0, 1.5), None]:  # None: the 4 seats' default
            fast = luck_adjusted(record, np.random.default_rng(0), weights=weights)
            plain = np.array(record.nets) - np.array(weights or luck.STREET_WEIGHTS[4]) @ terms
            assert np.allclose(fast, plain, atol=1e-9)
            assert abs(fast.sum()) < 1e-9


@pytest.mark.parametrize("street", [2, 3], ids=["turn", "river"])
def test_each_weighted_card_term_has_mean_zero_over_every_card_that_could_come(tmp_path, street):
    """Hold a 6-seat hand's betting and earlier cards fixed and deal every possible turn (or river) card:
    the mean of that card's term over them is exactly zero, and the earlier terms do not move, so
    E[X] = E[u] at that chance node whatever the weights (checked with the 6-seat ones)."""
    play_match(
        ["bpl", "call", "loose-aggressive", "call", "tight-passive", "call"], 12, seed=9, out=tmp_path / "m"
    )
    record = next(r for _, r in read_hands(tmp_path / "m" / "hands.sqlite") if len(r.board) == 5)
    first = 3 if street == 2 else 4
    gone = set(record.holes) | set(record.board[:first])
    rows = []
    for card in sorted(set(range(52)) - gone):  # the river card beside each turn: any card left
        river = record.board[4] if street == 3 else min(set(range(52)) - gone - {card})
        board = (*record.board[:first], card) + ((river,) if street == 2 else ())
        rows.append(luck.luck_terms(record._replace(board=board), np.random.default_rng(5), samples=40))
    rows = np.array(rows)  # (cards, streets, positions)
    weights = np.array(luck.STREET_WEIGHTS[6])
    assert len(rows) == 52 - len(gone) and np.abs(rows[:, street]).max() > 1
    assert np.allclose(rows[:, street].mean(axis=0), 0, atol=1e-9)
    assert np.allclose(rows[:, :street], rows[0, :street], atol=1e-12)
    exact = np.einsum("s,csp->p", weights[: street + 1], rows[:, : street + 1]) / len(rows)  # E over the card
    assert np.allclose(exact, weights[:street] @ rows[0, :street], atol=1e-9)  # of u - X, up to this card


def test_fitted_weights_are_the_least_squares_of_the_net_on_the_street_terms(tmp_path):
    """`fit_street_weights` against numpy's least squares with an intercept on the plain replay's terms."""
    play_match(["bpl", "loose-aggressive", "call"], 120, seed=6, out=tmp_path / "m")
    fitted = luck.fit_street_weights(tmp_path / "m", seed=2, samples=30)
    rng = np.random.default_rng(2)
    terms, nets = [], []
    for _, record in read_hands(tmp_path / "m" / "hands.sqlite"):
        terms.append(luck.luck_terms(record, rng, samples=30).T)
        nets.append(record.nets)
    terms, nets = np.vstack(terms), np.concatenate(nets)
    design = np.hstack([terms, np.ones((len(terms), 1))])
    assert np.allclose(fitted, np.linalg.lstsq(design, nets, rcond=None)[0][:4], atol=1e-9)
    play_match(["raise", "call", "random"], 60, seed=5, out=tmp_path / "s", config=GameConfig(stack=100))
    with pytest.raises(ConfigError, match="calibrate on folders of one number of seats"):
        luck.fit_street_weights(tmp_path / "s", seed=0, samples=10)


@pytest.mark.parametrize(
    ("agents", "hands"),
    [
        (["bpl", "tight-aggressive"], 1000),
        (["bpl", "bpt", "call", "raise", "random", "loose-aggressive"], 400),
        (
            [
                "bpl",
                "bpt",
                "bpm",
                "call",
                "raise",
                "random",
                "loose-aggressive",
                "tight-aggressive",
                "call",
                "bpl",
            ],
            400,
        ),
    ],
    ids=["2 seats", "6 seats", "10 seats"],
)
def test_unbiased_on_simulated_matches(tmp_path, agents, hands):
    """|z| of mean(X - u) under 3 for every seat (a t statistic on heavy-tailed hands: at 100 hands, 10
    seats, one seat of ten reached 3.2; at 1,500 hands none passed 1.8)."""
    play_match(agents, hands, seed=28, out=tmp_path / "m")
    data = luck_of_folder(tmp_path / "m", seed=1, samples=300)
    assert data.adjusted.shape == data.raw.shape == (hands, len(agents))
    assert np.allclose(data.adjusted.sum(axis=1), 0, atol=1e-9)
    for j in range(len(data.labels)):
        row = estimator_row(
            "luck", "aie", data.adjusted[:, j], data.raw[:, j], data.units, data.small_bet, data.big_blind, 0
        )
        assert abs(row.bias_z) < 3, (data.labels[j], row)


def test_a_folder_without_what_it_needs_is_one_line(tmp_path):
    with pytest.raises(ConfigError, match="not a results folder"):
        luck_of_folder(tmp_path, seed=0)
    play_match(["call", "raise"], 5, seed=1, out=tmp_path / "m")
    (tmp_path / "m" / "hands.sqlite").unlink()
    with pytest.raises(ConfigError, match="no hands.sqlite: luck adjustment needs every hand's hole cards"):
        luck_of_folder(tmp_path / "m", seed=0)


def test_the_command_prints_raw_and_luck_side_by_side(tmp_path, capsys):
    play_match(["bpl", "raise"], 3, seed=2, out=tmp_path / "m", duplicate=True)  # 3 deals, 6 hands
    assert (
        main(
            ["evaluate", str(tmp_path / "m"), "--method", "luck", "--seed", "4", "--samples", "50", "--json"]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    data = luck_of_folder(tmp_path / "m", seed=4, samples=50)
    assert report["hands"] == 6 and report["units"] == 3 and report["duplicate"]
    raw, adjusted = report["seats"]["bpl"]
    plain = unit_means(data.adjusted[:, 0], data.units) / data.small_bet
    assert math.isclose(adjusted["sb_per_hand"], plain.mean())
    assert math.isclose(raw["sb_per_hand"], data.raw[:, 0].sum() / 6 / data.small_bet)
    assert main(["evaluate", str(tmp_path / "m"), "--samples", "50"]) == 0
    text = capsys.readouterr().out
    assert "6 hands in 3 units" in text and "luck" in text and "raw" in text and "digest" in text
    assert len(report["value_digest"]) == 16
    assert main(["evaluate", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_hand_without_every_hole_card_or_a_corrupt_config_is_one_line(tmp_path):
    play_match(["call", "raise"], 3, seed=1, out=tmp_path / "m")
    _, record = next(read_hands(tmp_path / "m" / "hands.sqlite"))
    hidden = record._replace(holes=(UNKNOWN, UNKNOWN, *record.holes[2:]))
    with pytest.raises(ConfigError, match="needs every seat's hole cards"):
        luck_adjusted(hidden, np.random.default_rng(0))
    (tmp_path / "m" / "config.json").write_text("{not json")
    with pytest.raises(CorruptData, match="config.json is unreadable"):
        luck_of_folder(tmp_path / "m", seed=0)


def test_real_stacks_with_players_leaving_are_read_by_name(tmp_path):
    play_match(["raise", "call", "random"], 60, seed=5, out=tmp_path / "m", config=GameConfig(stack=100))
    data = luck_of_folder(tmp_path / "m", seed=0, samples=50)
    totals = json.loads((tmp_path / "m" / "summary.json").read_text())["results"]
    assert [r["total"] for r in totals] == data.raw.sum(axis=0).astype(int).tolist()
    assert np.allclose(data.adjusted.sum(axis=1), 0)
