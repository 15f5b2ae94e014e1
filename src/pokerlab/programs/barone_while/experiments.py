"""Barone & While 2000's three experiments with the evolving hypercube player (docs/barone-while.md §11).

* ``bw-1`` (§4.2): every candidate random, 1,000 epochs at the mixed table (3 tight-passive, 6
  loose-aggressive); Fig. 1 and the targets E1a-E1d per run.
* ``bw-2`` (§4.3): every population starts as player A, 1,000 epochs at the mixed table; A^tight and A^loose
  are the populations evolved against the tight-passive and the loose-aggressive players; Figs. 2-3 (their
  post-river average candidates), the controller properties and the share of post-river decisions the two
  play differently.
* ``bw-3`` (§4.4): A, A^tight and A^loose, frozen, each play the tight table (9 tight-passive) and the loose
  table (9 loose-aggressive) on the same cards; Table 2 with Welch's and the paired t-tests of the paper's
  four inequalities, and "every player wins more at the loose table".

Every run writes its files to ``out`` (summary.json, epochs.json, PNGs, the evolved players as .npz). Runs
(independent seeds ``seed``, ``seed + 1``, ...) are spread over ``workers`` processes or a Ray cluster
(`pokerlab.arena.backend`).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pokerlab.arena.backend import Backend, farm
from pokerlab.arena.significance import paired_test, welch_test
from pokerlab.arena.stats import half_width95
from pokerlab.errors import ConfigError
from pokerlab.modeling.style import style_counts
from pokerlab.programs.barone_while.agent import EvolvingAgent
from pokerlab.programs.barone_while.candidate import probabilities
from pokerlab.programs.barone_while.config import EvolvingConfig
from pokerlab.programs.barone_while.epochs import TABLES, EpochRun, play_epochs
from pokerlab.programs.barone_while.hypercube import Hypercube
from pokerlab.programs.barone_while.plots import moving_average, plot_controller, plot_epochs, plot_table2

SEGMENTS = ("tight-passive", "loose-aggressive")
PLAYERS = ("A^tight", "A", "A^loose")  # the order of the paper's Table 2
#: Table 2 of Barone & While 2000 (units per epoch, stakes unstated).
PAPER_TABLE2 = {
    "tight": {"A^tight": 1978, "A": -528, "A^loose": -361},
    "loose": {"A^tight": 4222, "A": 5294, "A^loose": 6119},
}
MOVING_WINDOW = 20


@dataclass
class BWResult:
    """What an experiment found: a JSON-ready summary, the lines to print, and where its files are."""

    name: str
    seed: int
    epochs: int
    summary: dict
    lines: list[str] = field(default_factory=list)
    out: Path | None = None

    def to_json(self) -> dict:
        return {
            "experiment": self.name,
            "seed": self.seed,
            "epochs": self.epochs,
            **self.summary,
            "out": str(self.out) if self.out else None,
        }


# -- jobs (one evolution or one measurement; run here or in a worker process) ----------------------------


def _player(job: dict) -> EvolvingAgent:
    config = job.get("config") or EvolvingConfig()
    if job.get("state") is not None:
        segments = tuple(str(s) for s in job["state"]["segments"])
        player = EvolvingAgent(config, segments)
        player.load_learned_state(job["state"])
    else:
        player = EvolvingAgent(config, job.get("segments", SEGMENTS), job["start"], init_seed=job["seed"])
    player.freeze(job.get("frozen", False))
    return player


def _run_job(job: dict) -> tuple[EpochRun, dict]:
    player = _player(job)
    run = play_epochs(
        player, job["table"], job["epochs"], job["seed"], progress=job["progress"], label=job["label"]
    )
    return run, player.learned_state()


def _run_jobs(jobs: list[dict], workers: int | Backend) -> list[tuple[EpochRun, dict]]:
    done: list = [None] * len(jobs)
    for index, result in farm(_run_job, [(job,) for job in jobs], workers):
        done[index] = result
    return done


def _out(out) -> Path | None:
    if out is None:
        return None
    path = Path(out)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot create the results folder {str(path)!r}: {exc.strerror}") from None
    return path


def _save(player_state: dict, path: Path, config: EvolvingConfig | None = None) -> Path:
    player = EvolvingAgent(config, tuple(str(s) for s in player_state["segments"]))
    player.load_learned_state(player_state)
    return player.save(path)


def _write(out: Path | None, result: BWResult, runs: list[EpochRun]) -> None:
    if out is None:
        return
    (out / "summary.json").write_text(json.dumps(result.to_json(), indent=2) + "\n")
    (out / "epochs.json").write_text(json.dumps([r.to_json() for r in runs]) + "\n")


def _scaled(epochs: int, first: int, last: int) -> tuple[int, int]:
    """Epochs first..last of a 1,000-epoch run (1-based), scaled to a run of `epochs`."""
    lo = max(1, round(first * epochs / 1000))
    return lo, max(lo, round(last * epochs / 1000))


# -- experiment 1 ---------------------------------------------------------------------------------------


def e1_targets(w: np.ndarray) -> dict:
    """E1a-E1d of docs/barone-while.md §11 on one run's W per epoch (epoch windows scaled to the run's
    length)."""
    epochs = len(w)
    a_lo, a_hi = 1, min(20, epochs)
    early_lo, early_hi = _scaled(epochs, 101, 300)
    late_lo, late_hi = _scaled(epochs, 801, 1000)
    ma = moving_average(w, MOVING_WINDOW)
    full = min(MOVING_WINDOW, epochs) - 1  # a moving average over fewer epochs is one lucky epoch away
    above = np.flatnonzero(ma[full:] > 0)
    first = int(above[0]) + full + 1 if len(above) else None
    late = w[late_lo - 1 : late_hi]
    half = half_width95(late, default=float("inf"))
    losing_early = int((w[early_lo - 1 : early_hi] < 0).sum())
    losing_late = int((late < 0).sum())
    limit = _scaled(epochs, 300, 300)[0]
    return {
        "E1a": {"epochs": [a_lo, a_hi], "mean_w": float(w[:a_hi].mean()), "pass": bool(w[:a_hi].mean() < 0)},
        "E1b": {
            "first_epoch_ma_above_0": first,
            "before_epoch": limit,
            "pass": first is not None and first < limit,
        },
        "E1c": {
            "epochs": [late_lo, late_hi],
            "mean_w": float(late.mean()),
            "ci95": [float(late.mean() - half), float(late.mean() + half)],
            "pass": bool(late.mean() - half > 0),
        },
        "E1d": {
            "losing_epochs": {f"{early_lo}-{early_hi}": losing_early, f"{late_lo}-{late_hi}": losing_late},
            "pass": losing_late < losing_early,
        },
    }


def config_note(config: EvolvingConfig | None) -> str:
    """The settings that differ from the default `EvolvingConfig`, for a plot's title ("" for none): two
    runs with other settings never share a title."""
    if config is None:
        return ""
    default = EvolvingConfig()
    changed = [
        f"{f.name}={getattr(config, f.name)}"
        for f in dataclasses.fields(config)
        if getattr(config, f.name) != getattr(default, f.name)
    ]
    return f"\n{', '.join(changed)}" if changed else ""


def bw_1(
    epochs: int = 1000,
    seed: int = 0,
    *,
    runs: int = 5,
    workers: int = 1,
    out=None,
    progress: bool = False,
    config: EvolvingConfig | None = None,
) -> BWResult:
    """Experiment 1 (Barone & While 2000 §4.2): learning from random candidates at the mixed table."""
    out = _out(out)
    runs_out, states = _evolve("random", "bw-1", epochs, seed, runs, workers, progress, config)
    targets = [e1_targets(run.player) for run in runs_out]
    passes = {k: sum(t[k]["pass"] for t in targets) for k in ("E1a", "E1b", "E1c", "E1d")}
    summary = {
        "runs": [
            {
                "seed": run.seed,
                "hands": run.hands,
                "seconds": run.seconds,
                **t,
                "generations": generations_by_stage(state),
            }
            for run, t, state in zip(runs_out, targets, states, strict=True)
        ],
        "passes": passes,
        "paper": {"first_positive_epoch": 71},
    }
    lines = [f"bw-1: {runs} run(s) of {epochs} epochs at the mixed table, seeds {seed}..{seed + runs - 1}"]
    for run, t in zip(runs_out, targets, strict=True):
        first = t["E1b"]["first_epoch_ma_above_0"]
        lines.append(
            f"seed {run.seed}: E1a mean W(1-20) {t['E1a']['mean_w']:+.0f}; "
            f"E1b {'MA never > 0' if first is None else f'MA>0 at epoch {first}'}; "
            f"E1c mean W{t['E1c']['epochs']} {t['E1c']['mean_w']:+.0f} "
            f"CI [{t['E1c']['ci95'][0]:+.0f}, {t['E1c']['ci95'][1]:+.0f}]; "
            f"E1d losing epochs {t['E1d']['losing_epochs']}; {run.hands / run.seconds:.0f} hands/s"
        )
    lines.append(
        "passes: "
        + ", ".join(f"{k} {v}/{runs}" for k, v in passes.items())
        + " (paper: first positive at epoch 71)"
    )
    result = BWResult("bw-1", seed, epochs, summary, lines, out)
    if out:
        plot_epochs(
            runs_out,
            out / "fig1.png",
            f"bw-1: random start at the mixed table (Barone & While 2000 Fig. 1), "
            f"{epochs:,} epochs, seeds {seed}..{seed + runs - 1}{config_note(config)}",
        )
        for run, state in zip(runs_out, states, strict=True):
            _save(state, out / f"player-seed{run.seed}.npz", config)
    _write(out, result, runs_out)
    return result


# -- experiment 2 ---------------------------------------------------------------------------------------


def controller_properties(state: dict, config: EvolvingConfig | None = None) -> dict:
    """The published observations on A^tight and A^loose (Barone & While 2000 §4.3), measured on the
    post-river average candidates, probabilities averaged over x uniform on [0, 1]."""
    cube = Hypercube.from_state(state, config or EvolvingConfig())
    average = cube.average()
    xs = np.linspace(0, 1, 101)

    def mean_probs(segment: str, position: int, bets: int, upto: float = 1.0) -> np.ndarray:
        p = cube.index(cube.segments.index(segment), 3, position, bets)
        return probabilities(average[p], xs[xs <= upto]).mean(axis=0)

    def continuing(segment: str, bets: int) -> float:
        return float(np.mean([1 - mean_probs(segment, pos, bets)[0] for pos in range(3)]))

    tight, loose = SEGMENTS
    cont_tight = [continuing(tight, b) for b in range(1, 4)]
    raise_free = {pos: float(mean_probs(tight, pos, 0)[2]) for pos in range(3)}
    cont_loose = [continuing(loose, b) for b in range(1, 4)]
    bluff = {s: float(np.mean([mean_probs(s, pos, 0, 0.5)[2] for pos in range(3)])) for s in SEGMENTS}
    return {
        "A^tight continues less as bets to call rise (1, 2, 3)": {
            "values": cont_tight,
            "pass": bool(cont_tight[0] > cont_tight[2]),
        },
        "A^tight raises more late than early with 0 to call": {
            "values": [raise_free[0], raise_free[2]],
            "pass": bool(raise_free[2] > raise_free[0]),
        },
        "A^loose continues more than A^tight facing bets": {
            "values": [float(np.mean(cont_loose)), float(np.mean(cont_tight))],
            "pass": bool(np.mean(cont_loose) > np.mean(cont_tight)),
        },
        "A^loose bluffs less than A^tight (raise with 0 to call, x < 0.5)": {
            "values": [bluff[loose], bluff[tight]],
            "pass": bool(bluff[loose] < bluff[tight]),
        },
    }


def generations_by_stage(state: dict) -> dict:
    """Reproductions so far per opponent segment and stage (max and mean over the 12 cells): how far each
    part of the hypercube has evolved."""
    generation = np.asarray(state["generation"])  # segments x stage x position x bets
    return {
        str(name): {
            "max": [int(v) for v in generation[s].reshape(4, -1).max(axis=1)],
            "mean": [round(float(v), 2) for v in generation[s].reshape(4, -1).mean(axis=1)],
        }
        for s, name in enumerate(state["segments"])
    }


def preflop_rates(state: dict, epochs: int, seed: int, config: EvolvingConfig | None = None) -> dict:
    """VPIP (share of hands with a pre-flop decision in which the player put chips in voluntarily) and PFR
    (share in which it raised pre-flop) of a frozen player at the mixed table (docs/barone-while.md §10's
    acceptance of player A: VPIP 12-30 %, PFR at least half of VPIP)."""
    player = _player({"state": state, "frozen": True, "config": config})
    player.situations = []
    play_epochs(player, "mixed", epochs, seed)
    counts = style_counts((s[0], s[1], s[5], s[6]) for s in player.situations)  # hand, round, to call, action
    vpip, pfr = counts.vpip_share, counts.pfr_share
    return {
        "hands": counts.hands,
        "vpip": vpip,
        "pfr": pfr,
        "pass": bool(0.12 <= vpip <= 0.30 and pfr >= vpip / 2),
    }


def different_actions(state: dict, hands: int, seed: int, config: EvolvingConfig | None = None) -> dict:
    """The share of post-river decisions where A^tight's and A^loose's average candidates disagree on the
    most probable action, over `hands` fresh mixed-table hands played by the evolved player, frozen
    (docs/barone-while.md §11, our metric for the paper's "over 15 %")."""
    player = _player({"state": state, "frozen": True, "config": config})
    player.situations = []
    play_epochs(player, "mixed", max(1, hands // 100), seed)
    cube, average = player.cube, player.cube.average()
    river = [s[1:5] for s in player.situations if s[1] == 3]
    differ = 0
    for stage, position, bets, x in river:
        pair = [
            probabilities(average[cube.index(cube.segments.index(s), stage, position, bets)], x).argmax()
            for s in SEGMENTS
        ]
        differ += int(pair[0] != pair[1])
    return {
        "post_river_decisions": len(river),
        "different": differ,
        "share": differ / len(river) if river else 0.0,
        "target": 0.10,
        "paper": "over 15 % of hands",
    }


def bw_2(
    epochs: int = 1000,
    seed: int = 0,
    *,
    runs: int = 1,
    workers: int = 1,
    out=None,
    progress: bool = False,
    config: EvolvingConfig | None = None,
    metric_hands: int = 10_000,
) -> BWResult:
    """Experiment 2 (Barone & While 2000 §4.3): player A adapts at the mixed table."""
    out = _out(out)
    runs_out, states = _evolve("player_a", "evolve A", epochs, seed, runs, workers, progress, config)
    a_rates = preflop_rates(
        EvolvingAgent(config, SEGMENTS, "player_a").learned_state(), 30, seed + 20_000, config
    )
    summary = {"runs": [], "player_a_preflop": a_rates}
    lines = [
        f"bw-2: {runs} evolution(s) of player A, {epochs} epochs at the mixed table",
        f"player A before evolution, 3,000 mixed-table hands: VPIP {a_rates['vpip']:.1%}, "
        f"PFR {a_rates['pfr']:.1%} "
        f"({'ok' if a_rates['pass'] else 'FAIL'}: target VPIP 12-30 %, PFR >= VPIP / 2)",
    ]
    for run, state in zip(runs_out, states, strict=True):
        props = controller_properties(state, config)
        generations = generations_by_stage(state)
        metric = different_actions(state, metric_hands, seed + 10_000 + run.seed, config)
        summary["runs"].append(
            {
                "seed": run.seed,
                "hands": run.hands,
                "seconds": run.seconds,
                "mean_w": float(run.player.mean()),
                "properties": props,
                "different_actions": metric,
                "generations": generations,
            }
        )
        lines.append(
            f"seed {run.seed}: mean W {run.player.mean():+.0f} per epoch; post-river decisions played "
            f"differently by A^tight and A^loose: {metric['share']:.1%} of {metric['post_river_decisions']} "
            "(target >= 10 %, paper > 15 %)"
        )
        lines += [
            f"  generations against {g} (max per stage, pre-flop..river): {generations[g]['max']}"
            for g in SEGMENTS
        ]
        lines += [
            f"  {'ok  ' if v['pass'] else 'FAIL'} {k}: {', '.join(f'{x:.3f}' for x in v['values'])}"
            for k, v in props.items()
        ]
        if out:
            player_file = _save(state, out / f"evolved-A-seed{run.seed}.npz", config)
            cube = _player({"state": state, "config": config}).cube
            for segment, name, fig in ((SEGMENTS[0], "A^tight", 2), (SEGMENTS[1], "A^loose", 3)):
                plot_controller(
                    cube,
                    segment,
                    out / f"fig{fig}-{name.replace('^', '-')}-seed{run.seed}.png",
                    f"bw-2 {name} (Barone & While 2000 Fig. {fig}), seed {run.seed}, {epochs} epochs",
                )
            summary["runs"][-1]["player_file"] = player_file.name
    result = BWResult("bw-2", seed, epochs, summary, lines, out)
    if out:
        plot_epochs(
            runs_out,
            out / "epochs.png",
            f"bw-2: player A evolving at the mixed table, {epochs} epochs{config_note(config)}",
        )
    _write(out, result, runs_out)
    return result


def _evolve(
    start: str, label: str, epochs, seed, runs, workers, progress, config
) -> tuple[list[EpochRun], list[dict]]:
    """`runs` evolutions from `start` ("random" or "player_a") at the mixed table (seeds seed, seed + 1,
    ...): runs and final states."""
    jobs = [
        {
            "start": start,
            "seed": seed + r,
            "table": "mixed",
            "epochs": epochs,
            "progress": progress,
            "label": f"{label} seed {seed + r}",
            "config": config,
        }
        for r in range(runs)
    ]
    done = _run_jobs(jobs, workers)
    return [run for run, _ in done], [state for _, state in done]


# -- experiment 3 ---------------------------------------------------------------------------------------


def _segment_state(state: dict, segment: str, config: EvolvingConfig | None) -> dict:
    cube = _player({"state": state, "config": config}).cube.segment(segment)
    return cube.state()


def bw_3(
    epochs: int = 1000,
    seed: int = 0,
    *,
    runs: int = 3,
    workers: int = 1,
    out=None,
    progress: bool = False,
    config: EvolvingConfig | None = None,
    players=None,
    evolve_epochs: int | None = None,
) -> BWResult:
    """Experiment 3 (Barone & While 2000 §4.4): A, A^tight and A^loose, frozen, at the tight and the loose
    tables on the same cards. ``players`` names evolved-A files (from bw-2); otherwise each of `runs`
    evolutions of experiment 2 (``evolve_epochs``, default `epochs`) is played first."""
    out = _out(out)
    if players:
        states = []
        for path in players:
            agent = EvolvingAgent.from_file(path, config)
            states.append(agent.learned_state())
        seeds = [seed + r for r in range(len(states))]
    else:
        evolved, states = _evolve(
            "player_a", "evolve A", evolve_epochs or epochs, seed, runs, workers, progress, config
        )
        seeds = [run.seed for run in evolved]
    jobs, keys = [], []
    a_state = EvolvingAgent(config, ("any",), "player_a").learned_state()
    for r, state in enumerate(states):
        who = {
            "A^tight": _segment_state(state, SEGMENTS[0], config),
            "A": a_state,
            "A^loose": _segment_state(state, SEGMENTS[1], config),
        }
        for table in ("tight", "loose"):
            for name in PLAYERS:  # the same seed: the three players meet the same cards and seats
                jobs.append(
                    {
                        "state": who[name],
                        "frozen": True,
                        "seed": seed + 1000 + r,
                        "table": table,
                        "epochs": epochs,
                        "progress": progress,
                        "label": f"{name} at {table} (run {r})",
                        "config": config,
                    }
                )
                keys.append((r, table, name))
    done = _run_jobs(jobs, workers)
    w = {key: run.player for key, (run, _) in zip(keys, done, strict=True)}
    summary = {"runs": [], "paper_table2": PAPER_TABLE2}
    lines = [
        f"bw-3: {len(states)} evolved player(s), each of A^tight, A, A^loose frozen for {epochs} epochs "
        "per table (same cards)"
    ]
    inequalities = (
        ("tight", "A^tight", "A"),
        ("loose", "A^loose", "A"),
        ("tight", "A^tight", "A^loose"),
        ("loose", "A^loose", "A^tight"),
    )
    for r in range(len(states)):
        tables = ("tight", "loose")
        means = {t: {p: float(w[(r, t, p)].mean()) for p in PLAYERS} for t in tables}
        errors = {t: {p: half_width95(w[(r, t, p)], default=0.0) for p in PLAYERS} for t in tables}
        tests = []
        for table, better, worse in inequalities:
            welch = welch_test(w[(r, table, better)], w[(r, table, worse)])
            paired = paired_test(w[(r, table, better)], w[(r, table, worse)])
            tests.append(
                {
                    "claim": f"W_{table}({better}) > W_{table}({worse})",
                    "welch": welch.to_json(),
                    "paired": paired.to_json(),
                    "pass": bool(welch.p_greater < 0.05 and welch.difference > 0),
                }
            )
        loose_more = {p: welch_test(w[(r, "loose", p)], w[(r, "tight", p)]).to_json() for p in PLAYERS}
        summary["runs"].append(
            {
                "seed": seeds[r],
                "table2": means,
                "ci95_half": errors,
                "inequalities": tests,
                "loose_table_more": loose_more,
            }
        )
        lines.append(f"evolution seed {seeds[r]}: mean W per epoch (paper's Table 2 in brackets)")
        for t in ("tight", "loose"):
            lines.append(
                f"  {t:<6}"
                + "".join(
                    f"  {p} {means[t][p]:+7.0f} ±{errors[t][p]:.0f} ({PAPER_TABLE2[t][p]:+d})"
                    for p in PLAYERS
                )
            )
        for test in tests:
            lines.append(
                f"  {'ok  ' if test['pass'] else 'FAIL'} {test['claim']}: "
                f"diff {test['welch']['difference']:+.0f}, Welch p {test['welch']['p_greater']:.3g}, "
                f"paired p {test['paired']['p_greater']:.3g}"
            )
        lines.append(
            "  loose > tight: "
            + ", ".join(
                f"{p} {'ok' if v['difference'] > 0 and v['p_greater'] < 0.05 else 'FAIL'}"
                for p, v in loose_more.items()
            )
        )
        if out:
            plot_table2(
                means,
                errors,
                out / f"table2-run{r}.png",
                f"bw-3 Table 2, evolution seed {seeds[r]}, {epochs} epochs per player and table",
            )
    result = BWResult("bw-3", seed, epochs, summary, lines, out)
    _write(out, result, [run for run, _ in done])
    return result


#: The experiments the CLI offers, by name.
BW_EXPERIMENTS = {"bw-1": bw_1, "bw-2": bw_2, "bw-3": bw_3}
__all__ = ["BW_EXPERIMENTS", "TABLES", "BWResult", "bw_1", "bw_2", "bw_3"]
