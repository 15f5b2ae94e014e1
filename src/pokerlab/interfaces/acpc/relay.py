"""An ACPC client program in the sandbox: its one connection to the dealer, and no other network.

A sandboxed program has its own network namespace, where the host's loopback (and the dealer on it) cannot
be reached. `start_sandboxed_client` connects to the dealer's port itself and hands the connected socket
to a small relay, the sandbox's first process (`relay`, standard library only, run with ``python -I -c``):
the relay listens on a free port of the namespace's own 127.0.0.1, starts the client with ``127.0.0.1 PORT``
(that port) appended as usual, accepts its first connection, stops listening, and copies bytes both ways
until either side closes; it exits with the client's status. So the client connects as it always does,
and every other connection it tries (to the host, to a second port, anywhere) fails. (Where the sandbox
runs without its namespaces, ``--sandbox best-effort`` on a machine without bubblewrap, the relay's port
is one of the host's, and the client has the host's network.)
"""

from __future__ import annotations

import os
import selectors
import shlex
import socket
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path


def relay(argv: Sequence[str]) -> int:
    """``FD COMMAND...``: run COMMAND with ``127.0.0.1 PORT`` appended (a port the relay listens on) and
    relay its first connection there over the connected socket FD; the client's exit status (1 if it
    never connected and is still running when the dealer closes)."""
    fd, *command = argv
    dealer = socket.socket(fileno=int(fd))
    listener = socket.create_server(("127.0.0.1", 0))
    port = str(listener.getsockname()[1])
    try:
        client = subprocess.Popen([*command, "127.0.0.1", port])
    except OSError as exc:
        print(f"cannot start {command[0]} in the sandbox ({exc.strerror or exc})", file=sys.stderr)
        return 127
    listener.settimeout(0.05)
    sock = None
    while sock is None:  # the client connects, or ends, or the dealer gives up on it
        try:
            sock, _ = listener.accept()
        except TimeoutError:
            if client.poll() is not None:
                return client.returncode
            if select_closed(dealer):
                client.kill()
                return client.wait() or 1
    listener.close()
    sock.setblocking(True)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    selector = selectors.DefaultSelector()
    selector.register(dealer, selectors.EVENT_READ, sock)
    selector.register(sock, selectors.EVENT_READ, dealer)
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
    for s in (sock, dealer):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        s.close()
    return client.wait()


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


def start_sandboxed_client(command: Sequence[str], port: int, policy) -> subprocess.Popen:
    """Start an ACPC client `command` (run with ``127.0.0.1 PORT`` appended) in the sandbox of `policy`
    (`pokerlab.arena.sandbox.SandboxPolicy`), connected to the dealer listening on 127.0.0.1:`port`
    through the relay (see the module doc); the process leads its own process group. The sandbox sees,
    read-only, the folders of the files the command names (relative paths made absolute: it starts in its
    own /tmp) and the standard library, less the policy's ``hidden`` folders; a hidden file that lies in
    one of those folders is a `ConfigError`."""
    from dataclasses import replace

    from pokerlab.arena.sandbox import start_sandboxed
    from pokerlab.errors import ConfigError

    readable = {sys.base_prefix}  # the standard library, for the relay
    command = list(command)
    for k, word in enumerate(command):  # the folders of the files the command names (program, scripts)
        path = Path(word).absolute()
        if os.sep in word and path.exists():
            command[k] = str(path)  # the sandbox starts in its own /tmp
            for where in (path, path.resolve()):  # a link's folder, and its target's
                readable.add(str(where if where.is_dir() else where.parent))
    for secret in map(Path, policy.hidden):  # a hidden folder is covered; a file cannot be, so it must lie
        for folder in readable:  # outside what the client sees
            if not secret.is_dir() and secret.resolve().is_relative_to(folder):
                who = shlex.join(command)
                raise ConfigError(
                    f"{secret} lies in {folder}, which the client {who!r} can read: put it elsewhere"
                )
    policy = replace(policy, readable=(*policy.readable, *sorted(readable)))
    python = os.path.realpath(sys.executable)
    dealer = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        code = Path(__file__).read_text() + "\nraise SystemExit(relay(sys.argv[1:]))\n"
        return start_sandboxed(
            [python, "-I", "-c", code, str(dealer.fileno()), *command],
            policy,
            keep_fds=(dealer.fileno(),),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
    finally:
        dealer.close()
