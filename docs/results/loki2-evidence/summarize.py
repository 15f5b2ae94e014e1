"""Pool the Loki-2 evidence matches of `run.sh` and write summary.json, summary.csv and sb-per-hand.png
here (`pokerlab.arena.evidence`: the copies of each player kind pooled per deal, 95 % intervals from
the spread of the per-deal rates; a match whose folder is not in RUNS keeps its row).

Run: ``.venv/bin/python docs/results/loki2-evidence/summarize.py [RUNS]`` (default: runs/ beside this file).
"""

from __future__ import annotations

import sys
from pathlib import Path

from pokerlab.arena.evidence import main

HERE = Path(__file__).parent
SETTINGS = {"hu-loki2-": "heads-up, loki2", "hu-loki2-triples-": "heads-up, loki2-triples"}
SETTINGS |= {"ten-loki2-triples-": "10 seats, 2 loki2-triples + 8", "ten-loki2-": "10 seats, 2 loki2 + 8"}


def setting(match: str) -> str:
    """The setting of a match folder, by its longest matching prefix."""
    return next(
        label
        for prefix, label in sorted(SETTINGS.items(), key=lambda x: -len(x[0]))
        if match.startswith(prefix)
    )


if __name__ == "__main__":
    title = "Loki-2 in duplicate play, seed 1 (docs/results/loki2-evidence/run.sh)"
    sys.exit(main(sys.argv[1:], HERE, setting, title, HERE / "runs"))
