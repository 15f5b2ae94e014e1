"""Selective-sampling simulation: the expected value of calling and of raising, by playing the rest of the
hand out many times (Billings et al. 1999 §5; Peña 1999 ch. 5, node40-46).

A trial is one hidden world: every other position's hole cards, drawn in seating order (small blind first,
button last) from its weight table by selective sampling, folded positions included so that the deck keeps a
realistic mix (Peña 1999 node42), and the board cards still to come, uniform from what is left. Each trial is
played twice from the engine's state (a `HandState` copy: the engine is the one source of the rules): once
with Loki-2's action forced to check/call, once to bet/raise; after that every position, Loki-2 included,
acts by drawing from its probability triple. A trial's result is Loki-2's net money from this decision on
(what it wins less everything it still puts in); folding is worth 0 (Peña node41).

[OUR CHOICE, Peña 1999 node40-46] Both branches of a trial share its cards and its stream of uniforms
(common random numbers), which makes the difference EV(raise) - EV(call) far less noisy. Inside trials the
other positions value their hands against a uniform opponent, Loki-2 against its own field array
(``own_field``); HS_n = HS_1^n with n the hand's active opponents at that moment, the potential is PPOT_c,
and every value is recomputed on each new board card (Peña node46). The "always call" variant (Peña
node46) has everyone call after the forced action: a trial is dealing cards and finding the winner.

Sampling: the rejection rule of Peña node42 (two random cards and ρ uniform; an active opponent keeps them
when his weight >= ρ, a folded one when the pair's IR7 percentile < ρ) accepts each pair with probability
equal to that weight, so `sample_worlds` draws each pair directly in proportion to it (and redraws a pair
that meets a card dealt earlier in the same trial); `reference_sample` is the literal rejection sampler,
kept as the test oracle.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache

import numba as nb
import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.analysis.crude_potential import crude_potentials_of
from pokerlab.analysis.strength import rank_with
from pokerlab.cards import NUM_CARDS
from pokerlab.engine import RIVER, HandState, SeatView, blind_positions, state_from_view
from pokerlab.errors import ConfigError
from pokerlab.evaluator import hand_key
from pokerlab.holdings import CARD_HOLDINGS, HOLDING_CARDS, HOLDING_INDEX, HOLDING_MASKS, NUM_HOLDINGS
from pokerlab.modeling.holding_values import board_values, preflop_values, sorted_preflop_values
from pokerlab.programs.loki2.triples import TripleRules, triple_action

#: Uniforms kept per trial for the actions drawn inside it (a longer play-out reuses them cyclically).
DRAWS_PER_TRIAL = 64


@dataclass(frozen=True)
class SimulationConfig:
    """The simulator's switches [OUR CHOICE, Peña 1999 node40-46].

    * ``trials``: trials per decision (each played out twice); ``time_budget``: seconds after which a
      decision stops early, having played at least ``min_trials`` (None: always all trials, reproducible).
    * ``mode``: "playout" (everyone acts by triples) or "always-call" (Peña node46).
    * ``common_random_numbers``: both branches of a trial share its cards and uniforms (else the raise branch
      gets its own trials, for measuring what the sharing is worth).
    * ``own_field``: Loki-2 values its hand in trials against its field array (else uniform, like the rest).
    """

    trials: int = 500
    time_budget: float | None = None
    min_trials: int = 20
    mode: str = "playout"
    common_random_numbers: bool = True
    own_field: bool = True

    def __post_init__(self) -> None:
        if self.mode not in ("playout", "always-call"):
            raise ConfigError(f"SimulationConfig.mode is {self.mode!r}; allowed: 'playout', 'always-call'")
        if not isinstance(self.trials, int) or self.trials < 2:
            raise ConfigError(f"SimulationConfig.trials is an integer >= 2, got {self.trials!r}")
        if not isinstance(self.min_trials, int) or self.min_trials < 2:
            raise ConfigError(f"SimulationConfig.min_trials is an integer >= 2, got {self.min_trials!r}")
        if self.time_budget is not None and not self.time_budget > 0:
            raise ConfigError(
                f"SimulationConfig.time_budget is seconds > 0 or None, got {self.time_budget!r}"
            )


@dataclass(frozen=True)
class SimulationResult:
    """EVs in chips (net from this decision on; fold is 0) with their standard errors, per trial played.

    ``ev_raise`` and its errors are None when raising is not legal; ``se_difference`` is the standard error
    of EV(raise) - EV(call), from the paired trials.
    """

    ev_call: float
    ev_raise: float | None
    se_call: float
    se_raise: float | None
    se_difference: float | None
    trials: int
    seconds: float

    def best_action(self, to_call: int) -> int:
        """The action of highest EV, fold = 0 only when something is owed; ties go to the less aggressive
        (Peña 1999 node40)."""
        best, value = CALL, self.ev_call
        if to_call > 0 and 0.0 > value:
            best, value = FOLD, 0.0
        if self.ev_raise is not None and self.ev_raise > value:
            best = RAISE
        return best

    def info(self) -> dict:
        """The numbers for a `Decision`'s info (JSON-ready)."""
        return {
            "ev_fold": 0.0,
            "ev_call": self.ev_call,
            "ev_raise": self.ev_raise,
            "se_call": self.se_call,
            "se_raise": self.se_raise,
            "se_difference": self.se_difference,
            "trials": self.trials,
            "seconds": self.seconds,
        }


