"""A throwaway PostgreSQL server for the web table's tests: a cluster in a temporary folder, made by the
installed ``initdb`` and run by ``pg_ctl`` on a free loopback port (its socket in the folder too), trust
log-in for the one user ``poker``, stopped and removed at the end of the session.

PostgreSQL refuses to run as root: as root the binaries run as the unprivileged user ``postgres`` (made if
missing, as Debian's package makes it). Without the binaries (or psycopg) the tests skip with the reason,
except under CI (env CI or POSTGRES_REQUIRED, which `make test` sets, having installed Debian's
``postgresql``), where they fail.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

USER = "poker"


def required() -> bool:
    flags = (os.environ.get(name, "").strip().lower() for name in ("CI", "POSTGRES_REQUIRED"))
    return any(flag not in ("", "0", "false") for flag in flags)


def missing(reason: str) -> None:
    """Fail under CI (PostgreSQL must be there), skip with the reason elsewhere."""
    if required():
        pytest.fail(
            f"{reason} (CI / POSTGRES_REQUIRED is set, so the PostgreSQL tests fail rather than skip)"
        )
    pytest.skip(reason)


def binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: on the PATH, else Debian's newest /usr/lib/postgresql/N/bin"""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).parent
    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(debian[-1]).parent if debian else None


def unprivileged() -> list[str]:
    """The command prefix that runs a binary as ``postgres`` when we are root (nothing otherwise)."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "postgres"], check=True)
    return ["runuser", "-u", "postgres", "--"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """A running cluster; `new_database` makes an empty database and returns its SQLAlchemy URL."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir, self.as_user = bin_dir, unprivileged()
        self.folder = Path(tempfile.mkdtemp(prefix="pokerlab-pg-"))
        if self.as_user:
            shutil.chown(self.folder, "postgres")
        self.data, self.port, self.count = self.folder / "data", free_port(), 0
        self._run("initdb", "-D", str(self.data), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync")
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.folder / "log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "-t", "30", "start")

    def _run(self, binary: str, *args: str) -> None:
        command = [*self.as_user, str(self.bin_dir / binary), *args]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{binary} failed ({done.returncode}): {done.stderr[-2000:]}")

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        import psycopg

        self.count += 1
        name = f"web{self.count}"
        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user={USER} dbname=postgres", autocommit=True
        ) as c:
            c.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres():
    """The session's PostgreSQL server (skips or fails, see `missing`, where it cannot run)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        missing("the PostgreSQL tests need psycopg: pip install 'pokerlab[postgres]'")
    bin_dir = binaries()
    if bin_dir is None:
        missing(
            "the PostgreSQL tests need initdb and pg_ctl (apt-get install postgresql, or `make postgres`)"
        )
    server = PostgresServer(bin_dir)
    yield server
    server.stop()
