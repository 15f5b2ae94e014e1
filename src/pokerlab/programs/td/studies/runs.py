"""TD-Hold'em's evidence (LEARNING-SPEC §A.9): several training runs' evaluations side by side, and the
opponent-modelling study of §A.10 (a).

`summarize_runs` reads the folders `pokerlab train td` wrote and writes, into one results folder, each
run's small files (config.json, curve.csv, training.csv, final.json, curves.png, under the run's name), a
``summary.csv`` with every run's evaluation before training and at its end (sb/hand, 95 % CI, the change),
``seeds.csv`` with the median and range over the runs (seeds) at each evaluation point they all share and
how many runs' CIs lie above or below 0 there (§A.9 items 2 and 7), and ``curves.png``: one panel per
evaluation opponent, one line per run, with the median and range over the runs when there are several.

`final_table` evaluates a run's final player (or another of its players, such as the one `train select`
chose, `pokerlab.programs.td.studies.select`) against a list of opponents (duplicate sb/hand with its 95 % CI,
§A.9 item 4) and measures its style against each: VPIP, PFR and aggression factor.

`opponent_model_study` measures how well the next-action network of `pokerlab.modeling.next_action`
predicts each opponent, against the frequency table and a uniform guess: it watches `train_hands` of the
opponent against a partner (learning online), then scores the three on the next `test_hands` (frozen).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from pokerlab.agents import Agent, make_agent
from pokerlab.agents.base import split_decision
from pokerlab.arena.dealing import Dealer
from pokerlab.arena.evidence import log_hands_axis, read_csv, write_csv
from pokerlab.arena.match import duplicate_tournament
from pokerlab.arena.table import strict_table
from pokerlab.engine import GameConfig, HandState
from pokerlab.errors import ConfigError
from pokerlab.modeling.next_action import FrequencyTable, NextActionNetwork, context, scores
from pokerlab.modeling.style import style_counts
from pokerlab.programs.td.agent import TDAgent, checkpoint_path, load_td_agent
from pokerlab.programs.td.training import BEST_RESPONSE_VS_CALL, play_hand, play_series

RUN_FILES = ("config.json", "curve.csv", "training.csv", "final.json", "curves.png")
SUMMARY_HEADER = [
    "run",
    "seed",
    "hands",
    "opponent",
    "before",
    "before_low",
    "before_high",
    "after",
    "after_low",
    "after_high",
    "change",
]


def read_run(folder: Path) -> dict:
    """A run's seed, evaluation rows (hands, opponent, sb/hand, low, high) and final evaluation."""
    try:
        meta = json.loads((folder / "config.json").read_text())
        final = json.loads((folder / "final.json").read_text())
        rows = [(int(r[0]), r[1], *map(float, r[2:5])) for r in read_csv(folder / "curve.csv")]
    except (OSError, ValueError, IndexError) as exc:
        raise ConfigError(f"{folder} is not a finished `pokerlab train td` run ({exc})") from None
    return {"name": folder.name, "seed": meta["seed"], "rows": rows, "final": final}


