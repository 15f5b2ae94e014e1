"""``pokerlab experiment NAME``: the papers' experiments of every program, by name. The names map to entry
strings, so building the parser imports no program."""

from __future__ import annotations

import argparse
import importlib
import json
from collections.abc import Callable

from pokerlab.arena.backend import add_backend_options, backend_of
from pokerlab.arena.output import finite_json
from pokerlab.commandline import (
    UsageError,
    add_progress_option,
    seed_arg,
    show_progress,
)
from pokerlab.errors import ConfigError

#: Every experiment `pokerlab experiment` offers: name -> where it lives ("module:function", imported when
#: it runs). Adding one is a line here.
EXPERIMENTS = {
    "loki-ablation": "pokerlab.programs.loki1.experiments:loki_ablation",
    "loki-components": "pokerlab.programs.loki1.experiments:loki_components",
    "loki-vs-styles": "pokerlab.programs.loki1.experiments:loki_vs_styles",
    "loki2": "pokerlab.programs.loki2.experiments:loki2_experiment",
    "bw-1": "pokerlab.programs.barone_while.experiments:bw_1",
    "bw-2": "pokerlab.programs.barone_while.experiments:bw_2",
    "bw-3": "pokerlab.programs.barone_while.experiments:bw_3",
}
#: Barone & While's experiments count epochs, not deals.
EVOLVING = ("bw-1", "bw-2", "bw-3")
#: The experiments that take a --reading of the Fig 1 field, and the readings
#: (`pokerlab.programs.loki1.FIG1_READINGS`; a test keeps the two alike).
READABLE = ("loki-ablation", "loki-components")
READINGS = ("ours", "generic", "betting-1998", "lokibot-1998", "no-showdown-odds", "no-semi-bluff")


def experiment(name: str) -> Callable:
    """The function of experiment `name` (its program's experiments module imported now)."""
    module, _, function = EXPERIMENTS[name].partition(":")
    return getattr(importlib.import_module(module), function)


def cmd_experiment(args: argparse.Namespace) -> int:
    """Run one of the papers' experiments and report it: Loki's (duplicate, pooled per player kind; loki2:
    Peña's design) or Barone & While's (epochs of an evolving player: bw-1, bw-2, bw-3)."""
    from pokerlab.programs.barone_while.config import parse_settings

    evolving = args.name in EVOLVING
    given = {
        "--deals": args.deals,
        "--epochs": args.epochs,
        "--runs": args.runs,
        "--player": args.player,
        "--set": args.set,
    }
    wrong = [k for k, v in given.items() if v is not None and (k == "--deals") == evolving]
    if args.player and args.name != "bw-3":
        wrong.append("--player")
    if wrong or (evolving and args.resume):
        bad = wrong[0] if wrong else "--resume"
        raise UsageError(f"{bad} does not apply to experiment {args.name}")
    for name in ("deals", "epochs", "runs"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise UsageError(f"--{name} must be a positive integer, got {value}")
    if evolving:
        kwargs = {
            k: v for k, v in (("epochs", args.epochs), ("runs", args.runs), ("players", args.player)) if v
        }
        options = {"config": parse_settings(args.set or "")}
    else:
        kwargs = {"deals": args.deals} if args.deals is not None else {}
        options = {"resume": args.resume}
    if args.reading is not None:
        if args.name not in READABLE:
            raise ConfigError(f"--reading applies to {' and '.join(READABLE)}, not {args.name}")
        kwargs["reading"] = args.reading
    if args.only is not None:
        if args.name != "loki2":
            raise ConfigError(f"--only chooses loki2 match-ups; experiment {args.name!r} has none")
        kwargs["only"] = args.only
    result = experiment(args.name)(
        seed=args.seed,
        workers=backend_of(args),
        out=args.out,
        progress=show_progress(args),
        **options,
        **kwargs,
    )
    if args.json:
        print(json.dumps(finite_json(result.to_json()), allow_nan=False))
        return 0
    if evolving:
        print("\n".join(result.lines))
        if result.out:
            print(f"results in {result.out} (summary.json, epochs.json, PNG plots, evolved players .npz)")
        return 0
    print(f"{args.name}: {result.deals} deals, {result.hands} hands, seed {args.seed}")
    width = max(22, 2 + max(len(r.agent) for r in result.results))
    print(f"{'agent':<{width}}{'hands':>9}{'sb/hand':>10}  95% CI (sb/hand)")
    for r in sorted(result.results, key=lambda r: -r.sb_per_hand):
        print(f"{r.agent:<{width}}{r.hands:>9}{r.sb_per_hand:>+10.3f}  [{r.ci95[0]:+.3f}, {r.ci95[1]:+.3f}]")
    if result.out:
        files = (
            "loki2.png, loki2_summary.json"
            if args.name == "loki2"
            else "pooled_bankroll.png, pooled_summary.json"
        )
        print(f"results in {result.out} ({files})")
    return 0


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """experiment."""
    p = subparsers.add_parser(
        "experiment", help="reproduce a paper's experiment", description=cmd_experiment.__doc__
    )
    p.add_argument("name", choices=sorted(EXPERIMENTS), help="which experiment")
    p.add_argument(
        "--deals",
        type=int,
        default=None,
        help="duplicate deals (default: 10000 for the ablation, 2000 for the components and the styles, "
        "2500 per loki2 match-up)",
    )
    p.add_argument(
        "--reading",
        choices=READINGS,
        default=None,
        help="how the Loki-1 field reads Billings et al. 1998 (loki-ablation, loki-components; default "
        "no-showdown-odds, see docs/results/loki-fig1-fidelity)",
    )
    p.add_argument(
        "--only",
        default=None,
        help="loki2 match-ups, comma-separated: betting, reweighting, triples, simulation, sim-call",
    )
    p.add_argument("--epochs", type=int, default=None, help="bw-*: epochs of 100 hands (default 1000)")
    p.add_argument("--runs", type=int, default=None, help="bw-*: independent runs, seeds seed.. (5, 1, 3)")
    p.add_argument(
        "--player", action="append", default=None, help="bw-3: an evolved-A file of bw-2 (repeatable)"
    )
    p.add_argument(
        "--set", default=None, help="bw-*: evolving-player switches, e.g. multiway_x=single,sigma=0.1"
    )
    p.add_argument("--seed", type=seed_arg, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument("--workers", type=int, default=1, help="parallel processes (results do not depend on it)")
    add_backend_options(p)
    p.add_argument("--out", default=None, help="results folder")
    p.add_argument("--json", action="store_true", help="print the pooled results as one JSON object")
    p.add_argument("--resume", action="store_true", help="continue a killed run in --out (same command)")
    add_progress_option(p)
    p.set_defaults(func=cmd_experiment)
