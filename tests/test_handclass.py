from collections import Counter

from pokerlab.cards import parse_cards
from pokerlab.handclass import (
    NUM_CLASSES,
    HandCategory,
    all_classes,
    classify_five,
    describe_class,
    reference_rank,
)


def test_class_counts_per_category():
    counts = Counter(HandCategory(c[0]) for c in all_classes())
    assert len(all_classes()) == NUM_CLASSES == 7462
    assert counts == {
        HandCategory.STRAIGHT_FLUSH: 10,
        HandCategory.FOUR_OF_A_KIND: 156,
        HandCategory.FULL_HOUSE: 156,
        HandCategory.FLUSH: 1277,
        HandCategory.STRAIGHT: 10,
        HandCategory.THREE_OF_A_KIND: 858,
        HandCategory.TWO_PAIR: 858,
        HandCategory.ONE_PAIR: 2860,
        HandCategory.HIGH_CARD: 1277,
    }


def rank(text):
    return reference_rank(parse_cards(text))


def test_wheels_are_the_lowest_straights():
    assert rank("Ah 2s 3c 4d 5h") < rank("2h 3s 4c 5d 6h") < rank("Th Js Qc Kd Ah")
    assert rank("Ah 2h 3h 4h 5h") < rank("2h 3h 4h 5h 6h") < rank("Th Jh Qh Kh Ah")
    assert rank("Ah 2h 3h 4h 5h") > rank("Kh Kd Ks Kc Ad")  # the steel wheel still beats four kings
    assert classify_five(parse_cards("Ah 2s 3c 4d 5h")) == (HandCategory.STRAIGHT, (3,))
    assert rank("Ah Ks 3c 4d 5h") < rank("Ah 2s 3c 4d 5h")  # no wrap-around straight
    assert classify_five(parse_cards("Qh Ks Ac 2d 3h"))[0] == HandCategory.HIGH_CARD


def test_extremes_and_kickers():
    assert rank("7c 5d 4h 3s 2c") == 1
    assert rank("Ts Js Qs Ks As") == NUM_CLASSES
    assert rank("Ah Ad Kc Qd 3s") > rank("Ah Ad Kc Jd Ts")
    assert rank("Kh Kd 2c 2d As") > rank("Kh Kd 2c 2d Qs")
    assert rank("Kh Kd 2c 2d 3s") < rank("Kh Kd 3c 3d 2s")
    assert rank("2c 2d 2h As Ks Qd") == rank("2c 2d 2h As Ks Jd")  # sixth card plays no part


def test_descriptions():
    d = lambda t: describe_class(classify_five(parse_cards(t)))  # noqa: E731
    assert d("Kh Kd Ks 5c 5h") == "Full House, Kings full of Fives"
    assert d("Ah 2s 3c 4d 5h") == "Straight, Five high"
    assert d("Ah 2h 3h 4h 5h") == "Straight Flush, Five high"
    assert d("Ts Js Qs Ks As") == "Royal Flush"
    assert d("6h 6d 6s 2c 3h") == "Three of a Kind, Sixes"
    assert d("Qh Qd 6s 6c 3h") == "Two Pair, Queens and Sixes"
    assert d("9h 9d 6s 2c 3h") == "Pair of Nines"
    assert d("Ah Jh 8h 4h 2h") == "Flush, Ace high"
    assert d("7c 5d 4h 3s 2c") == "High Card, Seven"
    assert d("7c 7d 7h 7s Ac") == "Four of a Kind, Sevens with Ace kicker"
    assert HandCategory.THREE_OF_A_KIND.label == "Three of a Kind"
