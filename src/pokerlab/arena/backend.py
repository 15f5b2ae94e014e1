"""Backends: where independent work runs (a match's sessions, an experiment's runs, a study's evaluations).

A `Backend` is this machine's processes (``Backend("local", workers=n)``, what ``workers=n`` has always
meant) or a Ray cluster (``Backend("ray", address=...)``). `farm` hands out tasks and yields each result
with the task's index as it finishes; callers order what they keep by that index (or by a key inside the
result), so the results do not depend on the backend, the number of workers or the number of nodes.

On Ray each task is a Ray task that Ray runs again, up to `RETRIES` times, when its worker process or its
node dies; its result reaches the caller only once the task has finished, so a task played again after a
node's death is counted once. A Ray cluster runs our own code (pokerlab must be installed on every node),
and anyone who can reach its port can run code on it: keep it on a private network. Outside bots stay in
their sandboxed processes, started by the node that plays their session. Ray is an optional extra
(``pip install 'pokerlab[ray]'``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass

from pokerlab.errors import ConfigError

#: The backends.
KINDS = ("local", "ray")

#: Times Ray plays a task again whose worker process or node died (an error the task raises is not retried).
RETRIES = 3

_ADDRESS = re.compile(r"auto|(ray://)?[A-Za-z0-9.\-]+:\d{1,5}")


@dataclass(frozen=True, slots=True)
class Backend:
    """Where `farm` runs tasks: ``kind`` "local" with ``workers`` processes (1: this process), or "ray"
    (a task per CPU the cluster has; ``workers`` does not apply) on the cluster at ``address``: "auto"
    (the cluster this machine belongs to), "ray://HOST:PORT" (a Ray client connection to a head node),
    "HOST:PORT" (a head node's address seen from within the cluster), or None (the RAY_ADDRESS environment
    variable, else a Ray started on this machine for the run)."""

    kind: str = "local"
    workers: int = 1
    address: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ConfigError(f"backend must be one of {', '.join(KINDS)}, got {self.kind!r}")
        if not isinstance(self.workers, int) or isinstance(self.workers, bool) or self.workers < 1:
            raise ConfigError(f"workers must be a positive integer, got {self.workers!r}")
        if self.address is not None:
            if self.kind != "ray":
                raise ConfigError(f"an address names a Ray cluster: give backend 'ray' with {self.address!r}")
            if not _ADDRESS.fullmatch(self.address):
                raise ConfigError(
                    f"a Ray address is auto, ray://HOST:PORT or HOST:PORT, got {self.address!r}"
                )


def as_backend(workers: int | Backend) -> Backend:
    """`workers` as a backend: a number of local processes, or a `Backend` as it is."""
    return workers if isinstance(workers, Backend) else Backend("local", workers)


def parallel(workers: int | Backend, tasks: int) -> bool:
    """Whether `farm` would run `tasks` tasks away from this process."""
    backend = as_backend(workers)
    return tasks > 1 and (backend.kind == "ray" or backend.workers > 1)


def farm(
    function: Callable, tasks: Sequence[tuple], workers: int | Backend = 1
) -> Iterator[tuple[int, object]]:
    """(index, ``function(*tasks[index])``) for every task, in the order they finish: in this process (one
    worker or one task), in local worker processes, or as Ray tasks. `function` must be a module-level
    function (it is imported by name where it runs). An error a task raises is raised here, the other
    tasks cancelled."""
    backend = as_backend(workers)
    if not parallel(backend, len(tasks)):
        for index, task in enumerate(tasks):
            yield index, function(*task)
    elif backend.kind == "local":
        yield from _local(function, tasks, backend.workers)
    else:
        yield from _ray(function, tasks, backend.address)


def _local(function: Callable, tasks: Sequence[tuple], workers: int) -> Iterator[tuple[int, object]]:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(min(workers, len(tasks)), mp_context=context) as pool:
        futures = {pool.submit(function, *task): index for index, task in enumerate(tasks)}
        try:
            pending = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=futures.__getitem__):
                    yield futures[future], future.result()
        finally:
            for future in futures:
                future.cancel()


def ray_module():
    """The `ray` module, connected to a cluster (`connect`), or one clear error where it is not installed."""
    try:
        import ray
    except ImportError:
        raise ConfigError(
            "the Ray backend needs Ray: pip install 'pokerlab[ray]' (or run with --backend local)"
        ) from None
    return ray


def connect(address: str | None):
    """The `ray` module, connected to the cluster at `address` (see `Backend`) unless this process already
    is connected to one (then that one serves)."""
    ray = ray_module()
    if not ray.is_initialized():
        # "local": a new Ray, never a cluster an earlier run on this machine left recorded (perhaps dead)
        address = address or os.environ.get("RAY_ADDRESS") or "local"
        ray.init(address=address, log_to_driver=False, configure_logging=False)
    return ray


def _ray(function: Callable, tasks: Sequence[tuple], address: str | None) -> Iterator[tuple[int, object]]:
    ray = connect(address)
    remote = ray.remote(max_retries=RETRIES, num_cpus=1)(function)
    refs = {remote.remote(*task): index for index, task in enumerate(tasks)}
    pending = list(refs)
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    raise exc.cause from None
                yield refs[ref], result
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def add_backend_options(parser: argparse.ArgumentParser) -> None:
    """--backend and --address, beside a command's --workers."""
    parser.add_argument(
        "--backend",
        choices=KINDS,
        default="local",
        help="where independent work runs: local processes (--workers) or a Ray cluster (results do not "
        "depend on it)",
    )
    parser.add_argument(
        "--address",
        default=None,
        help="with --backend ray: auto (this machine's cluster), ray://HOST:PORT (a head node) or HOST:PORT "
        "(default: RAY_ADDRESS, else a Ray started for the run)",
    )


def backend_of(args: argparse.Namespace) -> int | Backend:
    """What a command passes as ``workers``: its --workers, or the Ray backend of --backend and --address."""
    if args.backend == "local":
        if args.address is not None:
            raise ConfigError("--address names a Ray cluster: add --backend ray")
        return args.workers
    ray_module()
    return Backend("ray", address=args.address)
