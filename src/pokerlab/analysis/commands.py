"""The commands on hands and cards: ``pokerlab rank``, ``analyze``, ``preflop-table`` and ``demo``."""

from __future__ import annotations

import argparse
import json
import sys

import numba

from pokerlab.analysis.assessment import assess
from pokerlab.analysis.income_rate import DEFAULT_SEED, shipped_table, simulate_table, write_table
from pokerlab.cards import format_cards, parse_cards
from pokerlab.commandline import (
    int_in,
    seed_arg,
)
from pokerlab.errors import ConfigError, PokerlabError
from pokerlab.evaluator import best_five, describe, evaluate
from pokerlab.handclass import NUM_CLASSES
from pokerlab.holdings import load_weights


def _rank_report(text: str) -> dict:
    codes = parse_cards(text)
    rank = evaluate(codes)
    info = describe(rank)
    return {
        "cards": format_cards(codes),
        "rank": rank,
        "category": info.category.label,
        "description": info.description,
        "best_five": format_cards(best_five(codes)),
    }


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
    """A short demonstration: rank seeded random hands and famous ones, then assess the example of Billings
    et al. 1998."""
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
    report = assess("Ad Qc", "3h 4c Jh").to_dict()
    print("Billings et al. (1998), Table 2: Ad Qc on 3h 4c Jh against one opponent:")
    print(
        f"  ahead {report['ahead']:g}, tied {report['tied']:g}, behind {report['behind']:g}: "
        f"HS {report['hand_strength']:.3f}; Ppot {report['ppot2']:.3f}, Npot {report['npot2']:.3f}; "
        f"EHS' {report['ehs_optimistic']:.3f}"
    )
    return 0


def cmd_analyze(args: argparse.Namespace) -> int:
    """Hand strength, HS_n, potential (3x3 tables, Ppot, Npot) and EHS of hole cards on a board."""
    weights = load_weights(args.weights) if args.weights else None
    report = assess(args.hole, args.board, weights, args.opponents).to_dict()
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"{format_cards(parse_cards(args.hole))} on {format_cards(parse_cards(args.board))}, "
        f"{args.opponents} opponent(s){', weighted' if weights is not None else ''}"
    )
    print(
        f"  ahead {report['ahead']:g}, tied {report['tied']:g}, behind {report['behind']:g}: "
        f"HS {report['hand_strength']:.3f}, HS_n {report['hs_n']:.3f}"
    )
    for cards in ("2", "1"):
        if report["potential" + cards] is not None:
            ppot, npot = report["ppot" + cards], report["npot" + cards]
            print(f"  {cards} card(s) to come: Ppot {ppot:.3f}, Npot {npot:.3f}")
            for name, row in zip(("ahead", "tied", "behind"), report["potential" + cards], strict=True):
                print(f"    now {name:<6} -> " + "  ".join(f"{x:>10g}" for x in row))
    print(f"  EHS {report['ehs']:.3f}, EHS' {report['ehs_optimistic']:.3f}")
    return 0


def cmd_preflop_table(args: argparse.Namespace) -> int:
    """Pre-flop income rates x 1000 of the 169 starting-hand types: the shipped table, or (with --games) a new
    simulation on every core."""
    if args.games is None:
        if args.write:
            raise ConfigError("--write needs --games: it writes a newly simulated table")
        table = shipped_table(args.players)
    else:
        if args.write and not args.force:
            _check_replaces_shipped(args.players, args.games)
        if args.workers is not None:
            if not 1 <= args.workers <= numba.config.NUMBA_NUM_THREADS:
                raise ConfigError(f"--workers is 1 to {numba.config.NUMBA_NUM_THREADS}; got {args.workers}")
            numba.set_num_threads(args.workers)
        table = simulate_table(args.players, args.games, args.seed, progress=True)
        if args.write:
            print(f"wrote {write_table(table)}", file=sys.stderr)
    if args.json:
        print(json.dumps(table.to_dict()))
        return 0
    ranks = "23456789TJQKA"
    print(
        f"Income rates x 1000, {table.players} players, {table.games:,} games per type "
        "(row > column: suited, row < column: offsuit)"
    )
    print("   " + "".join(f"{r:>6}" for r in ranks))
    for rank, row in zip(ranks, table.grid(), strict=True):
        print(f"{rank:>3}" + "".join(f"{x:>6}" for x in row))
    return 0


def _check_replaces_shipped(players: int, games: int) -> None:
    """Refuse to replace a shipped table by one simulated with fewer games (unless --force)."""
    try:
        shipped = shipped_table(players)
    except PokerlabError:
        return  # a missing or unreadable table may always be made again
    if games < shipped.games:
        raise ConfigError(
            f"--games {games:,} is fewer than the {shipped.games:,} games per type of the shipped "
            f"{players}-player table; --write replaces it only with at least as many (or add --force)"
        )


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """rank, analyze, preflop-table and demo."""
    p = subparsers.add_parser("rank", help="rank 5-7 card hands", description=cmd_rank.__doc__)
    p.add_argument("hands", nargs="+", help='cards of a hand, e.g. "As Ks Qs Js Ts 2c 3d"')
    p.add_argument("--json", action="store_true", help="one JSON object per hand")
    p.set_defaults(func=cmd_rank)
    p = subparsers.add_parser(
        "analyze", help="hand strength, potential and EHS", description=cmd_analyze.__doc__
    )
    p.add_argument("hole", help='our two hole cards, e.g. "Ad Qc"')
    p.add_argument("board", help='the flop, turn or river, e.g. "3h 4c Jh"')
    p.add_argument(
        "--opponents",
        type=int_in(1, 9, "opponents"),
        default=1,
        help="active opponents n of HS_n, 1 to 9 (default 1)",
    )
    p.add_argument(
        "--weights",
        metavar="FILE",
        help="opponent weight table: 1,326 numbers (.npy, text or JSON), pokerlab.holdings order",
    )
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=cmd_analyze)
    p = subparsers.add_parser(
        "preflop-table", help="pre-flop income-rate tables", description=cmd_preflop_table.__doc__
    )
    p.add_argument("--players", type=int, required=True, help="players at the table, 2 to 10")
    p.add_argument("--games", type=int, help="simulate this many games per type (the paper: 1000000)")
    p.add_argument(
        "--seed",
        type=seed_arg,
        default=DEFAULT_SEED,
        help=f"random seed, integer >= 0 (default {DEFAULT_SEED})",
    )
    p.add_argument("--workers", type=int, help="threads to simulate on (default: every core)")
    p.add_argument("--write", action="store_true", help="store the simulated table as the shipped one")
    p.add_argument(
        "--force",
        action="store_true",
        help="with --write: replace the shipped table even with fewer games per type than it has",
    )
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=cmd_preflop_table)
    p = subparsers.add_parser("demo", help="a short demonstration", description=cmd_demo.__doc__)
    p.add_argument(
        "--hands", type=int_in(0, 1000, "hands"), default=5, help="random hands to deal, 0-1000 (default 5)"
    )
    p.add_argument("--seed", type=seed_arg, default=2026, help="random seed, an integer >= 0 (default 2026)")
    p.set_defaults(func=cmd_demo)
