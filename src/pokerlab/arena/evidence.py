"""A player's evidence table: many duplicate matches of one player kind against one opponent kind each
(heads-up, or several copies of each at a table, as in Peña 1999's ten-seat design), pooled and drawn.

`pooled_match` reads one results folder of `pokerlab match --duplicate --out` (its hands.csv: per-hand nets)
and pools the copies of each player kind per deal; the 95 % confidence interval comes from the spread of
the per-deal rates (`pokerlab.arena.stats.summarize`, the figures `pokerlab match` prints). The first kind
seated is the player, the second its opponent.

`collect` does that for every match folder in a runs folder and writes, into a results folder,
``summary.json``, ``summary.csv`` and ``sb-per-hand.png`` (one panel per setting, the player's rate against
each opponent with its interval). A match whose folder is not among the runs keeps its row from the
summary.json already there, so re-running some matches updates their rows alone and the per-hand files
need not be kept. Used by docs/results/loki2-evidence/ and docs/results/barone-while/versus/.
"""

from __future__ import annotations

import csv
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from pokerlab.arena.stats import pool_by_name, summarize
from pokerlab.errors import ConfigError, CorruptData, PokerlabError

HEADER = ["setting", "player", "opponent", "deals", "hands", "seed", "sb_per_hand", "ci95_low", "ci95_high"]


def pooled_match(folder: Path) -> dict:
    """The pooled result of the first player kind of one duplicate match folder against the second."""
    try:
        config = json.loads((folder / "config.json").read_text())
        with open(folder / "hands.csv") as f:
            rows = list(csv.reader(f))
        names = [name.split("#")[0] for name in rows[0][4:]]  # "loki2#1", "loki2#2": one kind
        nets = np.array([[int(x) for x in row[4:]] for row in rows[1:]], dtype=np.int64)
        deals = np.array([int(row[1]) for row in rows[1:]])
    except (OSError, ValueError, IndexError) as exc:
        raise CorruptData(
            f"{folder} is not a finished `pokerlab match --duplicate --out` folder ({exc})"
        ) from None
    kinds, pooled, copies, _ = pool_by_name(names, nets)
    game = config["game"]
    results = summarize(kinds, pooled, deals, game["small_bet"], game["big_blind"], copies=copies)
    ours, theirs = results[0], results[1]
    return {
        "match": folder.name,
        "player": ours.agent,
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
            f"--deals {config['deals']} --seed {config['seed']}"
        ),
    }


def plot(rows: list[dict], path: Path, title: str) -> None:
    """One panel per setting: the player's sb/hand against each opponent, with its 95 % interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

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
        ax.set_xlabel("sb/hand (95 % CI)")
        ax.set_title(setting, fontsize=9)
        ax.invert_yaxis()
    fig.suptitle(title, fontsize=10)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def collect(
    runs: Path,
    out: Path,
    setting: Callable[[str], str],
    title: str,
) -> list[dict]:
    """Pool every finished match folder in `runs` (its setting named by `setting(folder name)`), merge with
    the rows of `out`/summary.json, and write summary.json, summary.csv and sb-per-hand.png into `out`."""
    if not runs.is_dir():
        raise ConfigError(
            f"{runs}: no such folder of match results (give the folder the matches were run into)"
        )
    fresh = {}
    for folder in sorted(runs.iterdir()):
        if (folder / "summary.json").is_file():
            row = pooled_match(folder)
            fresh[row["match"]] = {"match": row["match"], "setting": setting(row["match"]), **row}
    kept = json.loads((out / "summary.json").read_text()) if (out / "summary.json").is_file() else []
    rows = sorted([fresh.pop(r["match"], r) for r in kept] + list(fresh.values()), key=lambda r: r["match"])
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(rows, indent=1) + "\n")
    with open(out / "summary.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow([*HEADER, "beats", "command"])
        for r in rows:
            writer.writerow(
                [r[k] for k in HEADER[:6]]
                + [
                    f"{r['sb_per_hand']:.4f}",
                    f"{r['ci95'][0]:.4f}",
                    f"{r['ci95'][1]:.4f}",
                    r["beats"],
                    r["command"],
                ]
            )
    if rows:
        plot(rows, out / "sb-per-hand.png", title)
    return rows


def main(argv: list[str], out: Path, setting: Callable[[str], str], title: str, default_runs: Path) -> int:
    """An evidence folder's summarize script: `collect` from the runs folder named in `argv` (else
    `default_runs`) into `out`, a line per match printed; a bad folder is one error line and exit status 2."""
    runs = Path(argv[0]) if argv else default_runs
    try:
        rows = collect(runs, out, setting, title)
    except PokerlabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    width = max((len(r["setting"]) for r in rows), default=0) + 2
    for r in rows:
        print(
            f"{r['setting']:<{width}}{r['opponent']:<18}{r['deals']:>6}{r['sb_per_hand']:>8.3f} "
            f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]"
        )
    return 0


def write_csv(path: Path, header: list[str], rows: list[list]) -> None:
    """`rows` under `header` as a CSV file at `path` (its folder made if missing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as file:
        writer = csv.writer(file, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def read_csv(path: Path) -> list[list[str]]:
    """The rows below the header of a CSV file `write_csv` wrote."""
    with path.open() as file:
        return list(csv.reader(file))[1:]


def log_hands_axis(ax, hands: list[int]) -> bool:
    """Hands (of training, say) on a log scale from the first positive value on, linear below it so that 0
    (the untrained player) shows; ticks at 0 and the powers of ten. False (the axis left linear) when no
    value is positive."""
    positive = [h for h in hands if h > 0]
    if positive:
        ax.set_xscale("symlog", linthresh=min(positive), linscale=0.5)
        low, high = math.ceil(math.log10(min(positive))), math.ceil(math.log10(max(positive)))
        ax.set_xticks([0, *(10**k for k in range(low, high + 1))])
    return bool(positive)
