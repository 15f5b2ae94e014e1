"""The exact best response to card-ignoring strategies: the fast kernels against the plain recursion over the
engine's tree on small decks, the equity kernel against one comparison at a time, and (slow) Johanson et al.
(2011) Table 1 on the ACPC heads-up limit game."""

import json

import numpy as np
import pytest

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.cards import parse_cards
from pokerlab.engine import GameConfig
from pokerlab.errors import ConfigError
from pokerlab.evaluation.best_response import (
    FixedStrategy,
    _compile,
    _walk,
    _walk_block,
    board_equities,
    exact_best_response,
    reference_best_response,
    reference_equities,
)
from pokerlab.evaluation.commands import GAMES, _cache_key
from pokerlab.interfaces.acpc.gamedef import load_gamedef
from pokerlab.interfaces.cli import main

#: Queens, kings and aces of three suits: nine cards, the fewest a heads-up hand can use; the deck is
#: symmetric under the six renamings of clubs, diamonds and hearts, so the kernels' suit symmetry is used.
NINE = parse_cards("Qc Qd Qh Kc Kd Kh Ac Ad Ah")


def test_parse_and_rules_of_a_fixed_strategy():
    mix = FixedStrategy.parse("fold=0.2, call=0.5,raise=0.3")
    assert mix.triple() == (0.2, 0.5, 0.3) and mix.name == "fold=0.2,call=0.5,raise=0.3"
    assert FixedStrategy.parse("raise").name == "raise" and FixedStrategy.parse("Call").triple() == (0, 1, 0)
    # a fold when checking is free is a check; a raise under the cap is a call
    assert mix.probabilities((FOLD, CALL, RAISE), to_call=0) == {FOLD: 0.0, CALL: 0.7, RAISE: 0.3}
    assert mix.probabilities((FOLD, CALL), to_call=10) == {FOLD: 0.2, CALL: 0.8}
    for bad, words in (
        ("check", "fold, call, raise or a mix"),
        ("call=x", "must be a number"),
        ("call=0.5", "add up to 1"),
        ("call=1.5,fold=-0.5", "lie in [0, 1]"),
    ):
        with pytest.raises(ConfigError, match=words.replace("[", r"\[")):
            FixedStrategy.parse(bad)


