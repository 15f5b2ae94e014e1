"""Loki-1's values (HS_n, EHS, EHS', PPOT; Papp 1998 ch. 5-6) of every holding on a board at once, against
the field array of its opponents' weight tables, from tables made once per board.

Per board and cards to come (`board_pairs`, kept for the last `KEPT_BOARDS`), the holdings that miss the
board are sorted by their rank now, so that each holding's opponents lie in three runs: those it is ahead
of (before its run of equal ranks), tied with (the run), behind (after it). Beside the order, a matrix in
that order holds each pair's completions (the turn and river, or the river, that share no card with
either holding) counted as ``2 * ahead + tied`` (float32: whole numbers up to 1,980, exact, and read
vectorised), and a small one the completions ending ahead of the holdings tied now. The counts are made
for every pair at once from the board's ranks by card ranks and a few flush corrections (`pair_tallies`);
`plain_pair_counts`, `pokerlab.analysis.potential`'s per-holding kernels asked holding by holding (once per
class of holdings under the suit renamings that keep the board), is kept as their oracle.

A query's weights then enter by sums over each run (`_run_sums`): per opponent table and holding, the
weight W_r of the opponent holdings in each run r (ahead, tied, behind now) that share no card with it,
the weighted ``2 * ahead + tied`` counts E_r, and the weighted counts ending ahead of the tied ones, A_T.
Every pair has the same C completions, so with Billings et al.'s (1998 §4.2) table T[now][final],
T[r, S] = C W_r, E_r = 2 T[r, A] + T[r, T] and A_T = T[T, A], and

    Ppot = (E_B + A_T) / (C (2 W_B + W_T)),
    Npot = (2 C W_A + C W_T - E_A - E_T + A_T) / (C (2 W_A + W_T)),

0 where the denominator is 0. HS is (W_A + W_T / 2) / (W_A + W_T + W_B). The field array (Papp 1998 §5.2.1)
normalises each opponent's table with the holding's own cards taken out and averages them, so each of
these sums is the mean over the opponents of their own, each over that opponent's total weight.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from itertools import permutations
from math import comb

import numba as nb
import numpy as np

from pokerlab.agents.policy import board_clash
from pokerlab.analysis.potential import (
    AHEAD,
    TIED,
    one_card_holding_counts,
    rank_table,
    two_card_holding_counts,
)
from pokerlab.cards import NUM_CARDS
from pokerlab.evaluator import evaluate_batch
from pokerlab.holdings import HOLDING_CARDS, HOLDING_INDEX
from pokerlab.programs.loki1.pair_tallies import pair_counts

#: (Board, cards to come) whose tables are kept (at most about 6 MB each): a hand needs three or four.
KEPT_BOARDS = 6

_BOARD_PAIRS: OrderedDict = OrderedDict()

#: The sums of `_run_sums` per holding, in this order.
W_A, W_T, W_B, E_A, E_T, E_B, A_T = range(7)


@dataclass(frozen=True, eq=False)
class BoardPairs:
    """The holdings that miss a board sorted by rank now, with their pairs' completion counts."""

    order: np.ndarray  # int64[n]: the holdings that miss the board, lowest rank now first
    cards: np.ndarray  # uint8[n, 2]: their cards, in that order
    holders: np.ndarray  # int64[52, 51 - board size]: by card, where the holdings with it lie in the order
    first_tied: np.ndarray  # int64[n]: where the run of the holdings of its rank starts, in that order
    after_tied: np.ndarray  # int64[n]: where it ends
    #: float32[n, n]: 2 * ahead + tied completions of i against j; 0 where they share a card
    equity: np.ndarray
    tied_ahead: np.ndarray  # float32[n, widest run]: ahead completions of i against first_tied[i] + k
    cases: int  # completions of every pair of holdings (0: no card to come, both count arrays empty)


