"""Evaluating a 6-seat results folder: the Baseline estimator's hands per second beside the luck
adjustment's, in one run on the same hands, one core.

The peer is ours: the luck adjustment (`pokerlab.evaluation.luck`) on the same folder, the other
multi-way estimator here (Davidson et al. 2013 describe the Baseline; we run no outside implementation
of it). Most of the Baseline's time is the control agent replaying every
deal in every position (Papp's basic player `bpm`, which enumerates its hand strength).
Usage: ``python benchmarks/baseline.py [--hands N] [--json]`` (N a multiple of 12).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from pokerlab import play_match
from pokerlab.evaluation.baseline import baseline_of_folder
from pokerlab.evaluation.luck import luck_of_folder

LINEUP = ["bpl", "bpt", "bpm", "loose-aggressive", "tight-aggressive", "loose-passive"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1200, help="6-seat hands to play (a multiple of 12)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    methods = {"baseline": baseline_of_folder, "luck (peer)": luck_of_folder}
    with tempfile.TemporaryDirectory() as scratch:
        folder, warm = Path(scratch) / "m", Path(scratch) / "warm"
        play_match(LINEUP, args.hands, seed=1, out=folder)
        play_match(LINEUP, 12, seed=2, out=warm)
        seconds = {}
        for name, method in methods.items():
            method(warm, seed=1)  # numba compiles outside the clock
            start = time.process_time()
            method(folder, seed=1)
            seconds[name] = time.process_time() - start
    rates = {name: args.hands / s for name, s in seconds.items()}
    if args.json:
        print(json.dumps({"hands": args.hands, "seconds": seconds, "hands_per_second": rates}))
        return
    parts = [f"{name} {rate:.0f} hands/s ({seconds[name]:.1f} s)" for name, rate in rates.items()]
    ratio = rates["baseline"] / rates["luck (peer)"]
    print(
        f"{args.hands} six-seat hands, CPU time of one core: {'; '.join(parts)}; baseline {ratio:.2f}x luck"
    )


if __name__ == "__main__":
    main()
