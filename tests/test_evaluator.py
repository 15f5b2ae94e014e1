from collections import Counter
from math import comb

import numba as nb
import numpy as np
import pytest

from conftest import random_hands
from pokerlab import HandCategory, InvalidCards, best_five, category, describe, evaluate, evaluate_batch
from pokerlab.cards import format_cards, parse_cards
from pokerlab.evaluator import (
    CATEGORY_OF_RANK,
    START_KEY,
    add_card,
    hand_key,
    rank_of,
    seven_card_rank_counts,
)
from pokerlab.handclass import NUM_CLASSES, reference_rank

SEVEN_CARD_CATEGORY_COUNTS = {
    HandCategory.STRAIGHT_FLUSH: 41_584,
    HandCategory.FOUR_OF_A_KIND: 224_848,
    HandCategory.FULL_HOUSE: 3_473_184,
    HandCategory.FLUSH: 4_047_644,
    HandCategory.STRAIGHT: 6_180_020,
    HandCategory.THREE_OF_A_KIND: 6_461_620,
    HandCategory.TWO_PAIR: 31_433_400,
    HandCategory.ONE_PAIR: 58_627_800,
    HandCategory.HIGH_CARD: 23_294_460,
}
FIVE_CARD_CATEGORY_COUNTS = {
    HandCategory.STRAIGHT_FLUSH: 40,
    HandCategory.FOUR_OF_A_KIND: 624,
    HandCategory.FULL_HOUSE: 3_744,
    HandCategory.FLUSH: 5_108,
    HandCategory.STRAIGHT: 10_200,
    HandCategory.THREE_OF_A_KIND: 54_912,
    HandCategory.TWO_PAIR: 123_552,
    HandCategory.ONE_PAIR: 1_098_240,
    HandCategory.HIGH_CARD: 1_302_540,
}


def test_every_seven_card_hand_by_category():
    counts = seven_card_rank_counts()
    assert counts.sum() == comb(52, 7) == 133_784_560
    by_category = np.bincount(CATEGORY_OF_RANK[1:], weights=counts[1:], minlength=9)
    assert {HandCategory(i): int(n) for i, n in enumerate(by_category)} == SEVEN_CARD_CATEGORY_COUNTS
    # a 7-card hand can never be ranked as the worst 5-card hands (no 7 cards hold only 7-5-4-3-2)
    assert counts[1] == 0 and (counts > 0).sum() == 4824


@nb.njit(cache=True)
def _all_five_card_hands():
    out = np.empty((2_598_960, 5), dtype=np.uint8)
    i = 0
    for a in range(48):
        for b in range(a + 1, 49):
            for c in range(b + 1, 50):
                for d in range(c + 1, 51):
                    for e in range(d + 1, 52):
                        out[i, 0], out[i, 1], out[i, 2], out[i, 3], out[i, 4] = a, b, c, d, e
                        i += 1
    return out


def test_every_five_card_hand():
    ranks = evaluate_batch(_all_five_card_hands())
    assert len(np.unique(ranks)) == NUM_CLASSES
    by_category = Counter(HandCategory(int(c)) for c in CATEGORY_OF_RANK[ranks])
    assert by_category == FIVE_CARD_CATEGORY_COUNTS


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_scalar_and_reference_agree(rng, k):
    hands = random_hands(rng, 3000, k)
    batch = evaluate_batch(hands)
    assert batch.dtype == np.int32
    for row, r in zip(hands, batch, strict=True):
        codes = row.tolist()
        assert r == evaluate(codes) == reference_rank(codes)


def test_differential_against_phevaluator(rng):
    """1,200,000 random hands order and tie exactly as phevaluator (whose rank 1 is the best)."""
    pheval = pytest.importorskip("phevaluator._pheval")
    by_size = {5: pheval.evaluate_5cards, 6: pheval.evaluate_6cards, 7: pheval.evaluate_7cards}
    for k, theirs in by_size.items():
        hands = random_hands(rng, 400_000, k)
        ours = evaluate_batch(hands)
        expected = np.array([NUM_CLASSES + 1 - theirs(*h) for h in hands.tolist()])
        mismatch = np.flatnonzero(ours != expected)
        assert mismatch.size == 0, f"{k} cards: {format_cards(hands[mismatch[0]])}"


