"""Exact best response to a heads-up limit strategy that ignores the cards (always fold, always call, always
raise, or any fixed fold/call/raise mix), by walking the public betting tree (Johanson et al. 2011).

Such an opponent never reveals or depends on its cards, so the best responder's belief about the opponent's
holding stays uniform over the cards it cannot see, and its value at a showdown with holding h on board B
is ``(2 e - 1) * stake``, where ``e`` is h's equity (wins plus half the ties) against a uniformly random
opposing holding. The walk therefore needs, for every board and holding, that one equity, computed for all
holdings of a board at once by ranking them and counting in rank order with a correction per card
(Johanson et al. 2011, the O(n) showdown). Everything above the river is a max (the best responder's
node), a fixed mix (the opponent's node) or an average over the next card.

The betting tree comes from the engine (`pokerlab.engine.HandState`): every betting round is compiled, once
per amount each player has put in when it starts, into a small program of nodes; rounds link through those
amounts. A fold the opponent chooses when checking is free is a check (as the ACPC dealer rules), and a raise
it chooses when the cap is reached is a call.

Work: the 1,755 flops that differ by more than a renaming of suits, each with every turn and river (about 2.1
million boards of 1,081 holdings), in numba kernels; `reference_best_response` is the plain, slow walk over
the engine's tree that the tests compare against on small decks.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

import numba as nb
import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.cards import CARD_MASKS, NUM_CARDS, card_suit
from pokerlab.engine import RIVER, GameConfig, HandState
from pokerlab.errors import ConfigError
from pokerlab.evaluator import CARD_KEYS, START_KEY, evaluate, rank_of

#: Node kinds of a compiled betting round.
_BEST, _MIX, _FOLDED, _NEXT, _SHOWDOWN = 0, 1, 2, 3, 4


@dataclass(frozen=True)
class FixedStrategy:
    """A strategy that ignores the cards: fold, call and raise with these probabilities at every decision.

    A fold when checking is free is played as a check, a raise under the cap as a call (`probabilities`).
    """

    fold: float = 0.0
    call: float = 0.0
    raise_: float = 0.0

    def __post_init__(self) -> None:
        values = (self.fold, self.call, self.raise_)
        if any(not isinstance(v, int | float) or isinstance(v, bool) or not 0 <= v <= 1 for v in values):
            raise ConfigError(f"fold, call and raise probabilities must lie in [0, 1], got {values}")
        if abs(sum(values) - 1) > 1e-9:
            raise ConfigError(f"fold, call and raise probabilities must add up to 1, got {sum(values):g}")

    @classmethod
    def parse(cls, text: str) -> FixedStrategy:
        """``fold``, ``call``, ``raise``, or a mix ``call=0.5,raise=0.5`` (unnamed actions: 0).

        >>> FixedStrategy.parse("call=0.25,raise=0.75")
        FixedStrategy(fold=0.0, call=0.25, raise_=0.75)
        """
        names = ("fold", "call", "raise")
        text = text.strip().lower()
        if text in names:
            return cls(**{("raise_" if text == "raise" else text): 1.0})
        values = dict.fromkeys(names, 0.0)
        for part in text.split(","):
            name, eq, number = part.partition("=")
            name = name.strip()
            if name not in names or not eq:
                raise ConfigError(
                    f"a fixed strategy is fold, call, raise or a mix like call=0.5,raise=0.5; got {text!r}"
                )
            try:
                values[name] = float(number)
            except ValueError:
                raise ConfigError(
                    f"the probability of {name} must be a number, got {number.strip()!r}"
                ) from None
        return cls(values["fold"], values["call"], values["raise"])

    @property
    def name(self) -> str:
        """``call`` for a pure strategy, else the mix, e.g. ``call=0.5,raise=0.5``."""
        pairs = [(n, p) for n, p in zip(("fold", "call", "raise"), self.triple(), strict=True) if p > 0]
        return pairs[0][0] if len(pairs) == 1 else ",".join(f"{n}={p:g}" for n, p in pairs)

    def triple(self) -> tuple[float, float, float]:
        """(fold, call, raise) probabilities as given."""
        return (self.fold, self.call, self.raise_)

    def probabilities(self, legal: Sequence[int], to_call: int) -> dict[int, float]:
        """The probability of each legal action: fold becomes check when nothing is owed, raise becomes call
        when raising is not legal."""
        fold, call, raise_ = self.triple()
        if to_call == 0 or FOLD not in legal:
            call, fold = call + fold, 0.0
        if RAISE not in legal:
            call, raise_ = call + raise_, 0.0
        probs = {FOLD: fold, CALL: call, RAISE: raise_}
        return {a: probs[a] for a in legal}


# -- the betting tree, compiled from the engine ----------------------------------------------------------


@dataclass
class _Round:
    """The compiled programs of one betting round for every job: node arrays (children after parents) and
    `roots[q]`, the root of the round started at the q-th (job, amount) entry."""

    kind: list
    first: list
    count: list
    child: list
    prob: list
    const: list  # chips won (+) or lost (-) at a fold; the stake at a showdown
    ref: list  # the next round's entry at a _NEXT leaf
    roots: list
    entries: dict  # (job, chips each has put in) -> q

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The program as `_walk` takes it: the node arrays, then the inner nodes (children first), the
        _NEXT leaves and the showdowns as lists of node indices."""
        kind = np.array(self.kind, np.int8)
        inner = np.flatnonzero((kind == _BEST) | (kind == _MIX))[::-1]
        return (
            kind,
            np.array(self.first, np.int32),
            np.array(self.count, np.int32),
            np.array(self.child, np.int32),
            np.array(self.prob, np.float64),
            np.array(self.const, np.float64),
            np.array(self.ref, np.int32),
            np.array(self.roots, np.int32),
            inner.astype(np.int32),
            np.flatnonzero(kind == _NEXT).astype(np.int32),
            np.flatnonzero(kind == _SHOWDOWN).astype(np.int32),
        )


