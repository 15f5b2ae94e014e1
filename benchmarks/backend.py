"""What the Ray backend costs beside local worker processes: the wall time of one 10-seat duplicate match
(ten seat rotations, a session each, so ten independent tasks) played

* in this process (``workers=1``) and by two local worker processes (``workers=2``: the peer), and
* by Ray on this machine: one node of two CPUs (``ray.init(num_cpus=2)``), without and with the progress
  bar (the sessions telling their hands as they go to an actor the match reads), and two nodes of one
  CPU each on loopback (Ray's own `ray.cluster_utils.Cluster`), the cluster started before the clock.

Every run must end with the in-process nets (else the script stops without a figure). Each figure is the
best of ``--repeats`` runs after a warm-up (numba compilation, imports, Ray's worker processes); the two
one-node Ray rows take their repeats in turn, so that a change of load is not taken for the bar's cost.
Usage: ``python benchmarks/backend.py [--deals N] [--seed S] [--repeats R] [--json]`` (needs
``pokerlab[ray]``).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from pokerlab.arena import duplicate_tournament
from pokerlab.arena.backend import Backend

LINEUP = [
    "tight-aggressive",
    "loose-aggressive",
    "tight-passive",
    "loose-passive",
    "call",
    "raise",
    "random",
    "tight-aggressive",
    "loose-passive",
    "random",
]


def timed(
    deals: int, seed: int, runs: dict[str, tuple], repeats: int, nets: np.ndarray | None
) -> tuple[dict[str, float], np.ndarray]:
    """Best seconds of `repeats` matches of each run (name -> (workers, progress bar on)), after one
    warm-up each, the runs' repeats taken in turn so that they share the machine's load; and the last
    match's nets."""
    best = dict.fromkeys(runs, float("inf"))
    for workers, _ in runs.values():
        duplicate_tournament(LINEUP, max(1, deals // 10), seed=seed, workers=workers)  # warm-up
    for _ in range(repeats):
        for name, (workers, progress) in runs.items():
            start = time.perf_counter()
            result = duplicate_tournament(LINEUP, deals, seed=seed, workers=workers, progress=progress)
            best[name] = min(best[name], time.perf_counter() - start)
            if nets is not None and not (result.nets == nets).all():
                raise SystemExit(f"{name}: the nets differ from the in-process match's: no figure")
    return best, result.nets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="duplicate deals (x 10 seats = hands)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    import ray
    from ray.cluster_utils import Cluster

    seconds, nets = timed(args.deals, args.seed, {"workers=1": (1, False)}, args.repeats, None)
    seconds |= timed(args.deals, args.seed, {"workers=2": (2, False)}, args.repeats, nets)[0]
    ray.init(address="local", num_cpus=2, log_to_driver=False, include_dashboard=False)
    one_node = {
        "ray, 1 node x 2 CPUs": (Backend("ray"), False),
        "ray, 1 node, progress": (Backend("ray"), True),
    }
    seconds |= timed(args.deals, args.seed, one_node, args.repeats, nets)[0]
    ray.shutdown()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    two_nodes = {"ray, 2 nodes x 1 CPU": (Backend("ray"), False)}
    seconds |= timed(args.deals, args.seed, two_nodes, args.repeats, nets)[0]
    ray.shutdown()
    cluster.shutdown()
    peer = seconds["workers=2"]
    if args.json:
        print(json.dumps({"deals": args.deals, "seed": args.seed, "seconds": seconds}))
        return
    hands = args.deals * len(LINEUP)
    print(f"10-seat duplicate match, {args.deals} deals ({hands} hands), seed {args.seed}, ", end="")
    print(f"best of {args.repeats}")
    for name, value in seconds.items():
        print(f"{name:<24}{value:8.2f} s {hands / value:9.0f} hands/s {value / peer:6.2f}x workers=2's time")


if __name__ == "__main__":
    main()