def summarize_runs(folders: list[str | Path], out: str | Path, title: str = "TD-Hold'em") -> list[list]:
    """Copy the runs' small files into `out`, write summary.csv and curves.png; returns the summary rows."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    runs = [read_run(Path(f)) for f in folders]
    summary = []
    for folder, run in zip(folders, runs, strict=True):
        for name in RUN_FILES:
            shutil.copyfile(Path(folder) / name, out / f"{run['name']}-{name}")
        for result in run["final"]["results"]:
            opponent = result["opponent"]
            before = next(r for r in run["rows"] if r[0] == 0 and r[1] == opponent)
            after = (result["sb_per_hand"], result["ci95_low"], result["ci95_high"])
            summary.append(
                [run["name"], run["seed"], run["final"]["hands"], opponent, *before[2:], *after]
                + [round(after[0] - before[2], 6)]
            )
    write_csv(out / "summary.csv", SUMMARY_HEADER, summary)
    write_csv(out / "seeds.csv", SEEDS_HEADER, across_runs(runs))
    plot_runs(runs, out / "curves.png", title)
    return summary


def run_points(run: dict, opponent: str) -> list[tuple[int, float, float, float]]:
    """(hands, sb/hand, CI low, CI high) of a run's evaluations against `opponent`, its final evaluation
    included (once) when the curve does not end with it."""
    points = [(r[0], r[2], r[3], r[4]) for r in run["rows"] if r[1] == opponent]
    final = [r for r in run["final"]["results"] if r["opponent"] == opponent]
    if final and all(p[0] != run["final"]["hands"] for p in points):
        f = final[0]
        points.append((run["final"]["hands"], f["sb_per_hand"], f["ci95_low"], f["ci95_high"]))
    return points


SEEDS_HEADER = ["hands", "opponent", "runs", "median", "min", "max", "ci_above_0", "ci_below_0"]


def across_runs(runs: list[dict]) -> list[list]:
    """Rows (hands, opponent, runs, median, min, max, runs whose CI lies above 0, below 0) over the runs at
    each evaluation point that every run has (LEARNING-SPEC §A.9 item 2: median and range over seeds; item
    7 counts the seeds whose CI excludes 0)."""
    rows = []
    opponents = list(dict.fromkeys(r[1] for run in runs for r in run["rows"]))
    for opponent in opponents:
        by_run = [{p[0]: p for p in run_points(run, opponent)} for run in runs]
        shared = sorted(set.intersection(*(set(points) for points in by_run)))
        for hands in shared:
            points = [points[hands] for points in by_run]
            values = [p[1] for p in points]
            rows.append(
                [hands, opponent, len(runs), round(float(np.median(values)), 6), min(values), max(values)]
                + [sum(p[2] > 0 for p in points), sum(p[3] < 0 for p in points)]
            )
    return rows


def plot_runs(runs: list[dict], path: Path, title: str, references: dict[str, tuple] | None = None) -> None:
    """One panel per evaluation opponent: each run's points with their CIs, and the median and range over
    the runs at the points they share (§A.9 item 2), on a log scale of training hands; `references` (opponent
    -> (label, sb/hand)) adds a dotted line, such as Loki-1's result on the same deals (§A.9 item 3)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    opponents = list(dict.fromkeys(r[1] for run in runs for r in run["rows"]))
    columns = min(4, len(opponents))
    rows = -(-len(opponents) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(4.5 * columns, 4 * rows), squeeze=False)
    for ax in axes.flat[len(opponents) :]:
        ax.set_visible(False)
    several = len(runs) > 1
    spread = across_runs(runs) if several else []
    for ax, opponent in zip(axes.flat, opponents, strict=False):
        for run in runs:
            points = run_points(run, opponent)
            x = [p[0] for p in points]
            y = [p[1] for p in points]
            err = [[p[1] - p[2] for p in points], [p[3] - p[1] for p in points]]
            thin = {"lw": 0.8, "ms": 3, "alpha": 0.6} if several else {}
            ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=run["name"], **thin)
        shared = [r for r in spread if r[1] == opponent]
        if shared:
            x = [r[0] for r in shared]
            ax.fill_between(x, [r[4] for r in shared], [r[5] for r in shared], color="k", alpha=0.12)
            ax.plot(x, [r[3] for r in shared], color="k", lw=2, label=f"median, range of {len(runs)}")
        ax.axhline(0, color="grey", lw=0.8)
        if opponent == "call":
            ax.axhline(BEST_RESPONSE_VS_CALL, color="grey", ls="--", lw=0.8, label="best response")
        if opponent in (references or {}):
            label, value = references[opponent]
            ax.axhline(value, color="tab:red", ls=":", lw=1.2, label=label)
        ax.set_title(f"vs {opponent}")
        log_hands_axis(ax, [r[0] for run in runs for r in run["rows"]])
        ax.set_xlabel("training hands")
        ax.set_ylabel("sb/hand, duplicate, 95% CI")
        ax.legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


