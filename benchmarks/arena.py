"""Hands per second of whole matches of random players: `pokerlab.play_match` beside RLCard's environment.

Ours: ``play_match(["random"] * n, hands=N, seed=S)`` in one process (one core), at 10 seats and heads-up;
the same with ``out=<a temporary folder>`` (every hand written to the results folder: per-hand results
and the SQLite hand store, then summary and bankroll plot once at the end), and what writing costs on top,
per hand (the difference of two hand counts, so one-off set-up cancels, and the summary and plot taken
out) and in all (with the one-off set-up, summary and plot); the same with
``isolate=True`` (every agent in its own sandboxed process, `arena.sandbox`, spoken to over `arena.wire`),
and what isolation costs; and six Loki-1 players in process and isolated, in the same run (``--loki-hands``):
in process and isolated play the same deals, timed over the hands alone (from the last seat's session
start to the last hand, `HandsClock`), and the isolated run must end with the in-process nets and no
fault, or the script stops without a figure; and how long a session's start takes an isolated bot once
its sandbox is up. RLCard: its
``limit-holdem`` environment with ``game_num_players`` n and its `RandomAgent` in every seat, playing whole
hands through ``env.run(is_training=False)`` (what RL users call: encoded observations and trajectories
for every seat). Each figure is the best of ``--repeats`` runs after a short warm-up (numba compilation,
imports). Random players choose differently on each side (ours draw from their own generators among our
legal actions, RLCard's `RandomAgent` from numpy's global state among its own), so hands differ in length:
decisions per second are shown beside hands per second, and the ratio of each, as `benchmarks/engine.py`
does for the engines. Decisions are counted outside the clock: ours from the hand store of an untimed
written run of the same seeded hands (checked to end with the timed run's nets), RLCard's from the
trajectories `env.run` returns (summing their lengths, in the loop, costs 0.1-0.2 us a hand: about 0.1 % of a
heads-up hand). Usage:
``python benchmarks/arena.py [--hands N] [--loki-hands N] [--seed S] [--repeats R] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np

import pokerlab
from pokerlab.arena.output import ResultsWriter
from pokerlab.arena.players import AgentSpec, IsolatedPlayer
from pokerlab.arena.store import read_hands
from pokerlab.arena.table import Table


def ours(
    n: int, hands: int, seed: int, write: bool = False, isolate: bool = False, finish=None, agent="random"
) -> float:
    """Hands/s of `play_match` with n `agent`s, optionally writing the results folder or isolating the
    agents; `finish` collects the seconds the one-off summary and plot took."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "match" if write else None
        writer_finish = ResultsWriter.finish
        spent = []

        def timed_finish(self, result):
            began = time.perf_counter()
            writer_finish(self, result)
            spent.append(time.perf_counter() - began)

        ResultsWriter.finish = timed_finish
        try:
            start = time.perf_counter()
            result = pokerlab.play_match([agent] * n, hands=hands, seed=seed, out=out, isolate=isolate)
            elapsed = time.perf_counter() - start
        finally:
            ResultsWriter.finish = writer_finish
        if finish is not None and spent:
            finish.append(spent[0])
        assert result.hands == hands and result.nets.shape == (hands, n)
        if write:
            assert (out / "summary.json").is_file()
    return hands / elapsed


