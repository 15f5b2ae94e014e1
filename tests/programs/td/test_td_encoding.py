"""TD-Hold'em's inputs against the hand-worked vectors of docs/learning-spec-td.md §A.4 and the tests of §C.1
(TD-1 .. TD-6, TD-14)."""

from dataclasses import replace

import numpy as np
import pytest

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.analysis.income_rate import income_rate
from pokerlab.cards import parse_cards
from pokerlab.engine import GameConfig, HandState, seat_view
from pokerlab.errors import ConfigError
from pokerlab.programs.td.config import PRESETS, TDConfig
from pokerlab.programs.td.encoding import (
    Encoder,
    betting_block,
    betting_stats,
    encode,
    hand_features,
    table_features,
    unary,
)

FAITHFUL = PRESETS["faithful"]


def bits(text: str) -> list[float]:
    return [float(c) for c in text.replace(" ", "")]


def test_td1_unary():
    assert [unary(v) for v in (0, 0.49, 0.5, 2.8, 6.5)] == [
        bits(b) for b in ("00000", "00000", "10000", "11100", "11111")
    ]
    assert unary(2.5) == bits("11100") and unary(2.5, rounding="half_even") == bits("11000")
    assert unary(-1) == bits("00000") and unary(3, slots=6) == bits("111000")