class Watched(Agent):
    """An agent whose every decision is recorded as (context, action) for the modeller, and as (hand,
    round, chips to call, action) in ``decisions`` for its style."""

    def __init__(self, inner: Agent) -> None:
        super().__init__()
        self.inner = inner
        self.seen: list[tuple[np.ndarray, int]] = []
        self.decisions: list[tuple[int, int, int, int]] = []
        self.hand = -1

    def seed(self, rng: np.random.Generator) -> None:
        self.inner.seed(rng)

    def begin_hand(self, start) -> None:
        self.hand += 1
        self.inner.begin_hand(start)

    def observe(self, record) -> None:
        self.inner.observe(record)

    def act(self, view) -> int:
        action = split_decision(self.inner.act(view))[0]
        self.seen.append((context(view), int(action)))
        self.decisions.append((self.hand, view.round, view.to_call, int(action)))
        return action

    def end_hand(self, end) -> None:
        self.inner.end_hand(end)


def style(decisions: list[tuple[int, int, int, int]]) -> dict[str, float]:
    """VPIP (share of hands with a pre-flop decision in which the player put chips in voluntarily: a call
    of a positive amount or a raise), PFR (share with a pre-flop raise) and the aggression factor (bets and
    raises / calls of a positive amount, after the flop) from (hand, round, to call, action) rows."""
    counts = style_counts(decisions)
    return {"vpip": counts.vpip_share, "pfr": counts.pfr_share, "af": counts.aggression()}


def play_style(player: Agent, opponent: str, hands: int, seed: int, game: GameConfig) -> dict[str, float]:
    """`style` of `player` over `hands` hands against a fresh `opponent`, seats alternating."""
    watched, other = Watched(player), make_agent(opponent)
    rng = np.random.default_rng(seed)
    for agent in (watched, other):
        agent.seed(np.random.default_rng(rng.integers(2**63)))
    play_series(watched, other, game, Dealer(seed), hands)
    return style(watched.decisions)


TABLE_HEADER = ["opponent", "sb_per_hand", "ci95_low", "ci95_high", "vpip", "pfr", "af"]

#: The seed of the final tables reported in docs/results/td-holdem (10,000 deals, seed 2026): deals that a
#: checkpoint selection (`pokerlab.programs.td.studies.select`) must not see.
TABLE_SEED = 2026


def fixed_opponents(run: Path) -> list[str]:
    """The fixed opponents of a `pokerlab train td` run's schedule, in the order of its identity inputs."""
    if not run.is_dir():
        raise ConfigError(
            f"{run}: give the folder of a `pokerlab train td` run (it holds config.json and checkpoint.npz)"
        )
    try:
        schedule = json.loads((run / "config.json").read_text())["schedule"]
    except (OSError, ValueError, KeyError) as exc:
        raise ConfigError(f"{run} is not a `pokerlab train td` run ({exc})") from None
    return [n for n in schedule["opponents"] if n != "self"]


def tell_identity(player: TDAgent, fixed: list[str], name: str) -> None:
    """Give `player` the identity input of opponent `name` where it has identity inputs (§A.8.3): the
    slot of `name` among the run's `fixed` opponents, or none for one it was not trained against."""
    if player.config.opponent_ids:
        player.opponent_id = fixed.index(name) if name in fixed else None


def versus(where: str | Path, fixed: list[str], name: str, deals: int, seed: int):
    """The frozen player at `where` (with the identity input of `name`, `tell_identity`) and its duplicate
    result against `name` in `deals` deals of seed `seed` (§A.9 items 2 and 4)."""
    player = load_td_agent(str(where))
    tell_identity(player, fixed, name)
    return player, duplicate_tournament([player, name], deals, player.config.game(), seed).results[0]


def table_name(player: str) -> str:
    """final-table.csv for the final checkpoint, final-table-NAME.csv for any other player file."""
    stem = Path(player).name.removesuffix(".npz")
    return "final-table.csv" if stem == "checkpoint" else f"final-table-{stem}.csv"


