"""Hands per second of whole matches of random players: `pokerlab.play_match` beside RLCard's environment.

Ours: ``play_match(["random"] * n, hands=N, seed=S)`` in one process (one core), at 10 seats and heads-up,
then the same with ``out=<a temporary folder>`` (every hand written to the results folder: per-hand
results, the SQLite hand store, summary and bankroll plot), and what writing costs on top. RLCard: its
``limit-holdem`` environment with ``game_num_players`` n and its `RandomAgent` in every seat, playing whole
hands through ``env.run(is_training=False)`` (what RL users call: encoded observations and trajectories
for every seat). Each figure is the best of ``--repeats`` runs after a short warm-up (numba compilation,
imports). Usage: ``python benchmarks/arena.py [--hands N] [--seed S] [--repeats R] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np

import pokerlab


def ours(n: int, hands: int, seed: int, write: bool = False) -> float:
    """Hands/s of `play_match` with n random agents, optionally writing the results folder."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "match" if write else None
        start = time.perf_counter()
        result = pokerlab.play_match(["random"] * n, hands=hands, seed=seed, out=out)
        elapsed = time.perf_counter() - start
        assert result.hands == hands and result.nets.shape == (hands, n)
        if write:
            assert (out / "summary.json").is_file()
    return hands / elapsed


def rlcard_env(n: int, hands: int, seed: int) -> float:
    """Hands/s of RLCard's 'limit-holdem' environment with its RandomAgent in all n seats (env.run)."""
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("limit-holdem", config={"game_num_players": n, "seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(n)])
    np.random.seed(seed)  # RLCard's RandomAgent draws from numpy's global generator: seeded for repeatability
    start = time.perf_counter()
    for _ in range(hands):
        trajectories, payoffs = env.run(is_training=False)
    elapsed = time.perf_counter() - start
    # the environment really seats n players, each dealt two cards, and pays all of them
    assert env.num_players == len(env.game.players) == len(payoffs) == len(trajectories) == n
    assert all(len(player.hand) == 2 for player in env.game.players)
    return hands / elapsed


def best(func, n: int, hands: int, seed: int, repeats: int, **kwargs) -> float:
    """The best rate of `repeats` runs of func (after a 50-hand warm-up)."""
    func(n, 50, seed, **kwargs)
    return max(func(n, hands, seed, **kwargs) for _ in range(repeats))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="hands per measurement (default 5000)")
    parser.add_argument("--seed", type=int, default=1, help="match and environment seed (default 1)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure, the best counts (default 3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    table = {}
    for n in (10, 2):
        plain = best(ours, n, args.hands, args.seed, args.repeats)
        written = best(ours, n, args.hands, args.seed, args.repeats, write=True)
        peer = best(rlcard_env, n, args.hands, args.seed, args.repeats)
        table[n] = {
            "pokerlab": plain,
            "pokerlab --out": written,
            "rlcard env": peer,
            "writing costs": plain / written - 1,
        }
    if args.json:
        players = {str(n): row for n, row in table.items()}
        print(json.dumps({"hands": args.hands, "seed": args.seed, "players": players}))
        return
    print(f"{args.hands:,} hands per run, seed {args.seed}, best of {args.repeats}, one core")
    print(f"{'players':>7}  {'arena':<16}{'hands/s':>10}  {'ours / rlcard':>13}")
    for n, row in table.items():
        for name in ("pokerlab", "pokerlab --out", "rlcard env"):
            print(f"{n:>7}  {name:<16}{row[name]:>10,.0f}  {row[name] / row['rlcard env']:>12.2f}x")
        print(f"{n:>7}  writing every hand costs {row['writing costs']:+.0%} on top")


if __name__ == "__main__":
    main()
