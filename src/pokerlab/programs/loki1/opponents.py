"""What one Loki-1 player follows of a hand: the bets each player faced, and a weight table per opponent
re-weighted after that opponent's actions (Papp ch. 7; Papp 1998 ch. 7).

Everything comes from the `ActionRecord`s of the player's own views: the engine says what each action
faced (``to_call``) and how many bets the round holds (``raises``), so no betting rule is re-derived here
and nothing here sees a card the player may not see.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.cards import CARD_MASKS
from pokerlab.engine import BOARD_SIZE, PREFLOP, ActionRecord, BettingFacts
from pokerlab.holdings import HOLDING_MASKS, NUM_HOLDINGS
from pokerlab.modeling.frequencies import DEFAULT_FREQUENCIES, ActionFrequencies
from pokerlab.modeling.holding_values import postflop_values, preflop_values, sorted_preflop_values
from pokerlab.modeling.reweighting import percentile_value, reweight_into
from pokerlab.programs.loki1.config import Loki1Config


def bets_faced(to_call: int, bet_size: int) -> int:
    """Whole bets owed, a part bet (the small blind's half bet) counting as one."""
    return -(-to_call // bet_size)


@nb.njit(cache=True)
def _block_sum(a: np.ndarray, start: int, n: int) -> float:
    """numpy's sum of a block of up to 128 numbers: below 8 one by one, else in eight lanes (numba kernel)."""
    if n < 8:
        total = 0.0
        for i in range(start, start + n):
            total += a[i]
        return total
    lanes = a[start : start + 8].copy()
    i = 8
    while i < n - n % 8:
        for j in range(8):
            lanes[j] += a[start + i + j]
        i += 8
    total = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]))
    while i < n:
        total += a[start + i]
        i += 1
    return total


@nb.njit(cache=True)
def _pairwise_sum(a: np.ndarray) -> float:
    """The sum of `a` in numpy's pairwise order (that of ``ndarray.sum`` along a contiguous axis: halves,
    each cut to a multiple of 8, down to blocks of 128), so equal to it to the last bit (numba kernel; the
    recursion walked with an explicit stack)."""
    starts, sizes, stages = np.empty(64, np.int64), np.empty(64, np.int64), np.zeros(64, np.int64)
    sums = np.empty(64)
    starts[0], sizes[0], top, done = 0, a.size, 0, 0
    while top >= 0:
        start, n = starts[top], sizes[top]
        if n <= 128:
            sums[done] = _block_sum(a, start, n)
            done += 1
            top -= 1
            continue
        half = n // 2
        half -= half % 8
        if stages[top] < 2:  # push the left half, then the right one
            stages[top] += 1
            left = stages[top] == 1
            top += 1
            starts[top] = start if left else start + half
            sizes[top] = half if left else n - half
            stages[top] = 0
        else:
            done -= 1
            sums[done - 1] += sums[done]
            top -= 1
    return sums[0]


@nb.njit(cache=True)
def _field(weights: np.ndarray, rows: np.ndarray, dead_cards: np.ndarray) -> np.ndarray:
    """The mean of the given rows of `weights`, each zeroed where a holding meets `dead_cards` and
    normalised to sum 1: the arithmetic of `pokerlab.holdings.field_array` in one pass (numba kernel)."""
    dead = np.uint64(0)
    for c in dead_cards:
        dead |= CARD_MASKS[c]
    n = weights.shape[1]
    table = np.empty(n)
    out = np.zeros(n)
    for r in rows:
        for i in range(n):
            table[i] = 0.0 if HOLDING_MASKS[i] & dead else weights[r, i]
        total = _pairwise_sum(table)
        for i in range(n):
            out[i] += table[i] / total
    for i in range(n):
        out[i] /= rows.size
    return out


