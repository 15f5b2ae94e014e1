"""Hands per second of Barone & While's Experiment 1 table: the evolving player learning among 3
tight-passive and 6 loose-aggressive stereotypes, in epochs of 100 hands from 1,000-chip stacks
(`pokerlab.programs.barone_while.epochs.play_epochs`; also with ``uses_rule = "per_consultation"``, a
pointer step and a uniform for every per-opponent consultation), beside peers measured in the same run at
the same 10-seat table with the same stacks and epochs: ten random agents, and the ten stereotypes alone
(9 + 1 more loose-aggressive in the evolving player's seat); both through `play_match(..., rebuy=100)`.

The figure that matters: minutes for Experiment 1 (1,000 epochs = 100,000 hands) on one core, from the
measured rate; the target is at most 10. Usage: ``python benchmarks/barone_while.py [--epochs N]
[--seed S] [--repeats R] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import time

import pokerlab
from pokerlab.engine import GameConfig
from pokerlab.programs.barone_while.agent import EvolvingAgent
from pokerlab.programs.barone_while.config import EvolvingConfig
from pokerlab.programs.barone_while.epochs import TABLES, play_epochs

SEGMENTS = ("tight-passive", "loose-aggressive")


def evolving(epochs: int, seed: int, config: EvolvingConfig | None = None) -> float:
    """Hands/s of the learning evolving player (random start) at the mixed table."""
    player = EvolvingAgent(config, segments=SEGMENTS, init_seed=seed)
    run = play_epochs(player, "mixed", epochs, seed)
    return run.hands / run.seconds


def peer(lineup: list[str], epochs: int, seed: int) -> float:
    """Hands/s of `lineup` at ten seats, stacks of 1,000 restored every 100 hands."""
    start = time.perf_counter()
    result = pokerlab.play_match(lineup, epochs * 100, GameConfig(stack=1000), seed, rebuy=100)
    return result.hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20, help="epochs of 100 hands per run (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure, the best counts (default 3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    stereotypes = [*TABLES["mixed"], "loose-aggressive"]
    runs = {
        "evolving player + 9 stereotypes": lambda: evolving(args.epochs, args.seed),
        "  a use per consultation": lambda: evolving(
            args.epochs, args.seed, EvolvingConfig(uses_rule="per_consultation")
        ),
        "10 stereotypes (peer)": lambda: peer(stereotypes, args.epochs, args.seed),
        "10 random agents (peer)": lambda: peer(["random"] * 10, args.epochs, args.seed),
    }
    evolving(1, args.seed)  # warm-up: numba compilation, imports, tables
    rates = {name: max(run() for _ in range(args.repeats)) for name, run in runs.items()}
    ours = rates["evolving player + 9 stereotypes"]
    minutes = 100_000 / ours / 60
    if args.json:
        print(
            json.dumps(
                {"epochs": args.epochs, "seed": args.seed, "hands_per_s": rates, "exp1_minutes": minutes}
            )
        )
        return
    print(f"{args.epochs} epochs of 100 hands per run, seed {args.seed}, best of {args.repeats}, one core")
    print(f"{'table':<34}{'hands/s':>9}  {'ours / this':>11}")
    for name, rate in rates.items():
        print(f"{name:<34}{rate:>9,.0f}  {ours / rate:>10.2f}x")
    print(f"Experiment 1 (100,000 hands) at this rate: {minutes:.1f} minutes on one core (target <= 10)")


if __name__ == "__main__":
    main()
