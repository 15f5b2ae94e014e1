"""Loki-1's answer to the all-holdings policy query (`pokerlab.agents.policy`): with what probability it
folds, calls and raises on a public view with each of the 1,326 holdings.

Loki-1's decision is a function of its holding and the public hand, except for three things it carries
through the hand: its pre-flop strategy (fixed at its first pre-flop decision, from its holding's type and
the betting then), a check-raise it planned earlier in the round, and a semi-bluff it keeps betting
(Papp 1998 §6.1-6.4). The query replays the hand's public actions once for every holding at the same time:
one `HandFollower` re-weights the opponents' tables (they do not depend on Loki's own cards), and at each of
Loki's own earlier decisions every holding's chance of each (check-raise pending, semi-bluffing) state is
updated by Bayes from the action Loki took, its random draws (check-raise, bluff, balancing raise)
enumerated by `decide_outcomes`. The rows are then the probabilities of `act`'s actions on the view, given
the hand so far. A holding that could not have played the hand's history answers from no pending
check-raise and no semi-bluff.

After the flop Loki's values (HS_n against the field array, EHS, EHS' and PPOT; Papp 1998 ch. 5-6) are
computed for every holding at once: its rank on the board against every opponent holding, each weighted by
the field array with the holding's own cards taken out, and the potential tables from the counts of every
(holding, opponent holding) pair on the board, counted once per board (`board_counts`: about 0.4 s for a
flop's two-card counts, 40 ms for a turn's one-card counts) and kept for the last boards. The counts are
`pokerlab.analysis.potential`'s per-holding kernels; the weighting is a numba kernel here. The query answers
for Loki frozen: it learns nothing from the hand's actions. The tests compare it with Loki's own `act`
replayed holding by holding, its random draws enumerated.
"""

from __future__ import annotations

from collections import OrderedDict

import numba as nb
import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.policy import board_clash
from pokerlab.analysis.potential import (
    AHEAD,
    BEHIND,
    TIED,
    one_card_holding_counts,
    rank_table,
    two_card_holding_counts,
)
from pokerlab.analysis.starting_hands import HOLDING_TYPE
from pokerlab.analysis.strength import rank_with
from pokerlab.engine import PREFLOP, HandState, SeatView
from pokerlab.engine.view import seat_view
from pokerlab.evaluator import hand_key
from pokerlab.holdings import HOLDING_CARDS, HOLDING_MASKS, NUM_HOLDINGS
from pokerlab.programs.loki1.opponents import HandFollower
from pokerlab.programs.loki1.postflop import decide_outcomes
from pokerlab.programs.loki1.preflop import strategy_action

#: The (check-raise pending, semi-bluffing) states a holding can be in, as 2 * pending + semi-bluffing.
STATES = 4
#: Boards whose pair counts are kept (each about 12 MB a look-ahead).
KEPT_BOARDS = 4

_BOARD_COUNTS: OrderedDict = OrderedDict()


def board_counts(board: tuple[int, ...], cards_to_come: int) -> tuple[np.ndarray, np.ndarray]:
    """(rows int8[1326, 1326], counts int16[1326, 1326, 3]): `holding_counts` of every holding (row h) on
    `board` with 1 or 2 cards to come, zero rows for holdings that meet the board; kept for the last
    `KEPT_BOARDS` (board, cards to come)."""
    key = (tuple(sorted(board)), cards_to_come)
    entry = _BOARD_COUNTS.get(key)
    if entry is not None:
        _BOARD_COUNTS.move_to_end(key)
        return entry
    codes = np.array(board, dtype=np.uint8)
    shared = rank_table(codes, cards_to_come + 2)
    count = two_card_holding_counts if cards_to_come == 2 else one_card_holding_counts
    rows = np.full((NUM_HOLDINGS, NUM_HOLDINGS), -1, dtype=np.int8)
    counts = np.zeros((NUM_HOLDINGS, NUM_HOLDINGS, 3), dtype=np.int16)
    for h in np.flatnonzero(~board_clash(board)):
        rows[h], counts[h] = count(HOLDING_CARDS[h].astype(np.uint8), codes, shared)
    entry = _BOARD_COUNTS[key] = (rows, counts)
    if len(_BOARD_COUNTS) > KEPT_BOARDS:
        _BOARD_COUNTS.popitem(last=False)
    return entry