class HandFollower:
    """One hand as seen by the player at ``me``: the betting facts (`BettingFacts`: who folded, acted or
    called), opponents' weight tables, our flags.

    ``bet_sizes`` are the game's bet sizes per round (small, small, big, big), to count chips as bets.
    """

    def __init__(
        self,
        players: int,
        me: int,
        hole: tuple[int, int],
        config: Loki1Config,
        bet_sizes: tuple[int, ...],
        blinds: tuple[int, ...] = (),
    ) -> None:
        self.players, self.me, self.hole, self.config = players, me, hole, config
        self.bet_sizes = bet_sizes
        self.seen = 0  # action records processed
        # the betting facts (who folded, acted, called; the pot from `blinds`), the engine's, taken in here
        self.facts = BettingFacts(players, blinds or (0,) * players, bet_sizes)
        self.folded = self.facts.folded
        self.voluntary = [False] * players  # put money in of its own accord pre-flop
        self.weights = np.ones((players, NUM_HOLDINGS))
        self.strategy = None  # Loki's pre-flop strategy, fixed at its first pre-flop decision
        self.semi_bluffing = False
        self.check_raise_round = -1
        self._start_round(PREFLOP)

    def catch_up(self, round_index: int) -> None:
        """Open `round_index` when we act first in it (no record of it has arrived yet)."""
        if round_index != self.round:
            self._start_round(round_index)

    def _start_round(self, round_index: int) -> None:
        """Reset what is counted per round; save the tables the round's re-weighting starts from."""
        self.round = round_index
        self.facts.start_round(round_index)
        # the tables at the start of the round (Papp 1998 ch. 7), saved per opponent at its first re-weighting
        # in the round: until then its row of `weights` is that table
        self.saved: dict[int, np.ndarray] = {}
        self.threshold = [-np.inf] * self.players  # the highest threshold applied this round, per opponent

    def follow(
        self,
        actions: tuple[ActionRecord, ...],
        board: tuple[int, ...],
        frequencies: dict[int, ActionFrequencies],
        identities: tuple[int, ...],
        reweighting: bool = True,
        learning: bool = True,
    ) -> None:
        """Take in the action records not seen yet; ``learning`` counts opponents' actions into
        `frequencies` (off when the player is frozen)."""
        me, bet_sizes, take = self.me, self.bet_sizes, self.facts.take
        for record in actions[self.seen :]:
            round_index, p, action = record.round, record.position, record.action
            if round_index != self.round:
                self._start_round(round_index)
            faced = -(-record.to_call // bet_sizes[round_index])  # `bets_faced`
            if p != me:
                self._observe(record, faced, board, frequencies, identities[p], reweighting, learning)
            if round_index == PREFLOP and (action == RAISE or (action == CALL and faced > 0)):
                self.voluntary[p] = True
            take(record)
        self.seen = len(actions)

    def _observe(
        self,
        record: ActionRecord,
        faced: int,
        board: tuple[int, ...],
        frequencies: dict[int, ActionFrequencies],
        identity: int,
        reweighting: bool,
        learning: bool,
    ) -> None:
        """Count the action of an opponent (faced: bets to call, >= 0) and re-weight its table (board: the
        whole board seen so far; the round's part is used). Called before the record changes anything."""
        p, action, config = record.position, record.action, self.config
        freq = frequencies.get(identity)
        if freq is None:
            freq = ActionFrequencies()
            if learning:
                frequencies[identity] = freq
        bucket = faced if faced < 2 else 2  # `bet_bucket` of faced >= 0
        if learning:
            freq.counts[self.round, bucket, action] += 1  # `ActionFrequencies.observe`
        if action == FOLD or not (reweighting and config.weighting):
            return
        if self.round != PREFLOP and config.weighting_rounds == "preflop":
            return  # Billings et al. 1998 §4.3: common pre-flop weights only
        # `threshold_percentile` of the mixed frequencies, from the one entry it reads: a free check says
        # nothing; a bet needs 1 - f''(bet), a call or raise facing a bet f''(fold)
        if bucket == 0 and action != RAISE:
            return
        needed = RAISE if bucket == 0 else FOLD
        if config.modelling == "specific":
            frequency = freq.mixed_frequency(self.round, faced, needed)
        else:
            frequency = float(DEFAULT_FREQUENCIES[bucket, needed])
        percentile = 1.0 - frequency if bucket == 0 else frequency
        if self.round == PREFLOP:
            ordered = sorted_preflop_values()
            if percentile < config.no_reweight_percentile:
                return  # an opponent who plays almost anything tells nothing (Papp §7.2.2)
            mu, sigma, values = percentile_value(ordered, percentile), config.preflop_sigma, preflop_values()
        else:
            mu, sigma = percentile, config.postflop_sigma
            values = postflop_values(board[: BOARD_SIZE[self.round]])
        if mu <= self.threshold[p]:
            return  # one re-weighting per opponent and round, from the round's saved table
        self.threshold[p] = mu
        saved = self.saved.get(p)
        if saved is None:
            saved = self.saved[p] = self.weights[p].copy()
        reweight_into(self.weights[p], saved, values, mu, sigma)

    def opponents(self) -> list[int]:
        """Positions of the opponents still in the hand."""
        return [p for p in range(self.players) if p != self.me and not self.folded[p]]

    def field(self, dead: tuple[int, ...]) -> np.ndarray | None:
        """The field array of the active opponents (Papp 1998 §5.2.1, §7.3.1), or None (uniform) without
        weighting: `field_array`'s arithmetic, without its checks (our tables are valid, every live
        holding keeps a weight >= 0.01)."""
        if not self.config.weighting:
            return None
        return _field(
            self.weights, np.array(self.opponents(), dtype=np.int64), np.array(dead, dtype=np.int64)
        )
