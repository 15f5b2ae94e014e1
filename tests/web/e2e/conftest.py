"""The web table end to end: `pokerlab serve` in a subprocess, driven by Debian's Chromium through Playwright.

No browser build is ever downloaded (never `playwright install`): the tests use /usr/bin/chromium, which
`make test` installs with apt-get when it is missing. Where the browser or Playwright is missing the tests
skip with the reason, except under CI (env CI or CHROMIUM_REQUIRED, which `make test` sets), where they fail.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: The table the tests sit at: 10-20, four seats, Loki-2 with probability triples (fast, and it logs its
#: thoughts) and two stereotypes; a 20-40 table stays closed to a new account.
TABLES = "10-20/4/loki2-triples,tight-aggressive,loose-passive;20-40/3/tight-aggressive"
SERVER_START_SECONDS = 60
#: A person's time to act at the test server, in seconds (the table test checks its countdown is within 15).
ACTION_SECONDS = 15


def _required() -> bool:
    flags = (os.environ.get(name, "").strip().lower() for name in ("CI", "CHROMIUM_REQUIRED"))
    return any(flag not in ("", "0", "false") for flag in flags)


def _missing(reason: str) -> None:
    """Fail under CI (the browser must be there), skip with the reason elsewhere."""
    if _required():
        pytest.fail(f"{reason} (CI / CHROMIUM_REQUIRED is set, so the e2e tests fail rather than skip)")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pokerlab_command() -> list[str]:
    script = Path(sys.executable).with_name("pokerlab")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pokerlab.interfaces.cli"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The base URL of a fresh `pokerlab serve` on a free loopback port with its own SQLite file."""
    folder = tmp_path_factory.mktemp("web-server")
    port = _free_port()
    command = _pokerlab_command() + [
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{folder / 'web.db'}",
        "--tables",
        TABLES,
        "--seed",
        "7",
        "--action-seconds",
        str(ACTION_SECONDS),
        "--pause-seconds",
        "0.3",
        "--show-thoughts",  # the replayer's test needs a bot's thoughts in a few hands, shown down or not
    ]
    log = open(folder / "server.log", "w+b")  # noqa: SIM115 (closed below)
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_SECONDS
        while True:
            if process.poll() is not None:
                log.seek(0)
                output = log.read().decode(errors="replace")
                raise AssertionError(f"pokerlab serve exited with {process.returncode}:\n{output}")
            try:
                with urllib.request.urlopen(f"{url}/api/tables", timeout=2):
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    raise AssertionError(f"pokerlab serve silent for {SERVER_START_SECONDS} s") from None
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.seek(0)
        tail = log.read().decode(errors="replace")[-4000:]
        log.close()
        print(f"--- pokerlab serve log (tail) ---\n{tail}")


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (Debian's binary; Playwright gives it a fresh temporary profile)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright for Python is missing (pip install playwright; never `playwright install`)")
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        _missing(f"no Chromium at {CHROMIUM} (make browser installs Debian's chromium with apt-get)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser):
    """A tab in a new context (no cookies), 1280x800, downloads accepted; any uncaught script error in it,
    or anything its Content-Security-Policy refused (an inline script or style, say), fails the test."""
    context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    yield page
    context.close()
    assert not errors, f"script errors in the page: {errors}"
