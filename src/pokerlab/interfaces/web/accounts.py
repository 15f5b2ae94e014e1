"""Accounts: sign-up and log-in with argon2id password hashes, server-side sessions, rate limits.

* Passwords are hashed with argon2id (argon2-cffi; RFC 9106), salted per hash; the clear password is never
  stored or logged. Hashing runs outside the database's writer lock on its own small pool of low-priority
  threads, each busy at most ``hash_share`` of the time (it rests after each hash in proportion to it), with a
  bounded queue (503 past it): argon2 is memory-hard, and even on another core it slows the tables' threads
  (shared caches, memory, SMT siblings), so a flood of log-ins must be paced, not just moved aside.
* A session is a random 256-bit token (``secrets.token_urlsafe``) sent to the browser in an HttpOnly
  cookie; the database keeps only its SHA-256, so a stolen database file opens no session. Log-out deletes
  the row (`logout`), or every row of the person (`logout_everywhere`).
* Names are NFKC-normalised, 2 to 32 of ``[A-Za-z0-9_.-]`` (so no control character or look-alike) and
  unique whatever their case; log-in finds a name whatever its case.
* Rate limits (sliding windows, `RateLimiter`): failed log-ins per (address, name), per name and per
  address, and sign-ups plus log-ins per address; past one the answer is 429.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import secrets
import threading
import time
import unicodedata
from collections import defaultdict, deque
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from pokerlab.interfaces.web.config import START_BANKROLL, WebConfig
from pokerlab.interfaces.web.db import Database, PlayerStats, Session, User

NAME = re.compile(r"[A-Za-z0-9_.-]{2,32}")
MIN_PASSWORD, MAX_PASSWORD = 8, 256
#: Keys a `RateLimiter` holds before it sweeps out the quiet ones.
SWEEP_AT = 10_000


class AccountError(Exception):
    """A refused account operation: ``status`` is the HTTP status, the message says what is allowed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of a session token: what the database keeps."""
    return hashlib.sha256(token.encode()).hexdigest()


def normal_name(name) -> str:
    """A sign-up name in its one stored form (NFKC); `AccountError` 400 unless it is 2 to 32 letters,
    digits, '_', '.' or '-' (the whole name: no newline or other control character slips through)."""
    if isinstance(name, str):
        name = unicodedata.normalize("NFKC", name)
        if NAME.fullmatch(name):
            return name
    raise AccountError(400, "name must be 2 to 32 letters, digits, '_', '.' or '-'")


def _taken(name: str) -> AccountError:
    return AccountError(409, f"the name {name!r} is taken; choose another")


class RateLimiter:
    """At most ``limit`` events per key within ``window`` seconds (a sliding window)."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window
        self._times: dict[object, deque[float]] = defaultdict(deque)

    def _recent(self, key, now: float) -> deque[float]:
        times = self._times[key]
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def blocked(self, key, now: float | None = None) -> bool:
        """Whether `key` has had its ``limit`` events in the window."""
        now = time.monotonic() if now is None else now
        if key not in self._times:
            return False
        recent = self._recent(key, now)
        if not recent:
            del self._times[key]  # forget quiet keys: the table holds only recent events
        return len(recent) >= self.limit

    def hit(self, key, now: float | None = None) -> None:
        """Count an event of `key`."""
        now = time.monotonic() if now is None else now
        if len(self._times) >= SWEEP_AT:
            for quiet in [k for k in self._times if not self._recent(k, now)]:
                del self._times[quiet]
        self._recent(key, now).append(now)


