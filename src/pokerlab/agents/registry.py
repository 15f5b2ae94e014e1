"""Agents by name, so that the CLI and experiments can say "loki1,call,random:8".

Adding a player is one line: ``register("loki1", Loki1Agent)``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pokerlab.agents.base import Agent
from pokerlab.agents.human import HumanAgent
from pokerlab.agents.loki1 import VARIANTS, Loki1Agent, basic_player
from pokerlab.agents.simple import CallAgent, RaiseAgent, RandomAgent
from pokerlab.agents.stereotypes import STYLES, StereotypeAgent
from pokerlab.errors import ConfigError

_FACTORIES: dict[str, Callable[[], Agent]] = {}


def register(name: str, factory: Callable[[], Agent]) -> None:
    """Make `factory()` available as agent `name` (names are lower-case, without ':' or ',')."""
    if not name or name != name.lower() or any(c in name for c in ":, "):
        raise ConfigError(f"agent name {name!r} must be lower-case without ':', ',' or spaces")
    _FACTORIES[name] = factory


def agent_names() -> list[str]:
    """The registered agent names, sorted."""
    return sorted(_FACTORIES)


def make_agent(name: str) -> Agent:
    """A fresh agent of the registered `name`; `ConfigError` lists the known names otherwise."""
    factory = _FACTORIES.get(name)
    if factory is None:
        raise ConfigError(f"unknown agent {name!r}; known agents: {', '.join(agent_names())}")
    agent = factory()
    agent.name = name
    return agent


def parse_lineup(text: str) -> list[str]:
    """Agent names, one per seat, from "random:8,call,raise" (a name may carry a count)."""
    names: list[str] = []
    for item in text.split(","):
        name, _, count = item.strip().partition(":")
        if count and (not count.isdigit() or int(count) < 1):
            raise ConfigError(f"bad count {count!r} in {item!r}: write name:COUNT with COUNT >= 1")
        if name not in _FACTORIES:
            make_agent(name)  # raises with the known names
        names += [name] * (int(count) if count else 1)
    return names


register("random", RandomAgent)
register("call", CallAgent)
register("raise", RaiseAgent)
register("human", HumanAgent)
for _name, _config in VARIANTS.items():
    register(_name, partial(Loki1Agent, _config))
for _style in STYLES:
    register(_style, partial(StereotypeAgent, _style))
for _name, _tightness in (("bpl", "loose"), ("bpm", "moderate"), ("bpt", "tight")):
    register(_name, partial(Loki1Agent, basic_player(_tightness)))
