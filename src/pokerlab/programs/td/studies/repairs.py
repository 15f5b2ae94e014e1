"""Target T4 of docs/learning-spec-td.md §A.9 item 7: each single repair, added alone to the faithful system,
reported as a delta with its confidence interval, so that the article's failure is attributed, not just cured.

`repair_deltas` reads finished `pokerlab train td` runs, each named by its folder (``ROOT/sS/NAME``: the
configuration's name, the seed read from its config.json), and compares each configuration's final
evaluation against one opponent with the base configuration's (``faithful``) of the same seed:

* ``results.csv``: every run's final sb/hand with its 95 % CI;
* ``deltas.csv``: per configuration and seed, the repair's result less the base's, its half-width the two
  CIs' half-widths combined as independent (sqrt(h1² + h2²); the evaluations play the same deals, which
  makes the true interval of the difference narrower when the two players' results are positively
  correlated, so this one is conservative); then per configuration, over the seeds, the mean delta with a
  Student-t 95 % interval (df = seeds - 1) and the paired t-test of "the repair beats the base";
* ``curves.png``: the median over seeds of each configuration's evaluations, with the range shaded.
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

import numpy as np

from pokerlab.arena.evidence import log_hands_axis, write_csv
from pokerlab.arena.significance import paired_test, t_quantile
from pokerlab.errors import ConfigError
from pokerlab.programs.td.studies.runs import across_runs, read_run
from pokerlab.programs.td.training import BEST_RESPONSE_VS_CALL

RESULTS_HEADER = ["config", "seed", "hands", "opponent", "sb_per_hand", "ci95_low", "ci95_high"]
DELTAS_HEADER = ["config", "seed", "delta", "ci95_low", "ci95_high", "p_greater", "p_two_sided"]


def _final(run: dict, opponent: str) -> tuple[float, float, float]:
    for r in run["final"]["results"]:
        if r["opponent"] == opponent:
            return r["sb_per_hand"], r["ci95_low"], r["ci95_high"]
    evaluated = ", ".join(r["opponent"] for r in run["final"]["results"])
    raise ConfigError(
        f"run {run['name']} (seed {run['seed']}) was not evaluated against {opponent!r}: {evaluated}"
    )


def _group(folders: list[str | Path]) -> dict[str, dict[int, dict]]:
    """config name -> seed -> run; the same (name, seed) twice is refused."""
    groups: dict[str, dict[int, dict]] = defaultdict(dict)
    for folder in folders:
        run = read_run(Path(folder))
        if run["seed"] in groups[run["name"]]:
            raise ConfigError(
                f"two runs named {run['name']!r} with seed {run['seed']} (the second: {folder})"
            )
        groups[run["name"]][run["seed"]] = run
    return groups


def repair_deltas(
    folders: list[str | Path], out: str | Path, base: str = "faithful", opponent: str = "call"
) -> tuple[list[list], list[list]]:
    """Write results.csv, deltas.csv and curves.png into `out` (module docstring); returns the results and
    the deltas rows. Every configuration's seeds must have a `base` run of the same seed."""
    groups = _group(folders)
    if base not in groups:
        raise ConfigError(f"no run named {base!r} (the base) among: {', '.join(sorted(groups))}")
    if len(groups) == 1:
        raise ConfigError(f"only {base!r} runs given: add the runs of the configurations to compare with it")
    results = [
        [name, seed, run["final"]["hands"], opponent, *_final(run, opponent)]
        for name, runs in groups.items()
        for seed, run in sorted(runs.items())
    ]
    deltas = []
    for name, runs in groups.items():
        if name == base:
            continue
        missing = sorted(set(runs) - set(groups[base]))
        if missing:
            raise ConfigError(f"{name}: no {base} run for seed(s) {missing}; give the base run of every seed")
        mine, theirs = [], []
        for seed, run in sorted(runs.items()):
            r, b = _final(run, opponent), _final(groups[base][seed], opponent)
            delta, half = r[0] - b[0], math.hypot((r[2] - r[1]) / 2, (b[2] - b[1]) / 2)
            deltas.append(
                [name, seed, round(delta, 6), round(delta - half, 6), round(delta + half, 6), "", ""]
            )
            mine.append(r[0])
            theirs.append(b[0])
        if len(mine) >= 2:
            test = paired_test(mine, theirs)
            d = np.subtract(mine, theirs)
            half = t_quantile(0.975, len(d) - 1) * float(d.std(ddof=1)) / math.sqrt(len(d))
            mean = float(d.mean())
            deltas.append(
                [name, "mean", round(mean, 6), round(mean - half, 6), round(mean + half, 6)]
                + [round(test.p_greater, 6), round(test.p_two_sided, 6)]
            )
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_csv(out / "results.csv", RESULTS_HEADER, results)
    write_csv(out / "deltas.csv", DELTAS_HEADER, deltas)
    _plot(groups, opponent, out / "curves.png")
    return results, deltas


def _plot(groups: dict[str, dict[int, dict]], opponent: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    every_x = []
    for name, runs in groups.items():
        spread = [r for r in across_runs(list(runs.values())) if r[1] == opponent]  # median, min, max
        x = [r[0] for r in spread]
        (line,) = ax.plot(x, [r[3] for r in spread], marker="o", ms=3, label=f"{name} ({len(runs)})")
        ax.fill_between(x, [r[4] for r in spread], [r[5] for r in spread], color=line.get_color(), alpha=0.12)
        every_x += x
    ax.axhline(0, color="grey", lw=0.8)
    if opponent == "call":
        ax.axhline(BEST_RESPONSE_VS_CALL, color="grey", ls="--", lw=0.8, label="best response")
    log_hands_axis(ax, every_x)
    ax.set_xlabel("training hands")
    ax.set_ylabel(f"sb/hand vs {opponent}, duplicate (median, range over seeds)")
    ax.set_title("Each repair alone (target T4)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
