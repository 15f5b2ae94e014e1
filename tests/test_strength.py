import numpy as np
import pytest

import pokerlab
from pokerlab.analysis.reference import reference_strength
from pokerlab.analysis.strength import (
    field_hand_strength,
    hand_strength,
    holding_strengths,
    product_hand_strength,
)
from pokerlab.errors import ConfigError, InvalidCards
from pokerlab.holdings import HOLDING_CARDS, field_array, holding_index, live_holdings


def random_situation(rng: np.random.Generator, board_size: int) -> tuple[list[int], list[int]]:
    cards = rng.permutation(52)[: 2 + board_size].tolist()
    return cards[:2], cards[2:]


def sparse_weights(rng: np.random.Generator, keep: float) -> np.ndarray:
    """Random weights k/16 (k = 1..16) on a fraction `keep` of the holdings, 0 elsewhere: multiples of 1/16
    add up exactly in any order, so weighted counts can be compared exactly."""
    return np.where(rng.random(1326) < keep, rng.integers(1, 17, 1326) / 16, 0.0)


def test_paper_example_seed000_section_4_2():
    result = pokerlab.hand_strength("Ad Qc", "3h 4c Jh")
    assert (result.ahead, result.tied, result.behind) == (628, 9, 444)
    assert round(result.hand_strength, 3) == 0.585
    assert round(hand_strength("Ad Qc", "3h 4c Jh", opponents=5).hs_n, 3) == 0.069
    assert result.to_dict() == {
        "ahead": 628,
        "tied": 9,
        "behind": 444,
        "hand_strength": 632.5 / 1081,
        "opponents": 1,
        "hs_n": 632.5 / 1081,
    }


def test_loki_spec_vector():
    result = hand_strength("Ah 8h", "9h 8c 2c", opponents=3)
    assert (result.ahead, result.tied, result.behind) == (903, 6, 172)
    assert round(result.hand_strength, 4) == 0.8381 and round(result.hs_n, 4) == 0.5887


@pytest.mark.parametrize("board_size", [3, 4, 5])
def test_kernel_matches_plain_enumeration(rng, board_size):
    for _ in range(4):
        hole, board = random_situation(rng, board_size)
        got = hand_strength(hole, board)
        assert [got.ahead, got.tied, got.behind] == reference_strength(hole, board)
        weights = sparse_weights(rng, 0.7)
        got = hand_strength(hole, board, weights)
        assert [got.ahead, got.tied, got.behind] == reference_strength(hole, board, weights)
        assert got.weighted and got.to_dict()["ahead"] == got.ahead


def test_all_ones_weights_equal_unweighted(rng):
    for board_size in (3, 4, 5):
        hole, board = random_situation(rng, board_size)
        plain, ones = hand_strength(hole, board), hand_strength(hole, board, np.ones(1326))
        assert (plain.ahead, plain.tied, plain.behind) == (ones.ahead, ones.tied, ones.behind)
        scaled = hand_strength(hole, board, np.full(1326, 0.25))
        assert scaled.hand_strength == pytest.approx(plain.hand_strength)


def test_weights_on_dead_holdings_do_not_count(rng):
    hole, board = random_situation(rng, 3)
    weights = rng.random(1326)
    dead_changed = np.where(live_holdings(hole + board), weights, 1e6)
    a, b = hand_strength(hole, board, weights), hand_strength(hole, board, dead_changed)
    assert (a.ahead, a.tied, a.behind) == (b.ahead, b.tied, b.behind)


def test_field_array_and_product_forms(rng):
    hole, board = random_situation(rng, 3)
    tables = [rng.random(1326) for _ in range(3)]
    field = field_hand_strength(hole, board, tables)
    direct = hand_strength(hole, board, field_array(tables, hole + board), opponents=3)
    assert field.opponents == 3 and field.hs_n == pytest.approx(direct.hs_n)
    assert field.hs_n == pytest.approx(field.hand_strength**3)
    singles = [hand_strength(hole, board, t).hand_strength for t in tables]
    assert product_hand_strength(hole, board, tables) == pytest.approx(np.prod(singles))
    # with one opponent, every form is plain HS against that opponent's weights
    assert field_hand_strength(hole, board, tables[:1]).hs_n == pytest.approx(singles[0])
    with pytest.raises(ConfigError):
        product_hand_strength(hole, board, [])


