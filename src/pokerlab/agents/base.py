"""The Agent protocol, version 2: how any player, program or person, takes part in hands.

An agent lives for a **session**, a run of hands in which it keeps what it learns (opponent models, network
weights). The table calls, in order:

* `seed(rng)` once at the start of a session: a new `numpy.random.Generator` (reseeding is not
  forgetting);
* per hand: `begin_hand(start)` with its position, hole cards and who sits where (`HandStart`);
  `observe(record)` after every action at the table, its own included (`ActionRecord`); `act(view)`
  whenever it must act (`SeatView`); `end_hand(end)` with every position's nets and the cards shown down
  (`HandEnd`).

`act` returns an action (FOLD 0, CALL 1, RAISE 2 from `pokerlab.actions`) or a `Decision` that also carries
the probabilities the action was drawn from and free-form info (EVs, hand strength) for decision logs and
replays. Hooks an agent does not override are never called, so a simple agent costs nothing for them.

`forget()` clears what was learned; the arena never calls it in the middle of a session. A learning agent
(``learns = True``) can be frozen (``freeze()``: it plays without learning) and saves and loads what it
learned (`save` / `load`, a versioned file) through `learned_state` / `load_learned_state`.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from pokerlab.engine import ActionRecord, HandEnd, HandStart, SeatView
from pokerlab.errors import ConfigError, CorruptData

#: The agent file format: a zip (NumPy .npz) holding ``meta.json`` and one array per learned item.
AGENT_FILE_FORMAT = "pokerlab-agent"
AGENT_FILE_VERSION = 1


class Decision(NamedTuple):
    """An action with what it was drawn from: ``probabilities`` (fold, call, raise), summing to 1, and
    ``info``, a JSON-ready dict (EVs, hand strength, the rule that fired ...)."""

    action: int
    probabilities: tuple[float, float, float] | None = None
    info: dict[str, Any] | None = None


def split_decision(choice) -> tuple[Any, tuple[float, float, float] | None, dict[str, Any] | None]:
    """(action, probabilities, info) of what `Agent.act` answered: an action, or a `Decision` (a plain
    3-tuple once it has crossed a process boundary).

    >>> split_decision(2), tuple(split_decision(Decision(1, (0.0, 1.0, 0.0))))
    ((2, None, None), (1, (0.0, 1.0, 0.0), None))
    """
    if type(choice) is not int and isinstance(choice, tuple):
        return choice
    return choice, None, None


class Agent:
    """Base class of every player: override `act`, and the hooks the agent needs (see the module doc).

    ``name`` is the registry name the agent was made under; ``learns`` says whether it changes what it
    knows from hand to hand; ``frozen`` stops that.
    """

    name = "agent"
    learns = False

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)
        self.frozen = False

    # -- the session --------------------------------------------------------------------------------

    def seed(self, rng: np.random.Generator) -> None:
        """Take a new random generator; what was learned is kept."""
        self.rng = rng

    def forget(self) -> None:
        """Clear everything learned (opponent models, weights). The default agent learns nothing."""

    def freeze(self, frozen: bool = True) -> None:
        """Play without learning (``frozen=True``), as in an evaluation, or learn again."""
        self.frozen = frozen

    # -- the hand -----------------------------------------------------------------------------------

    def begin_hand(self, start: HandStart) -> None:
        """A hand begins: own position and hole cards, who sits where."""

    def observe(self, record: ActionRecord) -> None:
        """An action was taken at the table (every position's, this agent's own included)."""

    def act(self, view: SeatView) -> int | Decision:
        """The action for this position: one of ``view.legal_actions``, or a `Decision` carrying it."""
        raise NotImplementedError

    def end_hand(self, end: HandEnd) -> None:
        """The hand is over: every position's nets, the cards shown down, the board and the actions."""

    # -- what was learned ---------------------------------------------------------------------------

    def learned_state(self) -> dict[str, np.ndarray]:
        """What this agent learned, as named arrays (the default agent learns nothing)."""
        return {}

    def load_learned_state(self, state: dict[str, np.ndarray]) -> None:
        """Take back what `learned_state` gave; `CorruptData` if it does not fit this agent."""
        if state:
            raise CorruptData(f"agent {self.name!r} learns nothing, but the file holds {sorted(state)}")

    def save(self, path: str | Path) -> Path:
        """Write what was learned to `path` (an .npz with a versioned ``meta.json``); returns the path."""
        path = Path(path)
        arrays = {f"learned/{k}": np.asarray(v) for k, v in self.learned_state().items()}
        meta = {
            "format": AGENT_FILE_FORMAT,
            "version": AGENT_FILE_VERSION,
            "agent": self.name,
            "class": f"{type(self).__module__}.{type(self).__qualname__}",
        }
        with path.open("wb") as file:
            np.savez(file, meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8), **arrays)
        return path

    def load(self, path: str | Path) -> None:
        """Read what `save` wrote; `CorruptData` names what is wrong with a file that does not fit."""
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(bytes(data["meta"]).decode())
                state = {k.removeprefix("learned/"): data[k] for k in data.files if k.startswith("learned/")}
        except FileNotFoundError:
            raise ConfigError(f"no agent file {str(path)!r}") from None
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, UnicodeDecodeError) as exc:
            raise CorruptData(f"{path} is not a pokerlab agent file ({exc})") from None
        if meta.get("format") != AGENT_FILE_FORMAT or meta.get("version") != AGENT_FILE_VERSION:
            raise CorruptData(
                f"{path}: format {meta.get('format')!r} version {meta.get('version')!r}; "
                f"this pokerlab reads {AGENT_FILE_FORMAT!r} version {AGENT_FILE_VERSION}"
            )
        if meta.get("agent") != self.name:
            raise CorruptData(f"{path} holds agent {meta.get('agent')!r}, not {self.name!r}")
        self.load_learned_state(state)


def overrides(agent: Agent, hook: str) -> bool:
    """Whether the agent's class overrides `Agent.<hook>` (the table skips hooks nobody listens to)."""
    return getattr(type(agent), hook) is not getattr(Agent, hook)
