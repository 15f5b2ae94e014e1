"""The rules of fixed-limit Texas hold'em and nothing else: config, hand state machine, pots, records.

The engine is the single source of truth for legality, pot arithmetic and showdown
(docs/getting-started.md); it knows nothing of agents, the arena or interfaces.
"""

from pokerlab.engine.config import UNLIMITED_STACK, GameConfig
from pokerlab.engine.records import HandRecord, record_of, replay
from pokerlab.engine.showdown import settle
from pokerlab.engine.state import (
    ACTION_LETTERS,
    BOARD_SIZE,
    CALL,
    FLOP,
    FOLD,
    PREFLOP,
    RAISE,
    RIVER,
    ROUND_NAMES,
    SHOWDOWN,
    TURN,
    UNKNOWN,
    Action,
    ActionRecord,
    HandState,
    betting_string,
    blind_positions,
    max_loss,
)
from pokerlab.engine.view import (
    BettingContext,
    BettingFacts,
    HandEnd,
    HandStart,
    SeatView,
    hand_end,
    hand_start,
    seat_view,
    state_from_view,
)

__all__ = [
    "ACTION_LETTERS",
    "BOARD_SIZE",
    "CALL",
    "FLOP",
    "FOLD",
    "PREFLOP",
    "RAISE",
    "RIVER",
    "ROUND_NAMES",
    "SHOWDOWN",
    "TURN",
    "UNKNOWN",
    "UNLIMITED_STACK",
    "Action",
    "ActionRecord",
    "BettingContext",
    "BettingFacts",
    "GameConfig",
    "HandEnd",
    "HandRecord",
    "HandStart",
    "HandState",
    "SeatView",
    "betting_string",
    "blind_positions",
    "max_loss",
    "hand_end",
    "hand_start",
    "record_of",
    "replay",
    "seat_view",
    "settle",
    "state_from_view",
]