@pytest.mark.parametrize("board_size", [3, 4, 5])
def test_holding_strengths_match_one_holding_at_a_time(rng, board_size):
    _, board = random_situation(rng, board_size)
    for weights in (None, sparse_weights(rng, 0.5)):
        every = holding_strengths(board, weights)
        live = live_holdings(board)
        assert np.isnan(every[~live]).all()
        for i in np.flatnonzero(live)[::7]:
            expected = hand_strength(HOLDING_CARDS[i].tolist(), board, weights).hand_strength
            assert every[i] == expected
    assert holding_strengths("3h 4c Jh")[holding_index("Ad Qc")] == 632.5 / 1081


@pytest.mark.parametrize(
    ("hole", "board", "message"),
    [
        ("Ad", "3h 4c Jh", "2 cards"),
        ("Ad Qc Kc", "3h 4c Jh", "2 cards"),
        ("Ad Qc", "3h 4c", "3, 4 or 5"),
        ("Ad Qc", "3h 4c Jh 5s 6s 7s", "3, 4 or 5"),
        ("Ad Qc", "3h 4c Qc", "twice"),
        ("Ad Qz", "3h 4c Jh", "Qz"),
    ],
)
def test_bad_cards_are_reported(hole, board, message):
    with pytest.raises(InvalidCards, match=message):
        hand_strength(hole, board)


def test_bad_opponents_and_weights_are_reported():
    with pytest.raises(ConfigError, match="opponents"):
        hand_strength("Ad Qc", "3h 4c Jh", opponents=0)
    with pytest.raises(ConfigError, match="shape"):
        hand_strength("Ad Qc", "3h 4c Jh", np.ones(10))
    only_dead = np.zeros(1326)
    only_dead[holding_index("Ad Qc")] = 1.0
    with pytest.raises(ConfigError, match="no weight"):
        hand_strength("Ad Qc", "3h 4c Jh", only_dead)
    with pytest.raises(InvalidCards, match="3, 4 or 5"):
        holding_strengths("3h 4c")


def test_uniform_strength_and_type_of_codes_equal_their_parsing_references():
    from pokerlab.analysis.starting_hands import hand_type, type_of_codes
    from pokerlab.analysis.strength import uniform_strength

    rng = np.random.default_rng(12)
    for k in range(60):
        cards = [int(c) for c in rng.permutation(52)[:7]]
        board = cards[2 : 2 + (3, 4, 5)[k % 3]]
        assert uniform_strength(cards[:2], board) == hand_strength(cards[:2], board).hand_strength
        assert type_of_codes(cards[0], cards[1]) == hand_type(cards[:2])


def test_holding_strengths_of_every_holding_against_real_weights(rng):
    """The rank-walk kernel against `hand_strength` one holding at a time, every live holding, with weights
    that do not add up exactly (so equal to rounding) and uniform ones (exactly)."""
    for board_size in (3, 4, 5):
        _, board = random_situation(rng, board_size)
        weights = rng.random(1326) * (rng.random(1326) < 0.8)
        for table, exact in ((weights, False), (None, True)):
            every = holding_strengths(board, table)
            for i in np.flatnonzero(live_holdings(board)):
                expected = hand_strength(HOLDING_CARDS[i].tolist(), board, table).hand_strength
                assert every[i] == expected if exact else abs(every[i] - expected) < 1e-12


def test_shared_board_values_equal_the_checked_references(rng):
    """`board_values` (engine codes, unchecked, cached) and `postflop_values` from the checked
    `holding_strengths` and `crude_potentials`, to the last bit."""
    from pokerlab.analysis.crude_potential import crude_potentials
    from pokerlab.analysis.strength import holding_strengths
    from pokerlab.modeling.holding_values import board_values, postflop_values

    for size in (3, 4, 5, 3, 4):
        board = tuple(int(c) for c in rng.permutation(52)[:size])
        strength, potential = board_values(board)
        plain_strength, plain_potential = holding_strengths(board), crude_potentials(board)
        assert np.array_equal(strength, plain_strength, equal_nan=True)
        assert np.array_equal(potential, plain_potential, equal_nan=True)
        expected = plain_strength + (1.0 - plain_strength) * plain_potential
        assert np.array_equal(postflop_values(board), expected, equal_nan=True)
