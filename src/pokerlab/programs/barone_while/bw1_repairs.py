"""Compare bw-1 runs made with different repair settings (docs/results/barone-while/bw1-repairs/).

Each argument is a folder written by ``pokerlab experiment bw-1 ... --out FOLDER``; the table (csv) and the
plot (the 20-epoch moving average of W, the evolving player's chips per epoch, mean over seeds) go to
``--out``. The targets E1a-E1d are docs/barone-while.md §11 / LEARNING-SPEC §B.11.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from pokerlab.arena.stats import half_width95  # noqa: E402
from pokerlab.programs.barone_while.plots import moving_average  # noqa: E402


def rows(folder: Path) -> list[dict]:
    """One row per run of a bw-1 folder: its seed, W at the start and end, the targets, the generations."""
    summary = json.loads((folder / "summary.json").read_text())
    epochs = json.loads((folder / "epochs.json").read_text())
    out = []
    for run, ep in zip(summary["runs"], epochs, strict=True):
        w = np.asarray(ep["player_w"])
        late = w[-len(w) // 5 :]
        gens = run["generations"]
        out.append(
            {
                "setting": folder.name,
                "seed": run["seed"],
                "epochs": len(w),
                "mean_w_first_20": round(float(w[:20].mean()), 1),
                "mean_w_last_fifth": round(float(late.mean()), 1),
                "ci95_last_fifth": round(half_width95(late), 1),
                "first_ma20_above_0": run["E1b"]["first_epoch_ma_above_0"],
                "E1b": run["E1b"]["pass"],
                "E1c": run["E1c"]["pass"],
                "max_generations_preflop": max(g["max"][0] for g in gens.values()),
                "max_generations_postflop": max(max(g["max"][1:]) for g in gens.values()),
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    table = [row for folder in args.folders for row in rows(folder)]
    with (args.out / "compare.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows(table)
    fig, ax = plt.subplots(figsize=(9, 5))
    colours = plt.get_cmap("tab20").colors
    for i, folder in enumerate(args.folders):
        ws = [np.asarray(ep["player_w"]) for ep in json.loads((folder / "epochs.json").read_text())]
        ax.plot(
            moving_average(np.mean(ws, axis=0), 20),
            color=colours[(2 * i) % 20 + (2 * i) // 20],
            lw=2.0 if folder.name == "faithful" else 1.0,
            label=f"{folder.name} ({len(ws)} seed{'s' if len(ws) > 1 else ''})",
        )
    ax.axhline(0, color="k", lw=0.5)
    ax.set_xlabel("epoch (100 hands)")
    ax.set_ylabel("W, chips per epoch (20-epoch moving average, mean over seeds)")
    ax.set_title("bw-1 with each repair (random start, mixed table)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(args.out / "compare.png", dpi=110)
    for row in table:
        print(", ".join(f"{k}={v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
