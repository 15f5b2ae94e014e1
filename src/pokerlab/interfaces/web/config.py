"""What a web-table server runs with: the levels, the tables and their bots, time limits and rate limits.

The levels are those of the IRC server where Loki played people (Billings et al. 1998 §5):
10-20 with 1,000 to start, 20-40 once the bankroll reached 2,000, 50-100 once it reached 5,000.
Every number here is [OUR CHOICE] unless the spec gives it, and every one is a validated field.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field

from pokerlab.arena.sandbox import MODES as SANDBOX_MODES
from pokerlab.checks import check_fields
from pokerlab.errors import ConfigError


@dataclass(frozen=True, slots=True)
class Level:
    """A betting level: its name ("10-20"), small and big bet in chips, and the bankroll that opens it."""

    name: str
    small_bet: int
    big_bet: int
    threshold: int


#: Billings et al. 1998 §5: the three levels and the bankrolls that open them.
LEVELS: tuple[Level, ...] = (
    Level("10-20", 10, 20, 0),
    Level("20-40", 20, 40, 2000),
    Level("50-100", 50, 100, 5000),
)
#: An origin as browsers send it: scheme, host and an optional port, nothing after.
ORIGIN = re.compile(r"https?://[A-Za-z0-9.\-\[\]:]+")
#: A new account's bankroll (Billings et al. 1998 §5: $1,000 to start).
START_BANKROLL = 1000


def level_named(name: str) -> Level:
    """The level called `name`; `ConfigError` names the known ones."""
    for level in LEVELS:
        if level.name == name:
            return level
    raise ConfigError(f"unknown level {name!r}; levels: {', '.join(lv.name for lv in LEVELS)}")


@dataclass(frozen=True, slots=True)
class TableSpec:
    """One table: its level, its seats (2 to 10) and the bots that fill the seats nobody takes
    (``bots[seat % len(bots)]``, registry names)."""

    level: str
    seats: int
    bots: tuple[str, ...]

    def __post_init__(self) -> None:
        level_named(self.level)
        if not isinstance(self.seats, int) or not 2 <= self.seats <= 10:
            raise ConfigError(f"a table has 2 to 10 seats, got {self.seats!r}")
        if not self.bots:
            raise ConfigError("a table needs at least one bot name to fill its empty seats")


#: [OUR CHOICE] two tables at 10-20 and one at each higher level, six seats, Loki-1 and Loki-2 among the
#: Barone & While stereotypes (Loki-2 logs its hand strength, probability triple and simulated EVs per
#: decision, which the replayer shows).
DEFAULT_TABLES = (
    "10-20/6/loki2,loki1,tight-aggressive,loose-passive;"
    "10-20/6/loki1,loose-aggressive,tight-passive;"
    "20-40/6/loki2,loki1,tight-aggressive,loose-aggressive;"
    "50-100/6/loki1,loki2,tight-aggressive,tight-passive"
)


def parse_tables(text: str) -> tuple[TableSpec, ...]:
    """Tables from "LEVEL/SEATS/BOT,BOT,...;..." (e.g. "10-20/6/loki1,tight-aggressive"); the bots are
    checked against the agent registry."""
    from pokerlab.agents.registry import parse_lineup

    specs = []
    for item in text.split(";"):
        item = item.strip()
        if not item:
            continue
        parts = item.split("/", 2)  # a bot may be path/to/file.py:Class
        if len(parts) != 3:
            raise ConfigError(f"table {item!r}: write LEVEL/SEATS/BOT,BOT,... e.g. 10-20/6/loki1,call")
        level, seats, bots = parts
        try:
            count = int(seats)
        except ValueError:
            raise ConfigError(
                f"table {item!r}: seats must be a whole number 2 to 10, got {seats!r}"
            ) from None
        specs.append(TableSpec(level.strip(), count, tuple(parse_lineup(bots))))
    if not specs:
        raise ConfigError(f"no tables in {text!r}; write LEVEL/SEATS/BOT,BOT,...;...")
    return tuple(specs)


@dataclass(frozen=True, slots=True)
class WebConfig:
    """A web-table server, validated on construction (money in chips, times in seconds).

    * ``database``: an SQLAlchemy URL (``sqlite:///file.db`` by default, ``postgresql://...``).
    * ``tables``: the tables (`parse_tables`). ``seed``: None (the default) deals every hand from a fresh
      secret seed (the operating system's entropy); an integer makes deals and bots reproducible, for tests
      and demos only (the lobby and the log say "practice: deals are reproducible").
    * ``action_seconds``: a person's time to act; ``reconnect_seconds``: how long a disconnected person
      keeps the seat between hands before being stood up.
    * ``bot_stack_bets``: bots sit with this many big bets, topped up before every hand.
    * ``run_bot_tables``: tables without a person play on (load tests, kill tests); otherwise they pause.
    * ``show_thoughts``: replays show what a bot logged also where its cards stayed hidden (a teaching
      server; it tells about the bot's cards); by default only where its cards were seen.
    * ``pause_seconds``: the pause between hands where a person sits (to read the showdown).
    * Within ``login_window_seconds``: ``login_failures`` failed log-ins from one address for one name,
      ``name_failures`` for one name from anywhere, ``address_failures`` from one address for any names, or
      ``address_attempts`` sign-ups and log-ins from one address answer 429.
    * ``hash_workers`` threads (of low CPU priority) hash passwords, each busy at most ``hash_share`` of
      the time, with at most ``hash_queue`` waiting (then 503): a flood of log-ins never takes the tables'
      threads, lock or CPU.
    * ``trusted_proxies``: the addresses whose X-Forwarded-For / X-Forwarded-Proto are believed (none by
      default). ``allowed_origins``: origins (``https://poker.example``) allowed besides the server's own
      to open sockets and send state-changing requests.
    * ``sandbox``: where a layer of an outside bot's sandbox is missing (bots given as "module:Class" or
      "file.py:Class" run in their own sandboxed process, `pokerlab.arena.sandbox`): "required" refuses to
      start, "best-effort" goes on and says so.
    * ``session_hours``: how long a log-in lasts. ``max_frame_bytes``: the largest client frame.
    * ``hash_time_cost`` / ``hash_memory_kib``: argon2id parameters (RFC 9106; tests make them cheap).
    """

    database: str = "sqlite:///pokerlab-web.db"
    tables: tuple[TableSpec, ...] = field(default_factory=lambda: parse_tables(DEFAULT_TABLES))
    seed: int | None = None
    action_seconds: float = 20.0
    reconnect_seconds: float = 60.0
    bot_stack_bets: int = 100
    run_bot_tables: bool = False
    show_thoughts: bool = False
    pause_seconds: float = 2.0
    login_failures: int = 5
    login_window_seconds: float = 60.0
    name_failures: int = 20
    address_failures: int = 20
    address_attempts: int = 60
    hash_workers: int = 1
    hash_queue: int = 16
    hash_share: float = 0.25
    trusted_proxies: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    sandbox: str = "required"
    session_hours: float = 24.0 * 7
    max_frame_bytes: int = 1024
    hash_time_cost: int = 3
    hash_memory_kib: int = 65536

    def __post_init__(self) -> None:
        if not isinstance(self.database, str) or "://" not in self.database:
            raise ConfigError(
                f"database must be an SQLAlchemy URL such as sqlite:///pokerlab-web.db or "
                f"postgresql://user@host/db, got {self.database!r}"
            )
        if not self.tables:
            raise ConfigError("a server needs at least one table")
        if self.seed is not None and (not isinstance(self.seed, int) or self.seed < 0):
            raise ConfigError(f"seed must be None (secret) or an integer >= 0, got {self.seed!r}")
        for proxy in self.trusted_proxies:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except (TypeError, ValueError):
                raise ConfigError(
                    f"a trusted proxy is an IP address or network such as 10.0.0.0/8, got {proxy!r}"
                ) from None
        for origin in self.allowed_origins:
            if not isinstance(origin, str) or not ORIGIN.fullmatch(origin):
                raise ConfigError(
                    f"an allowed origin is scheme://host[:port] such as https://poker.example, got {origin!r}"
                )
        if self.sandbox not in SANDBOX_MODES:
            raise ConfigError(f"sandbox must be one of {', '.join(SANDBOX_MODES)}, got {self.sandbox!r}")
        for name in ("action_seconds", "reconnect_seconds", "login_window_seconds", "session_hours"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not value > 0:
                raise ConfigError(f"{name} must be a positive number of seconds/hours, got {value!r}")
        if not isinstance(self.hash_share, int | float) or not 0 < self.hash_share <= 1:
            raise ConfigError(f"hash_share must be a share of the time in (0, 1], got {self.hash_share!r}")
        if not isinstance(self.pause_seconds, int | float) or self.pause_seconds < 0:
            raise ConfigError(f"pause_seconds must be >= 0, got {self.pause_seconds!r}")
        check_fields(
            self,
            "WebConfig",
            flags=("run_bot_tables", "show_thoughts"),
            at_least={
                "bot_stack_bets": 1,
                "login_failures": 1,
                "name_failures": 1,
                "address_failures": 1,
                "address_attempts": 1,
                "hash_workers": 1,
                "hash_queue": 1,
                "max_frame_bytes": 64,
                "hash_time_cost": 1,
                "hash_memory_kib": 64,
            },
        )