def final_table(
    run: str | Path,
    opponents: list[str],
    deals: int,
    seed: int,
    style_hands: int = 2000,
    progress=None,
    player: str = "checkpoint",
) -> list[list]:
    """Rows (opponent, sb/hand, CI, VPIP, PFR, AF) of one of the run's players (`player`: a file in the run's
    folder such as "checkpoint", the final player, or "best", the one `train select` chose; or a path),
    frozen, with the identity input of an opponent it was trained against, in `deals` duplicate deals per
    opponent and `style_hands` ordinary hands for its style (§A.9 item 4); also written to the run's
    folder, as `table_name(player)`. The selected player's table must be played on other deals than its
    validation deals."""
    run = Path(run)
    fixed = fixed_opponents(run)
    where = checkpoint_path(run / player)
    selection = run / "select.json"
    if where.resolve() == (run / "best.npz").resolve() and selection.is_file():
        if json.loads(selection.read_text())["seed"] == seed:
            raise ConfigError(
                f"{where} was selected on the deals of seed {seed}: its table needs another --seed"
            )
    rows = []
    for name in opponents:
        agent, r = versus(where, fixed, name, deals, seed)
        s = play_style(agent, name, style_hands, seed, agent.config.game())
        rows.append([name, *(round(v, 6) for v in (r.sb_per_hand, *r.ci95, s["vpip"], s["pfr"], s["af"]))])
        if progress:
            progress(f"vs {name}: {r.sb_per_hand:+.3f} [{r.ci95[0]:+.3f}, {r.ci95[1]:+.3f}]")
    write_csv(run / table_name(player), TABLE_HEADER, rows)
    return rows


MODEL_HEADER = ["opponent", "decisions", "model", "accuracy", "log_loss"]


def opponent_model_study(
    opponents: list[str], train_hands: int, test_hands: int, seed: int, partner: str = "random"
) -> list[list]:
    """Rows (opponent, held-out decisions, model, accuracy, log-loss) for the network, the frequency table
    and the uniform guess (log-loss ln 3), each opponent heads-up against `partner`."""
    rows = []
    rng = np.random.default_rng(seed)
    game = GameConfig()
    for name in opponents:
        watched = Watched(make_agent(name))
        other = make_agent(partner)
        for agent in (watched, other):
            agent.seed(np.random.default_rng(rng.integers(2**63)))
        network, table = NextActionNetwork(np.random.default_rng(rng.integers(2**63))), FrequencyTable()
        dealer = Dealer(int(rng.integers(2**62)))
        hands_table = strict_table(2, game)
        for hand in range(train_hands + test_hands):
            if hand == train_hands:
                watched.seen = []
            agents = [watched, other] if hand % 2 else [other, watched]
            cards = dealer.cards(hand, 2)
            play_hand(agents, HandState(game, cards[:4], cards[4:9]), hand, hands_table)
            if hand < train_hands:
                for x, a in watched.seen:
                    network.learn(x, a)
                    table.learn(x, a)
                watched.seen = []
        xs, actions = [x for x, _ in watched.seen], [a for _, a in watched.seen]
        for label, model in (("network", network), ("frequency table", table)):
            rows.append([name, len(xs), label, *(round(v, 4) for v in scores(model, xs, actions))])
        rows.append(
            [name, len(xs), "uniform", round(1 / 3, 4), round(float(np.log(3)), 4)]
        )  # expected values
    return rows


def write_model_study(rows: list[list], out: str | Path) -> None:
    """model_study.csv and model_study.png (held-out log-loss per opponent and model) in `out`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out)
    write_csv(out / "model_study.csv", MODEL_HEADER, rows)
    opponents = list(dict.fromkeys(r[0] for r in rows))
    models = list(dict.fromkeys(r[2] for r in rows))
    fig, ax = plt.subplots(figsize=(1.6 * len(opponents) + 3, 4))
    width = 0.8 / len(models)
    for i, model in enumerate(models):
        values = [next(r[4] for r in rows if r[0] == o and r[2] == model) for o in opponents]
        ax.bar(np.arange(len(opponents)) + i * width, values, width, label=model)
    ax.set_xticks(np.arange(len(opponents)) + 0.4 - width / 2, opponents, rotation=20, fontsize=8)
    ax.set_ylabel("held-out log-loss (nats), lower is better")
    ax.set_title("Next-action prediction (LEARNING-SPEC A.10)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "model_study.png", dpi=100)
    plt.close(fig)
