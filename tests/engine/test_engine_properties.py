"""Invariants of the engine over random hands (hypothesis): chips, legality, termination, hidden cards."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerlab.engine import BOARD_SIZE, RAISE, GameConfig, HandState, hand_end, hand_start, seat_view
from pokerlab.errors import IllegalAction

# Longest possible hand with the cap: 4 rounds x (10 players x 5 decisions).
MAX_ACTIONS = 200

hands = st.fixed_dictionaries(
    {
        "n": st.integers(2, 10),
        "seed": st.integers(0, 2**32 - 1),
        "stack": st.one_of(st.none(), st.integers(1, 200)),
        "no_cap": st.booleans(),
        "blind_bet": st.booleans(),
    }
)


def random_hand(n, seed, stack, no_cap, blind_bet):
    rng = np.random.default_rng(seed)
    config = GameConfig(
        stack=stack, no_cap_heads_up=no_cap and stack is not None, blind_counts_as_bet=blind_bet
    )
    cards = rng.permutation(52).tolist()
    stacks = None if stack is None else rng.integers(1, stack + 1, n).tolist()
    return rng, HandState(config, cards[: 2 * n], cards[2 * n : 2 * n + 5], stacks, n=n)


@settings(max_examples=300, deadline=None)
@given(hands)
def test_chips_conserved_and_hand_ends(h):
    rng, s = random_hand(**h)
    start = [st + c for st, c in zip(s.stacks, s.committed, strict=True)]
    for _ in range(MAX_ACTIONS):
        if s.is_over:
            break
        legal = s.legal_actions()
        s.act(legal[rng.integers(len(legal))])
        assert all(x >= 0 for x in s.stacks)
        assert sum(s.stacks) + s.pot == sum(start)
    assert s.is_over
    assert sum(s.nets) == 0
    assert all(-net <= chips for net, chips in zip(s.nets, start, strict=True))


@settings(max_examples=200, deadline=None)
@given(hands)
def test_only_legal_actions_are_accepted(h):
    rng, s = random_hand(**h)
    while not s.is_over:
        legal = s.legal_actions()
        for a in (0, 1, 2, 3, -1):
            if a not in legal:
                before = (s.copy().actions, s.bets[:], s.actor)
                try:
                    s.act(a)
                except IllegalAction:
                    assert (s.actions, s.bets, s.actor) == before
                else:
                    raise AssertionError(f"illegal action {a} accepted; legal {legal}")
        s.act(legal[rng.integers(len(legal))])
    assert s.legal_actions() == ()


def _twin(s: HandState, p: int, rng) -> HandState:
    """The hand `s` with every card position p may not see now swapped for other cards: other positions'
    hole cards (but those shown down at the end) and the board not dealt yet; same actions."""
    shown = set(q for q, c in hand_end(s, p).shown.items()) if s.is_over else set()
    fixed = {2 * p, 2 * p + 1} | {i for q in shown for i in (2 * q, 2 * q + 1)}
    dealt = BOARD_SIZE[s.round]
    holes, runout = list(s.holes), list(s.runout)
    hidden = [i for i in range(len(holes)) if i not in fixed]
    visible = {holes[i] for i in fixed} | set(runout[:dealt])
    pool = [c for c in rng.permutation(52).tolist() if c not in visible]
    for i in hidden:
        holes[i] = pool.pop()
    for i in range(dealt, len(runout)):
        runout[i] = pool.pop()
    stacks = [st + c for st, c in zip(s.stacks, s.committed, strict=True)]
    twin = HandState(s.config, holes, runout, stacks, s.n)
    for record in s.actions:
        twin.act(record.action)
    return twin


@settings(max_examples=200, deadline=None)
@given(hands)
def test_views_do_not_change_with_cards_a_seat_may_not_see(h):
    """Information hiding: a seat's start, views and end are the same whatever the cards it may not see.
    (Where a showdown settles the pot, the twin keeps the shown cards, so the nets stay the same.)"""
    rng, s = random_hand(**h)
    while True:
        for p in range(s.n):
            twin = _twin(s, p, rng)
            assert seat_view(twin, p, config=s.config) == seat_view(s, p, config=s.config)
            assert hand_start(twin, p, config=s.config) == hand_start(s, p, config=s.config)
            if s.is_over:
                assert hand_end(twin, p) == hand_end(s, p)
        if s.is_over:
            break
        legal = s.legal_actions()
        s.act(legal[rng.integers(len(legal))])


def test_information_hiding_check_can_fail():
    """The twin test above fails on a view that leaks: a view that carried the whole deck would differ."""
    rng = np.random.default_rng(3)
    _, s = random_hand(3, 5, None, False, True)
    twin = _twin(s, 0, rng)
    assert twin.holes[2:] != s.holes[2:] and twin.holes[:2] == s.holes[:2]
    assert (seat_view(twin, 0, config=s.config), twin.holes) != (seat_view(s, 0, config=s.config), s.holes)


def test_views_are_read_only_and_hold_a_private_config():
    _, s = random_hand(3, 7, None, False, True)
    view = seat_view(s, s.actor)
    with pytest.raises(AttributeError):
        view.hole = (0, 1)
    object.__setattr__(view.config, "max_bets", 10**9)  # a tampering agent changes only its own copy
    assert s.config.max_bets == 4 and view.config is not s.config


@settings(max_examples=100, deadline=None)
@given(hands)
def test_copy_then_step_matches_original(h):
    rng, s = random_hand(**h)
    while not s.is_over:
        legal = s.legal_actions()
        a = legal[rng.integers(len(legal))]
        t = s.copy()
        t.act(a)
        s.act(a)
        for name in ("actions", "bets", "stacks", "actor", "round", "need", "acted"):
            assert getattr(t, name) == getattr(s, name)
    assert RAISE not in s.legal_actions()


@settings(max_examples=150, deadline=None)
@given(hands)
def test_lazy_view_fields_match_the_state(h):
    """bets, committed, stacks and folded, computed from the records when read, equal the engine's own."""
    rng, s = random_hand(**h)
    while not s.is_over:
        v = seat_view(s, s.actor)
        assert v.bets == tuple(s.bets) and v.committed == tuple(s.committed) and sum(v.committed) == v.pot
        assert v.folded == s.folds() and v.active_players == s.folds().count(False)
        assert v.stacks == (None if s.config.stack is None else tuple(s.stacks))
        legal = s.legal_actions()
        s.act(legal[rng.integers(len(legal))])