def _compile(config: GameConfig, jobs: Sequence[tuple[int, FixedStrategy]]) -> list[_Round]:
    """The betting rounds of a heads-up hand under `config`, for each job (best responder's position,
    opponent strategy), as node programs; the engine decides every legal action and every chip."""
    rounds = [_Round([], [], [], [], [], [], [], [], {}) for _ in range(4)]
    todo: list[tuple[int, int, HandState]] = []  # (job, round, state at the start of that round)

    def entry(job: int, state: HandState) -> int:
        # heads-up with unlimited bankrolls, a round's betting depends only on the chips each has put in
        # (the same for both at a round's start; the blinds before the flop) and on nothing said before it
        r, put = rounds[state.round], state.committed[0]
        key = (job, put)
        if key not in r.entries:
            r.entries[key] = len(r.roots)
            r.roots.append(-1)
            todo.append((job, state.round, state))
        return r.entries[key]

    def node(r: _Round, kind: int, const: float = 0.0, ref: int = -1) -> int:
        r.kind.append(kind)
        r.first.append(0)
        r.count.append(0)
        r.const.append(const)
        r.ref.append(ref)
        return len(r.kind) - 1

    def build(job: int, r: _Round, state: HandState, round_index: int) -> int:
        seat, strategy = jobs[job]
        if state.is_over:
            if state.folded(seat):
                return node(r, _FOLDED, -state.committed[seat])
            if state.folded(1 - seat):
                return node(r, _FOLDED, state.committed[1 - seat])
            return node(r, _SHOWDOWN, state.committed[seat])
        if state.round != round_index:
            return node(r, _NEXT, ref=entry(job, state))
        legal = state.legal_actions()
        if state.actor == seat:
            i, probs = node(r, _BEST), {a: 0.0 for a in legal}
        else:
            i, probs = node(r, _MIX), strategy.probabilities(legal, state.to_call())
        children = []
        for action in legal:
            if state.actor != seat and probs[action] == 0:
                continue  # a line the opponent never plays: its rounds need no program
            after = state.copy()
            after.act(action)
            children.append((build(job, r, after, round_index), probs[action]))
        r.first[i], r.count[i] = len(r.child), len(children)
        for c, p in children:
            r.child.append(c)
            r.prob.append(p)
        return i

    for job in range(len(jobs)):
        entry(job, HandState(config, [0, 1, 2, 3], [4, 5, 6, 7, 8]))
    while todo:
        job, round_index, state = todo.pop()
        r = rounds[round_index]
        r.roots[r.entries[(job, state.committed[0])]] = build(job, r, state, round_index)
    return rounds


