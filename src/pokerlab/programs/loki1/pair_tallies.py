"""The completion tallies of every pair of holdings on a board at once: for holdings h and o that share no
card, over the cards to come T (one or two) that share none with either, how many end with h ahead and how
many tied (Billings et al. 1998 §4.2: the counts behind each pair's row of the potential table T[now][final]),
made from the board's ranks by card ranks and corrections for the flushes: 5 to 60 ms a flop by its suits,
where counting them holding by holding (`board_pairs.plain_pair_counts`, kept as the oracle) takes 200 ms.

A tally is ``ahead + 65,536 * tied`` (each at most 990), so that the sums below add both at once; ``p(x, y)``
is one completion's: 1 if rank x beats rank y, 65,536 if they tie, else 0. Without a flush a hand's rank is
a function of its card ranks (`pokerlab.analysis.potential.rank_table`): nf(k, t) for a holding of rank
class k (its two ranks) and cards to come of rank class t. R(h, T) is the true rank of the board with h and
T, and h *flushes with* T when the board, h and T hold five cards of a suit (else R = nf). Then

    tally(h, o) = sum over T of p(R(h, T), R(o, T))
                = C(k_h, k_o) + X(h, o) + Xbar(h, o) + Y(h, o), where

* C(k_h, k_o) = sum over T of p(nf(k_h, t), nf(k_o, t)): by rank class t of T, times the number of such T
  left by the board, h and o, which depends on their ranks alone (a table per pair of rank classes);
* X(h, o) = sum over the T that h flushes with of p(R(h, T), nf(k_o, t)) - p(nf(k_h, t), nf(k_o, t)): o
  enters by its rank class only, so the sums over every T that misses h, per class (``XA``), less those
  over the T that hold one of o's cards (``XB``, per card and other rank), plus the T that is o's two
  cards, counted out twice (inclusion and exclusion);
* Xbar(h, o), the same for o's flushes, h taken by its rank class: p(nf(k_h, t), R(o, T)) - p(nf(k_h, t),
  nf(k_o, t)), which is o's X with ahead and behind trading places (`_swapped`);
* Y(h, o) = sum over the T both flush with of p(R_h, R_o) - p(R_h, nf_o) - p(nf_h, R_o) + p(nf_h, nf_o),
  summed pair by pair, once per two classes of holdings (`_swapped` gives the other): the one part that
  does not go by classes, and the costliest on a flop of one suit, where every holding can flush.

The flush parts are counted for one holding of each class under the renamings of suits that keep the board,
and copied to the others (as the oracle does). The tallies are integers: equal to the oracle's exactly.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pokerlab.analysis.potential import split
from pokerlab.cards import CARD_MASKS, NUM_CARDS
from pokerlab.evaluator import CARD_KEYS, hand_key, rank_of
from pokerlab.evaluator_tables import FLUSH_BITS
from pokerlab.holdings import HOLDING_CARDS, HOLDING_INDEX

_FLUSH_BITS = np.uint64(FLUSH_BITS)


@nb.njit(inline="always", cache=True)
def _kind(low: int, high: int) -> int:
    """The rank class of two cards of ranks `low` and `high` in either order: smaller * 13 + larger."""
    return low * 13 + high if low <= high else high * 13 + low


@nb.njit(cache=True)
def _class_tallies(board: np.ndarray, cards_to_come: int, table: np.ndarray) -> np.ndarray:
    """int64[169, 169]: C(k_h, k_o) of the module doc for every two rank classes of holdings (numba kernel).

    By rank class t of the cards to come, the number left is a product of how many cards of each rank the
    board, h and o leave (classes no two holdings can be together get counts that mean nothing, never
    read). The tally of (k_o, k_h) follows from that of (k_h, k_o): ahead and behind trade places."""
    stride = 13**cards_to_come
    left = np.full(13, 4, dtype=np.int64)
    for c in board:
        left[c // 4] -= 1
    out = np.zeros((169, 169), dtype=np.int64)
    avail = np.empty(13, dtype=np.int64)
    for k1 in range(169):
        if k1 // 13 > k1 % 13:
            continue
        for k2 in range(k1, 169):
            if k2 // 13 > k2 % 13:
                continue
            avail[:] = left
            avail[k1 // 13] -= 1
            avail[k1 % 13] -= 1
            avail[k2 // 13] -= 1
            avail[k2 % 13] -= 1
            total = 0
            cases = 0
            if cards_to_come == 1:
                for r in range(13):
                    if avail[r] > 0:
                        total += avail[r] * split(table[k1 * 13 + r], table[k2 * 13 + r])
                        cases += avail[r]
            else:
                for r3 in range(13):
                    if avail[r3] <= 0:
                        continue
                    for r4 in range(r3, 13):
                        count = avail[r3] * (avail[r3] - 1) // 2 if r3 == r4 else avail[r3] * avail[r4]
                        if count <= 0:
                            continue
                        t = r3 * 13 + r4
                        total += count * split(table[k1 * stride + t], table[k2 * stride + t])
                        cases += count
            out[k1, k2] = total
            tied = total >> 16
            out[k2, k1] = (cases - (total & 0xFFFF) - tied) + (tied << 16)
    return out


@nb.njit(cache=True)
def _holdings(order: np.ndarray):
    """The cards, rank class, key and mask of the holdings of `order`, by position (numba kernel)."""
    n = order.size
    cards = np.empty((n, 2), dtype=np.int64)
    kind = np.empty(n, dtype=np.int64)
    keys = np.empty(n, dtype=np.uint64)
    masks = np.empty(n, dtype=np.uint64)
    for i in range(n):
        a, b = HOLDING_CARDS[order[i], 0], HOLDING_CARDS[order[i], 1]
        cards[i, 0], cards[i, 1] = a, b
        kind[i] = _kind(a // 4, b // 4)
        keys[i] = CARD_KEYS[a] + CARD_KEYS[b]
        masks[i] = CARD_MASKS[a] | CARD_MASKS[b]
    return cards, kind, keys, masks


@nb.njit(cache=True)
def _cards_to_come(board_mask: np.uint64, cards_to_come: int):
    """Every set of 1 or 2 cards to come (the second -1 for one), with its rank class, key and mask
    (numba kernel)."""
    unseen = np.array([c for c in range(NUM_CARDS) if (CARD_MASKS[c] & board_mask) == 0])
    u = unseen.size
    count = u if cards_to_come == 1 else u * (u - 1) // 2
    come = np.full((count, 2), -1, dtype=np.int64)
    kind = np.empty(count, dtype=np.int64)
    keys = np.empty(count, dtype=np.uint64)
    masks = np.empty(count, dtype=np.uint64)
    t = 0
    for x in range(u):
        if cards_to_come == 1:
            c = unseen[x]
            come[t, 0], kind[t], keys[t], masks[t] = c, c // 4, CARD_KEYS[c], CARD_MASKS[c]
            t += 1
            continue
        for y in range(x + 1, u):
            c, d = unseen[x], unseen[y]
            come[t, 0], come[t, 1], kind[t] = c, d, _kind(c // 4, d // 4)
            keys[t], masks[t] = CARD_KEYS[c] + CARD_KEYS[d], CARD_MASKS[c] | CARD_MASKS[d]
            t += 1
    return come, kind, keys, masks


@nb.njit(cache=True)
def _flushes(board, cards_to_come, table, cards, kind, keys, masks, come_kind, come_keys, come_masks, images):
    """The holdings that flush with some cards to come (`able`: their row, else -1; `holder`: by row), their
    classes under the renamings (`images`) numbered in order of their first holding (`stamp`), and the
    flushes that change a rank (numba kernel): per such holding the cards to come and its true rank
    (`by_holding`, `rank`, `flushes` of each), and per cards to come (`per_come` the start of its run)
    the holdings, by class, with their true and their rank-class ranks and masks."""
    n, count, stride = kind.size, come_kind.size, 13**cards_to_come
    board_key, board_mask = hand_key(board)
    most = np.zeros(4, dtype=np.int64)
    for c in board:
        most[c % 4] += 1
    able = np.full(n, -1, dtype=np.int64)
    found = 0
    for i in range(n):
        for s in range(4):
            if most[s] + (cards[i, 0] % 4 == s) + (cards[i, 1] % 4 == s) + cards_to_come >= 5:
                able[i] = found
                found += 1
                break
    holder = np.empty(found, dtype=np.int64)
    by_holding = np.empty((found, count), dtype=np.int64)
    rank = np.empty((found, count), dtype=np.int32)
    flushes = np.zeros(found, dtype=np.int64)
    per_come = np.zeros(count + 1, dtype=np.int64)
    for i in range(n):
        f = able[i]
        if f < 0:
            continue
        holder[f] = i
        for t in range(count):
            key = board_key + keys[i] + come_keys[t]
            if come_masks[t] & masks[i] or not key & _FLUSH_BITS:
                continue
            r = rank_of(key, board_mask | masks[i] | come_masks[t])
            if r != table[kind[i] * stride + come_kind[t]]:
                by_holding[f, flushes[f]], rank[f, flushes[f]] = t, r
                flushes[f] += 1
                per_come[t + 1] += 1
    for t in range(count):
        per_come[t + 1] += per_come[t]
    total = per_come[count]
    their_holder = np.empty(total, dtype=np.int64)
    their_rank = np.empty(total, dtype=np.int32)
    their_plain = np.empty(total, dtype=np.int32)
    their_mask = np.empty(total, dtype=np.uint64)
    stamp = np.full(n, -1, dtype=np.int64)
    sequence = np.empty(found, dtype=np.int64)  # the rows, class by class
    classes = filled = 0
    for f in range(found):
        if stamp[holder[f]] >= 0:
            continue
        for m in range(images.shape[0]):
            g = images[m, holder[f]]
            if stamp[g] < 0:
                stamp[g], sequence[filled] = classes, able[g]
                filled += 1
        classes += 1
    filled = per_come[:count].copy()
    for f in sequence:
        for q in range(flushes[f]):
            t, z = by_holding[f, q], filled[by_holding[f, q]]
            their_holder[z], their_rank[z], their_mask[z] = holder[f], rank[f, q], masks[holder[f]]
            their_plain[z] = table[kind[holder[f]] * stride + come_kind[t]]
            filled[t] += 1
    return (
        able,
        holder,
        stamp,
        (by_holding, rank, flushes),
        (per_come, their_holder, their_rank, their_plain, their_mask),
    )


@nb.njit(cache=True)
def _one_suit(board, cards_to_come, come):
    """Per cards to come, the suit of all its cards where the board and they hold three or more of it, else
    -1 (numba kernel): every flush with them is of that suit, and a holding's rank with them depends only
    on its cards of that suit and the ranks of its others."""
    on_board = np.zeros(4, dtype=np.int64)
    for c in board:
        on_board[c % 4] += 1
    out = np.full(come.shape[0], -1, dtype=np.int64)
    for t in range(come.shape[0]):
        s = come[t, 0] % 4
        if (cards_to_come == 1 or come[t, 1] % 4 == s) and on_board[s] + cards_to_come >= 3:
            out[t] = s
    return out


@nb.njit(cache=True)
def _both_by_type(cards, one_suit, per_come, their_holder, their_rank, their_plain):
    """Y over the cards to come of `one_suit`, by type: a holding's type for suit s is its cards of suit s
    and the ranks of its others, which fix its ranks with such cards to come and whether it misses them
    (numba kernel). Returns ``type_of`` (int[4, n]: per suit, each holding's type, -1 where it flushes with
    none of them) and ``both`` (int32[4, m, m]: Y per suit and pair of types), each pair of types counted
    once and swapped for the other order."""
    n, count = cards.shape[0], one_suit.size
    code_of = np.full((4, 676), -1, dtype=np.int64)  # per suit, the type of each pair of card codes
    type_of = np.full((4, n), -1, dtype=np.int64)
    types = np.zeros(4, dtype=np.int64)
    for t in range(count):
        s = one_suit[t]
        if s < 0:
            continue
        for z in range(per_come[t], per_come[t + 1]):
            j = their_holder[z]
            if type_of[s, j] >= 0:
                continue
            a, b = cards[j, 0], cards[j, 1]
            ca = a // 4 + 13 * (a % 4 == s)
            cb = b // 4 + 13 * (b % 4 == s)
            code = min(ca, cb) * 26 + max(ca, cb)
            if code_of[s, code] < 0:
                code_of[s, code] = types[s]
                types[s] += 1
            type_of[s, j] = code_of[s, code]
    m = types.max()
    both = np.zeros((4, m, m), dtype=np.int32)
    seen = np.full(m, -1, dtype=np.int64)
    kinds = np.empty(m, dtype=np.int64)
    ranks = np.empty(m, dtype=np.int64)
    plains = np.empty(m, dtype=np.int64)
    for t in range(count):
        s = one_suit[t]
        if s < 0:
            continue
        distinct = 0
        for z in range(per_come[t], per_come[t + 1]):
            kind = type_of[s, their_holder[z]]
            if seen[kind] != t:
                seen[kind] = t
                kinds[distinct], ranks[distinct], plains[distinct] = kind, their_rank[z], their_plain[z]
                distinct += 1
        table = both[s]
        for x in range(distinct):
            mine, plain, row = ranks[x], plains[x], kinds[x]
            for y in range(x, distinct):
                theirs, their = ranks[y], plains[y]
                v = split(mine, theirs) - split(mine, their) - split(plain, theirs) + split(plain, their)
                table[row, kinds[y]] += v
                if y != x:
                    table[kinds[y], row] += _swapped(v)
    return type_of, both


@nb.njit(cache=True)
def _corrections(mine, plain, column, x, ahead):
    """x[k]: the change in the tally of a holding now at rank `mine` instead of `plain` against one at
    ``column[k]``, added to `ahead` (numba kernel; runs vectorised)."""
    for k in range(column.size):
        v = column[k]
        x[k] = (mine > v) - (plain > v) + (((mine == v) - (plain == v)) << 16)
        ahead[k] += x[k]


@nb.njit(inline="always", cache=True)
def _swapped(tally: np.int64) -> np.int64:
    """The tally of o against h from that of h against o, both sums of differences of tallies over the same
    completions (ahead and behind trade places; the constant parts cancel)."""
    tied = (tally + 32768) >> 16
    ahead = tally - (tied << 16)
    return -ahead - tied + (tied << 16)


@nb.njit(cache=True)
def _by_class(
    cards_to_come, table, renamings, images, holdings, cards_to_come_of, classes, one_suit, flushing
):
    """X (``XA`` by rank class, ``XB`` by card held and the other rank) and Y (pair by pair, but over the
    cards to come of `one_suit`) of the holdings that can flush (`holdings`: the kinds and masks of all;
    `cards_to_come_of`: their cards and kinds; `classes`: nf by kind of the cards to come then compact class,
    and the compact class of two ranks), counted for one holding of each class under the renamings and
    copied to its images (numba kernel); Y of a holding against those of the classes not done yet, and of
    those against it by `_swapped`."""
    able, holder, stamp = flushing[0], flushing[1], flushing[2]
    (kind, masks), (come, come_kind), (plain_of, with_ranks) = holdings, cards_to_come_of, classes
    by_holding, rank, flushes = flushing[3]
    per_come, their_holder, their_rank, their_plain, their_mask = flushing[4]
    n, found, stride = kind.size, holder.size, 13**cards_to_come
    ahead_all = np.zeros((found, plain_of.shape[1]), dtype=np.int32)  # XA
    ahead_with = np.zeros((found, NUM_CARDS, 13), dtype=np.int32)  # XB: by card held and the other rank
    both_of = np.zeros((found, found), dtype=np.int32)  # Y, by row among the holdings that can flush
    x = np.zeros(plain_of.shape[1], dtype=np.int32)
    both = np.zeros(n, dtype=np.int64)
    done = np.zeros(n, dtype=np.bool_)
    unseen_from = per_come[:-1].copy()  # per cards to come, where the holdings of the classes not done start
    for f in range(found):
        i = holder[f]
        if done[i]:
            continue
        both[:] = 0
        for q in range(flushes[f]):
            t = by_holding[f, q]
            mine, kt = rank[f, q], come_kind[t]
            plain = table[kind[i] * stride + kt]
            _corrections(mine, plain, plain_of[kt], x, ahead_all[f])
            for e in range(cards_to_come):
                c = come[t, e]
                with_rank = with_ranks[c // 4]
                for r in range(13):
                    ahead_with[f, c, r] += x[with_rank[r]]
            if one_suit[t] >= 0:  # by type, below
                continue
            while unseen_from[t] < per_come[t + 1] and stamp[their_holder[unseen_from[t]]] < stamp[i]:
                unseen_from[t] += 1  # past the classes done
            for z in range(unseen_from[t], per_come[t + 1]):
                j = their_holder[z]
                if masks[i] & their_mask[z]:
                    continue
                theirs, their = their_rank[z], their_plain[z]
                both[j] += (
                    split(mine, theirs) - split(mine, their) - split(plain, theirs) + split(plain, their)
                )
        for m in range(renamings.shape[0]):
            g = images[m, i]
            if done[g]:
                continue
            done[g] = True
            h = able[g]
            ahead_all[h] = ahead_all[f]
            for c in range(NUM_CARDS):
                ahead_with[h, renamings[m, c]] = ahead_with[f, c]
            for j in range(n):
                if both[j]:
                    both_of[h, able[images[m, j]]] = both[j]
                    both_of[able[images[m, j]], h] = _swapped(both[j])
    return ahead_all, ahead_with, both_of


@nb.njit(cache=True)
def pair_counts(board, cards_to_come, table, order, first_tied, after_tied, renamings):
    """(equity, tied_ahead) of `board_pairs.BoardPairs` from the tallies of every pair of the holdings of
    `order` (sorted by rank now; `first_tied`, `after_tied` their runs of ties) with 1 or 2 `cards_to_come`
    on `board` (`table`: its `rank_table` of cards_to_come + 2 cards; `renamings`: int[m, 52], the renamings
    of suits that keep the board, none first) (numba kernel)."""
    n = order.size
    stride = 13**cards_to_come
    board_key, board_mask = hand_key(board)
    cards, kind, keys, masks = _holdings(order)
    position = np.full(HOLDING_CARDS.shape[0], -1, dtype=np.int64)
    for i in range(n):
        position[order[i]] = i
    images = np.empty((renamings.shape[0], n), dtype=np.int64)  # the position each holding's image takes
    for m in range(renamings.shape[0]):
        for i in range(n):
            images[m, i] = position[HOLDING_INDEX[renamings[m, cards[i, 0]], renamings[m, cards[i, 1]]]]
    come, come_kind, come_keys, come_masks = _cards_to_come(board_mask, cards_to_come)
    flushing = _flushes(
        board, cards_to_come, table, cards, kind, keys, masks, come_kind, come_keys, come_masks, images
    )
    able, holder, (per_come, their_holder, their_rank, their_plain) = (
        flushing[0],
        flushing[1],
        flushing[4][:4],
    )
    found = holder.size
    one_suit = _one_suit(board, cards_to_come, come)
    type_of, by_type = _both_by_type(cards, one_suit, per_come, their_holder, their_rank, their_plain)
    # the rank classes of holdings, compact (91), and nf(k, t) by t then k
    valid = np.array([k for k in range(169) if k // 13 <= k % 13])
    compact = np.full(169, -1, dtype=np.int64)
    compact[valid] = np.arange(valid.size)
    with_ranks = np.empty((13, 13), dtype=np.int64)  # the compact class of two cards of ranks r1, r2
    for r1 in range(13):
        for r2 in range(13):
            with_ranks[r1, r2] = compact[_kind(r1, r2)]
    plain_of = np.empty((stride, valid.size), dtype=np.int32)
    for t in range(stride):
        for q in range(valid.size):
            plain_of[t, q] = table[valid[q] * stride + t]
    holdings, cards_to_come_of, columns = (kind, masks), (come, come_kind), (plain_of, with_ranks)
    ahead_all, ahead_with, both_of = _by_class(
        cards_to_come, table, renamings, images, holdings, cards_to_come_of, columns, one_suit, flushing
    )
    # every pair, a row at a time in tallies: C and the row's X against all, the columns' Xbar, the cards to
    # come that are the other holding's two; then as counts
    classes = _class_tallies(board, cards_to_come, table)
    of_class = compact[kind]
    equity = np.empty((n, n), dtype=np.float32)
    tied_ahead = np.zeros((n, (after_tied - first_tied).max()), dtype=np.float32)
    holding = np.empty((NUM_CARDS, n), dtype=np.int64)  # by card, the positions of the holdings with it
    held = np.zeros(NUM_CARDS, dtype=np.int64)
    for i in range(n):
        for e in range(2):
            holding[cards[i, e], held[cards[i, e]]] = i
            held[cards[i, e]] += 1
    everyone = np.arange(n)
    across = np.ascontiguousarray(ahead_all.T)  # the holdings that can flush by column: X by class
    across_with = np.empty((NUM_CARDS, 13, found), dtype=np.int32)  # and by card and other rank
    for f in range(found):
        for c in range(NUM_CARDS):
            for r in range(13):
                across_with[c, r, f] = ahead_with[f, c, r]
    typed = [s for s in range(4) if (one_suit == s).any()]
    column_type = np.empty((4, found), dtype=np.int64)
    for s in range(4):
        column_type[s] = type_of[s][holder]
    row = np.empty(n, dtype=np.int64)
    base = np.empty(valid.size, dtype=np.int64)
    for i in range(n):
        fi, ki, ai, bi = able[i], kind[i], cards[i, 0], cards[i, 1]
        for q in range(valid.size):
            base[q] = classes[ki, valid[q]]
        if fi < 0:
            for j in range(n):
                row[j] = base[of_class[j]]
        else:
            base += ahead_all[fi]
            mine = ahead_with[fi]
            for j in range(n):
                aj, bj = cards[j, 0], cards[j, 1]
                row[j] = base[of_class[j]] - mine[aj, bj // 4] - mine[bj, aj // 4]
        theirs_all, theirs_a, theirs_b = (
            across[of_class[i]],
            across_with[ai, bi // 4],
            across_with[bi, ai // 4],
        )
        for f in range(found):
            row[holder[f]] += _swapped(theirs_all[f] - theirs_a[f] - theirs_b[f])
        if fi >= 0:
            for f in range(found):
                row[holder[f]] += both_of[fi, f]
            for s in typed:
                if type_of[s, i] >= 0:
                    mine_by_type = by_type[s, type_of[s, i]]
                    for f in range(found):
                        if column_type[s, f] >= 0:
                            row[holder[f]] += mine_by_type[column_type[s, f]]
        if cards_to_come == 2:
            for j in holder if fi < 0 else everyone:
                key = board_key + keys[i] + keys[j]
                if not key & _FLUSH_BITS or masks[i] & masks[j]:
                    continue
                r, kj = rank_of(key, board_mask | masks[i] | masks[j]), kind[j]
                if fi >= 0:
                    theirs = table[kj * stride + kj]
                    row[j] += split(r, theirs) - split(table[ki * stride + kj], theirs)
                if able[j] >= 0:
                    plain = table[ki * stride + ki]
                    row[j] += split(plain, r) - split(plain, table[kj * stride + ki])
        for j in range(n):
            equity[i, j] = 2 * (row[j] & 0xFFFF) + (row[j] >> 16)
        for j in range(first_tied[i], after_tied[i]):
            tied_ahead[i, j - first_tied[i]] = row[j] & 0xFFFF
        for e in range(2):  # the holdings that share a card with it
            for j in holding[cards[i, e], : held[cards[i, e]]]:
                equity[i, j] = 0.0
                if first_tied[i] <= j < after_tied[i]:
                    tied_ahead[i, j - first_tied[i]] = 0.0
    return equity, tied_ahead
