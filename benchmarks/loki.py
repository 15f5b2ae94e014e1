"""Loki-1 decision time at a ten-seat table, and the throughput of the Fig 1 ablation.

Times every decision of ten Loki-1 players (the re-weighting each decision triggers included: a player
takes in the opponents' actions when it is asked to act) over seeded hands on one core, and reports the
median per street. No installed library plays Loki-1, so there is no peer figure; the hand-assessment
kernels it rests on are compared with eval7 and phevaluator in benchmarks/analysis.py.

Run: ``.venv/bin/python benchmarks/loki.py [--hands N] [--seed S] [--no-cache]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pokerlab import play_match
from pokerlab.agents.loki1 import VARIANTS, Loki1Agent
from pokerlab.analysis.potential import COUNTS_CACHE
from pokerlab.engine import ROUND_NAMES
from pokerlab.experiments.loki import ABLATION


class Timed(Loki1Agent):
    """A Loki-1 that records how long each of its decisions takes, by street."""

    def __init__(self, config) -> None:
        super().__init__(config)
        self.times: dict[int, list[float]] = {r: [] for r in range(4)}

    def act(self, view):
        start = time.perf_counter()
        action = super().act(view)
        self.times[view.round].append(time.perf_counter() - start)
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1000, help="hands at the ten-seat table (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-cache", action="store_true", help="compute every potential table afresh")
    args = parser.parse_args()
    COUNTS_CACHE.enabled = not args.no_cache

    play_match([Timed(VARIANTS[name]) for name in ABLATION[:2]], 20, seed=0)  # compile / load caches
    players = [Timed(VARIANTS[name]) for name in ABLATION for _ in range(2)]
    COUNTS_CACHE.clear()
    start = time.perf_counter()
    play_match(players, args.hands, seed=args.seed, block=args.hands)
    elapsed = time.perf_counter() - start
    times = {r: np.concatenate([p.times[r] for p in players]) * 1e3 for r in range(4)}
    everything = np.concatenate(list(times.values()))

    print(
        f"Loki-1 decisions at a ten-seat table (the Fig 1 field), {args.hands} hands, seed {args.seed}, "
        "one core; no peer plays Loki-1"
    )
    print(f"{'street':<10}{'decisions':>10}{'median ms':>11}{'p90 ms':>9}{'max ms':>9}")
    for r in range(4):
        t = times[r]
        print(
            f"{ROUND_NAMES[r]:<10}{len(t):>10}{np.median(t):>11.3f}{np.percentile(t, 90):>9.3f}"
            f"{t.max():>9.2f}"
        )
    print(
        f"{'all':<10}{len(everything):>10}{np.median(everything):>11.3f}"
        f"{np.percentile(everything, 90):>9.3f}{everything.max():>9.2f}"
    )
    print("targets: median <= 2 ms; flop (two-card potential) <= 10 ms")
    if COUNTS_CACHE.enabled:
        print(
            f"potential counts cache: {COUNTS_CACHE.hits + COUNTS_CACHE.misses} look-ups, "
            f"{COUNTS_CACHE.hit_rate:.0%} hits, {len(COUNTS_CACHE)} entries"
        )
    rate = args.hands / elapsed
    print(
        f"{rate:.0f} hands/s on one core: the 100,000-hand ablation would take about "
        f"{100_000 / rate / 2 / 60:.0f} min on 2 cores (target <= 30)"
    )


if __name__ == "__main__":
    main()
