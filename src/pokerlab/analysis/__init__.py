"""Loki's hand assessment (Billings et al. 1998 §4.1-4.4; Papp 1998 ch. 5-6): hand strength, potential,
effective hand
strength, pot odds and pre-flop income rates."""

from pokerlab.analysis.assessment import Assessment, assess
from pokerlab.analysis.effective import (
    call_value,
    effective_hand_strength,
    optimistic_hand_strength,
    pot_odds,
)
from pokerlab.analysis.income_rate import (
    IncomeRateTable,
    income_rate,
    shipped_table,
    simulate_income_rate,
    simulate_table,
)
from pokerlab.analysis.potential import HandPotential, PotentialTable, hand_potential
from pokerlab.analysis.starting_hands import STARTING_HANDS, hand_type
from pokerlab.analysis.strength import (
    HandStrength,
    field_hand_strength,
    hand_strength,
    holding_strengths,
    product_hand_strength,
)

__all__ = [
    "Assessment",
    "HandPotential",
    "HandStrength",
    "IncomeRateTable",
    "PotentialTable",
    "STARTING_HANDS",
    "assess",
    "call_value",
    "effective_hand_strength",
    "field_hand_strength",
    "hand_potential",
    "hand_strength",
    "hand_type",
    "holding_strengths",
    "income_rate",
    "optimistic_hand_strength",
    "pot_odds",
    "product_hand_strength",
    "shipped_table",
    "simulate_income_rate",
    "simulate_table",
]
