"""Hand histories in SQLite (the default store): one row per hand, and a decision log beside it.

Rows are committed block by block, so a database stays readable after a crash. The game config is stored
once (table ``configs``); cards are bytes (card code + 1, 0 for an unknown card), actions bytes (4 x
position + action), stacks and nets space-separated integers. `read_hands` gives the hands back as
`HandRecord`s, each re-checked by replay; `read_decisions` the decision log.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

from pokerlab.engine import GameConfig, HandRecord, HandState, record_of, replay
from pokerlab.errors import CorruptData, PokerlabError

#: Version of the layout below (``PRAGMA user_version``).
STORE_VERSION = 3

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
    holes BLOB NOT NULL,            -- 2n bytes: card code + 1 (0 unknown)
    board BLOB NOT NULL,            -- a byte per board card dealt: card code + 1
    actions BLOB NOT NULL,          -- a byte per action: 4 x position + action (0 fold, 1 call, 2 raise)
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


def _parse_cards(blob: bytes) -> list[int]:
    return [b - 1 for b in blob]


def _parse_ints(text: str) -> list[int]:
    return [int(v) for v in text.split()]


class HandEncoder:
    """Turns finished hands into stored rows as they are played (strings and bytes only, which the garbage
    collector does not track: a results folder costs little on top of the hands)."""

    def __init__(self) -> None:
        self._names: dict[tuple[str, ...], str] = {}
        self._stacks: dict[tuple[int, ...], str] = {}

    def encode(self, state: HandState, stacks: tuple[int, ...], names: tuple[str, ...]) -> tuple:
        """(config, names, stacks, holes, board, actions, nets) of a finished hand, as `HandStore` stores
        them; ``stacks`` are the positions' chips before the blinds, ``names`` who sat in each position."""
        label = self._names.get(names)
        if label is None:
            label = self._names[names] = json.dumps(list(names))
        chips = self._stacks.get(stacks)
        if chips is None:
            chips = self._stacks[stacks] = _ints(stacks)
        return (
            state.config,
            label,
            chips,
            bytes([c + 1 for c in state.holes]),
            bytes([c + 1 for c in state.board_seen]),
            bytes([4 * r.position + r.action for r in state.actions]),
            _ints(state.nets),
        )


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
        # write-ahead log: a commit survives the process being killed (what a results folder needs), and
        # costs about half as much as the default journal (only an operating-system crash could lose the
        # last committed block)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")
        self.db.executescript(_SCHEMA)
        self.db.execute(f"PRAGMA user_version = {STORE_VERSION}")
        self._config_ids: dict[int, tuple[GameConfig, int]] = {}  # by id(): a dataclass hash costs 1 us

    def _config_id(self, config: GameConfig) -> int:
        found = self._config_ids.get(id(config))
        if found is None:
            text = json.dumps(config.to_dict(), sort_keys=True)
            self.db.execute("INSERT OR IGNORE INTO configs (config) VALUES (?)", (text,))
            number = self.db.execute("SELECT id FROM configs WHERE config = ?", (text,)).fetchone()[0]
            found = self._config_ids[id(config)] = (config, number)  # the config kept alive: ids stay unique
        return found[1]

    def add(self, hands: Iterable[tuple[int, int, int, tuple]], decisions=()) -> None:
        """Store (hand, deal, session, row) hands, each row from `HandEncoder.encode`,
        and (hand, seat, index, action, probabilities, info) decisions, and commit."""
        config_id = self._config_id
        self.db.executemany(
            "INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(hand, deal, session, config_id(row[0]), *row[1:]) for hand, deal, session, row in hands],
        )
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
        reports = {}
        for session, text in self.db.execute("SELECT session, report FROM sessions"):
            try:
                report = json.loads(text)
                if (
                    not isinstance(report, dict)
                    or set(report) != {"session", "hands_asked", "hands_played", "ended", "faults"}
                    or not all(isinstance(report[k], int) for k in ("session", "hands_asked", "hands_played"))
                    or not isinstance(report["ended"], str)
                    or not isinstance(report["faults"], list)
                    or not all(isinstance(f, int) for f in report["faults"])
                ):
                    raise ValueError("not a session report")
            except (ValueError, TypeError, RecursionError) as exc:
                raise CorruptData(
                    f"{self.path}: the report of session {session!r} is unreadable ({_why(exc)})"
                ) from None
            reports[session] = report
        return reports

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
        """Commit, fold the write-ahead log back into the file and close (no -wal file is left). The
        connection is closed even when that fails (a full disk): the committed blocks stay readable, from
        the file and its -wal file."""
        try:
            self.db.commit()
            self.db.execute("PRAGMA journal_mode = DELETE")
        except sqlite3.Error:
            self.db.rollback()
            raise
        finally:
            self.db.close()


