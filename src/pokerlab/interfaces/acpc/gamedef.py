"""ACPC game definitions (GAMEDEF ... END GAMEDEF) read, written and mapped to our `GameConfig`.

The format is the Annual Computer Poker Competition's (ACPC protocol 2.0.0): one ``key = values`` line per
setting, values per seat or per round, seats and rounds
numbered from 1 in ``firstPlayer``. ACPC seats in a hand are our positions: position 0 sits first left
of the button, heads-up it posts the big blind ("reverse blinds", ``blind = BB SB``) and the button acts
first before the flop; with 3+ players position 0 posts the small blind and position 2 opens the betting.

ACPC's ``maxRaises`` counts raises made in a round, the big blind not being a raise, so our default cap
(a bet and three raises, the big blind counting as the pre-flop bet; Billings et al. 1998 §2) is
``maxRaises = 3 4 4 4``, and ``blind_counts_as_bet=False`` with ``max_raises = k`` is ``k+1`` in every
round. Anything our engine cannot play (no-limit, other decks, other numbers of rounds or cards, first
players other than the blinds' order, stacks that differ by seat) raises `ConfigError` naming it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pokerlab.engine import GameConfig
from pokerlab.errors import ConfigError

_SEATS = ("blind", "stack")
#: The stack the reference gives a seat its file names none for (C's INT32_MAX): the unlimited bankroll.
ACPC_UNLIMITED_STACK = 2**31 - 1
#: Seats the reference's reader gives that default stack without a stack line: only the first 4 (its
#: ``readGame`` fills 4 and counts 4 read), so a game of 5 or more players must list every seat's stack.
_DEFAULT_STACKS = 4
_ROUNDS = ("raiseSize", "firstPlayer", "maxRaises", "numBoardCards")
_SCALARS = ("numPlayers", "numRounds", "numSuits", "numRanks", "numHoleCards")


@dataclass(frozen=True)
class GameDef:
    """One ACPC game definition as written: per-seat and per-round tuples, ``first_player`` 1-based.

    ``max_raises`` None means the file gives none (no cap); ``stacks`` None means no stack line (the
    unlimited bankroll of the limit games). The reference reads a file without a stack line only up to 4
    players, so `to_text` writes that bankroll as `ACPC_UNLIMITED_STACK` for every seat from 5 players on
    (``stack = 2147483647 ...``, what the reference's default is), and `to_config` reads it back as none.
    """

    betting: str
    players: int
    rounds: int
    blinds: tuple[int, ...]
    raise_sizes: tuple[int, ...]
    first_player: tuple[int, ...]
    max_raises: tuple[int, ...] | None
    suits: int
    ranks: int
    hole_cards: int
    board_cards: tuple[int, ...]
    stacks: tuple[int, ...] | None = None

    def to_text(self) -> str:
        """The definition in the ACPC file format (what `parse_gamedef` reads back)."""
        lines = ["GAMEDEF", self.betting]
        stacks = self.stacks
        if stacks is None and self.players > _DEFAULT_STACKS:
            stacks = (ACPC_UNLIMITED_STACK,) * self.players
        lines += [f"stack = {_ints(stacks)}"] if stacks is not None else []
        lines += [
            f"numPlayers = {self.players}",
            f"numRounds = {self.rounds}",
            f"blind = {_ints(self.blinds)}",
        ]
        lines += [f"raiseSize = {_ints(self.raise_sizes)}"] if self.betting == "limit" else []
        lines += [f"firstPlayer = {_ints(self.first_player)}"]
        lines += [f"maxRaises = {_ints(self.max_raises)}"] if self.max_raises is not None else []
        lines += [
            f"numSuits = {self.suits}",
            f"numRanks = {self.ranks}",
            f"numHoleCards = {self.hole_cards}",
            f"numBoardCards = {_ints(self.board_cards)}",
            "END GAMEDEF",
        ]
        return "\n".join(lines) + "\n"

    def to_config(self) -> GameConfig:
        """Our engine's configuration of this game; `ConfigError` for what the engine cannot play."""
        n = self.players
        need = [
            (self.betting == "limit", f"only limit betting is supported, not {self.betting}"),
            (2 <= n <= 10, f"numPlayers must be 2 to 10, got {n}"),
            (self.rounds == 4, f"hold'em has 4 rounds, got numRounds = {self.rounds}"),
            ((self.suits, self.ranks) == (4, 13), f"only the 52-card deck, got {self.suits}x{self.ranks}"),
            (self.hole_cards == 2, f"hold'em deals 2 hole cards, got numHoleCards = {self.hole_cards}"),
            (
                self.board_cards == (0, 3, 1, 1),
                f"numBoardCards must be 0 3 1 1, got {_ints(self.board_cards)}",
            ),
            (len(self.blinds) == n, f"blind needs {n} values, got {_ints(self.blinds)}"),
        ]
        for ok, why in need:
            if not ok:
                raise ConfigError(f"ACPC game: {why}")
        if n == 2:
            big, small = self.blinds
            first = (2, 1, 1, 1)
        else:
            small, big, *rest = self.blinds
            if any(rest):
                raise ConfigError(
                    f"ACPC game: only seats 1 and 2 may post blinds, got blind = {_ints(self.blinds)}"
                )
            first = (3, 1, 1, 1)
        if not 0 < small <= big:
            raise ConfigError(f"ACPC game: blinds must be 0 < small <= big, got blind = {_ints(self.blinds)}")
        if self.first_player != first:
            raise ConfigError(
                f"ACPC game: firstPlayer = {_ints(self.first_player)} is not the blinds' order our engine "
                f"plays ({_ints(first)} for {n} players)"
            )
        sizes = self.raise_sizes
        if len(sizes) != 4 or sizes[0] != sizes[1] or sizes[2] != sizes[3]:
            raise ConfigError(f"ACPC game: raiseSize must be small, small, big, big, got {_ints(sizes)}")
        cap, counts = _cap(self.max_raises)
        stack = None
        if self.stacks is not None and self.stacks != (ACPC_UNLIMITED_STACK,) * n:
            if len(self.stacks) != n or len(set(self.stacks)) != 1:
                raise ConfigError(
                    f"ACPC game: stacks must be one value for all {n} seats, got {_ints(self.stacks)}"
                )
            stack = self.stacks[0]
        return GameConfig(
            small_bet=sizes[0],
            big_bet=sizes[2],
            small_blind=small,
            big_blind=big,
            max_raises=cap,
            blind_counts_as_bet=counts,
            stack=stack,
        )


def _cap(max_raises: tuple[int, ...] | None) -> tuple[int | None, bool]:
    """(max_raises, blind_counts_as_bet) of an ACPC maxRaises line."""
    if max_raises is None:
        return None, True
    if len(max_raises) != 4:
        raise ConfigError(f"ACPC game: maxRaises needs 4 values, got {_ints(max_raises)}")
    first, later = max_raises[0], max_raises[1:]
    if len(set(later)) != 1 or later[0] < 1:
        raise ConfigError(
            f"ACPC game: maxRaises must be equal (and >= 1) after the flop, got {_ints(max_raises)}"
        )
    if first == later[0] - 1:
        return first, True
    if first == later[0]:
        return first - 1, False
    raise ConfigError(
        f"ACPC game: maxRaises = {_ints(max_raises)} is not one our engine plays (k k+1 k+1 k+1 or k k k k)"
    )


def _ints(values) -> str:
    return " ".join(str(v) for v in values)


def gamedef_of(config: GameConfig, players: int) -> GameDef:
    """The ACPC definition of our game for `players` players; `ConfigError` for a setting ACPC cannot say."""
    if not 2 <= players <= 10:
        raise ConfigError(f"players must be 2 to 10, got {players}")
    if config.no_cap_heads_up:
        raise ConfigError("ACPC games cannot lift the cap heads-up (no_cap_heads_up)")
    if config.max_raises_per_player is not None:
        raise ConfigError("ACPC games have no per-player raise limit (max_raises_per_player)")
    if players == 2:
        blinds, first = (config.big_blind, config.small_blind), (2, 1, 1, 1)
    else:
        blinds, first = (config.small_blind, config.big_blind) + (0,) * (players - 2), (3, 1, 1, 1)
    if config.max_raises is None:
        caps = None
    elif config.blind_counts_as_bet:
        caps = (config.max_raises,) + (config.max_raises + 1,) * 3
    else:
        caps = (config.max_raises + 1,) * 4
    return GameDef(
        "limit",
        players,
        4,
        blinds,
        (config.small_bet, config.small_bet, config.big_bet, config.big_bet),
        first,
        caps,
        4,
        13,
        2,
        (0, 3, 1, 1),
        _stacks(config.stack, players),
    )


def _stacks(stack: int | None, players: int) -> tuple[int, ...] | None:
    """The stack line of `players` seats of `stack` chips (None: the unlimited bankroll, written as
    `ACPC_UNLIMITED_STACK` a seat where the reference needs the line, from 5 players on)."""
    if stack is None:
        return None if players <= _DEFAULT_STACKS else (ACPC_UNLIMITED_STACK,) * players
    return (stack,) * players


def parse_gamedef(text: str) -> GameDef:
    """Read an ACPC game definition; `ConfigError` names a missing, unknown or malformed line."""
    lines = [ln.split("#")[0].strip() for ln in text.splitlines()]
    lines = [ln for ln in lines if ln]
    if not lines or lines[0].upper() != "GAMEDEF" or lines[-1].upper() != "END GAMEDEF":
        raise ConfigError("an ACPC game definition starts with GAMEDEF and ends with END GAMEDEF")
    betting = None
    values: dict[str, tuple[int, ...]] = {}
    known = {k.lower(): k for k in _SEATS + _ROUNDS + _SCALARS}
    for line in lines[1:-1]:
        if line.lower() in ("limit", "nolimit"):
            betting = line.lower()
            continue
        key, eq, rest = line.partition("=")
        name = known.get(key.strip().lower())
        if not eq or name is None:
            raise ConfigError(f"ACPC game: unknown line {line!r}")
        try:
            values[name] = tuple(int(v) for v in rest.split())
        except ValueError:
            raise ConfigError(f"ACPC game: {name} takes integers, got {rest.strip()!r}") from None
    if betting is None:
        raise ConfigError("ACPC game: the betting type (limit or nolimit) is missing")
    for name in _SCALARS + ("blind", "firstPlayer", "numBoardCards"):
        if name not in values:
            raise ConfigError(f"ACPC game: {name} is missing")
    for name in _SCALARS:
        if len(values[name]) != 1:
            raise ConfigError(f"ACPC game: {name} takes one value, got {_ints(values[name])}")
    if betting == "limit" and "raiseSize" not in values:
        raise ConfigError("ACPC game: a limit game needs raiseSize")
    return GameDef(
        betting,
        values["numPlayers"][0],
        values["numRounds"][0],
        values["blind"],
        values.get("raiseSize", ()),
        values["firstPlayer"],
        values.get("maxRaises"),
        values["numSuits"][0],
        values["numRanks"][0],
        values["numHoleCards"][0],
        values["numBoardCards"],
        values.get("stack"),
    )


def standard_game_name(players: int) -> str:
    """The name of the standard limit game for `players` (ACPC's file names)."""
    return "holdem.limit.2p.reverse_blinds" if players == 2 else f"holdem.limit.{players}p"


#: The standard limit games by name: heads-up with reverse blinds, 3 to 10 players; blinds 5/10, bets
#: 10/20, a bet and three raises (ACPC's holdem.limit.2p.reverse_blinds.game and holdem.limit.3p.game).
STANDARD_GAMES: dict[str, str] = {
    standard_game_name(n): gamedef_of(GameConfig(), n).to_text() for n in range(2, 11)
}


def load_gamedef(source: str | Path) -> GameDef:
    """A definition from a file, or a standard game by name (``holdem.limit.3p``, with or without .game)."""
    name = str(source).removesuffix(".game")
    if name in STANDARD_GAMES and not Path(source).is_file():
        return parse_gamedef(STANDARD_GAMES[name])
    try:
        text = Path(source).read_text()
    except OSError as exc:
        known = ", ".join(STANDARD_GAMES)
        raise ConfigError(f"cannot read game {source}: {exc.strerror}; standard games: {known}") from None
    return parse_gamedef(text)
