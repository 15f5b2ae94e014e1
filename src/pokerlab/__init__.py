"""pokerlab: a testbed for poker-AI research after Loki, Loki-2 and their successors.

The everyday names live here; see README.md for a tour.
"""

from pokerlab.agents import Agent, agent_names, make_agent, register
from pokerlab.analysis import (
    assess,
    field_hand_strength,
    hand_potential,
    hand_strength,
    hand_type,
    holding_strengths,
    income_rate,
    pot_odds,
)
from pokerlab.arena import duplicate_tournament, play_match
from pokerlab.cards import Deck, card_mask, format_card, format_cards, parse_card, parse_cards
from pokerlab.engine import GameConfig, HandState
from pokerlab.errors import ConfigError, CorruptData, IllegalAction, InvalidCards, PokerlabError
from pokerlab.evaluator import best_five, category, describe, evaluate, evaluate_batch
from pokerlab.handclass import HandCategory
from pokerlab.holdings import field_array, uniform_weights

__version__ = "0.1.0"

__all__ = [
    "Agent",
    "GameConfig",
    "HandState",
    "agent_names",
    "duplicate_tournament",
    "make_agent",
    "play_match",
    "register",
    "ConfigError",
    "CorruptData",
    "Deck",
    "HandCategory",
    "IllegalAction",
    "InvalidCards",
    "PokerlabError",
    "assess",
    "best_five",
    "card_mask",
    "category",
    "describe",
    "evaluate",
    "evaluate_batch",
    "field_array",
    "field_hand_strength",
    "format_card",
    "format_cards",
    "hand_potential",
    "hand_strength",
    "hand_type",
    "holding_strengths",
    "income_rate",
    "parse_card",
    "parse_cards",
    "pot_odds",
    "uniform_weights",
]
