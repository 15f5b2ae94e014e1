"""Agents by name, so that the CLI and experiments can say "loki1,call,random:8".

The registry holds *entry strings*, as RLCard's does: ``register("loki2", "pokerlab.programs.loki2:variant",
description, args=("loki2",))`` names where the player is made, and nothing is imported until a player of that
name is asked for (importing the registry, or the arena, loads no program). Adding a built-in player is its
folder under ``pokerlab.programs`` and one line below. A factory may also be a callable (``register("mine",
MyBot)``), and a *family* takes an argument after a colon: ``register_family("td", ...)`` makes
"td:runs/td/checkpoint" the player saved there. An agent outside the package is named by where it lives:
``mypackage.mymodule:MyBot`` (an importable module) or ``path/to/bots.py:MyBot`` (a file); such agents are
*external* and the arena isolates them by default.

A *seat* may give its agent a label, ``LABEL=SPEC`` (``me=bots.py:MyBot``, ``strong=loki2``): what result
tables, summary.json, the hand stores and the web table call that seat (`split_label`). Only tables read
labels: `make_agent` and `is_external` take the spec alone.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from pokerlab.agents.base import Agent
from pokerlab.errors import ConfigError

_ENTRY = re.compile(r"^(?P<module>[A-Za-z_][\w.]*):(?P<attr>[A-Za-z_][\w.]*)$")


@dataclass(frozen=True)
class Entry:
    """Where a registered player is made: `target` ("module:attribute", imported when first asked for, or a
    callable) called with `args` and `kwargs` (a family's factory with the argument after its colon)."""

    target: str | Callable[..., Agent]
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)

    def resolve(self) -> Callable[..., Agent]:
        """The callable, importing its module if `target` is an entry string."""
        if callable(self.target):
            target = self.target
        else:
            found = _ENTRY.match(self.target)
            target = importlib.import_module(found["module"])
            for name in found["attr"].split("."):
                target = getattr(target, name)
        return partial(target, *self.args, **self.kwargs) if self.args or self.kwargs else target


_FACTORIES: dict[str, Entry] = {}
_FAMILIES: dict[str, Entry] = {}
_DESCRIPTIONS: dict[str, str] = {}
_EXTERNAL = re.compile(r"^(?P<where>[^:,]+):(?P<cls>[A-Za-z_][A-Za-z_0-9]*)$")


#: A seat's label: a letter, digit or '_' first, then letters, digits, '_', '.' or '-', 24 at most; so a
#: label is a plain word in a CSV header, an HTML page, an ACPC SCORE line and a file name, and never holds
#: the '#' with which the arena numbers repeated names.
LABEL = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,23}$")


def _checked_name(name: str, what: str) -> str:
    if not name or name != name.lower() or any(c in name for c in ":,= "):
        raise ConfigError(f"{what} {name!r} must be lower-case without ':', ',', '=' or spaces")
    return name


def split_label(seat: str) -> tuple[str | None, str]:
    """(label, spec) of a seat "LABEL=SPEC" ("me=bots.py:MyBot" -> ("me", "bots.py:MyBot")), else
    (None, seat).

    The text before the first '=' is a label when it holds no ':', '/' or '\\' (a spec's own '=' comes
    after one of them: "cmd:bot --x=1", "td:runs/lr=0.1/checkpoint"); so a file whose path begins
    "NAME=" reads as a label: write "./a=b.py:Bot", or label it ("me=a=b.py:Bot", split once). A label
    must match `LABEL` and may not be the name of another registered agent (`ConfigError`, one line)."""
    head, sep, spec = seat.partition("=")
    if not sep or any(c in head for c in ":/\\"):
        return None, seat
    if not LABEL.match(head):
        raise ConfigError(
            f"label {head!r} in {seat!r}: a label is 1 to 24 letters, digits, '_', '.' or '-', "
            "beginning with a letter, digit or '_'"
        )
    if not spec:
        raise ConfigError(f"label {head!r} names no agent: write LABEL=AGENT, e.g. me=bots.py:MyBot")
    if head in _FACTORIES and head != spec:
        raise ConfigError(f"label {head!r} in {seat!r} is the name of another agent: choose another label")
    return head, spec