@nb.njit(cache=True)
def _walk(kind, first, count, child, prob, const, ref, roots, inner, nexts, shows, cont, e, vals, out):
    """Values of every node of a compiled round for one holding, children first; `out[q]` the value of the
    q-th entry. `cont` holds the next round's entry values, `e` the showdown equity (river only); `vals`
    must start as a copy of `const`, which is every fold's value (folds never change)."""
    for i in nexts:
        vals[i] = cont[ref[i]]
    for i in shows:
        vals[i] = (2.0 * e - 1.0) * const[i]
    for i in inner:
        if kind[i] == _BEST:
            best = -np.inf
            for j in range(first[i], first[i] + count[i]):
                v = vals[child[j]]
                if v > best:
                    best = v
            vals[i] = best
        else:
            total = 0.0
            for j in range(first[i], first[i] + count[i]):
                total += prob[j] * vals[child[j]]
            vals[i] = total
    for q in range(roots.shape[0]):
        out[q] = vals[roots[q]]


@nb.njit(cache=True)
def _walk_block(
    kind, first, count, child, prob, const, ref, roots, inner, nexts, shows, rows, cont, vals, out
):
    """`_walk` for many holdings at once (no showdowns): holding b's next-round values are
    ``cont[rows[b]]``, its entry values go to ``out[b]``. `vals` (nodes x at least len(rows)) must start
    with every fold's value in its row; the inner loops run over the holdings, which the compiler
    vectorises."""
    width = rows.shape[0]
    for i in nexts:
        q = ref[i]
        for b in range(width):
            vals[i, b] = cont[rows[b], q]
    for i in inner:
        j0 = first[i]
        c = child[j0]
        if kind[i] == _BEST:
            for b in range(width):
                vals[i, b] = vals[c, b]
            for j in range(j0 + 1, j0 + count[i]):
                c = child[j]
                for b in range(width):
                    vals[i, b] = max(vals[i, b], vals[c, b])
        else:
            p = prob[j0]
            for b in range(width):
                vals[i, b] = p * vals[c, b]
            for j in range(j0 + 1, j0 + count[i]):
                c, p = child[j], prob[j]
                for b in range(width):
                    vals[i, b] += p * vals[c, b]
    for q in range(roots.shape[0]):
        r = roots[q]
        for b in range(width):
            out[b, q] = vals[r, b]


# -- equities on a river board ---------------------------------------------------------------------------


