"""`pokerlab evaluate RESULTS --method luck`: raw and variance-reduced sb/hand of a results folder."""

from __future__ import annotations

import argparse
import json

from pokerlab.arena.output import finite_json
from pokerlab.commandline import int_in, seed_arg
from pokerlab.evaluation import luck
from pokerlab.evaluation.core import value_digest
from pokerlab.evaluation.luck import DEFAULT_SAMPLES, luck_of_folder
from pokerlab.evaluation.stats import estimator_row, report_table

#: The value function of the luck adjustment, as the report names it.
LUCK_VALUE = "all-in equity (exact post-flop, {samples} fresh boards pre-flop)"


def cmd_evaluate(args: argparse.Namespace) -> int:
    """Evaluate a `pokerlab match` results folder: each seat's raw sb/hand and its luck-adjusted sb/hand
    (the value of the cards dealt taken off), with 95 % CIs over the units of the match (deals in a
    duplicate match, else hands), the SD ratio, the variance removed and the unbiasedness z of mean(X - u)."""
    data = luck_of_folder(args.results, seed=args.seed, samples=args.samples)
    value = LUCK_VALUE.format(samples=args.samples)
    digest = value_digest("luck", {"samples": args.samples}, luck)
    rows = {}
    for j, label in enumerate(data.labels):
        raw, adjusted = data.raw[:, j], data.adjusted[:, j]
        rows[label] = [
            estimator_row(name, function, x, raw, data.units, data.small_bet, data.big_blind, args.seed)
            for name, function, x in (("raw", "none", raw), ("luck", value, adjusted))
        ]
    units = len(set(data.units.tolist()))
    if args.json:
        report = {
            "results": str(args.results),
            "method": args.method,
            "seed": args.seed,
            "samples": args.samples,
            "value_function": value,
            "value_digest": digest,
            "hands": int(data.raw.shape[0]),
            "units": units,
            "duplicate": data.duplicate,
            "seats": {label: [r.to_json() for r in seat_rows] for label, seat_rows in rows.items()},
        }
        print(json.dumps(finite_json(report)))
    else:
        print(report_table(rows, units, int(data.raw.shape[0])))
        print(f"luck: {value}, digest {digest}; seed {args.seed}")
    return 0


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """evaluate."""
    p = subparsers.add_parser(
        "evaluate", help="variance-reduced results of a results folder", description=cmd_evaluate.__doc__
    )
    p.add_argument("results", help="a results folder of `pokerlab match`")
    p.add_argument("--method", choices=["luck"], default="luck", help="the estimator (default luck)")
    p.add_argument(
        "--samples",
        type=int_in(1, 10**7, "samples"),
        default=DEFAULT_SAMPLES,
        help=f"random boards per pre-flop equity (default {DEFAULT_SAMPLES})",
    )
    p.add_argument("--seed", type=seed_arg, default=0, help="seed of the pre-flop boards (default 0)")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=cmd_evaluate)
