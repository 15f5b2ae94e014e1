"""Hand potential: how the board cards to come change who is ahead (Billings et al. 1998 §4.2, Table 2; Papp
1998 §5.3).

For every subcase (opponent holding, with its weight) and every way to deal the cards to come, the case is
counted in a 3x3 table T[now][final] (rows: we are ahead, tied, behind now; columns: ahead, tied, behind
at the end). From it, Billings et al. 1998 §4.2:

    Ppot = (T[B,A] + T[B,T]/2 + T[T,A]/2) / (T[B,S] + T[T,S]/2)
    Npot = (T[A,B] + T[A,T]/2 + T[T,B]/2) / (T[A,S] + T[T,S]/2)

with S the row sum, and 0 where the denominator is 0. Two cards to come is only on the flop (990 turn and
river pairs per subcase, 1,070,190 cases); one card to come is on the flop (45) and turn (44).

A subcase's counts (its row, and how many completions end ahead, tied, behind) do not depend on the
weights, which only scale them. `potential_of` therefore keeps the counts of every live holding per (hole,
board, cards to come) in a bounded LRU cache (`COUNTS_CACHE`) and combines them with the weights of each
decision (`combine_counts`): a player acting twice on a flop, or the replays of a duplicate deal, count
once. The one- and two-card counts (`one_card_holding_counts`, `two_card_holding_counts`) read the final
ranks of the opponent's holdings from a table by card ranks made once per board and shared by every player on
it (`rank_table`: 1,183 ranks for one card to come, 8,281 for two; suits play no part without a flush), so a
holding's outcomes over every completion depend on its rank class alone (counted once per class, less the
completions that share its cards), and only the completions that make it a flush are ranked by the
evaluator, as corrections. [Measured: ranks of the flop with every four unseen cards, shared alike, do not
pay: about two players per flop need the two-card counts at a ten-seat ring table.] The sums run in
the order of `potential_counts`, the plain kernel kept as the oracle (`holding_counts` is the plain
per-holding oracle of the counts), so the tables are equal to the last bit; ``COUNTS_CACHE.enabled =
False`` turns the cache off.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numba as nb
import numpy as np

from pokerlab.analysis.situation import CardsLike, Situation, is_subcase, situation
from pokerlab.cards import CARD_MASKS, NUM_CARDS
from pokerlab.evaluator import CARD_KEYS, START_KEY, add_card, hand_key, rank_of
from pokerlab.evaluator_tables import FLUSH_BITS, RANK_KEY_MASK, SUIT_COUNTER_SHIFT
from pokerlab.holdings import HOLDING_CARDS, HOLDING_INDEX

AHEAD, TIED, BEHIND = 0, 1, 2
STATUS_NAMES = ("ahead", "tied", "behind")


@dataclass(frozen=True, eq=False)
class PotentialTable:
    """The 3x3 table T[now][final] of Billings et al. 1998 Table 2 (weighted counts) for some cards to
    come."""

    counts: np.ndarray
    cards_to_come: int
    weighted: bool = False

    @property
    def row_sums(self) -> np.ndarray:
        """T[s, S]: all cases in which we are ahead, tied, behind now."""
        return self.counts.sum(axis=1)

    @property
    def column_sums(self) -> np.ndarray:
        """T[S, s]: all cases in which we end ahead, tied, behind."""
        return self.counts.sum(axis=0)

    @property
    def positive_potential(self) -> float:
        """Ppot in [0, 1]: the chance to pull ahead when behind, ties counted half (Billings et al. 1998
        §4.2)."""
        t, rows = self._lists()
        gained = t[BEHIND][AHEAD] + t[BEHIND][TIED] / 2 + t[TIED][AHEAD] / 2
        return _ratio(gained, rows[BEHIND] + rows[TIED] / 2)

    @property
    def negative_potential(self) -> float:
        """Npot in [0, 1]: the chance to fall behind when ahead, ties counted half (Billings et al. 1998
        §4.2)."""
        t, rows = self._lists()
        lost = t[AHEAD][BEHIND] + t[AHEAD][TIED] / 2 + t[TIED][BEHIND] / 2
        return _ratio(lost, rows[AHEAD] + rows[TIED] / 2)

    def _lists(self) -> tuple[list[list[float]], list[float]]:
        """T and its row sums as Python floats (each row summed left to right from 0, as numpy sums three
        numbers, so the same floats as `row_sums`): the scalar arithmetic without numpy's per-call cost."""
        t = self.counts.tolist()
        return t, [0.0 + row[0] + row[1] + row[2] for row in t]

    def table(self) -> list[list]:
        """T as nested lists (integers when unweighted), rows now ahead/tied/behind, columns final."""
        return self.counts.astype(np.int64).tolist() if not self.weighted else self.counts.tolist()

    def to_dict(self) -> dict:
        """Cards to come, the table with its row and column sums, Ppot and Npot."""
        cast = float if self.weighted else int
        return {
            "cards_to_come": self.cards_to_come,
            "table": self.table(),
            "row_sums": [cast(x) for x in self.row_sums],
            "column_sums": [cast(x) for x in self.column_sums],
            "ppot": self.positive_potential,
            "npot": self.negative_potential,
        }