@nb.njit(cache=True)
def _board_equities(board_key, board_mask, hold_keys, hold_masks, hold_a, hold_b, n_cards, out, scratch):
    """Twice the wins plus the ties of every holding against every other holding that shares no card with
    it, on one five-card board; holdings that clash with the board get -1 (the O(n) showdown of Johanson
    et al. 2011).

    Holdings are ranked, sorted by rank (two radix passes), and swept in rank order keeping how many
    holdings, and how many holding each card, lie below: wins = below - below[a] - below[b], and ties the
    same count within the group of equal rank (the holding itself added back once)."""
    n = hold_keys.shape[0]
    rank, order, tmp = scratch[0], scratch[1], scratch[2]
    below_card = np.zeros(n_cards, np.int32)
    group_card = np.zeros(n_cards, np.int32)
    live = 0
    for i in range(n):
        out[i] = -1
        if hold_masks[i] & board_mask == 0:
            rank[i] = rank_of(board_key + hold_keys[i], board_mask | hold_masks[i])
            tmp[live] = i
            live += 1
    # LSD radix sort of the live holdings by rank (< 8192): 7 low bits, then 6 high bits
    buckets = np.zeros(128, np.int32)
    for shift, width in ((0, 128), (7, 64)):
        buckets[:] = 0
        for j in range(live):
            buckets[(rank[tmp[j]] >> shift) & (width - 1)] += 1
        total = 0
        for b in range(width):
            c = buckets[b]
            buckets[b] = total
            total += c
        for j in range(live):
            i = tmp[j]
            b = (rank[i] >> shift) & (width - 1)
            order[buckets[b]] = i
            buckets[b] += 1
        tmp, order = order, tmp
    below = 0
    g = 0
    while g < live:
        end = g
        r = rank[tmp[g]]
        while end < live and rank[tmp[end]] == r:
            end += 1
        for j in range(g, end):
            i = tmp[j]
            group_card[hold_a[i]] += 1
            group_card[hold_b[i]] += 1
        size = end - g
        for j in range(g, end):
            i = tmp[j]
            a, b = hold_a[i], hold_b[i]
            wins = below - below_card[a] - below_card[b]
            ties = size - group_card[a] - group_card[b] + 1
            out[i] = 2 * wins + ties
        for j in range(g, end):
            i = tmp[j]
            a, b = hold_a[i], hold_b[i]
            below_card[a] += group_card[a]
            below_card[b] += group_card[b]
            group_card[a] = 0
            group_card[b] = 0
        below += size
        g = end


