"""Billings et al. 1998 Fig 1 under several readings of the paper: runs the ablation (and the components
field) per reading and seed, keeps each pooled summary as JSON, and plots sb/hand with 95 % CIs.

Re-make docs/results/loki-fig1-fidelity/ (about 2 CPU-minutes per 1,000 deals and reading):

    .venv/bin/python examples/loki_fig1_fidelity.py --deals 1000 --seeds 1 2 \\
        --out docs/results/loki-fig1-fidelity

A summary already in the folder is read, not re-run (``--plot-only`` never runs anything).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from pokerlab.agents.loki1 import FIG1_READINGS  # noqa: E402
from pokerlab.experiments.loki import ABLATION, COMPONENTS, loki_ablation, loki_components  # noqa: E402

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


def plot(runs: dict[tuple[str, str, int], dict], field: str, path: Path) -> None:
    """Grouped bars: one group per player, one bar per (reading, seed), with 95 % CIs."""
    keys = sorted(k for k in runs if k[0] == field)
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
    print(f"{len(runs)} runs summarised in {args.out}/summary.csv and {', '.join(args.fields)} plots")


if __name__ == "__main__":
    main()
