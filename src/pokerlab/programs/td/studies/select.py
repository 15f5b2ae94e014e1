"""Checkpoint selection on held-out deals (early stopping) for a TD-Hold'em run (docs/learning-spec-td.md §A.9
item 7).

The stage-2 learner of §A.8.3 keeps moving after it has met the targets: its result against a fixed
opponent can drift down late in training. Training stays as it is; instead, every candidate player of the
run (its stage-2 snapshots ``snapshots/hands-N.npz`` and its final ``checkpoint.npz`` when that is later
than the last snapshot, the rungs of `pokerlab.programs.td.studies.ladder`) plays ``deals`` duplicate deals of
the *validation* seed against each opponent (§A.9 items 2 and 4: frozen, with the identity input of an
opponent it was trained against), and a criterion over the fixed training opponents of the schedule picks
one:

* ``mean`` (the default): the mean sb/hand over them;
* ``worst-low``: the worst lower bound of the 95 % CI over them (the candidate whose weakest result is
  surest).

Ties go to the earlier candidate. A second selection on the same deals, seed and opponents (with another
criterion, say) reuses the rows of select.csv and plays only candidates it lacks. The validation seed
(default `VALIDATION_SEED`) must differ from the seed of the reported final tables (`TABLE_SEED`), so that
the table of the chosen player measures it on deals the choice never saw.

Written into the run's folder: ``select.csv`` (candidate, training hands, opponent, sb/hand, 95 % CI),
``select.json`` (the criterion, seed, deals, each candidate's score, the choice) and ``best.npz``, a copy
of the chosen file (the player "td:RUN/best"; `pokerlab train table RUN --player best` writes its table
to final-table-best.csv).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from pokerlab.arena.evidence import read_csv, write_csv
from pokerlab.errors import ConfigError
from pokerlab.programs.td.studies.ladder import rungs
from pokerlab.programs.td.studies.runs import TABLE_SEED, fixed_opponents, versus

#: The default validation seed: its deals differ from those of the final tables (seed `TABLE_SEED`).
VALIDATION_SEED = 7

SELECT_HEADER = ["candidate", "hands", "opponent", "sb_per_hand", "ci95_low", "ci95_high"]


def mean_result(rows: list[list]) -> float:
    """The mean sb/hand of (candidate, hands, opponent, sb/hand, low, high) rows."""
    return sum(r[3] for r in rows) / len(rows)


def worst_low(rows: list[list]) -> float:
    """The smallest lower CI bound of the rows."""
    return min(r[4] for r in rows)


CRITERIA: dict[str, Callable[[list[list]], float]] = {"mean": mean_result, "worst-low": worst_low}


def _earlier_rows(run: Path, deals: int, seed: int, opponents: list[str]) -> dict[tuple[str, str], list]:
    """(candidate, opponent) -> row of an earlier selection of `run` on the same deals, seed and opponents."""
    try:
        earlier = json.loads((run / "select.json").read_text())
        rows = read_csv(run / "select.csv")
    except (OSError, ValueError):
        return {}
    if [earlier.get(k) for k in ("deals", "seed", "opponents")] != [deals, seed, opponents]:
        return {}
    return {(r[0], r[2]): [r[0], int(r[1]), r[2], *map(float, r[3:])] for r in rows}


def select(
    run: str | Path,
    deals: int,
    seed: int = VALIDATION_SEED,
    opponents: list[str] | None = None,
    criterion: str = "mean",
    progress: Callable[[str], None] | None = None,
) -> dict:
    """Evaluate every candidate of `run` against `opponents` (default: the schedule's fixed opponents) on
    `deals` duplicate deals of `seed`, pick the best by `criterion` over the fixed opponents among them,
    write select.csv, select.json and best.npz; returns what select.json holds plus the rows."""
    run = Path(run)
    if criterion not in CRITERIA:
        raise ConfigError(f"unknown criterion {criterion!r}; choose one of {', '.join(CRITERIA)}")
    if not isinstance(deals, int) or deals < 1:
        raise ConfigError(f"selection deals must be an integer >= 1, got {deals!r}")
    if seed == TABLE_SEED:
        raise ConfigError(f"the validation seed must differ from the final tables' seed {TABLE_SEED}")
    candidates = [
        (hands, path.relative_to(run).with_suffix("").as_posix()) for hands, path in rungs(run, "a selection")
    ]
    fixed = fixed_opponents(run)
    opponents = list(dict.fromkeys(opponents or fixed))
    judged = [name for name in opponents if name in fixed]
    if not judged:
        raise ConfigError(f"none of the opponents {opponents} is a fixed opponent of the run ({fixed})")
    earlier = _earlier_rows(run, deals, seed, opponents)
    rows = []
    for hands, name in candidates:
        for opponent in opponents:
            if (name, opponent) in earlier and earlier[name, opponent][1] == hands:
                rows.append(earlier[name, opponent])
                continue
            _, r = versus(run / f"{name}.npz", fixed, opponent, deals, seed)
            low, high = r.ci95
            rows.append([name, hands, opponent, *(round(v, 6) for v in (r.sb_per_hand, low, high))])
            if progress:
                progress(f"{name} vs {opponent}: {r.sb_per_hand:+.3f} [{low:+.3f}, {high:+.3f}]")
    write_csv(run / "select.csv", SELECT_HEADER, rows)
    score = CRITERIA[criterion]
    scores = {
        name: round(score([r for r in rows if r[0] == name and r[2] in judged]), 6) for _, name in candidates
    }
    chosen = max(scores, key=scores.__getitem__)  # the first of equal scores: the earlier candidate
    shutil.copyfile(run / f"{chosen}.npz", run / "best.npz")
    result = {
        "criterion": criterion,
        "judged_on": judged,
        "opponents": opponents,
        "deals": deals,
        "seed": seed,
        "scores": scores,
        "chosen": chosen,
        "hands": {name: hands for hands, name in candidates}[chosen],
    }
    (run / "select.json").write_text(json.dumps(result, indent=1) + "\n")
    return {**result, "rows": rows}
