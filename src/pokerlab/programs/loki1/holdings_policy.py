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

import copy
from collections import OrderedDict
from itertools import permutations

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
from pokerlab.cards import CARD_MASKS
from pokerlab.engine import PREFLOP, HandState, SeatView
from pokerlab.engine.view import seat_view
from pokerlab.evaluator import hand_key
from pokerlab.holdings import HOLDING_CARDS, HOLDING_INDEX, HOLDING_MASKS, NUM_HOLDINGS
from pokerlab.programs.loki1.opponents import HandFollower
from pokerlab.programs.loki1.postflop import decide_outcomes
from pokerlab.programs.loki1.preflop import strategy_action

#: The (check-raise pending, semi-bluffing) states a holding can be in, as 2 * pending + semi-bluffing.
STATES = 4
#: (Board, cards to come) whose pair counts are kept (about 12 MB each): a hand needs three.
KEPT_BOARDS = 6

_BOARD_COUNTS: OrderedDict = OrderedDict()


def board_counts(board: tuple[int, ...], cards_to_come: int) -> tuple[np.ndarray, np.ndarray]:
    """(rows int8[1326, 1326], counts int16[1326, 1326, 3]): `holding_counts` of every holding (row h) on
    `board` with 1 or 2 cards to come, zero rows for holdings that meet the board; kept for the last
    `KEPT_BOARDS` (board, cards to come).

    A renaming of suits that maps the board onto itself maps holding h's row onto that of its image, the
    opponent holdings renamed alike (hand ranks ignore suit names), so one holding of each class is
    counted (half the holdings on a two-suited flop, a sixth on a one-suited one)."""
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
    renamings = _board_renamings(board)
    done = np.zeros(NUM_HOLDINGS, dtype=bool)
    for h in np.flatnonzero(~board_clash(board)):
        if done[h]:
            continue
        rows[h], counts[h] = count(HOLDING_CARDS[h].astype(np.uint8), codes, shared)
        done[h] = True
        for image in renamings:  # image[i]: the holding i becomes
            g = image[h]
            if not done[g]:
                rows[g, image], counts[g, image] = rows[h], counts[h]
                done[g] = True
    entry = _BOARD_COUNTS[key] = (rows, counts)
    if len(_BOARD_COUNTS) > KEPT_BOARDS:
        _BOARD_COUNTS.popitem(last=False)
    return entry


