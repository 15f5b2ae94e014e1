"""The results folder of a match, written as it goes: config.json, hands.csv, hands.sqlite (hand
histories and, where asked, the decision log), then summary.json and bankroll.png (the bankroll-versus-hands
plot of Billings et al. 1998, Fig. 1).

config.json and each block of hands.sqlite / hands.csv are on disk before the next block starts (the
SQLite commit first), so a failed run keeps everything played so far; any figure can be re-made from
hands.csv. Blocks of parallel sessions arrive in any order: the finished hands.csv is sorted by hand
number, so a match writes the same files for any number of workers.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np

from pokerlab.arena.store import HandStore
from pokerlab.engine import GameConfig
from pokerlab.errors import ConfigError


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
        sessions: int = 1,
    ) -> None:
        if (out / "config.json").exists():
            raise ConfigError(f"results folder {str(out)!r} already holds a run; choose another folder")
        out.mkdir(parents=True, exist_ok=True)
        self.out, self.labels = out, labels
        meta = {
            "agents": labels,
            "seed": seed,
            "duplicate": duplicate,
            "hands": hands,
            "block": block,
            "sessions": sessions,
            "game": config.to_dict(),
        }
        (out / "config.json").write_text(json.dumps(meta, indent=2) + "\n")
        self.csv_file = open(out / "hands.csv", "w", newline="")  # noqa: SIM115 - closed in close()
        self.csv = csv.writer(self.csv_file)
        self.csv.writerow(["hand", "deal", "session", "positions", *labels])
        (out / "hands.sqlite").unlink(missing_ok=True)
        self.store = HandStore(out / "hands.sqlite")
        self._positions: dict[tuple[int, ...], str] = {}  # the text of each seating, made once

    def add(self, outcomes) -> None:
        """Append one block of `HandOutcome`s: commit them to SQLite, then flush them to the CSV."""
        self.store.add(
            ((o.hand, o.deal, o.session, o.history) for o in outcomes if o.history is not None),
            [
                (o.hand, d.seat, d.index, d.action, d.probabilities, d.info)
                for o in outcomes
                if o.decisions
                for d in o.decisions
            ],
        )
        self.csv.writerows(
            [o.hand, o.deal, o.session, " ".join(map(str, o.positions)), *o.nets] for o in outcomes
        )
        self.csv_file.flush()

    def close(self) -> None:
        self.csv_file.close()
        self.store.close()

    def finish(self, result) -> None:
        """Sort hands.csv by hand number; write summary.json and bankroll.png for a finished match."""
        path = self.out / "hands.csv"
        with path.open(newline="") as file:
            header, *rows = list(csv.reader(file))
        rows.sort(key=lambda row: int(row[0]))
        partial = path.with_suffix(".csv.partial")
        with partial.open("w", newline="") as file:
            csv.writer(file).writerows([header, *rows])
        partial.replace(path)
        (self.out / "summary.json").write_text(json.dumps(result.to_json(), indent=2) + "\n")
        plot_bankroll(result.nets, self.labels, result.config.small_bet, self.out / "bankroll.png")


def plot_bankroll(nets: np.ndarray, labels: list[str], small_bet: int, path: Path) -> None:
    """Each agent's cumulative winnings in small bets against hands played, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    hands = np.arange(1, nets.shape[0] + 1)
    every = max(1, len(hands) // 2000)  # at most about 2,000 points a line: the plot is the same to the eye
    for j, label in enumerate(labels):
        ax.plot(hands[::every], (np.cumsum(nets[:, j]) / small_bet)[::every], label=label)
    ax.axhline(0, color="grey", linewidth=0.5)
    ax.set_xlabel("hands played")
    ax.set_ylabel("bankroll (small bets)")
    ax.legend(loc="upper left", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
