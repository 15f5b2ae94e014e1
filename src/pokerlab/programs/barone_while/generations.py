"""How many generations each part of the hypercube reaches: the bookkeeping of Barone & While 2000 §3.3-4.2
counted on a run (docs/barone-while.md §8, §15).

A population reproduces when each of its 20 members has been used 25 times (§4.2), so its generations by
epoch e are its uses by then over 500; how a use is counted (``uses_rule``: once per hand for the
representative, or once per per-opponent consultation) decides whether the paper's Fig. 1 (positive at epoch
71) and Fig. 2 (an evolved tight-passive river controller) are reachable at all. `count` evolves a player at
the mixed table for `epochs` epochs and reports, per opponent segment and stage, the most, the mean and the
fewest generations over the stage's 12 cells; `extrapolate` scales them linearly to another epoch count
(marked as such wherever printed). `spread` records every reproduction of such a run: on how many hands
each member was credited in the generation (the representative's uses plus every hand in which it
suggested the played action, §7) and how far apart the members' fitnesses are (their standard deviation),
the noise model of docs/barone-while.md §14.

``python -m pokerlab.programs.barone_while.generations --epochs 71 --seed 0 --settings
uses_rule=per_consultation`` prints the table (``--to 1000`` adds the extrapolation).
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from pokerlab.programs.barone_while.agent import STARTS, EvolvingAgent
from pokerlab.programs.barone_while.config import EvolvingConfig, parse_settings
from pokerlab.programs.barone_while.epochs import play_epochs
from pokerlab.programs.barone_while.situation import STAGES

SEGMENTS = ("tight-passive", "loose-aggressive")


def by_stage(generation: np.ndarray, segments) -> dict:
    """{segment: {"max" | "mean" | "min": per stage}} from generations shaped (segments, stage, position,
    bets)."""
    out = {}
    for s, name in enumerate(segments):
        per_stage = np.asarray(generation[s]).reshape(len(STAGES), -1)
        out[str(name)] = {
            "max": [int(v) for v in per_stage.max(axis=1)],
            "mean": [round(float(v), 2) for v in per_stage.mean(axis=1)],
            "min": [int(v) for v in per_stage.min(axis=1)],
        }
    return out


def count(config: EvolvingConfig, epochs: int, seed: int, start: str = "random") -> dict:
    """Generations by the end of an evolution of `epochs` epochs at the mixed table (seed `seed`, initial
    candidates from `start`), per segment and stage; with the hands played."""
    player = EvolvingAgent(config, SEGMENTS, start, init_seed=seed)
    run = play_epochs(player, "mixed", epochs, seed)
    return {
        "epochs": epochs,
        "seed": seed,
        "start": start,
        "hands": run.hands,
        "seconds": run.seconds,
        "generations": by_stage(player.cube.state()["generation"], player.cube.segments),
    }


def spread(config: EvolvingConfig, epochs: int, seed: int, start: str = "random") -> dict:
    """Over every reproduction of an evolution like `count`'s: the mean number of hands a member was
    credited on in the generation, and the standard deviation of the members' fitnesses (chips), as
    median and 10th-90th percentiles, with the number of reproductions."""
    player = EvolvingAgent(config, SEGMENTS, start, init_seed=seed)
    cube, credited, sd = player.cube, [], []
    reproduce = cube.reproduce

    def recording(p: int, rng: np.random.Generator) -> None:
        fitness = cube.fitness(p)
        credited.append(float(cube.credit_count[p].mean()))
        if np.count_nonzero(~np.isnan(fitness)) > 1:
            sd.append(float(np.nanstd(fitness, ddof=1)))
        reproduce(p, rng)

    cube.reproduce = recording
    play_epochs(player, "mixed", epochs, seed)

    def quantiles(values: list[float]) -> list[float] | None:
        return [round(float(q), 2) for q in np.percentile(values, [10, 50, 90])] if values else None

    return {
        "epochs": epochs,
        "seed": seed,
        "start": start,
        "reproductions": len(credited),
        "credited_hands_per_member_p10_p50_p90": quantiles(credited),
        "fitness_sd_p10_p50_p90": quantiles(sd),
    }


def extrapolate(counted: dict, epochs: int) -> dict:
    """`counted`'s generations scaled linearly from its epochs to `epochs` (an estimate, not a run)."""
    factor = epochs / counted["epochs"]
    return {
        segment: {k: [round(v * factor, 1) for v in values] for k, values in stats.items()}
        for segment, stats in counted["generations"].items()
    }


def lines(counted: dict, to: int | None = None) -> list[str]:
    """The printed table of `count` (and its extrapolation to `to` epochs)."""
    out = [
        f"generations by epoch {counted['epochs']} (seed {counted['seed']}, start {counted['start']}, "
        f"{counted['hands']} hands); max / mean / min over each stage's 12 cells"
    ]
    tables = [(f"epoch {counted['epochs']}", counted["generations"])]
    if to:
        tables.append((f"epoch {to} EXTRAPOLATED linearly", extrapolate(counted, to)))
    for label, table in tables:
        for segment, stats in table.items():
            cells = "  ".join(
                f"{stage} {stats['max'][i]:g}/{stats['mean'][i]:g}/{stats['min'][i]:g}"
                for i, stage in enumerate(STAGES)
            )
            out.append(f"  {label:<32} {segment:<17} {cells}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=71)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", choices=STARTS, default="random")
    parser.add_argument("--settings", default="", help='EvolvingConfig settings, "name=value,..."')
    parser.add_argument("--to", type=int, default=None, help="also extrapolate to this many epochs")
    parser.add_argument("--spread", action="store_true", help="credited hands and fitness spread instead")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.epochs < 1:
        parser.error(f"--epochs must be a positive integer, got {args.epochs}")
    if args.spread:
        print(json.dumps(spread(parse_settings(args.settings), args.epochs, args.seed, args.start)))
        return 0
    counted = count(parse_settings(args.settings), args.epochs, args.seed, args.start)
    if args.json:
        print(json.dumps({**counted, "extrapolated": extrapolate(counted, args.to) if args.to else None}))
    else:
        print("\n".join(lines(counted, args.to)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
