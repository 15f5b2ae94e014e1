"""Loki-1 at a ten-seat table: hands per CPU-second, ours beside the plain reference path, and decision times.

Ten Loki-1 players of the Fig 1 field (two each of A-E) play seeded hands on one core, twice in the same
run: with our fast paths, and with the plain reference path (``COUNTS_CACHE`` off, so every hand potential
is the per-subcase kernel `potential_counts`, the oracle of the cached counts). The rates are hands per
CPU-second of this process (``time.process_time``: per core, whatever else the machine runs); the best of
``--repeat`` runs counts. Two tables:

* ring: one session of ``--hands`` hands (every (hole, board) is new, so the counts cache only serves a
  player acting twice on a street);
* duplicate: ``--deals`` deals each replayed at the ten seat rotations, as the Fig 1 ablation plays them
  (the replays share the cards, and the arena plays the rotations in lockstep, so the cache serves them
  whatever the number of deals).

No installed library plays Loki-1; the kernels it rests on are compared with eval7 and phevaluator in
benchmarks/analysis.py. The per-street decision times are those of our path in the ring table.

Run: ``.venv/bin/python benchmarks/loki.py [--hands N] [--deals D] [--seed S] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pokerlab import play_match
from pokerlab.analysis.potential import COUNTS_CACHE
from pokerlab.engine import ROUND_NAMES
from pokerlab.programs.loki1 import VARIANTS, Loki1Agent
from pokerlab.programs.loki1.experiments import ABLATION

TARGET = 300  # hands per CPU-second at ten Loki seats


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


def field(timed: bool = False) -> list[Loki1Agent]:
    kind = Timed if timed else Loki1Agent
    return [kind(VARIANTS[name]) for name in ABLATION for _ in range(2)]


def rate(hands: int, seed: int, duplicate: bool, cached: bool, repeat: int) -> tuple[float, np.ndarray]:
    """Best hands per CPU-second over `repeat` runs, and the nets of the last (the paths must agree)."""
    COUNTS_CACHE.enabled = cached
    best = 0.0
    for _ in range(repeat):
        COUNTS_CACHE.clear()
        start = time.process_time()
        match = play_match(field(), hands, seed=seed, duplicate=duplicate, block=10**6)
        best = max(best, len(match.nets) / (time.process_time() - start))
    COUNTS_CACHE.enabled = True
    return best, match.nets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1000, help="hands at the ring table (default 1000)")
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals, x10 hands (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure; the best counts (default 1)")
    args = parser.parse_args()

    play_match(field()[:4], 20, seed=0)  # compile / load the kernels
    print(
        f"Loki-1, ten seats (two each of Fig 1's A-E), seed {args.seed}: hands per CPU-second, best of "
        f"{args.repeat}; plain = the per-subcase potential kernel, counts cache off"
    )
    print(f"{'table':<30}{'ours':>8}{'plain':>8}{'ratio':>7}  target")
    for label, hands, duplicate in (
        (f"ring, {args.hands} hands", args.hands, False),
        (f"duplicate, {args.deals} deals x 10", args.deals, True),
    ):
        ours, ours_nets = rate(hands, args.seed, duplicate, True, args.repeat)
        plain, plain_nets = rate(hands, args.seed, duplicate, False, args.repeat)
        if not np.array_equal(ours_nets, plain_nets):
            raise SystemExit("the fast and the plain paths played differently: a bug")
        print(f"{label:<30}{ours:>8.0f}{plain:>8.0f}{ours / plain:>6.2f}x  >= {TARGET}")

    players = field(timed=True)
    COUNTS_CACHE.clear()
    play_match(players, args.hands, seed=args.seed, block=10**6)
    times = {r: np.concatenate([p.times[r] for p in players]) * 1e3 for r in range(4)}
    everything = np.concatenate(list(times.values()))
    print(f"\nour decisions at the ring table, {args.hands} hands (wall-clock ms)")
    print(f"{'street':<10}{'decisions':>10}{'median ms':>11}{'p90 ms':>9}{'max ms':>9}")
    for name, t in [*((ROUND_NAMES[r], times[r]) for r in range(4)), ("all", everything)]:
        print(f"{name:<10}{len(t):>10}{np.median(t):>11.3f}{np.percentile(t, 90):>9.3f}{t.max():>9.2f}")
    print(
        f"potential counts cache: {COUNTS_CACHE.hits + COUNTS_CACHE.misses} look-ups, "
        f"{COUNTS_CACHE.hit_rate:.0%} hits, {len(COUNTS_CACHE)} entries"
    )


if __name__ == "__main__":
    main()
