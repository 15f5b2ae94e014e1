"""Billings et al. 1998 Fig 1 under several readings of the paper: runs the ablation (and the components
field) per reading and seed, keeps each pooled summary as JSON, and plots sb/hand with 95 % CIs.

Re-make docs/results/loki-fig1-fidelity/ (about 2 CPU-minutes per 1,000 deals and reading):

    .venv/bin/python -m pokerlab.programs.loki1.fig1_fidelity --deals 1000 --seeds 1 2 \\
        --out docs/results/loki-fig1-fidelity

A summary already in the folder is read, not re-run (``--plot-only`` never runs anything). ``--rules D``
also counts, over D duplicate deals in this process, which post-flop rule decides each Fig 1 player's
actions under each reading (rules-<reading>-s<seed>.txt).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from pokerlab.arena.match import play_match  # noqa: E402
from pokerlab.programs.loki1 import FIG1_READINGS, VARIANTS, Loki1Agent, fig1_reading  # noqa: E402
from pokerlab.programs.loki1.experiments import (  # noqa: E402
    ABLATION,
    COMPONENTS,
    loki_ablation,
    loki_components,
)

FIELDS = {"ablation": (loki_ablation, ABLATION), "components": (loki_components, COMPONENTS)}
LETTERS = dict(zip(ABLATION, "ABCDE", strict=True))


def summary(out: Path, field: str, reading: str, seed: int, deals: int, plot_only: bool) -> dict | None:
    """The pooled summary of one run: read from `out`, else played (and written) unless `plot_only`."""
    path = out / f"{field}-{reading}-s{seed}.json"
    if path.exists():
        return json.loads(path.read_text())
    if plot_only:
        return None
    print(f"playing {field}, reading {reading}, seed {seed}, {deals} deals ...", flush=True)
    result = FIELDS[field][0](deals=deals, seed=seed, reading=reading, progress=True).to_json()
    del result["out"]
    path.write_text(json.dumps(result, indent=2) + "\n")
    return result


#: Post-flop decisions per player name and rule, gathered from the players of `rule_shares` (in-process).
DECIDED: dict[str, Counter] = {}


class RuleCounter(Loki1Agent):
    """A Loki-1 that counts which post-flop rule decided each of its actions (into `DECIDED`)."""

    def _postflop(self, view, hand):
        action = super()._postflop(view, hand)
        DECIDED.setdefault(self.name, Counter())[self.last_rule] += 1
        return action


def rule_shares(reading: str, deals: int, seed: int) -> str:
    """A table of the share of each player's post-flop decisions taken by each rule, under a reading."""
    DECIDED.clear()
    players = []
    for name in ABLATION:
        for _ in range(2):
            players.append(RuleCounter(fig1_reading(VARIANTS[name], reading)))
            players[-1].name = name
    play_match(players, deals, seed=seed, duplicate=True)
    rules = sorted({rule for counts in DECIDED.values() for rule in counts})
    lines = [f"reading {reading}, {deals} duplicate deals, seed {seed}: share of post-flop decisions by rule"]
    lines.append(f"{'player':<22}" + "".join(f"{r:>16}" for r in rules) + f"{'decisions':>10}")
    for name in ABLATION:
        counts = DECIDED[name]
        total = sum(counts.values())
        lines.append(f"{name:<22}" + "".join(f"{counts[r] / total:>16.3f}" for r in rules) + f"{total:>10}")
    return "\n".join(lines) + "\n"


def plot(runs: dict[tuple[str, str, int], dict], field: str, path: Path) -> None:
    """Grouped bars: one group per player, one bar per (reading, seed), with 95 % CIs."""
    order = list(FIG1_READINGS)
    keys = sorted((k for k in runs if k[0] == field), key=lambda k: (order.index(k[1]), k[2]))
    if not keys:
        return
    players = FIELDS[field][1]
    width = 0.8 / len(keys)
    fig, ax = plt.subplots(figsize=(10, 4.8))
    for i, key in enumerate(keys):
        by_agent = {r["agent"]: r for r in runs[key]["results"]}
        xs = [j + (i - (len(keys) - 1) / 2) * width for j in range(len(players))]
        means = [by_agent[p]["sb_per_hand"] for p in players]
        errors = [[m - by_agent[p]["ci95"][0] for p, m in zip(players, means, strict=True)]]
        errors.append([by_agent[p]["ci95"][1] - m for p, m in zip(players, means, strict=True)])
        deals = runs[key]["deals"]
        ax.bar(xs, means, width, yerr=errors, capsize=2, label=f"{key[1]}, seed {key[2]} ({deals:,} deals)")
    names = [f"{LETTERS[p]} {p}" if p in LETTERS else p for p in players]
    ax.set_xticks(range(len(players)), names, rotation=12)
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_ylabel("small bets per hand (95 % CI)")
    ax.set_title(f"Loki-1 {field} under readings of Billings et al. 1998 (duplicate, 10 seats)")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--readings", nargs="+", default=list(FIG1_READINGS), choices=list(FIG1_READINGS))
    parser.add_argument("--fields", nargs="+", default=["ablation"], choices=list(FIELDS))
    parser.add_argument("--out", type=Path, default=Path("docs/results/loki-fig1-fidelity"))
    parser.add_argument("--plot-only", action="store_true", help="plot the summaries in --out, run nothing")
    parser.add_argument(
        "--rules", type=int, default=0, metavar="D", help="count the deciding rules over D deals"
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    runs = {}
    for field in args.fields:
        for reading in args.readings:
            for seed in args.seeds:
                result = summary(args.out, field, reading, seed, args.deals, args.plot_only)
                if result is not None:
                    runs[(field, reading, seed)] = result
    rows = ["field,reading,seed,deals,agent,sb_per_hand,ci_low,ci_high"]
    for (field, reading, seed), result in sorted(runs.items()):
        for r in result["results"]:
            rows.append(
                f"{field},{reading},{seed},{result['deals']},{r['agent']},{r['sb_per_hand']:.4f},"
                f"{r['ci95'][0]:.4f},{r['ci95'][1]:.4f}"
            )
    (args.out / "summary.csv").write_text("\n".join(rows) + "\n")
    for field in args.fields:
        plot(runs, field, args.out / f"{field}.png")
    for reading in args.readings if args.rules else ():
        for seed in args.seeds:
            table = rule_shares(reading, args.rules, seed)
            (args.out / f"rules-{reading}-s{seed}.txt").write_text(table)
            print(table)
    print(f"{len(runs)} runs summarised in {args.out}/summary.csv and {', '.join(args.fields)} plots")


if __name__ == "__main__":
    main()
