"""Loki-1 (seed 000 §4, LOKI-SPEC §1-4): pre-flop expert system, post-flop rules, opponent modelling."""

from pokerlab.agents.loki1.agent import Loki1Agent
from pokerlab.agents.loki1.config import VARIANTS, Loki1Config, basic_player

__all__ = ["VARIANTS", "Loki1Agent", "Loki1Config", "basic_player"]
