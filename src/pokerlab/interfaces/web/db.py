"""The web table's database: SQLAlchemy 2 models, the engine, and the Alembic migrations run at start-up.

SQLite by default (WAL journal, so a killed server loses no committed hand), PostgreSQL by URL. The schema
is made only by the migrations in ``migrations/versions`` (`migrate`), never by ``create_all``, so a
database outlives a release.

* ``users``: people and bots (``kind``), the argon2 hash (people only), the bankroll in chips; names are
  unique whatever their case (an index on ``lower(name)``).
* ``sessions``: log-ins, by the SHA-256 of their random token (the token itself is never stored).
* ``hands``: one row per hand dealt, with its deck seed (null in hands dealt before seeds were kept),
  ``running`` until the hand ends; the finished hand's cards, actions, decisions and nets (JSON, by
  position) are written with the bankrolls in one transaction; a hand left ``running`` by a stopped server
  is made ``void`` at the next start.
* ``hand_players``: each seat's part in a finished hand (net, bankroll after it, statistics counters).
* ``player_stats``: the running totals the leaderboard reads (hands, VPIP, PFR, aggression, small bets).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from sqlalchemy import JSON, BigInteger, Float, ForeignKey, Integer, String, create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker
from sqlalchemy.orm import Session as OrmSession

from pokerlab.errors import ConfigError

MIGRATIONS = Path(__file__).with_name("migrations")


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human" or "bot"
    password_hash: Mapped[str | None] = mapped_column(String(256), nullable=True)
    bankroll: Mapped[int] = mapped_column(BigInteger)
    created: Mapped[float] = mapped_column(Float)


class Session(Base):
    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    expires: Mapped[float] = mapped_column(Float)


class Hand(Base):
    __tablename__ = "hands"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(Integer)
    level: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(8), index=True)  # running, finished, void
    started: Mapped[float] = mapped_column(Float)
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # deal_cards(seed, 0, players)
    ended: Mapped[float | None] = mapped_column(Float, nullable=True)
    config: Mapped[dict] = mapped_column(JSON)  # GameConfig.to_dict()
    button: Mapped[int] = mapped_column(Integer)  # the button's seat
    seats: Mapped[list] = mapped_column(JSON)  # by position: {"seat", "user_id", "name", "kind", "agent"}
    stacks: Mapped[list] = mapped_column(JSON)  # by position, before the blinds
    holes: Mapped[list | None] = mapped_column(JSON, nullable=True)  # 2n card codes, by position
    board: Mapped[list | None] = mapped_column(JSON, nullable=True)
    actions: Mapped[list | None] = mapped_column(JSON, nullable=True)  # [position, action] pairs
    decisions: Mapped[list | None] = mapped_column(JSON, nullable=True)  # per action: the bot's info or null
    nets: Mapped[list | None] = mapped_column(JSON, nullable=True)  # by position
    shown: Mapped[list | None] = mapped_column(JSON, nullable=True)  # by position


class HandPlayer(Base):
    __tablename__ = "hand_players"
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    net: Mapped[int] = mapped_column(BigInteger)
    bankroll: Mapped[int] = mapped_column(BigInteger)  # after the hand


class PlayerStats(Base):
    __tablename__ = "player_stats"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    hands: Mapped[int] = mapped_column(Integer, default=0)
    vpip: Mapped[int] = mapped_column(Integer, default=0)  # hands with chips put in voluntarily pre-flop
    pfr: Mapped[int] = mapped_column(Integer, default=0)  # hands raised pre-flop
    raises: Mapped[int] = mapped_column(Integer, default=0)  # bets and raises, every round
    calls: Mapped[int] = mapped_column(Integer, default=0)  # calls of a bet (free checks not counted)
    small_bets: Mapped[float] = mapped_column(Float, default=0.0)  # sum of net / small bet


def make_engine(url: str) -> Engine:
    """An engine for `url`; SQLite gets WAL, a busy timeout and foreign keys."""
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
        try:
            import psycopg  # noqa: F401 - only to say what is missing
        except ImportError:
            raise ConfigError(
                "a PostgreSQL database needs the psycopg driver: pip install 'pokerlab[postgres]'"
            ) from None
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(connection, _record) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a killed process loses no commit
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema with the shipped Alembic migrations."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Database:
    """The engine, its sessions, and the one lock every writer takes.

    SQLite lets one writer in at a time and makes the others retry; under load (50 tables writing hands)
    a sign-up could retry for ever. Writers queue on one Python lock instead (PostgreSQL needs no such
    care, but loses nothing by it: one transaction per hand is far below what it can write).
    """

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.lock = threading.Lock()

    @contextmanager
    def write(self) -> Iterator[OrmSession]:
        """A transaction for writing, committed at the end (rolled back on an error)."""
        with self.lock, self.sessions.begin() as db:
            yield db

    def migrate(self) -> None:
        migrate(self.engine)

    @classmethod
    def open(cls, url: str) -> Database:
        """The database at `url`, migrated to the newest schema; `ConfigError` in one line (password
        hidden) when it cannot be reached, opened or written, or its scheme is not supported."""
        try:
            database = cls(url)
            database.migrate()
        except (SQLAlchemyError, OSError) as exc:
            shown = url
            with suppress(SQLAlchemyError, ValueError):
                shown = make_url(url).render_as_string(hide_password=True)
            cause = str(getattr(exc, "orig", None) or exc).strip().splitlines()
            raise ConfigError(
                f"cannot use the database {shown}: {cause[0] if cause else type(exc).__name__}"
            ) from None
        return database