def _ratio(numerator: float, denominator: float) -> float:
    return float(numerator / denominator) if denominator > 0 else 0.0


@dataclass(frozen=True, eq=False)
class HandPotential:
    """Potential tables with two cards to come (flop only) and one card to come (flop and turn); None where a
    look-ahead does not apply on the street (both None on the river)."""

    two_cards: PotentialTable | None
    one_card: PotentialTable | None

    def to_dict(self) -> dict:
        """ppot2, npot2, ppot1, npot1 and both tables (null where they do not apply)."""
        out: dict = {}
        for suffix, table in (("2", self.two_cards), ("1", self.one_card)):
            out["ppot" + suffix] = table.positive_potential if table else None
            out["npot" + suffix] = table.negative_potential if table else None
            out["potential" + suffix] = table.to_dict() if table else None
        return out


@nb.njit(cache=True)
def _completions(dead: np.uint64, cards_to_come: int) -> tuple[np.ndarray, np.ndarray]:
    """Keys and masks of every set of `cards_to_come` (1 or 2) cards not in `dead` (numba kernel)."""
    unseen = np.array([c for c in range(NUM_CARDS) if (CARD_MASKS[c] & dead) == 0])
    n = unseen.size
    count = n if cards_to_come == 1 else n * (n - 1) // 2
    keys = np.empty(count, dtype=np.uint64)
    masks = np.empty(count, dtype=np.uint64)
    j = 0
    for a in range(n):
        if cards_to_come == 1:
            keys[j], masks[j] = CARD_KEYS[unseen[a]], CARD_MASKS[unseen[a]]
            j += 1
            continue
        for b in range(a + 1, n):
            keys[j] = CARD_KEYS[unseen[a]] + CARD_KEYS[unseen[b]]
            masks[j] = CARD_MASKS[unseen[a]] | CARD_MASKS[unseen[b]]
            j += 1
    return keys, masks


@nb.njit(cache=True)
def _our_ranks(hole: np.ndarray, board: np.ndarray, cards_to_come: int):
    """The board's partial hand, our cards' mask, our rank now, every completion (keys, masks) and our final
    rank with each (numba kernel)."""
    board_key, board_mask = hand_key(board)
    key, mask = add_card(board_key, board_mask, hole[0])
    hole_key, hole_mask = add_card(key, mask, hole[1])
    now = rank_of(hole_key, hole_mask)
    keys, masks = _completions(hole_mask, cards_to_come)
    ours = np.empty(keys.size, dtype=np.int32)
    for j in range(keys.size):
        ours[j] = rank_of(hole_key + keys[j], hole_mask | masks[j])
    return board_key, board_mask, hole_mask, now, keys, masks, ours


