"""Luck-adjusted winnings for 2 to 10 players: what a seat won, less the value of the cards it was dealt.

The value function is the all-in equity value W_i(h) = e_i(h) * pot(h) - committed_i(h): seat i's share
of the pot if every live hand were shown and the rest of the board dealt out with no more betting, less
what it has put in (folded seats: e = 0). It is an expectation over the cards to come, so it is balanced
at every chance step, and the estimate needs W only before and after each card (the advantage-sum form
of Zinkevich et al. 2006):

    X_i = u_i - sum over the deal, flop, turn and river of [ W_i(after the card) - W_i(before it) ]

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
from itertools import combinations
from pathlib import Path

import numpy as np

from pokerlab.arena.store import read_hands
from pokerlab.engine import BOARD_SIZE, RIVER, UNKNOWN, HandRecord, HandState
from pokerlab.errors import ConfigError, CorruptData
from pokerlab.evaluation.core import balanced_step, corrected
from pokerlab.evaluation.stats import SeatEstimates
from pokerlab.evaluator import evaluate_batch

#: Random boards per pre-flop equity (the estimate's own noise is about 0.5 / sqrt(samples) of the pot).
DEFAULT_SAMPLES = 1000


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


def luck_adjusted(record: HandRecord, rng: np.random.Generator, samples: int = DEFAULT_SAMPLES) -> np.ndarray:
    """X of every position of one hand (chips): its net less the luck of the deal and of each board card
    dealt. Needs every position's hole cards (`ConfigError` otherwise)."""
    n = record.players
    if UNKNOWN in record.holes:
        raise ConfigError("luck adjustment needs every seat's hole cards, folded ones included")
    holes = np.array(record.holes, dtype=np.uint8).reshape(n, 2)
    state = HandState(record.config, list(record.holes), list(record.board), list(record.stacks))
    cache: dict[tuple, np.ndarray] = {}

    def value(board_size: int) -> np.ndarray:
        """W of every position with ``board_size`` board cards out, at the state's pot."""
        live = tuple(p for p, folded in enumerate(state.folds()) if not folded)
        key = (live, board_size)
        if key not in cache:
            board = tuple(record.board[:board_size])
            dead = tuple(c for p in range(n) if p not in live for c in record.hole(p))
            shares = np.zeros(n)
            shares[list(live)] = equity_shares(holes[list(live)], board, dead, rng, samples)
            cache[key] = shares
        return cache[key] * state.pot - np.array(state.committed, dtype=np.float64)

    committed = np.array(state.committed, dtype=np.float64)
    steps = [balanced_step(state.pot / n - committed, value(0))]  # the deal
    dealt = 0
    actions = iter(record.actions)
    while True:
        for street in range(dealt + 1, min(state.round, RIVER) + 1):  # cards dealt since the last look
            steps.append(balanced_step(value(BOARD_SIZE[street - 1]), value(BOARD_SIZE[street])))
        dealt = max(dealt, min(state.round, RIVER))
        if state.is_over:
            break
        state.act(next(actions)[1])
    return corrected(np.array(record.nets, dtype=np.float64), steps)


def luck_of_folder(out: str | Path, seed: int, samples: int = DEFAULT_SAMPLES) -> SeatEstimates:
    """Read a `pokerlab match` results folder (config.json, hands.csv, hands.sqlite) and luck-adjust every
    hand. A folder without what that needs gets one `ConfigError` line saying what is missing."""
    out = Path(out)
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
    deal_of = _deals(out) if duplicate else {}
    seat_of = {label: j for j, label in enumerate(labels)}
    rng = np.random.default_rng(seed)
    raw, adjusted, units = [], [], []
    small_bet = big_blind = 0
    for hand, record in read_hands(out / "hands.sqlite"):
        try:
            x = luck_adjusted(record, rng, samples)
        except ConfigError as exc:
            raise ConfigError(f"{out}: hand {hand}: {exc}") from None
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
