"""DIVAT for heads-up limit hold'em (Billings & Kan 2006): each round's betting judged against a baseline
betting sequence, with hindsight of both hands.

The baseline player is deterministic, non-deceptive and ignorant of its opponent: it acts on the strength
s of its own hand against one uniformly random holding (the percentile of its pre-flop income rate,
Papp 1998, before the flop; the hand strength HS of Billings et al. 1998 after it). It bets or raises to
the k-th bet when s >= MAKE[round][k - 1]; facing a bet B into a pot P it folds when s < B / (P + B), the
defender's folding frequency of the one-street equilibrium (Billings & Kan 2006), else calls; it never
folds when checking is free. The thresholds are our choice, not the paper's tables: they change only the
variance, never the mean.

The value V(h) of a state at the end of a round is the expected net of each position if both players
followed the baseline from there on over random cards to come (a roll-out equity). DIVAT
takes, round by round, the value of what was played less the value of what the baseline would have
played from the same start:

    X = sum over rounds r of [ V(actual end of r) - V(baseline end of r) ]

V at the end of a round is the mean over the next cards of V at the start of the next, which is V of the
baseline end of that round; so u = V(baseline end of pre-flop) + X + the luck of each card, and the luck
terms have mean zero (the advantage sum of Zinkevich et al. 2006). X estimates
u - c_position, where c_position = E V(baseline end of pre-flop) is the baseline's value of the position;
c_small_blind = -c_big_blind, so over hands where each agent holds both positions equally often (a
duplicate match exactly; an ordinary heads-up match, where the button alternates, to within one hand)
the mean of X is unbiased for the mean of u.

V is the mean over ``samples`` fresh random run-outs of the cards to come, every one of them when there
are no more than ``samples`` (44 rivers after the turn, with samples >= 44). An unbiased estimate of V
from cards drawn independently of the real board keeps every luck term's mean at zero, so X stays
unbiased; the actual and the baseline ends of a round are valued on the same run-outs (common random
numbers), which keeps their difference's noise small.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import permutations
from pathlib import Path

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.analysis.income_rate import shipped_table
from pokerlab.analysis.starting_hands import type_of_codes
from pokerlab.analysis.strength import uniform_holding_strengths
from pokerlab.engine import BOARD_SIZE, RIVER, GameConfig, HandState
from pokerlab.errors import ConfigError
from pokerlab.evaluation.hindsight import HindsightHand, read_hindsight, seat_estimates
from pokerlab.evaluation.stats import SeatEstimates
from pokerlab.holdings import HOLDING_CARDS, HOLDING_INDEX, NUM_HOLDINGS

#: Run-outs per value of a state with cards to come (exact when there are no more completions).
DEFAULT_SAMPLES = 16
#: MAKE[round][k]: the strength from which the baseline bets or raises to bet level k + 1 (pre-flop the
#: big blind is level 1, so its first entry is unused). Our choice: looser, tighter and more passive
#: variants, compared on calibration seeds, moved the variance little.
MAKE = (
    (1.0, 0.60, 0.85, 0.95),
    (0.60, 0.80, 0.92, 0.97),
    (0.60, 0.80, 0.92, 0.97),
    (0.60, 0.82, 0.94, 0.98),
)


@cache
def preflop_percentiles() -> np.ndarray:
    """float[1326]: each holding's share of the holdings below it by heads-up income rate (ties half), in
    [0, 1]: the baseline's pre-flop strength."""
    table = shipped_table(2)
    rates = np.array([table[type_of_codes(int(a), int(b))] for a, b in HOLDING_CARDS], dtype=np.float64)
    ordered = np.sort(rates)
    below = np.searchsorted(ordered, rates, side="left")
    equal = np.searchsorted(ordered, rates, side="right") - below
    return (below + equal / 2) / NUM_HOLDINGS


def baseline_action(
    strength: float, round_index: int, to_call: int, pot: int, bets_made: int, legal: tuple[int, ...]
) -> int:
    """The baseline's action with hand `strength` s in [0, 1] (the module doc): fold when facing a bet B
    into pot P with s < B / (P + B); bet or raise to level k + 1 when s >= MAKE[round][k]; else check or
    call."""
    if to_call > 0 and strength < to_call / (pot + to_call):
        return FOLD
    if RAISE in legal and bets_made < len(MAKE[round_index]) and strength >= MAKE[round_index][bets_made]:
        return RAISE
    return CALL


@dataclass
class DivatHand:
    """One hand's DIVAT: X by position (chips), its part from each round (rounds x positions), and the
    sum of the corrections a decision hook returned (positions; zero without one)."""

    x: np.ndarray
    rounds: np.ndarray
    corrections: np.ndarray


#: A hook called at each decision of the hand before it is applied: (state, position, action, probabilities
#: or None, the round's values) -> a correction by position, or None.
DecisionHook = Callable[
    [HandState, int, int, "tuple[float, float, float] | None", "RoundValues"], "np.ndarray | None"
]


class RoundValues:
    """W of the states of one round of a hand: V of the baseline finishing the round from the state (or V
    of the state itself at the round's end), all on the same run-outs, drawn on first use and cached."""

    def __init__(self, divat: Divat, hand: HindsightHand, round_index: int) -> None:
        self.divat, self.hand, self.round = divat, hand, round_index
        self.runouts: list[tuple[int, ...]] = []
        self._values: dict[tuple, np.ndarray] = {}

    def __call__(self, state: HandState) -> np.ndarray:
        if not self.runouts:
            self.runouts = self.divat.runouts(self.hand, BOARD_SIZE[self.round])
        key = state.actions
        found = self._values.get(key)
        if found is None:
            end = self.divat.play_round(state) if state.actor >= 0 and state.round == self.round else state
            found = self._values[key] = self.divat.value(end, self.runouts)
        return found


