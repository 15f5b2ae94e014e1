"""The web table's fixtures: `live`, a real server for one test (see live_server.py); `database_url`, an
empty database on each engine the web table supports (SQLite, and PostgreSQL from postgres.py)."""

from __future__ import annotations

import pytest
from live_server import LiveServer, web_config
from postgres import postgres  # noqa: F401 - the session's PostgreSQL server, a fixture


@pytest.fixture
def live(tmp_path):
    server = LiveServer(web_config(tmp_path))
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """An empty database's SQLAlchemy URL: a new SQLite file, or a new database on the session's server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'web.db'}"
    return request.getfixturevalue("postgres").new_database()
