"""Loki-1 (Billings et al. 1998 §4, Papp 1998 ch. 5-7): pre-flop expert system, post-flop rules,
opponent modelling."""

from pokerlab.programs.loki1.agent import Loki1Agent
from pokerlab.programs.loki1.config import FIG1_READINGS, VARIANTS, Loki1Config, basic_player, fig1_reading

__all__ = ["FIG1_READINGS", "VARIANTS", "Loki1Agent", "Loki1Config", "basic_player", "fig1_reading"]
