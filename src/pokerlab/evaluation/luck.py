"""Luck-adjusted winnings for 2 to 10 players: what a seat won, less the value of the cards it was dealt.

The value function is the all-in equity value W_i(h) = e_i(h) * pot(h) - committed_i(h): seat i's share
of the pot if every live hand were shown and the rest of the board dealt out with no more betting, less
what it has put in (folded seats: e = 0). It is an expectation over the cards to come, so it is balanced
at every chance step, and the estimate needs W only before and after each card (the advantage-sum form
of Zinkevich et al. 2006):

    X_i = u_i - sum over the deal, flop, turn and river s of weight_s [ W_i(after s) - W_i(before s) ]

Each bracket has mean zero given the hand before its card, so any fixed weights keep X exactly unbiased;
they decide only the variance. A card that helps a seat is worth more than its share of today's pot, as
the bets still to come follow it, so the weights that minimise the variance exceed 1: least squares of
the net on the four brackets (the linear control variate of White & Bowling 2009), fitted on calibration
matches and fixed here by number of seats (`STREET_WEIGHTS`; heads-up 1, the plain equity value).

Before the deal W_i = pot / n - committed_i exactly (every seat is dealt alike). The equity is exact with
two cards or fewer to come (1,081 runouts at most) and, before the flop, the mean over fresh random
boards per hand: an unbiased estimate of an expectation, independent of the real board, keeps every
correction's mean at zero, so X stays exactly unbiased; only its variance grows a little. A fixed
table with Monte Carlo error would instead be a systematic bias. With side pots W still judges the main
pot only: unbiased, less reduction. Betting is not corrected at all: a player's skill stays in X.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import numpy as np

from pokerlab.arena.store import read_hands
from pokerlab.engine import BOARD_SIZE, RIVER, UNKNOWN, HandRecord, HandState
from pokerlab.errors import ConfigError, CorruptData
from pokerlab.evaluation.core import fit_linear
from pokerlab.evaluation.stats import SeatEstimates
from pokerlab.evaluator import evaluate_batch

#: Random boards per pre-flop equity (the estimate's own noise is about 0.5 / sqrt(samples) of the pot).
DEFAULT_SAMPLES = 1000
#: The chance steps corrected, in order: the deal of the hole cards and the three board rounds.
STREETS = ("deal", "flop", "turn", "river")
#: Weights of the luck of the deal, flop, turn and river by number of seats. Heads-up 1 (the plain all-in
#: equity value). For 3 to 10 seats, `fit_street_weights` rounded, each fitted on a calibration match of
#: 4,000 hands (6,000 at 6 seats) of the first n of bpl, bpt, bpm, loose-aggressive, tight-aggressive,
#: loose-passive, tight-passive, call, raise, random (match seed 7, board seed 7). A card that helps a
#: seat is worth more than its share of today's pot: the bets still to come follow it.
STREET_WEIGHTS: dict[int, tuple[float, float, float, float]] = {
    2: (1.0, 1.0, 1.0, 1.0),
    3: (4.2, 3.85, 2.43, 1.41),
    4: (6.12, 3.36, 2.41, 1.4),
    5: (6.98, 3.14, 2.34, 1.35),
    6: (7.21, 2.97, 2.2, 1.33),
    7: (7.51, 2.91, 2.18, 1.34),
    8: (11.52, 2.6, 1.92, 1.28),
    9: (25.13, 3.43, 2.16, 1.31),
    10: (26.18, 2.88, 1.86, 1.26),
}


def equity_shares(
    holdings: np.ndarray,
    board: tuple[int, ...],
    dead: tuple[int, ...],
    rng: np.random.Generator,
    samples: int,
) -> np.ndarray:
    """Each holding's expected share of a pot they all contest to a showdown (ties split), in [0, 1]:
    exact over every completion of ``board`` with two cards or fewer to come, else the mean over
    ``samples`` random completions. ``holdings`` is (k, 2) card codes; ``dead`` the cards out of the deck
    besides them and the board (folded seats' hole cards)."""
    holdings = np.asarray(holdings, dtype=np.uint8).reshape(-1, 2)
    gone = set(holdings.ravel().tolist()) | set(board) | set(dead)
    deck = np.array([c for c in range(52) if c not in gone], dtype=np.uint8)
    to_come = 5 - len(board)
    if to_come <= 2:
        combos = list(combinations(deck.tolist(), to_come))
        completions = np.array(combos, dtype=np.uint8).reshape(len(combos), to_come)
    else:
        picks = np.argpartition(rng.random((samples, deck.size)), to_come - 1, axis=1)[:, :to_come]
        completions = deck[picks]
    boards = np.hstack(
        [np.broadcast_to(np.array(board, dtype=np.uint8), (len(completions), len(board))), completions]
    )
    k, count = len(holdings), len(boards)
    rows = np.empty((k, count, 7), dtype=np.uint8)
    rows[:, :, :2] = holdings[:, None, :]
    rows[:, :, 2:] = boards[None, :, :]
    ranks = evaluate_batch(rows.reshape(k * count, 7)).reshape(k, count)
    winners = ranks == ranks.max(axis=0)
    return (winners / winners.sum(axis=0)).mean(axis=1)


def luck_terms(record: HandRecord, rng: np.random.Generator, samples: int = DEFAULT_SAMPLES) -> np.ndarray:
    """The luck of the deal, flop, turn and river of one hand (a (4, positions) array, chips): each card's
    W(after it) - W(before it), zero for a card not dealt. Each row has mean zero given the hand before its
    card, and sums to zero over the positions. Needs every position's hole cards (`ConfigError` otherwise)."""
    n = record.players
    if UNKNOWN in record.holes:
        raise ConfigError("luck adjustment needs every seat's hole cards, folded ones included")
    holes = np.array(record.holes, dtype=np.uint8).reshape(n, 2)
    state = HandState(record.config, list(record.holes), list(record.board), list(record.stacks))
    cache: dict[tuple, np.ndarray] = {}

    def shares(board_size: int) -> np.ndarray:
        """Every position's all-in equity with ``board_size`` board cards out, folded seats 0."""
        live = tuple(p for p, folded in enumerate(state.folds()) if not folded)
        key = (live, board_size)
        if key not in cache:
            board = tuple(record.board[:board_size])
            dead = tuple(c for p in range(n) if p not in live for c in record.hole(p))
            cache[key] = np.zeros(n)
            cache[key][list(live)] = equity_shares(holes[list(live)], board, dead, rng, samples)
        return cache[key]

    terms = np.zeros((len(STREETS), n))
    terms[0] = (shares(0) - 1 / n) * state.pot  # the deal: W before it is pot / n - committed
    dealt = 0
    actions = iter(record.actions)
    while True:
        for street in range(dealt + 1, min(state.round, RIVER) + 1):  # cards dealt since the last look
            terms[street] = (shares(BOARD_SIZE[street]) - shares(BOARD_SIZE[street - 1])) * state.pot
        dealt = max(dealt, min(state.round, RIVER))
        if state.is_over:
            return terms
        state.act(next(actions)[1])


def luck_adjusted(
    record: HandRecord,
    rng: np.random.Generator,
    samples: int = DEFAULT_SAMPLES,
    weights: tuple[float, ...] | None = None,
) -> np.ndarray:
    """X of every position of one hand (chips): its net less the weighted luck of the deal and of each
    board card dealt (``weights``: one per street, by default `STREET_WEIGHTS` of the number of seats)."""
    return np.array(record.nets, dtype=np.float64) - weighted(luck_terms(record, rng, samples), weights)


def weighted(terms: np.ndarray, weights: tuple[float, ...] | None = None) -> np.ndarray:
    """The luck of every position: the streets' terms (`luck_terms`) times their weights, summed (by
    default `STREET_WEIGHTS` of the number of positions). Fixed weights keep every term's mean zero."""
    weights = STREET_WEIGHTS[terms.shape[1]] if weights is None else weights
    return np.asarray(weights, dtype=np.float64) @ terms


def luck_of_folder(out: str | Path, seed: int, samples: int = DEFAULT_SAMPLES) -> SeatEstimates:
    """Read a `pokerlab match` results folder (config.json, hands.csv, hands.sqlite) and luck-adjust every
    hand. A folder without what that needs gets one `ConfigError` line saying what is missing."""
    out = Path(out)
    labels, duplicate = _labels(out)
    deal_of = _deals(out) if duplicate else {}
    seat_of = {label: j for j, label in enumerate(labels)}
    raw, adjusted, units = [], [], []
    small_bet = big_blind = 0
    for hand, record, terms in _hand_terms(out, seed, samples):
        x = np.array(record.nets, dtype=np.float64) - weighted(terms)
        if not record.names or not set(record.names) <= seat_of.keys():  # a broke player may have left
            raise CorruptData(f"{out}: hand {hand} seats {list(record.names)}, config.json {labels}")
        order = [seat_of[name] for name in record.names]
        u_row, x_row = np.zeros(len(labels)), np.zeros(len(labels))
        u_row[order], x_row[order] = record.nets, x
        raw.append(u_row)
        adjusted.append(x_row)
        units.append(deal_of.get(hand, hand))
        small_bet, big_blind = record.config.small_bet, record.config.big_blind
    if not raw:
        raise ConfigError(f"{str(out)!r} holds no hands to evaluate")
    return SeatEstimates(
        labels, np.array(raw), np.array(adjusted), np.array(units), small_bet, big_blind, duplicate
    )


def fit_street_weights(out: str | Path, seed: int, samples: int = DEFAULT_SAMPLES) -> tuple[float, ...]:
    """The least-squares weights of the deal, flop, turn and river luck (`fit_linear`, White & Bowling
    2009) over every position of every hand of a calibration results folder of one number of seats; the
    rounded figures are `STREET_WEIGHTS`. Never fit them on the hands they will judge."""
    out = Path(out)
    _labels(out)
    features, utility, seats = [], [], set()
    for _, record, terms in _hand_terms(out, seed, samples):
        features.append(terms.T)
        utility.append(np.array(record.nets, dtype=np.float64))
        seats.add(record.players)
    if len(seats) != 1:
        raise ConfigError(
            f"{str(out)!r} holds hands of {sorted(seats)} seats: calibrate on folders of one number of "
            "seats each"
        )
    return tuple(float(w) for w in fit_linear(np.vstack(features), np.concatenate(utility)))


def _labels(out: Path) -> tuple[list[str], bool]:
    """The seats (config.json order) and whether the match was duplicate, of a folder with hands.sqlite."""
    try:
        meta = json.loads((out / "config.json").read_text())
        labels, duplicate = list(meta["agents"]), bool(meta["duplicate"])
    except FileNotFoundError:
        raise ConfigError(f"{str(out)!r} is not a results folder (no config.json)") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CorruptData(f"{out / 'config.json'} is unreadable ({' '.join(str(exc).split())})") from None
    if not (out / "hands.sqlite").is_file():
        raise ConfigError(
            f"{str(out)!r} has no hands.sqlite: luck adjustment needs every hand's hole cards and board"
        )
    return labels, duplicate


def _hand_terms(out: Path, seed: int, samples: int) -> Iterator[tuple[int, HandRecord, np.ndarray]]:
    """(hand number, record, `luck_terms`) of every hand of results folder ``out``, in order."""
    rng = np.random.default_rng(seed)
    for hand, record in read_hands(out / "hands.sqlite"):
        try:
            yield hand, record, luck_terms(record, rng, samples)
        except ConfigError as exc:
            raise ConfigError(f"{out}: hand {hand}: {exc}") from None


def _deals(out: Path) -> dict[int, int]:
    """The deal of each hand (hands.csv), the unit of a duplicate match."""
    try:
        with (out / "hands.csv").open(newline="") as file:
            rows = list(csv.reader(file))[1:]
        return {int(r[0]): int(r[1]) for r in rows if len(r) > 2}
    except FileNotFoundError:
        raise ConfigError(f"{str(out)!r} holds no hands.csv: a duplicate match's deals are in it") from None
    except ValueError as exc:
        raise CorruptData(f"{out / 'hands.csv'} is unreadable ({exc})") from None