WORKED = [  # §A.4 E1-E4: hole, board, H, T, hand 25-vector, table 25-vector
    ("9s 9c", "", (1, 4.0, 0, 0, 4.0), (0, 0, 0, 0, 0), "10000 11110 00000 00000 11110", "0" * 25),
    (
        "Ah 8h", "9h 8c 2c", (1, 3.5, 1, 0, 3.6), (0, 0, 0, 0, 8 / 3),
        "10000 11110 10000 00000 11110", "00000 00000 00000 00000 11100",
    ),
    (
        "7h 6h", "5h 4c Qh Kd", (0, 0, 2, 2, 41 / 12), (0, 0, 0, 0, 3.75),
        "00000 00000 11000 11000 11100", "00000 00000 00000 00000 11110",
    ),
    (
        "Kd Ks", "Kh 7c 7d 2s 2h", (4, 3.875, 0, 0, 50 / 14), (2, 1.75, 0, 0, 2.6),
        "11110 11110 00000 00000 11110", "11000 11000 00000 00000 11100",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("hole", "board", "h", "t", "hand_bits", "table_bits"), WORKED)
def test_td2_worked_examples(hole, board, h, t, hand_bits, table_bits):
    hole, board = parse_cards(hole), parse_cards(board)
    assert hand_features(hole, board, FAITHFUL) == pytest.approx(h, abs=1e-12)
    assert table_features(board, FAITHFUL) == pytest.approx(t, abs=1e-12)
    cards = Encoder(FAITHFUL).cards(hole, board)
    assert cards.tolist() == bits(hand_bits) + bits(table_bits)


EDGES = [  # §A.4 further edge vectors: hole, board, H, T
    ("Ah Kh", "", (0, 0, 0, 0, 6.25), (0, 0, 0, 0, 0)),
    ("Js Tc", "9d 8h 3s", (0, 0, 0, 3, 3.6), (0, 0, 0, 0, 17 / 6)),
    ("Jd 9c", "Ts 7c 3h", (0, 0, 0, 2, 3.5), (0, 0, 0, 0, 17 / 6)),
    ("As 3d", "2c 4h 5s", (0, 0, 0, 5, 2.3), (0, 0, 0, 0, 4 / 3)),
    ("Qc 2d", "Ts 9s 8s 7s", (0, 0, 2, 2, 3.5), (0, 0, 4, 3, 3.75)),
    ("4d 4c", "9s 9h 9d", (3, 19 / 6, 0, 0, 3.0), (2, 4.0, 0, 0, 4.0)),
    ("8h 7h", "Kh Qh 2c 3h 9d", (0, 0, 5, 0, 47 / 14), (0, 0, 1, 0, 3.4)),
]


@pytest.mark.parametrize(("hole", "board", "h", "t"), EDGES)
def test_td3_edge_rows_raw_values(hole, board, h, t):
    hole, board = parse_cards(hole), parse_cards(board)
    assert hand_features(hole, board, FAITHFUL) == pytest.approx(h, abs=1e-12)
    assert table_features(board, FAITHFUL) == pytest.approx(t, abs=1e-12)


def test_replicated_mean_switch_and_river_fix():
    all_cards = replace(FAITHFUL, replicated_mean="all_cards")
    assert hand_features(parse_cards("4d 4c"), parse_cards("9s 9h 9d"), all_cards)[1] == pytest.approx(3.0)
    river = parse_cards("5c 6d 7h 8s Kc")  # four consecutive on the river: 0 as the seed lists, 4 fixed
    assert table_features(river, FAITHFUL)[3] == 0
    assert table_features(river, replace(FAITHFUL, table_river_straight_fix=True))[3] == 4
    unhalved = replace(FAITHFUL, mean_halved=False)
    assert hand_features(parse_cards("9s 9c"), [], unhalved)[4] == 8.0


def bets_example():
    """§A.4's bets example: pre-flop the button raises, the big blind re-raises, the button calls; flop:
    big blind bets, button raises, big blind calls; turn: big blind checks, button bets."""
    state = HandState(GameConfig(), parse_cards("2c 7d Ah Kh"), parse_cards("Qs Jd 3c 8h 4s"))
    for action in (RAISE, RAISE, CALL, RAISE, RAISE, CALL, CALL, RAISE):
        state.act(action)
    assert state.actor == 0  # the big blind (heads-up the button is position 1)
    return seat_view(state, 0)


def test_td4_bets_example():
    view = bets_example()
    block = betting_block(view, FAITHFUL)
    assert block[:20].tolist() == bits("00000 10000 10000 00000")
    assert block[20:40].tolist() == bits("11000 11000 11000 11000")
    assert block[40:42].tolist() == [0.0, 1.0]
    assert betting_block(view, FAITHFUL, CALL)[:20].tolist() == bits("00000 10000 10000 00000")
    assert betting_block(view, FAITHFUL, RAISE)[:20].tolist() == bits("10000 10000 10000 10000")
    assert view.committed[0] == 50  # folding here ends the hand at R = -50, "lose small"
    assert FOLD in view.legal_actions


def test_count_rule_calls_only():
    """Hand-worked: pre-flop the button completes, the big blind checks; flop: check, bet, raise, call;
    turn: check, bet, call; on the river the big blind's earlier rounds hold 1 raise and 3 checks + 1 call
    (O4 = 1/4 with checks as calls, 1/1 without), the button's 2 bets and 2 calls of a positive amount."""
    state = HandState(GameConfig(), parse_cards("2c 7d Ah Kh"), parse_cards("Qs Jd 3c 8h 4s"))
    for action in (CALL, CALL, CALL, RAISE, RAISE, CALL, CALL, RAISE, CALL):
        state.act(action)
    view = seat_view(state, 0)
    assert view.round == 3 and view.to_call == 0
    assert betting_stats(view.actions, 0, 3)[1] == (1.0, 2.0, 1.0, 0.25)
    assert betting_stats(view.actions, 0, 3, count_rule="calls_only")[1] == (1.0, 2.0, 1.0, 1.0)
    calls_only = replace(FAITHFUL, count_rule="calls_only")
    assert betting_block(view, FAITHFUL)[35:40].tolist() == bits("00000")
    assert betting_block(view, calls_only)[35:40].tolist() == bits("10000")
    # candidate actions on the river: a check adds no call under "calls_only", a bet is one own raise
    assert betting_stats(view.actions, 0, 3, CALL, "calls_only", 0)[0] == (0.0, 0.0, 0.0, 0.0)
    assert betting_stats(view.actions, 0, 3, RAISE, "calls_only", 0)[0] == (1.0, 0.0, 0.0, 1.0)


def test_extras_count_the_candidate_chips():
    view = bets_example()  # committed: big blind 50, button 70; a raise puts in 20 + 20
    config = replace(FAITHFUL, extra_inputs=True)
    extras = betting_block(view, config)[42:]
    assert extras.tolist() == bits("0010") + unary(50 / 40, 6) + unary(70 / 40, 6)
    assert betting_block(view, config, RAISE)[42:].tolist() == bits("0010") + unary(90 / 40, 6) + unary(
        70 / 40, 6
    )


def test_td5_lengths_and_td6_preflop_blocks():
    state = HandState(GameConfig(), parse_cards("As Kd 7h 2c"), parse_cards("Qs Jd 3c 8h 4s"))
    state.act(RAISE)
    view = seat_view(state, 0)
    faithful = encode(view, FAITHFUL)
    assert faithful.shape == (92,)
    assert not faithful[25:50].any() and not faithful[70:90].any()
    assert encode(view, replace(FAITHFUL, extra_inputs=True)).shape == (108,)
    repaired = encode(view, PRESETS["repaired"])
    assert repaired.shape == (120,) and PRESETS["repaired"].input_size == 120
    equity = (income_rate("As Kd", players=2) / 1000 + 1) / 2  # pre-flop HS_1 and equity: the IR2 equity
    assert repaired[108] == repaired[114] == pytest.approx(equity)
    assert repaired[109:114].tolist() == unary(5 * equity)
    with_ids = replace(PRESETS["repaired"], opponent_ids=3)
    assert encode(view, with_ids, opponent=2)[-3:].tolist() == [0.0, 0.0, 1.0]


def random_view(rng, holes, runout):
    """Play random legal actions into the hand and return the view of whoever acts at a random point."""
    state = HandState(GameConfig(), holes, runout)
    steps = int(rng.integers(0, 8))
    for _ in range(steps):
        legal = [a for a in state.legal_actions() if a != FOLD]
        state.act(int(rng.choice(legal)))
        if state.actor < 0:
            return None
    return seat_view(state, state.actor)


def test_td14_information_hiding():
    """A player's inputs do not change when only the opponent's hole cards change (every block on)."""
    config = replace(PRESETS["repaired"], table_river_straight_fix=True)
    rng = np.random.default_rng(5)
    checked = 0
    while checked < 40:
        cards = rng.permutation(52)[:11].tolist()
        seed = int(rng.integers(1 << 30))
        first = random_view(np.random.default_rng(seed), cards[:4], cards[4:9])
        if first is None:
            continue
        p = first.position
        other = list(cards[:4])
        other[2 * (1 - p) : 2 * (1 - p) + 2] = cards[9:11]  # the opponent gets two unused cards
        second = random_view(np.random.default_rng(seed), other, cards[4:9])
        assert second.position == p and second.actions == first.actions
        for extra in (None, CALL, RAISE):
            assert np.array_equal(encode(first, config, extra), encode(second, config, extra))
        checked += 1


def test_config_errors():
    with pytest.raises(
        Exception, match="TDConfig.head must be one of 'class', 'value', 'action_value'; got 'x'"
    ):
        TDConfig(head="x")
    with pytest.raises(ConfigError, match="TDConfig.hidden must be an integer >= 1, got True"):
        TDConfig(hidden=True)
    with pytest.raises(ConfigError, match=r"TDConfig.lam must be a number in \[0, 1\], got 1.5"):
        TDConfig(lam=1.5)
