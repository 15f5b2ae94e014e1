"""Backends: where independent work runs (a match's sessions, an experiment's runs, a study's evaluations).

A `Backend` is this machine's processes (``Backend("local", workers=n)``, what ``workers=n`` has always
meant) or a Ray cluster (``Backend("ray", address=...)``). `farm` hands out tasks and yields each result
with the task's index as it finishes; callers order what they keep by that index (or by a key inside the
result), so the results do not depend on the backend, the number of workers or the number of nodes.

On Ray each task is a Ray task that Ray runs again, up to `RETRIES` times, when its worker process or its
node dies; its result reaches the caller only once the task has finished, so a task played again after a
node's death is counted once. What a running task tells on its way (`farm`'s ``updates``: a session's
hands played so far) reaches the caller through a small Ray actor, apart from the results. A Ray cluster
runs our own code (pokerlab must be installed on every node), and anyone who can reach its port can run
code on it: keep it on a private network. Outside bots stay in their sandboxed processes, started by the
node that plays their session. Ray is an optional extra (``pip install 'pokerlab[ray]'``).

A backend can be written in a TOML file (`load_backend`; ``--backend-config FILE`` or the
`CONFIG_VARIABLE` environment variable): the command line overrides the file, the file overrides the
RAY_ADDRESS environment variable.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import re
import socket
import tomllib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from pokerlab.errors import ConfigError

#: The backends.
KINDS = ("local", "ray")

#: Times Ray plays a task again whose worker process or node died (an error the task raises is not retried).
RETRIES = 3

#: Seconds at most between two looks at what running Ray tasks told (`farm`'s ``updates``).
UPDATE_EVERY = 0.5

#: Seconds to wait for a cluster's head node to accept a connection before saying it cannot be reached.
REACH_SECONDS = 5.0

#: The environment variable naming a backend file for commands given no --backend-config.
CONFIG_VARIABLE = "POKERLAB_BACKEND_CONFIG"

_ADDRESS = re.compile(r"auto|(ray://)?([A-Za-z0-9.\-]+):(\d{1,5})")


@dataclass(frozen=True, slots=True)
class Backend:
    """Where `farm` runs tasks: ``kind`` "local" with ``workers`` processes (1: this process), or "ray"
    (a task per ``num_cpus`` CPUs the cluster has; ``workers`` does not apply) on the cluster at
    ``address``: "auto" (the cluster this machine belongs to), "ray://HOST:PORT" (a Ray client connection
    to a head node), "HOST:PORT" (a head node's address seen from within the cluster), or None (the
    RAY_ADDRESS environment variable, else a Ray started on this machine for the run). ``working_dir`` (a
    folder of this machine) and ``pip`` (requirements) are the Ray runtime environment each node prepares
    before it runs a task, set when this process connects to Ray."""

    kind: str = "local"
    workers: int = 1
    address: str | None = None
    num_cpus: float = 1
    working_dir: str | None = None
    pip: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ConfigError(f"backend must be one of {', '.join(KINDS)}, got {self.kind!r}")
        if not isinstance(self.workers, int) or isinstance(self.workers, bool) or self.workers < 1:
            raise ConfigError(f"workers must be a positive integer, got {self.workers!r}")
        if self.address is not None:
            if self.kind != "ray":
                raise ConfigError(f"an address names a Ray cluster: give backend 'ray' with {self.address!r}")
            if not isinstance(self.address, str) or not _ADDRESS.fullmatch(self.address):
                raise ConfigError(
                    f"a Ray address is auto, ray://HOST:PORT or HOST:PORT, got {self.address!r}"
                )
        if (
            not isinstance(self.num_cpus, int | float)
            or isinstance(self.num_cpus, bool)
            or not math.isfinite(self.num_cpus)
            or self.num_cpus <= 0
        ):
            raise ConfigError(
                f"num_cpus (CPUs a Ray task takes) must be a positive number, got {self.num_cpus!r}"
            )
        if self.working_dir is not None and not isinstance(self.working_dir, str):
            raise ConfigError(f"working_dir must be a folder's path, got {self.working_dir!r}")
        if not isinstance(self.pip, tuple) or not all(isinstance(p, str) and p for p in self.pip):
            raise ConfigError(f"pip must be a list of requirements (strings), got {self.pip!r}")
        if self.kind != "ray" and (self.num_cpus != 1 or self.working_dir is not None or self.pip):
            raise ConfigError("num_cpus, working_dir and pip are settings of Ray tasks: give backend 'ray'")

    @property
    def runtime_env(self) -> dict | None:
        """Ray's runtime environment of the tasks (None: the nodes as they are)."""
        env = {"working_dir": self.working_dir, "pip": list(self.pip)}
        return {key: value for key, value in env.items() if value} or None


#: The keys of a backend file and of its [runtime_env] table.
FILE_KEYS = ("backend", "address", "num_cpus", "runtime_env")
RUNTIME_ENV_KEYS = ("working_dir", "pip")