def _open(path: str | Path) -> sqlite3.Connection:
    path = Path(path)
    if not path.is_file():
        raise CorruptData(f"no hand store at {str(path)!r}")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        db.close()
        raise CorruptData(f"{path} is not an SQLite hand store ({_why(exc)})") from None
    if version != STORE_VERSION:
        db.close()
        raise CorruptData(f"{path}: hand store version {version}; this pokerlab reads {STORE_VERSION}")
    return db


def _config_of(path: Path, number: int, text) -> GameConfig:
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"a JSON object, got {type(data).__name__}")
        return GameConfig.from_dict(data)
    except (ValueError, TypeError, RecursionError) as exc:
        raise CorruptData(f"{path}: game config {number} is unreadable ({_why(exc)})") from None


def _why(exc: BaseException) -> str:
    """An exception as a few words on one line."""
    text = " ".join(str(exc).split())
    return text if isinstance(exc, CorruptData | ValueError) and text else f"{type(exc).__name__}: {text}"


def read_hands(path: str | Path) -> Iterator[tuple[int, HandRecord]]:
    """(hand number, record) of every stored hand, in order, rebuilt by replay. A row that cannot be read
    back (a field of the wrong type, a hand the rules reject) raises `CorruptData` naming the file, the hand
    and the field."""
    path = Path(path)
    db = _open(path)
    try:
        configs = {i: _config_of(path, i, c) for i, c in db.execute("SELECT id, config FROM configs")}
        for hand, config, names, stacks, holes, board, actions in db.execute(
            "SELECT hand, config, names, stacks, holes, board, actions FROM hands ORDER BY hand"
        ):
            yield hand, _record(path, configs, hand, config, names, stacks, holes, board, actions)
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        raise CorruptData(f"{path} is not a readable hand store ({_why(exc)})") from None
    finally:
        db.close()


def _record(path: Path, configs, hand, config, names, stacks, holes, board, actions) -> HandRecord:
    """One stored row as a record, each field checked (see `read_hands`)."""
    field = "config"
    try:
        if config not in configs:
            raise CorruptData(f"no game config {config!r}")
        field = "stacks"
        if not isinstance(stacks, str):
            raise CorruptData(f"{stacks!r} is not text")
        stacks = _parse_ints(stacks)
        field = "names"
        names = json.loads(names) if isinstance(names, str | bytes) else names
        if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
            raise CorruptData("not a JSON list of names")
        for field, blob in (("holes", holes), ("board", board), ("actions", actions)):  # noqa: B007 - `field` names the bad one in the except
            if not isinstance(blob, bytes):
                raise CorruptData(f"{blob!r} is not bytes")
        field = "holes, board or actions"
        state = replay(
            configs[config],
            stacks,
            _parse_cards(holes),
            _parse_cards(board),
            [(b >> 2, b & 3) for b in actions],
        )
        field = "names"
        if names and len(names) != len(stacks):
            raise CorruptData(f"{len(names)} names for {len(stacks)} players")
        return record_of(state, stacks, names)
    except (PokerlabError, ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
        raise CorruptData(f"{path}: hand {hand}: bad {field} ({_why(exc)})") from None


def read_decisions(path: str | Path) -> list[dict]:
    """Every logged decision, in hand and action order: {"hand", "seat", "action_index", "action",
    "probabilities", "info"}; `CorruptData` naming the file and the hand for a row that cannot be read."""
    path = Path(path)
    db = _open(path)
    try:
        rows = db.execute("SELECT * FROM decisions ORDER BY hand, action_index").fetchall()
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        raise CorruptData(f"{path} is not a readable hand store ({_why(exc)})") from None
    finally:
        db.close()
    out = []
    for row in rows:
        try:
            hand, seat, index, action, p, info = row
            out.append(
                {
                    "hand": hand,
                    "seat": seat,
                    "action_index": index,
                    "action": action,
                    "probabilities": None if p is None else json.loads(p),
                    "info": None if info is None else json.loads(info),
                }
            )
        except (ValueError, TypeError, RecursionError) as exc:
            raise CorruptData(f"{path}: a decision of hand {row[0]!r} is unreadable ({_why(exc)})") from None
    return out
