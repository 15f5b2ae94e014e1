"""Loki-1's experiments: the ablation of Billings et al. 1998 Fig 1 and Loki-1 against a field of stereotypes.

* ``loki-ablation``: ten seats, two copies each of Fig 1's players A-E (`pokerlab.programs.loki1.VARIANTS`),
  a duplicate tournament (every deal replayed ten times, seat = (k * j) mod 11, Papp §8.1). The seed reports
  A best (about +0.08 sb/hand) and E worst (about -0.11).
* ``loki-components``: E (``loki1-basic``), E plus each of Fig 1's components alone (weighting, advanced
  pre-flop selection, hand potential) and A, two copies each: what each component is worth on its own.
* ``loki-vs-styles``: two Loki-1s against two each of Barone & While 2000's four stereotypes, duplicate.

The Loki-1 experiments take a ``reading`` of the paper's field (`pokerlab.programs.loki1.FIG1_READINGS`,
e.g. "betting-1998": generic modelling and Billings et al. 1998 §4.4's betting only), applied to every
player alike. By default they play `FIG1_READING`, our Loki-1 without the showdown-odds call: that rule's
formula is ours (Papp 1998 §6.6 was not retrievable), Billings et al. 1998 §4.4's Lokibot has no such call,
and with it player D, who cannot call on pot odds, calls on it instead and wins (docs/results/
loki-fig1-fidelity/). ``reading="ours"`` plays the complete Loki-1 of `VARIANTS`.

Results are pooled per player kind (the copies of one variant count together) and written to the results
folder beside the match's own files: pooled_summary.json and pooled_bankroll.png.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from pokerlab.arena import play_match
from pokerlab.arena.output import plot_bankroll
from pokerlab.arena.stats import AgentResult, pool_by_name, summarize
from pokerlab.engine import GameConfig
from pokerlab.programs.loki1 import VARIANTS, Loki1Agent, fig1_reading

#: Billings et al. 1998 Fig 1's players, in the paper's order A-E.
ABLATION = ("loki1", "loki1-uniform", "loki1-simple-preflop", "loki1-no-potential", "loki1-basic")
#: The reading the Fig 1 experiments play by default (see the module's docstring).
FIG1_READING = "no-showdown-odds"
#: E, E plus each Fig 1 component alone, and A.
COMPONENTS = ("loki1-basic", "loki1-weighting-only", "loki1-preflop-only", "loki1-potential-only", "loki1")
STYLES_FIELD = ("loki1", "loose-passive", "loose-aggressive", "tight-passive", "tight-aggressive")


@dataclass(frozen=True)
class PooledResult:
    """Results pooled per player kind; `to_json` has the schema of ``pokerlab match --json``."""

    hands: int
    deals: int
    seed: int
    results: list[AgentResult]
    out: Path | None

    def to_json(self) -> dict:
        return {
            "hands": self.hands,
            "deals": self.deals,
            "duplicate": True,
            "seed": self.seed,
            "results": [r.to_json() for r in self.results],
            "out": str(self.out) if self.out else None,
        }


def run_pooled(
    lineup: list,
    deals: int,
    seed: int = 0,
    *,
    config: GameConfig | None = None,
    workers: int = 1,
    out: str | Path | None = None,
    progress: bool = False,
    name: str | None = None,
    resume: bool = False,
) -> PooledResult:
    """A duplicate tournament of `lineup` (agent names or `Agent` instances, one per seat) with results
    pooled per name (an instance's ``name``).

    With ``out``, experiment.json (name, lineup, deals) lets `pool_match` rebuild the pooled files from the
    folder (``pokerlab summarize``); ``resume`` continues a killed run (see `pokerlab.arena.play_match`).
    """
    config = config or GameConfig()
    match = play_match(
        lineup,
        deals,
        config,
        seed,
        duplicate=True,
        workers=workers,
        out=out,
        progress=progress,
        resume=resume,
    )
    names = [a if isinstance(a, str) else a.name for a in lineup]
    if match.out:
        about = {"experiment": name, "lineup": names, "deals": deals}
        (match.out / "experiment.json").write_text(json.dumps(about, indent=2) + "\n")
    return pool_match(match, names, deals, name)


def pool_match(match, lineup: list[str], deals: int, name: str | None = None) -> PooledResult:
    """Pool a duplicate match's results per player kind; with a results folder, write pooled_summary.json
    and pooled_bankroll.png (each kind's bankroll as the mean per copy)."""
    config, seed = match.config, match.seed
    kinds, pooled, copies, first_seats = pool_by_name(lineup, match.nets)
    results = summarize(
        kinds,
        pooled,
        match.deal_of_hand,
        config.small_bet,
        config.big_blind,
        [sum(match.faults[j] for j, n in enumerate(lineup) if n == k) for k in kinds],
        copies,
    )
    results = [replace(r, seat=seat) for r, seat in zip(results, first_seats, strict=True)]
    result = PooledResult(match.hands, deals, seed, results, match.out)
    if match.out:
        summary = result.to_json()
        del summary["out"]  # the folder may move
        (match.out / "pooled_summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        per_copy = pooled / np.array(copies, dtype=np.float64)
        title = (
            f"{name or 'pooled'}: {deals:,} duplicate deals ({match.hands:,} hands), seed {seed}\n"
            f"mean per copy of each kind ({', '.join(f'{c} copies' for c in sorted(set(copies)))})"
        )
        plot_bankroll(
            per_copy,
            kinds,
            config.small_bet,
            match.out / "pooled_bankroll.png",
            match.deal_of_hand,
            title,
            ylabel="bankroll per copy (small bets)",
        )
    return result


def loki_field(names: tuple[str, ...], reading: str = "ours") -> list:
    """Two copies of each Loki-1 variant in `names`: the names themselves under our reading, else players
    under the reading (`fig1_reading`), named like the variants."""
    if reading == "ours":
        return [name for name in names for _ in range(2)]
    players = []
    for name in names:
        config = fig1_reading(VARIANTS[name], reading)
        for _ in range(2):
            players.append(Loki1Agent(config))
            players[-1].name = name
    return players


def _titled(title: str, reading: str) -> str:
    return f"{title}, reading {reading!r}"


def loki_ablation(deals: int = 10_000, seed: int = 0, reading: str = FIG1_READING, **options) -> PooledResult:
    """Billings et al. 1998, Fig 1: two copies each of players A-E at ten seats, duplicate."""
    options.setdefault("name", _titled("loki-ablation (Billings et al. 1998, Fig. 1)", reading))
    return run_pooled(loki_field(ABLATION, reading), deals, seed, **options)


def loki_components(
    deals: int = 2_000, seed: int = 0, reading: str = FIG1_READING, **options
) -> PooledResult:
    """E, E plus each of Fig 1's components alone, and A: two copies each at ten seats, duplicate."""
    options.setdefault("name", _titled("loki-components", reading))
    return run_pooled(loki_field(COMPONENTS, reading), deals, seed, **options)


def loki_vs_styles(deals: int = 2_000, seed: int = 0, **options) -> PooledResult:
    """Two Loki-1s against two each of the four stereotyped opponents (Barone & While 2000 §4.1),
    duplicate."""
    options.setdefault("name", "loki-vs-styles")
    return run_pooled([name for name in STYLES_FIELD for _ in range(2)], deals, seed, **options)


#: The experiments the CLI offers, by name.
EXPERIMENTS = {
    "loki-ablation": loki_ablation,
    "loki-components": loki_components,
    "loki-vs-styles": loki_vs_styles,
}
