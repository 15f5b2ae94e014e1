"""Pool the Loki-2 evidence matches of `run.sh` and write summary.json, summary.csv and sb-per-hand.png.

Each results folder holds the per-hand nets (hands.csv) of one duplicate match; the copies of each player
kind are pooled per deal and the 95 % confidence interval comes from the spread of the per-deal rates
(`pokerlab.arena.stats.summarize`, the figures `pokerlab match` prints).

Run: ``.venv/bin/python docs/results/loki2-evidence/summarize.py [RUNS]`` (default: runs/ beside this file).
A match whose folder is not in RUNS keeps its row from the summary.json already here, so a re-run of some
matches updates their rows alone.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from pokerlab.arena.stats import pool_by_name, summarize  # noqa: E402

HERE = Path(__file__).parent
SETTINGS = {"hu-loki2-": "heads-up, loki2", "hu-loki2-triples-": "heads-up, loki2-triples"}
SETTINGS |= {"ten-loki2-triples-": "10 seats, 2 loki2-triples + 8", "ten-loki2-": "10 seats, 2 loki2 + 8"}


def read(folder: Path) -> dict:
    """The pooled result of Loki-2's kind in one match folder."""
    config = json.loads((folder / "config.json").read_text())
    with open(folder / "hands.csv") as f:
        rows = list(csv.reader(f))
    names = [name.split("#")[0] for name in rows[0][4:]]
    nets = np.array([[int(x) for x in row[4:]] for row in rows[1:]], dtype=np.int64)
    deals = np.array([int(row[1]) for row in rows[1:]])
    kinds, pooled, copies, _ = pool_by_name(names, nets)
    game = config["game"]
    results = summarize(kinds, pooled, deals, game["small_bet"], game["big_blind"], copies=copies)
    ours, theirs = results[0], results[1]
    setting = next(
        label
        for prefix, label in sorted(SETTINGS.items(), key=lambda x: -len(x[0]))
        if folder.name.startswith(prefix)
    )
    return {
        "match": folder.name,
        "setting": setting,
        "loki2": ours.agent,
        "opponent": theirs.agent,
        "copies": copies,
        "deals": config["deals"],
        "hands": int(len(nets)),
        "seed": config["seed"],
        "sb_per_hand": ours.sb_per_hand,
        "std_error": ours.std_error,
        "ci95": list(ours.ci95),
        "beats": bool(ours.ci95[0] > 0),
        "command": (
            f"pokerlab match --agents {','.join(a.split('#')[0] for a in config['agents'])} --duplicate "
            f"--deals {config['deals']} "
            f"--seed {config['seed']}"
        ),
    }


def plot(rows: list[dict], path: Path) -> None:
    settings = list(dict.fromkeys(r["setting"] for r in rows))
    fig, axes = plt.subplots(
        1, len(settings), figsize=(4.6 * len(settings), 4.2), gridspec_kw={"wspace": 0.6}
    )
    for ax, setting in zip(np.atleast_1d(axes), settings, strict=True):
        mine = [r for r in rows if r["setting"] == setting]
        y = np.arange(len(mine))
        rates = np.array([r["sb_per_hand"] for r in mine])
        half = np.array([r["ci95"][1] - r["sb_per_hand"] for r in mine])
        ax.errorbar(rates, y, xerr=half, fmt="o", capsize=3)
        ax.axvline(0.0, color="grey", lw=0.8)
        ax.set_yticks(y, [f"{r['opponent']}\n({r['deals']} deals)" for r in mine], fontsize=8)
        ax.set_xlabel("Loki-2 sb/hand (95 % CI)")
        ax.set_title(setting, fontsize=9)
        ax.invert_yaxis()
    fig.suptitle("Loki-2 in duplicate play, seed 1 (docs/results/loki2-evidence/run.sh)", fontsize=10)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def main() -> None:
    runs = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "runs"
    fresh = {
        r["match"]: r for r in (read(f) for f in sorted(runs.iterdir()) if (f / "summary.json").is_file())
    }
    # a match not in RUNS keeps its row from the summary here (its per-hand files need not be kept)
    kept = json.loads((HERE / "summary.json").read_text()) if (HERE / "summary.json").is_file() else []
    rows = sorted([fresh.pop(r["match"], r) for r in kept] + list(fresh.values()), key=lambda r: r["match"])
    (HERE / "summary.json").write_text(json.dumps(rows, indent=1) + "\n")
    with open(HERE / "summary.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(
            [
                "setting",
                "loki2",
                "opponent",
                "deals",
                "hands",
                "seed",
                "sb_per_hand",
                "ci95_low",
                "ci95_high",
                "beats",
                "command",
            ]
        )
        for r in rows:
            writer.writerow(
                [
                    r["setting"],
                    r["loki2"],
                    r["opponent"],
                    r["deals"],
                    r["hands"],
                    r["seed"],
                    f"{r['sb_per_hand']:.4f}",
                    f"{r['ci95'][0]:.4f}",
                    f"{r['ci95'][1]:.4f}",
                    r["beats"],
                    r["command"],
                ]
            )
    plot(rows, HERE / "sb-per-hand.png")
    for r in rows:
        print(
            f"{r['setting']:<32}{r['opponent']:<18}{r['deals']:>6}{r['sb_per_hand']:>8.3f} "
            f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]"
        )


if __name__ == "__main__":
    main()
