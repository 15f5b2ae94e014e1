"""The pieces every command module shares (`pokerlab.interfaces.cli` lists those modules): one-line usage
errors, integer and seed arguments, the progress option.

A command module exposes ``add_commands(subparsers)``, which adds its parsers with
``set_defaults(func=...)``; ``func(args)`` returns the exit status. Errors are `PokerlabError`s (or
`UsageError`), which the CLI prints as one line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable


class UsageError(Exception):
    """A command line that does not parse or combines options that do not go together."""


#: Seeds are integers 0 .. 2**63 - 1 (numpy's seed sequences take any integer >= 0; the income-rate
#: simulation mixes the seed into 64-bit streams).
MAX_SEED = 2**63 - 1


def int_in(low: int, high: int, what: str, high_text: str | None = None) -> Callable[[str], int]:
    """An argparse type: an integer low..high, or one clear line naming the allowed range."""
    allowed = f"{what} are integers {low} to {high_text or high}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{allowed}; got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{allowed}; got {value}")
        return value

    parse.__name__ = what  # argparse names the type in some messages
    return parse


#: The argparse type of every --seed.
seed_arg = int_in(0, MAX_SEED, "seeds", "2**63 - 1")


class Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing a usage block, so every error is one line."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see: {self.prog} --help)")


def show_progress(args: argparse.Namespace) -> bool:
    """Show the progress bar (stderr: hands done, hands/s, time left) when asked, by default when stderr is
    a terminal: also with --json, whose numbers go to stdout; never into a log file or a pipe."""
    return sys.stderr.isatty() if args.progress is None else args.progress


def progress_lines(args: argparse.Namespace):
    """Where a long command's progress lines go: stderr, when `show_progress` says to show progress."""
    return (lambda line: print(line, file=sys.stderr, flush=True)) if show_progress(args) else None


def add_progress_option(p: argparse.ArgumentParser) -> None:
    """--progress / --no-progress (`show_progress` reads it)."""
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr, updated twice a second (default: when stderr is a terminal)",
    )


def add_game_options(p: argparse.ArgumentParser) -> None:
    """The game of a match: --seed, --small-bet, --stack, --no-cap-heads-up."""
    p.add_argument("--seed", type=seed_arg, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument("--small-bet", type=int, default=10, help="small bet in chips (default 10)")
    p.add_argument("--stack", type=int, default=None, help="real stacks in chips (default unlimited)")
    p.add_argument("--no-cap-heads-up", action="store_true", help="no raise cap while two players remain")
