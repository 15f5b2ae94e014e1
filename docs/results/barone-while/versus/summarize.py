"""Pool the matches of `run.sh` (Barone & While's players against the others at ten seats) and write
summary.json, summary.csv and sb-per-hand.png here (`pokerlab.experiments.evidence`).

Run: ``.venv/bin/python docs/results/barone-while/versus/summarize.py [RUNS]`` (default: runs/bw-versus).
"""

from __future__ import annotations

import sys
from pathlib import Path

from pokerlab.experiments.evidence import collect

HERE = Path(__file__).parent
NAMES = {"A": "player A", "Atight": "A^tight (evolved, seed 1)", "Aloose": "A^loose (evolved, seed 1)"}


def setting(match: str) -> str:
    """The player of a match folder ten-NAME-OPPONENT, as the panel's title."""
    return f"10 seats, 2 {NAMES[match.split('-')[1]]} + 8"


if __name__ == "__main__":
    runs = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("runs/bw-versus")
    title = "Barone & While's players in duplicate play, seed 1 (docs/results/barone-while/versus/run.sh)"
    for r in collect(runs, HERE, setting, title):
        print(
            f"{r['setting']:<42}{r['opponent']:<18}{r['deals']:>6}{r['sb_per_hand']:>8.3f} "
            f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]"
        )
