"""`pokerlab evaluate RESULTS... --method luck|divat|aivat|baseline`: raw and variance-reduced sb/hand of
results folders, and an ACPC-style crosstable over several heads-up folders (or a folder of them: a round
robin); and `pokerlab match ... --evaluate METHOD`, which this module adds to the match command (the arena
stands below evaluation, so the flag comes from here)."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pokerlab.arena.output import finite_json
from pokerlab.commandline import int_in, seed_arg
from pokerlab.errors import ConfigError
from pokerlab.evaluation import aivat, baseline, divat, luck
from pokerlab.evaluation.core import value_digest
from pokerlab.evaluation.stats import EstimatorRow, SeatEstimates, estimator_row, report_table

#: The estimators of `pokerlab evaluate`.
METHODS = ("luck", "divat", "aivat", "baseline")
#: The value function of each method, as the report names it.
VALUE_FUNCTIONS = {
    "luck": "all-in equity (exact post-flop, {samples} fresh boards pre-flop), each street's luck weighted "
    "by the number of seats (luck.STREET_WEIGHTS)",
    "divat": "baseline roll-out equity (DIVAT thresholds, {samples} run-outs per state)",
    "aivat": "baseline roll-out equity (DIVAT thresholds, {samples} run-outs per state); imaginary tier: "
    "all-in equity once the baseline finishes the round (" + str(aivat.SAMPLES_PREFLOP) + " boards "
    "pre-flop), the brackets of the pre-flop, flop, turn and river weighted {weights}",
    "baseline": "none: the control agent "
    + baseline.DEFAULT_CONTROL
    + " replays every deal in every position "
    "(beta cross-fitted over two folds of orbits)",
}


@dataclass(frozen=True)
class AivatOptions:
    """AIVAT's choices: the seats that draw each hand's decisions from one uniform (Loki-2's same-u
    selector), and the imaginary tier's weights by round (`aivat.IMAGINARY_WEIGHTS`)."""

    shared_uniform: frozenset[str] = frozenset()
    weights: tuple[float, ...] = aivat.IMAGINARY_WEIGHTS


def imaginary_weights(text: str) -> tuple[float, ...]:
    """--imaginary-weights: "fitted", "plain" or four numbers separated by commas."""
    named = {"fitted": aivat.IMAGINARY_WEIGHTS, "plain": aivat.PLAIN_WEIGHTS}
    if text in named:
        return named[text]
    try:
        weights = tuple(float(w) for w in text.split(","))
        aivat.Imaginary.checked(weights)
    except (ValueError, ConfigError):
        raise argparse.ArgumentTypeError(
            f"{text!r}: give fitted, plain or four finite numbers for the pre-flop, flop, turn and river, "
            "separated by commas (such as 2,2,1.3,1.1)"
        ) from None
    return weights


#: Pre-flop boards (luck) or run-outs (DIVAT, AIVAT) per value, by method.
DEFAULT_SAMPLES = {
    "luck": luck.DEFAULT_SAMPLES,
    "divat": divat.DEFAULT_SAMPLES,
    "aivat": divat.DEFAULT_SAMPLES,
    "baseline": 0,  # the Baseline samples nothing
}


def estimates(
    results: str | Path, method: str, seed: int, samples: int, options: AivatOptions | None = None
) -> tuple[dict[str, SeatEstimates], str, str]:
    """({estimator: per-hand estimates}, the value function's name, its digest) of one results folder."""
    options = options or AivatOptions()
    weights = ",".join(f"{w:g}" for w in options.weights)
    value = VALUE_FUNCTIONS[method].format(samples=samples, weights=weights)
    if method == "luck":
        found = {"luck": luck.luck_of_folder(results, seed=seed, samples=samples)}
        parameters = {"samples": samples, "weights": luck.STREET_WEIGHTS}
        return found, value, value_digest("luck", parameters, luck)
    if method == "baseline":
        found = {"baseline": baseline.baseline_of_folder(results, seed)}
        return found, value, value_digest("baseline", {"control": baseline.DEFAULT_CONTROL}, baseline)
    digest = value_digest("divat", {"samples": samples, "make": divat.MAKE}, divat)
    if method == "divat":
        return {"divat": divat.divat_of_folder(results, seed, samples)}, value, digest
    parameters = {
        "samples": samples,
        "make": divat.MAKE,
        "samples_preflop": aivat.SAMPLES_PREFLOP,
        "weights": list(options.weights),
    }
    digest = value_digest("aivat", parameters, divat, aivat)
    tiers = aivat.aivat_of_folder(results, seed, samples, options.shared_uniform, weights=options.weights)
    return {f"aivat-{tier}": data for tier, data in tiers.items()}, value, digest