def board_renamings(board: tuple[int, ...]) -> np.ndarray:
    """int64[m, 52]: the renamings of suits that map `board` onto itself (none first), each as the card
    each card becomes."""
    cards = set(board)
    renamings = [
        np.array([4 * (c // 4) + order[c % 4] for c in range(NUM_CARDS)]) for order in permutations(range(4))
    ]
    return np.array([r for r in renamings if {int(r[c]) for c in cards} == cards], dtype=np.int64)


def holding_images(renamings: np.ndarray) -> np.ndarray:
    """int64[m, 1326]: the holding each holding becomes under each of `renamings`."""
    renamed = renamings[:, HOLDING_CARDS]
    return HOLDING_INDEX[renamed[..., 0], renamed[..., 1]].astype(np.int64)


def plain_counts(
    board: tuple[int, ...], cards_to_come: int, pairs: BoardPairs
) -> tuple[np.ndarray, np.ndarray]:
    """(equity, tied_ahead) of `pairs`, the `BoardPairs` of `board` with 1 or 2 cards to come, made holding
    by holding (`plain_pair_counts`): the oracle of `board_pairs`' counts."""
    codes = np.array(board, dtype=np.uint8)
    shared = rank_table(codes, cards_to_come + 2)
    images = holding_images(board_renamings(board))
    return plain_pair_counts(
        codes, cards_to_come, shared, pairs.order, pairs.first_tied, pairs.after_tied, images
    )


def _holders(order: np.ndarray) -> np.ndarray:
    """int64[52, k]: for each card, the positions in `order` of the holdings that hold it (-1 rows for the
    board's cards, which none holds)."""
    cards = HOLDING_CARDS[order].ravel()
    held = np.bincount(cards, minlength=NUM_CARDS)  # every card off the board is in as many holdings
    out = np.full((NUM_CARDS, held.max()), -1, dtype=np.int64)
    out[held > 0] = (np.argsort(cards, kind="stable") // 2).reshape(-1, held.max())
    return out


def board_pairs(board: tuple[int, ...], cards_to_come: int) -> BoardPairs:
    """The `BoardPairs` of `board` with 0, 1 or 2 cards to come, kept for the last `KEPT_BOARDS`."""
    key = (tuple(sorted(board)), cards_to_come)
    entry = _BOARD_PAIRS.get(key)
    if entry is not None:
        _BOARD_PAIRS.move_to_end(key)
        return entry
    live = np.flatnonzero(~board_clash(board))
    hands = np.concatenate([np.tile(np.array(board, dtype=np.uint8), (live.size, 1)), HOLDING_CARDS[live]], 1)
    ranks = evaluate_batch(hands)
    by_rank = np.argsort(ranks, kind="stable")
    order, ranks = live[by_rank], ranks[by_rank]
    first_tied = np.searchsorted(ranks, ranks, side="left")
    after_tied = np.searchsorted(ranks, ranks, side="right")
    if cards_to_come:
        codes = np.array(board, dtype=np.uint8)
        shared = rank_table(codes, cards_to_come + 2)
        equity, tied_ahead = pair_counts(
            codes,
            cards_to_come,
            shared,
            order.astype(np.int64),
            first_tied,
            after_tied,
            board_renamings(board),
        )
        cases = comb(NUM_CARDS - len(board) - 4, cards_to_come)
    else:
        equity, tied_ahead, cases = np.zeros((0, 0), np.float32), np.zeros((0, 0), np.float32), 0
    entry = _BOARD_PAIRS[key] = BoardPairs(
        order.astype(np.int64),
        HOLDING_CARDS[order],
        _holders(order),
        first_tied.astype(np.int64),
        after_tied.astype(np.int64),
        equity,
        tied_ahead,
        cases,
    )
    if len(_BOARD_PAIRS) > KEPT_BOARDS:
        _BOARD_PAIRS.popitem(last=False)
    return entry


@nb.njit(cache=True)
def plain_pair_counts(board, cards_to_come, shared, order, first_tied, after_tied, images):
    """(equity, tied_ahead) of `BoardPairs` as `pair_tallies.pair_counts` makes them, the plain way (the
    oracle): `holding_counts` of each holding of `order` on `board` with 1 or 2 cards to come
    (`pokerlab.analysis.potential`'s kernels, `shared` its `rank_table`), written in the order by rank now
    (numba kernel).

    A renaming of suits that maps the board onto itself (`images`: the holding each holding becomes) maps
    holding h's counts onto those of its image, the opponent holdings renamed alike (hand ranks ignore suit
    names), so one holding of each class is counted (half the holdings on a two-suited flop, a sixth on a
    one-suited one)."""
    n = order.size
    position = np.full(HOLDING_CARDS.shape[0], -1, dtype=np.int64)
    for i in range(n):
        position[order[i]] = i
    equity = np.zeros((n, n), dtype=np.float32)
    tied_ahead = np.zeros((n, (after_tied - first_tied).max()), dtype=np.float32)
    done = np.zeros(HOLDING_CARDS.shape[0], dtype=np.bool_)
    for h in order:
        if done[h]:
            continue
        hole = HOLDING_CARDS[h].copy()
        if cards_to_come == 2:
            counts = two_card_holding_counts(hole, board, shared)[1]
        else:
            counts = one_card_holding_counts(hole, board, shared)[1]
        for image in images:
            g = image[h]
            if done[g]:
                continue
            done[g] = True
            i = position[g]
            for o in order:
                j = position[image[o]]
                equity[i, j] = 2 * counts[o, AHEAD] + counts[o, TIED]
                if first_tied[i] <= j < after_tied[i]:
                    tied_ahead[i, j - first_tied[i]] = counts[o, AHEAD]
    return equity, tied_ahead


@nb.njit(inline="always", cache=True, fastmath={"reassoc", "contract"})
def _dot(weights, counts):
    """The sum of weights[j] * counts[j] (numba kernel; on slices, so that it runs vectorised)."""
    total = 0.0
    for j in range(weights.size):
        total += weights[j] * counts[j]
    return total


@nb.njit(cache=True, fastmath={"reassoc", "contract"})
def _run_sums(weights, cards, holders, first_tied, after_tied, equity, tied_ahead, out):
    """Adds to out[i] (i in the order of the holdings by rank now) the sums W_A, W_T, W_B, E_A, E_T, E_B,
    A_T over the opponent holdings that share no card with i, weighted by `weights` (in the same order)
    over their total (numba kernel; the E and A sums 0 without `equity`).

    A run's weight is the difference of two running sums less the weight of the holdings in it that hold
    one of i's cards (`holders`: by card, where its holdings lie in the order); i holds both, so it is
    taken out twice and put back once. The counts of the pairs that share a card are 0: the E and A sums
    run over all."""
    n = weights.size
    below = np.zeros(n + 1)
    for j in range(n):
        below[j + 1] = below[j] + weights[j]
    for i in range(n):
        low, high = first_tied[i], after_tied[i]
        ahead, tied, behind = below[low], below[high] - below[low] + weights[i], below[n] - below[high]
        for k in range(2):
            for j in holders[cards[i, k]]:
                if j < low:
                    ahead -= weights[j]
                elif j < high:
                    tied -= weights[j]
                else:
                    behind -= weights[j]
        total = ahead + tied + behind
        out[i, W_A] += ahead / total
        out[i, W_T] += tied / total
        out[i, W_B] += behind / total
        if equity.shape[0] == 0:
            continue
        counts = equity[i]
        out[i, E_A] += _dot(weights[:low], counts[:low]) / total
        out[i, E_T] += _dot(weights[low:high], counts[low:high]) / total
        out[i, E_B] += _dot(weights[high:], counts[high:]) / total
        out[i, A_T] += _dot(weights[low:high], tied_ahead[i, : high - low]) / total


def holding_sums(pairs: BoardPairs, weights: np.ndarray) -> np.ndarray:
    """float[n, 7]: `_run_sums` of the field array of the weight tables `weights` (one row each), in the order
    of `pairs`."""
    out = np.zeros((pairs.order.size, 7))
    for table in weights:
        sorted_weights = np.ascontiguousarray(table[pairs.order], dtype=np.float64)
        _run_sums(
            sorted_weights,
            pairs.cards,
            pairs.holders,
            pairs.first_tied,
            pairs.after_tied,
            pairs.equity,
            pairs.tied_ahead,
            out,
        )
    return out / len(weights)


def strength(sums: np.ndarray) -> np.ndarray:
    """HS against the field of each holding, from its `holding_sums` (Billings et al. 1998 §4.1)."""
    return (sums[:, W_A] + sums[:, W_T] / 2) / (sums[:, W_A] + sums[:, W_T] + sums[:, W_B])


def potentials(sums: np.ndarray, cases: int) -> tuple[np.ndarray, np.ndarray]:
    """(Ppot, Npot) of each holding from its `holding_sums` (the module doc; Billings et al. 1998 §4.2)."""
    up = cases * (2 * sums[:, W_B] + sums[:, W_T])
    down = cases * (2 * sums[:, W_A] + sums[:, W_T])
    gained = sums[:, E_B] + sums[:, A_T]
    lost = down - sums[:, E_A] - sums[:, E_T] + sums[:, A_T]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(up > 0, gained / up, 0.0), np.where(down > 0, lost / down, 0.0)
