"""Hand-evaluator speed: ours beside the peers installed with the test extras, in one run.

Prints evaluations per second (best of several repeats, one core) and, where a peer does the same kind of
call, the ratio ours / peer. The peers installed here (phevaluator, eval7, treys) are called once per hand
from Python, so they are compared with our `evaluate()` called the same way; our `evaluate_batch` (a
compiled loop over a numpy array) has no like-for-like peer among them: its fair peer is a native batch
evaluator (such as OMPEval, in C++), which is not built here, so its row stands alone.
Run: ``.venv/bin/python benchmarks/evaluator.py [--quick]`` (seeded; figures vary with the machine,
the ratios much less).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from pokerlab import evaluate, evaluate_batch
from pokerlab.cards import format_cards
from pokerlab.evaluator import seven_card_rank_counts


def best_rate(fn, n: int, repeats: int) -> float:
    """Best items per second of fn() (which handles n items) over repeats."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return n / best


def random_hands(rng: np.random.Generator, n: int, k: int, chunk: int = 500_000) -> np.ndarray:
    """n hands of k distinct random cards (uint8), drawn a chunk at a time to keep memory small."""
    parts = [
        np.argpartition(rng.random((min(chunk, n - i), 52)), k - 1, axis=1)[:, :k].astype(np.uint8)
        for i in range(0, n, chunk)
    ]
    return np.concatenate(parts)


def peers_random7(hands: np.ndarray, repeats: int) -> dict[str, float]:
    rates: dict[str, float] = {}
    rows = hands.tolist()
    try:
        from phevaluator._pheval import evaluate_7cards

        rates["phevaluator"] = best_rate(lambda: [evaluate_7cards(*h) for h in rows], len(rows), repeats)
    except ImportError:
        pass
    try:
        import eval7

        deck = [eval7.Card(s) for s in format_cards(range(52)).split()]
        objs = [[deck[c] for c in h] for h in rows]
        rates["eval7"] = best_rate(lambda: [eval7.evaluate(h) for h in objs], len(objs), repeats)
    except ImportError:
        pass
    try:
        from treys import Card, Evaluator

        ev = Evaluator()
        deck = [Card.new(s) for s in format_cards(range(52)).split()]
        few = [[deck[c] for c in h] for h in rows[:20_000]]
        rates["treys"] = best_rate(lambda: [ev.evaluate(h[:2], h[2:]) for h in few], len(few), 1)
    except ImportError:
        pass
    return rates


def first_call_seconds(cold: bool) -> float:
    """Seconds for a fresh interpreter to import pokerlab and rank one batch (cold: empty numba cache)."""
    code = (
        "import time; t = time.perf_counter(); import numpy as np, pokerlab; "
        "pokerlab.evaluate_batch(np.arange(7, dtype=np.uint8)[None]); print(time.perf_counter() - t)"
    )
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        if cold:
            env["NUMBA_CACHE_DIR"] = tmp
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller samples, fewer repeats")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    repeats = 3 if args.quick else 7
    n_batch = 2_000_000 if args.quick else 10_000_000
    n_peer = 100_000 if args.quick else 500_000

    print("pokerlab evaluator benchmark (one core)")
    rows = []
    evaluate_batch(random_hands(rng, 10, 7))  # compile / load the cache
    for k in (7, 6, 5):
        hands = random_hands(rng, n_batch, k)
        out = np.empty(n_batch, dtype=np.int32)
        rows.append(
            (
                f"evaluate_batch, random {k}-card",
                best_rate(lambda h=hands, o=out: evaluate_batch(h, out=o), n_batch, repeats),
            )
        )
    hands7 = random_hands(rng, n_peer, 7)
    peers = peers_random7(hands7, repeats)
    scalar = hands7[:50_000].tolist()
    ours_scalar = best_rate(lambda: [evaluate(h) for h in scalar], len(scalar), repeats)

    t = time.perf_counter()
    seven_card_rank_counts()
    enum_s = time.perf_counter() - t

    print("our compiled batch (no like-for-like peer installed: a native batch evaluator would be one)")
    print(f"{'what':<38}{'per second':>16}")
    for name, rate in rows:
        print(f"{name:<38}{rate / 1e6:>14.1f} M")
    print("one Python call per hand, ours and the peers alike (ratio: ours / peer)")
    print(f"{'evaluate() scalar, random 7-card':<38}{ours_scalar / 1e6:>14.2f} M")
    for name, rate in peers.items():
        print(
            f"{name + ', random 7-card (per call)':<38}{rate / 1e6:>14.2f} M   ours (per call) is "
            f"{ours_scalar / rate:.2f}x"
        )
    print(
        f"all 133,784,560 seven-card hands enumerated in {enum_s:.2f} s "
        f"({133_784_560 / enum_s / 1e6:,.0f} M/s)"
    )
    if "phevaluator" in peers:
        print(f"  phevaluator would need {133_784_560 / peers['phevaluator']:,.0f} s at its per-call rate")
    print(
        f"first call in a fresh interpreter: {first_call_seconds(cold=False):.2f} s with the numba cache, "
        f"{first_call_seconds(cold=True):.2f} s compiling from scratch"
    )


if __name__ == "__main__":
    main()
