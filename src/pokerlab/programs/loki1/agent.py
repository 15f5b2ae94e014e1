"""Loki-1 (Billings, Papp, Schaeffer, Szafron 1998; Billings et al. 1998 §4; Papp 1998 ch. 5-7) as an agent.

Pre-flop it plays the expert system of `preflop`; after the flop it assesses its hand against the field
array of its opponents' weight tables and applies the priority rules of `postflop`. Every opponent action
re-weights that opponent's table (`opponents`). Each answer is a `Decision` whose info says why: the rule
(the pre-flop strategy, or the post-flop rule that fired) and, after the flop, HS_n, EHS, EHS' and PPOT.
"""

from __future__ import annotations

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.base import Agent, Decision
from pokerlab.analysis.assessment import Assessment
from pokerlab.analysis.income_rate import shipped_table
from pokerlab.analysis.potential import potential_of
from pokerlab.analysis.situation import known_situation
from pokerlab.analysis.starting_hands import HOLDING_TYPE, STARTING_HANDS
from pokerlab.analysis.strength import strength_of
from pokerlab.engine import PREFLOP, RIVER, HandEnd, HandStart, SeatView, blind_positions
from pokerlab.errors import CorruptData
from pokerlab.holdings import HOLDING_INDEX
from pokerlab.modeling.frequencies import ROUNDS, ActionFrequencies
from pokerlab.programs.loki1.config import VARIANTS, Loki1Config
from pokerlab.programs.loki1.holdings_policy import loki1_policy
from pokerlab.programs.loki1.opponents import HandFollower
from pokerlab.programs.loki1.postflop import PostflopSituation, decide
from pokerlab.programs.loki1.preflop import (
    expected_players,
    player_group,
    preflop_position,
    select_strategy,
    strategy_action,
)


