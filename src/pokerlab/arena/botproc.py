"""The bot's side of an isolated seat: a zygote in the sandbox that forks a fresh bot process per session.

Run as ``python -I -B -m pokerlab.arena.botproc CONTROL_FD [AGENT]`` inside the sandbox (`arena.sandbox`),
with ``NUMBA_CACHE_DIR`` in /tmp. The zygote imports pokerlab (never the bot) and, for a registered
``AGENT``, plays it a couple of hands so that its compiled kernels are in memory; it says hello on the
control socket, and for each ``session`` message (which carries the session's own socket) ends whatever is
left of the last session (every process of the sandbox's PID namespace but the zygote, the files of /tmp
and /dev/shm, System V IPC objects; the numba cache is copied afresh from pokerlab's read-only tree, where
numba will not read it), then forks a child. The child names, locates and imports the bot, builds it,
seeds it from the generator state sent, and answers on the session socket until it closes (`arena.wire`);
a bot that cannot start sends one line (``["refused", line]``). So nothing a bot keeps in memory or on
disk reaches another session, and its code never runs in the arena's process.
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import sys
import traceback

from pokerlab.arena import wire
from pokerlab.arena.sandbox import alive, kill_tree


def main(control_fd: int, agent: str = "") -> None:
    """The zygote: one fresh child per session message, until the control socket closes."""
    _undumpable()
    if os.getpid() == 2:  # in its own namespaces: /tmp is the sandbox's
        _numba_cache()
    if agent:  # a registered agent: its kernels compiled (or loaded) once, shared by every child
        from pokerlab.arena.match import play_match

        play_match([agent, agent], 2, seed=0)
    control = socket.socket(fileno=control_fd)
    control.send(wire.dumps(["hello", wire.VERSION]))
    while True:
        try:
            packet, fds, _, _ = socket.recv_fds(control, wire.MAX_PACKET, 1)
        except OSError:
            packet, fds = b"", []
        if not packet:  # the match is over: in its namespaces, the zygote's end ends every process
            if os.getpid() != 2:
                _clean()
            os._exit(0)  # no interpreter teardown: a tenth of a second of CPU per bot
        _clean()
        message = wire.loads(packet)
        if os.fork() == 0:
            control.close()
            session = socket.socket(fileno=fds[0])
            code = 0
            try:
                _session(session, message)
            except BaseException:  # noqa: BLE001 - a child never returns into the zygote's loop
                code = 1
            os._exit(code)
        for fd in fds:
            os.close(fd)


def _session(sock: socket.socket, message: list) -> None:
    """A child: start the bot of ``message`` (["session", version, spec, config, generator]) and serve."""
    from pokerlab.agents import make_agent
    from pokerlab.engine import GameConfig

    try:
        _, version, spec, config, generator = message
        if version != wire.VERSION:
            raise ValueError(f"wire version {version!r}, this bot process speaks {wire.VERSION}")
        agent = make_agent(spec)
        agent.seed(_generator(generator))
        config = GameConfig(**config)
    except Exception as exc:  # noqa: BLE001 - whatever stops the bot from starting, in one line
        sock.send(wire.dumps(["refused", _line(exc)]))
        return
    from pokerlab.agents.base import overrides

    hooks = [overrides(agent, h) for h in ("begin_hand", "observe", "end_hand")]
    sock.send(wire.dumps(["ready", hooks]))
    _serve(sock, agent, config, hooks)


def _serve(sock: socket.socket, agent, config, hooks) -> None:
    """Answer the table's packets until the socket closes."""
    wants_begin, wants_observe, wants_end = hooks
    start = None
    actions: tuple = ()
    errors: list = [0, []]

    def hook(method, value) -> None:
        try:
            method(value)
        except Exception as exc:  # noqa: BLE001 - reported with the next answer, a fault each
            errors[0] += 1
            if len(errors[1]) < wire.KEPT_ERRORS:
                errors[1].append(f"{method.__name__}: {_line(exc)}")

    def reply(message) -> None:
        nonlocal errors
        try:
            packet = wire.dumps([*message, errors])
        except (TypeError, ValueError) as exc:  # info that is not plain JSON
            packet = wire.dumps(["x", message[1], f"answer is not plain JSON: {_line(exc)}", errors])
        sock.send(packet)
        errors = [0, []]

    receive = wire.Receiver()
    while packet := receive(sock):
        for event in wire.loads(packet):
            kind = event[0]
            if kind == "r":
                new = wire.records(event)
                actions += new
                if wants_observe:
                    for record in new:
                        hook(agent.observe, record)
            elif kind == "a":
                try:
                    answer = wire.decision(agent.act(wire.view(event, start, actions)))
                except Exception:  # noqa: BLE001 - the bot's act failed: the table records a fault
                    reply(["x", event[1], traceback.format_exc(limit=-8)])
                else:
                    reply(["a", event[1], *answer])
            elif kind == "b":
                start, actions = wire.hand_start(event, config), ()
                if wants_begin:
                    hook(agent.begin_hand, start)
            elif kind == "e":
                if wants_end:
                    hook(agent.end_hand, wire.hand_end(event, start, actions))
            elif kind == "q":
                reply(["q"])


