"""Hand histories in SQLite (the default store): one row per hand, and a decision log beside it.

Rows are committed block by block, so a database stays readable after a crash. The game config is stored
once (table ``configs``); cards, stacks, actions and nets are space-separated integers (cards as codes,
-1 unknown; actions as position and action pairs). `read_hands` gives the hands back as `HandRecord`s,
each re-checked by replay; `read_decisions` the decision log.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

from pokerlab.engine import GameConfig, HandRecord, record_of, replay
from pokerlab.errors import CorruptData

#: Version of the layout below (``PRAGMA user_version``).
STORE_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS configs (
    id INTEGER PRIMARY KEY,
    config TEXT NOT NULL UNIQUE     -- GameConfig as JSON
);
CREATE TABLE IF NOT EXISTS hands (
    hand INTEGER PRIMARY KEY,       -- hand number in the run
    deal INTEGER NOT NULL,          -- deal number (replays of a duplicate deal share it)
    session INTEGER NOT NULL,       -- the session that played it
    config INTEGER NOT NULL REFERENCES configs(id),
    names TEXT NOT NULL,            -- JSON list of agent labels, by position (0 = first left of the button)
    stacks TEXT NOT NULL,           -- chips before the blinds, by position
    holes TEXT NOT NULL,            -- 2n card codes (-1 unknown)
    board TEXT NOT NULL,            -- board card codes dealt
    actions TEXT NOT NULL,          -- position action position action ... (0 fold, 1 call, 2 raise)
    nets TEXT NOT NULL              -- net chips, by position
);
CREATE TABLE IF NOT EXISTS decisions (
    hand INTEGER NOT NULL,          -- the hand (hands.hand)
    seat INTEGER NOT NULL,          -- the agent's lasting seat in the match
    action_index INTEGER NOT NULL,  -- index of the action in the hand's actions
    action INTEGER NOT NULL,        -- 0 fold, 1 call, 2 raise
    probabilities TEXT,             -- JSON [fold, call, raise] where the agent gave them
    info TEXT,                      -- JSON object of the agent's own info (EVs, hand strength ...)
    PRIMARY KEY (hand, action_index)
);
CREATE TABLE IF NOT EXISTS sessions (
    session INTEGER PRIMARY KEY,    -- a session whose hands are all stored (what --resume skips)
    report TEXT NOT NULL            -- its SessionReport as JSON
);
"""


def _ints(values) -> str:
    return " ".join(map(str, values))


def _parse_ints(text: str) -> list[int]:
    return [int(v) for v in text.split()]


class HandStore:
    """An SQLite file of hand records and decisions (created if missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.db = sqlite3.connect(self.path)
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, STORE_VERSION):
            raise CorruptData(
                f"{self.path}: hand store version {version}; this pokerlab writes {STORE_VERSION}"
            )
        self.db.executescript(_SCHEMA)
        self.db.execute(f"PRAGMA user_version = {STORE_VERSION}")
        self._config_ids: dict[GameConfig, int] = {}

    def _config_id(self, config: GameConfig) -> int:
        found = self._config_ids.get(config)
        if found is None:
            text = json.dumps(config.to_dict(), sort_keys=True)
            self.db.execute("INSERT OR IGNORE INTO configs (config) VALUES (?)", (text,))
            found = self.db.execute("SELECT id FROM configs WHERE config = ?", (text,)).fetchone()[0]
            self._config_ids[config] = found
        return found

    def add(self, hands: Iterable[tuple[int, int, int, HandRecord]], decisions=()) -> None:
        """Store (hand, deal, session, record) rows and (hand, seat, index, action, probabilities, info)
        decisions, and commit."""
        rows = [
            (
                hand,
                deal,
                session,
                self._config_id(r.config),
                json.dumps(list(r.names)),
                _ints(r.stacks),
                _ints(r.holes),
                _ints(r.board),
                _ints(v for pair in r.actions for v in pair),
                _ints(r.nets),
            )
            for hand, deal, session, r in hands
        ]
        self.db.executemany("INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        self.db.executemany(
            "INSERT INTO decisions VALUES (?, ?, ?, ?, ?, ?)",
            [
                (
                    hand,
                    seat,
                    index,
                    action,
                    None if probabilities is None else json.dumps(list(probabilities)),
                    None if info is None else json.dumps(info, default=float),
                )
                for hand, seat, index, action, probabilities, info in decisions
            ],
        )
        self.db.commit()

    def add_session(self, report: dict) -> None:
        """Mark a session complete (every one of its hands is stored), with its report, and commit."""
        self.db.execute(
            "INSERT OR REPLACE INTO sessions VALUES (?, ?)", (report["session"], json.dumps(report))
        )
        self.db.commit()

    def sessions(self) -> dict[int, dict]:
        """The reports of the complete sessions, by session number."""
        return {s: json.loads(r) for s, r in self.db.execute("SELECT session, report FROM sessions")}

    def drop_sessions_except(self, keep: Iterable[int]) -> int:
        """Delete the hands and decisions of every session not in `keep` (a killed run's partial sessions)
        and commit; returns the number of hands deleted."""
        keep = sorted(set(keep))
        marks = ",".join("?" * len(keep))
        where = f"session NOT IN ({marks})" if keep else "1"
        self.db.execute(f"DELETE FROM decisions WHERE hand IN (SELECT hand FROM hands WHERE {where})", keep)
        deleted = self.db.execute(f"DELETE FROM hands WHERE {where}", keep).rowcount
        self.db.execute(f"DELETE FROM sessions WHERE {where}", keep)
        self.db.commit()
        return deleted

    def close(self) -> None:
        self.db.close()


def _open(path: str | Path) -> sqlite3.Connection:
    path = Path(path)
    if not path.is_file():
        raise CorruptData(f"no hand store at {str(path)!r}")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        db.close()
        raise CorruptData(f"{path} is not an SQLite hand store ({exc})") from None
    if version != STORE_VERSION:
        db.close()
        raise CorruptData(f"{path}: hand store version {version}; this pokerlab reads {STORE_VERSION}")
    return db


def read_hands(path: str | Path) -> Iterator[tuple[int, HandRecord]]:
    """(hand number, record) of every stored hand, in order, rebuilt by replay."""
    db = _open(path)
    try:
        configs = {
            i: GameConfig.from_dict(json.loads(c)) for i, c in db.execute("SELECT id, config FROM configs")
        }
        for hand, config, names, stacks, holes, board, actions in db.execute(
            "SELECT hand, config, names, stacks, holes, board, actions FROM hands ORDER BY hand"
        ):
            stacks = _parse_ints(stacks)
            flat = _parse_ints(actions)
            state = replay(
                configs[config],
                stacks,
                _parse_ints(holes),
                _parse_ints(board),
                list(zip(flat[::2], flat[1::2], strict=True)),
            )
            yield hand, record_of(state, stacks, json.loads(names))
    finally:
        db.close()


def read_decisions(path: str | Path) -> list[dict]:
    """Every logged decision, in hand and action order: {"hand", "seat", "action_index", "action",
    "probabilities", "info"}."""
    db = _open(path)
    try:
        rows = db.execute("SELECT * FROM decisions ORDER BY hand, action_index").fetchall()
    finally:
        db.close()
    return [
        {
            "hand": hand,
            "seat": seat,
            "action_index": index,
            "action": action,
            "probabilities": None if p is None else json.loads(p),
            "info": None if info is None else json.loads(info),
        }
        for hand, seat, index, action, p, info in rows
    ]
