"""The luck-adjusted fitness of the evolving player (``fitness_signal = "luck_adjusted"``,
pokerlab.programs.barone_while.luck; docs/barone-while.md §14): a hand worked by hand, the shipped flop table
against its plain reference, the wiring into the credit, and the variance it removes."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab import parse_cards
from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.analysis.strength import hand_strength
from pokerlab.arena import play_match
from pokerlab.engine import GameConfig, HandState, hand_end, hand_start
from pokerlab.errors import ConfigError
from pokerlab.programs.barone_while import EvolvingAgent, EvolvingConfig
from pokerlab.programs.barone_while import agent as agent_module
from pokerlab.programs.barone_while.epochs import play_epochs
from pokerlab.programs.barone_while.luck import board_luck, expected_x, flop_means, flop_table

SEGMENTS = ("tight-passive", "loose-aggressive")


def test_worked_hand():
    """Three players, blinds 5/10, us (AdQc) on the button. Pre-flop all call: 30 in the pot when the flop
    3h 4c Jh comes, two opponents in. Flop: check, bet 10, we call, the small blind folds: 50 in the pot
    when the turn 9s comes, one opponent in. Turn: bet 20, we fold (net -20); no river. HS of AdQc on the
    flop is (628 + 9/2) / 1081 (Billings et al. 1998 §4.2's counts), so the luck is
    30 (HS_flop^2 - E[HS^2 over flops]) + 50 (HS_turn - mean over the 47 turn cards of HS)."""
    hole = tuple(parse_cards("Ad Qc"))
    holes = parse_cards("7s 2d Kh Ks") + list(hole)
    runout = parse_cards("3h 4c Jh 9s 5d")
    state = HandState(GameConfig(), holes, runout, [1000, 1000, 1000])
    for actor, action in ((2, CALL), (0, CALL), (1, CALL), (0, CALL), (1, RAISE), (2, CALL), (0, FOLD)):
        assert state.actor == actor
        state.act(action)
    for actor, action in ((1, RAISE), (2, FOLD)):
        assert state.actor == actor and state.round == 2
        state.act(action)
    end, start = hand_end(state, 2), hand_start(state, 2)
    assert end.nets[2] == -20 and len(end.board) == 4

    hs_flop = (628 + 9 / 2) / 1081
    assert hand_strength(hole, runout[:3]).hand_strength == pytest.approx(hs_flop)
    flop_mean = flop_means(*hole)[2]
    turn = hand_strength(hole, runout[:4]).hand_strength
    seen = set(hole) | set(runout[:3])
    turns = [hand_strength(hole, [*runout[:3], c]).hand_strength for c in range(52) if c not in seen]
    assert len(turns) == 47
    by_hand = 30 * (hs_flop**2 - flop_mean) + 50 * (turn - np.mean(turns))
    luck = board_luck(start.hole, 2, start.players, start.blinds, end.actions, end.board)
    assert luck == pytest.approx(by_hand, abs=1e-9)
    # the small blind folded on the flop: its luck is the flop's alone, 30 (HS^2 - E[HS^2]) for 7s 2d
    sb = tuple(holes[:2])
    sb_luck = 30 * (hand_strength(sb, runout[:3]).hand_strength ** 2 - flop_means(*sb)[2])
    assert board_luck(sb, 0, 3, start.blinds, end.actions, end.board) == pytest.approx(sb_luck, abs=1e-9)


def test_no_luck_before_the_flop():
    """A hand that ends before the flop, or a player who folded before it, has no board luck."""
    holes = parse_cards("7s 2d Kh Ks Ad Qc")
    state = HandState(GameConfig(), holes, parse_cards("3h 4c Jh 9s 5d"), [1000, 1000, 1000])
    for action in (RAISE, FOLD, FOLD):
        state.act(action)
    end, start = hand_end(state, 2), hand_start(state, 2)
    assert end.board == () and board_luck(start.hole, 2, 3, start.blinds, end.actions, end.board) == 0.0


def test_shipped_flop_table_is_the_plain_average():
    """`flop_table` (shipped) equals `flop_means` of holes of the type, any suits (two types: AKs, 72o)."""
    table = flop_table()
    assert len(table) == 169
    for cards, name in (("Ah Kh", "AKs"), ("7d 2c", "72o")):
        assert np.allclose(table[name], flop_means(*parse_cards(cards)), atol=1e-12)
    assert table["AA"][0] == 1.0 and 0.0 < table["72o"][9] < table["AA"][9] < 1.0
    # the next card's expectation is exact: the corrections of every turn card average to zero
    hole, flop = tuple(parse_cards("Ad Qc")), tuple(parse_cards("3h 4c Jh"))
    mean = expected_x(hole, flop, 2)
    cards = [c for c in range(52) if c not in set(hole) | set(flop)]
    assert np.mean(
        [hand_strength(hole, [*flop, c]).hand_strength ** 2 - mean for c in cards]
    ) == pytest.approx(0.0, abs=1e-12)


def test_the_switch_is_validated():
    assert EvolvingConfig().fitness_signal == "chips"
    with pytest.raises(ConfigError, match="fitness_signal"):
        EvolvingConfig(fitness_signal="luck")


def test_luck_adjusted_credit_subtracts_the_luck(monkeypatch):
    """With a luck of 7 chips in every hand, the luck-adjusted player credits the same members in the
    same hands as the chips player (same seeds, no reproduction yet) with 7 chips less each time."""
    cubes = []
    for signal in ("chips", "luck_adjusted"):
        monkeypatch.setattr(agent_module, "board_luck", lambda *args: 7.0)
        player = EvolvingAgent(EvolvingConfig(fitness_signal=signal), init_seed=3)
        play_match([player, "tight-passive", "loose-aggressive"], 60, seed=5)
        cubes.append(player.cube)
    chips, adjusted = cubes
    assert chips.credit_count.sum() > 0 and np.array_equal(chips.credit_count, adjusted.credit_count)
    assert np.allclose(adjusted.credit_sum, chips.credit_sum - 7.0 * chips.credit_count)


class _Logged(EvolvingAgent):
    """A frozen evolving player that logs each hand's net and board luck by (epoch, hand of the epoch)."""

    def begin_hand(self, start):
        super().begin_hand(start)
        self.epoch += start.hand <= self.last
        self.last, self.last_start = start.hand, start

    def end_hand(self, end):
        s = self.last_start
        luck = board_luck(s.hole, end.position, s.players, s.blinds, end.actions, end.board)
        self.log[self.epoch, s.hand] = (end.nets[end.position], luck)
        super().end_hand(end)


def _hands(start: str) -> dict:
    player = _Logged(segments=SEGMENTS, start=start, init_seed=1)
    player.log, player.epoch, player.last = {}, -1, 10**9
    player.freeze()
    play_epochs(player, "mixed", 8, seed=2)
    return player.log


def test_luck_adjustment_shrinks_the_noise_of_a_comparison():
    """Two fixed candidates (player A, and a random hypercube) at the mixed table on the same cards and
    seats (seed 2, 8 epochs, the hands both were dealt): the variance of the per-hand difference of their
    results falls once the board's luck is taken out (measured: 0.81 of the chips variance; 0.84 and 0.95
    with seeds 3 and 4), and the mean difference moves by less than its standard error."""
    logs = [_hands(start) for start in ("player_a", "random")]
    keys = sorted(set(logs[0]) & set(logs[1]))
    a, b = (np.array([log[k] for k in keys]) for log in logs)
    chips = a[:, 0] - b[:, 0]
    adjusted = (a[:, 0] - a[:, 1]) - (b[:, 0] - b[:, 1])
    ratio = adjusted.var() / chips.var()
    assert len(keys) > 650 and ratio < 0.85, ratio
    assert abs(adjusted.mean() - chips.mean()) < np.sqrt(chips.var() / len(keys))
