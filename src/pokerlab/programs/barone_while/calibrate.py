"""Calibrating the Barone & While tables on frozen players, before any evolution (docs/barone-while.md §15).

Barone & While 2000 §4.4 (Table 2) report that their player A loses at the tight table (-528 an epoch) and
wins at the loose one (+5,294). Our stakes and our readings of the stereotypes' words are choices
(docs/barone-while.md §9), so the grid plays player A, frozen and re-tuned on the single-opponent scale
(``multiway_x = "single"``, ``player_a_scale = "x1"``), at the tight table (9 tight-passive) and the loose
table (9 loose-aggressive) for every small bet in {10, 25, 50} (stacks of 1,000), every loose-aggressive
reading and every tight-passive reading (`pokerlab.agents.stereotypes.READINGS`): 3 x 3 x 2 = 18 cells,
all on the same cards (epoch e of every run from the seed sequence (seed, e)). The tight table does not
depend on the loose reading, nor the loose table on the tight one, so the 18 cells take 9 loose and 6
tight runs.

A cell is accepted when W_loose(A) > 0 (its 95 % interval above 0), W_tight(A) < 0, W_loose(A) >
W_tight(A), and A's VPIP, pooled over the two tables, is 12-30 % (the issue's rule, fixed before the runs).

``python -m pokerlab.programs.barone_while.calibrate --epochs 200 --seed 0 --out DIR`` writes grid.csv,
grid.json and grid.png to DIR.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from pokerlab.agents.stereotypes import READINGS
from pokerlab.arena.stats import half_width95
from pokerlab.modeling.style import style_counts
from pokerlab.programs.barone_while.agent import EvolvingAgent
from pokerlab.programs.barone_while.config import EvolvingConfig
from pokerlab.programs.barone_while.epochs import play_epochs

STAKES = (10, 25, 50)
SEGMENTS = ("tight-passive", "loose-aggressive")
#: Player A as the grid plays it: x1 against every opponent, its thresholds on the x1 scale.
A_CONFIG = EvolvingConfig(multiway_x="single", player_a_scale="x1")
VPIP_RANGE = (0.12, 0.30)


@dataclass(frozen=True)
class TableRun:
    """Frozen player A at one table: W per epoch and its pre-flop counts."""

    w: np.ndarray
    hands: int
    vpip: int


def frozen_a(config: EvolvingConfig) -> EvolvingAgent:
    """Player A (``config.player_a_scale``), frozen, one member per population."""
    agent = EvolvingAgent(replace(config, population_size=1), SEGMENTS, "player_a")
    agent.freeze()
    return agent


def play_a(config: EvolvingConfig, table: str, epochs: int, seed: int) -> TableRun:
    """Frozen player A at `table` ("tight" or "loose") under `config`'s stakes and readings."""
    agent = frozen_a(config)
    agent.situations = []
    run = play_epochs(agent, table, epochs, seed)
    counts = style_counts((s[0], s[1], s[5], s[6]) for s in agent.situations)
    return TableRun(run.player, counts.hands, counts.vpip)


def accepted(row: dict) -> bool:
    """The acceptance rule of a cell (module docstring)."""
    return (
        row["w_loose"] - row["w_loose_ci95"] > 0
        and row["w_tight"] < 0
        and row["w_loose"] > row["w_tight"]
        and VPIP_RANGE[0] <= row["vpip"] <= VPIP_RANGE[1]
    )


def cell_row(small_bet: int, loose: str, tight: str, at_loose: TableRun, at_tight: TableRun) -> dict:
    """One cell of the grid from A's runs at the loose and the tight table."""
    row = {
        "small_bet": small_bet,
        "loose_reading": loose,
        "tight_reading": tight,
        "epochs": len(at_loose.w),
        "w_loose": float(at_loose.w.mean()),
        "w_loose_ci95": half_width95(at_loose.w, default=float("inf")),
        "w_tight": float(at_tight.w.mean()),
        "w_tight_ci95": half_width95(at_tight.w, default=float("inf")),
        "vpip": (at_loose.vpip + at_tight.vpip) / max(1, at_loose.hands + at_tight.hands),
    }
    row["accepted"] = accepted(row)
    return row


