"""Seats agents at tables and runs sessions, matches and duplicate tournaments, with honest statistics."""

from pokerlab.arena.dealing import deal_cards
from pokerlab.arena.match import duplicate_tournament, play_match
from pokerlab.arena.output import MatchResult
from pokerlab.arena.players import AgentSpec, IsolatedPlayer, LocalPlayer
from pokerlab.arena.seating import duplicate_positions
from pokerlab.arena.session import HandOutcome, SessionReport
from pokerlab.arena.stats import AgentResult, summarize
from pokerlab.arena.table import DecisionLog, Table

__all__ = [
    "AgentResult",
    "AgentSpec",
    "DecisionLog",
    "HandOutcome",
    "IsolatedPlayer",
    "LocalPlayer",
    "MatchResult",
    "SessionReport",
    "Table",
    "deal_cards",
    "duplicate_positions",
    "duplicate_tournament",
    "play_match",
    "summarize",
]