@pytest.mark.parametrize("board", ["2c 7d Jh Qs Ac", "5h 6h 7h 8h Kd", "Ts Td Tc 9s 9d"])
def test_equity_kernel_matches_one_comparison_at_a_time(board):
    cards = parse_cards(board)
    deck = [c for c in range(52) if c % 4 != 3 or c in cards or c // 4 > 8]  # ~43 cards: keep it quick
    expected = reference_equities(cards, deck)
    got = board_equities(cards, deck)
    live = len(deck) - 5
    assert len(expected) == len(got) == live * (live - 1) // 2
    assert got == expected


def test_kernel_matches_the_plain_recursion_on_a_small_deck():
    config = GameConfig(max_raises=0)  # one bet a round, no raise: the plain recursion takes seconds
    strategy = FixedStrategy(fold=0.2, call=0.5, raise_=0.3)
    (result,) = exact_best_response([strategy], config, deck=NINE)
    expected = [reference_best_response(strategy, config, NINE, seat) for seat in (0, 1)]
    assert result.chips_by_position == pytest.approx(expected, abs=1e-12)


def test_always_fold_concedes_the_blinds():
    (result,) = exact_best_response([FixedStrategy(fold=1.0)], deck=NINE)
    assert result.chips_by_position == (5.0, 10.0)  # the button's small blind; the big blind's 10
    assert result.mbb_per_game == 750.0


@pytest.mark.reproduction
def test_kernel_matches_the_plain_recursion_with_raises():
    config = GameConfig(max_raises=1)
    strategy = FixedStrategy(fold=0.2, call=0.4, raise_=0.4)
    (result,) = exact_best_response([strategy], config, deck=NINE)
    expected = [reference_best_response(strategy, config, NINE, seat) for seat in (0, 1)]
    assert result.chips_by_position == pytest.approx(expected, abs=1e-12)


def test_refuses_real_stacks_and_tiny_decks():
    with pytest.raises(ConfigError, match="unlimited-bankroll"):
        exact_best_response([FixedStrategy(call=1.0)], GameConfig(stack=1000))
    for uncapped in (GameConfig(max_raises=None), GameConfig(no_cap_heads_up=True)):
        with pytest.raises(ConfigError, match="needs a cap on the raises"):
            exact_best_response([FixedStrategy(call=1.0)], uncapped, deck=NINE)
    with pytest.raises(ConfigError, match="at least 9 cards"):
        exact_best_response([FixedStrategy(call=1.0)], deck=NINE[:8])


def test_the_games_are_acpcs_heads_up_limit_game():
    acpc = load_gamedef("holdem.limit.2p.reverse_blinds").to_config()
    assert GAMES["acpc"] == acpc == GAMES["ours"]


def test_cli_bad_strategy_is_one_line(capsys):
    assert main(["exploit", "--exact", "check"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "fold, call, raise or a mix like call=0.5,raise=0.5" in err


def test_cli_reads_a_figure_from_the_cache(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    row = {"strategy": "call", "mbb_per_game": 1.5, "chips_as_big_blind": 0.0, "chips_as_button": 0.0}
    (tmp_path / "pokerlab").mkdir()
    (tmp_path / "pokerlab" / "exact-best-response.json").write_text(
        json.dumps({_cache_key(GameConfig(), "call"): row})
    )
    assert main(["exploit", "--exact", "call", "--json", "--progress"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["results"] == [row]
    assert "from the cache" in captured.err


@pytest.mark.reproduction
def test_johanson_2011_table_1(tmp_path, monkeypatch, capsys):
    """Always-fold 750, always-call 1,163.48, always-raise 3,697.69, 50/50 call-raise 2,406.55 mbb/g
    (Johanson et al. 2011, Table 1), in ACPC's game (our default game); a few minutes on two cores."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    args = ["exploit", "--json", "--no-progress"]
    for name in ("fold", "call", "raise", "call=0.5,raise=0.5"):
        args += ["--exact", name]
    assert main(args) == 0
    rows = json.loads(capsys.readouterr().out)["results"]
    figures = [round(row["mbb_per_game"], 2) for row in rows]
    assert figures == [750.0, 1163.48, 3697.69, 2406.55]
    # the cache answers the same figures at once
    assert main([*args, "--game", "ours"]) == 0
    assert json.loads(capsys.readouterr().out)["results"] == rows


def test_board_equities_counts_every_opponent():
    deck = list(range(52))
    got = board_equities(parse_cards("2c 7d Jh Qs Ac"), deck)
    assert len(got) == 1081 and sum(got.values()) == 1081 * 990  # each pair's 2 points shared out
    assert max(got.values()) <= 2 * 990 and min(got.values()) >= 0


def test_block_walk_matches_the_walk_one_holding_at_a_time(rng):
    """The turn programs of the full game for two strategies, under random next-round values."""
    jobs = [
        (seat, FixedStrategy.parse(name))
        for name in ("call=0.5,raise=0.5", "fold=0.1,raise=0.9")
        for seat in (0, 1)
    ]
    turn = _compile(GameConfig(), jobs)[2].arrays()
    n_next = max(turn[6]) + 1
    cont = rng.normal(size=(10, n_next)) * 50
    rows = np.array([7, 2, 9, 0, 4])
    vals = np.repeat(turn[5][:, None], len(rows), axis=1)
    out = np.empty((len(rows), len(turn[7])))
    _walk_block(*turn, rows, cont, vals, out)
    for b, row in enumerate(rows):
        expected = np.empty(len(turn[7]))
        _walk(*turn, cont[row], 0.0, turn[5].copy(), expected)
        assert out[b] == pytest.approx(expected, abs=1e-9)
