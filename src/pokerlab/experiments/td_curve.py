"""TD-Hold'em's learning curves evaluated after training (LEARNING-SPEC §A.9 item 2).

§A.9 item 2 asks for a log-scale curve (10^3 … 10^6 training hands) with at least 10,000 duplicate deals
per point, the median and range over five seeds, one curve per evaluation opponent. Evaluating that inside
training would cost more than the training, so a run keeps its player at the schedule's ``save_at`` hands
(``players/hands-N.npz``, `pokerlab.learning.td`), and this module plays every kept player of several runs,
frozen (with the identity input of an opponent it was trained against, `td_holdem.versus`), against each
opponent on the same ``deals`` duplicate deals of ``seed`` (common deals across points, runs and opponents,
so that differences between points are not differences of luck). The final ``checkpoint.npz`` is the last
point of each run.

The work is (player, opponent) pairs, shared among ``workers`` processes; the rows do not depend on the
number of workers. Written into ``out`` while it runs: ``curve.csv`` (run, seed, hands, opponent, sb/hand,
95 % CI; rewritten after each pair, so an interrupted evaluation keeps what it finished) and
``curve.json`` (deals, seed); a second call with the same deals and seed plays only the pairs missing from
``curve.csv``. At the end: ``seeds.csv`` (median and range over the runs at each point they share, and how
many runs' CIs lie above or below 0, `td_holdem.across_runs`) and ``curves.png`` (`td_holdem.plot_runs`).
"""

from __future__ import annotations

import csv
import json
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from pokerlab.agents.td.agent import load_td_agent
from pokerlab.errors import ConfigError
from pokerlab.experiments.td_holdem import SEEDS_HEADER, across_runs, fixed_opponents, plot_runs, versus
from pokerlab.learning.td import write_csv

CURVE_HEADER = ["run", "seed", "hands", "opponent", "sb_per_hand", "ci95_low", "ci95_high"]


def kept_players(run: Path) -> list[tuple[int, Path]]:
    """(training hands, file) of a run's kept players (``players/hands-N.npz``) and of its final
    ``checkpoint.npz`` when that is later, oldest first."""
    found = [(int(p.stem.split("-")[1]), p) for p in sorted((run / "players").glob("hands-*.npz"))]
    final = run / "checkpoint.npz"
    if final.is_file():
        hands = load_td_agent(str(final)).learner.hands
        if not found or hands > found[-1][0]:
            found.append((hands, final))
    if len(found) < 2:
        raise ConfigError(
            f"{run}: a curve needs at least two players (players/hands-N.npz from a run whose schedule has "
            f"save_at, and checkpoint.npz), found {len(found)}"
        )
    return found


def _run_seed(run: Path) -> int:
    fixed_opponents(run)  # one clear error for a folder that is not a run
    return int(json.loads((run / "config.json").read_text())["seed"])


def _play(task: tuple[str, int, int, str, list[str], str, int, int]) -> list:
    """One row of curve.csv: the kept player at `where` against `opponent` (a worker's job)."""
    name, seed, hands, where, fixed, opponent, deals, deal_seed = task
    _, r = versus(where, fixed, opponent, deals, deal_seed)
    return [name, seed, hands, opponent, *(round(v, 6) for v in (r.sb_per_hand, *r.ci95))]


def _read_rows(out: Path, deals: int, seed: int) -> list[list]:
    """The rows of an earlier evaluation into `out` with the same deals and seed (none otherwise)."""
    try:
        meta = json.loads((out / "curve.json").read_text())
        with (out / "curve.csv").open() as file:
            rows = list(csv.reader(file))[1:]
    except (OSError, ValueError):
        return []
    if meta != {"deals": deals, "seed": seed}:
        return []
    return [[r[0], int(r[1]), int(r[2]), r[3], *map(float, r[4:])] for r in rows]


def curves(
    runs: list[str | Path],
    opponents: list[str],
    deals: int,
    seed: int,
    out: str | Path,
    workers: int = 1,
    progress: Callable[[str], None] | None = None,
) -> list[list]:
    """Evaluate every kept player of `runs` against `opponents` on `deals` duplicate deals of `seed` with
    `workers` processes; write curve.csv, curve.json, seeds.csv and curves.png into `out`; returns the
    curve rows (run, seed, hands, opponent, sb/hand, low, high), sorted by run, hands and opponent."""
    if not isinstance(deals, int) or deals < 1:
        raise ConfigError(f"curve deals must be an integer >= 1, got {deals!r}")
    if not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"curve workers must be an integer >= 1, got {workers!r}")
    folders = [Path(r) for r in runs]
    names = [f.name for f in folders]
    if len(set(names)) < len(names):
        raise ConfigError(f"the runs' folder names name their curves and must differ, got {names}")
    out = Path(out)
    order = {name: i for i, name in enumerate(names)}
    done = {
        (r[0], r[2], r[3]): r for r in _read_rows(out, deals, seed) if r[0] in order and r[3] in opponents
    }
    tasks = []
    for folder in folders:
        run_seed, fixed = _run_seed(folder), fixed_opponents(folder)
        for hands, where in kept_players(folder):
            tasks += [
                (folder.name, run_seed, hands, str(where), fixed, name, deals, seed)
                for name in opponents
                if (folder.name, hands, name) not in done
            ]
    out.mkdir(parents=True, exist_ok=True)
    (out / "curve.json").write_text(json.dumps({"deals": deals, "seed": seed}) + "\n")
    rows = list(done.values())

    def keep(row: list) -> None:
        rows.append(row)
        rows.sort(key=lambda r: (order[r[0]], r[2], opponents.index(r[3])))
        write_csv(out / "curve.csv", CURVE_HEADER, rows)
        if progress:
            progress(
                f"{len(rows) - len(done)}/{len(tasks)}  {row[0]} at {row[2]} hands vs {row[3]}: "
                f"{row[4]:+.3f} [{row[5]:+.3f}, {row[6]:+.3f}]"
            )

    if workers == 1 or len(tasks) < 2:
        for task in tasks:
            keep(_play(task))
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(min(workers, len(tasks)), mp_context=context) as pool:
            for future in as_completed([pool.submit(_play, task) for task in tasks]):
                keep(future.result())
    rows.sort(key=lambda r: (order[r[0]], r[2], opponents.index(r[3])))
    write_csv(out / "curve.csv", CURVE_HEADER, rows)
    as_runs = [
        {
            "name": name,
            "seed": next(r[1] for r in rows if r[0] == name),
            "rows": [(r[2], r[3], r[4], r[5], r[6]) for r in rows if r[0] == name],
            "final": {"hands": max(r[2] for r in rows if r[0] == name), "results": []},
        }
        for name in names
    ]
    write_csv(out / "seeds.csv", SEEDS_HEADER, across_runs(as_runs))
    plot_runs(as_runs, out / "curves.png", f"TD-Hold'em, {deals:,} duplicate deals per point (seed {seed})")
    return rows
