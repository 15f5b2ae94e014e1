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
computed for every holding at once from tables made once per board and kept for the hand (`board_pairs`),
and the rules are asked once per group of holdings they treat alike (`rule_groups`). A learning Loki
re-weights each opponent action with the action frequencies counted up to it; the query does the same on
a copy (`frequencies_at_start`) and changes nothing Loki knows. The tests compare it with Loki's own `act`
replayed holding by holding, its random draws enumerated.
"""

from __future__ import annotations

import copy

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.policy import board_clash
from pokerlab.analysis.starting_hands import HOLDING_TYPE, STARTING_HANDS
from pokerlab.engine import PREFLOP, HandState, SeatView
from pokerlab.engine.view import seat_view
from pokerlab.holdings import NUM_HOLDINGS
from pokerlab.modeling.frequencies import ActionFrequencies
from pokerlab.programs.loki1.board_pairs import board_pairs, holding_sums, potentials, strength
from pokerlab.programs.loki1.opponents import HandFollower
from pokerlab.programs.loki1.preflop import strategy_action
from pokerlab.programs.loki1.rule_groups import rule_groups

#: The (check-raise pending, semi-bluffing) states a holding can be in, as 2 * pending + semi-bluffing.
STATES = 4


def holding_values(agent, view: SeatView, hand: HandFollower) -> np.ndarray:
    """float[1326, 4]: (HS_n, EHS, EHS', PPOT) of every holding on `view` (post-flop) against the field array
    of `hand`'s opponents, as `Loki1Agent._own_values` computes them for one (`board_pairs`); 0 rows for
    clashing holdings."""
    config, board = agent.config, view.board
    opponents = hand.opponents()
    weights = hand.weights[opponents] if config.weighting else np.ones((1, NUM_HOLDINGS))
    lookahead = 0 if len(board) == 5 or not config.potential else 2 if len(board) == 3 else 1
    if lookahead == 2 and config.flop_lookahead == 1:
        lookahead = 1
    pairs = board_pairs(board, lookahead)
    sums = holding_sums(pairs, weights)
    out = np.zeros((NUM_HOLDINGS, 4))
    hs_n = strength(sums) ** len(opponents)
    out[pairs.order, 0] = out[pairs.order, 1] = out[pairs.order, 2] = hs_n
    if not lookahead:
        return out
    ppot, npot = potentials(sums, pairs.cases)
    out[pairs.order, 1] = hs_n + (1 - hs_n) * ppot - hs_n * npot  # EHS, Papp eq. 6.3
    out[pairs.order, 2] = hs_n + (1 - hs_n) * ppot  # EHS', Papp eq. 6.4
    if lookahead == 2:  # PPOT for semi-bluffs and pot odds is the one-card potential
        one_card = board_pairs(board, 1)
        out[one_card.order, 3] = potentials(holding_sums(one_card, weights), one_card.cases)[0]
    else:
        out[pairs.order, 3] = ppot
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
    """Where the replay of a hand stands after some of Loki's decisions: the follower, the opponents'
    action frequencies as counted so far, every holding's chance of each state, the pre-flop strategies,
    the round the states are for."""

    def __init__(self, agent, view: SeatView, frequencies: dict[int, ActionFrequencies]) -> None:
        sizes = tuple(view.config.bet_size(r) for r in range(4))
        self.hand = HandFollower(view.players, view.position, (-1, -1), agent.config, sizes, view.blinds)
        self.frequencies = frequencies
        self.chance = np.zeros((NUM_HOLDINGS, STATES))  # P(state, Loki's actions so far | holding)
        self.chance[:, 0] = 1.0
        self.strategy: list | None = None  # per holding type
        self.round = PREFLOP

    def copy(self) -> _Replay:
        """A deep copy that shares the (frozen) configuration."""
        return copy.deepcopy(self, {id(self.hand.config): self.hand.config})


def frequencies_at_start(agent, view: SeatView) -> dict[int, ActionFrequencies]:
    """A copy of the opponents' action frequencies as they were when `view`'s hand began. A learning Loki
    counts each opponent action into them as its `act` follows it (`HandFollower.follow`) and re-weights
    with the counts of that moment; so that the query re-weights as `act` did, it starts from the counts
    Loki kept when the hand began and counts the hand's actions back in, one by one, as `act` did."""
    own = agent._hand
    if agent.frozen or own is None or own.me != view.position or own.seen > len(view.actions):
        return copy.deepcopy(agent.frequencies)  # nothing of this hand counted (frozen, or another hand)
    start = {}
    for seat, counts in agent.counts_at_start.items():
        start[seat] = ActionFrequencies()
        start[seat].counts[:] = counts
    return start


def _memo_key(view: SeatView, frequencies: dict[int, ActionFrequencies]) -> tuple:
    """What a kept replay must share with `view`: the seats, blinds and stacks, and what Loki had learned
    when the hand began."""
    learned = tuple((seat, f.counts.tobytes()) for seat, f in sorted(frequencies.items()))
    return (view.position, view.seats, view.blinds, view.starting_stacks, view.config, learned)


def loki1_policy(agent, view: SeatView) -> np.ndarray:
    """float[1326, 3]: Loki-1's (fold, call, raise) on `view` with each holding (the module doc).

    The replay after each of Loki's decisions is kept on the agent (``_replays``) for the hand's next
    query, which resumes from the last one its public actions and board still agree with."""
    decisions = views_of(view)
    start = frequencies_at_start(agent, view)
    key = _memo_key(view, start)
    kept = getattr(agent, "_replays", None)
    replay, done = _Replay(agent, view, start), 0
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
    replay = replay.copy()
    hand = replay.hand
    live = ~board_clash(view.board)
    policy = np.zeros((NUM_HOLDINGS, 3))
    for past, taken in decisions[done:]:
        hand.follow(past.actions, past.board, replay.frequencies, past.seats, learning=not agent.frozen)
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
                snapshots.append((past.board, view.actions[: len(past.actions) + 1], replay.copy()))
            continue
        if past.round != replay.round:  # a check-raise is planned for its round only
            replay.chance[:, :2] += replay.chance[:, 2:]
            replay.chance[:, 2:] = 0.0
            replay.round = past.round
        values = holding_values(agent, past, hand)
        make = agent._situation(past, hand)
        facing = past.to_call > 0
        after = np.zeros((NUM_HOLDINGS, STATES))
        groups: list = [None, None]  # per semi-bluffing: `rule_groups` of the holdings asked
        rows = np.flatnonzero(live & (replay.chance.sum(axis=1) > 0))
        for s in range(STATES):
            pending, bluffing, chance = s >> 1, s & 1, replay.chance[rows, s]
            if not chance.any():
                continue
            if pending and facing:  # the check-raise planned
                branches = [(slice(None), 1.0, RAISE, s)]
            else:
                if groups[bluffing] is None:
                    groups[bluffing] = rule_groups(make, values[rows], bool(bluffing), agent.config.rules)
                branches = [
                    (
                        group,
                        p,
                        action,
                        2 * (pending or rule == "check-raise")
                        + (rule == "semi-bluff" or (bluffing and not facing)),
                    )
                    for group, outcomes in groups[bluffing]
                    for p, action, rule in outcomes
                ]
            for group, p, action, state in branches:
                plays_as = played(action, past)
                if current:
                    policy[rows[group], plays_as] += chance[group] * p
                elif plays_as == taken:
                    after[rows[group], state] += chance[group] * p
        if not current:
            replay.chance = after
            snapshots.append((past.board, view.actions[: len(past.actions) + 1], replay.copy()))
    agent._replays = (key, snapshots)
    policy[~live] = 0.0
    return policy


def preflop_plays(strategy: list, view: SeatView, hand: HandFollower) -> np.ndarray:
    """int[1326]: the action `act` plays pre-flop on `view` with each holding, from the strategies of the
    holding types (`strategies`)."""
    can_raise, me = RAISE in view.legal_actions, view.position
    plays = {
        s: played(strategy_action(s, view.raises, view.to_call > 0, hand.voluntary[me], can_raise), view)
        for s in set(strategy)
    }
    return np.array([plays[s] for s in strategy])[HOLDING_TYPE]


def strategies(agent, view: SeatView, hand: HandFollower) -> list:
    """Loki's pre-flop strategy for each of the 169 holding types at its first pre-flop decision, `view`."""
    choose = agent._strategy_chooser(view, hand)
    return [choose(kind) for kind in STARTING_HANDS]
