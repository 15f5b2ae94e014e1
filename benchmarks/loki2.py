"""Loki-2's hot paths, each beside a peer measured in the same run (Peña 1999 ch. 3-5), with their targets.

1. A 500-trial simulation decision at a ten-seat table (target <= 100 ms median on one core), beside the
   always-call simulation and Loki-1's decision at the same table.
2. Re-weighting all 1,326 holdings by triples (target <= 1 ms), beside the plain reference (the triple of
   each holding by `reference_triple` in Python) and Loki-1's threshold re-weighting.
3. A ten-seat table of loki2-triples (target >= 150 hands/s per core), beside a table of Loki-1.
4. What common random numbers are worth: the spread of EV(raise) - EV(call) over repeated 500-trial
   decisions on one flop, with and without them.

Times are CPU time of this thread (`time.thread_time`), so other work on a shared machine slows them less
than it slows wall time; no installed library plays Loki, so the peers are ours.

Run: ``.venv/bin/python benchmarks/loki2.py [--hands N] [--table-hands N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pokerlab import play_match
from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.analysis.potential import COUNTS_CACHE
from pokerlab.cards import NUM_CARDS, parse_cards
from pokerlab.engine import GameConfig, HandState, seat_view
from pokerlab.holdings import NUM_HOLDINGS
from pokerlab.modeling.holding_values import board_values, postflop_values
from pokerlab.modeling.reweighting import reweight
from pokerlab.programs.loki1 import VARIANTS as LOKI1
from pokerlab.programs.loki1 import Loki1Agent
from pokerlab.programs.loki2 import VARIANTS, Loki2Agent
from pokerlab.programs.loki2.reweight import reweight_by_triples
from pokerlab.programs.loki2.simulate import SimulationConfig, folded_keep_weights, simulate
from pokerlab.programs.loki2.triples import TripleContext, TripleRules, holding_triples, reference_triple


def timed(cls):
    """`cls` with a record of the CPU time of each post-flop decision."""

    class Timed(cls):
        def __init__(self, config) -> None:
            super().__init__(config)
            self.times: list[float] = []

        def act(self, view):
            start = time.thread_time()
            action = super().act(view)
            if view.round > 0:
                self.times.append(time.thread_time() - start)
            return action

    return Timed


def line(name: str, times: list[float]) -> str:
    t = np.array(times) * 1e3
    return f"{name:<34}{len(t):>9}{np.median(t):>11.1f}{np.percentile(t, 90):>9.1f}{t.max():>9.1f}"


def decisions(hands: int, seed: int) -> None:
    players = [
        timed(Loki2Agent)(VARIANTS["loki2"]),
        timed(Loki2Agent)(VARIANTS["loki2-sim-call"]),
        timed(Loki1Agent)(LOKI1["loki1"]),
    ] + [Loki2Agent(VARIANTS["loki2-triples"]) for _ in range(7)]
    COUNTS_CACHE.clear()
    play_match(players, hands, seed=seed)
    print(
        f"1. post-flop decisions at a ten-seat table (7 x loki2-triples around), {hands} hands, seed {seed}"
    )
    print(f"{'player':<34}{'decisions':>9}{'median ms':>11}{'p90 ms':>9}{'max ms':>9}")
    print(line("loki2, 500-trial simulation", players[0].times))
    print(line("peer: loki2-sim-call (always call)", players[1].times))
    print(line("peer: loki1 (rules)", players[2].times))
    print("   target: loki2 median <= 100 ms\n")


def reweighting(repeats: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    rules = TripleRules()
    ours, plain, loki1 = [], [], []
    for _ in range(repeats):
        board = tuple(int(c) for c in rng.choice(NUM_CARDS, int(rng.integers(3, 6)), replace=False))
        strength, potential = board_values(board)  # once per board, shared by all observers
        postflop_values(board)
        context = TripleContext(len(board) - 2, 1, 1, 20, 20, 120, 20, 3, 1, False, False, True)
        weights = rng.random(len(strength))
        start = time.thread_time()
        triples = holding_triples(strength, potential, 3, context, rules, 0.5, 0.85)
        new = reweight_by_triples(weights, triples, 1)
        ours.append(time.thread_time() - start)
        start = time.thread_time()
        reference = [
            reference_triple(h**3, h**3 + (1 - h**3) * p, h**3 + (1 - h**3) * p, p, context, rules, 0.5, 0.85)
            for h, p in zip(strength.tolist(), potential.tolist(), strict=True)
            if h == h
        ]
        plain.append(time.thread_time() - start)
        assert np.allclose([r[1] for r in reference], triples[~np.isnan(strength), 1])
        start = time.thread_time()
        reweight(weights, postflop_values(board), 0.5, 0.2)
        loki1.append(time.thread_time() - start)
        assert new.shape == weights.shape
    print(f"2. re-weighting all 1,326 holdings, {repeats} random boards and tables, seed {seed}")
    print(f"{'how':<34}{'median ms':>11}{'ratio':>9}")
    base = np.median(ours)
    for name, t in (
        ("loki2: triples kernel + product", ours),
        ("peer: plain reference_triple loop", plain),
        ("peer: loki1 threshold re-weighting", loki1),
    ):
        print(f"{name:<34}{np.median(t) * 1e3:>11.3f}{np.median(t) / base:>8.1f}x")
    print("   target: loki2 <= 1 ms\n")


def tables(hands: int, seed: int) -> None:
    print(f"3. ten-seat tables, {hands} hands, seed {seed}, CPU time of one core")
    rates = {}
    for name in ("loki2-triples", "loki1"):
        COUNTS_CACHE.clear()  # the same deals: no table may use the other's potential counts
        start = time.thread_time()
        play_match([name] * 10, hands, seed=seed)
        rates[name] = hands / (time.thread_time() - start)
    print(f"loki2-triples {rates['loki2-triples']:.0f} hands/s; peer loki1 {rates['loki1']:.0f} hands/s")
    print("   target: loki2-triples >= 150 hands/s")


def common_numbers(repeats: int, seed: int) -> None:
    """Ten seats, four see the flop 9h 8c 2c; the first bets and we (Ah 8h, the button) decide."""
    holes = parse_cards("Ks Kd 7c 7d Qs Js 5h 5d 4c 3c Tc 9c 6s 6d Ad Kc 2s 2h Ah 8h")
    state = HandState(GameConfig(), holes, parse_cards("9h 8c 2c Js 3d"))
    for action in (CALL, FOLD, FOLD, FOLD, FOLD, FOLD, CALL, CALL, CALL, CALL, FOLD):  # to the flop
        state.act(action)
    state.act(RAISE)  # the big blind bets, the next two call
    state.act(CALL)
    state.act(CALL)
    view = seat_view(state, 9)
    keep = {p: np.ones(NUM_HOLDINGS) if not view.folded[p] else folded_keep_weights() for p in range(9)}
    thresholds = np.broadcast_to(np.array([0.5, 0.85]), (10, 4, 3, 2))
    rng = np.random.default_rng(seed)
    print(f"4. EV(raise) - EV(call) over {repeats} 500-trial decisions on one flop, seed {seed}")
    for crn in (True, False):
        config = SimulationConfig(common_random_numbers=crn)
        differences = []
        for _ in range(repeats):
            result = simulate(view, keep, None, thresholds, False, TripleRules(), config, rng)
            differences.append(result.ev_raise - result.ev_call)
        label = "with common random numbers" if crn else "peer: independent trials"
        spread = np.std(differences, ddof=1)
        print(f"{label:<34} spread {spread:6.2f} chips (last SE {result.se_difference:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=100, help="hands for the decision times (default 100)")
    parser.add_argument("--table-hands", type=int, default=300, help="hands per table (default 300)")
    parser.add_argument("--repeats", type=int, default=200, help="boards for the re-weighting (default 200)")
    parser.add_argument("--crn-repeats", type=int, default=10, help="decisions for 4. (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in ("hands", "table_hands", "repeats"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.crn_repeats < 2:
        parser.error("--crn-repeats must be at least 2 (a spread needs two decisions)")
    play_match(["loki2", "loki2-sim-call", "loki1", "loki2-triples"], 10, seed=0)  # compile / load caches
    decisions(args.hands, args.seed)
    reweighting(args.repeats, args.seed)
    tables(args.table_hands, args.seed)
    common_numbers(args.crn_repeats, args.seed)


if __name__ == "__main__":
    main()
