"""An outside ACPC client for the tests, run as a program: ``acpc_bot.py BEHAVIOUR [ARG] HOST PORT``.

It calls on every turn of the heads-up game; BEHAVIOUR changes that: ``call`` plays on to the end,
``crash N`` exits with status 1 on its N-th turn, ``fork PIDFILE`` first starts a child that sleeps (its
pid added to PIDFILE) and plays on, ``connect PORT2`` tries to open a second connection to 127.0.0.1:PORT2
and reports how that went in a comment line before it plays on.
"""

import os
import socket
import subprocess
import sys

from pokerlab.engine import GameConfig
from pokerlab.interfaces.acpc.matchstate import parse_matchstate


def main() -> None:
    *behaviour, host, port = sys.argv[1:]
    sock = socket.create_connection((host, int(port)), timeout=30)
    out = sock.makefile("w", newline="\r\n")
    out.write("VERSION:2.0.0\n")
    if behaviour[0] == "fork":
        child = subprocess.Popen(["sleep", "300"])
        with open(behaviour[1], "a") as f:
            f.write(f"{child.pid}\n")
    if behaviour[0] == "connect":
        try:
            socket.create_connection(("127.0.0.1", int(behaviour[1])), timeout=2).close()
            out.write("# second connection: opened\n")
        except OSError as exc:
            out.write(f"# second connection: refused ({exc})\n")
    out.flush()
    turns = 0
    for line in sock.makefile("r"):
        line = line.rstrip("\r\n")
        if not line.startswith("MATCHSTATE") or not parse_matchstate(line).is_our_turn(GameConfig()):
            continue
        turns += 1
        if behaviour[0] == "crash" and turns == int(behaviour[1]):
            os._exit(1)
        out.write(line + ":c\n")
        out.flush()


if __name__ == "__main__":
    main()