def _board_renamings(board: tuple[int, ...]) -> list[np.ndarray]:
    """The renamings of suits, other than none, that map `board` onto itself, each as int[1326]: the index
    of the holding each holding becomes."""
    out = []
    cards = set(board)
    for order in permutations(range(4)):
        if order == (0, 1, 2, 3):
            continue
        rename = np.array([4 * (c // 4) + order[c % 4] for c in range(52)])
        if {int(rename[c]) for c in cards} != cards:
            continue
        renamed = rename[HOLDING_CARDS]
        out.append(HOLDING_INDEX[renamed[:, 0], renamed[:, 1]].astype(np.int64))
    return out


@nb.njit(cache=True)
def _weighted_values(board, weights, rows, counts, strength, tables):
    """For every holding h that misses the board: its weighted (ahead, tied, behind) now against the field
    array of `weights` (one row per opponent, each zeroed where it meets h or the board, normalised, then
    averaged: `HandFollower.field`) into ``strength[h]``, and with `counts` (from `board_counts`; empty for
    none) the weighted 3x3 potential table T[now][final] into ``tables[h]`` (numba kernel)."""
    board_key, board_mask = hand_key(board)
    n = HOLDING_CARDS.shape[0]
    opponents = weights.shape[0]
    ranks = np.full(n, -1, dtype=np.int32)
    total = np.zeros(
        opponents
    )  # each table's weight of the holdings that miss the board, in all and per card
    by_card = np.zeros((opponents, CARD_MASKS.size))
    for i in range(n):
        if HOLDING_MASKS[i] & board_mask:
            continue
        a, b = HOLDING_CARDS[i, 0], HOLDING_CARDS[i, 1]
        ranks[i] = rank_with(board_key, board_mask, a, b)
        for p in range(opponents):
            total[p] += weights[p, i]
            by_card[p, a] += weights[p, i]
            by_card[p, b] += weights[p, i]
    scale = np.empty(opponents)
    with_counts = counts.shape[0] > 0
    for h in range(n):
        if ranks[h] < 0:
            continue
        a, b = HOLDING_CARDS[h, 0], HOLDING_CARDS[h, 1]
        for p in range(opponents):  # h's own weight was taken out twice, with each of its cards
            scale[p] = 1.0 / ((total[p] - by_card[p, a] - by_card[p, b] + weights[p, h]) * opponents)
        dead = HOLDING_MASKS[h]
        mine = ranks[h]
        for o in range(n):
            if ranks[o] < 0 or HOLDING_MASKS[o] & dead:
                continue
            w = 0.0
            for p in range(opponents):
                w += weights[p, o] * scale[p]
            if not w > 0:
                continue
            theirs = ranks[o]
            if mine > theirs:
                strength[h, 0] += w
            elif mine == theirs:
                strength[h, 1] += w
            else:
                strength[h, 2] += w
            if with_counts:
                row = rows[h, o]
                tables[h, row, 0] += w * counts[h, o, 0]
                tables[h, row, 1] += w * counts[h, o, 1]
                tables[h, row, 2] += w * counts[h, o, 2]


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


def views_of(view: SeatView) -> list[tuple[SeatView, int | None]]:
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


def played(action: int, view: SeatView) -> int:
    """What `act` plays for the rules' `action`: a raise at the cap as a call, a free fold as a check."""
    if action == RAISE and RAISE not in view.legal_actions:
        return CALL
    if action == FOLD and view.to_call == 0:
        return CALL
    return action


class _Replay:
    """Where the replay of a hand stands after some of Loki's decisions: the follower, every holding's
    chance of each state, the pre-flop strategies, the round the states are for."""

    def __init__(self, agent, view: SeatView) -> None:
        sizes = tuple(view.config.bet_size(r) for r in range(4))
        self.hand = HandFollower(view.players, view.position, (-1, -1), agent.config, sizes, view.blinds)
        self.chance = np.zeros((NUM_HOLDINGS, STATES))  # P(state, Loki's actions so far | holding)
        self.chance[:, 0] = 1.0
        self.strategy: list | None = None  # per holding type
        self.round = PREFLOP


def _memo_key(agent, view: SeatView) -> tuple:
    """What a kept replay must share with `view`: the seats, blinds and stacks, and what Loki has learned."""
    learned = tuple((seat, f.counts.tobytes()) for seat, f in sorted(agent.frequencies.items()))
    return (view.position, view.seats, view.blinds, view.starting_stacks, view.config, learned)


def loki1_policy(agent, view: SeatView) -> np.ndarray:
    """float[1326, 3]: Loki-1's (fold, call, raise) on `view` with each holding (the module doc).

    The replay after each of Loki's decisions is kept on the agent (``_replays``) for the hand's next
    query, which resumes from the last one its public actions and board still agree with."""
    decisions = views_of(view)
    key = _memo_key(agent, view)
    kept = getattr(agent, "_replays", None)
    replay, done = _Replay(agent, view), 0
    if kept is not None and kept[0] == key:
        for j, (board, actions, snapshot) in enumerate(kept[1]):
            if (
                j >= len(decisions) - 1
                or view.board[: len(board)] != board
                or view.actions[: len(actions)] != actions
            ):
                break
            replay, done = snapshot, j + 1
        snapshots = kept[1][:done]
    else:
        snapshots = []
    replay = copy.deepcopy(replay)
    hand = replay.hand
    live = ~board_clash(view.board)
    policy = np.zeros((NUM_HOLDINGS, 3))
    for past, taken in decisions[done:]:
        hand.follow(past.actions, past.board, agent.frequencies, past.seats, learning=False)
        hand.catch_up(past.round)
        current = taken is None
        if current:
            impossible = replay.chance.sum(axis=1) == 0
            replay.chance[impossible, 0] = 1.0
            replay.chance /= replay.chance.sum(axis=1, keepdims=True)
        if past.round == PREFLOP:
            if replay.strategy is None:
                replay.strategy = strategies(agent, past, hand)
            plays = preflop_plays(replay.strategy, past, hand)
            if current:
                policy[np.arange(NUM_HOLDINGS), plays] = 1.0
            else:
                replay.chance *= (plays == taken)[:, None]
                snapshots.append((past.board, view.actions[: len(past.actions) + 1], copy.deepcopy(replay)))
            continue
        if past.round != replay.round:  # a check-raise is planned for its round only
            replay.chance[:, :2] += replay.chance[:, 2:]
            replay.chance[:, 2:] = 0.0
            replay.round = past.round
        values = holding_values(agent, past, hand)
        make = agent._situation(past, hand)
        facing = past.to_call > 0
        after = np.zeros((NUM_HOLDINGS, STATES))
        memo: dict = {}
        for h in np.flatnonzero(live & (replay.chance.sum(axis=1) > 0)):
            hs_n, ehs, ehs_opt, ppot = values[h]
            for s in range(STATES):
                if replay.chance[h, s] == 0:
                    continue
                pending, bluffing = s >> 1, s & 1
                if pending and facing:
                    branches = [(1.0, RAISE, s)]
                else:
                    seen = (hs_n, ehs, ehs_opt, ppot, bluffing)
                    if seen not in memo:
                        memo[seen] = decide_outcomes(
                            make(hs_n, ehs, ehs_opt, ppot, bool(bluffing)), agent.config.rules
                        )
                    branches = [
                        (
                            p,
                            action,
                            2 * (pending or rule == "check-raise")
                            + (rule == "semi-bluff" or (bluffing and not facing)),
                        )
                        for p, action, rule in memo[seen]
                    ]
                for p, action, state in branches:
                    plays_as = played(action, past)
                    if current:
                        policy[h, plays_as] += replay.chance[h, s] * p
                    elif plays_as == taken:
                        after[h, state] += replay.chance[h, s] * p
        if not current:
            replay.chance = after
            snapshots.append((past.board, view.actions[: len(past.actions) + 1], copy.deepcopy(replay)))
    agent._replays = (key, snapshots)
    policy[~live] = 0.0
    return policy


def preflop_plays(strategy: list, view: SeatView, hand: HandFollower) -> np.ndarray:
    """int[1326]: the action `act` plays pre-flop on `view` with each holding, from the strategies of the
    holding types (`strategies`)."""
    can_raise, me = RAISE in view.legal_actions, view.position
    return np.array(
        [
            played(strategy_action(s, view.raises, view.to_call > 0, hand.voluntary[me], can_raise), view)
            for s in strategy
        ]
    )[HOLDING_TYPE]


def strategies(agent, view: SeatView, hand: HandFollower) -> list:
    """Loki's pre-flop strategy for each of the 169 holding types at its first pre-flop decision, `view`."""
    first = [int(np.flatnonzero(HOLDING_TYPE == t)[0]) for t in range(int(HOLDING_TYPE.max()) + 1)]
    return [
        agent._choose_strategy(view._replace(hole=(int(HOLDING_CARDS[i, 0]), int(HOLDING_CARDS[i, 1]))), hand)
        for i in first
    ]
