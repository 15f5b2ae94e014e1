"""Evaluating a heads-up results folder: DIVAT's and AIVAT's hands per second beside the luck adjustment's,
in one run on the same hands, one core.

The peer is ours: the luck adjustment (`pokerlab.evaluation.luck`, chance corrections with all-in equity,
the plainest variance reducer there is) on the same folder. No outside program evaluates limit hold'em
hands with DIVAT or AIVAT: PVAT (uoftcprg/pvat) takes the game as Python callables and ships no hold'em
game, and its DIVAT class needs the players' strategies, which Billings & Kan's DIVAT does not.
The target is 10,000 heads-up hands with DIVAT in under a minute on one core (``--hands 10000``). A second
folder, Loki-1 against the tight-aggressive stereotype (known by its all-holdings policy query), times
AIVAT's three tiers, imaginary observations included, beside the luck adjustment on its hands.
Usage: ``python benchmarks/evaluate.py [--hands N] [--results FOLDER] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from pokerlab import play_match
from pokerlab.evaluation.aivat import aivat_of_folder
from pokerlab.evaluation.divat import divat_of_folder
from pokerlab.evaluation.luck import luck_of_folder


def timed(method, folder: Path) -> float:
    """CPU seconds `method` takes over the folder (its first hands already compiled): one core's time,
    whatever else the machine runs."""
    start = time.process_time()
    method(folder)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands of loki1 vs loki2-triples to play")
    parser.add_argument("--results", type=Path, default=None, help="a heads-up results folder instead")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.results
        if folder is None:
            folder = Path(scratch) / "m"
            play_match(["loki1", "loki2-triples"], args.hands, seed=1, out=folder, log_decisions=True)
        known = Path(scratch) / "known"
        play_match(["loki1", "tight-aggressive"], args.hands, seed=1, out=known)
        warm = {folder: Path(scratch) / "warm-probabilities", known: Path(scratch) / "warm-known"}
        play_match(["loki1", "loki2-triples"], 20, seed=2, out=warm[folder], log_decisions=True)
        play_match(["loki1", "tight-aggressive"], 20, seed=2, out=warm[known])
        runs = {
            folder: {
                "divat": lambda f: divat_of_folder(f, seed=1),
                "aivat (two tiers)": lambda f: aivat_of_folder(
                    f, seed=1, shared_uniform=frozenset({"loki2-triples"})
                ),
                "luck (peer)": lambda f: luck_of_folder(f, seed=1),
            },
            known: {
                "aivat (three tiers)": lambda f: aivat_of_folder(f, seed=1),
                "luck (peer)": lambda f: luck_of_folder(f, seed=1),
            },
        }
        for f, methods in runs.items():
            for method in methods.values():
                method(warm[f])  # numba compiles outside the clock
        report = {}
        for f, methods in runs.items():
            hands = sum(1 for _ in (f / "hindsight.jsonl").open())
            seconds = {name: timed(method, f) for name, method in methods.items()}
            report[f.name] = {
                "hands": hands,
                "seconds": seconds,
                "hands_per_second": {name: hands / s for name, s in seconds.items()},
            }
    if args.json:
        print(json.dumps(report))
        return
    for name, run in report.items():
        rates = run["hands_per_second"]
        peer = rates["luck (peer)"]
        print(f"{run['hands']} heads-up hands ({name}), CPU time of one core")
        print(f"{'method':<20}{'hands/s':>10}{'s per 10,000 hands':>20}{'x luck':>8}")
        for method, rate in rates.items():
            print(f"{method:<20}{rate:>10.0f}{10_000 / rate:>20.1f}{rate / peer:>8.2f}")


if __name__ == "__main__":
    main()
