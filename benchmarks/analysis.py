"""Hand assessment speed: ours beside the same computation written plainly with eval7 and phevaluator.

Run: python benchmarks/analysis.py [--table]   (--table also times the 10-player income-rate table,
169 types x 1,000,000 games, on every core). Our kernels run on one core; a figure is the best of several
runs after a warm-up (numba compiles once, then caches). The peers evaluate each opponent hand once per
case and our hand once per board, as a careful plain implementation would; they run once (they are slow).
A row of ours is a first call on its hand and board (the process's potential cache cleared before each
run) unless it says it repeats a cached call.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from itertools import combinations

import eval7
import numba
import numpy as np
from phevaluator import evaluate_cards

from pokerlab.analysis.income_rate import simulate_table
from pokerlab.analysis.potential import (
    COUNTS_CACHE,
    hand_potential,
    potential_counts,
    rank_table,
    two_card_holding_counts,
)
from pokerlab.analysis.situation import situation
from pokerlab.analysis.strength import hand_strength, holding_strengths
from pokerlab.cards import format_card, parse_cards

HOLE, FLOP = parse_cards("Ad Qc"), parse_cards("3h 4c Jh")
UNSEEN = [c for c in range(52) if c not in HOLE + FLOP]


def best_time(run: Callable[[], object], repeats: int) -> float:
    """Seconds of the fastest of `repeats` runs, after one warm-up run."""
    run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def timed_once(run: Callable[[], object]) -> tuple[float, object]:
    """Seconds of one run, and what it returned."""
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


class Peer:
    """A peer library's rank function (higher is better) and our cards in its own card type."""

    def __init__(self, library: str) -> None:
        if library == "eval7":
            native = [eval7.Card(format_card(c)) for c in range(52)]
            self.rank = eval7.evaluate
        else:
            native = list(range(52))  # phevaluator numbers cards as we do; lower is better there
            self.rank = lambda cards: -evaluate_cards(*cards)
        self.hole, self.flop = [native[c] for c in HOLE], [native[c] for c in FLOP]
        self.unseen = [native[c] for c in UNSEEN]
        self.live = [native[c] for c in range(52) if c not in FLOP]


def peer_potential(peer: Peer) -> np.ndarray:
    """Billings et al. 1998 Table 2 (two cards to come) by plain enumeration with a peer evaluator."""
    rank, hole, flop = peer.rank, peer.hole, peer.flop
    table = [[0] * 3 for _ in range(3)]
    pairs = [list(pair) for pair in combinations(peer.unseen, 2)]
    ours_final = [rank(hole + flop + pair) for pair in pairs]
    ours_now = rank(hole + flop)
    for opponent in combinations(peer.unseen, 2):
        base = list(opponent) + flop
        theirs = rank(base)
        row = table[0 if ours_now > theirs else (1 if ours_now == theirs else 2)]
        for pair, ours in zip(pairs, ours_final, strict=True):
            if pair[0] in opponent or pair[1] in opponent:
                continue
            theirs = rank(base + pair)
            row[0 if ours > theirs else (1 if ours == theirs else 2)] += 1
    return np.array(table)


def peer_strength(peer: Peer) -> float:
    """HS of A♦Q♣ on 3♥4♣J♥ by plain enumeration with a peer evaluator."""
    ours = peer.rank(peer.hole + peer.flop)
    counts = [0, 0, 0]
    for opponent in combinations(peer.unseen, 2):
        theirs = peer.rank(list(opponent) + peer.flop)
        counts[0 if ours > theirs else (1 if ours == theirs else 2)] += 1
    return (counts[0] + counts[1] / 2) / sum(counts)


