"""Barone & While's (2000) evolving player: candidates, the hypercube of (1+1)-ES populations, player A."""

from pokerlab.programs.barone_while.agent import EvolvingAgent
from pokerlab.programs.barone_while.config import EvolvingConfig
from pokerlab.programs.barone_while.hypercube import Hypercube

__all__ = ["EvolvingAgent", "EvolvingConfig", "Hypercube"]