@nb.njit(inline="always", cache=True)
def _subcase_outcomes(i, board_key, board_mask, now, keys, masks, ours):
    """Holding i's status now (AHEAD, TIED, BEHIND: ours against its) and how many of the completions that
    share no card with it end with us ahead or tied, of how many (numba kernel)."""
    key, mask = add_card(board_key, board_mask, HOLDING_CARDS[i, 0])
    key, mask = add_card(key, mask, HOLDING_CARDS[i, 1])
    theirs = rank_of(key, mask)
    row = AHEAD if now > theirs else (TIED if now == theirs else BEHIND)
    ahead = tied = cases = 0
    for j in range(keys.size):
        if masks[j] & mask:
            continue
        theirs = rank_of(key + keys[j], mask | masks[j])
        ahead += ours[j] > theirs
        tied += ours[j] == theirs
        cases += 1
    return row, ahead, tied, cases


@nb.njit(cache=True)
def potential_counts(
    hole: np.ndarray, board: np.ndarray, weights: np.ndarray, cards_to_come: int
) -> np.ndarray:
    """The weighted 3x3 potential table T[now][final] for 1 or 2 cards to come (numba kernel).

    Our final rank is computed once per completion; each subcase then counts its completions (those that
    share no card with it) by outcome in integers, and adds them to its row times its weight.
    """
    board_key, board_mask, hole_mask, now, keys, masks, ours = _our_ranks(hole, board, cards_to_come)
    table = np.zeros((3, 3))
    for i in range(HOLDING_CARDS.shape[0]):
        if not is_subcase(i, hole_mask, weights):
            continue
        row, ahead, tied, cases = _subcase_outcomes(i, board_key, board_mask, now, keys, masks, ours)
        table[row, AHEAD] += weights[i] * ahead
        table[row, TIED] += weights[i] * tied
        table[row, BEHIND] += weights[i] * (cases - ahead - tied)
    return table


@nb.njit(cache=True)
def holding_counts(hole: np.ndarray, board: np.ndarray, cards_to_come: int) -> tuple[np.ndarray, np.ndarray]:
    """Every holding's row of T (AHEAD, TIED, BEHIND now; -1 where it meets our cards) and its completions
    ending ahead, tied, behind (int16, at most 990), whatever the weights (numba kernel)."""
    board_key, board_mask, hole_mask, now, keys, masks, ours = _our_ranks(hole, board, cards_to_come)
    rows = np.full(HOLDING_CARDS.shape[0], -1, dtype=np.int8)
    counts = np.zeros((HOLDING_CARDS.shape[0], 3), dtype=np.int16)
    for i in range(HOLDING_CARDS.shape[0]):
        if (CARD_MASKS[HOLDING_CARDS[i, 0]] | CARD_MASKS[HOLDING_CARDS[i, 1]]) & hole_mask:
            continue
        row, ahead, tied, cases = _subcase_outcomes(i, board_key, board_mask, now, keys, masks, ours)
        rows[i] = row
        counts[i, AHEAD] = ahead
        counts[i, TIED] = tied
        counts[i, BEHIND] = cases - ahead - tied
    return rows, counts


@nb.njit(inline="always", cache=True)
def split(ours: np.int32, theirs: np.int32) -> np.int32:
    """A completion's outcome for a holding: 1 when we end ahead, 65,536 when tied, else 0 (numba kernel)."""
    return np.int32(ours > theirs) + (np.int32(ours == theirs) << 16)


#: What a card of each rank (2 .. A) adds to the rank part of a hand key (`pokerlab.evaluator_tables`).
_RANK_DIGITS = np.array([5**r for r in range(13)], dtype=np.uint64)
_RANK_PART = np.uint64(RANK_KEY_MASK)
_FLUSH_BITS = np.uint64(FLUSH_BITS)
#: Added to a key's suit counters, sets a flush bit where a suit holds four cards or more.
_FOUR_OF_A_SUIT = np.uint64(0x1111 << SUIT_COUNTER_SHIFT)


