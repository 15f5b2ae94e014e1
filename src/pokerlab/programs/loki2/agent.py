"""Loki-2 (Billings et al. 1999; Peña 1999) as an agent: Loki-1's floors with probability triples.

Pre-flop it is Loki-1 (expert system, income-rate re-weighting). After the flop it acts by Loki-1's rules,
by drawing from its own probability triple ("B", `selector`), or by selective-sampling simulation
(`simulate`), and it re-weights opponents by Loki-1's thresholds or by triples ("R", `reweight`); the
`Loki2Config` says which. A decision carries its triple, or its EVs and their standard errors.
"""

from __future__ import annotations

import numpy as np

from pokerlab.actions import RAISE
from pokerlab.agents.base import Decision
from pokerlab.engine import RIVER, HandStart, SeatView
from pokerlab.holdings import NUM_HOLDINGS
from pokerlab.programs.loki1 import Loki1Agent
from pokerlab.programs.loki2.config import VARIANTS, Loki2Config
from pokerlab.programs.loki2.holdings_policy import keep_follower, loki2_triples_policy
from pokerlab.programs.loki2.reweight import TripleFollower
from pokerlab.programs.loki2.selector import select_action
from pokerlab.programs.loki2.simulate import folded_keep_weights, simulate
from pokerlab.programs.loki2.triples import TripleContext, reference_triple


class Loki2Agent(Loki1Agent):
    """The Loki-2 poker player; ``Loki2Agent(VARIANTS["loki2-triples"])`` gives a variant."""

    name = "loki2"

    def __init__(self, config: Loki2Config | None = None) -> None:
        self.loki2 = config or VARIANTS["loki2"]
        super().__init__(self.loki2.loki1)
        self._blinds: tuple[int, ...] = ()
        self._u = 0.0  # the action selector's uniform for the hand
        self._probabilities: tuple[float, float, float] | None = None  # what a triple decision drew from
        self._followed: dict = {}  # the follower at each post-flop decision of the hand (`kept_follower`)

    def begin_hand(self, start: HandStart) -> None:
        self._blinds = start.blinds
        self._u = float(self.rng.random())
        super().begin_hand(start)

    def _new_hand(self, players, position, hole, game, seats, blinds) -> TripleFollower:
        sizes = tuple(game.bet_size(r) for r in range(4))
        # [KNOWN] the pot of the re-weighting contexts starts from the blinds of this agent's last view (none
        # in a session's first hand), not this hand's `blinds`: kept, as the published figures were made so
        blinds = self._blinds or (0,) * players
        self._hand = TripleFollower(players, position, hole, self.config, sizes, blinds, self.loki2)
        self._seats = seats
        self._followed = {}
        return self._hand

    def act(self, view: SeatView) -> Decision:
        self._blinds, self._probabilities = view.blinds, None
        decision = super().act(view)  # Loki-1's checks of the action; the info from `_info`, as Loki-1's
        probabilities = self._probabilities
        return decision if probabilities is None else decision._replace(probabilities=probabilities)

    def _postflop(self, view: SeatView, hand: TripleFollower) -> int:
        loki2 = self.loki2
        if loki2.betting == "rules":
            return super()._postflop(view, hand)
        hs_n, ehs, ehs_opt, ppot = self._own_values(view, hand)
        rules = loki2.triples.rules
        context = TripleContext.of(hand.facts.context(view), view.config.bet_size(RIVER), hand.semi_bluffing)
        triple = reference_triple(hs_n, ehs_opt, ehs, ppot, context, loki2.triples, rules.make1, rules.make2)
        info = {"hs_n": hs_n, "ehs_optimistic": ehs_opt, "potential": ppot, "triple": list(triple)}
        simulating = loki2.betting == "simulation" and view.round >= loki2.simulate_from
        if simulating and not (loki2.obvious_move is not None and max(triple) >= loki2.obvious_move):
            result = simulate(
                view,
                self._keep_weights(hand),
                hand.field(view.hole + view.board),
                self._thresholds(view, hand),
                hand.semi_bluffing,
                loki2.triples,
                loki2.simulation,
                self.rng,
            )
            action = result.best_action(view.to_call)
            probabilities = tuple(float(a == action) for a in range(3))
            info |= result.info()
            self.last_rule = "simulation"
        else:
            keep_follower(self, view, hand)
            u = self._u if loki2.same_u_per_hand else float(self.rng.random())
            action, probabilities = select_action(triple, u), triple
            self.last_rule = "triple"
        # a bet when nothing is owed below the Make1 threshold is a (semi-)bluff: keep betting (Papp §6.4)
        hand.semi_bluffing = (action == RAISE and view.to_call == 0 and ehs_opt < rules.make1) or (
            hand.semi_bluffing and view.to_call == 0
        )
        self._info, self._probabilities = info, probabilities
        return action

    @property
    def policy_for_holdings(self):
        """The all-holdings policy query (`pokerlab.agents.policy`) where Loki-2 bets by its triples
        (`holdings_policy`); where it simulates or plays Loki-1's rules with re-weighting by triples, which
        do not offer it, an AttributeError says so (`holdings_policy_refusal`)."""
        if self.loki2.betting != "triples":
            raise AttributeError(
                f"Loki-2 betting by {self.loki2.betting!r} answers no all-holdings policy query "
                "(only betting by triples does: loki2-triples)"
            )
        return lambda view: loki2_triples_policy(self, view)

    def _keep_weights(self, hand: TripleFollower) -> dict[int, np.ndarray]:
        """Each other position's sampling weights: its weight table, or the folded rule (Peña 1999 node42)."""
        folded, uniform = folded_keep_weights(), np.ones(NUM_HOLDINGS)
        weighting = self.config.weighting
        return {
            p: folded if hand.folded[p] else (hand.weights[p] if weighting else uniform)
            for p in range(hand.players)
            if p != hand.me
        }

    def _thresholds(self, view: SeatView, hand: TripleFollower) -> np.ndarray:
        """(t1, t2) of every position's triples per round and bets to call: ours generic, the opponents' by
        `TripleFollower.thresholds` (Peña 1999 node35)."""
        rules = self.loki2.triples.rules
        table = np.empty((view.players, 4, 3, 2))
        table[:] = (rules.make1, rules.make2)
        for p in hand.opponents():
            freq = self.frequencies.get(view.seats[p])
            for rnd in range(view.round, RIVER + 1):
                for bets in range(3):
                    table[p, rnd, bets] = hand.thresholds(freq, rnd, bets)
        return table
