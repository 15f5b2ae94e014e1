"""Training TD-Hold'em (LEARNING-SPEC §A.8-A.9): the opponent schedule, the heads-up hand loop, duplicate
evaluation of frozen copies, checkpoints that resume to the same result, and learning curves.

A run writes into its folder: ``config.json`` (the player's config, the schedule, the seed),
``checkpoint.npz`` (the player, usable as "td:DIR/checkpoint"), ``snapshots/hands-N.npz`` (each frozen stage-2
snapshot, for the ladder of `pokerlab.programs.td.studies.ladder`), ``players/hands-N.npz`` (the player at
each of the schedule's ``save_at`` hands, for a learning curve evaluated after training on as many deals as
wanted, `pokerlab.programs.td.studies.curve`), ``averaged.npz`` (with the schedule's ``polyak``: the player
with the running average of the weights, "td:DIR/averaged"), ``trainer.pkl`` (everything needed to resume: the
learner, the opponents with their memories and generators, the trainer's generator), ``training.csv`` (one row
per block of hands: the learner's mean result, α, ε), ``curve.csv`` (the evaluations before training and every
``eval_every`` hands), ``curves.png`` and ``final.json`` (the evaluation at the end of the run, with
``polyak`` also the averaged player's as ``averaged``).

Schedule (§A.8.3) [OUR CHOICE throughout]: stage 1 draws each hand's opponent uniformly from the fixed
opponents (the name "self" is the live network in both seats, i.e. self-play); from ``stage2_after`` hands a
frozen snapshot is taken every ``snapshot_every`` hands, and each hand's opponent is the live network
(``live_share``), a uniformly drawn snapshot (``snapshot_share``) or a fixed opponent (the rest). With
``opponent_id_input`` the player gets a one-hot of the opponent's index among the fixed opponents, and one
more slot for itself and its snapshots. The learner sits in position ``hand % 2``.
"""

from __future__ import annotations

import json
import pickle
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from pokerlab.agents import make_agent
from pokerlab.agents.base import Agent
from pokerlab.arena.dealing import Dealer
from pokerlab.arena.evidence import log_hands_axis, write_csv
from pokerlab.arena.match import duplicate_tournament
from pokerlab.arena.table import Table, strict_table
from pokerlab.checks import check_fields
from pokerlab.engine import GameConfig, HandState
from pokerlab.errors import ConfigError, CorruptData
from pokerlab.programs.td.agent import TDAgent, TDLearner
from pokerlab.programs.td.config import TDConfig, preset

SELF = "self"
#: Best response to always-call, sb/hand (LEARNING-SPEC §A.9 item 3): the reference line of the curves.
BEST_RESPONSE_VS_CALL = 1.25


@dataclass(frozen=True)
class Schedule:
    """Whom the player meets in training and how it is evaluated (§A.8.3, §A.9).

    ``opponents``: registered agent names, or "self"; ``opponent_id_input``: the identity one-hot;
    ``stage2_after`` (0: never), ``snapshot_every``, ``live_share``, ``snapshot_share``: stage 2;
    ``eval_every`` hands (0: only at the end), ``eval_deals`` duplicate deals per opponent in
    ``eval_opponents`` with ``eval_seed``; ``checkpoint_every`` hands; ``block`` hands per training.csv row;
    ``save_at``: the training hands (0: before training) at which the player is saved to
    ``players/hands-N.npz`` (for a log-scale curve of §A.9 item 2; nothing else changes, the training
    draws no differently); ``polyak`` (0: off): the time constant, in hands, of an exponential moving
    average of the weights, θ̄ += (θ − θ̄) / polyak after every hand, played by a second, averaged player
    [OUR CHOICE, a repair of the stage-2 drift the ladder shows, §A.9 item 5; Polyak & Juditsky 1992,
    Izmailov et al. 2018 (SWA)]; like ``save_at`` it leaves the training as it is.
    """

    opponents: tuple[str, ...] = (SELF,)
    opponent_id_input: bool = False
    stage2_after: int = 0
    snapshot_every: int = 100_000
    live_share: float = 0.25
    snapshot_share: float = 0.5
    eval_every: int = 0
    eval_deals: int = 1000
    eval_opponents: tuple[str, ...] = ("call", "raise", "random")
    eval_seed: int = 12345
    checkpoint_every: int = 10_000
    block: int = 1000
    save_at: tuple[int, ...] = ()
    polyak: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "opponents", tuple(self.opponents))
        object.__setattr__(self, "eval_opponents", tuple(self.eval_opponents))
        if not isinstance(self.save_at, list | tuple) or not all(
            isinstance(h, int) and not isinstance(h, bool) and h >= 0 for h in self.save_at
        ):
            raise ConfigError(
                f"schedule save_at must be a list of training hands (integers >= 0), got {self.save_at!r}"
            )
        object.__setattr__(self, "save_at", tuple(sorted(set(self.save_at))))
        if not self.opponents:
            raise ConfigError("schedule opponents: give at least one agent name (or 'self')")
        for name in (*self.opponents, *self.eval_opponents):
            if name != SELF:
                make_agent(name)  # one clear error with the known names
        at_least = dict.fromkeys(("stage2_after", "eval_every", "eval_seed", "polyak"), 0)
        at_least.update(dict.fromkeys(("snapshot_every", "eval_deals", "checkpoint_every", "block"), 1))
        check_fields(self, "Schedule", at_least=at_least)
        shares = (self.live_share, self.snapshot_share)
        if not all(isinstance(s, int | float) and 0 <= s <= 1 for s in shares) or sum(shares) > 1:
            raise ConfigError(
                f"schedule live_share and snapshot_share must be in [0, 1] with a sum <= 1, got {shares}"
            )

    def to_json(self) -> dict:
        data = asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}


