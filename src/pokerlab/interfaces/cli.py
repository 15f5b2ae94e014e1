"""The `pokerlab` command line. Each subcommand mirrors an API call; `--json` prints numbers for programs.

Errors print one line (``pokerlab: error: ...``) and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from pokerlab.cards import format_cards, parse_cards
from pokerlab.errors import PokerlabError
from pokerlab.evaluator import best_five, describe, evaluate
from pokerlab.handclass import NUM_CLASSES


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing a usage block, so every error is one line."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(f"{message} (see: {self.prog} --help)")


def _rank_report(text: str) -> dict:
    codes = parse_cards(text)
    rank = evaluate(codes)
    info = describe(rank)
    return {"cards": format_cards(codes), "rank": rank, "category": info.category.label,
            "description": info.description, "best_five": format_cards(best_five(codes))}


def cmd_rank(args: argparse.Namespace) -> int:
    """Rank each hand given; print its description (or one JSON object per hand)."""
    reports = [_rank_report(text) for text in args.hands]
    for r in reports:
        if args.json:
            print(json.dumps(r))
        else:
            print(f"{r['cards']}: {r['description']} [{r['best_five']}] (rank {r['rank']} of {NUM_CLASSES})")
    if len(reports) > 1 and not args.json:
        best = max(r["rank"] for r in reports)
        winners = [r["cards"] for r in reports if r["rank"] == best]
        print(("wins: " if len(winners) == 1 else "split: ") + " | ".join(winners))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """A short demonstration: deal and rank seeded random hands, then show famous ones."""
    import numpy as np

    from pokerlab.cards import Deck

    rng = np.random.default_rng(args.seed)
    print(f"Seven-card hands dealt with seed {args.seed}:")
    for _ in range(args.hands):
        deck = Deck(rng)
        r = _rank_report(format_cards(deck.deal(7)))
        print(f"  {r['cards']:<22} {r['description']:<40} rank {r['rank']}")
    print("Some named hands:")
    named = ("As Ks Qs Js Ts 2c 3d", "5d 4d 3d 2d Ad Kc Kh", "Kh Kd Ks 5c 5h 2d 3c", "Ah 2s 3c 4d 5h 9c Jd")
    for text in named:
        r = _rank_report(text)
        print(f"  {r['cards']:<22} {r['description']:<40} rank {r['rank']}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pokerlab", description="A testbed for poker-AI research.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("rank", help="rank 5-7 card hands", description=cmd_rank.__doc__)
    p.add_argument("hands", nargs="+", help='cards of a hand, e.g. "As Ks Qs Js Ts 2c 3d"')
    p.add_argument("--json", action="store_true", help="one JSON object per hand")
    p.set_defaults(func=cmd_rank)

    p = sub.add_parser("demo", help="a short demonstration", description=cmd_demo.__doc__)
    p.add_argument("--hands", type=int, default=5, help="random hands to deal (default 5)")
    p.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    p.set_defaults(func=cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `pokerlab` command; returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
        func: Callable[[argparse.Namespace], int] = args.func
        return func(args)
    except (PokerlabError, _UsageError) as exc:
        print(f"pokerlab: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pokerlab: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
