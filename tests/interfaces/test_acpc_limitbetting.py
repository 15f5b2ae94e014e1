"""The lean follower of limit betting (`LimitBetting`) against our engine, the oracle, at every prefix."""

from __future__ import annotations

import random

import pytest
from tests.interfaces.acpc_golden import DATA, GOLDEN

from pokerlab.actions import LETTER_ACTIONS
from pokerlab.engine import GameConfig, HandState
from pokerlab.engine.state import betting_string
from pokerlab.interfaces.acpc.gamedef import load_gamedef
from pokerlab.interfaces.acpc.limitbetting import LimitBetting, supports

CONFIGS = (
    GameConfig(),
    GameConfig(small_bet=2, big_bet=5, small_blind=1, big_blind=2, max_raises=4),
    GameConfig(small_bet=10, small_blind=10, big_blind=10, blind_counts_as_bet=False),
    GameConfig(small_bet=10, small_blind=5, big_blind=15, max_raises=None),
    GameConfig(small_bet=4, small_blind=0, big_blind=3, max_raises=0),
)


def _same(lean: LimitBetting, state: HandState, where: str) -> None:
    """The lean follower says what the engine says: turn, legal actions, round, chips in, pot."""
    got = (lean.actor, lean.legal_actions(), min(lean.round, 4), lean.committed, lean.pot)
    want = (state.actor, state.legal_actions(), state.round, state.committed, state.pot)
    assert got == want, where


def _engine(config: GameConfig, players: int) -> HandState:
    deck = random.Random(players).sample(range(52), 2 * players + 5)
    return HandState(config, deck[: 2 * players], deck[2 * players :])


@pytest.mark.parametrize("players", [2, 3, 6])
@pytest.mark.parametrize("config", CONFIGS, ids=range(len(CONFIGS)))
def test_lean_betting_agrees_with_the_engine_at_every_prefix_of_random_hands(config, players):
    rng = random.Random(1000 * players + config.small_bet)
    for hand in range(40):
        state, lean = _engine(config, players), LimitBetting(config, players)
        _same(lean, state, "the blinds")
        while state.actor >= 0:
            state.act(rng.choice(state.legal_actions()))
            betting = betting_string(state.actions, min(state.round, 3))
            if rng.random() < 0.6:  # a line now, or a later one with several new letters
                assert lean.extend(betting), betting
                _same(lean, state, f"hand {hand}: {betting!r}")
        assert lean.extend(betting_string(state.actions, min(state.round, 3)))
        _same(lean, state, f"hand {hand} at its end")


def test_lean_betting_refuses_what_breaks_the_rules():
    config = GameConfig(max_raises=1)  # the blind and one raise: a third bet breaks the cap
    assert not LimitBetting(config, 2).extend("rr")
    assert not LimitBetting(config, 2).extend("cx")  # no such letter
    assert not LimitBetting(config, 2).extend("cc")  # the round closed after the check, no '/' yet
    assert not LimitBetting(config, 2).extend("c/")  # a '/' before the round closed
    assert not LimitBetting(config, 2).extend("f/c")  # an action after the hand is over
    assert not LimitBetting(config, 2).extend("cc/cc/cc/cc/c")
    assert LimitBetting(config, 2).extend("cc/cc/cc/cc")


def test_stacks_and_per_player_caps_are_left_to_the_engine():
    assert supports(GameConfig())
    assert not supports(GameConfig(stack=200))
    assert not supports(GameConfig(max_raises=None, max_raises_per_player=3))
    assert not supports(GameConfig(no_cap_heads_up=True))


@pytest.mark.parametrize("match", GOLDEN, ids=[m.name for m in GOLDEN])
def test_lean_betting_agrees_with_the_engine_on_the_golden_logs(match):
    config = load_gamedef(DATA / f"{match.game}.game").to_config()
    n = len(match.bots)
    lines = [s for s in (DATA / f"{match.name}.log").read_text().splitlines() if s.startswith("STATE:")]
    assert len(lines) == match.hands
    for line in lines:
        betting = line.split(":")[2]
        state, lean = _engine(config, n), LimitBetting(config, n)
        for i, letter in enumerate(betting):
            if letter != "/":
                state.act(LETTER_ACTIONS[letter])
            if i + 1 == len(betting) or betting[i + 1] != "/" or state.actor < 0:
                assert lean.extend(betting[: i + 1]), line
                _same(lean, state, line)
        assert lean.actor == -1 and state.is_over, line
