"""The `pokerlab` command line. Each subcommand mirrors an API call; `--json` prints numbers for programs.

Errors print one line (``pokerlab: error: ...``) and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from pokerlab.agents.human import PlayerLeft
from pokerlab.commandline import Parser, UsageError
from pokerlab.errors import BotFault, PokerlabError

#: The modules whose ``add_commands(subparsers)`` make up ``pokerlab``, in the order --help lists them:
#: each next to what it drives (`pokerlab.commandline` says what such a module provides).
COMMAND_MODULES = (
    "pokerlab.analysis.commands",  # rank, analyze, preflop-table, demo
    "pokerlab.arena.commands",  # match, summarize, agents, play
    "pokerlab.programs.commands",  # experiment (every program's)
    "pokerlab.programs.barone_while.commands",  # show-player
    "pokerlab.programs.td.commands",  # train td and its studies
    "pokerlab.evaluation.commands",  # exploit
    "pokerlab.evaluation.evaluate_commands",  # evaluate
    "pokerlab.interfaces.history",  # history replay, export, show
    "pokerlab.interfaces.web.commands",  # serve
    "pokerlab.interfaces.acpc.commands",  # acpc play, dealer, match
)


def build_parser() -> argparse.ArgumentParser:
    """The ``pokerlab`` parser: every command module adds its commands (none imports a player)."""
    parser = Parser(prog="pokerlab", description="A testbed for poker-AI research.")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_commands(subparsers)
    return parser


def _command_parser(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.ArgumentParser:
    """The (sub)parser of the command that `argv` runs (`history export`, `acpc match` ...)."""
    for token in argv:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or token not in subs[0].choices:
            break
        parser = subs[0].choices[token]
    return parser


def in_flags(message: str, parser: argparse.ArgumentParser) -> str:
    """An error message with the Python names of settings (``small_bet``, ``action_timeout``, ``out``) put
    as the command's flags (``--small-bet`` ...), and Python-only advice (``(resume=True)``) left out: the
    person at the command line typed flags."""
    import re

    for action in parser._actions:
        flags = [f for f in action.option_strings if f.startswith("--")]
        if not flags or action.dest in ("help", argparse.SUPPRESS):
            continue
        flag, dest = max(flags, key=len), re.escape(action.dest)
        message = re.sub(rf"\s*\({dest}=[^)]*\)", "", message)
        # a setting that begins the message or a clause of it ("small_bet must be ..."), or that ends it
        # ("... give out")
        message = re.sub(
            rf"(^|[:;] )({dest})(?=\s+(?:must|is|are|continues|takes)\b)", rf"\g<1>{flag}", message
        )
        message = re.sub(rf"(\bgive ){dest}$", rf"\g<1>{flag}", message)
    return message


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `pokerlab` command; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        func: Callable[[argparse.Namespace], int] = args.func
        status = func(args)
        sys.stdout.flush()  # a closed pipe shows up here, inside the try, not at interpreter exit
        return status
    except BrokenPipeError:
        # the reader went away (`pokerlab ... | head -1`): stop quietly, and keep Python's exit-time flush
        # from failing again on the same pipe
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except BotFault as exc:
        print(f"pokerlab: error: {exc}", file=sys.stderr)
        return 1
    except (PokerlabError, UsageError) as exc:
        text = str(exc) if isinstance(exc, UsageError) else in_flags(str(exc), _command_parser(parser, argv))
        print(f"pokerlab: error: {text}", file=sys.stderr)
        return 2
    except OSError as exc:  # a results folder or file that cannot be made or read, for every command
        where = f" {exc.filename}" if exc.filename else ""
        print(f"pokerlab: error: cannot use{where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pokerlab: interrupted", file=sys.stderr)
        return 130
    except PlayerLeft:  # a human agent in a match reached the end of its input (play handles it itself)
        print("pokerlab: error: end of input: the human player left the match", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())


if __name__ == "__main__":
    sys.exit(main())