def load_backend(path: str | Path) -> Backend:
    """The backend a TOML file describes, for instance::

        backend = "ray"
        address = "ray://head.example:10001"
        num_cpus = 1                # CPUs each task takes on the cluster
        [runtime_env]               # what each node prepares before running a task
        working_dir = "."           # a folder of this machine, relative to the file's
        pip = ["pokerlab[ray]"]

    A file that cannot be read, an unknown key or a value of the wrong kind is one `ConfigError` naming
    the file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"backend config {path}: cannot be read ({exc.strerror or exc})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"backend config {path}: not TOML ({exc})") from None
    env = data.get("runtime_env", {})
    for keys, table, where in ((FILE_KEYS, data, ""), (RUNTIME_ENV_KEYS, env, "[runtime_env] ")):
        if not isinstance(table, dict):
            raise ConfigError(f"backend config {path}: runtime_env must be a table, got {table!r}")
        unknown = sorted(set(table) - set(keys))
        if unknown:
            raise ConfigError(
                f"backend config {path}: unknown {where}key {unknown[0]!r} (allowed: {', '.join(keys)})"
            )
    for key, value in (("backend", data.get("backend", "ray")), ("address", data.get("address", ""))):
        if not isinstance(value, str):
            raise ConfigError(f"backend config {path}: {key} must be a string, got {value!r}")
    working_dir = env.get("working_dir")
    if working_dir is not None:
        if not isinstance(working_dir, str):
            raise ConfigError(f"backend config {path}: working_dir must be a string, got {working_dir!r}")
        working_dir = str((path.parent / working_dir).resolve())
        if not Path(working_dir).is_dir():
            raise ConfigError(f"backend config {path}: working_dir {working_dir} is not a folder")
    pip = env.get("pip", [])
    if not isinstance(pip, list):
        raise ConfigError(f"backend config {path}: pip must be a list of requirements, got {pip!r}")
    try:
        return Backend(
            data.get("backend", "ray"),
            address=data.get("address"),
            num_cpus=data.get("num_cpus", 1),
            working_dir=working_dir,
            pip=tuple(pip),
        )
    except ConfigError as exc:
        raise ConfigError(f"backend config {path}: {exc}") from None


def as_backend(workers: int | Backend) -> Backend:
    """`workers` as a backend: a number of local processes, or a `Backend` as it is."""
    return workers if isinstance(workers, Backend) else Backend("local", workers)


def parallel(workers: int | Backend, tasks: int) -> bool:
    """Whether `farm` would run `tasks` tasks away from this process."""
    backend = as_backend(workers)
    return tasks > 1 and (backend.kind == "ray" or backend.workers > 1)


@dataclass(frozen=True, slots=True)
class Update:
    """What a running task last told (`farm` with ``updates``), before its result."""

    value: object


def farm(
    function: Callable, tasks: Sequence[tuple], workers: int | Backend = 1, updates: bool = False
) -> Iterator[tuple[int, object]]:
    """(index, ``function(*tasks[index])``) for every task, in the order they finish: in this process (one
    worker or one task), in local worker processes, or as Ray tasks. `function` must be a module-level
    function (it is imported by name where it runs). An error a task raises is raised here, the other
    tasks cancelled.

    With ``updates``, `function` takes one more argument, ``tell``: on Ray, the latest value a running
    task passed to ``tell`` comes as (index, `Update`) every `UPDATE_EVERY` seconds, never after that
    task's result (a task played again after its node died tells from its start again). In this process
    and in local workers ``tell`` does nothing: those results come when their tasks end."""
    backend = as_backend(workers)
    extra = (_ignore,) if updates else ()
    if not parallel(backend, len(tasks)):
        for index, task in enumerate(tasks):
            yield index, function(*task, *extra)
    elif backend.kind == "local":
        yield from _local(function, [(*task, *extra) for task in tasks], backend.workers)
    else:
        yield from _ray(function, tasks, backend, updates)


def _ignore(value: object) -> None:
    """``tell`` where nobody listens."""


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
    """The `ray` module, or one clear error where it is not installed."""
    try:
        import ray
    except ImportError:
        raise ConfigError(
            "the Ray backend needs Ray: pip install 'pokerlab[ray]' (or run with --backend local)"
        ) from None
    return ray


def reach(address: str | None) -> None:
    """Nothing where the head node at ``address`` ("HOST:PORT" or "ray://HOST:PORT") accepts a connection
    within `REACH_SECONDS` (or where ``address`` names no host: None, "auto"); else one `ConfigError`."""
    match = _ADDRESS.fullmatch(address or "auto")
    if match is None or match[2] is None:
        return
    try:
        socket.create_connection((match[2], int(match[3])), timeout=REACH_SECONDS).close()
    except OSError as exc:
        raise ConfigError(
            f"cannot reach a Ray cluster at {address} ({exc.strerror or exc}): start its head node "
            "(ray start --head) or give the address it listens on"
        ) from None


def connect(backend: Backend):
    """The `ray` module, connected to the cluster at ``backend.address`` (see `Backend`), with the
    backend's runtime environment, unless this process already is connected to one (then that one serves,
    as it is)."""
    ray = ray_module()
    if not ray.is_initialized():
        # "local": a new Ray, never a cluster an earlier run on this machine left recorded (perhaps dead)
        address = backend.address or os.environ.get("RAY_ADDRESS") or "local"
        reach(address)
        try:
            ray.init(
                address=address,
                runtime_env=backend.runtime_env,
                log_to_driver=False,
                configure_logging=False,
            )
        except ConnectionError as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ConfigError(f"cannot reach a Ray cluster at {address}: {first}") from None
    return ray


def _told_class() -> type:
    """The class of the actor holding what each running task last told (`farm`'s ``updates``), made in
    this function so that Ray sends the class itself, not its module's name: the actor's process then
    starts without importing pokerlab (about a second of CPU, taken from the sessions)."""

    class Told:
        def __init__(self) -> None:
            self.latest: dict[int, object] = {}

        def tell(self, index: int, value: object) -> None:
            self.latest[index] = value

        def take(self) -> dict[int, object]:
            latest, self.latest = self.latest, {}
            return latest

    return Told


@dataclass(frozen=True, slots=True)
class _Teller:
    """A Ray task's ``tell``: its value to the actor of `_told_class`, without waiting."""

    actor: object
    index: int

    def __call__(self, value: object) -> None:
        self.actor.tell.remote(self.index, value)


def _ray(
    function: Callable, tasks: Sequence[tuple], backend: Backend, updates: bool
) -> Iterator[tuple[int, object]]:
    ray = connect(backend)
    remote = ray.remote(max_retries=RETRIES, num_cpus=backend.num_cpus)(function)
    told = _told_actor(ray) if updates else None
    extra = (lambda index: (_Teller(told, index),)) if updates else (lambda index: ())
    refs = {remote.remote(*task, *extra(index)): index for index, task in enumerate(tasks)}
    pending, finished = list(refs), set()
    asked = told.take.remote() if updates else None  # one question to the actor at a time: nothing lost
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1, timeout=UPDATE_EVERY if updates else None)
            if updates and ray.wait([asked], timeout=0)[0]:
                for index, value in sorted(_answer(ray, asked).items()):
                    if index not in finished:
                        yield index, Update(value)
                asked = told.take.remote()
            for ref in done:
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    raise exc.cause from None
                finished.add(refs[ref])
                yield refs[ref], result
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if told is not None:
            ray.kill(told)