#: The schedule of each preset of `pokerlab.programs.td.config.PRESETS`.
SCHEDULES: dict[str, Schedule] = {
    "seed-literal": Schedule(),
    "faithful": Schedule(),
    "repaired": Schedule(
        opponents=(
            "call",
            "raise",
            "random",
            "loose-passive",
            "loose-aggressive",
            "tight-passive",
            "tight-aggressive",
        ),
        opponent_id_input=True,
        stage2_after=1_000_000,
        eval_every=100_000,
    ),
}


def run_config(name: str | None = None, path: str | Path | None = None) -> tuple[TDConfig, Schedule]:
    """(player config, schedule) of a preset, or of a JSON file: {"preset": NAME, TDConfig fields...,
    "schedule": {Schedule fields...}}, the fields overriding the preset's (default "faithful")."""
    if path is None:
        name = name or "faithful"
        return preset(name), SCHEDULES[name]
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"no training config file {str(path)!r}") from None
    except (OSError, ValueError) as exc:
        raise ConfigError(f"training config {path} is not JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("schedule", {}), dict):
        raise ConfigError(f'training config {path}: a JSON object, with "schedule" an object if given')
    base = data.pop("preset", name or "faithful")
    config = preset(base)
    schedule_fields = data.pop("schedule", {})
    known = set(Schedule.__dataclass_fields__)
    unknown = sorted(set(schedule_fields) - known)
    if unknown:
        raise ConfigError(
            f"unknown schedule field(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    config = TDConfig.from_json({**config.to_json(), **data})
    return config, Schedule(**{**SCHEDULES[base].to_json(), **schedule_fields})


def play_hand(agents: list[Agent], state: HandState, hand: int, table: Table | None = None) -> HandState:
    """Play `state` out with ``agents[position]`` as hand number `hand` at a `strict_table` (`table`, or a
    new one): the arena's one hand loop, in the caller's process, every error of an agent raised as it is
    (a learner's bug must not pass as a fault), the agents free to change from hand to hand."""
    table = table or strict_table(len(agents), state.config)
    table.seat_agents(agents)
    table.hand_number = hand
    return table.play_hand(state, range(len(agents)))


def play_series(
    me: Agent,
    other: Agent,
    game: GameConfig,
    dealer: Dealer,
    hands: int,
    learner: TDLearner | None = None,
    report: Callable[[int, np.ndarray], None] | None = None,
) -> np.ndarray:
    """`me`'s net chips in each of `hands` heads-up hands against `other` on deals 0, 1, ... of `dealer`,
    `me` first to act pre-flop in the even hands (`play_hand`). A `learner`'s hand count, which sets its
    step size and exploration, advances with every hand; `report(done, nets)` is called every tenth."""
    nets = np.zeros(hands)
    tenth = max(1, hands // 10)
    table = strict_table(2, game)
    for hand in range(hands):
        position = hand % 2
        cards = dealer.cards(hand, 2)
        agents = [other, me] if position else [me, other]
        nets[hand] = play_hand(agents, HandState(game, cards[:4], cards[4:9]), hand, table).nets[position]
        if learner is not None:
            learner.hands += 1
        if report is not None and (hand + 1) % tenth == 0:
            report(hand + 1, nets[: hand + 1])
    return nets


@dataclass
class Trainer:
    """A training run's whole state (what `trainer.pkl` holds)."""

    config: TDConfig
    schedule: Schedule
    seed: int
    learner: TDLearner
    rng: np.random.Generator
    live: list[TDAgent]
    opponents: dict[str, Agent]
    snapshots: list[TDAgent] = field(default_factory=list)
    done: int = 0
    block_nets: list[int] = field(default_factory=list)
    training_rows: list[list] = field(default_factory=list)
    curve_rows: list[list] = field(default_factory=list)
    averaged: list[np.ndarray] | None = None  # θ̄ of each network with the schedule's polyak

    @classmethod
    def start(cls, config: TDConfig, schedule: Schedule, seed: int) -> Trainer:
        """A fresh run: weights and every opponent's generator drawn from `seed`."""
        fixed = [n for n in schedule.opponents if n != SELF]
        if schedule.opponent_id_input:
            config = replace(config, opponent_ids=len(fixed) + 1)
        elif config.opponent_networks:
            raise ConfigError(
                "td config opponent_networks keeps one network per opponent identity: it needs the "
                "schedule's opponent_id_input"
            )
        rng = np.random.default_rng(seed)
        learner = TDLearner(config, np.random.default_rng(rng.integers(2**63)))
        live = [TDAgent(learner=learner), TDAgent(learner=learner)]
        opponents = {name: make_agent(name) for name in fixed}
        for agent in [*live, *opponents.values()]:
            agent.seed(np.random.default_rng(rng.integers(2**63)))
        averaged = [n.theta.copy() for n in learner.networks] if schedule.polyak else None
        return cls(config, schedule, seed, learner, rng, live, opponents, averaged=averaged)

    def opponent_id(self, name: str) -> int | None:
        """The identity input of an opponent (None without identity inputs)."""
        if not self.config.opponent_ids:
            return None
        fixed = [n for n in self.schedule.opponents if n != SELF]
        return fixed.index(name) if name in fixed else len(fixed)

    def draw_opponent(self) -> tuple[str, Agent]:
        """This hand's opponent (§A.8.3): a fixed one in stage 1; live, snapshot or fixed in stage 2."""
        s = self.schedule
        names = list(s.opponents)
        if s.stage2_after and self.done >= s.stage2_after:
            u = self.rng.random()
            if u < s.live_share:
                return SELF, self.live[1]
            if u < s.live_share + s.snapshot_share and self.snapshots:
                return SELF, self.snapshots[int(self.rng.integers(len(self.snapshots)))]
            names = [n for n in names if n != SELF] or [SELF]
        name = names[int(self.rng.integers(len(names)))] if len(names) > 1 else names[0]
        return name, self.live[1] if name == SELF else self.opponents[name]

    def train_hand(self, dealer: Dealer, game: GameConfig) -> int:
        """One training hand; returns the learner's net chips."""
        s = self.schedule
        self.learner.record_average = not s.stage2_after or self.done >= s.stage2_after
        name, opponent = self.draw_opponent()
        me = self.live[0]
        me.opponent_id = self.opponent_id(name)
        if opponent is self.live[1]:
            opponent.opponent_id = me.opponent_id
        position = self.done % 2
        agents = [opponent, me] if position else [me, opponent]
        cards = dealer.cards(self.done, 2)
        table = self.__dict__.get("_table")
        if table is None:
            table = self._table = strict_table(2, game)
        state = play_hand(agents, HandState(game, cards[:4], cards[4:9]), self.done, table)
        average = self.learner.average
        if average is not None and self.learner.record_average:  # stage 3: imitate the greedy decisions
            average.train(self.learner.config.average_steps, self.rng)
        self.done += 1
        self.learner.hands += 1
        if self.averaged is not None:
            for mean, network in zip(self.averaged, self.learner.networks, strict=True):
                mean += (network.theta - mean) / s.polyak
        if (
            s.stage2_after
            and self.done >= s.stage2_after
            and (self.done - s.stage2_after) % s.snapshot_every == 0
        ):
            self.snapshots.append(frozen_copy(self.learner))
        return state.nets[position]

    def __getstate__(self) -> dict:
        """What trainer.pkl holds: the run's state, without the table its hands are played at (made again
        when needed)."""
        return {k: v for k, v in self.__dict__.items() if k != "_table"}

    def averaged_player(self) -> TDAgent:
        """A frozen player with the averaged weights θ̄ (and the rest of what the learner knows now)."""
        if self.averaged is None:
            raise ConfigError("this run keeps no averaged weights: set the schedule's polyak")
        return frozen_copy(self.learner, self.averaged)

    def evaluate(self, game: GameConfig, averaged: bool = False) -> list[list]:
        """Duplicate matches of a frozen copy (`averaged`: of the averaged player) against each evaluation
        opponent: rows of (hands, opponent, sb/hand, CI low, CI high)."""
        rows = []
        for name in self.schedule.eval_opponents:
            player = self.averaged_player() if averaged else frozen_copy(self.learner)
            player.opponent_id = self.opponent_id(name) if name in self.schedule.opponents else None
            result = duplicate_tournament(
                [player, name], self.schedule.eval_deals, game, self.schedule.eval_seed
            )
            r = result.results[0]
            rows.append([self.done, name, round(r.sb_per_hand, 6), round(r.ci95[0], 6), round(r.ci95[1], 6)])
        return rows


def frozen_copy(learner: TDLearner, weights: list[np.ndarray] | None = None) -> TDAgent:
    """A frozen player with a copy of what `learner` knows now; with `weights` (one vector per network,
    like each network's theta) in place of its networks' weights."""
    state = learner.state()
    if weights is not None:
        state["theta"] = np.stack(weights).reshape(state["theta"].shape)
    agent = TDAgent(learner=TDLearner.from_state(state))
    agent.freeze()
    return agent


TRAINING_HEADER = ["hands", "sb_per_hand", "alpha", "epsilon"]
CURVE_HEADER = ["hands", "opponent", "sb_per_hand", "ci95_low", "ci95_high"]


def plot_curves(trainer: Trainer, path: Path, small_bet: int) -> None:
    """Learning curves: duplicate sb/hand with 95 % CIs per evaluation opponent against training hands (log
    scale from the first evaluation on), the break-even line and the best response to always-call (§A.9
    items 2-3); below, the training result."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(8, 7), sharex=True, gridspec_kw={"height_ratios": [2, 1]}
    )
    for name in trainer.schedule.eval_opponents:
        rows = [r for r in trainer.curve_rows if r[1] == name]
        if rows:
            x = np.array([r[0] for r in rows])
            y = np.array([r[2] for r in rows])
            err = np.array([[r[2] - r[3] for r in rows], [r[4] - r[2] for r in rows]])
            top.errorbar(x, y, yerr=err, marker="o", capsize=3, label=f"vs {name}")
    top.axhline(0, color="grey", lw=0.8)
    if "call" in trainer.schedule.eval_opponents:
        top.axhline(BEST_RESPONSE_VS_CALL, color="grey", ls="--", lw=0.8, label="best response to call")
    top.set_ylabel("sb/hand (duplicate, 95% CI)")
    top.legend(fontsize=8)
    top.set_title(f"TD-Hold'em training, seed {trainer.seed}")
    if trainer.training_rows:
        rows = np.array([[r[0], r[1]] for r in trainer.training_rows], dtype=float)
        bottom.plot(rows[:, 0], rows[:, 1], lw=0.8)
    bottom.axhline(0, color="grey", lw=0.8)
    hands = [r[0] for r in trainer.curve_rows]
    logged = log_hands_axis(bottom, hands)
    bottom.set_xlabel("training hands" + (" (log scale from the first evaluation)" if logged else ""))
    bottom.set_ylabel(f"training sb/hand\n(blocks of {trainer.schedule.block})")
    fig.tight_layout()
    fig.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(fig)


def _meta(config: TDConfig, schedule: Schedule, seed: int) -> dict:
    return {"td_config": config.to_json(), "schedule": schedule.to_json(), "seed": seed}


def train(
    config: TDConfig,
    schedule: Schedule,
    hands: int,
    seed: int,
    out: str | Path,
    *,
    resume: bool = False,
    game: GameConfig | None = None,
    progress: Callable[[str], None] | None = None,
) -> Trainer:
    """Train for `hands` hands into folder `out` (see the module doc); with `resume`, continue the run there
    from its last checkpoint (same config, schedule and seed, else `ConfigError`) up to `hands`, which gives
    the same files as one uninterrupted run."""
    if not isinstance(hands, int) or hands < 1:
        raise ConfigError(f"training hands must be an integer >= 1, got {hands!r}")
    game = game or config.game()
    out = Path(out)
    state_file = out / "trainer.pkl"
    if resume and state_file.is_file():
        try:
            trainer: Trainer = pickle.loads(state_file.read_bytes())
        except (pickle.UnpicklingError, ImportError, AttributeError, EOFError, TypeError) as exc:
            raise CorruptData(
                f"{state_file} cannot be resumed ({exc}): written by another pokerlab (before the programs "
                "moved to pokerlab.programs, say) or damaged; train the run again"
            ) from None
        asked = Trainer.start(config, schedule, seed)
        if _meta(trainer.config, trainer.schedule, trainer.seed) != _meta(asked.config, schedule, seed):
            raise ConfigError(
                f"{out} holds a run with another config, schedule or seed; resume it with those"
            )
    else:
        if (out / "config.json").exists():
            raise ConfigError(
                f"{out} already holds a training run: continue it with --resume (resume=True), "
                "or use another folder"
            )
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"cannot create the results folder {str(out)!r}: {exc.strerror}") from None
        trainer = Trainer.start(config, schedule, seed)
        (out / "config.json").write_text(json.dumps(_meta(trainer.config, schedule, seed), indent=1) + "\n")
    dealer = Dealer(seed)
    began, started_at = time.perf_counter(), trainer.done

    def checkpoint() -> None:
        trainer.live[0].save(out / "checkpoint.npz")
        if trainer.averaged is not None:
            trainer.averaged_player().save(out / "averaged.npz")
        write_csv(out / "training.csv", TRAINING_HEADER, trainer.training_rows)
        write_csv(out / "curve.csv", CURVE_HEADER, trainer.curve_rows)
        plot_curves(trainer, out / "curves.png", game.small_bet)
        state_file.write_bytes(pickle.dumps(trainer))

    s = trainer.schedule

    def report(rows: list[list], when: str) -> None:
        if progress:
            scores = ", ".join(f"{r[1]} {r[2]:+.3f} [{r[3]:+.3f}, {r[4]:+.3f}]" for r in rows)
            progress(f"evaluation {when} ({s.eval_deals} duplicate deals each, sb/hand): {scores}")

    def save_player() -> None:
        if trainer.done in s.save_at:
            (out / "players").mkdir(exist_ok=True)
            trainer.live[0].save(out / "players" / f"hands-{trainer.done:09d}.npz")

    if trainer.done == 0 and not trainer.curve_rows:
        save_player()
        trainer.curve_rows += trainer.evaluate(game)
        report(trainer.curve_rows, "before training")
    while trainer.done < hands:
        snapshots = len(trainer.snapshots)
        trainer.block_nets.append(trainer.train_hand(dealer, game))
        done = trainer.done
        if len(trainer.snapshots) > snapshots:
            (out / "snapshots").mkdir(exist_ok=True)
            trainer.snapshots[-1].save(out / "snapshots" / f"hands-{done:09d}.npz")
        save_player()
        if done % s.block == 0:
            mean = float(np.mean(trainer.block_nets)) / game.small_bet
            trainer.training_rows.append(
                [done, round(mean, 6), round(trainer.learner.alpha, 8), round(trainer.learner.epsilon, 6)]
            )
            trainer.block_nets = []
            if progress:
                rate = (done - started_at) / max(time.perf_counter() - began, 1e-9)
                progress(
                    f"hands {done}/{hands}  {rate:.0f} hands/s  training win rate {mean:+.3f} sb/hand "
                    f"(last {s.block})  alpha {trainer.learner.alpha:.4g}  "
                    f"epsilon {trainer.learner.epsilon:.3f}"
                )
        if s.eval_every and done % s.eval_every == 0:
            trainer.curve_rows += trainer.evaluate(game)
            report(trainer.curve_rows[-len(s.eval_opponents) :], f"at {done} hands")
        if done % s.checkpoint_every == 0 or done == hands:
            checkpoint()
    final = [r for r in trainer.curve_rows if r[0] == trainer.done]
    if not final:  # no evaluation fell on the last hand: the curve ends with the trained player's
        final = trainer.evaluate(game)
        trainer.curve_rows += final
        report(final, f"at the end ({trainer.done} hands)")
        checkpoint()  # curve.csv and curves.png with it
    summary = {
        "hands": trainer.done,
        "seed": seed,
        "results": [dict(zip(CURVE_HEADER, r, strict=True)) for r in final],
    }
    if trainer.averaged is not None:
        averaged = trainer.evaluate(game, averaged=True)
        report(averaged, "of the averaged player")
        summary["averaged"] = [dict(zip(CURVE_HEADER, r, strict=True)) for r in averaged]
    (out / "final.json").write_text(json.dumps(summary, indent=1) + "\n")
    return trainer