def _holdings_of(deck: Sequence[int]) -> tuple[list, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The holdings of a deck as pairs of deck positions, with their cards' keys, masks and positions."""
    holds = list(combinations(range(len(deck)), 2))
    codes = np.array(deck, np.int64)
    hold_a = np.array([a for a, _ in holds], np.int64)
    hold_b = np.array([b for _, b in holds], np.int64)
    hold_keys = CARD_KEYS[codes[hold_a]] + CARD_KEYS[codes[hold_b]]
    hold_masks = CARD_MASKS[codes[hold_a]] | CARD_MASKS[codes[hold_b]]
    return holds, hold_keys, hold_masks, hold_a, hold_b


def board_equities(board: Sequence[int], deck: Sequence[int]) -> dict[tuple[int, int], int]:
    """Twice the wins plus the ties of every holding of `deck` (card codes, ascending pairs) that misses
    the five-card `board`, against every other such holding; the kernel `_board_equities` as a dict."""
    deck = sorted(deck)
    holds, hold_keys, hold_masks, hold_a, hold_b = _holdings_of(deck)
    key, mask = START_KEY, np.uint64(0)
    for c in board:
        key, mask = key + CARD_KEYS[c], mask | CARD_MASKS[c]
    out = np.empty(len(holds), np.int32)
    _board_equities(
        key, mask, hold_keys, hold_masks, hold_a, hold_b, len(deck), out, np.empty((3, len(holds)), np.int64)
    )
    return {(deck[a], deck[b]): int(e) for (a, b), e in zip(holds, out, strict=True) if e >= 0}


def reference_equities(board: Sequence[int], deck: Sequence[int]) -> dict[tuple[int, int], int]:
    """Plain version of `_board_equities`: twice the wins plus the ties of every holding of `deck` against
    every other, one comparison at a time (the test oracle)."""
    rest = [c for c in deck if c not in board]
    holdings = list(combinations(rest, 2))
    ranks = {h: evaluate(list(board) + list(h)) for h in holdings}
    result = {}
    for h in holdings:
        score = 0
        for o in holdings:
            if set(h) & set(o):
                continue
            score += 2 if ranks[h] > ranks[o] else 1 if ranks[h] == ranks[o] else 0
        result[h] = score
    return result


# -- the walk over flops, turns and rivers ---------------------------------------------------------------


@nb.njit(cache=True, parallel=True)
def _flop_values(
    flops,
    deck,
    hold_keys,
    hold_masks,
    hold_a,
    hold_b,
    showdown,
    turn,
    flop,
    out,
):
    """For each flop (deck positions), the flop-round entry values of every holding: out[f, holding, q].

    `showdown[e2, q]` is the river round's entry value at equity e2 / (2 * opponents); `turn` and `flop` are
    the compiled rounds (`_Round.arrays`)."""
    n_cards = deck.shape[0]
    n_hold = hold_keys.shape[0]
    m = n_cards - 3
    n_turn_entries = turn[7].shape[0]
    n_flop_entries = flop[7].shape[0]
    n_river_entries = showdown.shape[1]
    card_keys = CARD_KEYS[deck]
    card_masks = CARD_MASKS[deck]
    for f in nb.prange(flops.shape[0]):
        f0, f1, f2 = flops[f, 0], flops[f, 1], flops[f, 2]
        flop_key = START_KEY + card_keys[f0] + card_keys[f1] + card_keys[f2]
        flop_mask = card_masks[f0] | card_masks[f1] | card_masks[f2]
        rest = np.empty(m, np.int64)
        k = 0
        for c in range(n_cards):
            if c != f0 and c != f1 and c != f2:
                rest[k] = c
                k += 1
        pair = np.full((m, m), -1, np.int64)
        p = 0
        for i in range(m):
            for j in range(i + 1, m):
                pair[i, j] = p
                pair[j, i] = p
                p += 1
        e2 = np.empty((p, n_hold), np.int16)  # at most 2 * 990
        scratch = np.empty((3, n_hold), np.int64)
        for i in range(m):
            for j in range(i + 1, m):
                ci, cj = rest[i], rest[j]
                _board_equities(
                    flop_key + card_keys[ci] + card_keys[cj],
                    flop_mask | card_masks[ci] | card_masks[cj],
                    hold_keys,
                    hold_masks,
                    hold_a,
                    hold_b,
                    n_cards,
                    e2[pair[i, j]],
                    scratch,
                )
        turn_sum = np.zeros((n_hold, n_turn_entries))
        cont = np.empty((n_hold, n_river_entries))
        live = np.empty(n_hold, np.int64)
        width = 64  # holdings walked together
        turn_vals = np.empty((turn[0].shape[0], width))
        for b in range(width):
            turn_vals[:, b] = turn[5]
        turn_out = np.empty((width, n_turn_entries))
        for ti in range(m):
            turn_mask = flop_mask | card_masks[rest[ti]]
            cont[:] = 0.0
            for ri in range(m):  # river by river: each row of e2 is read once, in order
                if ri == ti:
                    continue
                dead = turn_mask | card_masks[rest[ri]]
                row = e2[pair[ti, ri]]
                for h in range(n_hold):
                    if hold_masks[h] & dead == 0:
                        values = showdown[row[h]]
                        for q in range(n_river_entries):
                            cont[h, q] += values[q]
            n_live = 0
            for h in range(n_hold):
                if hold_masks[h] & turn_mask == 0:
                    live[n_live] = h
                    n_live += 1
                    for q in range(n_river_entries):
                        cont[h, q] /= n_cards - 6
            for start in range(0, n_live, width):
                rows = live[start : min(start + width, n_live)]
                _walk_block(*turn, rows, cont, turn_vals, turn_out)
                for b in range(rows.shape[0]):
                    turn_sum[rows[b]] += turn_out[b]
        n_live = 0
        for h in range(n_hold):
            if hold_masks[h] & flop_mask == 0:
                live[n_live] = h
                n_live += 1
                turn_sum[h] /= n_cards - 5
        flop_vals = np.empty((flop[0].shape[0], width))
        for b in range(width):
            flop_vals[:, b] = flop[5]
        flop_out = np.empty((width, n_flop_entries))
        for start in range(0, n_live, width):
            rows = live[start : min(start + width, n_live)]
            _walk_block(*flop, rows, turn_sum, flop_vals, flop_out)
            for b in range(rows.shape[0]):
                out[f, rows[b]] = flop_out[b]


# -- suit symmetry ---------------------------------------------------------------------------------------


def _suit_maps(deck: Sequence[int]) -> list[dict[int, int]]:
    """The renamings of suits that map `deck` onto itself, as card -> card maps."""
    cards = set(deck)
    maps = []
    for perm in permutations(range(4)):
        m = {c: c - card_suit(c) + perm[card_suit(c)] for c in cards}
        if set(m.values()) == cards:
            maps.append(m)
    return maps


def _classes(sets: Sequence[tuple[int, ...]], maps: list[dict[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """Each set's class under the suit renamings (index into the classes) and each class's size."""
    canon = [min(tuple(sorted(m[c] for c in s)) for m in maps) for s in sets]
    names = {c: i for i, c in enumerate(sorted(set(canon)))}
    of = np.array([names[c] for c in canon], np.int64)
    return of, np.bincount(of, minlength=len(names))


# -- the answer -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BestResponse:
    """A best response's value against one fixed strategy: chips per hand for each position of the best
    responder (0: big blind, 1: the button), and their mean in milli-big-blinds per game (mbb/g), the unit
    of Johanson et al. (2011) Table 1."""

    strategy: FixedStrategy
    config: GameConfig
    chips_by_position: tuple[float, float]
    seconds: float

    @property
    def chips_per_hand(self) -> float:
        return sum(self.chips_by_position) / 2

    @property
    def mbb_per_game(self) -> float:
        return 1000 * self.chips_per_hand / self.config.big_blind

    def to_dict(self) -> dict:
        return {
            "strategy": self.strategy.name,
            "mbb_per_game": self.mbb_per_game,
            "chips_per_hand": self.chips_per_hand,
            "chips_as_big_blind": self.chips_by_position[0],
            "chips_as_button": self.chips_by_position[1],
            "seconds": self.seconds,
            "game": self.config.to_dict(),
        }


def _check_game(config: GameConfig) -> None:
    """Refuse a game whose betting tree this walk cannot hold: real stacks, or no cap on the raises."""
    if config.stack is not None:
        raise ConfigError(
            f"the exact best response needs the unlimited-bankroll game (no stack), got stack={config.stack}"
        )
    uncapped = config.max_raises is None or config.no_cap_heads_up
    if uncapped and config.max_raises_per_player is None:
        raise ConfigError(
            "the exact best response needs a cap on the raises (max_raises, or max_raises_per_player), "
            "got none heads-up"
        )


def exact_best_response(
    strategies: Sequence[FixedStrategy],
    config: GameConfig | None = None,
    deck: Sequence[int] | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[BestResponse]:
    """The exact best-response value of each card-ignoring strategy in heads-up `config` (default the ACPC
    game, which is our default game), all in one walk over the boards.

    `deck` (card codes, default all 52) plays the game with fewer cards, for tests; the suit symmetry is
    used as far as the deck allows. `progress` receives a line now and then (flops done, time left).
    """
    config = GameConfig() if config is None else config
    _check_game(config)
    deck = list(range(NUM_CARDS)) if deck is None else sorted(set(deck))
    if len(deck) < 9:
        raise ConfigError(f"a heads-up hold'em deck needs at least 9 cards, got {len(deck)}")
    if not strategies:
        raise ConfigError("name at least one fixed strategy")
    started = time.perf_counter()
    jobs = [(seat, s) for s in strategies for seat in (0, 1)]
    rounds = _compile(config, jobs)
    n = len(deck)
    holds, hold_keys, hold_masks, hold_a, hold_b = _holdings_of(deck)
    codes = np.array(deck, np.int64)
    opponents = (n - 7) * (n - 8) // 2
    river = rounds[RIVER].arrays()
    showdown = np.empty((2 * opponents + 1, len(rounds[RIVER].roots)))
    vals = river[5].copy()
    for e2 in range(2 * opponents + 1):
        _walk(*river, np.empty(0), e2 / (2 * opponents), vals, showdown[e2])
    maps = _suit_maps(deck)
    all_flops = list(combinations(range(n), 3))
    flop_class, flop_weight = _classes([tuple(deck[i] for i in f) for f in all_flops], maps)
    first_of = {}
    for i, c in enumerate(flop_class):
        first_of.setdefault(int(c), i)
    flops = np.array([all_flops[first_of[c]] for c in range(len(flop_weight))], np.int64)
    hold_class, class_size = _classes([(deck[a], deck[b]) for a, b in holds], maps)
    turn, flop = rounds[2].arrays(), rounds[1].arrays()
    n_flop_entries = len(rounds[1].roots)
    totals = np.zeros((len(class_size), n_flop_entries))
    chunk = max(1, min(64, len(flops) // 20))
    for start in range(0, len(flops), chunk):
        part = flops[start : start + chunk]
        out = np.zeros((len(part), len(holds), n_flop_entries))
        _flop_values(part, codes, hold_keys, hold_masks, hold_a, hold_b, showdown, turn, flop, out)
        weighted = np.einsum("f,fhq->hq", flop_weight[start : start + chunk].astype(float), out)
        np.add.at(totals, hold_class, weighted)
        if progress is not None:
            done = start + len(part)
            spent = time.perf_counter() - started
            left = spent * (len(flops) / done - 1)
            progress(f"flops {done}/{len(flops)}, {spent:.0f} s, about {left:.0f} s left")
    flops_per_holding = (n - 2) * (n - 3) * (n - 4) // 6
    cont = totals / (class_size[:, None] * flops_per_holding)
    pre = rounds[0].arrays()
    vals = pre[5].copy()
    entry = np.empty(len(rounds[0].roots))
    value = np.zeros(len(jobs))
    for c in range(len(class_size)):
        _walk(*pre, cont[c], 0.0, vals, entry)
        value += class_size[c] * entry
    value /= len(holds)
    seconds = time.perf_counter() - started
    return [
        BestResponse(s, config, (float(value[2 * i]), float(value[2 * i + 1])), seconds)
        for i, s in enumerate(strategies)
    ]


# -- the plain reference ---------------------------------------------------------------------------------


def reference_best_response(
    strategy: FixedStrategy, config: GameConfig, deck: Sequence[int], seat: int
) -> float:
    """The best responder's chips per hand in `seat` against `strategy`, by the plain recursion over the
    engine's full tree (every action sequence, every card dealt), with values as numpy vectors over the best
    responder's holdings and showdowns settled by comparing `evaluate` ranks. Slow: small decks only."""
    _check_game(config)
    deck = sorted(deck)
    holds = list(combinations(deck, 2))
    index = {h: i for i, h in enumerate(holds)}

    @functools.cache
    def showdown(board: tuple[int, ...], stake: int) -> np.ndarray:
        values = np.full(len(holds), np.nan)
        rest = [c for c in deck if c not in board]
        ranks = {h: evaluate(list(board) + list(h)) for h in combinations(rest, 2)}
        for h, rank in ranks.items():
            results = [np.sign(rank - r) for o, r in ranks.items() if not set(o) & set(h)]
            values[index[h]] = stake * float(np.mean(results))
        return values

    def value(state: HandState, board: tuple[int, ...]) -> np.ndarray:
        if len(board) < (0, 3, 4, 5)[min(state.round, 3)] and not state.is_over:
            rest = [c for c in deck if c not in board]
            adds = list(combinations(rest, 3)) if not board else [(c,) for c in rest]
            total, seen = np.zeros(len(holds)), np.zeros(len(holds))
            for add in adds:
                part = value(state, tuple(sorted(board + add)))
                live = np.array([not set(h) & set(board + add) for h in holds])
                total[live] += part[live]
                seen[live] += 1
            return np.where(seen > 0, total / np.maximum(seen, 1), np.nan)
        if state.is_over:
            if state.folded(seat):
                return np.full(len(holds), -float(state.committed[seat]))
            if state.folded(1 - seat):
                return np.full(len(holds), float(state.committed[1 - seat]))
            return showdown(board, state.committed[seat])
        legal = state.legal_actions()
        children = {}
        for action in legal:
            after = state.copy()
            after.act(action)
            children[action] = value(after, board)
        if state.actor == seat:
            return np.max(np.stack(list(children.values())), axis=0)
        probs = strategy.probabilities(legal, state.to_call())
        return sum(probs[a] * v for a, v in children.items())

    return float(np.mean(value(HandState(config, [0, 1, 2, 3], [4, 5, 6, 7, 8]), ())))
