"""The results folder of a match, written as it goes: config.json, hands.csv, hands.sqlite, then
summary.json and bankroll.png (the bankroll-versus-hands plot of seed 000, Fig. 1).

config.json and each block of hands.csv / hands.sqlite are on disk before the next block starts, so a
failed run keeps everything played so far; any figure can be re-made from hands.csv.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np

from pokerlab.arena.store import HandStore
from pokerlab.engine import GameConfig


class ResultsWriter:
    """Writes one match's folder incrementally (see the module docstring)."""

    def __init__(
        self,
        out: Path,
        labels: list[str],
        config: GameConfig,
        seed: int,
        duplicate: bool,
        hands: int,
        block: int,
    ) -> None:
        out.mkdir(parents=True, exist_ok=True)
        self.out, self.labels = out, labels
        meta = {
            "agents": labels,
            "seed": seed,
            "duplicate": duplicate,
            "hands": hands,
            "block": block,
            "game": config.to_dict(),
        }
        (out / "config.json").write_text(json.dumps(meta, indent=2) + "\n")
        self.csv_file = open(out / "hands.csv", "w", newline="")  # noqa: SIM115 - closed in close()
        self.csv = csv.writer(self.csv_file)
        self.csv.writerow(["hand", "deal", "positions", *labels])
        (out / "hands.sqlite").unlink(missing_ok=True)
        self.store = HandStore(out / "hands.sqlite")

    def add(self, outcomes) -> None:
        """Append one block of `HandOutcome`s and flush them to disk."""
        for o in outcomes:
            self.csv.writerow([o.hand, o.deal, " ".join(map(str, o.positions)), *o.nets])
        self.csv_file.flush()
        self.store.add((o.hand, o.deal, o.record) for o in outcomes if o.record is not None)

    def close(self) -> None:
        self.csv_file.close()
        self.store.close()

    def finish(self, result) -> None:
        """Write summary.json and bankroll.png for a finished match."""
        (self.out / "summary.json").write_text(json.dumps(result.to_json(), indent=2) + "\n")
        plot_bankroll(result.nets, self.labels, result.config.small_bet, self.out / "bankroll.png")


def plot_bankroll(nets: np.ndarray, labels: list[str], small_bet: int, path: Path) -> None:
    """Each agent's cumulative winnings in small bets against hands played, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    hands = np.arange(1, nets.shape[0] + 1)
    for j, label in enumerate(labels):
        ax.plot(hands, np.cumsum(nets[:, j]) / small_bet, label=label)
    ax.axhline(0, color="grey", linewidth=0.5)
    ax.set_xlabel("hands played")
    ax.set_ylabel("bankroll (small bets)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
