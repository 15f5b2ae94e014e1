"""TD-Hold'em's training path: the TD(λ) update per decision (our numba trace kernel beside the plain numpy
reference of the same arithmetic), training hands per second with the hand loop, and the decision time of
a trained (frozen) player.

The peer figure is the numpy form of the same network and update (what a straightforward implementation
does; no deep-learning framework is installed, and for a 120-40-2 network one call's overhead would exceed
the arithmetic). Run: ``.venv/bin/python benchmarks/td.py [--hands N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import numpy as np

from pokerlab.arena.dealing import Dealer
from pokerlab.engine import GameConfig
from pokerlab.programs.td.agent import TDAgent
from pokerlab.programs.td.config import PRESETS
from pokerlab.programs.td.network import Network, TDChain
from pokerlab.programs.td.training import Schedule, Trainer


def numpy_visit(net: Network, state: dict, x: np.ndarray, ks: list[int], lam: float, alpha: float) -> None:
    """The same online TD(λ) step as `TDChain.visit`, written with `Network.gradients` (numpy)."""
    if state["last"] is not None:
        step = alpha * ((net(x)[ks] - state["last"]) @ state["trace"])
        net.theta += step
    y, grads = net.gradients(x, ks)
    state["trace"] = grads if state["trace"] is None else lam * state["trace"] + grads
    state["last"] = y[ks]


def time_update(inputs: int, outputs: int, ks: list[int], repeats: int, rng) -> tuple[float, float]:
    """Microseconds per decision for the kernel chain and the numpy reference on sparse 0/1 inputs."""
    xs = (rng.random((256, inputs)) < 0.3).astype(float)
    net = Network(inputs, 40, outputs, outputs == 2, rng)
    chain = TDChain(net, 0.7)
    chain.visit(xs[0], ks, 0.01)  # compile
    start = time.perf_counter()
    for i in range(repeats):
        chain.visit(xs[i % 256], ks, 0.001)
    ours = (time.perf_counter() - start) / repeats * 1e6
    state = {"last": None, "trace": None}
    start = time.perf_counter()
    for i in range(repeats):
        numpy_visit(net, state, xs[i % 256], ks, 0.7, 0.001)
    peer = (time.perf_counter() - start) / repeats * 1e6
    return ours, peer


def training_rate(
    preset: str, opponents: tuple[str, ...], hands: int, seed: int, polyak: int = 0, **changes
) -> float:
    """Training hands per second (no evaluation, no files) of a preset, with `changes` to its fields and
    the schedule's `polyak` weight average, against `opponents`."""
    schedule = Schedule(opponents=opponents, opponent_id_input=preset == "repaired", polyak=polyak)
    trainer = Trainer.start(replace(PRESETS[preset], **changes), schedule, seed)
    dealer, game = Dealer(seed), GameConfig()
    for _ in range(50):
        trainer.train_hand(dealer, game)  # compile and fill caches
    start = time.perf_counter()
    for _ in range(hands):
        trainer.train_hand(dealer, game)
    return hands / (time.perf_counter() - start)


class Timed(TDAgent):
    """A frozen TD player that records each decision's time."""

    times: list[float]

    def act(self, view):
        start = time.perf_counter()
        action = super().act(view)
        self.times.append(time.perf_counter() - start)
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--hands", type=int, default=3000, help="training hands per measurement (default 3000)"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    print(f"TD(lambda) update per decision, 40 hidden units, one core (seed {args.seed})")
    print(f"{'network':<28}{'ours (numba) us':>16}{'numpy us':>10}{'ratio':>8}")
    for label, inputs, outputs, ks in (
        ("repaired 120-40-2, Q(s,a)", 120, 2, [1]),
        ("faithful 92-40-4, classes", 92, 4, [0, 1, 2, 3]),
    ):
        ours, peer = time_update(inputs, outputs, ks, 4000, rng)
        print(f"{label:<28}{ours:>16.1f}{peer:>10.1f}{peer / ours:>7.1f}x")

    print(f"\ntraining hands/s, one core, {args.hands} hands each (no evaluation)")
    three = ("call", "raise", "random")
    for label, preset, opponents, changes in (
        ("repaired", "repaired", three, {}),
        ("repaired + weight average", "repaired", three, {"polyak": 100_000}),
        ("repaired + opponent model", "repaired", three, {"opponent_model_inputs": True}),
        ("faithful", "faithful", ("self",), {}),
    ):
        rate = training_rate(preset, opponents, args.hands, args.seed, **changes)
        print(
            f"{label:<27} vs {'+'.join(opponents):<18}{rate:>8.0f} hands/s  "
            f"(10^6 hands on 2 cores, two independent runs: {1e6 / rate / 60:.0f} min each; target 60)"
        )

    from pokerlab import play_match

    player = Timed(PRESETS["repaired"])
    player.times = []
    player.freeze()
    play_match([player, "random"], hands=args.hands, seed=args.seed)
    t = np.array(player.times) * 1e3
    print(
        f"\nfrozen repaired player, {t.size} decisions vs random: median {np.median(t):.3f} ms, "
        f"p99 {np.percentile(t, 99):.3f} ms, max {t.max():.2f} ms (target <= 1 ms)"
    )


if __name__ == "__main__":
    main()
