"""Loki-2's experiments in Peña 1999's design (ch. 4-5, node37): each tournament seats 8
copies of a control and 2 of a variant at ten seats and plays duplicate deals (every deal replayed ten times,
seat = (k * j) mod 11, Papp 1998 §8.1), so that a variant's result is its win rate in a field of controls.

The match-ups (`MATCHUPS`), with what the sources report:

* ``betting``, ``reweighting``, ``triples``: B, R and B+R against Loki-1 (each wins on its own, nearly
  additively; the figures themselves are images our copy of the thesis lacks);
* ``simulation``: B+R+simulation against B+R (simulation "significantly outperformed" the static betting);
* ``sim-call``: the always-call simulation against Loki-1 (+0.057 sb/hand, Peña node46).

Each match-up runs in its own folder under ``out`` (`run_pooled`: per-hand files, pooled summary and
bankroll plot); ``loki2_summary.json`` / ``.csv`` and ``loki2.png`` (each variant's sb/hand with its 95 %
CI) sum them up.
"""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

from pokerlab.arena.stats import AgentResult
from pokerlab.errors import ConfigError
from pokerlab.programs.loki1.experiments import PooledResult, run_pooled

#: match-up name -> (variant, control), Peña 1999 ch. 4-5.
MATCHUPS: dict[str, tuple[str, str]] = {
    "betting": ("loki2-betting", "loki1"),
    "reweighting": ("loki2-reweighting", "loki1"),
    "triples": ("loki2-triples", "loki1"),
    "simulation": ("loki2", "loki2-triples"),
    "sim-call": ("loki2-sim-call", "loki1"),
}
#: What the sources report for a match-up's variant, sb/hand (None: not recovered).
REPORTED = {"sim-call": 0.057}


def peña_lineup(variant: str, control: str) -> list[str]:
    """Two copies of the variant among eight of the control, ten seats (Peña 1999 node37)."""
    return [variant] + [control] * 4 + [variant] + [control] * 4


def parse_matchups(only: str | None) -> list[str]:
    """The match-ups named in a comma-separated list (all when None); `ConfigError` names the known ones."""
    if only is None:
        return list(MATCHUPS)
    names = [n.strip() for n in only.split(",") if n.strip()]
    unknown = [n for n in names if n not in MATCHUPS]
    if unknown or not names:
        raise ConfigError(f"unknown loki2 match-up(s) {unknown or only!r}; known: {', '.join(MATCHUPS)}")
    return names


def loki2_experiment(
    deals: int = 2_500, seed: int = 0, *, only: str | None = None, out: str | Path | None = None, **options
) -> PooledResult:
    """Peña 1999's tournaments (8 controls + 2 variants, duplicate) for the chosen match-ups; the results
    are each variant's, named "variant vs control"."""
    chosen = parse_matchups(only)
    out = Path(out) if out is not None else None
    rows, hands = [], 0
    for name in chosen:
        variant, control = MATCHUPS[name]
        folder = out / name if out is not None else None
        pooled = run_pooled(
            peña_lineup(variant, control), deals, seed, out=folder, name=f"loki2 {name}", **options
        )
        hands += pooled.hands
        result = next(r for r in pooled.results if r.agent == variant)
        rows.append((name, control, replace(result, agent=f"{variant} vs {control}")))
    result = PooledResult(hands, deals, seed, [r for _, _, r in rows], out)
    if out is not None:
        write_summary(out, rows, deals, seed)
    return result


def write_summary(out: Path, rows: list[tuple[str, str, AgentResult]], deals: int, seed: int) -> None:
    """loki2_summary.json / .csv and loki2.png: each variant's sb/hand in its field, with 95 % CIs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = [
        {
            "matchup": name,
            "variant": r.agent.split(" vs ")[0],
            "control": control,
            "hands": r.hands,
            "sb_per_hand": r.sb_per_hand,
            "ci95_low": r.ci95[0],
            "ci95_high": r.ci95[1],
            "reported_sb_per_hand": REPORTED.get(name),
        }
        for name, control, r in rows
    ]
    summary = {"deals": deals, "seed": seed, "design": "8 controls + 2 variants, duplicate", "rows": table}
    (out / "loki2_summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    with (out / "loki2_summary.csv").open("w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows(table)
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(table) + 1.6))
    y = range(len(table))
    values = [row["sb_per_hand"] for row in table]
    errors = [
        [v - row["ci95_low"] for v, row in zip(values, table, strict=True)],
        [row["ci95_high"] - v for v, row in zip(values, table, strict=True)],
    ]
    ax.errorbar(values, list(y), xerr=errors, fmt="o", capsize=4, label="ours, 95 % CI")
    reported = [
        (row["reported_sb_per_hand"], i) for i, row in enumerate(table) if row["reported_sb_per_hand"]
    ]
    if reported:
        ax.plot(*zip(*reported, strict=True), "x", color="red", label="reported (Peña 1999)")
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(list(y), [f"{row['variant']}\nvs 8 {row['control']}" for row in table])
    ax.invert_yaxis()
    ax.set_xlabel("variant's win rate (small bets per hand)")
    ax.set_title(f"Loki-2, Peña's design: {deals:,} duplicate deals per match-up, seed {seed}")
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "loki2.png", dpi=110)
    plt.close(fig)
