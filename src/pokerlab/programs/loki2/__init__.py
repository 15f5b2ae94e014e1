"""Loki-2 (Billings et al. 1999; Peña 1999 ch. 3-5): probability triples, triple re-weighting and
selective-sampling simulation on Loki-1's floors."""

from pokerlab.programs.loki2.agent import Loki2Agent
from pokerlab.programs.loki2.config import VARIANTS, Loki2Config

__all__ = ["VARIANTS", "Loki2Agent", "Loki2Config"]