@nb.njit(cache=True)
def rank_table(board: np.ndarray, extra: int) -> np.ndarray:
    """What every player's potential on a board shares: the rank of the board with `extra` (3 or 4) more
    cards of ranks r1 <= r2, r3 (<= r4) (0 = deuce .. 12 = ace) when they make no flush, flat at ``(r1 * 13 +
    r2) * 13 + r3`` (3 cards; 2,197 int16) or ``((r1 * 13 + r2) * 13 + r3) * 13 + r4`` (4 cards; 28,561
    int16) (numba kernel). Without a flush a hand's rank depends on its card ranks only; the entries out of
    that order are 0 and those of five cards of one rank are never read."""
    board_key, _ = hand_key(board)
    base = (board_key & _RANK_PART) | START_KEY  # suit counters of no card: never a flush
    table = np.zeros(13**extra, dtype=np.int16)
    for a in range(13):
        for b in range(a, 13):
            for c in range(13):
                key = base + _RANK_DIGITS[a] + _RANK_DIGITS[b] + _RANK_DIGITS[c]
                row = (a * 13 + b) * 13 + c
                if extra == 3:
                    table[row] = rank_of(key, np.uint64(0))
                    continue
                for d in range(c, 13):
                    table[row * 13 + d] = rank_of(key + _RANK_DIGITS[d], np.uint64(0))
    return table


