"""Hand histories in SQLite (the default store): one row per hand with config, seats, cards, actions, nets.

Rows are committed block by block, so a database stays readable after a crash. `read_hands` gives the
hands back as `HandRecord`s, each re-checked by replay.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

from pokerlab.engine import GameConfig, HandRecord, record_of, replay

_SCHEMA = """
CREATE TABLE IF NOT EXISTS hands (
    hand INTEGER PRIMARY KEY,   -- hand number in the run
    deal INTEGER NOT NULL,      -- deal number (replays of a duplicate deal share it)
    config TEXT NOT NULL,       -- GameConfig as JSON
    names TEXT NOT NULL,        -- JSON list, by position (0 = first left of the button)
    stacks TEXT NOT NULL,       -- JSON list of chips before the blinds, by position
    holes TEXT NOT NULL,        -- JSON list of 2n card codes (-1 unknown)
    board TEXT NOT NULL,        -- JSON list of board card codes dealt
    actions TEXT NOT NULL,      -- JSON list of [position, action] (0 fold, 1 call, 2 raise)
    nets TEXT NOT NULL          -- JSON list of net chips, by position
)"""


class HandStore:
    """An SQLite file of hand records (created if missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.db = sqlite3.connect(self.path)
        self.db.execute(_SCHEMA)

    def add(self, hands: Iterable[tuple[int, int, HandRecord]]) -> None:
        """Store (hand number, deal number, record) triples and commit."""
        rows = [
            (
                hand,
                deal,
                json.dumps(r.config.to_dict()),
                json.dumps(list(r.names)),
                json.dumps(r.stacks),
                json.dumps(r.holes),
                json.dumps(r.board),
                json.dumps(r.actions),
                json.dumps(r.nets),
            )
            for hand, deal, r in hands
        ]
        self.db.executemany("INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        self.db.commit()

    def close(self) -> None:
        self.db.close()


def read_hands(path: str | Path) -> Iterator[tuple[int, HandRecord]]:
    """(hand number, record) of every stored hand, in order, rebuilt by replay."""
    db = sqlite3.connect(Path(path))
    try:
        for hand, config, names, stacks, holes, board, actions in db.execute(
            "SELECT hand, config, names, stacks, holes, board, actions FROM hands ORDER BY hand"
        ):
            stacks = json.loads(stacks)
            state = replay(
                GameConfig.from_dict(json.loads(config)),
                stacks,
                json.loads(holes),
                json.loads(board),
                [tuple(a) for a in json.loads(actions)],
            )
            yield hand, record_of(state, stacks, json.loads(names))
    finally:
        db.close()