def seat_rows(found: dict[str, SeatEstimates], seed: int) -> dict[str, list[EstimatorRow]]:
    """Each seat's raw row and a row per estimator."""
    first = next(iter(found.values()))
    rows = {}
    for j, label in enumerate(first.labels):
        raw = first.raw[:, j]
        rows[label] = [
            estimator_row("raw", "none", raw, raw, first.units, first.small_bet, first.big_blind, seed)
        ]
        rows[label] += [
            estimator_row(name, name, d.adjusted[:, j], raw, d.units, d.small_bet, d.big_blind, seed)
            for name, d in found.items()
        ]
    return rows


def pooled_estimates(
    folders: list[Path], method: str, seed: int, samples: int, options: AivatOptions | None = None
) -> tuple[dict[str, SeatEstimates], str, str]:
    """`estimates` of one folder, or of several folders that are parts of one match (the same agents, other
    seeds: say a long match cut in parts run side by side) pooled into one sample of their units."""
    if len(folders) == 1:
        return estimates(folders[0], method, seed, samples, options)
    parts = [estimates(folder, method, seed, samples, options) for folder in folders]
    dealt: dict[int, Path] = {}
    for folder in folders:  # each read whole above: its config.json is there and sound
        match_seed = json.loads((folder / "config.json").read_text()).get("seed")
        if match_seed in dealt:
            raise ConfigError(
                f"{str(folder)!r} and {str(dealt[match_seed])!r} were dealt from the same seed, "
                f"{match_seed}: pooled parts need other seeds, or their deals count twice"
            )
        if match_seed is not None:
            dealt[match_seed] = folder
    names = [str(folder) for folder in folders]
    estimators = list(parts[0][0])
    for (found, _, _), name in zip(parts, names, strict=True):
        if list(found) != estimators:
            raise ConfigError(
                f"{name!r} gives the estimators {', '.join(found)}, not {', '.join(estimators)}"
            )
    found = {e: SeatEstimates.pooled([part[0][e] for part in parts], names) for e in estimators}
    return found, parts[0][1], parts[0][2]


def evaluate_folder(
    results: list[str | Path],
    method: str,
    seed: int,
    samples: int | None = None,
    options: AivatOptions | None = None,
    as_json: bool = False,
) -> str:
    """The report of a results folder (or of several, pooled as parts of one match: `pooled_estimates`):
    a table (or one JSON object) of each seat's raw and estimated sb/hand with 95 % intervals, SD ratio,
    variance removed and unbiasedness z, naming the value function and its digest."""
    folders = [Path(r) for r in results]
    samples = DEFAULT_SAMPLES[method] if samples is None else samples
    found, value, digest = pooled_estimates(folders, method, seed, samples, options)
    rows = seat_rows(found, seed)
    first = next(iter(found.values()))
    units, hands = len(set(first.units.tolist())), int(first.raw.shape[0])
    if as_json:
        report = {
            "results": str(folders[0]) if len(folders) == 1 else [str(f) for f in folders],
            "method": method,
            "seed": seed,
            "samples": samples,
            "value_function": value,
            "value_digest": digest,
            "hands": hands,
            "units": units,
            "duplicate": first.duplicate,
            "seats": {label: [r.to_json() for r in seat] for label, seat in rows.items()},
        }
        return json.dumps(finite_json(report))
    pooled = f" ({len(folders)} folders pooled)" if len(folders) > 1 else ""
    return report_table(rows, units, hands) + f"\n{method}: {value}, digest {digest}; seed {seed}{pooled}"


def round_robin(folders: list[Path]) -> list[Path]:
    """The results folders named: each folder itself, or, for a folder without config.json, the results
    folders in it (a round robin's pairings)."""
    out = []
    for folder in folders:
        if (folder / "config.json").is_file() or not folder.is_dir():
            out.append(folder)
        else:
            inner = sorted(p for p in folder.iterdir() if (p / "config.json").is_file())
            if not inner:
                raise ConfigError(f"{str(folder)!r} is neither a results folder nor a folder of them")
            out.extend(inner)
    return out


