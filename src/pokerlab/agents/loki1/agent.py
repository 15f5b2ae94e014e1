"""Loki-1 (Billings, Papp, Schaeffer, Szafron 1998; seed 000 §4; LOKI-SPEC §1-4) as an agent.

Pre-flop it plays the expert system of `preflop`; after the flop it assesses its hand against the field
array of its opponents' weight tables and applies the priority rules of `postflop`. Every opponent action
re-weights that opponent's table (`opponents`).
"""

from __future__ import annotations

import numpy as np

from pokerlab.agents.base import Agent
from pokerlab.agents.loki1.config import VARIANTS, Loki1Config
from pokerlab.agents.loki1.opponents import HandFollower
from pokerlab.agents.loki1.postflop import PostflopSituation, decide
from pokerlab.agents.loki1.preflop import (
    expected_players,
    player_group,
    preflop_position,
    select_strategy,
    strategy_action,
)
from pokerlab.analysis.assessment import assess
from pokerlab.analysis.income_rate import shipped_table
from pokerlab.analysis.starting_hands import hand_type
from pokerlab.analysis.strength import hand_strength
from pokerlab.engine import CALL, FOLD, PREFLOP, RAISE, RIVER, SeatView, blind_positions
from pokerlab.modeling.frequencies import ActionFrequencies


class Loki1Agent(Agent):
    """The Loki-1 poker player; ``Loki1Agent(VARIANTS["loki1-uniform"])`` gives an ablation."""

    name = "loki1"

    def __init__(self, config: Loki1Config | None = None) -> None:
        super().__init__()
        self.config = config or VARIANTS["loki1"]
        self.frequencies: dict[int, ActionFrequencies] = {}  # per opponent identity, across hands
        self._hand: HandFollower | None = None
        self.last_hand: HandFollower | None = None  # the finished hand, for inspection
        self.last_rule = ""  # which rule decided the last action (for logs and tests)

    def reset(self, rng: np.random.Generator) -> None:
        super().reset(rng)
        self.frequencies = {}
        self._hand = None

    def _follow(self, view: SeatView, reweighting: bool = True) -> HandFollower:
        hand = self._hand
        if hand is None or hand.hole != view.hole or hand.seen > len(view.history):
            hand = self._hand = HandFollower(view.players, view.position, view.hole, self.config)
        hand.follow(view.history, view.board, self.frequencies, view.seats, reweighting)
        return hand

    def act(self, view: SeatView) -> int:
        hand = self._follow(view)
        if view.round == PREFLOP:
            letter = self._preflop(view, hand)
        else:
            letter = self._postflop(view, hand)
        if letter == "r" and RAISE not in view.legal_actions:
            letter = "c"
        if letter == "f" and view.to_call == 0:
            letter = "c"  # never fold when checking is free
        return {"f": FOLD, "c": CALL, "r": RAISE}[letter]

    def hand_over(self, view: SeatView, nets: tuple[int, ...]) -> None:
        self.last_hand = self._follow(view, reweighting=False)  # count the opponents' last actions
        self._hand = None

    def _preflop(self, view: SeatView, hand: HandFollower) -> str:
        if hand.strategy is None:
            hand.strategy = self._choose_strategy(view, hand)
            self.last_rule = hand.strategy.name
        return strategy_action(
            hand.strategy,
            hand.bets_made,
            view.to_call > 0,
            hand.voluntary[view.position],
            RAISE in view.legal_actions,
        )

    def _choose_strategy(self, view: SeatView, hand: HandFollower):
        """Pick the pre-flop strategy at Loki's first pre-flop decision (LOKI-SPEC §1.2-1.3)."""
        config, me = self.config, view.position
        kind = hand_type(view.hole)
        if config.preflop == "simple":
            return select_strategy(shipped_table(7)[kind], 7, config.tightness, 0, rules=config.preflop_rules)
        others = [p for p in range(view.players) if p != me and not hand.folded[p]]
        voluntarily_in = sum(1 for p in others if hand.voluntary[p])
        still_to_act = sum(1 for p in others if not hand.acted[p])
        group = player_group(expected_players(voluntarily_in, still_to_act, config.probability_play))
        in_pot = [p for p in range(view.players) if not hand.folded[p]]
        position = preflop_position(in_pot.index(me) + 1, len(in_pot))
        small_blind = me == blind_positions(view.players)[0]
        return select_strategy(
            shipped_table(group)[kind], group, config.tightness, position, small_blind, config.preflop_rules
        )

    def _postflop(self, view: SeatView, hand: HandFollower) -> str:
        config = self.config
        if hand.check_raise_round == view.round and view.to_call > 0:
            self.last_rule = "check-raise"
            return "r"
        opponents = len(hand.opponents())
        dead = list(view.hole) + list(view.board)
        field = hand.field(dead)
        if config.potential:
            assessment = assess(view.hole, view.board, field, opponents, config.flop_lookahead)
            hs_n, ehs, ehs_opt = assessment.strength.hs_n, assessment.ehs, assessment.ehs_optimistic
            one_card = assessment.potential.one_card
            ppot = one_card.positive_potential if one_card is not None else 0.0
        else:
            hs_n = hand_strength(view.hole, view.board, field, opponents).hs_n
            ehs = ehs_opt = hs_n
            ppot = 0.0
        bet = view.config.bet_size(view.round)
        situation = PostflopSituation(
            round_index=view.round,
            ehs_optimistic=ehs_opt,
            ehs=ehs,
            hand_strength_n=hs_n,
            potential=ppot,
            bets_to_call=hand.bets_to_call(view.position),
            bets_made=hand.bets_made,
            bet_size=bet,
            later_bet_size=view.config.bet_size(RIVER),
            pot=view.pot,
            to_call=view.to_call,
            opponents_active=opponents,
            opponents_to_act=hand.opponents_to_act(),
            called_bet_this_round=hand.called_bet,
            semi_bluffing=hand.semi_bluffing,
            can_raise=RAISE in view.legal_actions,
        )
        letter, rule = decide(situation, config.rules, self.rng)
        if rule == "check-raise":
            hand.check_raise_round = view.round
        hand.semi_bluffing = rule == "semi-bluff" or (hand.semi_bluffing and view.to_call == 0)
        self.last_rule = rule
        return letter
