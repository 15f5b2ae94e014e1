"""Barone & While's (2000) evolving player: candidates, the hypercube of (1+1)-ES populations, player A."""

from pokerlab.agents.evolving.agent import EvolvingAgent
from pokerlab.agents.evolving.config import EvolvingConfig
from pokerlab.agents.evolving.hypercube import Hypercube

__all__ = ["EvolvingAgent", "EvolvingConfig", "Hypercube"]
