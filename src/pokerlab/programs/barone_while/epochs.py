"""Epochs at a Barone & While table: 100 hands from stacks of 1,000, again and again, while an evolving
player learns (or, frozen, is measured) (Barone & While 2000 §4.2; docs/barone-while.md §1, §9).

Each epoch is one session of the arena (`pokerlab.arena.play_match` with real stacks): a player who cannot
post a blind sits out until the epoch ends, and the epoch ends early when fewer than two have chips. The
seats are shuffled at the start of every epoch (``shuffle``, [OUR CHOICE]) and the evolving player is told
which stereotype sits where. The stakes (``small_bet``) and the stereotypes' readings (``loose_reading``,
``tight_reading``) are the evolving player's `EvolvingConfig` settings. Epoch e's cards and seating come
from the seed sequence (seed, e) alone, so players measured with the same seed meet the same cards and
seats (common random numbers, Experiment 3).
The result of an epoch is W = stack at the end - 1,000, the net (§1).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from tqdm import tqdm

from pokerlab.agents.base import Agent
from pokerlab.agents.stereotypes import StereotypeAgent
from pokerlab.arena import play_match
from pokerlab.engine import GameConfig
from pokerlab.errors import ConfigError
from pokerlab.programs.barone_while.agent import EvolvingAgent

#: The three tables of Barone & While 2000 §4.1: the opponents of the evolving player.
TABLES: dict[str, tuple[str, ...]] = {
    "mixed": ("tight-passive",) * 3 + ("loose-aggressive",) * 6,
    "tight": ("tight-passive",) * 9,
    "loose": ("loose-aggressive",) * 9,
}
EPOCH_HANDS = 100
STACK = 1000


@dataclass
class EpochRun:
    """W per epoch of the evolving player (chips) and the mean W per opponent of each style, with the
    table, seed, hands played and seconds taken."""

    table: str
    seed: int
    player: np.ndarray
    opponents: dict[str, np.ndarray] = field(default_factory=dict)
    hands: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {
            "table": self.table,
            "seed": self.seed,
            "epochs": len(self.player),
            "hands": self.hands,
            "seconds": self.seconds,
            "player_w": self.player.tolist(),
            "opponents_w": {k: v.tolist() for k, v in self.opponents.items()},
        }


def play_epochs(
    player: EvolvingAgent,
    table: str,
    epochs: int,
    seed: int,
    *,
    hands: int = EPOCH_HANDS,
    stack: int = STACK,
    shuffle: bool = True,
    progress: bool = False,
    label: str = "",
    opponents: Sequence[Agent | str] | None = None,
) -> EpochRun:
    """Play `epochs` epochs of `hands` hands at `table` ("mixed", "tight" or "loose"); the player keeps
    what it learns from epoch to epoch (freeze it first to measure it). `opponents`, one agent per seat of
    the table in its order, stand in for its stereotypes under their labels (e.g. a variant of a style)."""
    if table not in TABLES:
        raise ConfigError(f"unknown table {table!r}; tables: {', '.join(TABLES)}")
    for name, value in (("epochs", epochs), ("hands", hands), ("stack", stack)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ConfigError(f"{name} must be a positive integer, got {value!r}")
    seat_styles = TABLES[table]
    if opponents is not None and len(opponents) != len(seat_styles):
        raise ConfigError(f"the {table} table seats {len(seat_styles)} opponents, got {len(opponents)}")
    if opponents is None:
        opponents = table_opponents(table, player.config)
    entrants: list = [player, *opponents]
    labels = [None, *seat_styles]
    styles = sorted(set(seat_styles))
    config = GameConfig(small_bet=player.config.small_bet, stack=stack)
    player_w = np.zeros(epochs)
    style_w = {s: np.zeros(epochs) for s in styles}
    played, began = 0, time.perf_counter()
    bar = tqdm(range(epochs), disable=not progress, unit="epoch", desc=label or table, smoothing=0.05)
    for e in bar:
        rng = np.random.default_rng([seed, e])
        order = rng.permutation(len(entrants)) if shuffle else np.arange(len(entrants))
        player.tell_styles([labels[k] for k in order])
        match = play_match([entrants[k] for k in order], hands, config, int(rng.integers(2**62)))
        w = match.nets.sum(axis=0)
        played += match.hands
        for seat, k in enumerate(order):
            if k == 0:
                player_w[e] = w[seat]
            else:
                style_w[labels[k]][e] += w[seat] / seat_styles.count(labels[k])
    return EpochRun(table, seed, player_w, style_w, played, time.perf_counter() - began)


def table_opponents(table: str, config) -> list[StereotypeAgent]:
    """The stereotypes of `table` (seat order of `TABLES`) as `config` (an `EvolvingConfig`) reads them."""
    readings = {"loose-aggressive": config.loose_reading, "tight-passive": config.tight_reading}
    return [StereotypeAgent(style, readings[style]) for style in TABLES[table]]