def _generator(state: dict):
    """The seat's generator from its wire form: PCG64 state and the number its ``spawn`` derives from."""
    import numpy as np

    bits = np.random.PCG64(np.random.SeedSequence(state["spawn"]))
    bits.state = state["state"]
    return np.random.Generator(bits)


def _line(exc: BaseException) -> str:
    return "".join(traceback.format_exception_only(exc)).strip().replace("\n", " ")


def _undumpable() -> None:
    """No process of the sandbox may trace or read the zygote's memory (a bot could leave notes there)."""
    ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 4


def _clean() -> None:
    """End every other process of the sandbox and remove what the last session left behind. Without the
    sandbox's namespaces (``--sandbox best-effort`` on a machine without them) only the processes this
    zygote started end: the machine's processes, /tmp and IPC objects are not the sandbox's to clear."""
    me = os.getpid()
    if me != 2:  # not the first program of its own PID namespace (pid 1 being bubblewrap's init)
        kill_tree(me)
        _reap()
        return
    while others := [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, me)]:
        try:
            os.kill(-1, signal.SIGKILL)  # every process of the namespace but pid 1 and this one
        except ProcessLookupError:
            pass
        _reap()
        if not any(alive(p) for p in others):
            break
    _reap()
    for folder in ("/tmp", "/dev/shm"):
        _wipe(folder)
    _remove_ipc()
    _numba_cache()


def _numba_cache() -> None:
    """Copy the compiled kernels that numba keeps beside pokerlab's sources into ``NUMBA_CACHE_DIR`` (numba
    reads a cache only where it could write)."""
    import hashlib
    import shutil

    cache = os.environ.get("NUMBA_CACHE_DIR")
    if not cache:
        return
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # pokerlab
    for folder, _, files in os.walk(package):
        if os.path.basename(folder) != "__pycache__":
            continue
        source = os.path.dirname(folder)
        target = os.path.join(
            cache, f"{os.path.basename(source)}_{hashlib.sha1(source.encode()).hexdigest()}"
        )
        for name in files:
            if name.endswith((".nbi", ".nbc")):
                os.makedirs(target, exist_ok=True)
                shutil.copyfile(os.path.join(folder, name), os.path.join(target, name))


def _reap() -> None:
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def _wipe(folder: str) -> None:
    """Remove what is in `folder`, leaving mount points (a readable bind under /tmp) and their parents."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if os.path.ismount(entry.path):
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                _wipe(entry.path)
                os.rmdir(entry.path)
            else:
                os.unlink(entry.path)
        except OSError:
            pass  # a parent of a mount point


def _remove_ipc() -> None:
    """Remove the System V shared memory, queues and semaphores of the sandbox's IPC namespace."""
    libc = ctypes.CDLL(None, use_errno=True)
    for table, remove in (("shm", libc.shmctl), ("msg", libc.msgctl), ("sem", libc.semctl)):
        try:
            with open(f"/proc/sysvipc/{table}") as listing:
                rows = listing.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            remove(int(row.split()[1]), 0, None)  # IPC_RMID = 0


if __name__ == "__main__":
    main(int(sys.argv[1]), *sys.argv[2:])