def our_decisions(n: int, hands: int, seed: int) -> int:
    """Decisions in the `hands` hands of `play_match` with n random players and `seed`, counted after the
    clock: from the hand store of a written run (every action of every hand), which must end with the
    nets of a plain run (a seeded match plays the same hands whether it writes or not, so the timed plain,
    written and isolated runs of these arguments made exactly these decisions)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "match"
        written = pokerlab.play_match(["random"] * n, hands=hands, seed=seed, out=out)
        plain = pokerlab.play_match(["random"] * n, hands=hands, seed=seed)
        assert np.array_equal(written.nets, plain.nets), "a written run played other hands than a plain one"
        return sum(len(record.actions) for _, record in read_hands(out / "hands.sqlite"))


def rlcard_env(n: int, hands: int, seed: int) -> tuple[float, float]:
    """(hands/s, decisions/s) of RLCard's 'limit-holdem' environment with its RandomAgent in all n seats
    (env.run). A seat's trajectory is its states and actions in turn, ending with a final state (2k + 1
    entries for k decisions), so a hand's decisions are (the sum of its trajectories' lengths - n) / 2."""
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("limit-holdem", config={"game_num_players": n, "seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(n)])
    np.random.seed(seed)  # RLCard's RandomAgent draws from numpy's global generator: seeded for repeatability
    entries = 0
    start = time.perf_counter()
    for _ in range(hands):
        trajectories, payoffs = env.run(is_training=False)
        entries += sum(map(len, trajectories))
    elapsed = time.perf_counter() - start
    # the environment really seats n players, each dealt two cards, and pays all of them
    assert env.num_players == len(env.game.players) == len(payoffs) == len(trajectories) == n
    assert all(len(player.hand) == 2 for player in env.game.players)
    return hands / elapsed, (entries - n * hands) / 2 / elapsed


def best(func, n: int, hands: int, seed: int, repeats: int, fresh_deals: bool = False, **kwargs):
    """The best rate of `repeats` runs of func (after a 50-hand warm-up), or the best (hands/s, decisions/s)
    pair, by hands/s, where func returns pairs; with `fresh_deals` each run plays other deals (seeds
    seed + 1, seed + 2, ...: Loki-1's caches would otherwise hold every board already)."""
    func(n, 50, seed, **kwargs)
    return max(func(n, hands, seed + (r + 1) * fresh_deals, **kwargs) for r in range(repeats))


class HandsClock:
    """Times the hands of a one-session match alone: from the moment every seat's session has started
    (an isolated bot's sandbox booted, its session process forked and ready) to the end of the last hand,
    before the session's end and the processes' stop. The same window in process and isolated."""

    def __enter__(self) -> HandsClock:
        self.marks: list[float] = []
        self.saved = Table.new_session, Table.end_session
        new_session, end_session = self.saved
        marks = self.marks

        def timed_new_session(table, *args, **kwargs):
            new_session(table, *args, **kwargs)
            marks.append(time.perf_counter())

        def timed_end_session(table, *args, **kwargs):
            marks.append(time.perf_counter())
            end_session(table, *args, **kwargs)

        Table.new_session, Table.end_session = timed_new_session, timed_end_session
        self.began = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        Table.new_session, Table.end_session = self.saved

    def window(self) -> tuple[float, float]:
        """(seconds of hands, seconds from the match's call to its first hand)."""
        assert len(self.marks) == 2, "one session, timed from its start to its end"
        return self.marks[1] - self.marks[0], self.marks[0] - self.began


def paired_rates(n: int, hands: int, seed: int, repeats: int, agent="random", fresh_deals=False):
    """(hands/s in process, hands/s isolated, seconds an isolated match takes to its first hand), each
    the best of `repeats` runs of the same deals in process and isolated (hands alone, `HandsClock`), after
    a short warm-up of both. Every isolated run must play exactly the in-process run's hands (the same nets
    for every seat) with no fault: a broken isolated run never yields a figure."""
    for isolate in (False, True):
        pokerlab.play_match([agent] * n, hands=20, seed=seed, isolate=isolate)
    local, isolated, starts = [], [], []
    for r in range(repeats):
        deals = seed + (r + 1) * fresh_deals  # Loki-1's caches would otherwise hold every board already
        results = []
        for isolate, rates in ((False, local), (True, isolated)):
            with HandsClock() as clock:
                results.append(pokerlab.play_match([agent] * n, hands=hands, seed=deals, isolate=isolate))
            seconds, start = clock.window()
            rates.append(hands / seconds)
            if isolate:
                starts.append(start)
        plain, alone = results
        if sum(alone.faults) or not np.array_equal(plain.nets, alone.nets):
            raise SystemExit(
                f"{n} {agent} isolated did not play the in-process hands (faults {alone.faults}, "
                f"same nets: {np.array_equal(plain.nets, alone.nets)}): no figure"
            )
    return max(local), max(isolated), min(starts)


def session_start(agent: str, sessions: int = 5) -> float:
    """Seconds an isolated `agent` takes to start a session once its sandbox is up (the mean of
    `sessions`): a fork of its zygote, the bot's import and construction, one round trip."""
    player = IsolatedPlayer(AgentSpec(agent))
    try:
        player.new_session([1, 1, 0, 0])  # the sandbox's boot
        began = time.perf_counter()
        for session in range(1, sessions + 1):
            player.new_session([1, 1, session, 0])
        return (time.perf_counter() - began) / sessions
    finally:
        player.close()


def per_hand_write(n: int, hands: int, seed: int, repeats: int) -> tuple[float, float]:
    """(what writing every hand to the results folder adds to a hand's cost, as a fraction; seconds of the
    one-off summary and plot) for n seats, by differencing two hand counts: the seconds of 2 x `hands` less
    those of `hands` (the same first hands), with and without writing, each the best of `repeats` (the
    four runs interleaved). One-off costs (the folder, the store's set-up) cancel in the difference, and
    the summary and plot made once at the end are taken out of every timing (they grow with the hands
    plotted)."""
    ours(n, 50, seed, write=True)  # warm-up: imports, numba, the plotting library

    def seconds(count: int, write: bool) -> tuple[float, float]:
        finish: list[float] = []
        took = count / ours(n, count, seed, write=write, finish=finish)
        return took - sum(finish), sum(finish)

    keys = [(count, write) for count in (hands, 2 * hands) for write in (False, True)]
    runs: dict[tuple[int, bool], list[tuple[float, float]]] = {key: [] for key in keys}
    for _ in range(repeats):  # interleaved, so that a change in the machine's load touches all four alike
        for key in keys:
            runs[key].append(seconds(*key))
    timed = {key: min(times) for key, times in runs.items()}
    plain = timed[2 * hands, False][0] - timed[hands, False][0]
    written = timed[2 * hands, True][0] - timed[hands, True][0]
    return written / plain - 1, timed[hands, True][1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="hands per measurement (default 5000)")
    parser.add_argument("--seed", type=int, default=1, help="match and environment seed (default 1)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure, the best counts (default 3)")
    parser.add_argument(
        "--loki-hands", type=int, default=300, help="hands per measurement of 6 Loki-1 (default 300)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    loki_local, loki_isolated, loki_start = paired_rates(
        6, args.loki_hands, args.seed, args.repeats, agent="loki1", fresh_deals=True
    )
    loki = {
        "pokerlab loki1 x6": loki_local,
        "pokerlab loki1 x6 --isolate": loki_isolated,
        "isolated / in process": loki_isolated / loki_local,
        "isolated processes start (s)": loki_start,
        "session start (s), random": session_start("random"),
        "session start (s), loki1": session_start("loki1"),
    }
    table = {}
    for n in (10, 2):
        plain = best(ours, n, args.hands, args.seed, args.repeats)
        written = best(ours, n, args.hands, args.seed, args.repeats, write=True)
        per_hand, one_off = per_hand_write(n, args.hands, args.seed, args.repeats)
        isolated_hands = max(200, args.hands // 10)
        local, isolated, startup = paired_rates(n, isolated_hands, args.seed, args.repeats)
        peer, peer_decisions = best(rlcard_env, n, args.hands, args.seed, args.repeats)
        per_hand_decisions = our_decisions(n, args.hands, args.seed) / args.hands  # after the clocks
        isolated_per_hand = our_decisions(n, isolated_hands, args.seed) / isolated_hands
        table[n] = {
            "pokerlab": plain,
            "pokerlab --out": written,
            "pokerlab --isolate": isolated,
            "rlcard env": peer,
            "decisions/s": {
                "pokerlab": plain * per_hand_decisions,
                "pokerlab --out": written * per_hand_decisions,
                "pokerlab --isolate": isolated * isolated_per_hand,
                "rlcard env": peer_decisions,
            },
            "decisions per hand": {"pokerlab": per_hand_decisions, "rlcard env": peer_decisions / peer},
            "writing costs per hand": per_hand,
            "writing costs in all": plain / written - 1,
            "summary and plot (s)": one_off,
            "pokerlab, hands alone": local,
            "isolation costs": local / isolated,
            "isolated processes start (s)": startup,
        }
    if args.json:
        players = {str(n): row for n, row in table.items()}
        print(json.dumps({"hands": args.hands, "seed": args.seed, "players": players, "loki1": loki}))
        return
    print(f"{args.hands:,} hands per run, seed {args.seed}, best of {args.repeats}, one core")
    print("random players choose differently on each side, so hands differ in length: decisions/s too")
    ratio = "ours / rlcard"
    print(f"{'players':>7}  {'arena':<18}{'hands/s':>10}  {ratio:>13}{'decisions/s':>13}  {ratio:>13}")
    for n, row in table.items():
        decisions = row["decisions/s"]
        for name in ("pokerlab", "pokerlab --out", "pokerlab --isolate", "rlcard env"):
            print(
                f"{n:>7}  {name:<18}{row[name]:>10,.0f}  {row[name] / row['rlcard env']:>12.2f}x"
                f"{decisions[name]:>13,.0f}  {decisions[name] / decisions['rlcard env']:>12.2f}x"
            )
        per_hand = row["decisions per hand"]
        print(
            f"{n:>7}  decisions per hand: {per_hand['pokerlab']:.2f} ours, {per_hand['rlcard env']:.2f} "
            f"rlcard (the isolated runs: {max(200, args.hands // 10):,} hands each)"
        )
        print(
            f"{n:>7}  writing every hand costs {row['writing costs per hand']:+.0%} per hand (the difference "
            f"of {args.hands:,} and {2 * args.hands:,} hands), {row['writing costs in all']:+.0%} in all at "
            f"{args.hands:,} hands with the set-up, summary and plot ({row['summary and plot (s)']:.2f} s)"
        )
        print(
            f"{n:>7}  isolation costs {row['isolation costs']:.1f}x per hand (hands alone, same deals, "
            f"same nets, no fault: {row['pokerlab, hands alone']:,.0f} in process), after "
            f"{row['isolated processes start (s)']:.1f} s to start the {n} processes"
        )
    print(f"6 Loki-1, {args.loki_hands:,} hands per run: {loki_local:,.0f} hands/s in process", end="")
    print(
        f", {loki_isolated:,.0f} isolated ({loki['isolated / in process']:.2f}x, hands alone, same deals, "
        f"same nets, no fault; {loki_start:.1f} s to start the 6 sandboxes)"
    )
    print(
        f"a session's start, sandbox up: {loki['session start (s), random']:.3f} s (random), "
        f"{loki['session start (s), loki1']:.3f} s (loki1)"
    )


if __name__ == "__main__":
    main()
