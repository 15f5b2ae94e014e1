"""What the Ray backend costs beside local worker processes: the wall time of one 10-seat duplicate match
(ten seat rotations, a session each, so ten independent tasks) played

* in this process (``workers=1``) and by two local worker processes (``workers=2``: the peer), and
* by Ray on this machine: one node of two CPUs (``ray.init(num_cpus=2)``), without and with the progress
  bar (the sessions telling their hands as they go to an actor the match reads), and two nodes of one
  CPU each on loopback (Ray's own `ray.cluster_utils.Cluster`), the cluster started before the clock.

Every run must end with the in-process nets (else the script stops without a figure). Each figure is the
best of ``--repeats`` runs after a warm-up (numba compilation, imports, Ray's worker processes). Usage:
``python benchmarks/backend.py [--deals N] [--seed S] [--repeats R] [--json]`` (needs ``pokerlab[ray]``).
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
    deals: int, seed: int, workers, repeats: int, nets: np.ndarray | None, progress: bool = False
) -> tuple[float, np.ndarray]:
    """Best seconds of `repeats` matches on `workers` (after one warm-up), and the match's nets; with
    `progress`, the progress bar on (stderr)."""
    best = float("inf")
    result = duplicate_tournament(LINEUP, max(1, deals // 10), seed=seed, workers=workers)  # warm-up
    for _ in range(repeats):
        start = time.perf_counter()
        result = duplicate_tournament(LINEUP, deals, seed=seed, workers=workers, progress=progress)
        best = min(best, time.perf_counter() - start)
    if nets is not None and not (result.nets == nets).all():
        raise SystemExit(f"{workers}: the nets differ from the in-process match's: no figure")
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

    seconds = {}
    seconds["workers=1"], nets = timed(args.deals, args.seed, 1, args.repeats, None)
    seconds["workers=2"], _ = timed(args.deals, args.seed, 2, args.repeats, nets)
    ray.init(address="local", num_cpus=2, log_to_driver=False, include_dashboard=False)
    seconds["ray, 1 node x 2 CPUs"], _ = timed(args.deals, args.seed, Backend("ray"), args.repeats, nets)
    seconds["ray, 1 node, progress"], _ = timed(
        args.deals, args.seed, Backend("ray"), args.repeats, nets, progress=True
    )
    ray.shutdown()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    seconds["ray, 2 nodes x 1 CPU"], _ = timed(args.deals, args.seed, Backend("ray"), args.repeats, nets)
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
