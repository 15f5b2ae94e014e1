"""A scripted ACPC client for the golden matches, run as a program: ``acpc_script.py HOST PORT``.

Standard library only, any number of players of the ACPC limit hold'em games (the first to act is
position 1 heads-up and 2 otherwise before the flop, position 0 after). On its turn it answers by a fixed
script of the hand number and the actions so far: ``r``, ``c``, ``f``, ``B`` or ``k`` (the reference
reads ``B`` as a raise and ``k`` as a call), so it also sends a fold where nothing is owed and a raise
past the cap, which the reference dealer turns into calls.
"""

import socket
import sys

SCRIPT = ("r", "c", "f", "B", "k")


def to_act(line: str) -> bool:
    """Whether the MATCHSTATE line asks its receiver to act."""
    _, position, _, betting, cards = line.split(":", 4)
    holes = cards.split("/")[0].split("|")
    n, me = len(holes), int(position)
    if any(h for p, h in enumerate(holes) if p != me):  # others' cards shown: the hand is over
        return False
    folded: set[int] = set()
    actor = 0
    for r, text in enumerate(betting.split("/")):
        actor = (1 if n == 2 else 2 % n) if r == 0 else 0
        while actor in folded:
            actor = (actor + 1) % n
        for letter in text:
            if letter == "f":
                folded.add(actor)
            if len(folded) == n - 1:
                return False
            actor = (actor + 1) % n
            while actor in folded:
                actor = (actor + 1) % n
    return actor == me


def answer(line: str) -> str:
    """The scripted action for the line."""
    _, _, hand, betting, _ = line.split(":", 4)
    return SCRIPT[(3 * int(hand) + len(betting.replace("/", ""))) % len(SCRIPT)]


def play(host: str, port: int) -> None:
    sock = socket.create_connection((host, port), timeout=60)
    sock.sendall(b"VERSION:2.0.0\r\n")
    with sock, sock.makefile("r", newline="\n") as lines:
        for line in lines:
            line = line.rstrip("\r\n")
            if line.startswith("MATCHSTATE:") and to_act(line):
                sock.sendall(f"{line}:{answer(line)}\r\n".encode())


if __name__ == "__main__":
    play(sys.argv[1], int(sys.argv[2]))
