"""Hand-evaluator speed: ours beside the peers installed with the test extras, and a native one, in one run.

Prints evaluations per second (best of several repeats, one core) and, where a peer does the same kind of
call, the ratio ours / peer. The peers installed here (phevaluator, eval7, treys) are called once per hand
from Python, so they are compared with our `evaluate()` called the same way. Our `evaluate_batch` (a
compiled loop over a numpy array) is compared with a native C++ evaluator doing the same: OMPEval
(github.com/zekyll/OMPEval) ranking the same random 7-card hands from an array of card codes in a C++ loop.
OMPEval is not shipped with pokerlab: point ``--ompeval DIR`` (or the environment variable ``OMPEVAL_DIR``)
at a checkout of it and the script compiles a small driver against it with ``c++ -O3 -march=native`` (or
``$CXX``) into a cache folder (``~/.cache/pokerlab/ompeval``), checks that both evaluators order every
hand alike, and prints the native figure; without a checkout or a compiler it says so in one line.
Run: ``.venv/bin/python benchmarks/evaluator.py [--quick] [--ompeval DIR]`` (seeded; figures vary with the
machine, the ratios much less).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


#: The native side: rank n hands of 7 card codes (4 * rank + suit, as ours and OMPEval's) read from a file,
#: best of REPEATS timed loops, then write the ranks (uint16) and print the best loop's seconds.
OMPEVAL_DRIVER = r"""
#include <omp/HandEvaluator.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 4) return 2;
    std::FILE* in = std::fopen(argv[1], "rb");
    if (!in) return 3;
    std::vector<unsigned char> cards;
    unsigned char buffer[1 << 16];
    for (size_t got; (got = std::fread(buffer, 1, sizeof buffer, in)) > 0;)
        cards.insert(cards.end(), buffer, buffer + got);
    std::fclose(in);
    const size_t n = cards.size() / 7;
    const int repeats = std::atoi(argv[3]);
    omp::HandEvaluator eval;  // before any Hand: it fills the card tables
    std::vector<omp::Hand> deck;
    for (unsigned c = 0; c < 52; ++c) deck.push_back(omp::Hand(c));
    std::vector<uint16_t> ranks(n);
    double best = 1e30;
    for (int r = 0; r < repeats; ++r) {
        auto start = std::chrono::steady_clock::now();
        for (size_t i = 0; i < n; ++i) {
            const unsigned char* c = &cards[7 * i];
            omp::Hand h = omp::Hand::empty() + deck[c[0]] + deck[c[1]] + deck[c[2]] + deck[c[3]] + deck[c[4]]
                          + deck[c[5]] + deck[c[6]];
            ranks[i] = eval.evaluate(h);
        }
        std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        best = std::min(best, took.count());
    }
    std::FILE* out = std::fopen(argv[2], "wb");
    if (!out || std::fwrite(ranks.data(), sizeof(uint16_t), n, out) != n) return 4;
    std::fclose(out);
    std::printf("%.9f\n", best);
    return 0;
}
"""
# OMPEval's own Makefile's, and the host's instruction set (its SSE4 code; numba compiles ours for the host)
OMPEVAL_FLAGS = ["-O3", "-std=c++11", "-pthread", "-march=native"]


def build_ompeval(source: Path) -> Path:
    """The driver compiled against the OMPEval checkout `source`, cached by the hash of its sources, the
    driver, the compiler and the flags. Raises RuntimeError with one line saying why it cannot."""
    compiler = os.environ.get("CXX", "c++")
    if shutil.which(compiler) is None:
        raise RuntimeError(f"no C++ compiler {compiler!r} on the PATH (set CXX)")
    evaluator = source / "omp" / "HandEvaluator.cpp"
    if not evaluator.is_file():
        raise RuntimeError(f"{source} is not an OMPEval checkout (no omp/HandEvaluator.cpp)")
    digest = hashlib.sha256(f"{OMPEVAL_DRIVER}{compiler}{OMPEVAL_FLAGS}".encode())
    for path in sorted((source / "omp").iterdir()):
        digest.update(path.name.encode() + path.read_bytes())
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "pokerlab" / "ompeval"
    binary = cache / f"bench-{digest.hexdigest()[:16]}"
    if binary.is_file():
        return binary
    cache.mkdir(parents=True, exist_ok=True)
    driver = cache / "driver.cpp"
    driver.write_text(OMPEVAL_DRIVER)
    built = subprocess.run(
        [compiler, *OMPEVAL_FLAGS, f"-I{source}", str(driver), str(evaluator), "-o", f"{binary}.part"],
        capture_output=True,
        text=True,
    )
    if built.returncode:
        first = (built.stderr.strip().splitlines() or ["no message"])[0]
        raise RuntimeError(f"{compiler} failed to build it: {first}")
    os.replace(f"{binary}.part", binary)
    return binary


def native_rate(binary: Path, hands: np.ndarray, repeats: int) -> float:
    """Evaluations per second of OMPEval on `hands` (best of `repeats` loops), after checking that it orders
    every hand as our `evaluate_batch` does (the two scales differ; the order may not)."""
    with tempfile.TemporaryDirectory() as tmp:
        cards, ranks = Path(tmp) / "hands.u8", Path(tmp) / "ranks.u16"
        np.ascontiguousarray(hands, dtype=np.uint8).tofile(cards)
        run = subprocess.run(
            [str(binary), str(cards), str(ranks), str(repeats)], capture_output=True, text=True, check=True
        )
        native = np.fromfile(ranks, dtype=np.uint16)
    ours = evaluate_batch(hands)
    order = np.argsort(ours, kind="stable")
    ours_sorted, native_sorted = ours[order], native[order].astype(np.int64)
    same = np.diff(ours_sorted) == 0
    if not (np.all(np.diff(native_sorted)[same] == 0) and np.all(np.diff(native_sorted)[~same] > 0)):
        raise SystemExit("OMPEval and pokerlab order these hands differently: no figure")
    return len(hands) / float(run.stdout)


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
    parser.add_argument(
        "--ompeval",
        type=Path,
        default=os.environ.get("OMPEVAL_DIR"),
        help="a checkout of OMPEval to build and measure beside our batch (default: $OMPEVAL_DIR)",
    )
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    repeats = 3 if args.quick else 7
    n_batch = 2_000_000 if args.quick else 10_000_000
    n_peer = 100_000 if args.quick else 500_000

    print("pokerlab evaluator benchmark (one core)")
    rows = []
    evaluate_batch(random_hands(rng, 10, 7))  # compile / load the cache
    batches = {k: random_hands(rng, n_batch, k) for k in (7, 6, 5)}
    for k, hands in batches.items():
        out = np.empty(n_batch, dtype=np.int32)
        rows.append(
            (
                f"evaluate_batch, random {k}-card",
                best_rate(lambda h=hands, o=out: evaluate_batch(h, out=o), n_batch, repeats),
            )
        )
    if args.ompeval is None:
        native = (
            "OMPEval not measured: point --ompeval (or OMPEVAL_DIR) at a checkout of "
            "github.com/zekyll/OMPEval"
        )
    else:
        try:
            native = native_rate(build_ompeval(args.ompeval), batches[7], repeats)
        except RuntimeError as exc:
            native = f"OMPEval not measured: {exc}"
    hands7 = random_hands(rng, n_peer, 7)
    peers = peers_random7(hands7, repeats)
    scalar = hands7[:50_000].tolist()
    ours_scalar = best_rate(lambda: [evaluate(h) for h in scalar], len(scalar), repeats)

    t = time.perf_counter()
    seven_card_rank_counts()
    enum_s = time.perf_counter() - t

    print("our compiled batch, and OMPEval (C++) looping over the same 7-card hands (ratio: ours / native)")
    print(f"{'what':<38}{'per second':>16}")
    for name, rate in rows:
        print(f"{name:<38}{rate / 1e6:>14.1f} M")
    if isinstance(native, str):
        print(native)
    else:
        print(
            f"{'OMPEval, random 7-card (C++ loop)':<38}{native / 1e6:>14.1f} M   "
            f"ours (batch) is {rows[0][1] / native:.2f}x"
        )
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
