"""``pokerlab serve``: the web table. Building its parser imports none of the web extra."""

from __future__ import annotations

import argparse

from pokerlab.arena.sandbox import MODES as SANDBOX_MODES
from pokerlab.commandline import (
    int_in,
    seed_arg,
)
from pokerlab.errors import ConfigError


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the web table: people play the bots and each other in a browser, with accounts,
    bankrolls and levels that open as the bankroll grows (Billings et al. 1998 §5)."""
    try:
        from pokerlab.interfaces.web.config import DEFAULT_TABLES, WebConfig, parse_tables
        from pokerlab.interfaces.web.server import serve
    except ImportError as exc:
        raise ConfigError(
            f"pokerlab serve needs the web extra ({exc.name} is missing): pip install 'pokerlab[web]'"
        ) from None
    config = WebConfig(
        database=args.db,
        tables=parse_tables(args.tables or DEFAULT_TABLES),
        seed=args.seed,
        action_seconds=args.action_seconds,
        run_bot_tables=args.run_bot_tables,
        pause_seconds=args.pause_seconds,
        show_thoughts=args.show_thoughts,
        trusted_proxies=tuple(args.trusted_proxy),
        allowed_origins=tuple(args.allow_origin),
        sandbox=args.sandbox,
    )
    serve(config, host=args.host, port=args.port)
    return 0


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """serve."""
    p = subparsers.add_parser("serve", help="run the web table", description=cmd_serve.__doc__)
    p.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, loopback only)"
    )
    p.add_argument("--port", type=int_in(1, 65535, "ports"), default=8000, help="port (default 8000)")
    p.add_argument(
        "--db",
        default="sqlite:///pokerlab-web.db",
        help="database URL: sqlite:///FILE (default sqlite:///pokerlab-web.db) or postgresql://USER@HOST/DB",
    )
    p.add_argument(
        "--tables",
        default=None,
        metavar="SPEC",
        help="tables as LEVEL/SEATS/BOT,BOT,...;... e.g. '10-20/6/loki1,tight-aggressive;20-40/4/loki1' "
        "(levels 10-20, 20-40, 50-100; bots by agent name, see `pokerlab agents`)",
    )
    p.add_argument(
        "--seed",
        type=seed_arg,
        default=None,
        help="practice only: deal reproducibly from this seed, said so in the lobby and log (default: every "
        "hand from a fresh secret seed)",
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="believe X-Forwarded-For/-Proto from this proxy address or network (repeatable; default none)",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another origin (https://poker.example) allowed to use the API and sockets (repeatable; default "
        "the server's own only)",
    )
    p.add_argument(
        "--sandbox",
        choices=SANDBOX_MODES,
        default="required",
        help="where a layer of an outside bot's sandbox (module:Class, file.py:Class) is missing: refuse "
        "(default) or go on, saying so",
    )
    p.add_argument("--action-seconds", type=float, default=20.0, help="a person's time to act (default 20)")
    p.add_argument(
        "--pause-seconds", type=float, default=2.0, help="pause between hands where a person sits (default 2)"
    )
    p.add_argument(
        "--run-bot-tables",
        action="store_true",
        help="tables where no person sits play on (default: they pause)",
    )
    p.add_argument(
        "--show-thoughts",
        action="store_true",
        help="replays show what a bot logged also for hands it did not show down (teaching; default: only "
        "where its cards were seen)",
    )
    p.set_defaults(func=cmd_serve)