def peer_all_strengths(peer: Peer) -> np.ndarray:
    """HS_1 of every holding on the flop: rank each holding once, then compare all pairs with numpy."""
    holdings = list(combinations(range(len(peer.live)), 2))  # the 1,176 holdings that miss the board
    ranks = np.array([peer.rank([peer.live[a], peer.live[b]] + peer.flop) for a, b in holdings])
    cards = np.array(holdings)
    clash = (cards[:, None, :, None] == cards[None, :, None, :]).any(axis=(2, 3))
    ahead = ((ranks[:, None] > ranks[None, :]) & ~clash).sum(axis=1)
    tied = ((ranks[:, None] == ranks[None, :]) & ~clash).sum(axis=1)
    return (ahead + tied / 2) / (~clash).sum(axis=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", action="store_true", help="also time the 10-player income-rate table")
    args = parser.parse_args()
    libraries = ("eval7", "phevaluator")
    weights = np.random.default_rng(2026).random(1326)
    known, weighted = situation(HOLE, FLOP), situation(HOLE, FLOP, weights)
    four = rank_table(known.board, 4)  # shared by every player on the flop
    rows = []

    def peers(compute: Callable[[Peer], object], expected: object) -> dict[str, float]:
        out = {}
        for library in libraries:
            peer = Peer(library)
            seconds, result = timed_once(lambda peer=peer: compute(peer))
            assert np.allclose(result, expected), library
            out[library] = seconds
        return out

    table = potential_counts(known.hole, known.board, known.weights, 2)
    rows.append(
        (
            "two-card potential, 1,070,190 cases",
            "<= 10 ms",
            best_time(lambda: potential_counts(known.hole, known.board, known.weights, 2), 20),
            peers(peer_potential, table),
        )
    )
    rows.append(
        (
            "two-card potential, weighted",
            "<= 15 ms",
            best_time(lambda: potential_counts(weighted.hole, weighted.board, weighted.weights, 2), 20),
            {},
        )
    )
    rows.append(
        (
            "two_card_holding_counts(): by rank classes",
            "",
            best_time(lambda: two_card_holding_counts(known.hole, known.board, four), 20),
            {},
        )
    )

    def fresh_potential():
        COUNTS_CACHE.clear()  # each run counts afresh: what a new hand and board cost
        return hand_potential("Ad Qc", "3h 4c Jh")

    rows.append(
        ("hand_potential(): 2 and 1 cards to come, from text", "", best_time(fresh_potential, 20), {})
    )
    rows.append(
        (
            "  the same call repeated (cached counts, re-weighted)",
            "",
            best_time(lambda: hand_potential("Ad Qc", "3h 4c Jh"), 20),
            {},
        )
    )
    rows.append(
        (
            "hand_strength(): 1,081 subcases, from text",
            "<= 0.1 ms",
            best_time(lambda: hand_strength("Ad Qc", "3h 4c Jh"), 500),
            peers(peer_strength, hand_strength("Ad Qc", "3h 4c Jh").hand_strength),
        )
    )
    every = holding_strengths(FLOP)
    rows.append(
        (
            "holding_strengths(): HS_1 of all 1,326 holdings",
            "<= 1 ms",
            best_time(lambda: holding_strengths(FLOP), 100),
            peers(peer_all_strengths, every[~np.isnan(every)]),
        )
    )
    if args.table:
        seconds, _ = timed_once(lambda: simulate_table(10, 1_000_000))
        rows.append(
            (
                f"10-player IR table, 169 x 1M games, {numba.get_num_threads()} threads",
                "<= 120 s",
                seconds,
                {},
            )
        )

    print(f"{'case':<52} {'target':>9} {'pokerlab':>12} " + " ".join(f"{lib:>20}" for lib in libraries))
    for case, target, ours, times in rows:
        cells = [
            f"{times[lib] * 1e3:9.1f} ms {times[lib] / ours:6.0f}x" if lib in times else f"{'-':>20}"
            for lib in libraries
        ]
        figure = f"{ours:9.2f} s " if ours >= 1 else f"{ours * 1e3:9.3f} ms"
        print(f"{case:<52} {target:>9} {figure} " + " ".join(cells))


if __name__ == "__main__":
    main()
