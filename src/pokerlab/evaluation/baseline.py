"""The Baseline control variate for 2 to 10 seats (Davidson, Archibald & Bowling 2013): replay every deal of
a match with one fixed control agent in every position, and take the control's result in a seat's position,
scaled, off the seat's result.

    X_j = u_j - beta_j * c_position(j)

The control plays itself, so its nets c sum to zero over the positions of every deal, and its expected
net over the positions a seat sits in is zero when the seat sits in each position equally often: the
button moves every hand, so each orbit of n hands seats everyone once in every position. The hands are cut
into two folds by the parity of their orbit, and beta_j = Cov(u_j, c) / Var(c) of one fold scales the
other's (cross-fitting): beta is then independent of the terms it scales, and each fold's terms sum to
a mean of zero, so X stays exactly unbiased for agents that do not learn from the hands. It needs no value
function and no strategy, only the deals: the hole cards and the five board cards of the hindsight
record's deck order. The control does not learn either: its generator is seeded from (seed, hand,
position) before every hand, so c depends on the deal and the seed alone.

In a duplicate match every deal is replayed with the seats rotated, so the control's terms cancel within
each deal: the Baseline is an alternative to duplicate there, not an addition, and a duplicate folder is
refused.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerlab.agents.registry import make_agent
from pokerlab.arena.table import strict_table
from pokerlab.engine import BOARD_SIZE, RIVER, HandState
from pokerlab.errors import ConfigError
from pokerlab.evaluation.hindsight import Hindsight, HindsightHand, read_hindsight, seat_estimates
from pokerlab.evaluation.stats import SeatEstimates

#: The control agent: Papp's (1998) basic medium player, chosen on a calibration match (6 seats, match seed
#: 7) over bpl, bpt, the loose- and tight-aggressive stereotypes; it does not learn.
DEFAULT_CONTROL = "bpm"


def control_nets(record: Hindsight, control: str, seed: int) -> SeatEstimates:
    """Each hand's raw nets and, as ``adjusted``, the control's nets in every seat's position (chips, seats
    in config.json order) when it plays the hand's deal in every position."""
    n = len(record.labels)
    agents = [make_agent(control) for _ in range(n)]
    table = strict_table(n, record.config)
    table.seat_agents(agents)

    def replay(hand: HindsightHand) -> np.ndarray:
        board = hand.deck[2 * n : 2 * n + BOARD_SIZE[RIVER]]
        state = HandState(record.config, list(hand.holes), list(board), list(hand.stacks))
        for p, agent in enumerate(agents):
            agent.seed(np.random.default_rng([seed, hand.hand, p]))
        table.hand_number = hand.hand
        return np.array(table.play_hand(state, range(n)).nets, dtype=np.float64)

    return seat_estimates(record, replay)


def folds(record: Hindsight) -> np.ndarray:
    """The fold (0 or 1) of each hand, by the parity of its orbit of n hands; `ConfigError` unless each
    seat sits in every position equally often in each fold (what makes the control's terms mean zero)."""
    n = len(record.labels)
    fold = np.array([(hand.hand // n) % 2 for hand in record.hands])
    for f in (0, 1):
        counts = np.zeros((n, n), dtype=int)
        for hand, k in zip(record.hands, fold, strict=True):
            if k == f and hand.players == n and set(hand.names) <= set(record.labels):
                for p, name in enumerate(hand.names):
                    counts[record.labels.index(name), p] += 1
        if counts.min() != counts.max() or (fold == f).sum() != counts[0].sum():
            raise ConfigError(
                "the Baseline needs every seat in every position equally often: a match of a multiple "
                f"of {2 * n} hands ({n} seats, two folds of whole orbits), nobody leaving"
            )
    return fold


def baseline_of_folder(out: str | Path, seed: int, control: str = DEFAULT_CONTROL) -> SeatEstimates:
    """Read a results folder's hindsight record and give each seat's raw and Baseline-corrected nets (chips,
    seats in config.json order). A duplicate folder, or one whose seats did not sit in every position
    equally often, gets one `ConfigError` line."""
    record = read_hindsight(out, needs="the Baseline estimator")
    if record.duplicate:
        raise ConfigError(
            f"{str(out)!r} is a duplicate match: the Baseline's control terms cancel within each deal there "
            "(it replaces duplicate); give a match played without --duplicate"
        )
    fold = folds(record)
    data = control_nets(record, control, seed)
    raw, c = data.raw, data.adjusted
    adjusted = raw.copy()
    for f in (0, 1):
        fit, use = fold != f, fold == f
        for j in range(raw.shape[1]):
            spread = c[fit, j].var()
            covariance = np.mean((c[fit, j] - c[fit, j].mean()) * (raw[fit, j] - raw[fit, j].mean()))
            adjusted[use, j] -= (covariance / spread if spread > 0 else 0.0) * c[use, j]
    return SeatEstimates(
        data.labels, raw, adjusted, data.units, data.small_bet, data.big_blind, data.duplicate
    )
