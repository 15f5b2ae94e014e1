import numpy as np
import pytest

from pokerlab import Deck, InvalidCards, card_mask, format_card, format_cards, parse_card, parse_cards
from pokerlab.cards import CARD_MASKS, card_rank, card_suit, make_card, mask_cards


def test_codes_follow_rank_times_four_plus_suit():
    assert parse_card("2c") == 0
    assert parse_card("2d") == 1
    assert parse_card("3c") == 4
    assert parse_card("As") == 51
    assert [format_card(c) for c in range(52)] == [r + s for r in "23456789TJQKA" for s in "cdhs"]
    assert all(make_card(card_rank(c), card_suit(c)) == c for c in range(52))


@pytest.mark.parametrize("text", ["Ad Qc", "AdQc", "ad qc", "AD,QC", "[Ad, Qc]", "A♦ Q♣", " Ad\tQc "])
def test_parse_forms(text):
    assert parse_cards(text) == [parse_card("Ad"), parse_card("Qc")]


def test_ten_spelled_10_and_mixed_inputs():
    assert parse_cards("10h 9h") == parse_cards("Th9h")
    assert parse_cards("10h10s") == parse_cards("Th Ts")
    assert parse_cards(["As", 0, np.int64(5)]) == [51, 0, 5]
    assert format_cards(parse_cards("Ad Qc")) == "Ad Qc"


@pytest.mark.parametrize(
    "bad, piece", [("Ax", "Ax"), ("1c", "1c"), ("Ad Q", "Q"), ("AdQ", "Q"), ("Kc 11h", "11"), ("Zz", "Zz")]
)
def test_malformed_cards_name_the_bad_text(bad, piece):
    with pytest.raises(InvalidCards, match=piece):
        parse_cards(bad)


def test_repeated_and_out_of_range():
    with pytest.raises(InvalidCards, match="'Ad' appears twice"):
        parse_cards("Ad Qc ad")
    with pytest.raises(InvalidCards, match="52"):
        parse_cards([52])
    with pytest.raises(InvalidCards, match="-1"):
        parse_cards([-1])
    with pytest.raises(InvalidCards):
        parse_cards([True])
    with pytest.raises(InvalidCards):
        format_card(52)
    with pytest.raises(InvalidCards):
        make_card(13, 0)


def test_masks_put_each_suit_in_its_own_16_bit_lane():
    assert card_mask([parse_card("2c")]) == 1
    assert card_mask([parse_card("As")]) == 1 << (48 + 12)
    codes = parse_cards("Ah Kh 2c 7d")
    mask = card_mask(codes)
    assert bin(mask).count("1") == 4
    assert mask_cards(mask) == sorted(codes)
    assert all(int(CARD_MASKS[c]) == card_mask([c]) for c in range(52))


def test_deck_is_reproducible_and_complete():
    a = Deck(np.random.default_rng(7)).deal(52)
    b = Deck(np.random.default_rng(7)).deal(52)
    c = Deck(np.random.default_rng(8)).deal(52)
    assert a == b != c
    assert sorted(a) == list(range(52))


def test_deck_dead_cards_and_exhaustion():
    dead = parse_cards("As Kd")
    deck = Deck(np.random.default_rng(1), dead=dead)
    assert len(deck) == 50
    cards = deck.deal(50)
    assert not set(dead) & set(cards)
    with pytest.raises(InvalidCards, match="0 remain"):
        deck.deal(1)
    deck.shuffle()
    assert deck.remaining == 50
    with pytest.raises(TypeError):
        Deck(7)  # type: ignore[arg-type]
