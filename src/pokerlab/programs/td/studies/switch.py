"""TD-Hold'em against an opponent who changes style: the adaptation test of docs/learning-spec-td.md §A.10
(b).

Each trained player (a `pokerlab train td` run folder) plays ``sessions`` sessions of ``2 * after``
heads-up hands against ``switch:FIRST/SECOND/after`` (`pokerlab.agents.switching`: tight-passive for 5,000
hands, then loose-aggressive, by default), in two modes:

* ``learning``: the player goes on learning as in training (TD(λ) with its step size and exploration at its
  hand count; with opponent-model inputs, the model of this opponent learns after every hand too);
* ``model`` (players with opponent-model inputs only): the network is fixed and only the model of this
  opponent learns after every hand, so what adapts is what the inputs tell the network;
* ``frozen``: nothing learns (the baseline: what the switch costs a player that cannot adapt).

A player trained with identity inputs is told the identity of the first style (where it was trained
against it; else none, as in `pokerlab train table`) and is not told of the switch: only learning can
follow it. Session s deals the cards of seed ``[seed, s]`` to every player and mode alike (common random
numbers).
Written into ``out``: ``switch.csv`` (per run and mode, the mean sb/hand with a 95 % CI over sessions in
three windows: the last ``window`` hands before the switch, the first ``window`` after it, and the last
``window`` of the session), ``switch-curve.csv`` (the rolling mean over ``window`` hands of the
session-mean result) and ``switch.png`` (those curves, the switch marked).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from pokerlab.agents import make_agent
from pokerlab.arena.dealing import Dealer
from pokerlab.arena.evidence import write_csv
from pokerlab.arena.stats import half_width95
from pokerlab.errors import ConfigError
from pokerlab.programs.td.agent import checkpoint_path, load_td_agent
from pokerlab.programs.td.studies.runs import fixed_opponents, tell_identity
from pokerlab.programs.td.training import play_series

MODES = ("learning", "model", "frozen")
SWITCH_HEADER = ["run", "mode", "window", "first_hand", "sb_per_hand", "ci95_low", "ci95_high", "sessions"]


def session_seed(seed: int, session: int) -> int:
    """The deal seed of one session (the same for every player and mode)."""
    return int(np.random.SeedSequence([seed, session]).generate_state(1, np.uint64)[0])


def play_sessions(
    run: str | Path,
    opponent: str,
    hands: int,
    sessions: int,
    seed: int,
    mode: str,
    identity: str = "",
    progress: Callable[[str], None] | None = None,
) -> np.ndarray:
    """The player of `run`'s net chips per hand against `opponent` (an agent name) in `mode` (`MODES`), one
    row per session, told the identity of `identity` (a training opponent of the run) where it has
    identity inputs."""
    if mode not in MODES:
        raise ConfigError(f"unknown mode {mode!r}; modes: {', '.join(MODES)}")
    learning = mode == "learning"
    nets = np.zeros((sessions, hands))
    fixed = fixed_opponents(Path(run))
    for s in range(sessions):
        rng = np.random.default_rng([seed, s, 1])
        me, other = load_td_agent(str(run)), make_agent(opponent)
        me.freeze(not learning)
        me.models_learn_frozen = mode == "model"
        tell_identity(me, fixed, identity)
        for agent in (me, other):
            agent.seed(np.random.default_rng(rng.integers(2**63)))
        dealer = Dealer(session_seed(seed, s))
        nets[s] = play_series(me, other, me.config.game(), dealer, hands, me.learner if learning else None)
        if progress:
            mean = nets[s].mean() / me.config.game().small_bet
            progress(f"{Path(run).name} {mode}: session {s + 1}/{sessions}, {mean:+.3f} sb/hand")
    return nets


def window_rows(label: str, mode: str, sb: np.ndarray, after: int, window: int) -> list[list]:
    """The three windows' rows of `switch.csv` from per-hand results in small bets (sessions x hands)."""
    rows = []
    hands = sb.shape[1]
    for name, first in (("before", after - window), ("after", after), ("end", hands - window)):
        per_session = sb[:, first : first + window].mean(axis=1)
        mean = float(per_session.mean())
        half = half_width95(per_session)
        figures = (round(v, 6) for v in (mean, mean - half, mean + half))
        rows.append([label, mode, name, first + 1, *figures, len(per_session)])
    return rows


def rolling(sb: np.ndarray, window: int) -> np.ndarray:
    """The mean over sessions of each hand, averaged over the `window` hands ending at each hand."""
    return np.convolve(sb.mean(axis=0), np.ones(window) / window, mode="valid")


def switch_study(
    runs: list[str],
    out: str | Path,
    *,
    first: str = "tight-passive",
    second: str = "loose-aggressive",
    after: int = 5000,
    sessions: int = 4,
    window: int = 500,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> list[list]:
    """Play every run in each mode against the switching opponent; write the files above; returns the
    rows of switch.csv. The CSV files are rewritten as each run and mode ends, so what was played before
    a failure or an interruption stays readable."""
    if not runs:
        raise ConfigError("give at least one run folder of `pokerlab train td`")
    if not 1 <= window <= after:
        raise ConfigError(f"the window must be 1 to {after} hands (those before the switch), got {window}")
    if sessions < 1:
        raise ConfigError(f"sessions must be >= 1, got {sessions}")
    for run in runs:  # one clear error for a missing player, before any play
        fixed_opponents(Path(run))
        checkpoint_path(run)
    opponent = f"switch:{first}/{second}/{after}"
    make_agent(opponent)  # unknown styles fail here
    rows, curves, out = [], {}, Path(out)
    for run in runs:
        label = Path(run).name
        player = load_td_agent(str(run))
        sb_size, modelled = player.config.game().small_bet, player.learner.opponent_models is not None
        for mode in (m for m in MODES if modelled or m != "model"):
            nets = play_sessions(run, opponent, 2 * after, sessions, seed, mode, first, progress)
            sb = nets / sb_size
            rows += window_rows(label, mode, sb, after, window)
            curves[(label, mode)] = rolling(sb, window)
            write_tables(out, rows, curves, window)
    plot_switch(curves, after, window, sessions, f"{first} -> {second}", seed, out / "switch.png")
    return rows


def write_tables(out: Path, rows: list[list], curves: dict, window: int) -> None:
    """switch.csv and switch-curve.csv (every fifth of a window) of what was played so far."""
    write_csv(out / "switch.csv", SWITCH_HEADER, rows)
    curve_rows = [
        [label, mode, window + i, round(float(v), 6)]
        for (label, mode), curve in curves.items()
        for i, v in enumerate(curve)
        if (window + i) % max(1, window // 5) == 0
    ]
    write_csv(out / "switch-curve.csv", ["run", "mode", "hand", "rolling_sb_per_hand"], curve_rows)


def plot_switch(curves: dict, after: int, window: int, sessions: int, what: str, seed: int, path: Path):
    """Rolling win rate per run and mode around the switch."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.2))
    for (label, mode), curve in curves.items():
        ax.plot(
            np.arange(window, window + len(curve)),
            curve,
            lw=1.2,
            ls={"learning": "-", "model": "--", "frozen": ":"}[mode],
            label=f"{label}, {mode}",
        )
    ax.axvline(after, color="black", lw=0.8)
    ax.axhline(0, color="grey", lw=0.6)
    ax.set_xlabel(f"hand of the session (the opponent switches at {after})")
    ax.set_ylabel(f"sb/hand, rolling mean of {window} hands")
    ax.set_title(
        f"TD-Hold'em vs a switching opponent ({what}; mean of {sessions} sessions, seed {seed})", fontsize=9
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(fig)
