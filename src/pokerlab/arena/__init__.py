"""Seats agents at tables and runs matches and duplicate tournaments, with honest statistics."""

from pokerlab.arena.match import MatchResult, deal_cards, duplicate_tournament, play_hand, play_match
from pokerlab.arena.seating import duplicate_positions
from pokerlab.arena.stats import AgentResult, summarize

__all__ = [
    "AgentResult",
    "MatchResult",
    "deal_cards",
    "duplicate_positions",
    "duplicate_tournament",
    "play_hand",
    "play_match",
    "summarize",
]
