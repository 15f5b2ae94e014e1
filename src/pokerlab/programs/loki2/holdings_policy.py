"""Loki-2's answer to the all-holdings policy query (`pokerlab.agents.policy`) when it bets by its probability
triples (``betting="triples"``, "B" of Peña 1999 node30): what it plays on a public view with each holding.

Pre-flop Loki-2 is Loki-1 (its query's pre-flop plays). After the flop it draws its action from its triple
(Billings et al. 1999 §4) with one uniform u for the whole hand (``same_u_per_hand``, Peña node30), so its
decisions in a hand are tied together: given its actions so far, u lies in the
intersection of the u-intervals of those actions, and the chance of each action now is the share of that
interval its own interval covers. The query replays the hand once for every holding at the same time:
Loki-2's follower (re-weighting by triples) from the public actions, its values for every holding
(`pokerlab.programs.loki1.holdings_policy.holding_values`), each holding's triple at each of Loki-2's
decisions, its u-interval narrowed to the action taken, and its semi-bluff flag (a bet checked to below
Make1, kept while nobody bets), which the action taken fixes. With a fresh u per decision the rows are the
triples.

Loki-2 learns during a match: `act` re-weights each opponent action with the opponent model as it was
then (Loki-1's counts, one action more at each), and its first hand's pot starts from no blinds (the
follower's [KNOWN] quirk in `agent`). A replay with the model as it is when asked gives back neither: its
triples differ from `act`'s by a few thousandths. So at each post-flop decision by triples `act` keeps a
copy of its own follower (`keep_follower`; the follower's tables know nothing of its own cards), and the
query continues from it at that decision (`kept_follower`): asked after `act` on the same view (`pokerlab
match --log-policies`), the row of Loki-2's holding is what `act` drew from, the others what `act` draws
from with them in the same state. Where none was kept (a fresh agent, a view of another hand) it replays,
for Loki-2 frozen: it learns nothing from the hand's actions.

A holding that could not have played the hand (its interval empty) answers from the whole of [0, 1). The
simulating Loki-2 does not offer the query (a simulation per holding and decision is far too dear). The
tests compare this one with Loki-2's own `act` replayed holding by holding, and asked during a match
with what `act` drew from.
"""

from __future__ import annotations

import copy

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.policy import board_clash
from pokerlab.engine import PREFLOP, RIVER, SeatView
from pokerlab.holdings import NUM_HOLDINGS
from pokerlab.programs.loki1.holdings_policy import (
    holding_values,
    played,
    preflop_plays,
    strategies,
    views_of,
)
from pokerlab.programs.loki2.reweight import TripleFollower
from pokerlab.programs.loki2.triples import TripleContext, reference_triple


def keep_follower(agent, view: SeatView, hand: TripleFollower) -> None:
    """Keep a copy of `hand`, the follower `act` draws its triple on `view` from, for the hand's queries
    (`kept_follower`): its opponents' tables were re-weighted with the opponent model as it was at each
    action, which a replay with the model as it is when asked does not give back."""
    shared = {id(hand.config): hand.config, id(hand.loki2): hand.loki2}  # frozen: not copied
    key = (view.position, view.seats, view.actions, view.board)
    agent._followed[len(view.actions)] = (key, copy.deepcopy(hand, shared))


def kept_follower(agent, view: SeatView) -> TripleFollower | None:
    """The follower `act` kept at its decision on `view` (`keep_follower`), None where it kept none (a
    fresh agent, another hand, a decision by Loki-1's rules)."""
    kept = getattr(agent, "_followed", {}).get(len(view.actions))
    if kept is None or kept[0] != (view.position, view.seats, view.actions, view.board):
        return None
    return kept[1]


def loki2_triples_policy(agent, view: SeatView) -> np.ndarray:
    """float[1326, 3]: Loki-2's (fold, call, raise) on `view` with each holding (the module doc)."""
    loki2, me = agent.loki2, view.position
    sizes = tuple(view.config.bet_size(r) for r in range(4))
    hand = TripleFollower(view.players, me, (-1, -1), agent.config, sizes, view.blinds, loki2)
    live = ~board_clash(view.board)
    low, high = np.zeros(NUM_HOLDINGS), np.ones(NUM_HOLDINGS)  # where u lies, given Loki-2's actions
    bluffing = np.zeros(NUM_HOLDINGS, dtype=bool)
    rules = loki2.triples.rules
    strategy = None
    policy = np.zeros((NUM_HOLDINGS, 3))
    for past, taken in views_of(view):
        follower = kept_follower(agent, past) if past.round != PREFLOP else None
        if follower is None:
            hand.follow(past.actions, past.board, agent.frequencies, past.seats, learning=False)
            hand.catch_up(past.round)
            follower = hand
        if past.round == PREFLOP:
            if strategy is None:
                strategy = strategies(agent, past, hand)
            plays = preflop_plays(strategy, past, hand)
            if taken is None:
                policy[np.arange(NUM_HOLDINGS), plays] = 1.0
            else:
                high = np.where(plays == taken, high, low)  # an impossible holding: an empty interval
            continue
        values = holding_values(agent, past, follower)
        betting = follower.facts.context(past)
        contexts = [TripleContext.of(betting, past.config.bet_size(RIVER), sb) for sb in (False, True)]
        t1, t2 = rules.make1, rules.make2
        facing = past.to_call > 0
        if taken is None and loki2.same_u_per_hand:
            empty = ~(high > low)
            low[empty], high[empty] = 0.0, 1.0
        for h in np.flatnonzero(live):
            hs_n, ehs, ehs_opt, ppot = values[h]
            triple = reference_triple(
                hs_n, ehs_opt, ehs, ppot, contexts[int(bluffing[h])], loki2.triples, t1, t2
            )
            edges = (0.0, triple[FOLD], triple[FOLD] + triple[CALL], 1.0)  # the selector's u-intervals
            if taken is None:
                if not loki2.same_u_per_hand:
                    for action in (FOLD, CALL, RAISE):
                        policy[h, played(action, past)] += triple[action]
                    continue
                for action in (FOLD, CALL, RAISE):
                    share = min(high[h], edges[action + 1]) - max(low[h], edges[action])
                    policy[h, played(action, past)] += max(share, 0.0) / (high[h] - low[h])
                continue
            drawn = [a for a in (FOLD, CALL, RAISE) if played(a, past) == taken and triple[a] > 0]
            if loki2.same_u_per_hand:
                start = min((edges[a] for a in drawn), default=1.0)
                end = max((edges[a + 1] for a in drawn), default=0.0)
                low[h], high[h] = max(low[h], start), min(high[h], end)
            elif not drawn:
                low[h] = high[h]  # no action of the triple plays as the one taken
            bluffing[h] = (taken == RAISE and not facing and ehs_opt < rules.make1) or (
                bluffing[h] and not facing
            )
    policy[~live] = 0.0
    return policy
