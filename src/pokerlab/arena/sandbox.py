"""A sandbox for a program we did not write: Linux namespaces by bubblewrap, and resource limits.

The stable entry point, for any command line (a Python bot's process, an ACPC client program)::

    process = start_sandboxed(argv, policy, keep_fds=(fd,))

starts ``argv`` inside the sandbox and returns its `subprocess.Popen`; `sandbox_argv` gives the wrapped
command line alone and `stop` ends a sandbox and everything in it. What the sandboxed program gets:

* its own mount view: the system's programs and libraries (/usr, /lib, /bin, a few files of /etc) and the
  policy's ``readable`` paths (those that exist), read-only, at their own paths; nothing else of the host
  (no results folder, no project data outside ``readable``, no other bot's folder; ``hidden`` paths are
  covered by an empty folder even inside a readable one); a private writable /tmp (a tmpfs of
  ``tmp_bytes``); its own /dev;
* its own PID namespace with its own /proc: no other process of the host is visible (no /proc/<parent>);
* its own network namespace (only its own loopback: no network). A program that must talk to one server
  (an ACPC dealer) gets an already-connected socket: pass its fd in ``keep_fds`` (it keeps its number),
  and, for a program that insists on connecting to a host and port itself, wrap it in
  `pokerlab.arena.relay.relay_argv` ``(argv, fd)`` (with ``sys.base_prefix`` readable): a relay in the
  sandbox listens on a port of its own 127.0.0.1, hands the program that port, lets it connect once, and
  carries the bytes to and from that socket;
* its own user, IPC and UTS namespaces, no capabilities, a new terminal session, a cleared environment
  (``PATH``, ``HOME=/tmp``, ``LANG`` and the policy's ``env`` only);
* limits (setrlimit, by util-linux's ``prlimit``): address space ``memory_bytes``, CPU ``cpu_seconds``, open
  files ``open_files``, processes ``processes`` (the kernel does not apply the process limit to root's uid:
  there the PID namespace, killed as a whole by `stop`, is what bounds a forking program);
* an end: when the sandbox's first process ends, or its parent dies, the kernel kills every process in it.

A layer that is missing (bubblewrap not installed, user namespaces refused, no ``prlimit``) makes
``mode="required"`` refuse with `SandboxUnavailable` saying which and what it needs; ``"best-effort"`` logs
one line naming the missing layers and runs with the rest.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pokerlab.errors import ConfigError, SandboxUnavailable

log = logging.getLogger(__name__)

MODES = ("required", "best-effort")
#: Host paths every sandbox sees read-only (those that exist): programs, libraries, what the loader needs.
SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc/ld.so.cache", "/etc/localtime")
#: What a sandboxed Python process of pokerlab's needs readable: the interpreter, the environment, pokerlab.
PYTHON_PATHS = (sys.base_prefix, sys.prefix, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def readable_for(path: str) -> str:
    """What a sandbox must see to read the file `path`: its folder (beside modules it may import), or the
    file alone where its folder is shared with everything else: the root, or the host's /tmp, which the
    sandbox's private /tmp replaces (binding it would show the host's /tmp and hide the private one)."""
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    return path if _holds_tmp(folder) else folder


def _holds_tmp(path: str) -> bool:
    """Whether `path` is the host's /tmp or a folder above it."""
    return "/tmp".startswith(os.path.abspath(path).rstrip("/") + "/") or os.path.abspath(path) == "/tmp"


@dataclass(frozen=True)
class SandboxPolicy:
    """What a sandboxed program may see and use (sizes in bytes, times in seconds)."""

    readable: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    memory_bytes: int = 1 << 30
    cpu_seconds: int = 3600
    processes: int = 64
    open_files: int = 256
    tmp_bytes: int = 64 << 20
    env: Mapping[str, str] = field(default_factory=dict)
    mode: str = "required"

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ConfigError(f"sandbox mode must be one of {', '.join(MODES)}, got {self.mode!r}")


