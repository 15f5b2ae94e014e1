"""The relay: a sandboxed program that dials its one server itself reaches it over a socket passed in.

A sandboxed program has its own network namespace (`pokerlab.arena.sandbox`), where the host's loopback
(and a server on it) cannot be reached. The parent connects to the server itself, passes the connected
socket into the sandbox (``keep_fds``) and runs the program behind this relay, the sandbox's first process::

    start_sandboxed(relay_argv(argv, sock.fileno()), policy, keep_fds=(sock.fileno(),))

The relay listens on a free port of the namespace's own 127.0.0.1, starts ``argv`` with ``127.0.0.1 PORT``
(that port) appended, accepts its first connection, stops listening, and copies bytes both ways (with
TCP_NODELAY) until either side closes; it exits with the program's status. It notices a program that ends
before it connects (its status), and a server that closes first (the program is killed: status 1). So the
program connects as it always does, and every other connection it tries (to the host, to a second port,
anywhere) fails. (Where the sandbox runs without its namespaces, ``best-effort`` on a
machine without bubblewrap, the relay's port is one of the host's, and the program has the host's network.)

Standard library only: `relay_argv` runs this module's own source with ``python -I -c``, so the sandbox
needs only the standard library (``sys.base_prefix``) readable, not pokerlab or its environment.
"""

from __future__ import annotations

import os
import selectors
import socket
import subprocess
import sys
from collections.abc import Sequence


def relay_argv(argv: Sequence[str], fd: int) -> list[str]:
    """``argv`` behind the relay (to run in the sandbox, ``fd`` in ``keep_fds``, ``sys.base_prefix``
    readable): the interpreter (its real path, outside any virtual environment) running this module's
    source, carrying the connected socket ``fd`` to ``argv``'s connection (see the module doc)."""
    with open(__file__, encoding="utf-8") as source:
        code = source.read()
    return [os.path.realpath(sys.executable), "-I", "-c", code, str(fd), *argv]


def relay(argv: Sequence[str]) -> int:
    """``FD COMMAND...``: run COMMAND with ``127.0.0.1 PORT`` appended (a port the relay listens on) and
    relay its first connection there over the connected socket FD; the program's exit status (1 if it
    never connected and was still running when the server closed: the relay killed it)."""
    fd, *command = argv
    server = socket.socket(fileno=int(fd))
    listener = socket.create_server(("127.0.0.1", 0))
    port = str(listener.getsockname()[1])
    try:
        program = subprocess.Popen([*command, "127.0.0.1", port])
    except OSError as exc:
        print(f"cannot start {command[0]} in the sandbox ({exc.strerror or exc})", file=sys.stderr)
        return 127
    listener.settimeout(0.05)
    sock = None
    while sock is None:  # the program connects, or ends, or the server gives up on it
        try:
            sock, _ = listener.accept()
        except TimeoutError:
            if program.poll() is not None:
                return program.returncode
            if select_closed(server):
                program.kill()
                program.wait()
                return 1
    listener.close()
    sock.setblocking(True)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    selector = selectors.DefaultSelector()
    selector.register(server, selectors.EVENT_READ, sock)
    selector.register(sock, selectors.EVENT_READ, server)
    done = False
    while not done:
        for key, _ in selector.select():
            try:
                data = key.fileobj.recv(65536)
                if data:
                    key.data.sendall(data)
            except OSError:
                data = b""
            if not data:  # one side closed: so does the other
                done = True
    for s in (sock, server):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        s.close()
    return program.wait()


def select_closed(sock: socket.socket) -> bool:
    """Whether the other side of `sock` closed it (it is readable and holds no data)."""
    sel = selectors.DefaultSelector()
    sel.register(sock, selectors.EVENT_READ)
    if not sel.select(0):
        return False
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


if __name__ == "__main__":  # run by `relay_argv` (python -I -c SOURCE FD COMMAND...)
    raise SystemExit(relay(sys.argv[1:]))