def _low_priority() -> None:
    """Run this hashing thread at the lowest CPU priority (Linux: a thread's own nice value)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
    except (AttributeError, OSError):
        pass


class Accounts:
    """Sign-up, log-in, sessions and log-out over the database's session factory."""

    def __init__(self, database: Database, config: WebConfig) -> None:
        self.database = database
        self.sessions = database.sessions
        self.config = config
        self.hasher = PasswordHasher(time_cost=config.hash_time_cost, memory_cost=config.hash_memory_kib)
        window = config.login_window_seconds
        self.pair_failures = RateLimiter(config.login_failures, window)
        self.name_failures = RateLimiter(config.name_failures, window)
        self.address_failures = RateLimiter(config.address_failures, window)
        self.address_attempts = RateLimiter(config.address_attempts, window)
        self.pool = ThreadPoolExecutor(config.hash_workers, "argon2", initializer=_low_priority)
        self._hashing = 0  # hash jobs running or queued on the pool
        self._rest_until = 0.0  # monotonic time before which the hashing threads rest
        self._open: dict[str, float] = {}  # token hash -> expiry of sessions seen open
        # a hash to verify against when the name is unknown, so both failures cost the same time
        self._dummy = self.hasher.hash(secrets.token_hex(16))

    async def _hash(self, work, *args):
        """Run argon2 work on the hashing pool; 503 when its queue is full."""
        if self._hashing >= self.config.hash_workers + self.config.hash_queue:
            raise AccountError(503, "the server is busy with log-ins; try again in a few seconds")
        self._hashing += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, self._paced, work, *args)
        finally:
            self._hashing -= 1

    def _paced(self, work, *args):
        """`work` on a hashing thread after the rest the last job earned (busy ``hash_share`` of the time)."""
        time.sleep(max(0.0, self._rest_until - time.monotonic()))
        start = time.monotonic()
        try:
            return work(*args)
        finally:
            end = time.monotonic()
            self._rest_until = end + (end - start) * (1 / self.config.hash_share - 1)

    def _verify(self, digest: str, password: str) -> bool:
        try:
            return self.hasher.verify(digest, password)
        except (VerificationError, InvalidHashError):
            return False

    def _attempt(self, address: str) -> None:
        """Count a sign-up or log-in from `address`; 429 past the limit."""
        if self.address_attempts.blocked(address):
            raise AccountError(429, "too many sign-ups and log-ins from your address; wait a minute")
        self.address_attempts.hit(address)

    @staticmethod
    def _check_password(password) -> None:
        if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise AccountError(400, f"password must be {MIN_PASSWORD} to {MAX_PASSWORD} characters")

    def _open_session(self, db, user: User) -> str:
        token = secrets.token_urlsafe(32)
        expires = time.time() + self.config.session_hours * 3600
        db.add(Session(token_hash=token_hash(token), user_id=user.id, expires=expires))
        return token

    @staticmethod
    def _refuse_taken(db, name: str) -> None:
        """409 if the name is taken, whatever its case."""
        if db.scalar(select(User.id).where(func.lower(User.name) == name.lower())) is not None:
            raise _taken(name)

    async def signup(self, name, password, address: str) -> tuple[User, str]:
        """A new person with the starting bankroll, logged in: (user, session token); 409 if the name is
        taken in any case."""
        name = normal_name(name)
        self._check_password(password)
        self._attempt(address)
        with self.sessions() as db:
            self._refuse_taken(db, name)  # before the hash's work
        digest = await self._hash(self.hasher.hash, password)
        return await asyncio.to_thread(self._create, name, digest)

    def _create(self, name: str, digest: str) -> tuple[User, str]:
        with self.database.write() as db:
            self._refuse_taken(db, name)
            user = User(
                name=name, kind="human", password_hash=digest, bankroll=START_BANKROLL, created=time.time()
            )
            db.add(user)
            try:
                db.flush()
            except IntegrityError:  # another server on the same database took it a moment ago
                raise _taken(name) from None
            db.add(PlayerStats(user_id=user.id, hands=0, vpip=0, pfr=0, raises=0, calls=0, small_bets=0.0))
            return user, self._open_session(db, user)

    async def login(self, name, password, address: str) -> tuple[User, str]:
        """(user, session token) for the right password; 401 otherwise, 429 past a rate limit."""
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise AccountError(400, "log-in needs a name and a password (strings)")
        self._attempt(address)
        key = unicodedata.normalize("NFKC", name).lower()[:64]
        limits = (
            (self.pair_failures, (address, key)),
            (self.name_failures, key),
            (self.address_failures, address),
        )
        if any(limiter.blocked(k) for limiter, k in limits):
            raise AccountError(429, "too many failed log-ins; wait a minute and try again")
        with self.sessions() as db:
            user = db.scalar(select(User).where(func.lower(User.name) == key, User.kind == "human"))
        ok = await self._hash(self._verify, user.password_hash if user else self._dummy, password)
        if not ok or user is None:
            for limiter, k in limits:
                limiter.hit(k)
            raise AccountError(401, "wrong name or password")
        with self.database.write() as db:
            return user, self._open_session(db, user)

    def user_of(self, token: str | None) -> User | None:
        """The person a session token belongs to, or None (no token, unknown, expired)."""
        if not token:
            return None
        key = token_hash(token)
        with self.sessions() as db:
            row = db.get(Session, key)
            if row is None or row.expires < time.time():
                return None
            self._open[key] = row.expires
            return db.get(User, row.user_id)

    def still_open(self, token: str | None) -> bool:
        """Whether a session is still open, from memory when this server saw it open (the check every
        WebSocket action makes; `logout` forgets the session here and in the database at once)."""
        expires = self._open.get(token_hash(token)) if token else None
        if expires is None:
            return self.user_of(token) is not None
        return expires >= time.time()

    def logout(self, token: str | None) -> set[str]:
        """End the session on the server; returns the token hashes ended (none without a token)."""
        if not token:
            return set()
        key = token_hash(token)
        self._open.pop(key, None)
        with self.database.write() as db:
            db.execute(delete(Session).where(Session.token_hash == key))
        return {key}

    def logout_everywhere(self, user_id: int) -> set[str]:
        """End every session of a person; returns their token hashes."""
        with self.database.write() as db:
            keys = set(db.scalars(select(Session.token_hash).where(Session.user_id == user_id)))
            db.execute(delete(Session).where(Session.user_id == user_id))
        for key in keys:
            self._open.pop(key, None)
        return keys