def sandbox_argv(argv: Sequence[str], policy: SandboxPolicy = SandboxPolicy()) -> list[str]:
    """``argv`` wrapped in the sandbox's layers (see the module doc); refuses or warns on missing layers."""
    missing = missing_layers()
    if missing:
        line = "sandbox layers missing: " + "; ".join(missing)
        if policy.mode == "required":
            raise SandboxUnavailable(f"{line} (or run with --sandbox best-effort)")
        _warn_once(f"{line}; going on without them (--sandbox best-effort)")
    wrapped = list(argv)
    if shutil.which("prlimit"):
        limits = (
            f"--as={policy.memory_bytes}",
            f"--cpu={policy.cpu_seconds}",
            f"--nproc={policy.processes}",
            f"--nofile={policy.open_files}",
        )
        wrapped = [shutil.which("prlimit"), *limits, "--", *wrapped]
    if not _namespaces_work():
        return wrapped
    bwrap = [shutil.which("bwrap"), *_NAMESPACES]
    bwrap += ["--proc", "/proc", "--dev", "/dev", "--size", str(policy.tmp_bytes), "--tmpfs", "/tmp"]
    for path in SYSTEM_PATHS:
        bwrap += ["--ro-bind-try", path, path]
    for path in policy.readable:  # after /tmp, so that a readable folder may lie under the host's /tmp
        if _holds_tmp(path):
            raise ConfigError(
                f"a sandbox may not read {path}: it holds the host's /tmp (give a file, or a folder below it)"
            )
        bwrap += ["--ro-bind-try", os.path.abspath(path), os.path.abspath(path)]  # a missing one: the
        # program says what it misses (a bot's process: "no file ...")
    for path in policy.hidden:
        bwrap += ["--tmpfs", os.path.abspath(path)] if os.path.isdir(path) else []
    bwrap += ["--chdir", "/tmp", "--clearenv"]
    for name, value in _environment(policy).items():
        bwrap += ["--setenv", name, value]
    return [*bwrap, "--", *wrapped]


def start_sandboxed(
    argv: Sequence[str], policy: SandboxPolicy = SandboxPolicy(), keep_fds: Sequence[int] = (), **popen
) -> subprocess.Popen:
    """Start ``argv`` in the sandbox: a cleared environment, its own process group, only ``keep_fds``
    (and stdin/stdout/stderr as given in ``popen``) open in it. End it with `stop`."""
    return subprocess.Popen(
        sandbox_argv(argv, policy),
        env=_environment(policy),
        pass_fds=tuple(keep_fds),
        close_fds=True,
        start_new_session=True,
        **popen,
    )


def stop(process: subprocess.Popen, grace: float = 1.0) -> None:
    """End a sandbox: wait up to ``grace`` seconds for it to finish, then kill its process group and every
    process below it (its namespace's first process among them: the kernel then kills the whole PID
    namespace), and wait until they are gone."""
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass
    kill_tree(process.pid)
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()


def kill_tree(root: int) -> None:
    """Kill every process below `root` (a sandbox's first process among them ends its whole PID
    namespace) and wait, up to 5 s, until they are gone."""
    tree = _descendants(root)
    for pid in tree:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    ends = time.monotonic() + 5
    while any(alive(pid) for pid in tree) and time.monotonic() < ends:
        time.sleep(0.005)


def share_cpus(root: int) -> None:
    """Run `root` and every process below it on the CPUs of the calling thread (what they start later
    inherits them): a sandbox boots on any CPU, then follows a table pinned to one (`arena.match.pinned`)."""
    try:
        cpus = os.sched_getaffinity(0)
    except (AttributeError, OSError):
        return
    for pid in (root, *_descendants(root)):
        try:
            if os.sched_getaffinity(pid) != cpus:
                os.sched_setaffinity(pid, cpus)
        except OSError:
            pass  # gone already, or not ours to move: it only runs slower


def _stat(pid: int | str) -> list[bytes] | None:
    """The fields of /proc/<pid>/stat after the name (state, parent, group, ...), None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rpartition(b")")[2].split()
    except OSError:
        return None


def alive(pid: int) -> bool:
    """Whether process `pid` runs (is neither gone nor a zombie)."""
    fields = _stat(pid)
    return fields is not None and fields[0] not in (b"Z", b"X")


def _descendants(root: int) -> list[int]:
    """Every process below `root` (what its children started, and theirs)."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and (fields := _stat(entry.name)) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def missing_layers() -> list[str]:
    """One phrase per sandbox layer this machine lacks, saying what it needs (empty: all there)."""
    missing = []
    if not shutil.which("bwrap"):
        missing.append(
            "namespaces (mount, PID, network, user) need bubblewrap: apt-get install bubblewrap "
            "(or make test)"
        )
    elif not _namespaces_work():
        missing.append(
            "namespaces: bubblewrap could not create user namespaces here (needs unprivileged user "
            "namespaces: sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0)"
        )
    if not shutil.which("prlimit"):
        missing.append("resource limits need util-linux's prlimit (apt-get install util-linux)")
    return missing


_NAMESPACES = (
    "--unshare-user",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--uid",
    "65534",
    "--gid",
    "65534",
    "--disable-userns",
    "--cap-drop",
    "ALL",
    "--new-session",
    "--die-with-parent",
)


@functools.cache
def _namespaces_work() -> bool:
    """Whether bubblewrap is here and can make every namespace the sandbox uses (tried once)."""
    bwrap = shutil.which("bwrap")
    if not bwrap:
        return False
    probe = [bwrap, *_NAMESPACES, "--ro-bind", "/", "/", "--proc", "/proc", "--", "/bin/true"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@functools.cache
def _warn_once(line: str) -> None:
    log.warning(line)


def _environment(policy: SandboxPolicy) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", **policy.env}
