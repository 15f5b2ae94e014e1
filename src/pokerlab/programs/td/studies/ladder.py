"""TD-Hold'em's self-play ladder (docs/learning-spec-td.md §A.9 item 5): each frozen snapshot of a run against
every earlier one in duplicate.

The rungs are the run's stage-2 snapshots (``snapshots/hands-N.npz``, written by `pokerlab train td`) and
its final ``checkpoint.npz`` when that is later than the last snapshot. Every pair plays the same
``deals`` duplicate deals (seed ``seed``) in the players' own game (`TDConfig.game`); each player reads the
opponent-identity input its training gave its own snapshots (the last slot) when it has identity inputs.
Later snapshots should beat earlier ones; a later one losing to an earlier one beyond noise is the symptom
of cycling.

Written into ``out``: ``ladder.csv`` (later, earlier, sb/hand of the later, 95 % CI) and ``ladder.png``, a
heat map of the same with rows the later and columns the earlier snapshot.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from pokerlab.arena.evidence import write_csv
from pokerlab.arena.match import duplicate_tournament
from pokerlab.errors import ConfigError
from pokerlab.programs.td.agent import TDAgent, load_td_agent

LADDER_HEADER = ["later", "earlier", "sb_per_hand", "ci95_low", "ci95_high"]


def rungs(run: str | Path, what: str = "a ladder") -> list[tuple[int, Path]]:
    """(training hands, file) of the run's snapshots and its later final checkpoint, oldest first; `what`
    names the use in the error when there are fewer than two."""
    run = Path(run)
    if not run.is_dir():
        raise ConfigError(
            f"{run}: no such run folder ({what} reads the folder `pokerlab train td --out` wrote)"
        )
    return saved_players(
        run, "snapshots", what, "snapshots/hands-N.npz from a run with a stage 2, schedule stage2_after > 0"
    )


def saved_players(run: Path, folder: str, what: str, source: str) -> list[tuple[int, Path]]:
    """(training hands, file) of the players the run saved as `folder`/hands-N.npz and of its final
    checkpoint.npz when that is later, oldest first; fewer than two is an error naming `what` needs them
    and their `source`."""
    found = [(int(p.stem.split("-")[1]), p) for p in sorted((run / folder).glob("hands-*.npz"))]
    final = run / "checkpoint.npz"
    if final.is_file():
        hands = load_td_agent(str(final)).learner.hands
        if not found or hands > found[-1][0]:
            found.append((hands, final))
    if len(found) < 2:
        noun = "snapshots" if folder == "snapshots" else "players"
        raise ConfigError(f"{run}: {what} needs at least two {noun} ({source}), found {len(found)}")
    return found


def self_id(agent: TDAgent) -> TDAgent:
    """`agent` with the identity input its training gave itself and its snapshots (the last slot)."""
    ids = agent.config.opponent_ids
    agent.opponent_id = ids - 1 if ids else None
    return agent


def ladder(
    run: str | Path,
    deals: int,
    seed: int,
    out: str | Path,
    progress: Callable[[str], None] | None = None,
) -> list[list]:
    """Play the ladder of `run` and write ladder.csv and ladder.png into `out`; returns the rows."""
    if not isinstance(deals, int) or deals < 1:
        raise ConfigError(f"ladder deals must be an integer >= 1, got {deals!r}")
    steps = rungs(run)
    rows = []
    for i, (later, later_path) in enumerate(steps):
        for earlier, earlier_path in steps[:i]:
            players = [self_id(load_td_agent(str(later_path))), self_id(load_td_agent(str(earlier_path)))]
            result = duplicate_tournament(players, deals, players[0].config.game(), seed)
            r = result.results[0]
            low, high = r.ci95
            rows.append([later, earlier, round(r.sb_per_hand, 6), round(low, 6), round(high, 6)])
            if progress:
                progress(f"{later} hands vs {earlier}: {r.sb_per_hand:+.3f} [{low:+.3f}, {high:+.3f}]")
    out = Path(out)
    write_csv(out / "ladder.csv", LADDER_HEADER, rows)
    plot_ladder(rows, [h for h, _ in steps], out / "ladder.png", deals, seed)
    return rows


def plot_ladder(rows: list[list], hands: list[int], path: Path, deals: int, seed: int) -> None:
    """The heat map: cell (later, earlier) = the later snapshot's sb/hand; '*' where the CI excludes 0."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(hands)
    grid = np.full((n, n), np.nan)
    index = {h: i for i, h in enumerate(hands)}
    for later, earlier, value, *_ in rows:
        grid[index[later], index[earlier]] = value
    limit = max(0.1, float(np.nanmax(np.abs(grid))))
    fig, ax = plt.subplots(figsize=(1.1 * n + 2.5, 0.9 * n + 2))
    image = ax.imshow(grid, cmap="RdBu", vmin=-limit, vmax=limit)
    for later, earlier, value, low, high in rows:
        mark = "*" if low > 0 or high < 0 else ""
        colour = "white" if abs(value) > 0.6 * limit else "black"  # legible on the map's dark ends
        ax.text(
            index[earlier],
            index[later],
            f"{value:+.2f}{mark}",
            ha="center",
            va="center",
            fontsize=8,
            color=colour,
        )
    labels = [f"{h // 1000}k" for h in hands]
    ax.set_xticks(range(n), labels, rotation=45)
    ax.set_yticks(range(n), labels)
    ax.set_xlabel("earlier snapshot (training hands)")
    ax.set_ylabel("later snapshot")
    fig.colorbar(image, ax=ax, label="later's sb/hand, duplicate")
    ax.set_title(f"Snapshot ladder ({deals} duplicate deals, seed {seed}; * CI excludes 0)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(fig)
