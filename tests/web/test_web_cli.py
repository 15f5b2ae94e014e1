"""`pokerlab serve`'s command line and the web table's configuration: one-line errors, exit 2, and the web
dependencies loaded only by the web table."""

from __future__ import annotations

import builtins
import subprocess
import sys

import pytest

from pokerlab.errors import ConfigError
from pokerlab.interfaces.cli import main
from pokerlab.interfaces.web.config import LEVELS, WebConfig, level_named, parse_tables


def test_levels_are_the_papers():
    """Billings et al. 1998 §5: 10-20 from the start, 20-40 from 2,000, 50-100 from 5,000."""
    assert [(lv.name, lv.small_bet, lv.big_bet, lv.threshold) for lv in LEVELS] == [
        ("10-20", 10, 20, 0),
        ("20-40", 20, 40, 2000),
        ("50-100", 50, 100, 5000),
    ]


def test_table_specs_parse_and_refuse_with_one_clear_line():
    (a, b) = parse_tables("10-20/6/loki1,tight-aggressive; 50-100/2/call")
    assert (a.level, a.seats, a.bots) == ("10-20", 6, ("loki1", "tight-aggressive"))
    assert (b.level, b.seats, b.bots) == ("50-100", 2, ("call",))
    for text, words in (
        ("10-20/6", "LEVEL/SEATS/BOT"),
        ("30-60/6/call", "unknown level '30-60'"),
        ("10-20/11/call", "2 to 10 seats"),
        ("10-20/x/call", "whole number"),
        ("10-20/6/nobody", "unknown agent 'nobody'"),
        (" ; ", "no tables"),
    ):
        with pytest.raises(ConfigError, match=words):
            parse_tables(text)
    with pytest.raises(ConfigError, match="unknown level"):
        level_named("1-2")


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("database", "pokerlab.db", "SQLAlchemy URL"),
        ("action_seconds", 0, "positive"),
        ("pause_seconds", -1, ">= 0"),
        ("max_frame_bytes", 10, ">= 64"),
        ("seed", -3, "integer >= 0"),
        ("run_bot_tables", "yes", "true or false"),
        ("hash_share", 0, "share of the time"),
        ("trusted_proxies", ("proxy.example",), "IP address or network"),
        ("allowed_origins", ("poker.example/",), "scheme://host"),
    ],
)
def test_web_config_refuses_bad_values(field, value, words):
    with pytest.raises(ConfigError, match=words):
        WebConfig(**{field: value})


def test_serve_errors_are_one_line_and_exit_2(capsys):
    assert main(["serve", "--tables", "10-20/1/call"]) == 2
    assert main(["serve", "--db", "nowhere"]) == 2
    assert main(["serve", "--port", "70000"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 3 and all(line.startswith("pokerlab: error: ") for line in lines)
    assert "2 to 10 seats" in lines[0] and "SQLAlchemy URL" in lines[1] and "ports" in lines[2]


def test_serve_without_the_web_extra_names_it(monkeypatch, capsys):
    real_import = builtins.__import__

    def no_fastapi(name, *args, **kwargs):
        if name == "pokerlab.interfaces.web.server" or name.startswith("fastapi"):
            raise ModuleNotFoundError("No module named 'fastapi'", name="fastapi")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_fastapi)
    assert main(["serve"]) == 2
    assert "pip install 'pokerlab[web]'" in capsys.readouterr().err


def test_pokerlab_and_its_other_commands_never_load_the_web_stack():
    code = (
        "import sys, pokerlab, pokerlab.interfaces.cli as cli; cli.build_parser(); "
        "web = ('fastapi', 'uvicorn', 'sqlalchemy', 'alembic', 'argon2'); "
        "print(sorted(m for m in web if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_postgresql_without_its_driver_names_the_extra(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as on a machine without it: importing it fails
    assert main(["serve", "--db", "postgresql://poker@127.0.0.1/poker"]) == 2
    assert "pip install 'pokerlab[postgres]'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("url", "words"),
    [
        (
            "postgresql://poker:secret@127.0.0.1:1/poker",
            "cannot use the database postgresql://poker:***@127.0.0.1:1",
        ),
        (
            "sqlite:////proc/no-such-folder/web.db",
            "cannot use the database sqlite:////proc/no-such-folder/web.db",
        ),
        ("mysql+nodriver://x/y", "cannot use the database mysql+nodriver://x/y"),
    ],
)
def test_serve_database_problems_are_one_line_and_exit_2(url, words, capsys):
    """An unreachable PostgreSQL (its password hidden), an unwritable SQLite path, an unsupported scheme."""
    pytest.importorskip("psycopg")
    assert main(["serve", "--db", url, "--tables", "10-20/2/call"]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"pokerlab: error: {words}"), captured.err
    assert "secret" not in captured.err and "Traceback" not in captured.err + captured.out


def test_a_bots_label_names_its_seat_and_its_account(tmp_path):
    """ "me=loki1" at a web table: the seat reads "me" (a repeat "me #2"), the bot's account "me (bot)"."""
    from sqlalchemy import select

    from pokerlab.interfaces.web.db import Database, User
    from pokerlab.interfaces.web.store import HandLedger
    from pokerlab.interfaces.web.tables import Table

    (spec,) = parse_tables("10-20/4/me=call,raise")
    assert spec.bots == ("me=call", "raise")
    database = Database(f"sqlite:///{tmp_path / 'web.db'}")
    database.migrate()
    table = Table(1, spec, WebConfig(seed=1), HandLedger(database))
    try:
        assert [s.bot_name for s in table.seats] == ["me", "raise", "me #2", "raise #2"]
        assert [s.bot for s in table.seats] == ["call", "raise", "call", "raise"]
        with database.sessions() as db:
            assert set(db.scalars(select(User.name).where(User.kind == "bot"))) == {"me (bot)", "raise (bot)"}
    finally:
        table.close()
        database.engine.dispose()
    with pytest.raises(ConfigError, match="a label is 1 to 24"):
        parse_tables("10-20/2/<b>=call")
