import numpy as np
import pytest

import pokerlab
from pokerlab.analysis.potential import hand_potential
from pokerlab.analysis.reference import reference_potential
from pokerlab.cards import parse_cards
from pokerlab.errors import ConfigError, InvalidCards

TABLE_2 = [[449_005, 3_211, 169_504], [0, 8_370, 540], [91_981, 1_036, 346_543]]


def random_situation(rng: np.random.Generator, board_size: int) -> tuple[list[int], list[int]]:
    cards = rng.permutation(52)[: 2 + board_size].tolist()
    return cards[:2], cards[2:]


def sparse_weights(rng: np.random.Generator, keep: int) -> np.ndarray:
    """Random weights k/16 (k = 1..16, exact in any order of addition) on `keep` random holdings, 0 elsewhere
    (few holdings keep the plain oracle quick)."""
    weights = np.zeros(1326)
    weights[rng.choice(1326, keep, replace=False)] = rng.integers(1, 17, keep) / 16
    return weights


@pytest.mark.parametrize("flop", ["3h 4c Jh", "3c 4h Jh", "3h 4h Jc"])
def test_seed000_table_2_every_count(flop):
    result = pokerlab.hand_potential("Ad Qc", flop)
    two = result.two_cards
    assert two.table() == TABLE_2
    assert two.row_sums.tolist() == [621_720, 8_910, 439_560] == [628 * 990, 9 * 990, 444 * 990]
    assert two.column_sums.tolist() == [540_986, 12_617, 516_587]
    assert two.counts.sum() == 1_070_190 == 1081 * 990
    assert round(two.positive_potential, 3) == 0.208 and round(two.negative_potential, 3) == 0.274
    one = result.one_card
    assert one.counts.sum() == 1081 * 45 == 48_645
    assert one.row_sums.tolist() == [628 * 45, 9 * 45, 444 * 45]
    assert round(one.positive_potential, 3) == 0.108 and round(one.negative_potential, 3) == 0.145


def test_ppot_npot_formulas_on_table_2():
    two = hand_potential("Ad Qc", "3h 4c Jh").two_cards
    assert two.positive_potential == (91_981 + 1_036 / 2 + 0 / 2) / (439_560 + 8_910 / 2)
    assert two.negative_potential == (169_504 + 3_211 / 2 + 540 / 2) / (621_720 + 8_910 / 2)


@pytest.mark.parametrize("board_size", [3, 4])
def test_one_card_kernel_matches_plain_enumeration(rng, board_size):
    hole, board = random_situation(rng, board_size)
    assert hand_potential(hole, board).one_card.table() == reference_potential(hole, board, 1)
    weights = sparse_weights(rng, 300)
    got = hand_potential(hole, board, weights).one_card
    assert got.table() == reference_potential(hole, board, 1, weights)


def test_two_card_kernel_matches_plain_enumeration(rng):
    for _ in range(2):
        hole, board = random_situation(rng, 3)
        weights = sparse_weights(rng, 25)
        got = hand_potential(hole, board, weights).two_cards
        assert got.table() == reference_potential(hole, board, 2, weights)
        ones = np.where(weights > 0, 1.0, 0.0)
        expected = reference_potential(hole, board, 2, ones)
        assert hand_potential(hole, board, ones).two_cards.table() == expected


@pytest.mark.slow
def test_two_card_kernel_matches_plain_enumeration_unweighted():
    assert reference_potential("Ad Qc", "3h 4c Jh", 2) == TABLE_2


def test_all_ones_weights_equal_unweighted(rng):
    for board_size in (3, 4):
        hole, board = random_situation(rng, board_size)
        plain, ones = hand_potential(hole, board), hand_potential(hole, board, np.ones(1326))
        for a, b in ((plain.two_cards, ones.two_cards), (plain.one_card, ones.one_card)):
            assert (a is None and b is None) or a.table() == [[int(x) for x in row] for row in b.table()]
        scaled = hand_potential(hole, board, np.full(1326, 0.3)).one_card
        assert scaled.positive_potential == pytest.approx(plain.one_card.positive_potential)
        assert scaled.negative_potential == pytest.approx(plain.one_card.negative_potential)


def test_streets_and_to_dict():
    turn = hand_potential("Ad Qc", "3h 4c Jh 5s")
    # 1,035 subcases x 44 river cards (Papp 1998 §5.3 prints 43,560 = 990 x 44, the river count)
    assert turn.two_cards is None and turn.one_card.counts.sum() == 1035 * 44 == 45_540
    river = hand_potential("Ad Qc", "3h 4c Jh 5s 9d")
    assert river.two_cards is None and river.one_card is None
    assert river.to_dict() == {
        "ppot2": None,
        "npot2": None,
        "potential2": None,
        "ppot1": None,
        "npot1": None,
        "potential1": None,
    }
    flop = hand_potential("Ad Qc", "3h 4c Jh").to_dict()
    assert flop["potential2"]["table"] == TABLE_2 and flop["potential2"]["cards_to_come"] == 2
    assert flop["potential2"]["row_sums"] == [621_720, 8_910, 439_560]
    assert flop["ppot1"] == flop["potential1"]["ppot"]


