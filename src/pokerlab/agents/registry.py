"""Agents by name, so that the CLI and experiments can say "loki1,call,random:8".

Adding a player is one line: ``register("loki1", Loki1Agent)``. A *family* takes an argument after a colon:
``register_family("td", load_td_agent)`` makes "td:runs/td/checkpoint" the player saved there. An agent
outside the package is named by
where it lives: ``mypackage.mymodule:MyBot`` (an importable module) or ``path/to/bots.py:MyBot`` (a file);
such agents are *external* and the arena isolates them by default.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from pokerlab.agents.base import Agent
from pokerlab.agents.human import HumanAgent
from pokerlab.agents.simple import CallAgent, RaiseAgent, RandomAgent
from pokerlab.agents.stereotypes import STYLES, StereotypeAgent
from pokerlab.agents.switching import switching_agent
from pokerlab.errors import ConfigError
from pokerlab.programs.barone_while import EvolvingAgent
from pokerlab.programs.barone_while.agent import load_evolving_agent
from pokerlab.programs.loki1 import VARIANTS, Loki1Agent, basic_player
from pokerlab.programs.loki2 import VARIANTS as LOKI2_VARIANTS
from pokerlab.programs.loki2 import Loki2Agent
from pokerlab.programs.td.agent import TDAgent, load_td_agent

_FACTORIES: dict[str, Callable[[], Agent]] = {}
_FAMILIES: dict[str, Callable[[str], Agent]] = {}
_DESCRIPTIONS: dict[str, str] = {}
_EXTERNAL = re.compile(r"^(?P<where>[^:,]+):(?P<cls>[A-Za-z_][A-Za-z_0-9]*)$")


def register(name: str, factory: Callable[[], Agent], description: str | None = None) -> None:
    """Make `factory()` available as agent `name` (names are lower-case, without ':' or ','); the
    description defaults to the first line of the agent class's docstring."""
    if not name or name != name.lower() or any(c in name for c in ":, "):
        raise ConfigError(f"agent name {name!r} must be lower-case without ':', ',' or spaces")
    _FACTORIES[name] = factory
    if description is None:
        target = factory.func if isinstance(factory, partial) else factory
        description = ((target.__doc__ or "").strip().splitlines() or [""])[0]
    _DESCRIPTIONS[name] = description


def register_family(name: str, factory: Callable[[str], Agent], description: str) -> None:
    """Make `factory(argument)` available as agent "name:argument" (e.g. a saved player's path)."""
    if not name or name != name.lower() or any(c in name for c in ":, "):
        raise ConfigError(f"agent family name {name!r} must be lower-case without ':', ',' or spaces")
    _FAMILIES[name] = factory
    _DESCRIPTIONS[f"{name}:ARG"] = description


def _family(spec: str) -> tuple[Callable[[str], Agent], str] | None:
    """(factory, argument) when `spec` is "family:argument" with a registered family."""
    head, sep, argument = spec.partition(":")
    if sep and argument and head in _FAMILIES:
        return _FAMILIES[head], argument
    return None


def agent_names() -> list[str]:
    """The registered agent names, sorted (families such as "td:PATH": see `agent_descriptions`)."""
    return sorted(_FACTORIES)


def agent_descriptions() -> dict[str, str]:
    """Each registered agent's one-line description, by name (sorted)."""
    return {name: _DESCRIPTIONS[name] for name in sorted(_DESCRIPTIONS)}


def is_external(spec: str) -> bool:
    """Whether `spec` names an agent outside the registry ("module:Class" or "file.py:Class")."""
    return spec not in _FACTORIES and _family(spec) is None and _EXTERNAL.match(spec) is not None


