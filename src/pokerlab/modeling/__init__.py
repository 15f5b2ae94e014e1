"""Opponent modelling: weight tables over the 1,326 two-card holdings (Billings et al. 1998 §4.3; Papp 1998
§7.3.1, §4)."""

from pokerlab.modeling.weights import (
    CARD_HOLDINGS,
    HOLDING_CARDS,
    HOLDING_INDEX,
    NUM_HOLDINGS,
    check_weights,
    field_array,
    holding_index,
    holding_text,
    live_holdings,
    load_weights,
    normalise,
    uniform_weights,
)

__all__ = [
    "CARD_HOLDINGS",
    "HOLDING_CARDS",
    "HOLDING_INDEX",
    "NUM_HOLDINGS",
    "check_weights",
    "field_array",
    "holding_index",
    "holding_text",
    "live_holdings",
    "load_weights",
    "normalise",
    "uniform_weights",
]