class Divat:
    """The DIVAT estimator of one game (heads-up, unlimited stacks), with its random run-outs."""

    def __init__(self, config: GameConfig, seed: int, samples: int = DEFAULT_SAMPLES) -> None:
        if not config.unlimited:
            raise ConfigError(
                "DIVAT covers heads-up limit with unlimited stacks (a ring game); this game has stacks"
            )
        if not isinstance(samples, int) or samples < 1:
            raise ConfigError(f"samples must be a whole number of run-outs, 1 or more, got {samples!r}")
        self.config, self.seed, self.samples = config, seed, samples
        self._strengths: dict[tuple[int, ...], np.ndarray] = {}
        self._preflop = preflop_percentiles()

    def strength(self, state: HandState, position: int) -> float:
        """The baseline's strength of `position`'s hand on the state's board."""
        holding = HOLDING_INDEX[state.holes[2 * position], state.holes[2 * position + 1]]
        board = state.board_seen
        if not board:
            return float(self._preflop[holding])
        table = self._strengths.get(board)
        if table is None:
            table = self._strengths[board] = uniform_holding_strengths(board)
        return float(table[holding])

    def play_round(self, state: HandState) -> HandState:
        """`state` (not changed) played by the baseline to the end of its round."""
        state = state.copy()
        r = state.round
        while state.actor >= 0 and state.round == r:
            p = state.actor
            state.act(
                baseline_action(
                    self.strength(state, p),
                    r,
                    state.to_call(p),
                    state.pot,
                    state.bets_made,
                    state.legal_actions(),
                )
            )
        return state

    def value(self, end: HandState, runouts: list[tuple[int, ...]]) -> np.ndarray:
        """V of a state at the end of a round (chips by position): its nets when the hand is over, else the
        mean over `runouts` (whole boards) of the baseline playing the rest out."""
        if end.is_over:
            return np.array(end.nets, dtype=np.float64)
        total = np.zeros(end.n)
        for runout in runouts:
            state = end.copy()
            state.runout = list(runout)
            state.board_seen = tuple(runout[: BOARD_SIZE[state.round]])
            while state.actor >= 0:
                state = self.play_round(state)
            total += state.nets
        return total / len(runouts)

    def runouts(self, hand: HindsightHand, known: int) -> list[tuple[int, ...]]:
        """Boards that keep the first `known` cards of the hand's board: every completion when there are no
        more than `samples`, else `samples` random ones from the deck without both hands, drawn from
        (seed, deal, cards known): the same for every replay of a duplicate deal, so that their noise
        cancels there as the cards' luck does, and independent of the cards still to come."""
        board = hand.board[:known]
        gone = set(hand.holes) | set(board)
        deck = [c for c in range(52) if c not in gone]
        to_come = 5 - known
        count = 1
        for k in range(to_come):
            count *= len(deck) - k
        if count <= self.samples:  # every ordered run-out (a turn then a river are two rounds' cards)
            return [board + rest for rest in permutations(deck, to_come)]
        rng = np.random.default_rng([self.seed, hand.deal, known])
        picks = np.argsort(rng.random((self.samples, len(deck))), axis=1)[:, :to_come]
        cards = np.array(deck)[picks].tolist()
        return [board + tuple(row) for row in cards]

    def hand(self, hand: HindsightHand, on_decision: DecisionHook | None = None) -> DivatHand:
        """DIVAT of one heads-up hand from its hindsight record; `on_decision`'s corrections are summed
        apart (AIVAT's action tier)."""
        if hand.players != 2:
            raise ConfigError(
                f"this evaluation covers heads-up hands; hand {hand.hand} has {hand.players} players"
            )
        self._strengths.clear()
        state = hand.start(self.config)
        actions = iter(hand.actions)
        parts, corrections = np.zeros((RIVER + 1, 2)), np.zeros(2)
        while state.actor >= 0:
            r = state.round
            values = RoundValues(self, hand, r)
            baseline = self.play_round(state)
            while state.actor >= 0 and state.round == r:
                p, action, probabilities = next(actions)
                if on_decision is not None:
                    correction = on_decision(state, p, action, probabilities, values)
                    if correction is not None:
                        corrections += correction
                state.act(action)
            if not same_end(state, baseline):
                parts[r] = values(state) - values(baseline)
        return DivatHand(parts.sum(axis=0), parts, corrections)


def same_end(a: HandState, b: HandState) -> bool:
    """Whether two ends of the same round are the same state (the same chips in, the same folds)."""
    return a.committed == b.committed and a.folds() == b.folds() and a.round == b.round


def divat_of_folder(out: str | Path, seed: int, samples: int = DEFAULT_SAMPLES) -> SeatEstimates:
    """DIVAT of every hand of a heads-up results folder (its hindsight record); one `ConfigError` line for
    a folder without the record or of a game DIVAT does not cover."""
    record = read_hindsight(out, "DIVAT")
    if len(record.labels) != 2:
        raise ConfigError(f"DIVAT covers heads-up matches; {str(out)!r} has {len(record.labels)} seats")
    divat = Divat(record.config, seed, samples)
    return seat_estimates(record, lambda hand: divat.hand(hand).x)
