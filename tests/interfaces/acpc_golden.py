"""The golden ACPC matches: what the reference dealer (``project_acpc_server``) logged for deterministic bots.

Each match is its command line's arguments and a bot per seat: ``call`` and ``raise`` are our client
(``pokerlab acpc play``) with those agents, ``script`` is `bots/acpc_script.py`. Its ``.log`` and ``.tlog``
live in ``data/acpc/``. To make them again, with the reference built from source in a scratch folder
(bound to loopback)::

    POKERLAB_ACPC_SERVER=/path/to/project_acpc_server .venv/bin/python tests/interfaces/acpc_golden.py
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

DATA = Path(__file__).parent / "data" / "acpc"
SCRIPT_BOT = Path(__file__).parent / "bots" / "acpc_script.py"


class Golden(NamedTuple):
    name: str
    game: str  # a standard game: written to DATA as <game>.game for the reference to read
    hands: int
    seed: int
    bots: tuple[str, ...]
    fixed: bool = False

    def args(self) -> list[str]:
        """The dealer's command line after the program: match, game file, hands, seed, names, options."""
        names = [f"{bot}{j + 1}" for j, bot in enumerate(self.bots)]
        return [self.name, f"{self.game}.game", str(self.hands), str(self.seed), *names, "-T", "-q"] + (
            ["-f"] if self.fixed else []
        )


GOLDEN = (
    Golden("hu-s1", "holdem.limit.2p.reverse_blinds", 120, 1, ("call", "script")),
    Golden("hu-s2", "holdem.limit.2p.reverse_blinds", 120, 4242, ("script", "raise")),
    Golden("3p-s1", "holdem.limit.3p", 100, 7, ("call", "raise", "script")),
    Golden("3p-s2-fixed", "holdem.limit.3p", 100, 99, ("script", "call", "call"), fixed=True),
    Golden("6p-s1", "holdem.limit.6p", 60, 12345, ("call", "script", "raise", "call", "script", "call")),
    Golden("6p-s2", "holdem.limit.6p", 60, 3000000000, ("script", "call", "call", "raise", "call", "call")),
)


def client_command(bot: str, game: str, port: int) -> list[str]:
    if bot == "script":
        return [sys.executable, str(SCRIPT_BOT), "127.0.0.1", str(port)]
    play = [sys.executable, "-m", "pokerlab.interfaces.cli", "acpc", "play", "--agent", bot, "--game", game]
    return [*play, "--seating", "auto", "127.0.0.1", str(port)]


def make(server: Path) -> None:
    from pokerlab.interfaces.acpc.gamedef import load_gamedef

    DATA.mkdir(parents=True, exist_ok=True)
    for match in GOLDEN:
        game = DATA / f"{match.game}.game"
        game.write_text(load_gamedef(match.game).to_text())
        dealer = subprocess.Popen(
            [str(server / "dealer"), *match.args()], cwd=DATA, stdout=subprocess.PIPE, text=True
        )
        ports = [int(p) for p in dealer.stdout.readline().split()]
        clients = [
            subprocess.Popen(client_command(bot, match.game, port), stdout=subprocess.DEVNULL)
            for bot, port in zip(match.bots, ports, strict=True)
        ]
        print(match.name, dealer.stdout.read().strip())
        if dealer.wait() != 0:
            raise SystemExit(f"{match.name}: the reference dealer failed")
        for client in clients:
            client.wait(60)


if __name__ == "__main__":
    make(Path(os.environ["POKERLAB_ACPC_SERVER"]))
