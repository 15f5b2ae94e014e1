"""Loki-1 (Billings et al. 1998 §4, Papp 1998 ch. 5-7): pre-flop expert system, post-flop rules,
opponent modelling."""

from pokerlab.programs.loki1.agent import Loki1Agent
from pokerlab.programs.loki1.config import FIG1_READINGS, VARIANTS, Loki1Config, basic_player, fig1_reading

__all__ = [
    "FIG1_READINGS",
    "VARIANTS",
    "Loki1Agent",
    "Loki1Config",
    "basic",
    "basic_player",
    "fig1_reading",
    "variant",
]


def variant(name: str) -> Loki1Agent:
    """A fresh Loki-1 of one of the `VARIANTS` (the full player and Fig 1's ablations, Billings et al. 1998
    §5), as the agent registry names them."""
    return Loki1Agent(VARIANTS[name])


def basic(tightness: str) -> Loki1Agent:
    """A fresh basic non-modelling player of Papp (1998 ch. 8): "loose", "moderate" or "tight"."""
    return Loki1Agent(basic_player(tightness))
