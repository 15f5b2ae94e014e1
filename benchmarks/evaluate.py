"""Evaluating a heads-up results folder: DIVAT's and AIVAT's hands per second beside the luck adjustment's,
in one run on the same hands, one core.

The peer is ours: the luck adjustment (`pokerlab.evaluation.luck`, chance corrections with all-in equity,
the plainest variance reducer there is) on the same folder. No outside program evaluates limit hold'em
hands with DIVAT or AIVAT: PVAT (uoftcprg/pvat) takes the game as Python callables and ships no hold'em
game, and its DIVAT class needs the players' strategies, which Billings & Kan's DIVAT does not.
The target is 10,000 heads-up hands with DIVAT in under a minute on one core (``--hands 10000``). A second
folder, Loki-1 against the tight-aggressive stereotype (known by its all-holdings policy query), times
AIVAT's three tiers, imaginary observations included, beside the luck adjustment on its hands. Last,
the rows of recorded all-holdings answers (policies.bin, `pokerlab.arena.policy_record`): our distinct
rows of a float32[1326, 3] answer beside numpy's ``np.unique(axis=0)`` on the same answers.
Usage: ``python benchmarks/evaluate.py [--hands N] [--results FOLDER] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from pokerlab import play_match
from pokerlab.arena.policy_record import decode, distinct_rows, read_policies
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
        play_match(["loki1", "tight-aggressive"], 40, seed=3, out=Path(scratch) / "asked", log_policies=True)
        answers = [
            p.astype(np.float32)
            for payload in read_policies(Path(scratch) / "asked").values()
            for p in decode(payload).values()
        ]
    report["distinct rows"] = {"answers": len(answers), "seconds": {}}
    for name, rows in (
        ("ours", distinct_rows),
        ("np.unique (peer)", lambda p: np.unique(p.view("<u4"), axis=0, return_inverse=True)),
    ):
        start = time.process_time()
        for policy in answers:
            rows(policy)
        report["distinct rows"]["seconds"][name] = time.process_time() - start
    if args.json:
        print(json.dumps(report))
        return
    distinct = report.pop("distinct rows")
    for name, run in report.items():
        rates = run["hands_per_second"]
        peer = rates["luck (peer)"]
        print(f"{run['hands']} heads-up hands ({name}), CPU time of one core")
        print(f"{'method':<20}{'hands/s':>10}{'s per 10,000 hands':>20}{'x luck':>8}")
        for method, rate in rates.items():
            print(f"{method:<20}{rate:>10.0f}{10_000 / rate:>20.1f}{rate / peer:>8.2f}")
    ours, peer = distinct["seconds"].values()
    count = distinct["answers"]
    print(
        f"distinct rows of {count} recorded answers: ours {1e6 * ours / count:.0f} us each, "
        f"np.unique {1e6 * peer / count:.0f} us each ({peer / ours:.1f}x faster)"
    )


if __name__ == "__main__":
    main()
