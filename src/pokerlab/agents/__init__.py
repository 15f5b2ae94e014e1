"""Every player: the Agent protocol, simple baselines, a person at the terminal, and the registry by name.

Agents never import the arena or interfaces; they see hands only through the engine's views.
"""

from pokerlab.agents.base import Agent, Decision
from pokerlab.agents.human import HumanAgent
from pokerlab.agents.registry import agent_descriptions, agent_names, make_agent, parse_lineup, register
from pokerlab.agents.simple import CallAgent, RaiseAgent, RandomAgent

__all__ = [
    "Agent",
    "CallAgent",
    "Decision",
    "HumanAgent",
    "RaiseAgent",
    "RandomAgent",
    "agent_descriptions",
    "agent_names",
    "make_agent",
    "parse_lineup",
    "register",
]