@nb.njit(cache=True)
def two_card_holding_counts(
    hole: np.ndarray, board: np.ndarray, four: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """`holding_counts` with two cards to come on the flop, by card ranks (numba kernel); `four` is the
    flop's `rank_table` of four cards.

    Where the opponent makes no flush, its final rank with holding {a, b} and turn and river {c, d} is
    ``four[class(ab) * 169 + class(cd)]``, its cards' rank classes (r1 <= r2) alone. So a holding's
    outcomes over all 1,081 pairs {c, d} depend only on its rank class (at most 91 sums per flop, each over
    the distinct (class, our final rank) of the completions with their counts), less the 91 pairs that
    share a card with it, plus a correction for every completion with which it makes a flush: those come
    from the four-card sets that hold five cards of a suit with the flop (1,485 sets on a rainbow flop, 6,270
    on a two-tone one, 34,610 on a monotone one), each ranked once by the evaluator and serving its six
    splits into holding and completion. The counts are the integers of the per-subcase loop, which ranks
    1,070,190 hands.

    Layout: the pairs {c, d} (c < d) of unseen cards are flat in order of c then d, pair {c, d} at
    ``start[c] + d - c - 1``; a dummy pair after them (no rank, so never ahead nor tied) stands in for
    {a, a} in ``with_card``.
    """
    board_key, board_mask = hand_key(board)
    key, mask = add_card(board_key, board_mask, hole[0])
    hole_key, hole_mask = add_card(key, mask, hole[1])
    now = rank_of(hole_key, hole_mask)
    unseen = np.array([c for c in range(NUM_CARDS) if (CARD_MASKS[c] & hole_mask) == 0])
    n = unseen.size
    keys = np.empty(n, dtype=np.uint64)
    masks = np.empty(n, dtype=np.uint64)
    for a in range(n):
        keys[a], masks[a] = CARD_KEYS[unseen[a]], CARD_MASKS[unseen[a]]
    pairs = n * (n - 1) // 2
    start = np.empty(n + 1, dtype=np.int64)
    start[0] = 0
    for c in range(n):
        start[c + 1] = start[c] + n - 1 - c
    classes = np.zeros(pairs + 1, dtype=np.int64)  # the pair's card ranks r1 * 13 + r2 (r1 <= r2)
    ours = np.full(pairs + 1, -1, dtype=np.int32)  # our final rank with turn and river c, d
    with_card = np.full((n, n), pairs, dtype=np.int64)  # the pair {a, x}; the dummy where x = a
    for c in range(n):
        for d in range(c + 1, n):
            p = start[c] + d - c - 1
            with_card[c, d] = with_card[d, c] = p
            classes[p] = unseen[c] // 4 * 13 + unseen[d] // 4
            ours[p] = rank_of(hole_key + keys[c] + keys[d], hole_mask | masks[c] | masks[d])
    # the completions as distinct (class, our final rank), with how many pairs each
    order = np.argsort(classes[:pairs] * 65536 + ours[:pairs])
    kinds = np.empty(pairs, dtype=np.int64)
    values = np.empty(pairs, dtype=np.int32)
    sizes = np.empty(pairs, dtype=np.int32)
    m = 0
    for q in order:
        if m > 0 and classes[q] == kinds[m - 1] and ours[q] == values[m - 1]:
            sizes[m - 1] += 1
        else:
            kinds[m], values[m], sizes[m] = classes[q], ours[q], 1
            m += 1
    flushes = _flush_corrections(
        board, board_key, board_mask, unseen, keys, masks, start, classes, ours, four
    )
    by_class = np.zeros(169, dtype=np.int32)  # tally of all 1,081 completions, per holding class
    done = np.zeros(169, dtype=np.bool_)
    cases = (n - 2) * (n - 3) // 2
    rows = np.full(HOLDING_CARDS.shape[0], -1, dtype=np.int8)
    counts = np.zeros((HOLDING_CARDS.shape[0], 3), dtype=np.int16)
    for a in range(n):
        for b in range(a + 1, n):
            h = start[a] + b - a - 1
            row = four[classes[h] * 169 :]
            if not done[classes[h]]:
                total = np.int32(0)
                for j in range(m):
                    total += sizes[j] * split(values[j], row[kinds[j]])
                by_class[classes[h]], done[classes[h]] = total, True
            # tally: completions we end ahead + 65,536 x those we tie (<= 990 each)
            t = by_class[classes[h]] + split(ours[h], row[classes[h]]) + flushes[h]  # {a, b} is met twice
            wa, wb = with_card[a], with_card[b]
            for x in range(n):
                t -= split(ours[wa[x]], row[classes[wa[x]]]) + split(ours[wb[x]], row[classes[wb[x]]])
            i = HOLDING_INDEX[unseen[a], unseen[b]]
            theirs = rank_of(board_key + keys[a] + keys[b], board_mask | masks[a] | masks[b])
            rows[i] = AHEAD if now > theirs else (TIED if now == theirs else BEHIND)
            ahead, tied = t & 0xFFFF, t >> 16
            counts[i, AHEAD] = ahead
            counts[i, TIED] = tied
            counts[i, BEHIND] = cases - ahead - tied
    return rows, counts


@nb.njit(cache=True)
def _flush_corrections(board, board_key, board_mask, unseen, keys, masks, start, classes, ours, four):
    """Per pair as a holding, its tally with the true ranks less that with the rank-table ranks, over the
    completions with which it makes a flush: the four-card sets holding 5 - (the flop's cards of the suit)
    cards of a suit or more, each ranked once (numba kernel)."""
    fix = np.zeros(classes.size, dtype=np.int32)
    on_flop = np.zeros(4, dtype=np.int64)
    for c in board:
        on_flop[c % 4] += 1
    for s in range(4):
        need = 5 - on_flop[s]
        if need > 4:
            continue
        same = np.array([a for a in range(unseen.size) if unseen[a] % 4 == s])
        other = np.array([a for a in range(unseen.size) if unseen[a] % 4 != s])
        for i1 in range(same.size):
            for i2 in range(i1 + 1, same.size):
                w, x = same[i1], same[i2]
                k2, m2 = board_key + keys[w] + keys[x], board_mask | masks[w] | masks[x]
                for i3 in range(i2 + 1, same.size):
                    y = same[i3]
                    k3, m3 = k2 + keys[y], m2 | masks[y]
                    for i4 in range(i3 + 1, same.size):
                        z = same[i4]
                        _fix_set(
                            w, x, y, z, rank_of(k3 + keys[z], m3 | masks[z]), start, classes, ours, four, fix
                        )
                    if need <= 3:
                        for z in other:
                            _fix_set(
                                w,
                                x,
                                y,
                                z,
                                rank_of(k3 + keys[z], m3 | masks[z]),
                                start,
                                classes,
                                ours,
                                four,
                                fix,
                            )
                if need <= 2:
                    for j1 in range(other.size):
                        y = other[j1]
                        k3, m3 = k2 + keys[y], m2 | masks[y]
                        for j2 in range(j1 + 1, other.size):
                            z = other[j2]
                            theirs = rank_of(k3 + keys[z], m3 | masks[z])
                            _fix_set(w, x, y, z, theirs, start, classes, ours, four, fix)
    return fix


@nb.njit(inline="always", cache=True)
def _fix_set(w, x, y, z, theirs, start, classes, ours, four, fix):
    """Set {w, x, y, z} of unseen cards (indices, any order) gives the opponent rank `theirs`: each of its
    six splits into holding and completion trades the rank-table outcome for the true one in `fix`."""
    if w > x:  # sort the four: a network of five compare-exchanges
        w, x = x, w
    if y > z:
        y, z = z, y
    if w > y:
        w, y = y, w
    if x > z:
        x, z = z, x
    if x > y:
        x, y = y, x
    wx, wy, wz = start[w] + x - w - 1, start[w] + y - w - 1, start[w] + z - w - 1
    xy, xz, yz = start[x] + y - x - 1, start[x] + z - x - 1, start[y] + z - y - 1
    _fix_split(wx, yz, theirs, classes, ours, four, fix)
    _fix_split(yz, wx, theirs, classes, ours, four, fix)
    _fix_split(wy, xz, theirs, classes, ours, four, fix)
    _fix_split(xz, wy, theirs, classes, ours, four, fix)
    _fix_split(wz, xy, theirs, classes, ours, four, fix)
    _fix_split(xy, wz, theirs, classes, ours, four, fix)


@nb.njit(inline="always", cache=True)
def _fix_split(holding, completion, theirs, classes, ours, four, fix):
    """Holding `holding` (a pair) with `completion` ends at `theirs`, not at its rank-table entry."""
    o = ours[completion]
    fix[holding] += split(o, theirs) - split(o, four[classes[holding] * 169 + classes[completion]])


@nb.njit(cache=True)
def _unseen_cards(board_mask: np.uint64) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cards not on the board, in code order, with their keys and masks (numba kernel)."""
    unseen = np.array([c for c in range(NUM_CARDS) if (CARD_MASKS[c] & board_mask) == 0])
    keys = np.empty(unseen.size, dtype=np.uint64)
    masks = np.empty(unseen.size, dtype=np.uint64)
    for a in range(unseen.size):
        keys[a], masks[a] = CARD_KEYS[unseen[a]], CARD_MASKS[unseen[a]]
    return unseen, keys, masks


@nb.njit(cache=True)
def _holding_rows(board_key, board_mask, unseen, hole_mask, now):
    """Each live holding's row of T (we are AHEAD, TIED, BEHIND now), -1 where it meets our cards."""
    rows = np.full(HOLDING_CARDS.shape[0], -1, dtype=np.int8)
    for a in range(unseen.size):
        for b in range(a + 1, unseen.size):
            if (CARD_MASKS[unseen[a]] | CARD_MASKS[unseen[b]]) & hole_mask:
                continue
            key, mask = add_card(board_key, board_mask, unseen[a])
            key, mask = add_card(key, mask, unseen[b])
            theirs = rank_of(key, mask)
            row = AHEAD if now > theirs else (TIED if now == theirs else BEHIND)
            rows[HOLDING_INDEX[unseen[a], unseen[b]]] = row
    return rows


@nb.njit(cache=True)
def one_card_holding_counts(
    hole: np.ndarray, board: np.ndarray, three: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """`holding_counts` with one card to come, from the board's `rank_table` of three cards (numba kernel).

    Where the opponent makes no flush, holding {a, b} with card c to come ranks ``three[class(ab) * 13 +
    rank(c)]``, by card ranks alone: a holding's outcomes over every card to come depend only on its rank
    class (one row of n compares per class, at most 91), less its own two cards, plus a correction for each
    card with which it makes a flush (only where the board, a and b hold four cards of a suit), ranked by
    the evaluator."""
    board_key, board_mask = hand_key(board)
    unseen, keys, masks = _unseen_cards(board_mask)
    n = unseen.size
    key, mask = add_card(board_key, board_mask, hole[0])
    hole_key, hole_mask = add_card(key, mask, hole[1])
    ours = np.empty(n, dtype=np.int32)  # our final rank with each card to come, -1 for our own cards
    for c in range(n):
        ours[c] = -1 if masks[c] & hole_mask else rank_of(hole_key + keys[c], hole_mask | masks[c])
    rows = _holding_rows(board_key, board_mask, unseen, hole_mask, rank_of(hole_key, hole_mask))
    counts = np.zeros((HOLDING_CARDS.shape[0], 3), dtype=np.int16)
    by_class = np.zeros(169, dtype=np.int32)  # tally over every card to come, per holding class
    done = np.zeros(169, dtype=np.bool_)
    cases = n - 4
    for a in range(n):
        for b in range(a + 1, n):
            i = HOLDING_INDEX[unseen[a], unseen[b]]
            if rows[i] < 0:
                continue
            kind = unseen[a] // 4 * 13 + unseen[b] // 4
            row = three[kind * 13 :]
            if not done[kind]:
                total = np.int32(0)
                for c in range(n):
                    total += split(ours[c], row[unseen[c] // 4])
                by_class[kind], done[kind] = total, True
            # tally: cards we end ahead + 65,536 x those we tie; a and b are no card to come
            t = by_class[kind] - split(ours[a], row[unseen[a] // 4]) - split(ours[b], row[unseen[b] // 4])
            kb, mb = board_key + keys[a] + keys[b], board_mask | masks[a] | masks[b]
            if (kb + _FOUR_OF_A_SUIT) & _FLUSH_BITS:
                for c in range(n):
                    k = kb + keys[c]
                    if c != a and c != b and k & _FLUSH_BITS:
                        theirs = rank_of(k, mb | masks[c])
                        t += split(ours[c], theirs) - split(ours[c], row[unseen[c] // 4])
            ahead, tied = t & 0xFFFF, t >> 16
            counts[i, AHEAD] = ahead
            counts[i, TIED] = tied
            counts[i, BEHIND] = cases - ahead - tied
    return rows, counts


@nb.njit(cache=True)
def combine_counts(rows: np.ndarray, counts: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The weighted table T from `holding_counts`: each subcase (live, weight > 0) adds its counts times its
    weight to its row, in the order and arithmetic of `potential_counts` (numba kernel)."""
    table = np.zeros((3, 3))
    for i in range(rows.size):
        row = rows[i]
        if row < 0 or not weights[i] > 0:
            continue
        w = weights[i]
        table[row, AHEAD] += w * np.int64(counts[i, AHEAD])
        table[row, TIED] += w * np.int64(counts[i, TIED])
        table[row, BEHIND] += w * np.int64(counts[i, BEHIND])
    return table


class CountsCache:
    """A bounded LRU cache of `holding_counts` per (hole, board, cards to come), with hit counts, and of what
    those counts are made from per board and cards to come (`rank_table`), which every player on a board
    shares.

    An entry holds 1,326 rows and 3 x 1,326 counts (9.3 KB): the default 2,048 entries take at most 19 MB;
    a board's rank table 4 KB (one card to come) or 57 KB (two); the last ``boards`` of those are kept.
    """

    def __init__(self, maxsize: int = 2048, boards: int = 16) -> None:
        self.maxsize, self.boards = maxsize, boards
        self.enabled = True
        self.hits = self.misses = 0
        self._entries: OrderedDict = OrderedDict()
        self._boards: OrderedDict = OrderedDict()

    def counts(self, hole: np.ndarray, board: np.ndarray, cards_to_come: int) -> tuple[np.ndarray, ...]:
        """The (rows, counts) of `holding_counts`, computed once per cards (in any order) while cached."""
        a, b = int(hole[0]), int(hole[1])
        board_key = np.sort(board).tobytes()
        key = (min(a, b), max(a, b), board_key, cards_to_come)
        entry = self._entries.get(key)
        if entry is not None:
            self.hits += 1
            self._entries.move_to_end(key)
            return entry
        self.misses += 1
        shared = self._per_board((board_key, cards_to_come), board)
        if cards_to_come == 2:
            entry = two_card_holding_counts(hole, board, shared)
        else:
            entry = one_card_holding_counts(hole, board, shared)
        self._entries[key] = entry
        if len(self._entries) > self.maxsize:
            self._entries.popitem(last=False)
        return entry

    def _per_board(self, key: tuple, board: np.ndarray) -> np.ndarray:
        """The board's `rank_table` for ``key[1]`` cards to come, kept for the last `boards` keys."""
        ranks = self._boards.get(key)
        if ranks is None:
            ranks = self._boards[key] = rank_table(board, key[1] + 2)
            if len(self._boards) > self.boards:
                self._boards.popitem(last=False)
        else:
            self._boards.move_to_end(key)
        return ranks

    def clear(self) -> None:
        """Drop every entry and board and reset the hit counts."""
        self._entries.clear()
        self._boards.clear()
        self.hits = self.misses = 0

    @property
    def hit_rate(self) -> float:
        """Hits over look-ups (0 before any)."""
        total = self.hits + self.misses
        return self.hits / total if total else 0.0

    def __len__(self) -> int:
        return len(self._entries)


#: The process's cache of per-holding potential counts, shared by every player; `enabled` False turns it off.
COUNTS_CACHE = CountsCache()


def potential_of(known: Situation) -> HandPotential:
    """Hand potential in a prepared `Situation`: both look-aheads on the flop, one on the turn, none after."""

    def table(cards_to_come: int) -> PotentialTable:
        if COUNTS_CACHE.enabled:
            rows, holding = COUNTS_CACHE.counts(known.hole, known.board, cards_to_come)
            counts = combine_counts(rows, holding, known.weights)
        else:
            counts = potential_counts(known.hole, known.board, known.weights, cards_to_come)
        return PotentialTable(counts, cards_to_come, known.weighted)

    board_size = known.board.size
    return HandPotential(
        two_cards=table(2) if board_size == 3 else None, one_card=table(1) if board_size < 5 else None
    )


def hand_potential(hole: CardsLike, board: CardsLike, weights: object = None) -> HandPotential:
    """Hand potential of our `hole` cards on a flop, turn or river `board` against an opponent whose holdings
    are weighted by `weights` (1,326 floats, None for uniform).

    >>> pot = hand_potential("Ad Qc", "3h 4c Jh")  # Billings et al. 1998, Table 2: rows now ahead/tied/behind
    >>> pot.two_cards.table()
    [[449005, 3211, 169504], [0, 8370, 540], [91981, 1036, 346543]]
    >>> round(pot.two_cards.positive_potential, 3), round(pot.two_cards.negative_potential, 3)
    (0.208, 0.274)
    >>> round(pot.one_card.positive_potential, 3), round(pot.one_card.negative_potential, 3)
    (0.108, 0.145)
    """
    return potential_of(situation(hole, board, weights))
