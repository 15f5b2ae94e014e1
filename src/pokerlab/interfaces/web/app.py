"""The FastAPI application of the web table: the HTTP API and the WebSocket of docs/web-protocol.md.

`create_app` builds it from a `WebConfig`: it opens and migrates the database (a one-line `ConfigError`
when it cannot), voids the hands a stopped server left running and seats the lobby's bots (an outside bot
in its own sandboxed process: a one-line `BotFault` when one cannot start); start-up starts the tables.
The page (``static/``) is mounted at ``/`` after the API routes. Request bodies and ids are read by hand so
that every refusal is one ``{"detail": ...}`` line with a 4xx status (or 503), never a validation dump.
`Guard` stands in front of everything: same-origin only, bodies refused before they are read, and the
security headers.
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
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from pokerlab.interfaces.web import history
from pokerlab.interfaces.web.accounts import AccountError, Accounts, token_hash
from pokerlab.interfaces.web.config import LEVELS, WebConfig
from pokerlab.interfaces.web.db import Database
from pokerlab.interfaces.web.store import HandLedger
from pokerlab.interfaces.web.tables import Connection, Lobby

log = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")
COOKIE = "session"
#: The largest HTTP request body the API reads (sign-up, log-in and sit are a few dozen bytes).
MAX_BODY = 4096
#: The largest id of a table or hand (ids are 32-bit integers in every database the server supports).
MAX_ID = 2**31 - 1
#: The header every state-changing request must carry: a page on another origin cannot send it without a
#: CORS preflight, which this server never grants (the CSRF defence beside the Origin check).
CSRF_HEADER = "x-requested-with"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: Sent with every HTTP answer: the page runs only its own scripts and styles (none inline), is never
#: framed, and names no page of ours to other sites.
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]
PLACEHOLDER = (
    "<!doctype html><title>pokerlab</title><p>The web table's page is not installed; the API is at /api.</p>"
)


@dataclass
class Server:
    """What the routes share: the config, the database, accounts, the hand store and the lobby."""

    config: WebConfig
    sessions: object
    accounts: Accounts
    store: HandLedger
    lobby: Lobby | None = None


def _server(request: Request | WebSocket) -> Server:
    return request.app.state.server


def _user(request: Request):
    user = _server(request).accounts.user_of(request.cookies.get(COOKIE))
    if user is None:
        raise AccountError(401, "log in first")
    return user


def _too_large() -> AccountError:
    return AccountError(413, f"a request body may hold at most {MAX_BODY} bytes")


async def _body(request: Request) -> dict:
    """The JSON object of a request, read a chunk at a time and refused (413) once past `MAX_BODY`."""
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise _too_large()
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise AccountError(400, "the body must be a JSON object, not nested too deep") from None
    if not isinstance(data, dict):
        raise AccountError(400, "the body must be a JSON object")
    return data


def _id(text: str, what: str) -> int:
    """A table or hand id from the path: 400 unless a whole number, 404 past the largest id."""
    if not (text.isascii() and text.isdigit()):
        raise AccountError(400, f"a {what} id is a whole number, got {text[:40]!r}")
    if len(text) > 10 or int(text) > MAX_ID:
        raise AccountError(404, f"no {what} {text[:40]}; ids run to {MAX_ID}")
    return int(text)


def _address(request: Request) -> str:
    """The client's address (the proxy's word for it only from a ``--trusted-proxy``)."""
    return request.client.host if request.client else "?"


def _logged_in(request: Request, user, token: str, status: int) -> JSONResponse:
    """The user's name and bankroll, with the session cookie: never readable by scripts, never sent by other
    sites, and over HTTPS (the request's scheme; behind a proxy that ends TLS, name it with
    ``--trusted-proxy``) never sent over plain HTTP."""
    response = JSONResponse({"name": user.name, "bankroll": user.bankroll}, status_code=status)
    secure = request.url.scheme == "https"
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/", secure=secure)
    return response


router = APIRouter(prefix="/api")


@router.post("/signup")
async def signup(request: Request):
    data = await _body(request)
    accounts = _server(request).accounts
    user, token = await accounts.signup(data.get("name"), data.get("password"), _address(request))
    return _logged_in(request, user, token, 201)


@router.post("/login")
async def login(request: Request):
    data = await _body(request)
    accounts = _server(request).accounts
    user, token = await accounts.login(data.get("name"), data.get("password"), _address(request))
    return _logged_in(request, user, token, 200)


def _logged_out(request: Request, sessions: set[str]) -> Response:
    """Close the sockets of the ended sessions and drop the cookie."""
    _server(request).lobby.close_sessions(sessions)
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path="/")
    return response


@router.post("/logout")
async def logout(request: Request):
    server = _server(request)
    return _logged_out(request, await asyncio.to_thread(server.accounts.logout, request.cookies.get(COOKIE)))


@router.post("/logout-everywhere")
async def logout_everywhere(request: Request):
    user = _user(request)
    accounts = _server(request).accounts
    return _logged_out(request, await asyncio.to_thread(accounts.logout_everywhere, user.id))


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
async def sit(request: Request, table_id: str):
    user = _user(request)
    data = await _body(request)
    lobby = _server(request).lobby
    table = lobby.table(_id(table_id, "table"))
    elsewhere = lobby.seated_at(user.id)
    if elsewhere is not None:
        raise AccountError(409, f"you already sit at table {elsewhere.id}; leave it first")
    return {"seat": table.sit(user.id, user.name, user.bankroll, data.get("seat"))}


@router.post("/tables/{table_id}/leave")
async def leave(request: Request, table_id: str):
    user = _user(request)
    if not _server(request).lobby.table(_id(table_id, "table")).leave(user.id):
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


async def _own_hand(request: Request, hand_id: str, read):
    """What `read` (a `history` reader) makes of a hand this person played; 404 for any other hand."""
    user = _user(request)
    hand_id = _id(hand_id, "hand")
    found = await asyncio.to_thread(read, _server(request).sessions, hand_id, user.id)
    if found is None:
        raise AccountError(404, f"no hand {hand_id} of yours")
    return found


@router.get("/hands/{hand_id}")
async def hand(request: Request, hand_id: str):
    show = _server(request).config.show_thoughts
    return await _own_hand(request, hand_id, partial(history.replay, show_thoughts=show))


@router.get("/hands/{hand_id}/phh")
async def hand_phh(request: Request, hand_id: str):
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


async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """/ws/tables/{id}: frames out per docs/web-protocol.md; ``act`` and ``ping`` in."""
    server = _server(websocket)
    token = websocket.cookies.get(COOKIE)
    user = server.accounts.user_of(token)
    try:
        table = server.lobby.tables.get(_id(table_id, "table"))
    except AccountError:
        table = None
    if user is None or table is None:
        await websocket.close()  # before accepting: the handshake is refused with 403
        return
    await websocket.accept()
    conn = Connection(user.id, user.name, token_hash(token))
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


class Guard:
    """ASGI middleware in front of the whole app.

    * Same origin: a WebSocket handshake or a state-changing request whose ``Origin`` is neither the
      server's own (its scheme and ``Host``) nor one of `allowed` is refused (403); a state-changing API
      request must also carry `CSRF_HEADER`. (Clients that are not browsers send no Origin.)
    * Bodies: a ``Content-Length`` over `MAX_BODY` is answered 413 before a byte of the body is read
      (chunked bodies are counted as they stream, by `_body`).
    * Every HTTP answer carries `SECURITY_HEADERS`.
    """

    def __init__(self, app, allowed: tuple[str, ...] = ()) -> None:
        self.app, self.allowed = app, frozenset(allowed)

    def _foreign(self, scope) -> bool:
        headers = dict(scope["headers"])
        origin = headers.get(b"origin")
        if origin is None:
            return False
        origin = origin.decode("latin-1")
        scheme = {"ws": "http", "wss": "https"}.get(scope["scheme"], scope["scheme"])
        own = f"{scheme}://{headers.get(b'host', b'').decode('latin-1')}"
        return origin != own and origin not in self.allowed

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "websocket":
            if self._foreign(scope):
                await receive()  # the connect message
                await send({"type": "websocket.close", "code": 1008})  # before accept: HTTP 403
                return
        elif scope["type"] == "http":
            refusal = self._refusal(scope)
            if refusal is not None:
                await JSONResponse({"detail": refusal[1]}, status_code=refusal[0])(scope, receive, send)
                return

            async def secured(message) -> None:
                if message["type"] == "http.response.start":
                    message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
                await send(message)

            await self.app(scope, receive, secured)
            return
        await self.app(scope, receive, send)

    def _refusal(self, scope) -> tuple[int, str] | None:
        headers = dict(scope["headers"])
        length = headers.get(b"content-length", b"0")
        if not length.isdigit():
            return 400, "Content-Length must be a whole number"
        if int(length) > MAX_BODY:
            return 413, str(_too_large())
        if scope["method"] in SAFE_METHODS:
            return None
        if self._foreign(scope):
            return 403, "requests from another site are refused (Origin is not this server's)"
        if scope["path"].startswith("/api/") and not headers.get(CSRF_HEADER.encode()):
            return 403, f"a state-changing request needs the header {CSRF_HEADER}: pokerlab"
        return None


def create_app(config: WebConfig) -> FastAPI:
    """The web-table application for `config`, its database opened and migrated (`ConfigError`: cannot),
    its bots seated (`BotFault`: an outside bot cannot start)."""
    database = Database.open(config.database)
    sessions = database.sessions
    store = HandLedger(database)

    voided = store.void_running()
    if voided:
        log.info("%d hand(s) left running by a stopped server are void", voided)
    lobby = Lobby(config, store)  # outside bots start in their sandboxes here (`BotFault`: one did not)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if config.seed is not None:
            log.warning("practice: deals are reproducible (--seed %d); never play for real here", config.seed)
        server.lobby = lobby
        lobby.start()
        try:
            yield
        finally:
            await server.lobby.stop()
            server.accounts.pool.shutdown(wait=False, cancel_futures=True)
            database.engine.dispose()

    app = FastAPI(title="pokerlab web table", lifespan=lifespan, docs_url=None, redoc_url=None)
    server = Server(config, sessions, Accounts(database, config), store)
    app.state.server = server

    @app.exception_handler(AccountError)
    async def refused(_request, exc: AccountError):
        return JSONResponse({"detail": str(exc)}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request, exc: RequestValidationError):
        wrong = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        return JSONResponse({"detail": f"bad request: {wrong}"}, status_code=400)

    app.add_middleware(Guard, allowed=config.allowed_origins)
    app.include_router(router)
    app.add_api_websocket_route("/ws/tables/{table_id}", table_socket)
    if (STATIC / "index.html").is_file():
        app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    else:

        @app.get("/", response_class=HTMLResponse)
        async def placeholder():
            return PLACEHOLDER

    return app
