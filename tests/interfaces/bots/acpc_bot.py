"""An outside ACPC client for the tests, run as a program: ``acpc_bot.py BEHAVIOUR [ARG] HOST PORT``.

Standard library only (it runs in the sandbox, which sees no project files). It calls on every turn of
ACPC's heads-up limit game (holdem.limit.2p.reverse_blinds); BEHAVIOUR changes that: ``call`` plays on to
the end, ``crash N`` exits with status 1 on its N-th turn, ``fork`` first starts a child that sleeps 3001 s
and plays on, ``connect PORT2`` first tries to open a second connection, to 127.0.0.1:PORT2, says on
stderr how that went, and plays on, ``look PATH`` says on stderr whether it sees PATH, and plays on.
"""

import os
import socket
import subprocess
import sys

FIRST = (1, 0, 0, 0)  # the position that acts first in each round (the game file's firstPlayer 2 1 1 1)


def our_turn(line: str) -> bool:
    """Whether a heads-up MATCHSTATE line asks its receiver to act."""
    _, position, _, betting, _ = line.split(":", 4)
    rounds = betting.split("/")
    now = rounds[-1]
    if "f" in betting or (len(now) >= 2 and now[-1] == "c"):  # the hand is over
        return False
    return (FIRST[len(rounds) - 1] + len(now)) % 2 == int(position)


def main() -> None:
    *behaviour, host, port = sys.argv[1:]
    if behaviour[0] == "fork":
        subprocess.Popen(["sleep", "3001"])
    if behaviour[0] == "connect":
        try:
            socket.create_connection(("127.0.0.1", int(behaviour[1])), timeout=2).close()
            print("second connection: opened", file=sys.stderr)
        except OSError as exc:
            print(f"second connection: failed ({exc})", file=sys.stderr)
    if behaviour[0] == "look":
        print(f"sees {behaviour[1]}: {os.path.exists(behaviour[1])}", file=sys.stderr)
    sock = socket.create_connection((host, int(port)), timeout=30)
    sock.sendall(b"VERSION:2.0.0\r\n")
    turns = 0
    for line in sock.makefile("r"):
        line = line.rstrip("\r\n")
        if not line.startswith("MATCHSTATE") or not our_turn(line):
            continue
        turns += 1
        if behaviour[0] == "crash" and turns == int(behaviour[1]):
            os._exit(1)
        sock.sendall(f"{line}:c\r\n".encode())


if __name__ == "__main__":
    main()
