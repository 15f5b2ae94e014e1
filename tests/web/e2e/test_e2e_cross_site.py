"""Cross-site play in a real Chromium (issue 25): a page from another origin (another loopback port of the
same host, so the browser counts it as the same site and sends the SameSite=Strict cookie), opened by a
logged-in person, can neither sit them down, read their cards or hands, nor act or stand up for them.
"""

from __future__ import annotations

import http.server
import threading

import pytest

pytestmark = pytest.mark.e2e

#: What the other site's script tries, with the person's cookie: sit down (a "simple" no-cors POST that
#: needs no preflight, and a CORS one with the CSRF header), read, open the table's socket and fold, leave.
ATTACK = """async ([server, table, seated]) => {
    const out = {};
    const attempt = async (name, work) => {
        try { out[name] = await work(); } catch (err) { out[name] = `refused: ${err.name}`; }
    };
    const post = (path, init) => fetch(server + path, {method: 'POST', credentials: 'include', ...init});
    await attempt('sit_simple', () => post(`/api/tables/${table}/sit`, {mode: 'no-cors', body: '{}',
        headers: {'Content-Type': 'text/plain'}}).then((r) => r.type));
    await attempt('sit_cors', () => post(`/api/tables/${table}/sit`, {body: '{}',
        headers: {'Content-Type': 'application/json', 'X-Requested-With': 'p'}}).then((r) => r.status));
    await attempt('read', () => fetch(server + '/api/me', {credentials: 'include'}).then((r) => r.text()));
    const leave = () => post(`/api/tables/${table}/leave`, {mode: 'no-cors'}).then((r) => r.type);
    if (seated) await attempt('leave', leave);
    out.socket = await new Promise((done) => {
        const frames = [];
        let opened = false;
        const ws = new WebSocket(server.replace('http', 'ws') + `/ws/tables/${table}`);
        ws.onopen = () => { opened = true; ws.send(JSON.stringify({type: 'act', action: 'fold'})); };
        ws.onmessage = (e) => frames.push(e.data);
        ws.onclose = () => done({opened, frames});
        setTimeout(() => { ws.close(); done({opened, frames}); }, 5000);
    });
    return out;
}"""


class Blank(http.server.BaseHTTPRequestHandler):
    """The other site: one blank page."""

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        body = b"<!doctype html><title>free chips</title><p>Nothing to see."
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def other_site():
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Blank)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{site.server_address[1]}"
    site.shutdown()
    site.server_close()


def me(page, server: str) -> dict:
    """GET /api/me from a tab on the server's own origin."""
    return page.evaluate("(url) => fetch(url + '/api/me').then((r) => r.json())", server)


def test_a_page_of_another_origin_can_neither_sit_read_nor_act(page, server, other_site):
    page.goto(f"{server}/#/signup")
    page.get_by_label("Name").fill("mallory-victim")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Sign up").click()
    page.get_by_role("heading", name="Lobby").wait_for()
    assert "deals are reproducible" in page.get_by_test_id("practice").inner_text()  # the server has --seed 7
    evil = page.context.new_page()
    evil.goto(other_site)

    first = evil.evaluate(ATTACK, [server, 1, False])
    assert me(page, server)["table"] is None, first  # not sat down
    assert first["sit_cors"].startswith("refused") and first["read"].startswith("refused"), first
    assert first["socket"] == {"opened": False, "frames": []}, first

    # seated by their own page, the person stays seated, and the other site still sees nothing
    page.get_by_test_id("sit-1").click()
    page.get_by_test_id("act-fold").wait_for()
    second = evil.evaluate(ATTACK, [server, 1, True])
    assert me(page, server)["table"] == 1, second  # not stood up
    assert second["socket"] == {"opened": False, "frames": []}, second  # no cards read, no fold sent
    assert second["read"].startswith("refused"), second
    # leaving mid-hand: once the hand is booked, the header shows the bankroll the server holds
    page.get_by_role("button", name="Leave the table").click()
    page.get_by_role("heading", name="Lobby").wait_for()  # (the page fixture fails on any CSP violation)
    page.wait_for_function(
        """(url) => fetch(url + '/api/me').then((r) => r.json()).then((m) => m.table === null
            && document.getElementById('me-bankroll').textContent === m.bankroll.toLocaleString('en-US'))""",
        arg=server,
        timeout=30_000,
    )
    page.get_by_role("button", name="Log out everywhere").click()
    page.get_by_role("heading", name="Log in").wait_for()
    assert me(page, server) == {"detail": "log in first"}
