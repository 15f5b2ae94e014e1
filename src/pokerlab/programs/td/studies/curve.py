"""TD-Hold'em's learning curves evaluated after training (docs/learning-spec-td.md §A.9 item 2).

§A.9 item 2 asks for a log-scale curve (10^3 … 10^6 training hands) with at least 10,000 duplicate deals per
point, the median and range over five seeds, one curve per evaluation opponent. Evaluating that inside
training would cost more than the training, so a run keeps its player at the schedule's ``save_at`` hands
(``players/hands-N.npz``, `pokerlab.programs.td.training`), and this module plays every kept player of several
runs, frozen (with the identity input of an opponent it was trained against, `runs.versus`), against each
opponent on the same ``deals`` duplicate deals of ``seed`` (common deals across points, runs and opponents, so
that differences between points are not differences of luck). The final ``checkpoint.npz`` is the last point
of each run. A ``reference`` agent (such as Loki-1) plays each opponent on the same deals, so that the curves
can be read against its result (§A.9 item 3), drawn as a dotted line.

The work is (player, opponent) pairs, shared among ``workers`` processes or a Ray cluster
(`pokerlab.arena.backend`); the rows do not depend on the number of workers. Written into ``out`` while it
runs: ``curve.csv`` (run, seed, hands, opponent, sb/hand,
95 % CI; rewritten after each pair, so an interrupted evaluation keeps what it finished) and
``curve.json`` (deals, seed, reference), ``reference.csv`` (opponent, the reference's sb/hand, 95 % CI); a
second call with the same deals, seed and reference plays only the pairs missing from them. At the end:
``seeds.csv`` (median and range over the runs at each point they share, and how many runs' CIs lie above
or below 0, `runs.across_runs`) and ``curves.png`` (`runs.plot_runs`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from pokerlab.agents import make_agent
from pokerlab.arena.backend import Backend, as_backend, farm
from pokerlab.arena.evidence import read_csv, write_csv
from pokerlab.arena.match import duplicate_tournament
from pokerlab.engine import GameConfig
from pokerlab.errors import ConfigError
from pokerlab.programs.td.agent import load_td_agent
from pokerlab.programs.td.studies.ladder import saved_players
from pokerlab.programs.td.studies.runs import SEEDS_HEADER, across_runs, fixed_opponents, plot_runs, versus

CURVE_HEADER = ["run", "seed", "hands", "opponent", "sb_per_hand", "ci95_low", "ci95_high"]
REFERENCE_HEADER = ["opponent", "sb_per_hand", "ci95_low", "ci95_high"]


def kept_players(run: Path) -> list[tuple[int, Path]]:
    """(training hands, file) of a run's kept players (``players/hands-N.npz``) and of its final
    ``checkpoint.npz`` when that is later, oldest first."""
    source = "players/hands-N.npz from a run whose schedule has save_at, and checkpoint.npz"
    return saved_players(run, "players", "a curve", source)


def _play(task: tuple[str, int, int, str, list[str], str, int, int]) -> list:
    """One row of curve.csv: the kept player at `where` against `opponent` (a worker's job)."""
    name, seed, hands, where, fixed, opponent, deals, deal_seed = task
    _, r = versus(where, fixed, opponent, deals, deal_seed)
    return [name, seed, hands, opponent, *(round(v, 6) for v in (r.sb_per_hand, *r.ci95))]


def _task(function: Callable, task: tuple) -> list:
    """A row of `function` (`_play` or `_reference`), where the backend runs it."""
    return function(task)


def _reference(task: tuple[str, str, int, int, GameConfig]) -> list:
    """One row of reference.csv: the reference agent against `opponent` (a worker's job)."""
    reference, opponent, deals, deal_seed, game = task
    r = duplicate_tournament([reference, opponent], deals, game, deal_seed).results[0]
    return [opponent, *(round(v, 6) for v in (r.sb_per_hand, *r.ci95))]


def _read_rows(out: Path, meta: dict) -> tuple[list[list], list[list]]:
    """The curve and reference rows of an earlier evaluation into `out` with the same `meta` (deals, seed,
    reference), or none."""
    try:
        if json.loads((out / "curve.json").read_text()) != meta:
            return [], []
        rows, references = read_csv(out / "curve.csv"), read_csv(out / "reference.csv")
    except (OSError, ValueError):
        return [], []
    curve = [[r[0], int(r[1]), int(r[2]), r[3], *map(float, r[4:])] for r in rows]
    return curve, [[r[0], *map(float, r[1:])] for r in references]


def curves(
    runs: list[str | Path],
    opponents: list[str],
    deals: int,
    seed: int,
    out: str | Path,
    workers: int | Backend = 1,
    progress: Callable[[str], None] | None = None,
    reference: str | None = None,
) -> list[list]:
    """Evaluate every kept player of `runs` against `opponents` on `deals` duplicate deals of `seed` with
    `workers` processes, and the `reference` agent against each opponent but itself; write curve.csv,
    reference.csv, curve.json, seeds.csv and curves.png into `out`; returns the curve rows (run, seed,
    hands, opponent, sb/hand, low, high), sorted by run, hands and opponent."""
    if not isinstance(deals, int) or deals < 1:
        raise ConfigError(f"curve deals must be an integer >= 1, got {deals!r}")
    as_backend(workers)  # one clear error before any work
    if not opponents:
        raise ConfigError("a curve needs at least one opponent")
    folders = [Path(r) for r in runs]
    names = [f.name for f in folders]
    if len(set(names)) < len(names):
        raise ConfigError(f"the runs' folder names name their curves and must differ, got {names}")
    out = Path(out)
    order = {name: i for i, name in enumerate(names)}
    meta = {"deals": deals, "seed": seed, "reference": reference}
    earlier, earlier_references = _read_rows(out, meta)
    references = {r[0]: r for r in earlier_references if r[0] in opponents}
    jobs: dict[tuple[str, int, str], tuple] = {}
    for folder in folders:
        fixed = fixed_opponents(folder)  # one clear error for a folder that is not a run
        run_seed = int(json.loads((folder / "config.json").read_text())["seed"])
        kept = kept_players(folder)
        for hands, where in kept:
            for name in opponents:
                jobs[folder.name, hands, name] = (folder.name, run_seed, hands, str(where), fixed, name)
    # earlier rows of players the runs still keep (an unfinished run's old final point is not)
    done = {key: r for r in earlier if (key := (r[0], r[2], r[3])) in jobs}
    tasks: list[tuple[Callable, tuple]] = [
        (_play, (*job, deals, seed)) for key, job in jobs.items() if key not in done
    ]
    if reference:
        make_agent(reference)  # one clear error with the known names
        game = load_td_agent(str(kept[-1][1])).config.game()
        tasks += [
            (_reference, (reference, name, deals, seed, game))
            for name in opponents
            if name != reference and name not in references
        ]
    out.mkdir(parents=True, exist_ok=True)
    (out / "curve.json").write_text(json.dumps(meta) + "\n")
    rows = list(done.values())
    finished = 0

    def write() -> None:
        rows.sort(key=lambda r: (order[r[0]], r[2], opponents.index(r[3])))
        write_csv(out / "curve.csv", CURVE_HEADER, rows)
        ordered = sorted(references.values(), key=lambda r: opponents.index(r[0]))
        write_csv(out / "reference.csv", REFERENCE_HEADER, ordered)

    def keep(function: Callable, row: list) -> None:
        nonlocal finished
        if function is _play:
            rows.append(row)
            what = f"{row[0]} at {row[2]} hands vs {row[3]}"
        else:
            references[row[0]] = row
            what = f"{reference} vs {row[0]}"
        write()
        finished += 1
        if progress:
            progress(f"{finished}/{len(tasks)}  {what}: {row[-3]:+.3f} [{row[-2]:+.3f}, {row[-1]:+.3f}]")

    for index, row in farm(_task, tasks, workers):
        keep(tasks[index][0], row)
    write()
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
    lines = {name: (reference, r[1]) for name, r in references.items()}
    title = f"TD-Hold'em, {deals:,} duplicate deals per point (seed {seed})"
    plot_runs(as_runs, out / "curves.png", title, lines)
    return rows