@cache
def folded_keep_weights() -> np.ndarray:
    """A folded opponent keeps a pair when its IR7 percentile < ρ: with probability 1 - percentile."""
    values = preflop_values()
    percentile = np.searchsorted(sorted_preflop_values(), values, side="left") / (NUM_HOLDINGS - 1)
    table = 1.0 - percentile
    table.flags.writeable = False
    return table


def sampling_order(players: int) -> list[int]:
    """Positions in the order their cards are drawn: the small blind first, the button last (Peña node42)."""
    small = blind_positions(players)[0]
    return [(small + i) % players for i in range(players)]


@nb.njit(cache=True)
def _sample_worlds(cumulative, order, dead, board, u_hold, u_board, holes, runouts):
    """Fill holes[t, p] and runouts[t] for every trial: pair i of position order[j] is drawn with
    probability cumulative[j] increments (pairs meeting `dead` have none), redrawn while it meets a card
    dealt earlier in the trial (from the next of the position's uniforms in `u_hold`, and past those from
    golden-ratio steps of the last: a pair meets an earlier one rarely); board cards uniform from the
    rest."""
    trials, seats = u_hold.shape[0], order.shape[0]
    n_board = board.shape[0]
    for t in range(trials):
        used = dead.copy()
        for j in range(seats):
            row = cumulative[j]
            total = row[-1]
            k = 0
            while True:
                u = u_hold[t, j, k % u_hold.shape[2]]
                if k >= u_hold.shape[2]:
                    u = (u + 0.6180339887498949 * k) % 1.0  # a fresh point if the stream runs out
                i = np.searchsorted(row, u * total, side="right")
                if i >= row.shape[0]:
                    i = row.shape[0] - 1
                a, b = HOLDING_CARDS[i, 0], HOLDING_CARDS[i, 1]
                k += 1
                if not used[a] and not used[b]:
                    break
            used[a] = used[b] = True
            holes[t, order[j], 0], holes[t, order[j], 1] = a, b
        for c in range(n_board):
            runouts[t, c] = board[c]
        for c in range(n_board, 5):
            left = 0
            for x in range(NUM_CARDS):
                if not used[x]:
                    left += 1
            pick = int(u_board[t, c] * left)
            for x in range(NUM_CARDS):
                if not used[x]:
                    if pick == 0:
                        runouts[t, c] = x
                        used[x] = True
                        break
                    pick -= 1


