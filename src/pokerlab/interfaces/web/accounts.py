"""Accounts: sign-up and log-in with argon2id password hashes, server-side sessions, a log-in rate limit.

* Passwords are hashed with argon2id (argon2-cffi; RFC 9106), salted per hash; the clear password is never
  stored or logged.
* A session is a random 256-bit token (``secrets.token_urlsafe``) sent to the browser in an HttpOnly
  cookie; the database keeps only its SHA-256, so a stolen database file opens no session. Log-out deletes
  the row.
* The rate limit counts failed log-ins per (address, name) in a sliding window; past the limit the answer is
  429 until the window has passed (`LoginLimiter`).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections import defaultdict, deque

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from pokerlab.interfaces.web.config import START_BANKROLL, WebConfig
from pokerlab.interfaces.web.db import Database, PlayerStats, Session, User

NAME = re.compile(r"^[A-Za-z0-9_.-]{2,32}$")
MIN_PASSWORD, MAX_PASSWORD = 8, 256


class AccountError(Exception):
    """A refused account operation: ``status`` is the HTTP status, the message says what is allowed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of a session token: what the database keeps."""
    return hashlib.sha256(token.encode()).hexdigest()


class LoginLimiter:
    """At most ``failures`` failed log-ins per (address, name) within ``window`` seconds."""

    def __init__(self, failures: int, window: float) -> None:
        self.failures, self.window = failures, window
        self._times: dict[tuple[str, str], deque[float]] = defaultdict(deque)

    def _recent(self, key: tuple[str, str], now: float) -> deque[float]:
        times = self._times[key]
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def blocked(self, address: str, name: str, now: float | None = None) -> bool:
        """Whether this address may not try this name now."""
        now = time.monotonic() if now is None else now
        key = (address, name)
        if key not in self._times:
            return False
        recent = self._recent(key, now)
        if not recent:
            del self._times[key]  # forget quiet keys: the table holds only recent failures
        return len(recent) >= self.failures

    def failed(self, address: str, name: str, now: float | None = None) -> None:
        """Count a failed attempt."""
        now = time.monotonic() if now is None else now
        self._recent((address, name), now).append(now)


class Accounts:
    """Sign-up, log-in, sessions and log-out over the database's session factory."""

    def __init__(self, database: Database, config: WebConfig) -> None:
        self.database = database
        self.sessions = database.sessions
        self.config = config
        self.hasher = PasswordHasher(time_cost=config.hash_time_cost, memory_cost=config.hash_memory_kib)
        self.limiter = LoginLimiter(config.login_failures, config.login_window_seconds)
        self._open: dict[str, float] = {}  # token hash -> expiry of sessions seen open
        # a hash to verify against when the name is unknown, so both failures cost the same time
        self._dummy = self.hasher.hash(secrets.token_hex(16))

    @staticmethod
    def _check(name, password) -> None:
        if not isinstance(name, str) or not NAME.match(name):
            raise AccountError(400, "name must be 2 to 32 letters, digits, '_', '.' or '-'")
        if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise AccountError(400, f"password must be {MIN_PASSWORD} to {MAX_PASSWORD} characters")

    def _open_session(self, db, user: User) -> str:
        token = secrets.token_urlsafe(32)
        expires = time.time() + self.config.session_hours * 3600
        db.add(Session(token_hash=token_hash(token), user_id=user.id, expires=expires))
        return token

    def signup(self, name, password) -> tuple[User, str]:
        """A new person with the starting bankroll, logged in: (user, session token); 409 if the name is
        taken."""
        self._check(name, password)
        digest = self.hasher.hash(password)
        with self.database.write() as db:
            if db.scalar(select(User.id).where(User.name == name)) is not None:
                raise AccountError(409, f"the name {name!r} is taken; choose another")
            user = User(
                name=name, kind="human", password_hash=digest, bankroll=START_BANKROLL, created=time.time()
            )
            db.add(user)
            try:
                db.flush()
            except IntegrityError:
                raise AccountError(409, f"the name {name!r} is taken; choose another") from None
            db.add(PlayerStats(user_id=user.id, hands=0, vpip=0, pfr=0, raises=0, calls=0, small_bets=0.0))
            token = self._open_session(db, user)
        return user, token

    def login(self, name, password, address: str) -> tuple[User, str]:
        """(user, session token) for the right password; 401 otherwise, 429 past the rate limit."""
        if not isinstance(name, str) or not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise AccountError(400, "log-in needs a name and a password (strings)")
        if self.limiter.blocked(address, name):
            raise AccountError(429, "too many failed log-ins; wait a minute and try again")
        with self.database.write() as db:
            user = db.scalar(select(User).where(User.name == name, User.kind == "human"))
            try:
                self.hasher.verify(user.password_hash if user else self._dummy, password)
                ok = user is not None
            except (VerificationError, InvalidHashError):
                ok = False
            if not ok:
                self.limiter.failed(address, name)
                raise AccountError(401, "wrong name or password")
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

    def logout(self, token: str | None) -> None:
        """End the session on the server."""
        if token:
            key = token_hash(token)
            self._open.pop(key, None)
            with self.database.write() as db:
                db.execute(delete(Session).where(Session.token_hash == key))