def grid(epochs: int, seed: int, base: EvolvingConfig = A_CONFIG, progress: bool = False) -> list[dict]:
    """The 18 cells (small bet x loose reading x tight reading), each with A's W at both tables."""
    loose_runs, tight_runs = {}, {}
    for small_bet in STAKES:
        for loose in READINGS["loose-aggressive"]:
            config = replace(base, small_bet=small_bet, loose_reading=loose)
            loose_runs[small_bet, loose] = play_a(config, "loose", epochs, seed)
            if progress:
                print(f"small bet {small_bet}, loose-aggressive {loose}: done", flush=True)
        for tight in READINGS["tight-passive"]:
            config = replace(base, small_bet=small_bet, tight_reading=tight)
            tight_runs[small_bet, tight] = play_a(config, "tight", epochs, seed)
            if progress:
                print(f"small bet {small_bet}, tight-passive {tight}: done", flush=True)
    return [
        cell_row(b, loose, tight, loose_runs[b, loose], tight_runs[b, tight])
        for b, loose, tight in itertools.product(
            STAKES, READINGS["loose-aggressive"], READINGS["tight-passive"]
        )
    ]


def write_grid(rows: list[dict], out: Path, title: str) -> None:
    """grid.csv, grid.json and grid.png (W_loose and W_tight of every cell with 95 % intervals, accepted
    cells marked) in `out`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    with (out / "grid.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    (out / "grid.json").write_text(json.dumps(rows, indent=1) + "\n")
    fig, axes = plt.subplots(1, len(STAKES), figsize=(15, 5), sharey=False)
    for ax, small_bet in zip(axes, STAKES, strict=True):
        cells = [r for r in rows if r["small_bet"] == small_bet]
        k = np.arange(len(cells))
        ax.errorbar(
            k - 0.1,
            [r["w_loose"] for r in cells],
            [r["w_loose_ci95"] for r in cells],
            fmt="o",
            color="tab:red",
            label="W_loose(A)",
        )
        ax.errorbar(
            k + 0.1,
            [r["w_tight"] for r in cells],
            [r["w_tight_ci95"] for r in cells],
            fmt="s",
            color="tab:blue",
            label="W_tight(A)",
        )
        ax.axhline(0, color="grey", lw=0.8)
        for i, r in enumerate(cells):
            ax.annotate(
                f"VPIP {r['vpip']:.0%}" + ("\nACCEPTED" if r["accepted"] else ""),
                (i, 0),
                textcoords="offset points",
                xytext=(0, -28),
                ha="center",
                fontsize=7,
                color="green" if r["accepted"] else "black",
            )
        ax.set_xticks(k, [f"{r['loose_reading']}\n{r['tight_reading']}" for r in cells], fontsize=7)
        ax.set_title(f"small bet {small_bet} (blinds {small_bet // 2}/{small_bet}), stacks 1,000")
        ax.set_ylabel("chips per epoch (mean, 95 % CI)")
    axes[0].legend(fontsize=8)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(out / "grid.png", dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=200, help="epochs per cell and table (200)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="docs/results/barone-while/calibration")
    args = parser.parse_args(argv)
    if args.epochs < 2:
        parser.error(f"--epochs must be at least 2 (a confidence interval), got {args.epochs}")
    rows = grid(args.epochs, args.seed, progress=True)
    title = (
        f"Frozen player A (x1 scale) at the tight and loose tables, {args.epochs} epochs of 100 hands a "
        f"cell, seed {args.seed}, common cards; python -m pokerlab.programs.barone_while.calibrate "
        f"--epochs {args.epochs} --seed {args.seed}"
    )
    write_grid(rows, Path(args.out), title)
    for r in rows:
        print(
            f"bet {r['small_bet']:>2} {r['loose_reading']:<12} {r['tight_reading']:<12} "
            f"W_loose {r['w_loose']:+7.0f} ±{r['w_loose_ci95']:<4.0f} W_tight {r['w_tight']:+7.0f} "
            f"±{r['w_tight_ci95']:<4.0f} VPIP {r['vpip']:5.1%} {'ACCEPTED' if r['accepted'] else ''}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