def sample_worlds(
    keep: dict[int, np.ndarray],
    hole: tuple[int, int],
    me: int,
    board: tuple[int, ...],
    players: int,
    trials: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """(holes (trials, players, 2), runouts (trials, 5)) of card codes: our hole at `me`, each other
    position p's pair drawn in proportion to ``keep[p]`` (1,326 acceptance probabilities in [0, 1]) in
    seating order, the rest of the board uniform."""
    dead = np.zeros(NUM_CARDS, dtype=np.bool_)
    dead[list(hole) + list(board)] = True
    live = ~(dead[HOLDING_CARDS[:, 0]] | dead[HOLDING_CARDS[:, 1]])
    order = [p for p in sampling_order(players) if p != me]
    cumulative = np.empty((len(order), NUM_HOLDINGS))
    for j, p in enumerate(order):
        weights = np.where(live, np.clip(keep[p], 0.0, 1.0), 0.0)
        if weights.sum() <= 0:
            weights = live.astype(np.float64)
        np.cumsum(weights, out=cumulative[j])
    holes = np.empty((trials, players, 2), dtype=np.int64)
    holes[:, me] = hole
    runouts = np.empty((trials, 5), dtype=np.int64)
    u_hold = rng.random((trials, len(order), 4))
    u_board = rng.random((trials, 5))
    board_arr = np.array(board, dtype=np.int64)
    _sample_worlds(cumulative, np.array(order), dead, board_arr, u_hold, u_board, holes, runouts)
    return holes, runouts


def reference_sample(
    keep: dict[int, np.ndarray],
    folded: set[int],
    hole: tuple[int, int],
    me: int,
    board: tuple[int, ...],
    players: int,
    rng: np.random.Generator,
) -> dict[int, tuple[int, int]]:
    """One trial's hole cards by the literal rejection sampling of Peña node42 (the test oracle of
    `sample_worlds`): two random cards from the deck and ρ uniform; an active position keeps them when its
    weight >= ρ, a folded one when the pair's IR7 percentile < ρ (``keep`` holds the weights; folded
    positions are told apart for the rule)."""
    deck = [c for c in range(NUM_CARDS) if c not in hole and c not in board]
    percentile = 1.0 - folded_keep_weights()
    dealt = {}
    for p in sampling_order(players):
        if p == me:
            continue
        while True:
            a, b = rng.choice(len(deck), 2, replace=False)
            pair = int(HOLDING_INDEX[deck[a], deck[b]])
            rho = rng.random()
            if (percentile[pair] < rho) if p in folded else (keep[p][pair] >= rho):
                break
        dealt[p] = (deck[a], deck[b])
        deck = [c for c in deck if c not in dealt[p]]
    return dealt


@nb.njit(cache=True)
def _strengths_on_board(board, holes, weights, out):
    """HS_1 of each row of `holes` (k, 2) on `board` against column j of `weights` (1326, k), leaving out
    the holdings that meet the board or row j's own cards.

    One pass sums, for every row, the weight of all holdings below, level with and beside its rank; the
    101 holdings that share a card with the row are then taken out again (as `holding_strengths` does).
    """
    board_key, board_mask = hand_key(board)
    k = holes.shape[0]
    ranks = np.zeros(NUM_HOLDINGS, dtype=np.int32)
    mine = np.empty(k, dtype=np.int32)
    for j in range(k):
        mine[j] = rank_with(board_key, board_mask, holes[j, 0], holes[j, 1])
    ahead, tied, total = np.zeros(k), np.zeros(k), np.zeros(k)
    for i in range(NUM_HOLDINGS):
        if HOLDING_MASKS[i] & board_mask:
            continue
        r = rank_with(board_key, board_mask, HOLDING_CARDS[i, 0], HOLDING_CARDS[i, 1])
        ranks[i] = r
        for j in range(k):
            w = weights[i, j]
            total[j] += w
            if r < mine[j]:
                ahead[j] += w
            elif r == mine[j]:
                tied[j] += w
    for j in range(k):
        a, b = holes[j, 0], holes[j, 1]
        own = HOLDING_INDEX[a, b]
        for c in (a, b):
            for i in CARD_HOLDINGS[c]:
                r = ranks[i]
                if r == 0 or (c == b and i == own):  # own holding: in both lists, taken out once
                    continue
                w = weights[i, j]
                total[j] -= w
                if r < mine[j]:
                    ahead[j] -= w
                elif r == mine[j]:
                    tied[j] -= w
        out[j] = (ahead[j] + tied[j] / 2) / total[j] if total[j] > 1e-12 else 0.5


@nb.njit(cache=True)
def _trial_values(
    holes, runouts, first_round, seats, weights, uniform, now_hs, now_ppot, shared, strength, potential
):
    """HS_1 and PPOT_c of each position in `seats` for every trial and round from `first_round` on.

    With `shared`, the first round's board (the table's, the same in every trial) is not valued per trial: a
    seat valued against a uniform opponent (``uniform[j]``) reads its holding's `now_hs` and `now_ppot`
    (the board's `board_values`: the same numbers, as uniform weights sum exactly in any
    order), another seat is valued once per hole it holds (Loki-2's own, the same in every trial).
    """
    k = seats.shape[0]
    rows = np.empty((k, 2), dtype=np.int64)
    hs = np.empty(k)
    one = np.empty(1)
    last = np.full((k, 2), -1, dtype=np.int64)  # the hole each non-uniform seat was last valued with
    value = np.empty(k)
    for t in range(holes.shape[0]):
        for j in range(k):
            rows[j, 0], rows[j, 1] = holes[t, seats[j], 0], holes[t, seats[j], 1]
        first = first_round
        if shared:
            board = runouts[t, : 2 + first_round]
            for j in range(k):
                h = HOLDING_INDEX[rows[j, 0], rows[j, 1]]
                if uniform[j]:
                    value[j] = now_hs[h]
                elif rows[j, 0] != last[j, 0] or rows[j, 1] != last[j, 1]:
                    _strengths_on_board(board, rows[j : j + 1], weights[:, j : j + 1], one)
                    value[j], last[j, 0], last[j, 1] = one[0], rows[j, 0], rows[j, 1]
                strength[t, seats[j], first_round] = value[j]
                potential[t, seats[j], first_round] = now_ppot[h] if first_round < RIVER else 0.0
            first += 1
        for rnd in range(first, RIVER + 1):
            size = 2 + rnd
            board = runouts[t, :size]
            _strengths_on_board(board, rows, weights, hs)
            ppot = crude_potentials_of(board.astype(np.uint8), rows.astype(np.uint8))
            for j in range(k):
                strength[t, seats[j], rnd] = hs[j]
                potential[t, seats[j], rnd] = ppot[j] if rnd < RIVER else 0.0


@nb.njit(cache=True)
def final_ranks(holes: np.ndarray, runouts: np.ndarray) -> np.ndarray:
    """The rank of every position's hand with its trial's whole runout, (trials, players): what a showdown
    of the trial ranks, once for both branches (numba kernel; `HandState.known_ranks`)."""
    trials, players = holes.shape[0], holes.shape[1]
    out = np.empty((trials, players), dtype=np.int64)
    for t in range(trials):
        board_key, board_mask = hand_key(runouts[t])
        for p in range(players):
            out[t, p] = rank_with(board_key, board_mask, holes[t, p, 0], holes[t, p, 1])
    return out


def trial_values(
    holes: np.ndarray,
    runouts: np.ndarray,
    first_round: int,
    seats: list[int],
    weights: np.ndarray,
    shared: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """(HS_1, PPOT_c) arrays (trials, players, 4) for the `seats` in play (row j of `weights` is the table
    seat j's hand is valued against), rounds `first_round`..river; NaN elsewhere. ``shared`` False values the
    first round's board in every trial too: the plain path, kept as the test oracle."""
    trials, players = holes.shape[:2]
    strength = np.full((trials, players, 4), np.nan)
    potential = np.full((trials, players, 4), np.nan)
    columns = np.ascontiguousarray(weights.T)  # (1326, seats): one holding's weights side by side
    now = board_values(tuple(runouts[0, : 2 + first_round].tolist()))  # the table's board, shared
    seat_args = (np.array(seats), columns, (weights == 1.0).all(axis=1), *now, shared)
    _trial_values(holes, runouts, first_round, *seat_args, strength, potential)
    return strength, potential


class _Playout:
    """What every play-out of one decision shares: the triple constants, thresholds per position, round and
    bets faced (``thresholds`` (players, 4, 3, 2)), Loki-2's position and semi-bluff flag. Triples and the
    action drawn from them come from the numba twin of `reference_triple` (`triple_action`), asked with one
    tuple of numbers per action."""

    def __init__(self, rules: TripleRules, thresholds: np.ndarray, me: int, semi_bluffing: bool) -> None:
        self.rules, self.me, self.semi_bluffing = rules.as_array(), me, semi_bluffing
        self.thresholds = thresholds.tolist()
        self.triple = np.empty(3)

    def play(self, state: HandState, forced: int, strength, potential, draws) -> float:
        """Play `state` out after Loki-2's `forced` action, everyone by triples; Loki-2's net from here."""
        me, rules, thresholds, triple = self.me, self.rules, self.thresholds, self.triple
        before = state.committed[me]
        state.act(forced)
        config = state.config
        called = [False] * state.n
        current, k = state.round, 0
        while state.actor >= 0:
            p, rnd = state.actor, state.round
            if rnd != current:
                current, called = rnd, [False] * state.n
            to_call = state.to_call(p)
            bet = config.bet_size(rnd)
            faced = -(-to_call // bet)
            opponents = state.in_hand - 1
            hs_n = strength[p][rnd] ** opponents
            ppot = potential[p][rnd]
            ehs = hs_n + (1 - hs_n) * ppot
            t1, t2 = thresholds[p][rnd][min(faced, 2)]
            # the `TripleContext` fields in order, then the hand's values and thresholds. The play-out runs
            # on an engine state, not on views, so it reads the state's own counts. [KNOWN] its "opponents to
            # act" counts those who still owe an action (``need``: a raise puts back who acted), not the
            # `BettingContext` meaning (not yet acted this round) the real decisions and re-weighting read:
            # kept, as the published Loki-2 figures were made so
            values = (
                rnd,
                faced,
                state.bets_made,
                bet,
                config.big_bet,
                state.pot,
                to_call,
                opponents,
                (state.need & ~(1 << p)).bit_count(),
                called[p],
                p == me and self.semi_bluffing,
                RAISE in state.legal_actions(),
                hs_n,
                ehs,
                ehs,
                ppot,
                t1,
                t2,
            )
            action = triple_action(values, rules, draws[k], triple)
            k = (k + 1) % len(draws)
            if action == CALL and to_call > 0:
                called[p] = True
            state.act(action)
            if action == FOLD and p == me:  # nothing more is won or lost
                return float(before - state.committed[me])
        return float(state.nets[me] + before)


def _always_call(state: HandState, forced: int, me: int) -> float:
    before = state.committed[me]
    state.act(forced)
    while state.actor >= 0:
        state.act(CALL)
    return float(state.nets[me] + before)


def simulate(
    view: SeatView,
    keep: dict[int, np.ndarray],
    own_field: np.ndarray | None,
    thresholds: np.ndarray,
    semi_bluffing: bool,
    rules: TripleRules,
    config: SimulationConfig,
    rng: np.random.Generator,
) -> SimulationResult:
    """EV(call) and EV(raise) of the position to act in `view` (Peña 1999 ch. 5).

    ``keep[p]``: every other position's sampling weights (its weight table when active, `folded_keep_weights`
    when folded); ``own_field``: the field array Loki-2 values its hand against in trials (None: uniform);
    ``thresholds[p, round, bets]``: (t1, t2) of each position's triples.
    """
    start = time.perf_counter()
    me, n, trials = view.position, view.players, config.trials
    can_raise = RAISE in view.legal_actions
    worlds = trials if config.common_random_numbers or not can_raise else 2 * trials
    holes, runouts = sample_worlds(keep, view.hole, me, view.board, n, worlds, rng)
    draws = rng.random((worlds, DRAWS_PER_TRIAL)).tolist()
    base = state_from_view(view, holes[0].reshape(-1).tolist(), runouts[0].tolist())
    if config.mode == "playout":
        folded = view.folded
        seats = [p for p in range(n) if not folded[p]]
        weights = np.ones((len(seats), NUM_HOLDINGS))
        if config.own_field and own_field is not None:
            weights[seats.index(me)] = own_field
        strength, potential = trial_values(holes, runouts, view.round, seats, weights)
        strength, potential = strength.tolist(), potential.tolist()
        playout = _Playout(rules, thresholds, me, semi_bluffing)
    results = np.empty((2, trials))
    played = 0
    cards, boards = holes.reshape(worlds, -1).tolist(), runouts.tolist()
    ranks = final_ranks(holes, runouts).tolist()
    for t in range(trials):
        for branch, forced in enumerate((CALL, RAISE) if can_raise else (CALL,)):
            w = t if config.common_random_numbers or branch == 0 else trials + t
            state = base.copy()
            state.holes = cards[w][:]
            state.runout = boards[w][:]
            state.known_ranks = ranks[w]
            if config.mode == "playout":
                results[branch, t] = playout.play(state, forced, strength[w], potential[w], draws[w])
            else:
                results[branch, t] = _always_call(state, forced, me)
        played = t + 1
        if config.time_budget is not None and played >= config.min_trials:
            if time.perf_counter() - start > config.time_budget:
                break
    results = results[:, :played]
    root = np.sqrt(played)
    call = results[0]
    if can_raise:
        raised = results[1]
        ev_raise, se_raise = float(raised.mean()), float(raised.std(ddof=1) / root)
        se_difference = float((raised - call).std(ddof=1) / root)
    else:
        ev_raise = se_raise = se_difference = None
    return SimulationResult(
        float(call.mean()),
        ev_raise,
        float(call.std(ddof=1) / root),
        se_raise,
        se_difference,
        played,
        time.perf_counter() - start,
    )
