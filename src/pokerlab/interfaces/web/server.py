"""`pokerlab serve`: the web table under uvicorn, on loopback unless told otherwise."""

from __future__ import annotations

import logging

import uvicorn

from pokerlab.interfaces.web.app import create_app
from pokerlab.interfaces.web.config import WebConfig

#: The largest WebSocket message uvicorn accepts at all; frames over `WebConfig.max_frame_bytes` but
#: under this are answered with an error frame, larger ones close the connection.
WS_MAX_SIZE = 65536
#: How long a stopping server waits for open connections (then the hands still running stay so, and are
#: void at the next start).
GRACE_SECONDS = 5


def uvicorn_config(config: WebConfig, host: str, port: int, log_level: str = "info") -> uvicorn.Config:
    """uvicorn's settings for the web table (the database is opened and migrated here: `ConfigError`).
    X-Forwarded-For and X-Forwarded-Proto are believed only from ``config.trusted_proxies``."""
    return uvicorn.Config(
        create_app(config),
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,  # frames of a few hundred bytes: compressing costs more than it saves
        proxy_headers=bool(config.trusted_proxies),
        forwarded_allow_ips=list(config.trusted_proxies) or None,
        log_level=log_level,
        timeout_graceful_shutdown=GRACE_SECONDS,
    )


def serve(config: WebConfig, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the server until interrupted."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    uvicorn.Server(uvicorn_config(config, host, port)).run()