@nb.njit(cache=True)
def _weighted_values(board, weights, rows, counts, strength, tables):
    """For every holding h that misses the board: its weighted (ahead, tied, behind) now against the field
    array of `weights` (one row per opponent, each zeroed where it meets h or the board, normalised, then
    averaged: `HandFollower.field`) into ``strength[h]``, and with `counts` (from `board_counts`; empty for
    none) the weighted 3x3 potential table T[now][final] into ``tables[h]`` (numba kernel)."""
    board_key, board_mask = hand_key(board)
    n = HOLDING_CARDS.shape[0]
    ranks = np.full(n, -1, dtype=np.int32)
    for i in range(n):
        if not HOLDING_MASKS[i] & board_mask:
            ranks[i] = rank_with(board_key, board_mask, HOLDING_CARDS[i, 0], HOLDING_CARDS[i, 1])
    opponents = weights.shape[0]
    norm = np.empty(opponents)
    field = np.empty(n)
    with_counts = counts.shape[0] > 0
    for h in range(n):
        if ranks[h] < 0:
            continue
        dead = HOLDING_MASKS[h] | board_mask
        for p in range(opponents):
            total = 0.0
            for o in range(n):
                if not HOLDING_MASKS[o] & dead:
                    total += weights[p, o]
            norm[p] = total
        for o in range(n):
            field[o] = 0.0
            if HOLDING_MASKS[o] & dead:
                continue
            for p in range(opponents):
                field[o] += weights[p, o] / norm[p]
            field[o] /= opponents
            w = field[o]
            if not w > 0:
                continue
            if ranks[h] > ranks[o]:
                strength[h, 0] += w
            elif ranks[h] == ranks[o]:
                strength[h, 1] += w
            else:
                strength[h, 2] += w
            if with_counts and rows[h, o] >= 0:
                row = rows[h, o]
                for c in range(3):
                    tables[h, row, c] += w * np.int64(counts[h, o, c])


