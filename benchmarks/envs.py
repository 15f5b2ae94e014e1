"""Decisions per second of the Gymnasium environment beside the in-process arena's and RLCard's
environment's, heads-up and at 6 seats, random players everywhere.

Ours: `pokerlab.envs.HoldemEnv` with ``random`` opponents, the learning seat choosing uniformly among the
legal actions of ``info["action_mask"]`` (uniform numbers drawn before the clock, seeded), whole hands
through ``reset`` and ``step``; its decisions are every action of every hand, the learning seat's and the
opponents' (the length of the hand's action list, read in the loop). The arena: ``play_match(["random"] *
n)`` in one process, its decisions counted after the clock from a written run's hand store
(`benchmarks/arena.py`). RLCard: ``limit-holdem``'s ``env.step`` with a uniform choice among
``state["legal_actions"]`` for whoever is to act (one decision a step; `benchmarks/engine.py`). Each figure
is the best of ``--repeats`` runs after a warm-up. Usage:
``python benchmarks/envs.py [--hands N] [--seed S] [--repeats R] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from arena import our_decisions, ours
from engine import rlcard_env
from pokerlab.envs import HoldemEnv


def env_rate(n: int, hands: int, seed: int) -> float:
    """Decisions/s of `HoldemEnv` with n - 1 random opponents and a random learning seat."""
    env = HoldemEnv(opponents=["random"] * (n - 1), seed=seed)
    uniform = iter(np.random.default_rng(seed).random(hands * 40).tolist())  # drawn before the clock
    decisions = 0
    start = time.perf_counter()
    obs, info = env.reset(seed=seed)
    for _ in range(hands):
        done = False
        while not done:
            legal = [a for a, ok in enumerate(info["action_mask"]) if ok]
            obs, reward, done, _, info = env.step(legal[int(next(uniform) * len(legal))])
        decisions += len(env.state.actions)
        obs, info = env.reset()
    return decisions / (time.perf_counter() - start)


def arena_rate(n: int, hands: int, seed: int) -> float:
    """Decisions/s of `play_match` with n random players in this process."""
    return ours(n, hands, seed) * our_decisions(n, hands, seed) / hands


def rlcard_rate(n: int, hands: int, seed: int) -> float:
    """Decisions/s of RLCard's limit-holdem environment stepped with uniform legal actions
    (`benchmarks/engine.py`)."""
    return rlcard_env(n, hands, seed)[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = {}
    for n in (2, 6):
        rows[n] = {}
        for name, rate in (("env", env_rate), ("arena", arena_rate), ("rlcard", rlcard_rate)):
            rate(n, 100, args.seed)  # warm-up
            rows[n][name] = max(rate(n, args.hands, args.seed + r) for r in range(args.repeats))
    if args.json:
        print(json.dumps({"hands": args.hands, "seed": args.seed, "decisions_per_second": rows}))
        return
    print(f"decisions/s, {args.hands} hands of random players, seed {args.seed}, best of {args.repeats}")
    print(f"{'seats':<7}{'HoldemEnv':>11}{'arena':>11}{'RLCard env':>12}{'env/arena':>11}{'env/RLCard':>12}")
    for n, r in rows.items():
        env, arena, peer = r["env"], r["arena"], r["rlcard"]
        print(f"{n:<7}{env:>11,.0f}{arena:>11,.0f}{peer:>12,.0f}{env / arena:>11.2f}{env / peer:>12.2f}")


if __name__ == "__main__":
    main()
