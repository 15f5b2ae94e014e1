"""Decisions per second of the Gymnasium environment beside the in-process arena's and RLCard's
environment's, heads-up and at 6 seats, random players everywhere.

Ours: `pokerlab.envs.HoldemEnv` with ``random`` opponents and a learning seat that plays as they do
(`random_action`: never a fold where checking is free, from the chips to call of its observation and its
``info["action_mask"]``; uniform numbers drawn before the clock, seeded), whole hands through ``reset`` and
``step``; its decisions are every action of every hand, the learning seat's and the opponents' (the length
of the hand's action list, read in the loop), the n - 1 folds of each hand skipped because the learner
never acted in it included. The arena: ``play_match(["random"] * n)`` in one process, its decisions
counted after the clock from a written run's hand store (`benchmarks/arena.py`). RLCard: ``limit-holdem``'s
``env.step`` with a uniform choice among ``state["legal_actions"]`` for whoever is to act (one decision a
step; `benchmarks/engine.py`). "plain" is `HoldemEnv` on its plain paths (those
`tests/envs/test_paths.py` checks the fast ones against): the opponents asked one `Table.step` at a time
(not through the table's direct loop), the observation read whole by `encode` from the seat's view at
each step (not taken in by its `Encoder` from the hand's state), and ``info["view"]`` read at each
observation: the environment with and without its
fast paths, in the same run. Where the environment's time goes: the same hands played on its
`LearnerTable` alone (the learner's action drawn from the state, no view, no observation: "table"), then
with the learner's observation taken in by its `Encoder` at each of its observations ("+ encoder"); the
Gymnasium `step`/`reset` and ``info`` make the rest. Each figure is the best of
``--repeats`` runs after a warm-up, the repeats of all of them taken in turn so that they share the
machine's load. Usage:
``python benchmarks/envs.py [--hands N] [--seed S] [--repeats R] [--cpu] [--json]`` (``--cpu``: every rate
timed by the process's CPU time, for a machine other work loads).
"""

from __future__ import annotations

import argparse
import json
import time
from functools import partial

import numpy as np

from arena import our_decisions, ours
from engine import rlcard_env
from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.arena.table import Table
from pokerlab.engine import seat_view
from pokerlab.envs import HoldemEnv
from pokerlab.envs.encoding import Encoder, encode

#: The layers of `layer_rate`, by name.
LAYERS = ("table", "+ encoder")


class OneShot:
    """The plain observation: `encode` of the seat's view, every record read at every step."""

    @staticmethod
    def observe(state, position, config):
        return encode(seat_view(state, position, None, config))


def random_action(u: float, free: bool, legal: list[int]) -> int:
    """The random agent's choice (`pokerlab.agents.simple.RandomAgent`) for a uniform `u`: where checking
    is `free`, check, or bet half the time where betting is legal (never fold); else uniform among the
    `legal` actions."""
    if free:
        return RAISE if RAISE in legal and u >= 0.5 else CALL
    return legal[int(u * len(legal))]


def step_by_step(table: Table) -> None:
    """`Table.play_on` one `Table.step` at a time (its path where a player is not asked directly)."""
    state, seats, people = table.state, table.seats, table.people
    while state.actor >= 0 and seats[state.actor] not in people:
        table.step()


def env_rate(n: int, hands: int, seed: int, plain: bool = False) -> float:
    """Decisions/s of `HoldemEnv` with n - 1 random opponents and a learning seat that plays as they do,
    from its observation (chips to call) and action mask; on its plain paths when asked."""
    env = HoldemEnv(opponents=["random"] * (n - 1), seed=seed)
    if plain:
        env.learning.table.play_on = partial(step_by_step, env.learning.table)
        env._encoder = OneShot()
    uniform = iter(np.random.default_rng(seed).random(hands * 40).tolist())  # drawn before the clock
    decisions = 0
    start = time.perf_counter()
    obs, info = env.reset(seed=seed)
    for _ in range(hands):
        decisions += (n - 1) * len(info["skipped"])
        done = False
        while not done:
            if plain:
                dict(info["view"])
            mask = info["action_mask"].tolist()
            legal = [a for a in (FOLD, CALL, RAISE) if mask[a]]
            obs, reward, done, _, info = env.step(random_action(next(uniform), obs[120] == 0, legal))
        decisions += len(env.state.actions)
        obs, info = env.reset()
    return decisions / (time.perf_counter() - start)


