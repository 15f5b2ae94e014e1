"""The FastAPI application of the web table: the HTTP API and the WebSocket of docs/web-protocol.md.

`create_app` builds it from a `WebConfig`; at start-up it migrates the database, voids the hands a stopped
server left running and starts the lobby's tables. The page (``static/``) is mounted at ``/`` after the
API routes. Request bodies are read by hand so that every refusal is one ``{"detail": ...}`` line with
400, 401, 403, 404, 409, 413 or 429, never a validation dump.
"""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request, Response, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from pokerlab.interfaces.web import history
from pokerlab.interfaces.web.accounts import AccountError, Accounts
from pokerlab.interfaces.web.config import LEVELS, WebConfig
from pokerlab.interfaces.web.db import Database
from pokerlab.interfaces.web.store import HandStore
from pokerlab.interfaces.web.tables import Connection, Lobby

log = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")
COOKIE = "session"
#: The largest HTTP request body the API reads (sign-up, log-in and sit are a few dozen bytes).
MAX_BODY = 4096
PLACEHOLDER = (
    "<!doctype html><title>pokerlab</title><p>The web table's page is not installed; the API is at /api.</p>"
)


@dataclass
class Server:
    """What the routes share: the config, the database, accounts, the hand store and the lobby."""

    config: WebConfig
    sessions: object
    accounts: Accounts
    store: HandStore
    lobby: Lobby | None = None


def _server(request: Request | WebSocket) -> Server:
    return request.app.state.server


def _user(request: Request):
    user = _server(request).accounts.user_of(request.cookies.get(COOKIE))
    if user is None:
        raise AccountError(401, "log in first")
    return user


async def _body(request: Request) -> dict:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise AccountError(413, f"the request body has {len(raw)} bytes; at most {MAX_BODY} are read")
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise AccountError(400, "the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise AccountError(400, "the body must be a JSON object")
    return data


def _logged_in(request: Request, user, token: str, status: int) -> JSONResponse:
    """The user's name and bankroll, with the session cookie: never readable by scripts, never sent by other
    sites, and over HTTPS (the request's scheme; behind a proxy that ends TLS, run uvicorn with its proxy
    headers trusted) never sent over plain HTTP."""
    response = JSONResponse({"name": user.name, "bankroll": user.bankroll}, status_code=status)
    secure = request.url.scheme == "https"
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/", secure=secure)
    return response


router = APIRouter(prefix="/api")


@router.post("/signup")
async def signup(request: Request):
    data = await _body(request)
    user, token = await asyncio.to_thread(
        _server(request).accounts.signup, data.get("name"), data.get("password")
    )
    return _logged_in(request, user, token, 201)


@router.post("/login")
async def login(request: Request):
    data = await _body(request)
    address = request.client.host if request.client else "?"
    accounts = _server(request).accounts
    user, token = await asyncio.to_thread(accounts.login, data.get("name"), data.get("password"), address)
    return _logged_in(request, user, token, 200)


@router.post("/logout")
async def logout(request: Request):
    _server(request).accounts.logout(request.cookies.get(COOKIE))
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path="/")
    return response


@router.get("/me")
async def me(request: Request):
    user = _user(request)
    table = _server(request).lobby.seated_at(user.id)
    return {
        "name": user.name,
        "bankroll": user.bankroll,
        "levels": [lv.name for lv in LEVELS if user.bankroll >= lv.threshold],
        "table": None if table is None else table.id,
    }


@router.get("/tables")
async def tables(request: Request):
    user = _server(request).accounts.user_of(request.cookies.get(COOKIE))
    return _server(request).lobby.listing(None if user is None else user.bankroll)


@router.post("/tables/{table_id}/sit")
async def sit(request: Request, table_id: int):
    user = _user(request)
    data = await _body(request)
    lobby = _server(request).lobby
    table = lobby.table(table_id)
    elsewhere = lobby.seated_at(user.id)
    if elsewhere is not None:
        raise AccountError(409, f"you already sit at table {elsewhere.id}; leave it first")
    return {"seat": table.sit(user.id, user.name, user.bankroll, data.get("seat"))}


@router.post("/tables/{table_id}/leave")
async def leave(request: Request, table_id: int):
    user = _user(request)
    if not _server(request).lobby.table(table_id).leave(user.id):
        raise AccountError(404, f"you do not sit at table {table_id}")
    return Response(status_code=204)


@router.get("/hands")
async def hands(request: Request):
    user = _user(request)
    return await asyncio.to_thread(history.hands_of, _server(request).sessions, user.id)