def _entry(factory: str | Callable[..., Agent], args: tuple = (), kwargs: dict | None = None) -> Entry:
    if isinstance(factory, str) and not _ENTRY.match(factory):
        raise ConfigError(f"agent entry {factory!r} must read 'module:attribute'")
    return Entry(factory, tuple(args), dict(kwargs or {}))


def register(
    name: str,
    factory: str | Callable[..., Agent],
    description: str | None = None,
    args: tuple = (),
    kwargs: dict | None = None,
) -> None:
    """Make agent `name` (lower-case, without ':' or ','): `factory(*args, **kwargs)`, where `factory` is a
    callable or an entry string "module:attribute" imported only when the agent is first made. The description
    defaults to the first line of the factory's docstring (an entry string's is read when listed)."""
    _FACTORIES[_checked_name(name, "agent name")] = _entry(factory, args, kwargs)
    if description is not None:
        _DESCRIPTIONS[name] = description
    else:
        _DESCRIPTIONS.pop(name, None)


def register_family(name: str, factory: str | Callable[[str], Agent], description: str) -> None:
    """Make `factory(argument)` available as agent "name:argument" (e.g. a saved player's path); `factory`
    as in `register`."""
    _FAMILIES[_checked_name(name, "agent family name")] = _entry(factory)
    _DESCRIPTIONS[f"{name}:ARG"] = description


def _description(name: str) -> str:
    """A registered agent's description, else the first line of its factory's docstring."""
    if name not in _DESCRIPTIONS:
        target = _FACTORIES[name].resolve()
        target = target.func if isinstance(target, partial) else target
        _DESCRIPTIONS[name] = ((target.__doc__ or "").strip().splitlines() or [""])[0]
    return _DESCRIPTIONS[name]


def _family(spec: str) -> tuple[Callable[[str], Agent], str] | None:
    """(factory, argument) when `spec` is "family:argument" with a registered family."""
    head, sep, argument = spec.partition(":")
    if sep and argument and head in _FAMILIES:
        return _FAMILIES[head].resolve(), argument
    return None


def agent_names() -> list[str]:
    """The registered agent names, sorted (families such as "td:PATH": see `agent_descriptions`)."""
    return sorted(_FACTORIES)


def agent_descriptions() -> dict[str, str]:
    """Each registered agent's one-line description, by name (sorted); families as "name:ARG"."""
    names = [*_FACTORIES, *(f"{family}:ARG" for family in _FAMILIES)]
    return {
        name: _DESCRIPTIONS[name] if name.endswith(":ARG") else _description(name) for name in sorted(names)
    }


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
    entry = _FACTORIES.get(spec)
    factory = entry.resolve() if entry is not None else None
    family = _family(spec) if factory is None else None
    if family is not None:
        agent = family[0](family[1])
        agent.name = spec
        return agent
    if factory is None:
        if _EXTERNAL.match(spec) is None:
            raise ConfigError(
                f"unknown agent {spec!r}; known agents: {', '.join(agent_names())}; families: "
                f"{', '.join(f'{k}:ARG' for k in sorted(_FAMILIES))} "
                "(or module:Class / path/to/file.py:Class for your own)"
            )
        factory = _load_class(spec)
    agent = factory()
    agent.name = spec
    return agent


def parse_lineup(text: str, labels: bool = True) -> list[str]:
    """Seats, one per agent, from "random:8,call,me=mybots.py:MyBot:2" (a seat may end in ":COUNT" and
    begin with "LABEL=", `split_label`; a label of several seats is numbered at the table: me#1, me#2).
    Without ``labels`` a label is refused (where the agents sit at no table of the user's naming)."""
    specs: list[str] = []
    for item in text.split(","):
        label, item = split_label(item.strip())
        if label is not None and not labels:
            raise ConfigError(f"{label}={item}: labels name the seats of a match; give the agent alone here")
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
        specs += [spec if label is None else f"{label}={spec}"] * count
    return specs