def _told_actor(ray):
    """The actor of `_told_class`, taking no CPU, on this process's node where it is one (a Ray client's is
    not): it dies only with the driver's node; started again elsewhere if that node is lost all the same,
    it misses only what was told before."""
    options = {"num_cpus": 0, "max_restarts": -1}
    if not ray.util.client.ray.is_connected():
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        node = ray.get_runtime_context().get_node_id()
        options["scheduling_strategy"] = NodeAffinitySchedulingStrategy(node, soft=True)
    return ray.remote(**options)(_told_class()).remote()


def _answer(ray, asked) -> dict[int, object]:
    """The actor's answer to `take`; nothing where the actor died before it answered."""
    try:
        return ray.get(asked)
    except ray.exceptions.RayError:
        return {}


def add_backend_options(parser: argparse.ArgumentParser) -> None:
    """--backend, --address and --backend-config, beside a command's --workers."""
    parser.add_argument(
        "--backend",
        choices=KINDS,
        default=None,
        help="where independent work runs: local processes (--workers) or a Ray cluster (results do not "
        "depend on it; default: the backend file's, else local)",
    )
    parser.add_argument(
        "--address",
        default=None,
        help="with --backend ray: auto (this machine's cluster), ray://HOST:PORT (a head node) or HOST:PORT "
        "(default: the backend file's, else RAY_ADDRESS, else a Ray started for the run)",
    )
    parser.add_argument(
        "--backend-config",
        metavar="FILE",
        default=None,
        help=f"a TOML file: backend, address, num_cpus per task, [runtime_env] working_dir and pip "
        f"(default: the file ${CONFIG_VARIABLE} names; the command line overrides it)",
    )


def backend_of(args: argparse.Namespace) -> int | Backend:
    """What a command passes as ``workers``: its --workers, or the Ray backend of --backend and --address
    over the backend file (--backend-config, else the one `CONFIG_VARIABLE` names), whose head node is
    checked to answer."""
    path = args.backend_config or os.environ.get(CONFIG_VARIABLE)
    file = load_backend(path) if path else Backend()
    if (args.backend or file.kind) == "local":
        if args.address is not None:
            raise ConfigError("--address names a Ray cluster: add --backend ray")
        return args.workers
    ray_module()
    address = file.address if args.address is None else args.address
    backend = Backend(
        "ray", address=address, num_cpus=file.num_cpus, working_dir=file.working_dir, pip=file.pip
    )
    reach(address or os.environ.get("RAY_ADDRESS"))
    return backend
