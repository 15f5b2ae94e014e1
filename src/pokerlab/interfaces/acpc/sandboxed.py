"""An ACPC client program in the sandbox: its one connection to the dealer, and no other network.

`start_sandboxed_client` decides what the client may read (the folders of the files its command names,
and the standard library), refuses a hidden file (a log) that would lie in them, connects to the dealer's
port itself and runs the client behind the arena's relay (`pokerlab.arena.relay`), the sandbox's first
process: the client gets ``127.0.0.1 PORT`` appended as usual, connects there, and reaches the dealer and
nothing else.
"""

from __future__ import annotations

import os
import shlex
import socket
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from pokerlab.arena.relay import relay_argv
from pokerlab.arena.sandbox import SandboxPolicy, readable_for, start_sandboxed
from pokerlab.errors import ConfigError


def start_sandboxed_client(command: Sequence[str], port: int, policy: SandboxPolicy) -> subprocess.Popen:
    """Start an ACPC client `command` (run with ``127.0.0.1 PORT`` appended) in the sandbox of `policy`,
    connected to the dealer listening on 127.0.0.1:`port` through the relay (see the module doc); the
    process leads its own process group. The sandbox sees, read-only, the folders of the files the command
    names (relative paths made absolute: it starts in its own /tmp) and the standard library, less the
    policy's ``hidden`` folders; a hidden file that lies in one of those folders is a `ConfigError`."""
    readable = {sys.base_prefix}  # the standard library, for the relay
    command = list(command)
    for k, word in enumerate(command):  # the folders of the files the command names (program, scripts)
        path = Path(word).absolute()
        if os.sep in word and path.exists():
            command[k] = str(path)  # the sandbox starts in its own /tmp
            for where in (path, path.resolve()):  # a link's folder, and its target's
                readable.add(str(where) if where.is_dir() else readable_for(str(where)))
    for secret in map(Path, policy.hidden):  # a hidden folder is covered; a file cannot be, so it must lie
        for folder in readable:  # outside what the client sees
            if not secret.is_dir() and secret.resolve().is_relative_to(folder):
                who = shlex.join(command)
                raise ConfigError(
                    f"{secret} lies in {folder}, which the client {who!r} can read: put it elsewhere"
                )
    policy = replace(policy, readable=(*policy.readable, *sorted(readable)))
    dealer = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        return start_sandboxed(
            relay_argv(command, dealer.fileno()),
            policy,
            keep_fds=(dealer.fileno(),),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
    finally:
        dealer.close()