def crosstable(
    folders: list[Path], method: str, seed: int, samples: int | None, options: AivatOptions | None = None
) -> tuple[list[str], dict[tuple[str, str], EstimatorRow], str, str, float]:
    """(agents, {(row, column): the row agent's estimator row against the column}, value, digest, mbb per
    small bet) over heads-up results folders; the method's last estimator (its highest tier)."""
    samples = DEFAULT_SAMPLES[method] if samples is None else samples
    cells: dict[tuple[str, str], EstimatorRow] = {}
    value = digest = ""
    for folder in folders:
        found, value, digest = estimates(folder, method, seed, samples, options)
        first = next(iter(found.values()))
        labels, mbb_per_sb = first.labels, 1000.0 * first.small_bet / first.big_blind
        if len(labels) != 2:
            raise ConfigError(f"a crosstable pairs heads-up matches; {str(folder)!r} has {len(labels)} seats")
        rows = seat_rows(found, seed)
        for a, b in (labels, labels[::-1]):
            if (a, b) in cells:
                raise ConfigError(
                    f"{a} vs {b} is in two of the folders; give each pairing once (or pool one match's parts "
                    "with --pool)"
                )
            cells[(a, b)] = rows[a][-1]
    agents = sorted({a for a, _ in cells})
    return agents, cells, value, digest, mbb_per_sb


def crosstable_text(agents: list[str], cells: dict[tuple[str, str], EstimatorRow], mbb_per_sb: float) -> str:
    """The ACPC's crosstable layout: the row agent's mbb/hand against each column ± the 95 % half-width,
    `*` where the interval excludes 0, and the row's mean over the opponents it met."""
    width = max(14, *(len(a) + 2 for a in agents))
    lines = [f"{'mbb/hand':<{width}}" + "".join(f"{a:>{width}}" for a in agents) + f"{'mean':>{width}}"]
    for a in agents:
        line, met = f"{a:<{width}}", []
        for b in agents:
            row = cells.get((a, b))
            if row is None:
                line += f"{'-':>{width}}"
                continue
            half = (row.ci95[1] - row.ci95[0]) / 2 * mbb_per_sb
            star = "*" if row.ci95[0] > 0 or row.ci95[1] < 0 else " "
            line += f"{f'{row.mbb_per_hand:+.0f}±{abs(half):.0f}{star}':>{width}}"
            met.append(row.mbb_per_hand)
        lines.append(line + f"{np.mean(met):>+{width}.0f}")
    return "\n".join(lines)


def fitted_weights(folders: list[Path], method: str, seed: int, samples: int | None) -> str:
    """--fit-weights: the luck adjustment's least-squares street weights of each calibration folder, or
    AIVAT's imaginary-tier weights by round over the folders pooled (rounded as the shipped ones are);
    one `ConfigError` line for another method."""
    if method == "luck":
        samples = luck.DEFAULT_SAMPLES if samples is None else samples
        fits = [(folder, luck.fit_street_weights(folder, seed, samples)) for folder in folders]
        return "\n".join(f"{folder} {tuple(round(w, 2) for w in weights)}" for folder, weights in fits)
    if method == "aivat":
        return str(tuple(round(w, 2) for w in aivat.fit_imaginary_weights(folders, seed)))
    raise ConfigError(
        f"--fit-weights fits the street weights of --method luck or the imaginary tier's of --method aivat; "
        f"{method} has none"
    )


