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


def serve(config: WebConfig, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the server until interrupted."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    uvicorn.run(
        create_app(config),
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,  # frames of a few hundred bytes: compressing costs more than it saves
        log_level="info",
        timeout_graceful_shutdown=GRACE_SECONDS,
    )