def _potentials(tables: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(Ppot, Npot) of every holding's table T (Billings et al. 1998 §4.2; `PotentialTable`), 0 where the
    denominator is 0."""
    rows = tables.sum(axis=2)
    gained = tables[:, BEHIND, AHEAD] + tables[:, BEHIND, TIED] / 2 + tables[:, TIED, AHEAD] / 2
    lost = tables[:, AHEAD, BEHIND] + tables[:, AHEAD, TIED] / 2 + tables[:, TIED, BEHIND] / 2
    up, down = rows[:, BEHIND] + rows[:, TIED] / 2, rows[:, AHEAD] + rows[:, TIED] / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(up > 0, gained / up, 0.0), np.where(down > 0, lost / down, 0.0)


def holding_values(agent, view: SeatView, hand: HandFollower) -> np.ndarray:
    """float[1326, 4]: (HS_n, EHS, EHS', PPOT) of every holding on `view` (post-flop) against the field array
    of `hand`'s opponents, as `Loki1Agent._own_values` computes them for one; 0 rows for clashing holdings."""
    config, board = agent.config, view.board
    opponents = hand.opponents()
    if config.weighting:
        weights = np.ascontiguousarray(hand.weights[opponents])
    else:
        weights = np.ones((1, NUM_HOLDINGS))
    lookahead = 0 if len(board) == 5 or not config.potential else 2 if len(board) == 3 else 1
    if lookahead == 2 and config.flop_lookahead == 1:
        lookahead = 1
    codes = np.array(board, dtype=np.uint8)
    strength = np.zeros((NUM_HOLDINGS, 3))
    tables = np.zeros((NUM_HOLDINGS, 3, 3))
    empty = (np.zeros((0, 0), np.int8), np.zeros((0, 0, 3), np.int16))
    rows, counts = board_counts(board, lookahead) if lookahead else empty
    _weighted_values(codes, weights, rows, counts, strength, tables)
    live = ~board_clash(board)
    out = np.zeros((NUM_HOLDINGS, 4))
    ahead, tied, behind = strength[live].T
    hs_n = ((ahead + tied / 2) / (ahead + tied + behind)) ** len(opponents)
    out[live, 0] = out[live, 1] = out[live, 2] = hs_n
    if not lookahead:
        return out
    ppot, npot = _potentials(tables[live])
    out[live, 1] = hs_n + (1 - hs_n) * ppot - hs_n * npot  # EHS, Papp eq. 6.3
    out[live, 2] = hs_n + (1 - hs_n) * ppot  # EHS', Papp eq. 6.4
    if lookahead == 2:  # PPOT for semi-bluffs and pot odds is the one-card potential
        rows, counts = board_counts(board, 1)
        tables[:] = 0.0
        strength[:] = 0.0
        _weighted_values(codes, weights, rows, counts, strength, tables)
        ppot = _potentials(tables[live])[0]
    out[live, 3] = ppot
    return out


def _views_of(view: SeatView) -> list[tuple[SeatView, int | None]]:
    """Loki's views at each of its decisions of the hand so far, with the action it took (None for `view`
    itself), rebuilt by the engine from the public actions (no hole anywhere)."""
    players, me = view.players, view.position
    stacks = None if view.starting_stacks is None else list(view.starting_stacks)
    state = HandState(view.config, [-1] * (2 * players), list(view.board), stacks)
    out = []
    for record in view.actions:
        if record.position == me:
            out.append((seat_view(state, me, view.seats, view.config), record.action))
        state.act(record.action)
    return [*out, (view, None)]


def _played(action: int, view: SeatView) -> int:
    """What `act` plays for the rules' `action`: a raise at the cap as a call, a free fold as a check."""
    if action == RAISE and RAISE not in view.legal_actions:
        return CALL
    if action == FOLD and view.to_call == 0:
        return CALL
    return action


def loki1_policy(agent, view: SeatView) -> np.ndarray:
    """float[1326, 3]: Loki-1's (fold, call, raise) on `view` with each holding (the module doc)."""
    me, game = view.position, view.config
    sizes = tuple(game.bet_size(r) for r in range(4))
    hand = HandFollower(view.players, me, (-1, -1), agent.config, sizes, view.blinds)
    live = ~board_clash(view.board)
    chance = np.zeros((NUM_HOLDINGS, STATES))  # P(state, Loki's actions so far | holding)
    chance[:, 0] = 1.0
    strategy = None  # per holding type
    state_round = PREFLOP
    policy = np.zeros((NUM_HOLDINGS, 3))
    for past, taken in _views_of(view):
        hand.follow(past.actions, past.board, agent.frequencies, past.seats, learning=False)
        hand.catch_up(past.round)
        current = taken is None
        if current:
            impossible = chance.sum(axis=1) == 0
            chance[impossible, 0] = 1.0
            chance /= chance.sum(axis=1, keepdims=True)
        if past.round == PREFLOP:
            if strategy is None:
                strategy = _strategies(agent, past, hand)
            plays = np.array(
                [
                    _played(
                        strategy_action(
                            s, past.raises, past.to_call > 0, hand.voluntary[me], RAISE in past.legal_actions
                        ),
                        past,
                    )
                    for s in strategy
                ]
            )[HOLDING_TYPE]
            if current:
                policy[np.arange(NUM_HOLDINGS), plays] = 1.0
            else:
                chance *= (plays == taken)[:, None]
            continue
        if past.round != state_round:  # a check-raise is planned for its round only
            chance[:, :2] += chance[:, 2:]
            chance[:, 2:] = 0.0
            state_round = past.round
        values = holding_values(agent, past, hand)
        make = agent._situation(past, hand)
        facing = past.to_call > 0
        after = np.zeros((NUM_HOLDINGS, STATES))
        memo: dict = {}
        for h in np.flatnonzero(live & (chance.sum(axis=1) > 0)):
            hs_n, ehs, ehs_opt, ppot = values[h]
            for s in np.flatnonzero(chance[h]):
                pending, bluffing = s >> 1, s & 1
                if pending and facing:
                    branches = [(1.0, RAISE, s)]
                else:
                    key = (hs_n, ehs, ehs_opt, ppot, bluffing)
                    if key not in memo:
                        memo[key] = decide_outcomes(
                            make(hs_n, ehs, ehs_opt, ppot, bool(bluffing)), agent.config.rules
                        )
                    branches = [
                        (
                            p,
                            action,
                            2 * (pending or rule == "check-raise")
                            + (rule == "semi-bluff" or (bluffing and not facing)),
                        )
                        for p, action, rule in memo[key]
                    ]
                for p, action, state in branches:
                    played = _played(action, past)
                    if current:
                        policy[h, played] += chance[h, s] * p
                    elif played == taken:
                        after[h, state] += chance[h, s] * p
        chance = after
    policy[~live] = 0.0
    return policy


def _strategies(agent, view: SeatView, hand: HandFollower) -> list:
    """Loki's pre-flop strategy for each of the 169 holding types at its first pre-flop decision, `view`."""
    first = [int(np.flatnonzero(HOLDING_TYPE == t)[0]) for t in range(int(HOLDING_TYPE.max()) + 1)]
    return [
        agent._choose_strategy(view._replace(hole=(int(HOLDING_CARDS[i, 0]), int(HOLDING_CARDS[i, 1]))), hand)
        for i in first
    ]
