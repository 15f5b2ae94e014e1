"""Pre-flop income rates by simulation (Billings et al. 1998 §4.1; Papp 1998 §5.1, Papp §5.1 and Appendix A).

For a starting-hand type and x players, each of the x players puts one unit in the pot, nobody bets again,
the board is dealt to the river and the pot is split among the best hands. The income rate is the average
net return per unit: IR = x * P(win, ties split) - 1; tables store IR x 1000 rounded to an integer. The
paper ran 1,000,000 games per type; the tables for 2 to 10 players ship in `pokerlab/data/` and are made
again, on every core, by::

    pokerlab preflop-table --players N --games 1000000 --seed 2026 --write

Random numbers come from SplitMix64 streams, one per block of `BLOCK_GAMES` games, seeded from
`numpy.random.SeedSequence([seed, players, type index])`: a type's result depends on the seed, the number
of players and of games only, not on the number of threads nor on which other types are simulated.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numba as nb
import numpy as np

from pokerlab.analysis.situation import CardsLike
from pokerlab.analysis.starting_hands import (
    GRID,
    STARTING_HANDS,
    TYPE_INDEX,
    check_type,
    example_holding,
    hand_type,
)
from pokerlab.cards import CARD_MASKS, NUM_CARDS
from pokerlab.errors import ConfigError, CorruptData
from pokerlab.evaluator import CARD_KEYS, START_KEY, rank_of

MIN_PLAYERS, MAX_PLAYERS = 2, 10
BLOCK_GAMES = 1 << 14
DEFAULT_SEED = 2026

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)


@nb.njit(inline="always", cache=True)
def _splitmix64(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The next state and 64-bit output of a SplitMix64 stream (Steele, Lea & Flood 2014)."""
    state = state + _GOLDEN
    z = (state ^ (state >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return state, z ^ (z >> _S31)


@nb.njit(cache=True)
def _play_block(first: int, second: int, players: int, games: int, seed: np.uint64) -> float:
    """Sum over `games` games of our share of the pot holding (first, second) among `players` (numba kernel).

    Each game draws the board and the opponents' cards by a partial Fisher-Yates shuffle of the other 50
    cards; an index below n comes from 32 random bits as (bits * n) >> 32 (bias below n / 2^32).
    """
    deck = np.array([c for c in range(NUM_CARDS) if c != first and c != second], dtype=np.uint8)
    size = deck.size
    hole_key, hole_mask = CARD_KEYS[first] + CARD_KEYS[second], CARD_MASKS[first] | CARD_MASKS[second]
    dealt = 5 + 2 * (players - 1)
    state = seed
    total = 0.0
    for _ in range(games):
        bits = np.uint64(0)
        for k in range(dealt):
            if k % 2 == 0:
                state, bits = _splitmix64(state)
                draw = bits >> _S32
            else:
                draw = bits & _LOW32
            j = k + np.int64((draw * np.uint64(size - k)) >> _S32)
            deck[k], deck[j] = deck[j], deck[k]
        board_key, board_mask = START_KEY, np.uint64(0)
        for k in range(5):
            board_key += CARD_KEYS[deck[k]]
            board_mask |= CARD_MASKS[deck[k]]
        ours = rank_of(board_key + hole_key, board_mask | hole_mask)
        tied = 0
        for k in range(5, dealt, 2):
            a, b = deck[k], deck[k + 1]
            theirs = rank_of(
                board_key + CARD_KEYS[a] + CARD_KEYS[b], board_mask | CARD_MASKS[a] | CARD_MASKS[b]
            )
            if theirs > ours:
                tied = -1
                break
            tied += theirs == ours
        if tied >= 0:
            total += 1.0 / (1 + tied)
    return total


@nb.njit(parallel=True, cache=True)
def _play_games(first: int, second: int, players: int, games: int, seeds: np.ndarray) -> float:
    """Sum of our pot shares over `games` games played in blocks, one seed per block, on every thread."""
    totals = np.zeros(seeds.size)
    for block in nb.prange(seeds.size):
        count = min(BLOCK_GAMES, games - block * BLOCK_GAMES)
        totals[block] = _play_block(first, second, players, count, seeds[block])
    return totals.sum()


def _check_players(players: int) -> int:
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ConfigError(f"income rates are for {MIN_PLAYERS} to {MAX_PLAYERS} players; got {players!r}")
    return players


def _check_games(games: int) -> int:
    if not isinstance(games, int) or games < 1:
        raise ConfigError(f"the number of games is an integer >= 1; got {games!r}")
    return games


def simulate_income_rate(name: str, players: int, games: int, seed: int = DEFAULT_SEED) -> float:
    """IR = players * P(win, ties split) - 1 of starting-hand type `name` (e.g. "AKs") over `games` simulated
    games in which everyone antes 1 and checks to the showdown (Papp 1998 §5.1); IR is in [-1, players - 1].
    """
    fixed = check_type(name)
    _check_players(players)
    blocks = -(-_check_games(games) // BLOCK_GAMES)
    seeds = np.random.SeedSequence([seed, players, TYPE_INDEX[fixed]]).generate_state(blocks, dtype=np.uint64)
    first, second = example_holding(fixed)
    return players * _play_games(first, second, players, games, seeds) / games - 1


@dataclass(frozen=True)
class IncomeRateTable:
    """Income rates x 1000 (integers) of the 169 starting-hand types for one number of players."""

    players: int
    games: int
    income_rate: dict[str, int]

    def __getitem__(self, name: str) -> int:
        return self.income_rate[check_type(name)]

    def of(self, hole: CardsLike) -> int:
        """IR x 1000 of two hole cards, e.g. table.of("Ah 8h")."""
        return self.income_rate[hand_type(hole)]

    def grid(self) -> list[list[int]]:
        """The table as Papp's Appendix A lays it out: [row][col] for ranks 2..A, suited where row > col."""
        return [[self.income_rate[name] for name in row] for row in GRID]

    def to_dict(self) -> dict:
        """{"players": N, "games": G, "income_rate": {"AA": ..., "AKs": ...}} in `STARTING_HANDS` order."""
        return {"players": self.players, "games": self.games, "income_rate": dict(self.income_rate)}


def simulate_table(
    players: int,
    games: int,
    seed: int = DEFAULT_SEED,
    types: Sequence[str] = STARTING_HANDS,
    progress: bool = False,
) -> IncomeRateTable:
    """Simulate the income-rate table (of `types`, by default all 169) with `games` games per type on every
    thread numba has (`numba.set_num_threads` limits them); `progress` shows a tqdm bar."""
    from tqdm import tqdm

    _check_players(players)
    _check_games(games)
    names = [check_type(t) for t in types]
    rates = {}
    for name in tqdm(names, desc=f"{players} players", unit="type", disable=not progress):
        rates[name] = round(1000 * simulate_income_rate(name, players, games, seed))
    return IncomeRateTable(players, games, rates)


def table_path(players: int) -> Path:
    """Where the shipped table for `players` players lives."""
    return Path(str(resources.files("pokerlab.data").joinpath(f"income_rate_{_check_players(players)}.json")))


def write_table(table: IncomeRateTable, path: Path | None = None) -> Path:
    """Write a table as JSON (by default over the shipped one) and return the path."""
    path = table_path(table.players) if path is None else Path(path)
    path.write_text(json.dumps(table.to_dict(), indent=1) + "\n")
    return path


def read_table(path: Path, players: int) -> IncomeRateTable:
    """The `players`-player table stored at `path`; `CorruptData` if it cannot be read back whole."""
    fix = f"make it again with: pokerlab preflop-table --players {players} --games 1000000 --write"
    try:
        data = json.loads(path.read_text())
        table = IncomeRateTable(
            int(data["players"]),
            int(data["games"]),
            {check_type(k): int(v) for k, v in data["income_rate"].items()},
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise CorruptData(f"cannot read income-rate table {path}: {exc}; {fix}") from None
    if table.players != players or set(table.income_rate) != set(STARTING_HANDS):
        raise CorruptData(f"income-rate table {path} is not the whole {players}-player table; {fix}")
    return table


@cache
def shipped_table(players: int) -> IncomeRateTable:
    """The shipped income-rate table for 2 to 10 players (1,000,000 games per type)."""
    return read_table(table_path(players), players)


def income_rate(hole: CardsLike, players: int) -> int:
    """IR x 1000 of two hole cards among `players` players, from the shipped table (Papp 1998 §5.1).

    >>> income_rate("Ah 8h", players=4), income_rate("As Ad", players=7)  # A8s, AA
    (336, 2052)
    """
    return shipped_table(players).of(hole)
