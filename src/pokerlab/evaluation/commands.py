"""The ``pokerlab exploit`` command: how much a best response wins against a strategy, in mbb/g.

``add_commands(subparsers)`` adds the command's parser (the CLI calls it); errors are `PokerlabError`s,
which the CLI prints as one line (exit status 2).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

from pokerlab.arena.backend import add_backend_options, backend_of
from pokerlab.commandline import add_progress_option, progress_lines, seed_arg
from pokerlab.engine import GameConfig
from pokerlab.errors import ConfigError

_EXPLOIT_DOC = """Exact best response to strategies that ignore their cards (Johanson et al. 2011):
--exact call, fold, raise or a mix such as call=0.5,raise=0.5 (repeatable; all are computed in one pass
over the boards, about two minutes on two cores for the four of Johanson et al.'s Table 1). Prints
milli-big-blinds per game (mbb/g), the mean over the best responder's two seats. Results are kept in the
user's cache folder, so asking again is instant (--no-cache recomputes).

Local best response (Lisý & Bowling 2017): pokerlab exploit BOT --hands N plays LBR against BOT (a player
that answers the all-holdings policy query: call, raise, fold, random, the stereotypes) on N duplicate
deals through the arena and prints what LBR wins in mbb/g with its 95 % confidence interval: a lower bound
on BOT's exploitability (Loki-1 and the TD players answer it too).

Exploitation ratio: pokerlab exploit BOT --against OPPONENT --hands N plays BOT against OPPONENT on N
duplicate deals and prints what BOT wins in mbb/g and, for a card-blind OPPONENT (fold, call, raise,
mix:call=0.5/raise=0.5), the share of the exact best response's value that is."""

#: The games by name: ACPC's heads-up limit game (holdem.limit.2p.reverse_blinds: blinds 10 and 5 with the
#: big blind on the first seat, raise sizes 10 10 20 20, maxRaises 3 4 4 4, firstPlayer 2 1 1 1) and ours,
#: the papers' 10/20 game heads-up (docs/getting-started.md). They are the same game: the ACPC game file
#: maps onto our default configuration exactly (tests/interfaces/test_acpc_protocol.py).
GAMES = {"acpc": GameConfig(), "ours": GameConfig()}

#: Bumped whenever the computation changes, so a cached figure from an older version is not reused.
_CACHE_VERSION = 1


def cache_file() -> Path:
    """Where computed best-response values are kept: $XDG_CACHE_HOME/pokerlab (default ~/.cache/pokerlab)."""
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "pokerlab" / "exact-best-response.json"


def _cache_key(config: GameConfig, strategy: str) -> str:
    text = json.dumps([_CACHE_VERSION, config.to_dict(), strategy], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _read_cache(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}  # none yet, or unreadable: computing again is always right
    return data if isinstance(data, dict) else {}


def cmd_lbr(args: argparse.Namespace) -> int:
    from pokerlab.evaluation.lbr import local_best_response

    if args.hands is None or args.hands < 2:
        raise ConfigError("local best response needs --hands N, the duplicate deals to play (2 or more)")
    progress = progress_lines(args)
    result = local_best_response(
        args.bot, args.hands, GAMES[args.game], args.seed, workers=backend_of(args), progress=progress
    )
    if args.json:
        print(json.dumps({"game": args.game, "lbr": result.to_dict()}))
        return 0
    print(f"local best response to {result.target}, game {args.game}: {result.deals} duplicate deals", end="")
    print(f", seed {result.seed}")
    print(f"  LBR wins {result.mbb_per_game:.1f} +- {result.ci95:.1f} mbb/g (95 % CI)")
    print(f"  lower bound on exploitability (one-sided 97.5 %): {result.lower_bound:.1f} mbb/g")
    print(
        f"  per seat, chips per hand: as big blind {result.chips_as_big_blind:.3f}, as button "
        f"{result.chips_as_button:.3f}; {result.seconds:.0f} s"
    )
    return 0


def exact_rows(strategies: list, config: GameConfig, no_cache: bool, progress) -> list[dict]:
    """The exact best response's result (`ExactResult.to_dict`) for each `FixedStrategy`, from the cache
    where it holds them (unless `no_cache`), computed (and kept) otherwise."""
    from pokerlab.evaluation.best_response import exact_best_response

    path = cache_file()
    cache = {} if no_cache else _read_cache(path)
    keys = [_cache_key(config, s.name) for s in strategies]
    todo = [s for s, k in zip(strategies, keys, strict=True) if k not in cache]
    if todo:
        if progress is not None:
            progress(f"exact best response to {', '.join(s.name for s in todo)}: every flop, turn and river")
        for result in exact_best_response(todo, config, progress=progress):
            cache[_cache_key(config, result.strategy.name)] = result.to_dict()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(cache, indent=1))
        except OSError as exc:
            print(f"pokerlab: note: could not keep the results in {path}: {exc.strerror}", file=sys.stderr)
    elif progress is not None:
        progress(f"from the cache {path} (--no-cache recomputes)")
    return [cache[k] for k in keys]


def cmd_ratio(args: argparse.Namespace) -> int:
    from pokerlab.evaluation.exploitation import exploitation, fixed_strategy_of

    if args.hands is None or args.hands < 2:
        raise ConfigError("the exploitation ratio needs --hands N, the duplicate deals to play (2 or more)")
    config = GAMES[args.game]
    progress = progress_lines(args)
    rows = []
    for opponent in args.against:
        strategy = fixed_strategy_of(opponent)
        best = None
        if strategy is not None:
            best = exact_rows([strategy], config, args.no_cache, progress)[0]["mbb_per_game"]
        if progress is not None:
            progress(f"{args.bot} against {opponent}: {args.hands} duplicate deals, seed {args.seed}")
        bar = progress is not None
        found = exploitation(
            args.bot,
            opponent,
            args.hands,
            config,
            args.seed,
            best_response=best,
            workers=backend_of(args),
            progress=bar,
        )
        rows.append(found)
    if args.json:
        print(json.dumps({"game": args.game, "exploitation": [r.to_dict() for r in rows]}))
        return 0
    print(f"{args.bot} online against fixed opponents, game {args.game}: {args.hands} duplicate deals a row")
    header = ("opponent", "won mbb/g", "95 % CI", "best response", "share", "seed")
    print("{:<24} {:>10} {:>8} {:>14} {:>14} {:>5}".format(*header))
    for r in rows:
        best = "" if r.best_response is None else f"{r.best_response:.2f}"
        share = "" if r.ratio is None else f"{r.ratio:.3f} +- {r.ratio_ci95:.3f}"
        print(f"{r.opponent:<24} {r.mbb_per_game:>10.1f} {r.ci95:>8.1f} {best:>14} {share:>14} {r.seed:>5}")
    print("(share: what it won over what the exact best response wins; 1 is a best response)")
    return 0


def cmd_exploit(args: argparse.Namespace) -> int:
    from pokerlab.evaluation.best_response import FixedStrategy

    if args.bot is not None:
        if args.exact:
            raise ConfigError("give a BOT for local best response or --exact strategies, not both")
        return cmd_ratio(args) if args.against else cmd_lbr(args)
    if args.against:
        raise ConfigError("--against needs the BOT that plays those opponents")
    if not args.exact:
        raise ConfigError("give --exact STRATEGY (exact best response) or a BOT with --hands N (LBR)")

    strategies = [FixedStrategy.parse(text) for text in args.exact]
    config = GAMES[args.game]
    rows = exact_rows(strategies, config, args.no_cache, progress_lines(args))
    if args.json:
        print(json.dumps({"game": args.game, "results": rows}))
        return 0
    print(
        f"exact best response, game {args.game} (heads-up limit, blinds 5/10, bets 10/20, a bet and 3 raises)"
    )
    print(f"{'strategy':<24} {'mbb/g':>11} {'as big blind':>13} {'as button':>10} {'seconds':>8}")
    for row in rows:
        print(
            f"{row['strategy']:<24} {row['mbb_per_game']:>11.4f} {row['chips_as_big_blind']:>13.4f} "
            f"{row['chips_as_button']:>10.4f} {row['seconds']:>8.0f}"
        )
    print("(mbb/g: the best responder's mean over both seats; the seats' columns in chips per hand)")
    return 0


def add_commands(subparsers) -> None:
    """Add ``exploit`` to the CLI's subcommands."""
    p = subparsers.add_parser("exploit", help="exploitability (best response)", description=_EXPLOIT_DOC)
    p.add_argument(
        "bot", nargs="?", help="the player local best response plays (e.g. call, tight-aggressive)"
    )
    p.add_argument("--hands", type=int, help="LBR: duplicate deals to play (each twice, seats swapped)")
    p.add_argument("--seed", default=0, type=seed_arg, help="LBR: the seed of the deals (default 0)")
    p.add_argument("--workers", type=int, default=1, help="LBR: processes playing the two seat rotations")
    add_backend_options(p)
    p.add_argument(
        "--against",
        action="append",
        metavar="OPPONENT",
        help="exploitation ratio: BOT plays OPPONENT (e.g. call, raise, mix:call=0.5/raise=0.5, rock) on "
        "--hands duplicate deals; the share of the exact best response's value it wins (repeatable)",
    )
    p.add_argument(
        "--exact",
        action="append",
        metavar="STRATEGY",
        help="a strategy that ignores its cards: fold, call, raise, or a mix like call=0.5,raise=0.5 "
        "(repeatable)",
    )
    p.add_argument(
        "--game",
        choices=sorted(GAMES),
        default="acpc",
        help="acpc: ACPC's holdem.limit.2p.reverse_blinds (default); ours: the papers' 10/20 game, the same",
    )
    p.add_argument("--json", action="store_true", help="print the results as one JSON object")
    p.add_argument("--no-cache", action="store_true", help="compute again even if the cache holds the figure")
    add_progress_option(p)
    p.set_defaults(func=cmd_exploit)
