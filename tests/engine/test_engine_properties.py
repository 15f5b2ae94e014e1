"""Invariants of the engine over random hands (hypothesis): chips, legality, termination, hidden cards."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerlab.engine import RAISE, GameConfig, HandState, seat_view
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
                before = (s.copy().history, s.bets[:], s.actor)
                try:
                    s.act(a)
                except IllegalAction:
                    assert (s.history, s.bets, s.actor) == before
                else:
                    raise AssertionError(f"illegal action {a} accepted; legal {legal}")
        s.act(legal[rng.integers(len(legal))])
    assert s.legal_actions() == ()


@settings(max_examples=200, deadline=None)
@given(hands)
def test_views_never_show_unshown_cards(h):
    rng, s = random_hand(**h)
    while True:
        for p in range(s.n):
            v = seat_view(s, p)
            others = {c for q in range(s.n) if q != p for c in s.holes[2 * q : 2 * q + 2]}
            shown = {c for q, cards in v.shown.items() if q != p for c in cards}
            visible = set(v.hole) | set(v.board) | shown
            leaked = others & (set(v.hole) | set(v.board))
            assert not leaked
            for q in v.shown:
                assert s.is_over and s.showdown and not s.folded(q)
            assert visible <= set(s.holes) | set(s.board)
        if s.is_over:
            break
        legal = s.legal_actions()
        s.act(legal[rng.integers(len(legal))])


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
        for name in ("history", "bets", "stacks", "actor", "round", "need", "acted"):
            assert getattr(t, name) == getattr(s, name)
    assert RAISE not in s.legal_actions()