@router.get("/hands/phh")
async def all_phh(request: Request):
    user = _user(request)
    text = await asyncio.to_thread(history.phhs, _server(request).sessions, user.id)
    disposition = f'attachment; filename="{user.name}-hands.phhs"'
    return PlainTextResponse(text, headers={"Content-Disposition": disposition})


async def _own_hand(request: Request, hand_id: int, read):
    """What `read` (a `history` reader) makes of a hand this person played; 404 for any other hand."""
    user = _user(request)
    found = await asyncio.to_thread(read, _server(request).sessions, hand_id, user.id)
    if found is None:
        raise AccountError(404, f"no hand {hand_id} of yours")
    return found


@router.get("/hands/{hand_id}")
async def hand(request: Request, hand_id: int):
    show = _server(request).config.show_thoughts
    return await _own_hand(request, hand_id, partial(history.replay, show_thoughts=show))


@router.get("/hands/{hand_id}/phh")
async def hand_phh(request: Request, hand_id: int):
    text = await _own_hand(request, hand_id, history.phh)
    disposition = f'attachment; filename="hand-{hand_id}.phh"'
    return PlainTextResponse(text, headers={"Content-Disposition": disposition})


@router.get("/leaderboard")
async def leaderboard(request: Request):
    return await asyncio.to_thread(history.leaderboard, _server(request).sessions)


@router.get("/players/{name}/bankroll")
async def bankroll(request: Request, name: str):
    curve = await asyncio.to_thread(history.bankroll_curve, _server(request).sessions, name)
    if curve is None:
        raise AccountError(404, f"no player {name!r}")
    return curve


async def _writer(websocket: WebSocket, conn: Connection) -> None:
    """Send a connection's queued frames in order; a None closes it."""
    while True:
        text = await conn.queue.get()
        if text is None:
            await websocket.close()
            return
        await websocket.send_text(text)


async def table_socket(websocket: WebSocket, table_id: int) -> None:
    """/ws/tables/{id}: frames out per docs/web-protocol.md; ``act`` and ``ping`` in."""
    server = _server(websocket)
    token = websocket.cookies.get(COOKIE)
    user = server.accounts.user_of(token)
    table = server.lobby.tables.get(table_id)
    if user is None or table is None:
        await websocket.close()  # before accepting: the handshake is refused with 403
        return
    await websocket.accept()
    conn = Connection(user.id, user.name)
    table.connect(conn)
    writer = asyncio.create_task(_writer(websocket, conn))
    limit = server.config.max_frame_bytes
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                raw = (message.get("bytes") or b"").decode("utf-8", "replace")
            if len(raw.encode()) > limit:
                conn.send({"type": "error", "message": f"a frame may hold at most {limit} bytes"})
                continue
            try:
                frame = json.loads(raw)
            except ValueError:
                conn.send({"type": "error", "message": "frames must be JSON objects"})
                continue
            kind = frame.get("type") if isinstance(frame, dict) else None
            if kind == "ping":
                conn.send({"type": "pong"})
            elif kind == "act":
                if not server.accounts.still_open(token):
                    conn.send({"type": "error", "message": "your session has ended; log in again"})
                    continue
                error = table.submit(user.id, frame.get("action"))
                if error is not None:
                    conn.send({"type": "error", "message": error})
            else:
                conn.send({"type": "error", "message": f"unknown frame type {kind!r}; known: act, ping"})
    except WebSocketDisconnect:
        pass
    finally:
        table.disconnect(conn)
        conn.closed = True
        writer.cancel()
        await asyncio.gather(writer, return_exceptions=True)


def create_app(config: WebConfig) -> FastAPI:
    """The web-table application for `config` (the database is migrated when it starts)."""
    database = Database(config.database)
    sessions = database.sessions
    store = HandStore(database)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await asyncio.to_thread(database.migrate)
        voided = await asyncio.to_thread(store.void_running)
        if voided:
            log.info("%d hand(s) left running by a stopped server are void", voided)
        server.lobby = Lobby(config, store)
        server.lobby.start()
        try:
            yield
        finally:
            await server.lobby.stop()
            database.engine.dispose()

    app = FastAPI(title="pokerlab web table", lifespan=lifespan, docs_url=None, redoc_url=None)
    server = Server(config, sessions, Accounts(database, config), store)
    app.state.server = server

    @app.exception_handler(AccountError)
    async def refused(_request, exc: AccountError):
        return JSONResponse({"detail": str(exc)}, status_code=exc.status)

    app.include_router(router)
    app.add_api_websocket_route("/ws/tables/{table_id}", table_socket)
    if (STATIC / "index.html").is_file():
        app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    else:

        @app.get("/", response_class=HTMLResponse)
        async def placeholder():
            return PLACEHOLDER

    return app
