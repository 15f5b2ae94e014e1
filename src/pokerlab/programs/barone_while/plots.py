"""The figures of Barone & While 2000: stack per epoch (Fig. 1), the average candidate of each population
against x (Figs. 2-3), and the Table 2 comparison, as PNG files (matplotlib, Agg)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerlab.programs.barone_while.candidate import probabilities
from pokerlab.programs.barone_while.hypercube import Hypercube
from pokerlab.programs.barone_while.situation import MAX_BETS_TO_CALL, POSITIONS, STAGES

ACTION_COLOURS = (("fold", "tab:red"), ("call", "tab:blue"), ("raise", "tab:green"))


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def moving_average(values: np.ndarray, window: int) -> np.ndarray:
    """The mean of the last `window` values at each epoch (fewer at the start)."""
    sums = np.cumsum(np.insert(np.asarray(values, dtype=np.float64), 0, 0.0))
    idx = np.arange(1, len(values) + 1)
    start = np.maximum(idx - window, 0)
    return (sums[idx] - sums[start]) / (idx - start)


def plot_epochs(runs, path: Path, title: str, window: int = 20) -> Path:
    """Fig. 1: W per epoch of the evolving player (thin) with its `window`-epoch moving average (bold), and
    the moving average of the opponents' mean W per type; one panel per run."""
    plt = _pyplot()
    fig, axes = plt.subplots(len(runs), 1, figsize=(9, 2.6 * len(runs) + 0.6), squeeze=False, sharex=True)
    for ax, run in zip(axes[:, 0], runs, strict=True):
        epochs = np.arange(1, len(run.player) + 1)
        ax.plot(epochs, run.player, color="0.75", linewidth=0.5, label="evolving player, W per epoch")
        ax.plot(
            epochs,
            moving_average(run.player, window),
            color="black",
            linewidth=1.6,
            label=f"{window}-epoch mean",
        )
        for (style, w), colour in zip(
            sorted(run.opponents.items()), ("tab:orange", "tab:purple"), strict=False
        ):
            ax.plot(
                epochs,
                moving_average(w, window),
                color=colour,
                linewidth=1.1,
                label=f"{style} (mean per player)",
            )
        ax.axhline(0, color="0.4", linewidth=0.6)
        ax.set_ylabel("W (chips)")
        ax.set_title(f"seed {run.seed}", fontsize=9, loc="left")
    axes[0, 0].legend(fontsize=7, loc="lower right")
    axes[-1, 0].set_xlabel("epoch (100 hands from 1,000 chips)")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_controller(cube: Hypercube, segment: str, path: Path, title: str, stage: int = 3) -> Path:
    """Figs. 2-3: for one stage (default post-river) and opponent segment, the average candidate of each
    population as P(fold), P(call), P(raise) against x; rows early to late, columns 0 to 3 bets to call."""
    plt = _pyplot()
    s = cube.segments.index(segment)
    average = cube.average()
    xs = np.linspace(0, 1, 201)
    fig, axes = plt.subplots(3, MAX_BETS_TO_CALL + 1, figsize=(10, 6.6), sharex=True, sharey=True)
    for position in range(3):
        for bets in range(MAX_BETS_TO_CALL + 1):
            ax = axes[position, bets]
            probs = probabilities(average[cube.index(s, stage, position, bets)], xs)
            for k, (name, colour) in enumerate(ACTION_COLOURS):
                ax.plot(xs, probs[:, k], color=colour, label=name)
            if position == 0:
                ax.set_title(f"{bets} bet{'s' if bets != 1 else ''} to call", fontsize=9)
            if bets == 0:
                ax.set_ylabel(f"{POSITIONS[position]}\nprobability", fontsize=9)
            if position == 2:
                ax.set_xlabel("x (probability of winning)", fontsize=9)
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(f"{title}\n{STAGES[stage]}, segment {segment}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_table2(means: dict, errors: dict, path: Path, title: str) -> Path:
    """Table 2 as bars: mean W per epoch of each player (A^tight, A, A^loose) at each table, with 95 % CIs."""
    plt = _pyplot()
    tables = list(means)
    players = list(next(iter(means.values())))
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / len(players)
    for k, player in enumerate(players):
        xs = np.arange(len(tables)) + (k - (len(players) - 1) / 2) * width
        ax.bar(
            xs,
            [means[t][player] for t in tables],
            width,
            yerr=[errors[t][player] for t in tables],
            capsize=3,
            label=player,
        )
    ax.set_xticks(np.arange(len(tables)), [f"{t} table" for t in tables])
    ax.axhline(0, color="0.4", linewidth=0.6)
    ax.set_ylabel("mean W per epoch (chips)")
    ax.legend(fontsize=8)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
