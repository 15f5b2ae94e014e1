"""One test per rule of the game (docs/getting-started.md), on hands with chosen cards and actions."""

import pytest

from pokerlab.cards import parse_cards
from pokerlab.engine import (
    CALL,
    FOLD,
    RAISE,
    BettingFacts,
    GameConfig,
    HandState,
    hand_end,
    max_loss,
    replay,
    seat_view,
)
from pokerlab.engine.config import UNLIMITED_STACK
from pokerlab.errors import ConfigError, IllegalAction, InvalidCards

C = GameConfig()


def deal(n, holes=None, board="2c 7d 9h Jd Kc"):
    """Hole cards for n positions (default: distinct low-value cards) and a board."""
    if holes is None:
        spare = [c for c in range(52) if c not in parse_cards(board)]
        hole_codes = spare[-2 * n :]
    else:
        hole_codes = parse_cards(holes)
    return hole_codes, parse_cards(board)


def play(state, actions):
    for a in actions:
        state.act(a)
    return state


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"small_bet": 0}, "small_bet must be positive"),
        ({"small_bet": 10.5}, "integer"),
        ({"small_blind": 20}, "small_blind <= big_blind"),
        ({"max_raises": -1}, "max_raises"),
        ({"stack": 0}, "stack"),
        ({"no_cap_heads_up": 1}, "true or false"),
        ({"max_raises_per_player": -1}, "max_raises_per_player must be >= 0"),
    ],
)
def test_config_rejects_bad_values(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        GameConfig(**kwargs)


def test_config_defaults_are_the_papers_game():
    assert (C.small_bet, C.big_bet, C.small_blind, C.big_blind, C.max_raises) == (10, 20, 5, 10, 3)
    assert C.unlimited and C.starting_stack() == UNLIMITED_STACK
    assert GameConfig.from_dict(C.to_dict()) == C
    with pytest.raises(ConfigError, match="unknown game settings"):
        GameConfig.from_dict({"ante": 1})


def test_player_count_is_checked():
    with pytest.raises(ConfigError, match="2 to 10 players"):
        HandState(C, *deal(1))
    with pytest.raises(ConfigError, match="2 to 10 players"):
        HandState(C, list(range(22)), [])


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after():
    s = HandState(C, *deal(2))
    assert s.bets == [10, 5]  # position 0 big blind, position 1 (button) small blind
    assert s.actor == 1
    play(s, [CALL, CALL])  # button completes, big blind checks
    assert s.round == 1 and s.actor == 0 and s.board == parse_cards("2c 7d 9h")
    play(s, [CALL])
    assert s.actor == 1


def test_ring_blinds_and_order():
    s = HandState(C, *deal(4))
    assert s.bets == [5, 10, 0, 0] and s.actor == 2  # left of the big blind
    play(s, [CALL, CALL, CALL, CALL])  # big blind checks its option
    assert s.round == 1 and s.actor == 0
    assert s.betting_string() == "cccc/"


def test_bet_and_three_raises_cap_big_blind_counts():
    s = HandState(C, *deal(2))
    play(s, [RAISE, RAISE, RAISE])  # 20, 30, 40 = blind + 3 raises
    assert s.max_bet == 40 and s.legal_actions() == (FOLD, CALL)
    with pytest.raises(IllegalAction, match="legal: FOLD, CALL"):
        s.act(RAISE)
    loose = HandState(GameConfig(blind_counts_as_bet=False), *deal(2))
    play(loose, [RAISE, RAISE, RAISE, RAISE])
    assert loose.max_bet == 50 and RAISE not in loose.legal_actions()


def test_flop_bets_are_small_turn_river_big():
    s = HandState(C, *deal(2))
    play(s, [CALL, CALL, RAISE])
    assert s.max_bet == 10
    play(s, [CALL, CALL, RAISE])
    assert s.round == 2 and s.max_bet == 20


def test_no_cap_heads_up_option():
    s = HandState(GameConfig(no_cap_heads_up=True), *deal(2))
    play(s, [RAISE] * 10)
    assert s.max_bet == 110 and RAISE in s.legal_actions()
    three = HandState(GameConfig(no_cap_heads_up=True), *deal(3))
    play(three, [RAISE, RAISE, RAISE])
    assert RAISE not in three.legal_actions()
    play(three, [FOLD])  # two players remain: the cap is lifted
    assert RAISE in three.legal_actions()


def test_per_player_raise_limit():
    """The seed's literal cap (LEARNING-SPEC §A.2): each player at most three bets or raises a round, no
    overall cap; the blinds are not a player's raises. Heads-up pre-flop the button (small blind) raises
    3 times and the big blind 3 times over its blind: 7 bets of 10, then only calls (hand-worked)."""
    game = GameConfig(max_raises=None, max_raises_per_player=3)
    assert GameConfig.from_dict(game.to_dict()) == game
    s = HandState(game, *deal(2))
    lefts = []
    for _ in range(6):
        assert RAISE in s.legal_actions()
        lefts.append(seat_view(s, s.actor).raises_left)
        s.act(RAISE)
    assert s.max_bet == 70 and s.actor == 1 and s.legal_actions() == (FOLD, CALL)
    assert lefts == [3, 3, 2, 2, 1, 1]
    assert [r.raises_left for r in s.actions] == lefts
    s.act(CALL)
    assert s.round == 1 and s.committed == [70, 70]
    play(s, [RAISE] * 6)  # flop: 3 bets or raises each
    assert s.legal_actions() == (FOLD, CALL) and s.max_bet == 60
    with pytest.raises(IllegalAction, match="legal: FOLD, CALL"):
        s.act(RAISE)
    both = HandState(GameConfig(max_raises=3, max_raises_per_player=1), *deal(2))
    play(both, [RAISE, RAISE])  # one raise each, the round cap not reached
    assert both.max_bet == 30 and both.legal_actions() == (FOLD, CALL)


def test_fold_allowed_when_checking_is_free():
    s = HandState(C, *deal(2))
    play(s, [CALL])
    assert s.to_call() == 0 and FOLD in s.legal_actions()
    play(s, [FOLD])
    assert s.is_over and s.nets == [-10, 10]


def test_uncontested_pot_and_uncalled_bet_returned():
    s = HandState(C, *deal(3))
    play(s, [RAISE, FOLD, FOLD])  # button raises to 20, blinds fold
    assert s.is_over and not s.showdown and s.nets == [-5, -10, 15]
    assert s.board == [] and s.shown() == [False] * 3


def test_showdown_best_hand_wins():
    holes, board = deal(2, "As Ad 3c 4h")
    s = play(HandState(C, holes, board), [CALL, CALL] + [CALL, CALL] * 3)
    assert s.showdown and s.nets == [10, -10] and s.shown() == [True, True]


def test_split_pot_odd_chip_to_first_left_of_button():
    holes, board = deal(3, "2s 3s 2h 3h 4d 5d", "Ac Kd Qh Jc Tc")  # everyone plays the broadway board
    s = HandState(C, holes, board)
    play(s, [CALL, CALL, FOLD])  # button calls, small blind completes, big blind folds its option
    play(s, [CALL, CALL] * 3)
    assert s.committed == [10, 10, 10]
    assert s.nets == [5, -10, 5]
    odd = HandState(GameConfig(small_blind=3), holes, board)
    play(odd, [CALL, FOLD, CALL] + [CALL, CALL] * 3)  # small blind folds 3: 23 chips split two ways
    assert odd.nets == [-3, 2, 1]


def test_side_pots_with_all_ins():
    holes, board = deal(3, "Ah Ad Kh Kd Qh Qd", "2c 7s 9h 3d 4c")
    config = GameConfig(stack=100)
    s = HandState(config, holes, board, stacks=[15, 35, 100])
    play(s, [RAISE, CALL, RAISE, CALL])  # button 20, sb calls all-in (15), bb raises to 30, button calls
    assert s.all_in(0) and s.round == 1
    play(s, [RAISE, CALL])  # bb bets its last 5 chips, button calls
    assert s.is_over and s.committed == [15, 35, 35]
    # aces win the main pot (45), kings the side pot (40)
    assert s.nets == [30, 5, -35]


def test_short_all_in_does_not_reopen_betting():
    holes, board = deal(3)
    s = HandState(GameConfig(stack=100), holes, board, stacks=[100, 100, 25])
    play(s, [CALL, CALL, CALL])  # limped pot, 10 each
    play(s, [RAISE, CALL, RAISE])  # flop: 10 bet, call, button all-in 15 (short raise of 5)
    assert s.all_in(2) and s.actor == 0 and s.legal_actions() == (FOLD, CALL)


def test_all_in_players_run_out_the_board():
    holes, board = deal(2, "As Ad Kh Kd")
    s = HandState(GameConfig(stack=30), holes, board)
    play(s, [RAISE, RAISE, CALL])  # 30 each: all in pre-flop
    assert s.is_over and s.round == 4 and s.betting_string() == "rrc///" and s.nets == [-30, 30]


def test_short_blind_is_all_in():
    s = HandState(GameConfig(stack=100), *deal(2), stacks=[4, 100])
    assert s.all_in(0) and s.committed == [4, 5]
    assert s.is_over and s.showdown and sum(s.nets) == 0


def test_illegal_actions_are_refused_with_the_legal_ones():
    s = HandState(C, *deal(2))
    with pytest.raises(IllegalAction, match="legal: FOLD, CALL, RAISE"):
        s.act(7)
    play(s, [FOLD])
    with pytest.raises(IllegalAction, match="over"):
        s.act(CALL)


def test_copy_is_independent():
    s = HandState(C, *deal(3))
    t = s.copy()
    play(t, [RAISE, CALL])
    assert s.actions == () and s.bets == [5, 10, 0] and t.bets == [20, 10, 20]
    assert [(r.action, r.amount, r.to_call, r.raises, r.raises_left) for r in t.actions] == [
        (RAISE, 20, 10, 1, 3),
        (CALL, 15, 15, 2, 2),
    ]


def test_view_hides_unshown_cards():
    holes, board = deal(3)
    s = HandState(C, holes, board)
    v = seat_view(s, 0)
    assert v.hole == (holes[0], holes[1]) and v.board == () and v.legal_actions == ()
    assert seat_view(s, 2).legal_actions == (FOLD, CALL, RAISE) and seat_view(s, 2).to_call == 10
    play(s, [FOLD, FOLD])
    assert hand_end(s, 1).shown == {} and hand_end(s, 1).nets == (-5, 5, 0)
    holes, board = deal(2, "As Ad 3c 4h")
    s = play(HandState(C, holes, board), [CALL, CALL] + [CALL, CALL] * 3)
    assert hand_end(s, 0).shown == {0: (holes[0], holes[1]), 1: (holes[2], holes[3])}
    assert seat_view(s, 0).betting == "cc/cc/cc/cc"


def test_replay_rejects_with_reason():
    holes, board = deal(2)
    with pytest.raises(IllegalAction, match="out of turn"):
        replay(C, [1000, 1000], holes, board, [(0, CALL)])
    with pytest.raises(IllegalAction, match="action 4.*RAISE is not allowed"):
        replay(C, [1000, 1000], holes, board, [(1, RAISE), (0, RAISE), (1, RAISE), (0, RAISE)])
    with pytest.raises(IllegalAction, match="raise to 20"):
        replay(C, [1000, 1000], holes, board, [(1, RAISE, 25)])
    with pytest.raises(IllegalAction, match="stop before"):
        replay(C, [1000, 1000], holes, board, [(1, CALL)])
    with pytest.raises(InvalidCards, match="board cards"):
        replay(C, [1000, 1000], holes, board[:2], [(1, CALL), (0, CALL)])
    with pytest.raises(InvalidCards, match="twice"):
        replay(C, [1000, 1000], holes, [holes[0]] + board[1:], [(1, FOLD)])
    with pytest.raises(InvalidCards, match="unknown"):
        checks = [(1, CALL), (0, CALL)] + [(0, CALL), (1, CALL)] * 3
        replay(C, [1000, 1000], [-1, -1] + holes[2:], board, checks)


def test_a_lone_player_who_owes_nothing_may_only_check():
    """Everyone folds to the big blind, the small blind all-in for less: the big blind may only check (a
    fold would give away its uncalled chips); the uncalled 8 go back to it (PokerKit settles the same)."""
    s = HandState(GameConfig(stack=200), list(range(10)), list(range(20, 25)), [2, 72, 65, 45, 30])
    for _ in range(3):
        s.act(FOLD)
    assert s.actor == 1 and s.legal_actions() == (CALL,)
    with pytest.raises(IllegalAction, match="FOLD is not allowed .* legal: CALL"):
        s.act(FOLD)
    s.act(CALL)
    assert s.is_over and s.committed[:2] == [2, 10] and s.nets[1] >= -2


def test_max_loss_is_the_most_one_player_can_commit():
    assert max_loss(C) == 40 + 40 + 80 + 80  # LEARNING-SPEC §A.2
    per_player = GameConfig(max_raises=None, max_raises_per_player=3)
    assert max_loss(per_player) == 70 + 60 + 120 + 120  # 7 bets pre-flop, 6 after (hand-worked above)
    assert max_loss(GameConfig(stack=100)) == 100
    with pytest.raises(ConfigError, match="unbounded"):
        max_loss(GameConfig(max_raises=None))


def test_betting_context_counts_who_is_still_to_act_once_per_round():
    """The one meaning of "opponents still to act" (`BettingContext`): active opponents who have not acted
    in this round; a raise does not count again those who acted before it."""
    s = HandState(GameConfig(), list(range(8)), list(range(10, 15)))  # four players, blinds 5 / 10
    s.act(CALL)  # position 2 calls 10
    s.act(RAISE)  # the button raises to 20
    c = seat_view(s, 0).context  # the small blind
    assert c == (0, 10, 15, 2, 2, 2, True, 45, 3, 1, False)  # only the big blind has not acted
    assert c.pot == seat_view(s, 0).pot and hash(c)  # plain, immutable values
    s.act(CALL)  # the small blind calls 15
    s.act(RAISE)  # the big blind raises to 30
    c = seat_view(s, 2).context
    assert (c.to_call, c.bets_to_call, c.opponents_to_act, c.called_bet) == (20, 2, 0, True)
    s.act(FOLD)
    s.act(CALL)
    s.act(CALL)  # the flop: three players left, none has acted yet
    c = seat_view(s, 0).context
    assert (c.round, c.pot, c.opponents_active, c.opponents_to_act, c.called_bet) == (1, 100, 2, 2, False)
    assert c.can_raise and c.bets_made == 0 and c.to_call == 0


def test_betting_facts_of_a_record_and_of_a_view_agree():
    """The context of a past decision (`BettingFacts.context_of`, as Loki-2 re-weights) is the one its
    player's view gave (in the ring game; under real stacks ``can_raise`` may differ: a record tells it from
    the cap alone)."""
    s = HandState(GameConfig(), list(range(6)), list(range(10, 15)))
    seen = []
    while s.actor >= 0:
        seen.append(seat_view(s, s.actor).context)
        s.act(RAISE if RAISE in s.legal_actions() and len(s.actions) % 3 == 0 else CALL)
    facts = BettingFacts(3, s.blinds, (10, 10, 20, 20))
    for record, context in zip(s.actions, seen, strict=True):
        assert facts.context_of(record) == context
        facts.take(record)
    assert facts.pot == s.pot