def test_differential_against_eval7(rng):
    """Pairwise order of random 7-card hands agrees with eval7 (a different rank scale)."""
    eval7 = pytest.importorskip("eval7")
    hands = random_hands(rng, 100_000, 7)
    cards = [eval7.Card(s) for s in format_cards(range(52)).split()]
    theirs = np.array([eval7.evaluate([cards[c] for c in h]) for h in hands.tolist()])
    ours = evaluate_batch(hands)
    a, b = ours[:-1], ours[1:]
    ta, tb = theirs[:-1], theirs[1:]
    assert np.array_equal(np.sign(a - b), np.sign(ta - tb))


@nb.njit(cache=True)
def _board_then_holes(board, holes):
    """Rank hole pairs on one board with the incremental kernels: the board key is built once."""
    key, mask = hand_key(board)
    out = np.empty(holes.shape[0], dtype=np.int32)
    for i in range(holes.shape[0]):
        k, m = add_card(key, mask, holes[i, 0])
        k, m = add_card(k, m, holes[i, 1])
        out[i] = rank_of(k, m)
    return out


def test_incremental_kernels_match_reference(rng):
    for _ in range(30):
        cards = rng.permutation(52).astype(np.uint8)
        board, holes = cards[:5], cards[5:51].reshape(23, 2)
        got = _board_then_holes(board, holes)
        want = [reference_rank(board.tolist() + h.tolist()) for h in holes]
        assert got.tolist() == want
    assert int(hand_key(np.array([], dtype=np.uint8))[0]) == int(START_KEY)


def test_named_hands():
    assert evaluate("As Ks Qs Js Ts 2c 3d") == NUM_CLASSES
    assert describe(evaluate("Kh Kd Ks 5c 5h 2d 3c")).description == "Full House, Kings full of Fives"
    assert describe(evaluate("Ah 2s 3c 4d 5h 9c Jd")).description == "Straight, Five high"
    assert describe(evaluate("5d 4d 3d 2d Ad Kc Kh")).description == "Straight Flush, Five high"
    assert category(evaluate("2c 2d 2h 2s 3c")) == HandCategory.FOUR_OF_A_KIND
    assert evaluate("Ah 2s 3c 4d 5h") < evaluate("2h 3s 4c 5d 6h")
    # a flush beside three of a kind: the flush plays
    assert category(evaluate("Ah 9h 5h 3h 2h 2c 2d")) == HandCategory.FLUSH
    assert best_five("Kh Kd Ks 5c 5h 2d 3c") == parse_cards("Kh Kd Ks 5c 5h")
    assert sorted(best_five("As Ks Qs Js Ts 2c 3d")) == sorted(parse_cards("As Ks Qs Js Ts"))


def test_bad_input_is_reported():
    with pytest.raises(InvalidCards, match="5, 6 or 7"):
        evaluate("As Ks Qs Js")
    with pytest.raises(InvalidCards, match="appears twice"):
        evaluate("As Ks Qs Js As")
    with pytest.raises(InvalidCards, match="row 1 .* repeats"):
        evaluate_batch(np.array([[0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5, 5]]))
    with pytest.raises(InvalidCards, match="row 1 .* repeats"):
        evaluate_batch(np.array([[0, 1, 2, 3, 4], [9, 9, 2, 3, 4]], dtype=np.uint8))
    with pytest.raises(InvalidCards, match="outside 0..51"):
        evaluate_batch(np.array([[0, 1, 2, 3, 52]], dtype=np.uint8))
    with pytest.raises(InvalidCards, match="outside 0..51"):
        evaluate_batch(np.array([[0, 1, 2, 3, -1]]))
    with pytest.raises(InvalidCards, match="shape"):
        evaluate_batch(np.zeros((3, 4), dtype=np.uint8))
    with pytest.raises(InvalidCards, match="dtype"):
        evaluate_batch(np.zeros((3, 5)))
    with pytest.raises(InvalidCards, match="1..7462"):
        describe(0)
    assert evaluate_batch(np.zeros((0, 7), dtype=np.uint8)).shape == (0,)
    with pytest.raises(InvalidCards, match="out must be"):
        evaluate_batch(np.arange(7)[None], out=np.empty(2, dtype=np.int32))


def test_batch_into_a_given_array(rng):
    hands = random_hands(rng, 1000, 7)
    out = np.zeros(1000, dtype=np.int32)
    assert evaluate_batch(hands, out=out) is out
    assert np.array_equal(out, [evaluate(h.tolist()) for h in hands])