def _load_class(spec: str) -> type:
    where, cls_name = _EXTERNAL.match(spec).group("where", "cls")
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise ConfigError(f"agent {spec!r}: no file {where!r}")
        module_name = f"pokerlab_external_{abs(hash(str(path.resolve())))}"
        module = sys.modules.get(module_name)
        if module is None:
            loader_spec = importlib.util.spec_from_file_location(module_name, path)
            module = importlib.util.module_from_spec(loader_spec)
            sys.modules[module_name] = module
            try:
                loader_spec.loader.exec_module(module)
            except Exception as exc:
                del sys.modules[module_name]
                raise ConfigError(f"agent {spec!r}: loading {where} failed: {exc!r}") from None
    else:
        try:
            module = importlib.import_module(where)
        except Exception as exc:  # ImportError, or the module's own failure
            raise ConfigError(f"agent {spec!r}: cannot import module {where!r}: {exc!r}") from None
    cls = getattr(module, cls_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Agent)):
        raise ConfigError(f"agent {spec!r}: {where} has no Agent subclass named {cls_name!r}")
    return cls


def make_agent(spec: str) -> Agent:
    """A fresh agent: a registered name, or "module:Class" / "file.py:Class" for one's own bot (built with
    no arguments). `ConfigError` lists the known names otherwise."""
    factory = _FACTORIES.get(spec)
    family = _family(spec) if factory is None else None
    if family is not None:
        agent = family[0](family[1])
        agent.name = spec
        return agent
    if factory is None:
        if _EXTERNAL.match(spec) is None:
            raise ConfigError(
                f"unknown agent {spec!r}; known agents: {', '.join(agent_names())}; families: "
                f"{', '.join(k for k in sorted(_DESCRIPTIONS) if k.endswith(':ARG'))} "
                "(or module:Class / path/to/file.py:Class for your own)"
            )
        factory = _load_class(spec)
    agent = factory()
    agent.name = spec
    return agent


def parse_lineup(text: str) -> list[str]:
    """Agent specs, one per seat, from "random:8,call,mybots.py:MyBot:2" (a spec may end in ":COUNT")."""
    specs: list[str] = []
    for item in text.split(","):
        item = item.strip()
        spec, count = item, 1
        head, sep, tail = item.rpartition(":")
        if sep and tail.isdigit() and head:
            spec, count = head, int(tail)
            if count < 1:
                raise ConfigError(f"bad count in {item!r}: write name:COUNT with COUNT >= 1")
        elif sep and head in _FACTORIES and _family(item) is None:
            raise ConfigError(f"bad count {tail!r} in {item!r}: write name:COUNT with COUNT >= 1")
        if spec not in _FACTORIES and not is_external(spec):
            make_agent(spec)  # raises with the known names (an outside bot is loaded only where it plays)
        specs += [spec] * count
    return specs


register("random", RandomAgent)
register("call", CallAgent)
register("raise", RaiseAgent)
register("human", HumanAgent)
for _name, _config in VARIANTS.items():
    register(_name, partial(Loki1Agent, _config), f"Loki-1 (Billings et al. 1998), variant {_name}")
for _name, _config in LOKI2_VARIANTS.items():
    register(
        _name, partial(Loki2Agent, _config), f"Loki-2 (Billings et al. 1999, Peña 1999), variant {_name}"
    )
for _style in STYLES:
    register(_style, partial(StereotypeAgent, _style), f"Barone & While (2000) stereotype: {_style}")
for _name, _tightness in (("bpl", "loose"), ("bpm", "moderate"), ("bpt", "tight")):
    register(
        _name,
        partial(Loki1Agent, basic_player(_tightness)),
        f"Papp (1998) basic non-modelling player, {_tightness}",
    )
register(
    "bw-evolving",
    EvolvingAgent,
    "Barone & While (2000) evolving hypercube, random start, one opponent segment",
)
register(
    "bw-a",
    partial(EvolvingAgent, start="player_a"),
    "Barone & While (2000) evolving hypercube starting from player A (tight-aggressive)",
)
register_family(
    "bw",
    load_evolving_agent,
    "Barone & While (2000) player saved by `pokerlab experiment bw-*`, frozen (bw:FILE or bw:FILE@SEGMENT)",
)
register("td", TDAgent, "TD-Hold'em (seed 003), repaired preset, untrained: learns during its session")
register_family(
    "td",
    load_td_agent,
    "TD-Hold'em player saved by `pokerlab train td`, frozen (td:DIR/checkpoint, td:DIR/averaged)",
)
register_family(
    "switch",
    switching_agent,
    "plays as FIRST for HANDS hands of a session, then as SECOND (switch:FIRST/SECOND/HANDS)",
)
