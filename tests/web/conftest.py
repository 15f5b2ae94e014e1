"""The `live` fixture: a real web-table server for one test (see live_server.py)."""

from __future__ import annotations

import pytest
from live_server import LiveServer, web_config


@pytest.fixture
def live(tmp_path):
    server = LiveServer(web_config(tmp_path))
    yield server
    server.stop()
