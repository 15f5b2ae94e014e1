"""Field checks of configuration dataclasses, with one shape of message for every config: what the field is,
what was given and what is allowed (`ConfigError`). Called from each config's ``__post_init__``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from pokerlab.errors import ConfigError


def check_fields(
    config: object,
    owner: str,
    *,
    choices: Mapping[str, Sequence] | None = None,
    flags: Iterable[str] = (),
    at_least: Mapping[str, int] | None = None,
    fractions: Iterable[str] = (),
) -> None:
    """Check fields of `config` (named `owner` in messages): `choices` (name -> allowed values), `flags`
    (true or false), `at_least` (name -> the smallest allowed integer; booleans are not integers) and
    `fractions` (numbers in [0, 1]).

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Game:
    ...     players: int = 2
    ...     fast: bool = True
    >>> check_fields(Game(players=0), "Game", at_least={"players": 2})
    Traceback (most recent call last):
    pokerlab.errors.ConfigError: Game.players must be an integer >= 2, got 0
    """
    for name, allowed in (choices or {}).items():
        value = getattr(config, name)
        if value not in allowed:
            raise ConfigError(f"{owner}.{name} must be one of {', '.join(map(repr, allowed))}; got {value!r}")
    for name in flags:
        value = getattr(config, name)
        if not isinstance(value, bool):
            raise ConfigError(f"{owner}.{name} must be true or false, got {value!r}")
    for name, low in (at_least or {}).items():
        value = getattr(config, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise ConfigError(f"{owner}.{name} must be an integer >= {low}, got {value!r}")
    for name in fractions:
        value = getattr(config, name)
        if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 1:
            raise ConfigError(f"{owner}.{name} must be a number in [0, 1], got {value!r}")