def plain_rate(n: int, hands: int, seed: int) -> float:
    """Decisions/s of `HoldemEnv` on its plain paths."""
    return env_rate(n, hands, seed, plain=True)


def layer_rate(n: int, hands: int, seed: int, layer: int) -> float:
    """Decisions/s of `env_rate`'s hands on the environment's `LearnerTable` alone (layer 0), and with the
    learner's observation taken in by an `Encoder` from the hand's state where the environment observes
    (1)."""
    env = HoldemEnv(opponents=["random"] * (n - 1), seed=seed)
    env.reset(seed=seed)
    table, seat, encoder = env.learning, env.seat, Encoder()
    config = table.table.seat_configs[seat]
    uniform = iter(np.random.default_rng(seed).random(hands * 40).tolist())  # drawn before the clock
    decisions = 0
    start = time.perf_counter()
    for _ in range(hands):
        while True:
            if layer:
                encoder.observe(table.state, table.positions[seat], config)
            if table.actor < 0:
                break
            state = table.state
            free = state.max_bet == state.bets[state.actor]
            table.apply(random_action(next(uniform), free, state.legal_actions()))
        table.finish()
        decisions += len(table.state.actions)
        decisions += (n - 1) * len(table.start())
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
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time by this process's CPU time rather than the wall clock (every figure: on a loaded machine)",
    )
    args = parser.parse_args()
    if args.cpu:
        time.perf_counter = time.process_time  # the clock of every rate here and in arena.py and engine.py
    rates = (("env", env_rate), ("plain", plain_rate), ("arena", arena_rate), ("rlcard", rlcard_rate))
    rates += tuple((name, partial(layer_rate, layer=k)) for k, name in enumerate(LAYERS))
    rows = {}
    for n in (2, 6):
        rows[n] = dict.fromkeys(name for name, _ in rates)
        for _, rate in rates:
            rate(n, 100, args.seed)  # warm-up
        for r in range(args.repeats):
            for name, rate in rates:
                rows[n][name] = max(rows[n][name] or 0.0, rate(n, args.hands, args.seed + r))
    if args.json:
        report = {"hands": args.hands, "seed": args.seed, "cpu": args.cpu, "decisions_per_second": rows}
        print(json.dumps(report))
        return
    clock = "CPU time" if args.cpu else "wall clock"
    print(
        f"decisions/s ({clock}), "
        f"{args.hands} hands of random players, seed {args.seed}, best of {args.repeats}"
    )
    print(
        f"{'seats':<7}{'HoldemEnv':>11}{'plain':>10}{'arena':>11}{'RLCard env':>12}"
        f"{'env/arena':>11}{'plain/arena':>13}{'env/RLCard':>12}"
    )
    for n, r in rows.items():
        env, before, arena, peer = r["env"], r["plain"], r["arena"], r["rlcard"]
        print(
            f"{n:<7}{env:>11,.0f}{before:>10,.0f}{arena:>11,.0f}{peer:>12,.0f}"
            f"{env / arena:>11.2f}{before / arena:>13.2f}{env / peer:>12.2f}"
        )
    print("where the environment's time goes, decisions/s (and / arena) of the same hands:")
    print(f"{'seats':<7}" + "".join(f"{name:>18}" for name in (*LAYERS, "HoldemEnv")))
    for n, r in rows.items():
        cells = (f"{r[name]:,.0f} ({r[name] / r['arena']:.2f})" for name in (*LAYERS, "env"))
        print(f"{n:<7}" + "".join(f"{cell:>18}" for cell in cells))


if __name__ == "__main__":
    main()