#: Papp's (1998) basic non-modelling players, by tightness.
_BASIC = {"bpl": "loose", "bpm": "moderate", "bpt": "tight"}

register("random", "pokerlab.agents.simple:RandomAgent")
register("call", "pokerlab.agents.simple:CallAgent")
register("raise", "pokerlab.agents.simple:RaiseAgent")
register("fold", "pokerlab.agents.simple:FoldAgent")
register_family(
    "mix",
    "pokerlab.agents.simple:MixAgent",
    "fixed fold/call/raise probabilities whatever the cards (mix:call=0.5,raise=0.5)",
)
register("human", "pokerlab.agents.human:HumanAgent")
for _name in (  # pokerlab.programs.loki1.VARIANTS (a test keeps the two alike)
    "loki1",
    "loki1-uniform",
    "loki1-simple-preflop",
    "loki1-no-potential",
    "loki1-basic",
    "loki1-generic",
    "loki1-weighting-only",
    "loki1-preflop-only",
    "loki1-potential-only",
):
    register(
        _name, "pokerlab.programs.loki1:variant", f"Loki-1 (Billings et al. 1998), variant {_name}", (_name,)
    )
for _name in ("loki2", "loki2-triples", "loki2-betting", "loki2-reweighting", "loki2-sim-call"):
    register(  # pokerlab.programs.loki2.VARIANTS
        _name,
        "pokerlab.programs.loki2:variant",
        f"Loki-2 (Billings et al. 1999, Peña 1999), variant {_name}",
        (_name,),
    )
for _style in ("loose-passive", "loose-aggressive", "tight-passive", "tight-aggressive"):
    register(  # pokerlab.agents.stereotypes.STYLES
        _style,
        "pokerlab.agents.stereotypes:StereotypeAgent",
        f"Barone & While (2000) stereotype: {_style}",
        (_style,),
    )
register(  # pokerlab.agents.stereotypes.MORE_STYLES
    "rock",
    "pokerlab.agents.stereotypes:StereotypeAgent",
    "a rock: plays the best fifth of its holdings, folds about 80 % of hands at its first action",
    ("rock",),
)
for _name, _tightness in _BASIC.items():
    register(
        _name,
        "pokerlab.programs.loki1:basic",
        f"Papp (1998) basic non-modelling player, {_tightness}",
        (_tightness,),
    )
register(
    "bw-evolving",
    "pokerlab.programs.barone_while.agent:EvolvingAgent",
    "Barone & While (2000) evolving hypercube, random start, one opponent segment",
)
register(
    "bw-a",
    "pokerlab.programs.barone_while.agent:EvolvingAgent",
    "Barone & While (2000) evolving hypercube starting from player A (tight-aggressive)",
    kwargs={"start": "player_a"},
)
register_family(
    "bw",
    "pokerlab.programs.barone_while.agent:load_evolving_agent",
    "Barone & While (2000) player saved by `pokerlab experiment bw-*`, frozen (bw:FILE or bw:FILE@SEGMENT)",
)
register(
    "td",
    "pokerlab.programs.td.agent:TDAgent",
    "TD-Hold'em, repaired preset, untrained: learns during its session",
)
register_family(
    "td",
    "pokerlab.programs.td.agent:load_td_agent",
    "TD-Hold'em player saved by `pokerlab train td`, frozen (td:DIR/checkpoint, td:DIR/averaged)",
)
register_family(
    "switch",
    "pokerlab.agents.switching:switching_agent",
    "plays as FIRST for HANDS hands of a session, then as SECOND (switch:FIRST/SECOND/HANDS)",
)
