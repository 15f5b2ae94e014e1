"""The ceiling of Barone & While's candidate family at our tables (docs/barone-while.md §14).

Experiment 1 does not learn (docs/evolving.md). Is that the learning, or is there
no winning candidate to find? This script measures fixed hypercubes, frozen, at the mixed, tight and loose
tables of docs/barone-while.md §9 on common random numbers (every candidate meets the same cards and seats
for a given seed, `pokerlab.programs.barone_while.epochs.play_epochs`):

* ``candidates``: hand-designed hypercubes (player A, fold everything, call everything, "tight value"
  threshold players on the x = x1^n scale and on the x1 scale) and, as a reference outside the family, each
  stereotype sitting in the evolving player's seat;
* ``optimise``: CMA-ES (the `cma` package, ``pip install cma``) over a small threshold parametrisation
  (per stage: the x from which to continue and to raise, and how much each bet to call tightens them),
  every evaluation on the same epochs, then the best candidate re-measured on fresh epochs;
* ``noise``: how well 25 uses tell two candidates apart: the standard error of a 25-hand mean fitness
  against the true difference of the candidates (``--signal luck_adjusted``: of the luck-adjusted result);
* ``hold``: an evolving player whose every member starts as the tight-aggressive thresholds (does the ES
  keep a winner?);
* ``calibration``: x at each decision against the true share of the pot against the live opponents'
  cards;
* ``table``: candidates-*.json files merged into candidates.csv and candidates.png.

A threshold candidate is deterministic except at its edges: with call(x) = 1 (b_c = 0, c_c = 0.5) the fold
response crosses 1 at x = t_c and the raise response at x = t_r, and steepness K / t makes each edge a
step (docs/barone-while.md §3).

    OUT=docs/results/barone-while/ceiling
    CEILING="python -m pokerlab.programs.barone_while.ceiling"
    $CEILING candidates --tables mixed --epochs 300 --seed 11 --out $OUT
    $CEILING candidates --tables tight,loose --epochs 150 --seed 11 --out $OUT/other
    $CEILING optimise --table mixed --epochs 30 --evals 80 --seed 11 --out $OUT
    $CEILING hold --epochs 300 --seed 11 --set es_scheme=paired --out $OUT
    $CEILING noise --table mixed --epochs 100 --seed 11 --out $OUT
    $CEILING noise --epochs 100 --seed 11 --signal luck_adjusted --out $OUT/../fitness
    $CEILING calibration --table mixed --epochs 20 --seed 5 --out $OUT
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from dataclasses import replace
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from pokerlab.agents.stereotypes import STYLES, StereotypeAgent  # noqa: E402
from pokerlab.arena.stats import half_width95  # noqa: E402
from pokerlab.errors import ConfigError, PokerlabError  # noqa: E402
from pokerlab.evaluator import evaluate_batch  # noqa: E402
from pokerlab.programs.barone_while.agent import EvolvingAgent  # noqa: E402
from pokerlab.programs.barone_while.candidate import GENE_MAX, gene_from_eval  # noqa: E402
from pokerlab.programs.barone_while.config import (
    EvolvingConfig,  # noqa: E402
    parse_settings,  # noqa: E402
)
from pokerlab.programs.barone_while.epochs import TABLES, play_epochs  # noqa: E402
from pokerlab.programs.barone_while.hypercube import CELL_SHAPE  # noqa: E402
from pokerlab.programs.barone_while.luck import board_luck  # noqa: E402
from pokerlab.programs.barone_while.player_a import player_a_cells  # noqa: E402
from pokerlab.programs.barone_while.situation import bets_to_call, opponents_in, single_opponent_x  # noqa: E402

SEGMENTS = ("tight-passive", "loose-aggressive")
#: Steepness of a threshold candidate's fold and raise edges, relative to the threshold (K / t).
STEEP = 30.0


def threshold_genes(t_c: float, t_r: float, steep: float = STEEP) -> np.ndarray:
    """A candidate that folds (checks when free) below x = t_c, calls between, raises from t_r (t_r >= 1:
    never raises): fold(x) = exp(-K/t_c (x - t_c)), call(x) = 1, raise(x) = exp(K/t_r (x - t_r))."""
    t_c = float(np.clip(t_c, 1e-9, GENE_MAX))
    genes = np.array([t_c, gene_from_eval(steep / t_c), 0.5, 0.0, 0.5, 0.0, GENE_MAX])
    if t_r < 1.0:
        t_r = max(t_r, 1e-9)
        genes[5], genes[6] = 1.0 - t_r, gene_from_eval(steep / t_r)
    return np.clip(genes, 0.0, GENE_MAX)


def cube_of(rule) -> np.ndarray:
    """The 48 cells (stage, position, bets) of a hypercube whose cell genes are ``rule(stage, position,
    bets)``, shape (48, 7)."""
    return np.array([rule(*cell) for cell in np.ndindex(CELL_SHAPE)])


def value_player(pre=(0.58, 0.69), post=(0.55, 0.85), per_bet=(0.04, 0.04), n_ref=(9, 6, 3)):
    """A threshold player on the x = x1^n scale: pre-flop continue / raise from x1 = pre (0.58 / 0.69: about
    the top 20 % / 5 % of holdings by IR2) raised to a typical number of opponents by position; after the
    flop continue / raise from x = post (0.55 / 0.85: the tight-passive thresholds of §9); each bet to call
    adds per_bet (pre-flop on the x1 scale, after on the x scale). ``n_ref = (1, 1, 1)`` with
    ``multiway_x = "single"`` reads every threshold on the x1 scale."""

    def rule(stage, position, bets):
        if stage == 0:
            n = n_ref[position]
            return threshold_genes((pre[0] + per_bet[0] * bets) ** n, (pre[1] + per_bet[0] * bets) ** n)
        return threshold_genes(post[0] + per_bet[1] * bets, post[1] + per_bet[1] * bets)

    return cube_of(rule)


#: The tight-aggressive stereotype's numbers (§9) on the family's scales: pre-flop play x1 >= 0.58 (top
#: 20 % by IR2), raise from 0.62 (top 10 %), 0.02 a bet; after the flop continue from x = 0.55, raise from
#: 0.65, 0.05 a bet (facing two bets: continue from 0.65).
TIGHT_AGGRESSIVE = {"pre": (0.58, 0.62), "post": (0.55, 0.65), "per_bet": (0.02, 0.05)}
#: The loose-passive stereotype's numbers (§9) on the family's scales: pre-flop play the top 60 % by IR2
#: (x1 >= 0.472), raise the top 3 % (0.692), facing two bets the top 30 % (0.553, so 0.04 a bet); after the
#: flop continue from x = 0.20, raise from 0.85, facing two bets continue from 0.40 (0.10 a bet).
LOOSE_VALUE = {"pre": (0.472, 0.692), "post": (0.20, 0.85), "per_bet": (0.04, 0.10)}


class SeatStereotype(StereotypeAgent):
    """A stereotype in the evolving player's seat (a reference outside the family): told the styles, it
    ignores them."""

    def tell_styles(self, seat_styles) -> None:
        pass


class OverValuing(StereotypeAgent):
    """A loose-aggressive player that over-values its hands after the flop: it judges them by x1, against
    one opponent, however many are in (the "over-valuing" reading of `pokerlab.agents.stereotypes`), so it
    continues from x1 = 0.20 and raises from 0.50 in any pot."""

    def __init__(self) -> None:
        super().__init__("loose-aggressive", "over-valuing")


def table_opponents(table: str, weak: bool):
    """The opponents of `table`, the loose-aggressive ones over-valuing (`OverValuing`) with `weak`."""
    if not weak:
        return None
    return [OverValuing() if s == "loose-aggressive" else StereotypeAgent(s) for s in TABLES[table]]


class SeatStereotypeIR2(SeatStereotype):
    """A stereotype in the seat that ranks its pre-flop holdings by IR2 (the family's x1) instead of the
    income rate for the players dealt in: what the family's one-opponent pre-flop table costs it."""

    def act(self, view):
        return super().act(view._replace(players=2) if view.round == 0 else view)


def frozen_cube(
    cells: np.ndarray, config: EvolvingConfig | None = None, frozen: bool = True
) -> EvolvingAgent:
    """A frozen evolving player whose every population (both segments) holds one candidate, `cells`
    (48, 7) or one candidate (7,) for every cell; with ``frozen=False``, an evolving player whose every
    member starts as that candidate (populations of ``config.population_size``)."""
    config = config or EvolvingConfig()
    if frozen:
        config = replace(config, population_size=1)
    m = config.population_size
    agent = EvolvingAgent(config, SEGMENTS, "random")
    cells = np.broadcast_to(np.asarray(cells, dtype=np.float64), (48, 7))
    agent.cube.genes[:] = np.broadcast_to(cells[None, :, None, :], (2, 48, m, 7)).reshape(96, m, 7)
    agent.freeze(frozen)
    return agent


def measure(agent, table: str, epochs: int, seed: int, weak: bool = False) -> dict:
    """Mean W per epoch at `table` (its loose-aggressive players over-valuing with `weak`) with its 95 %
    half-width, W per epoch, and the opponents' mean W."""
    began = time.perf_counter()
    run = play_epochs(agent, table, epochs, seed, opponents=table_opponents(table, weak))
    w = run.player
    return {
        "table": table + (" (over-valuing loose-aggressive)" if weak else ""),
        "epochs": epochs,
        "seed": seed,
        "mean_w": float(w.mean()),
        "ci95": half_width95(w),
        "sd_w": float(w.std(ddof=1)) if len(w) > 1 else float("nan"),
        "opponents_w": {k: float(v.mean()) for k, v in run.opponents.items()},
        "hands_per_s": run.hands / (time.perf_counter() - began),
        "thirds": [  # the run's first, middle and last third (from 6 epochs on)
            [float(t.mean()), half_width95(t)] for t in (np.array_split(w, 3) if len(w) >= 6 else [])
        ],
        "w": w.tolist(),
    }


def candidates() -> dict:
    """name -> (agent factory): the hand-designed hypercubes and the stereotypes in the seat."""
    single = EvolvingConfig(multiway_x="single")
    fold = np.array([GENE_MAX, GENE_MAX, 0.5, 0.0, 0.0, 0.0, 0.0])
    call = np.array([0.0, 0.0, 0.5, 0.0, 0.9, 0.0, 0.0])
    return {
        "fold everything": lambda: frozen_cube(fold),
        "call everything": lambda: frozen_cube(call),
        "player A": lambda: frozen_cube(player_a_cells()),
        "player A, player_a_n": lambda: frozen_cube(
            player_a_cells(), EvolvingConfig(multiway_x="player_a_n")
        ),
        "tight value (x1^n)": lambda: frozen_cube(value_player()),
        "tight value, never raise pre-flop": lambda: frozen_cube(value_player(pre=(0.58, 2.0))),
        "tight value (x1, single)": lambda: frozen_cube(
            value_player(post=(0.75, 0.9), n_ref=(1, 1, 1)), single
        ),
        "loose value (x1^n)": lambda: frozen_cube(value_player(**LOOSE_VALUE)),
        "loose value, pre-flop n_ref 6/4/2": lambda: frozen_cube(
            value_player(**LOOSE_VALUE, n_ref=(6, 4, 2))
        ),
        "loose value (x1, single)": lambda: frozen_cube(
            value_player(pre=(0.472, 0.692), post=(0.45, 0.9), per_bet=(0.04, 0.06), n_ref=(1, 1, 1)), single
        ),
        "tight-aggressive thresholds (x1^n)": lambda: frozen_cube(value_player(**TIGHT_AGGRESSIVE)),
        **{f"stereotype {s} in the seat": (lambda s=s: SeatStereotype(s)) for s in STYLES},
        **{
            f"stereotype {s} in the seat, IR2 pre-flop": (lambda s=s: SeatStereotypeIR2(s))
            for s in ("loose-passive", "tight-aggressive")
        },
    }


def write_table(rows: list[dict], out: Path) -> None:
    """candidates.csv (candidate, table, epochs, seed, W, 95 % half-width, sd, opponents) and
    candidates.png (W with its interval, one panel per table)."""
    fields = ["table", "candidate", "epochs", "seed", "mean_w", "ci95", "sd_w"]
    with open(out / "candidates.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow([*fields, "opponents_w"])
        for row in rows:
            writer.writerow(
                [row[k] if isinstance(row[k], str | int) else round(row[k], 1) for k in fields]
                + ["; ".join(f"{k} {v:.1f}" for k, v in row["opponents_w"].items())]
            )
    tables = list(dict.fromkeys(row["table"] for row in rows))
    fig, axes = plt.subplots(1, len(tables), figsize=(6 * len(tables), 7), squeeze=False)
    for ax, table in zip(axes[0], tables, strict=True):
        mine = sorted((r for r in rows if r["table"] == table), key=lambda r: r["mean_w"])
        y = np.arange(len(mine))
        colours = ["tab:gray" if r["candidate"].startswith("stereotype") else "tab:blue" for r in mine]
        ax.barh(y, [r["mean_w"] for r in mine], xerr=[r["ci95"] for r in mine], color=colours)
        ax.set_yticks(y, [r["candidate"] for r in mine], fontsize=7)
        ax.axvline(0, color="k", lw=0.5)
        ax.set_xlabel("W, chips per epoch (95 % interval)")
        ax.set_title(f"{table} table, {mine[0]['epochs']} epochs, seed {mine[0]['seed']}")
    fig.suptitle("Fixed candidates of the family (blue) and stereotypes in the seat (grey)")
    fig.tight_layout()
    fig.savefig(out / "candidates.png", dpi=100)


# -- calibration of x against the live opponents ------------------------------------------------------

_HOLES: dict[int, tuple[int, int]] = {}


class HoleSpy(StereotypeAgent):
    """A stereotype that leaves its hole cards where the calibration can read them (a measurement only:
    no player at the table sees them)."""

    def begin_hand(self, start) -> None:
        _HOLES[start.position] = start.hole


def true_equity(hole, board, others, rng: np.random.Generator, trials: int) -> float:
    """Our share of the pot at showdown against the live opponents' actual holdings `others`, the rest of
    the board dealt at random `trials` times (ties split)."""
    dead = set(hole) | set(board) | {c for h in others for c in h}
    deck = np.array([c for c in range(52) if c not in dead], dtype=np.uint8)
    missing = 5 - len(board)
    draws = np.argsort(rng.random((trials, len(deck))), axis=1)[:, :missing]
    boards = np.concatenate(
        [np.broadcast_to(np.array(board, dtype=np.uint8), (trials, len(board))), deck[draws]], axis=1
    )
    hands = [hole, *others]
    cards = np.concatenate(
        [
            np.concatenate([np.broadcast_to(np.array(h, dtype=np.uint8), (trials, 2)), boards], axis=1)
            for h in hands
        ]
    )
    ranks = evaluate_batch(cards).reshape(len(hands), trials)
    best = ranks.max(axis=0)
    winners = (ranks == best).sum(axis=0)
    return float(np.mean(np.where(ranks[0] == best, 1.0 / winners, 0.0)))


class CalibratedCube(EvolvingAgent):
    """A frozen evolving player that logs, at each decision, its x and its true equity against the live
    opponents' cards."""

    def act(self, view):
        action = super().act(view)
        others = [_HOLES[p] for p in opponents_in(view)]
        x1 = single_opponent_x(view.hole, view.board)
        self.log.append(
            (
                view.round,
                len(others),
                x1,
                self._decisions[-1][1],
                true_equity(view.hole, view.board, others, self.rng_eq, 100),
                bets_to_call(view),
            )
        )
        return action


def calibration(cells: np.ndarray, table: str, epochs: int, seed: int) -> list[tuple]:
    """(stage, opponents in, x1, x, true equity, bets to call) of every decision of the frozen cube `cells`
    in `epochs` epochs at `table`."""
    player = frozen_cube(cells)
    player.__class__ = CalibratedCube
    player.log, player.rng_eq = [], np.random.default_rng(seed)
    play_epochs(player, table, epochs, seed, opponents=[HoleSpy(s) for s in TABLES[table]])
    return player.log


X_BINS = np.array([0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001])


def write_calibration(log: list[tuple], args) -> None:
    """Bin the decisions by stage and x; write the mean x, x1 and true equity per bin (csv) and a plot."""
    a = np.array(log)
    rows = []
    fig, ax = plt.subplots(figsize=(6, 5))
    for stage, name in enumerate(("pre-flop", "flop", "turn", "river")):
        s = a[a[:, 0] == stage]
        xs, eq = [], []
        for lo, hi in zip(X_BINS[:-1], X_BINS[1:], strict=True):
            m = (s[:, 3] >= lo) & (s[:, 3] < hi)
            if m.sum() < 5:
                continue
            row = {
                "stage": name,
                "x_from": float(lo),
                "x_to": float(min(hi, 1.0)),
                "decisions": int(m.sum()),
                "mean_x": float(s[m, 3].mean()),
                "mean_x1": float(s[m, 2].mean()),
                "mean_opponents": float(s[m, 1].mean()),
                "mean_bets_to_call": float(s[m, 5].mean()),
                "true_equity": float(s[m, 4].mean()),
            }
            rows.append(row)
            xs.append(row["mean_x"])
            eq.append(row["true_equity"])
        ax.plot(xs, eq, "o-", label=name)
    ax.plot([0, 1], [0, 1], "k:", lw=1, label="calibrated")
    ax.set_xlabel("x = x1^n (the player's probability of winning)")
    ax.set_ylabel("true share of the pot against the live opponents' cards")
    ax.set_title(f"x against the truth, player A at the {args.table} table (seed {args.seed})")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out / f"calibration-{args.table}-{args.seed}.png", dpi=100)
    with open(args.out / f"calibration-{args.table}-{args.seed}.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    for row in rows:
        print(row)


# -- the noise of a fitness -----------------------------------------------------------------------------


class HandLog(EvolvingAgent):
    """A frozen evolving player that logs each hand's result, the populations it consulted and the luck of
    the board (what ``fitness_signal = "luck_adjusted"`` takes off the result)."""

    def end_hand(self, end) -> None:
        s = self._start
        luck = board_luck(s.hole, end.position, s.players, s.blinds, end.actions, end.board)
        self.hands_log.append((float(end.nets[end.position]), tuple(self._consulted), luck))
        super().end_hand(end)


def hand_log(cells: np.ndarray, table: str, epochs: int, seed: int, config=None) -> list[tuple]:
    """(result, consulted populations) of every hand the frozen cube `cells` plays in `epochs` epochs."""
    player = frozen_cube(cells, config)
    player.__class__ = HandLog
    player.hands_log = []
    play_epochs(player, table, epochs, seed)
    return player.hands_log


def noise(
    a: np.ndarray, b: np.ndarray, table: str, epochs: int, seed: int, uses: int = 25, signal: str = "chips"
) -> dict:
    """How well a (1+1) comparison at `uses` uses tells candidates `a` and `b` apart: per population
    consulted, the true difference of the mean hand result (b - a, the same cards) against the standard
    error of the difference of two `uses`-hand means (docs/barone-while.md §14); the result is the net, or
    with `signal` "luck_adjusted" the net less the luck of the board."""
    logs = [hand_log(cells, table, epochs, seed) for cells in (a, b)]
    if signal == "luck_adjusted":
        logs = [[(r - luck, pops, luck) for r, pops, luck in log] for log in logs]
    log_a, log_b = logs
    out = {}
    for name, log in (("a", log_a), ("b", log_b)):
        r = np.array([h[0] for h in log])
        out[name] = {"hands": len(r), "mean_r": float(r.mean()), "sd_r": float(r.std(ddof=1))}
    by_pop = {}
    for label, log in (("a", log_a), ("b", log_b)):
        for result, pops, _ in log:
            for p in pops:
                by_pop.setdefault(p, {"a": [], "b": []})[label].append(result)
    rows = []
    for p, d in sorted(by_pop.items()):
        if min(len(d["a"]), len(d["b"])) < 50:
            continue
        ra, rb = np.array(d["a"]), np.array(d["b"])
        sd = float(np.sqrt((ra.var(ddof=1) + rb.var(ddof=1)) / 2))
        rows.append(
            {
                "population": p,
                "cell": [int(i) for i in np.unravel_index(p % 48, CELL_SHAPE)],
                "hands_a": len(ra),
                "hands_b": len(rb),
                "mean_r_a": float(ra.mean()),
                "mean_r_b": float(rb.mean()),
                "sd_r": sd,
                "se_diff_at_uses": sd * float(np.sqrt(2.0 / uses)),
            }
        )
    out["populations"] = rows
    out["w_per_epoch"] = {
        "a": float(sum(h[0] for h in log_a) / epochs),
        "b": float(sum(h[0] for h in log_b) / epochs),
    }
    return out


# -- direct optimisation ---------------------------------------------------------------------------------

#: The parameters `optimise` searches: pre-flop continue / raise on the x1 scale and the step per bet to
#: call; flop, turn and river continue / raise on the x scale; the step per bet to call after the flop.
PARAMS = (
    "pre_c",
    "pre_r",
    "pre_step",
    "flop_c",
    "flop_r",
    "turn_c",
    "turn_r",
    "river_c",
    "river_r",
    "post_step",
)


def params_cube(theta, n_ref=(9, 6, 3)) -> np.ndarray:
    """The hypercube of a parameter vector (`PARAMS`, each clipped to [0, 1]): `value_player` with
    stage-wise thresholds after the flop."""
    t = np.clip(np.asarray(theta, dtype=np.float64), 0.0, 1.0)

    def rule(stage, position, bets):
        if stage == 0:
            n = n_ref[position]
            return threshold_genes((t[0] + t[2] * bets) ** n, (t[1] + t[2] * bets) ** n)
        c, r = t[1 + 2 * stage], t[2 + 2 * stage]
        return threshold_genes(c + t[9] * bets, r + t[9] * bets)

    return cube_of(rule)


def loose_value_params() -> np.ndarray:
    """`LOOSE_VALUE` as a `PARAMS` vector: the optimiser's start."""
    (pc, pr), (c, r), (ps, qs) = LOOSE_VALUE["pre"], LOOSE_VALUE["post"], LOOSE_VALUE["per_bet"]
    return np.array([pc, pr, ps, c, r, c, r, c, r, qs])


def optimise(table: str, epochs: int, evals: int, seed: int, check_epochs: int, config=None) -> dict:
    """CMA-ES over `params_cube`, every evaluation on epochs of seed `seed` (common random numbers), the
    best re-measured on `check_epochs` epochs of seed + 1000."""
    try:
        import cma  # optional: the 'research' extra
    except ImportError as exc:
        raise ConfigError("optimise needs the cma package: pip install -e '.[research]'") from exc

    es = cma.CMAEvolutionStrategy(loose_value_params(), 0.1, {"seed": seed + 1, "verbose": -9, "popsize": 10})
    history = []
    start = measure(frozen_cube(params_cube(loose_value_params()), config), table, epochs, seed)["mean_w"]
    best = (-start, loose_value_params())
    while len(history) < evals and not es.stop():
        thetas = es.ask()
        losses = []
        for theta in thetas:
            w = measure(frozen_cube(params_cube(theta), config), table, epochs, seed)["mean_w"]
            losses.append(-w)
            history.append(w)
            if -w < best[0]:
                best = (-w, np.array(theta))
        es.tell(thetas, losses)
        print(
            f"{len(history)} evaluations: best so far {-best[0]:.0f}, this generation {-min(losses):.0f}",
            flush=True,
        )
    check = measure(frozen_cube(params_cube(best[1]), config), table, check_epochs, seed + 1000)
    return {
        "table": table,
        "epochs_per_eval": epochs,
        "evals": len(history),
        "seed": seed,
        "start_w_on_training_epochs": start,
        "best_theta": dict(zip(PARAMS, np.clip(best[1], 0.0, 1.0).tolist(), strict=True)),
        "best_w_on_training_epochs": -best[0],
        "check": {k: v for k, v in check.items() if k != "w"},
        "history": history,
    }


def positive(text: str) -> int:
    """argparse type: a positive integer, or one clear error line."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"needs a positive integer, got {text!r}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    c = sub.add_parser("candidates")
    c.add_argument("--tables", default="mixed")
    c.add_argument("--epochs", type=positive, default=300)
    c.add_argument("--seed", type=int, default=11)
    c.add_argument("--only", default="", help="candidate names separated by ; (default: all)")
    c.add_argument("--weak", action="store_true", help="over-valuing loose-aggressive players")
    c.add_argument("--out", type=Path, required=True)
    o = sub.add_parser("optimise")
    o.add_argument("--table", default="mixed", choices=sorted(TABLES))
    o.add_argument("--epochs", type=positive, default=30)
    o.add_argument("--evals", type=positive, default=120)
    o.add_argument("--check-epochs", type=positive, default=200)
    o.add_argument("--seed", type=int, default=11)
    o.add_argument("--set", default="multiway_x=power")
    o.add_argument("--out", type=Path, required=True)
    n = sub.add_parser("noise", help="the (1+1) comparison's noise: player A against the tight value player")
    n.add_argument("--table", default="mixed", choices=sorted(TABLES))
    n.add_argument("--epochs", type=positive, default=100)
    n.add_argument("--seed", type=int, default=11)
    n.add_argument("--signal", choices=("chips", "luck_adjusted"), default="chips")
    n.add_argument("--out", type=Path, required=True)
    k = sub.add_parser("calibration", help="x against the true equity versus the live opponents' cards")
    k.add_argument("--table", default="mixed", choices=sorted(TABLES))
    k.add_argument("--epochs", type=positive, default=20)
    k.add_argument("--seed", type=int, default=5)
    k.add_argument("--out", type=Path, required=True)
    h = sub.add_parser("hold", help="evolve from the tight-aggressive thresholds (or at random): W by thirds")
    h.add_argument("--epochs", type=positive, default=300)
    h.add_argument("--seed", type=int, default=11)
    h.add_argument("--set", default="")
    h.add_argument("--start", choices=("thresholds", "random"), default="thresholds")
    h.add_argument("--weak", action="store_true", help="over-valuing loose-aggressive players")
    h.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("table", help="merge candidates-*.json files into one csv and a plot")
    t.add_argument("files", nargs="+", type=Path)
    t.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    try:
        run(args)
    except (PokerlabError, OSError, ValueError) as exc:  # bad input: one line, no traceback
        parser.exit(2, f"bw_ceiling.py {args.what}: error: {exc}\n")


def run(args: argparse.Namespace) -> None:
    """Carry out the subcommand `args.what`, writing into `args.out`."""
    args.out.mkdir(parents=True, exist_ok=True)
    if args.what == "candidates":
        chosen = [n for n in args.only.split(";") if n] or list(candidates())
        unknown = [n for n in chosen if n not in candidates()]
        if unknown:
            raise ConfigError(f"unknown candidates {unknown}; candidates: {'; '.join(candidates())}")
        unknown = [t for t in args.tables.split(",") if t not in TABLES]
        if unknown:
            raise ConfigError(f"unknown tables {unknown}; tables: {', '.join(TABLES)}")
        rows = []
        for table in args.tables.split(","):
            for name in chosen:
                result = measure(candidates()[name](), table, args.epochs, args.seed, args.weak)
                rows.append({"candidate": name, **result})
                print(
                    f"{table:6s} {name:40s} W {result['mean_w']:7.1f} ± {result['ci95']:5.1f} "
                    f"(sd {result['sd_w']:.0f}; opponents {result['opponents_w']})",
                    flush=True,
                )
                (args.out / f"candidates-{args.seed}.json").write_text(json.dumps(rows, indent=1) + "\n")
    elif args.what == "noise":
        a, b = player_a_cells(), value_player(**LOOSE_VALUE)
        result = noise(a, b, args.table, args.epochs, args.seed, signal=args.signal)
        suffix = "" if args.signal == "chips" else f"-{args.signal}"
        name = f"noise-{args.table}-{args.seed}{suffix}.json"
        (args.out / name).write_text(json.dumps(result, indent=1) + "\n")
        print(json.dumps({k: v for k, v in result.items() if k != "populations"}, indent=1))
        for row in sorted(result["populations"], key=lambda r: -r["hands_a"])[:12]:
            print(row)
    elif args.what == "table":
        write_table([row for f in args.files for row in json.loads(f.read_text())], args.out)
    elif args.what == "hold":
        config = parse_settings(args.set)
        if args.start == "random":  # Experiment 1's start (docs/barone-while.md §11)
            player = EvolvingAgent(config, SEGMENTS, "random", init_seed=args.seed)
        else:
            player = frozen_cube(value_player(**TIGHT_AGGRESSIVE), config, frozen=False)
        result = measure(player, "mixed", args.epochs, args.seed, args.weak)
        setting = args.set.replace("=", "-").replace(",", "_") or "faithful"
        name = f"hold-{args.start}-{setting}{'-weak' if args.weak else ''}-{args.seed}.json"
        (args.out / name).write_text(json.dumps(result) + "\n")
        print("W by thirds of the run (mean, 95 % half-width):", result["thirds"])
    elif args.what == "calibration":
        write_calibration(calibration(player_a_cells(), args.table, args.epochs, args.seed), args)
    else:
        result = optimise(
            args.table, args.epochs, args.evals, args.seed, args.check_epochs, parse_settings(args.set)
        )
        name = f"optimise-{args.table}-{args.set.replace('=', '-').replace(',', '_')}-{args.seed}.json"
        (args.out / name).write_text(json.dumps(result, indent=1) + "\n")
        print(json.dumps(result["check"], indent=1))


if __name__ == "__main__":
    main()