class Loki1Agent(Agent):
    """The Loki-1 poker player; ``Loki1Agent(VARIANTS["loki1-uniform"])`` gives an ablation."""

    name = "loki1"
    learns = True  # each opponent's action frequencies, across hands

    def __init__(self, config: Loki1Config | None = None) -> None:
        super().__init__()
        self.config = config or VARIANTS["loki1"]
        self.frequencies: dict[int, ActionFrequencies] = {}  # per opponent identity, across hands
        self._hand: HandFollower | None = None
        self._seats: tuple[int, ...] = ()
        self.last_hand: HandFollower | None = None  # the finished hand, for inspection
        self.last_rule = ""  # which rule decided the last action (for logs and tests)
        self.counts_at_start: dict[int, np.ndarray] = {}  # `frequencies` counts as the hand began
        self._info: dict = {}  # what the last post-flop decision adds to its rule in the Decision's info

    def forget(self) -> None:
        self.frequencies = {}
        self._hand = None

    def learned_state(self) -> dict[str, np.ndarray]:
        seats = sorted(self.frequencies)
        counts = [self.frequencies[s].counts for s in seats]
        return {"seats": np.array(seats, dtype=np.int64), "counts": np.array(counts, dtype=np.int64)}

    def load_learned_state(self, state: dict[str, np.ndarray]) -> None:
        seats, counts = state.get("seats"), state.get("counts")
        if seats is None or counts is None or counts.shape[1:] != (ROUNDS, 3, 3) or len(seats) != len(counts):
            raise CorruptData(
                f"a Loki-1 file holds seats and (n, {ROUNDS}, 3, 3) counts, got {sorted(state)}"
            )
        self.frequencies = {}
        for seat, table in zip(seats.tolist(), counts, strict=True):
            freq = self.frequencies[seat] = ActionFrequencies()
            freq.counts[:] = table

    def begin_hand(self, start: HandStart) -> None:
        self._new_hand(start.players, start.position, start.hole, start.config, start.seats, start.blinds)

    def _new_hand(self, players, position, hole, game, seats, blinds) -> HandFollower:
        sizes = tuple(game.bet_size(r) for r in range(4))
        self._hand = HandFollower(players, position, hole, self.config, sizes, blinds)
        self._seats = seats
        if not self.frozen:  # for the policy query's replay (`holdings_policy.frequencies_at_start`)
            self.counts_at_start = {seat: f.counts.copy() for seat, f in self.frequencies.items()}
        return self._hand

    def act(self, view: SeatView) -> Decision:
        hand = self._hand
        if hand is None or hand.hole != view.hole or hand.seen > len(view.actions):
            # asked to act without begin_hand (a view built by hand): follow the hand from this view
            hand = self._new_hand(
                view.players, view.position, view.hole, view.config, view.seats, view.blinds
            )
        hand.follow(view.actions, view.board, self.frequencies, view.seats, learning=not self.frozen)
        hand.catch_up(view.round)
        if view.round == PREFLOP:
            action = self._preflop(view, hand)
            info = {"rule": hand.strategy.name}
        else:
            self._info = {}
            action = self._postflop(view, hand)
            info = {"rule": self.last_rule} | self._info
        if action == RAISE and RAISE not in view.legal_actions:
            action = CALL
        if action == FOLD and view.to_call == 0:
            action = CALL  # never fold when checking is free
        return Decision(action, None, info)

    def policy_for_holdings(self, view: SeatView) -> np.ndarray:
        """The all-holdings policy query (`pokerlab.agents.policy`): float[1326, 3], what `act` plays on
        `view` with each holding given the hand so far, frozen (`holdings_policy`); draws nothing."""
        return loki1_policy(self, view)

    def end_hand(self, end: HandEnd) -> None:
        hand = self._hand
        # count the opponents' last actions (no re-weighting: the tables die with the hand)
        hand.follow(end.actions, end.board, self.frequencies, self._seats, False, not self.frozen)
        self.last_hand = hand
        self._hand = None

    def _preflop(self, view: SeatView, hand: HandFollower) -> int:
        if hand.strategy is None:
            hand.strategy = self._choose_strategy(view, hand)
            self.last_rule = hand.strategy.name
        return strategy_action(
            hand.strategy,
            view.raises,
            view.to_call > 0,
            hand.voluntary[view.position],
            RAISE in view.legal_actions,
        )

    def _choose_strategy(self, view: SeatView, hand: HandFollower):
        """Pick the pre-flop strategy at Loki's first pre-flop decision (Papp 1998 §6.1, App. B)."""
        kind = STARTING_HANDS[HOLDING_TYPE[HOLDING_INDEX[view.hole]]]  # the engine's cards: no parsing
        return self._strategy_chooser(view, hand)(kind)

    def _strategy_chooser(self, view: SeatView, hand: HandFollower):
        """``choose(kind)``: the pre-flop strategy of a starting hand at Loki's first pre-flop decision on
        `view` (Papp 1998 §6.1, App. B), the betting read once for every hand asked."""
        config, me = self.config, view.position
        if config.preflop == "simple":
            table, group, position, small_blind = shipped_table(7), 7, 0, False
        else:
            others = [p for p in range(view.players) if p != me and not hand.folded[p]]
            voluntarily_in = sum(1 for p in others if hand.voluntary[p])
            still_to_act = hand.facts.opponents_to_act(me)
            group = player_group(expected_players(voluntarily_in, still_to_act, config.probability_play))
            in_pot = [p for p in range(view.players) if not hand.folded[p]]
            position = preflop_position(in_pot.index(me) + 1, len(in_pot))
            small_blind = me == blind_positions(view.players)[0]
            table = shipped_table(group)

        def choose(kind):
            return select_strategy(
                table[kind], group, config.tightness, position, small_blind, config.preflop_rules
            )

        return choose

    def _postflop(self, view: SeatView, hand: HandFollower) -> int:
        config = self.config
        if hand.check_raise_round == view.round and view.to_call > 0:
            self.last_rule = "check-raise"
            return RAISE
        hs_n, ehs, ehs_opt, ppot = self._own_values(view, hand)
        self._info = {"hs_n": hs_n, "ehs": ehs, "ehs_optimistic": ehs_opt, "potential": ppot}
        situation = self._situation(view, hand)(hs_n, ehs, ehs_opt, ppot, hand.semi_bluffing)
        action, rule = decide(situation, config.rules, self.rng)
        if rule == "check-raise":
            hand.check_raise_round = view.round
        hand.semi_bluffing = rule == "semi-bluff" or (hand.semi_bluffing and view.to_call == 0)
        self.last_rule = rule
        return action

    def _situation(self, view: SeatView, hand: HandFollower):
        """A maker of the post-flop rules' `PostflopSituation` on `view`, from the hand's values: ``make(hs_n,
        ehs, ehs_optimistic, ppot, semi_bluffing)`` (the betting facts read once for every holding asked)."""
        context = hand.facts.context(view)
        facts = {
            "round_index": view.round,
            "bets_to_call": context.bets_to_call,
            "bets_made": context.bets_made,
            "bet_size": context.bet_size,
            "later_bet_size": view.config.bet_size(RIVER),
            "pot": context.pot,
            "to_call": context.to_call,
            "opponents_active": context.opponents_active,
            "opponents_to_act": context.opponents_to_act,
            "called_bet_this_round": context.called_bet,
            "can_raise": context.can_raise,
        }

        def make(hs_n: float, ehs: float, ehs_optimistic: float, ppot: float, semi_bluffing: bool):
            return PostflopSituation(
                ehs_optimistic=ehs_optimistic,
                ehs=ehs,
                hand_strength_n=hs_n,
                potential=ppot,
                semi_bluffing=semi_bluffing,
                **facts,
            )

        return make

    def _own_values(self, view: SeatView, hand: HandFollower) -> tuple[float, float, float, float]:
        """(HS_n, EHS, EHS', PPOT) of our hand against the field array (Papp 1998 ch. 5-6); without
        `potential`, EHS = EHS' = HS_n and PPOT 0."""
        config = self.config
        # the engine's cards and our own field array are valid: the unchecked path of `assess`
        known = known_situation(view.hole, view.board, hand.field(view.hole + view.board))
        strength = strength_of(known, len(hand.opponents()))
        if not config.potential:
            return strength.hs_n, strength.hs_n, strength.hs_n, 0.0
        assessment = Assessment(strength, potential_of(known), config.flop_lookahead)
        one_card = assessment.potential.one_card
        ppot = one_card.positive_potential if one_card is not None else 0.0
        return strength.hs_n, assessment.ehs, assessment.ehs_optimistic, ppot