def test_bad_input_is_reported():
    with pytest.raises(InvalidCards, match="3, 4 or 5"):
        hand_potential("Ad Qc", "3h 4c")
    with pytest.raises(ConfigError, match="shape"):
        hand_potential("Ad Qc", "3h 4c Jh", np.ones(1327))


def test_cached_counts_combine_to_the_plain_kernel_to_the_last_bit(rng):
    from pokerlab.analysis.potential import (
        COUNTS_CACHE,
        CountsCache,
        combine_counts,
        holding_counts,
        one_card_holding_counts,
        potential_counts,
        rank_table,
        two_card_holding_counts,
    )

    cache = CountsCache(maxsize=3)
    for case in range(12):
        cards = rng.permutation(52)[: 2 + 3 + case % 2].astype(np.uint8)
        hole, board = cards[:2], cards[2:]
        weights = rng.random(1326) * (rng.random(1326) < 0.7)  # zeros are skipped as in the kernel
        weights[rng.integers(1326)] = 0.0
        for cards_to_come in (1, 2) if board.size == 3 else (1,):
            plain = potential_counts(hole, board, weights, cards_to_come)
            rows, counts = holding_counts(hole, board, cards_to_come)
            assert np.array_equal(combine_counts(rows, counts, weights), plain)
            if cards_to_come == 2:
                by_sets = two_card_holding_counts(hole, board, rank_table(board, 4))
            else:
                by_sets = one_card_holding_counts(hole, board, rank_table(board, 3))
            assert np.array_equal(by_sets[0], rows) and np.array_equal(by_sets[1], counts)
            again = cache.counts(hole[::-1], board[::-1], cards_to_come)  # any card order, the same entry
            assert cache.counts(hole, board, cards_to_come) is again
            assert (rows >= 0).sum() == (52 - 2 - board.size) * (51 - 2 - board.size) // 2
    assert len(cache) == 3 and cache.hits == cache.misses == 18
    before = COUNTS_CACHE.enabled
    try:
        COUNTS_CACHE.enabled = False
        off = hand_potential(hole, board, weights).one_card.counts
        COUNTS_CACHE.enabled = True
        assert np.array_equal(hand_potential(hole, board, weights).one_card.counts, off)
    finally:
        COUNTS_CACHE.enabled = before


def test_counts_by_rank_table_equal_the_plain_kernel_on_flush_and_paired_boards():
    """The rank table by card ranks stands in for the evaluator only where no flush can come; monotone,
    two-tone, paired and trips flops (and turns) with suited and offsuit holes check both paths against the
    oracle."""
    from pokerlab.analysis.potential import (
        holding_counts,
        one_card_holding_counts,
        rank_table,
        two_card_holding_counts,
    )

    for hole, flop in (
        ("Ah Kh", "2h 7h Qh"),  # monotone, our flush made
        ("Ac Kd", "2h 7h Qh"),  # monotone, we have none
        ("9s 8s", "Ts Js 2d"),  # two-tone, straight-flush draw
        ("Ad Ac", "Ah 7c 7d"),  # paired, suits everywhere
        ("5c 4d", "6s 6h 6d"),  # trips
        ("Qd 3c", "2s 9h Kd"),  # rainbow
        ("9d 8d", "Ts Js 2s"),  # monotone, and a turn of four spades (As)
        ("Kc 4c", "Kd 4d 9c"),  # two pair, two-tone: full houses beside the flushes
    ):
        hole_codes, flop_codes = np.array(parse_cards(hole), np.uint8), np.array(parse_cards(flop), np.uint8)
        turn = np.append(
            flop_codes, [c for c in (51, 47, 43) if c not in hole_codes and c not in flop_codes][0]
        )
        for board, kernel in (
            (flop_codes, two_card_holding_counts),
            (flop_codes, one_card_holding_counts),
            (turn.astype(np.uint8), one_card_holding_counts),
        ):
            to_come = 2 if kernel is two_card_holding_counts else 1
            rows, counts = kernel(hole_codes, board, rank_table(board, to_come + 2))
            plain_rows, plain_counts = holding_counts(hole_codes, board, to_come)
            assert np.array_equal(rows, plain_rows), (hole, flop, board.size)
            assert np.array_equal(counts, plain_counts), (hole, flop, board.size)


def test_potentials_in_python_floats_equal_the_numpy_formula(rng):
    """Ppot and Npot from Python floats equal the numpy formula (Billings et al. 1998 §4.2), to the bit."""
    from pokerlab.analysis.potential import AHEAD, BEHIND, TIED, PotentialTable

    for _ in range(500):
        counts = rng.random((3, 3)) * rng.integers(1, 10**6) * (rng.random((3, 3)) < 0.8)
        table, rows = PotentialTable(counts, 2, True), counts.sum(axis=1)
        gained = counts[BEHIND, AHEAD] + counts[BEHIND, TIED] / 2 + counts[TIED, AHEAD] / 2
        lost = counts[AHEAD, BEHIND] + counts[AHEAD, TIED] / 2 + counts[TIED, BEHIND] / 2
        below, above = rows[BEHIND] + rows[TIED] / 2, rows[AHEAD] + rows[TIED] / 2
        assert table.positive_potential == (float(gained / below) if below > 0 else 0.0)
        assert table.negative_potential == (float(lost / above) if above > 0 else 0.0)