def cmd_evaluate(args: argparse.Namespace) -> int:
    """Evaluate `pokerlab match` results folders: each seat's raw sb/hand beside its variance-reduced
    sb/hand (luck adjustment; DIVAT; AIVAT's chance, actions and imaginary-observation tiers, the last two
    for seats that report probabilities or answer the all-holdings policy query; the Baseline control
    agent's replay of every deal, for matches without duplicate), with 95 % CIs over the
    units of the match (deals in a duplicate match, else hands), the SD ratio, the variance removed and the
    unbiasedness z of mean(X - u). Several heads-up folders (or a folder of them) give a crosstable; with
    --pool, several folders of one match cut in parts (the same agents, other seeds) give one report."""
    folders = round_robin([Path(r) for r in args.results])
    if args.fit_weights:
        print(fitted_weights(folders, args.method, args.seed, args.samples))
        return 0
    options = AivatOptions(frozenset(args.shared_uniform or ()), args.imaginary_weights)
    if len(folders) == 1 or args.pool:
        print(evaluate_folder(folders, args.method, args.seed, args.samples, options, args.json))
        return 0
    agents, cells, value, digest, mbb_per_sb = crosstable(
        folders, args.method, args.seed, args.samples, options
    )
    if args.json:
        report = {
            "method": args.method,
            "seed": args.seed,
            "value_function": value,
            "value_digest": digest,
            "agents": agents,
            "cells": [{"row": a, "column": b, **row.to_json()} for (a, b), row in sorted(cells.items())],
        }
        print(json.dumps(finite_json(report)))
    else:
        print(crosstable_text(agents, cells, mbb_per_sb))
        print(f"{args.method}: {value}, digest {digest}; seed {args.seed}")
    return 0


def match_then_evaluate(play) -> object:
    """The match command `play` followed by the evaluation of its results folder (``--evaluate``, seed 0):
    its table after the match's, or its JSON object under ``"evaluation"`` in the match's."""

    def command(args: argparse.Namespace) -> int:
        if args.evaluate is None:
            return play(args)
        if not args.out:
            raise ConfigError("--evaluate reads the match's results folder: give --out")
        args.log_decisions = args.log_decisions or args.evaluate == "aivat"
        args.log_policies = args.log_policies or args.evaluate == "aivat"
        if not args.json:
            status = play(args)
            print(evaluate_folder([args.out], args.evaluate, seed=0))
            return status
        with contextlib.redirect_stdout(io.StringIO()) as printed:
            status = play(args)
        report = json.loads(printed.getvalue())
        report["evaluation"] = json.loads(evaluate_folder([args.out], args.evaluate, seed=0, as_json=True))
        print(json.dumps(report))
        return status

    return command


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """evaluate, and match's --evaluate."""
    match = subparsers.choices["match"]
    match.add_argument(
        "--evaluate",
        choices=METHODS,
        default=None,
        help="at the end, evaluate the results folder (as `pokerlab evaluate OUT --method METHOD`, seed 0)",
    )
    match.set_defaults(func=match_then_evaluate(match.get_default("func")))
    p = subparsers.add_parser(
        "evaluate", help="variance-reduced results of results folders", description=cmd_evaluate.__doc__
    )
    p.add_argument("results", nargs="+", help="results folders of `pokerlab match` (or a folder of them)")
    p.add_argument("--method", choices=METHODS, default="luck", help="the estimator (default luck)")
    p.add_argument(
        "--samples",
        type=int_in(1, 10**7, "samples"),
        default=None,
        help=f"pre-flop boards per equity (luck, default {luck.DEFAULT_SAMPLES}) or run-outs per value "
        f"(divat, aivat, default {divat.DEFAULT_SAMPLES})",
    )
    p.add_argument(
        "--shared-uniform",
        action="append",
        metavar="SEAT",
        help="AIVAT: this seat draws every decision of a hand from one uniform (Loki-2's same-u selector)",
    )
    p.add_argument(
        "--imaginary-weights",
        type=imaginary_weights,
        default=aivat.IMAGINARY_WEIGHTS,
        metavar="fitted|plain|W,W,W,W",
        help="AIVAT: the imaginary tier's weight of each round's brackets (pre-flop, flop, turn, river): "
        f"fitted on calibration matches (default, {','.join(map(str, aivat.IMAGINARY_WEIGHTS))}), plain "
        "(1 each, the plain all-in equity value) or your own; any fixed weights keep it unbiased",
    )
    p.add_argument("--seed", type=seed_arg, default=0, help="seed of the boards and run-outs (default 0)")
    p.add_argument(
        "--pool",
        action="store_true",
        help="the folders are parts of one match (the same agents, other seeds): one report over all their "
        "units instead of a crosstable",
    )
    p.add_argument(
        "--fit-weights",
        action="store_true",
        help="fit weights on calibration folders instead of evaluating: the luck adjustment's street weights "
        "of each folder (--method luck), or the imaginary tier's weights by round over the folders pooled "
        "(--method aivat); never on the hands they will judge",
    )
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=cmd_evaluate)
