"""Pool the matches of `run.sh` (Barone & While's players against the others at ten seats) and write
summary.json, summary.csv and sb-per-hand.png here (`pokerlab.arena.evidence`).

Run: ``.venv/bin/python docs/results/barone-while/versus/summarize.py [RUNS]`` (default: runs/bw-versus).
"""

from __future__ import annotations

import sys
from pathlib import Path

from pokerlab.arena.evidence import main

HERE = Path(__file__).parent
NAMES = {"A": "player A", "Atight": "A^tight (evolved, seed 1)", "Aloose": "A^loose (evolved, seed 1)"}


def setting(match: str) -> str:
    """The player of a match folder ten-NAME-OPPONENT, as the panel's title."""
    return f"10 seats, 2 {NAMES[match.split('-')[1]]} + 8"


if __name__ == "__main__":
    title = "Barone & While's players in duplicate play, seed 1 (docs/results/barone-while/versus/run.sh)"
    sys.exit(main(sys.argv[1:], HERE, setting, title, Path("runs/bw-versus")))
