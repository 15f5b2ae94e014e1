"""The TD trainer: resuming gives the same files as one uninterrupted run, the opponent schedule of §A.8.3,
the seed's failure (a frozen strategy) in miniature, and the `pokerlab train td` command."""

import json
from dataclasses import replace

import numpy as np
import pytest

from pokerlab.actions import CALL
from pokerlab.agents import Agent, make_agent
from pokerlab.arena.dealing import Dealer
from pokerlab.engine import GameConfig, HandState
from pokerlab.errors import ConfigError, CorruptData, IllegalAction
from pokerlab.interfaces.cli import main
from pokerlab.programs.td.agent import TDAgent
from pokerlab.programs.td.config import PRESETS
from pokerlab.programs.td.training import SELF, Schedule, Trainer, play_hand, play_series, run_config, train

SCHEDULE = Schedule(
    opponents=("call", "random", SELF),
    opponent_id_input=True,
    stage2_after=100,
    snapshot_every=50,
    eval_every=100,
    eval_deals=15,
    eval_opponents=("call", "raise"),
    checkpoint_every=100,
    block=50,
)
FILES = ("training.csv", "curve.csv", "final.json", "config.json")


class Killed(Exception):
    pass


def test_resume_is_identical_to_an_uninterrupted_run(tmp_path):
    config = replace(PRESETS["repaired"], average_policy=True, average_capacity=50)  # every part in play
    whole = train(config, SCHEDULE, 300, 7, tmp_path / "whole")

    def kill_at_250(line):
        if line.startswith("hands 250/"):
            raise Killed

    with pytest.raises(Killed):  # killed after the checkpoint at 200
        train(config, SCHEDULE, 300, 7, tmp_path / "killed", progress=kill_at_250)
    resumed = train(config, SCHEDULE, 300, 7, tmp_path / "killed", resume=True)
    for name in FILES:
        assert (tmp_path / "whole" / name).read_bytes() == (tmp_path / "killed" / name).read_bytes(), name
    assert np.array_equal(whole.learner.network.theta, resumed.learner.network.theta)
    assert len(whole.snapshots) == len(resumed.snapshots) == 5  # at 100 (stage 2 begins), 150, ..., 300
    saved = [TDAgent(), TDAgent()]
    for agent, run in zip(saved, ("whole", "killed"), strict=True):
        agent.load(tmp_path / run / "checkpoint.npz")
    assert np.array_equal(saved[0].learner.network.theta, saved[1].learner.network.theta)
    assert saved[0].learner.hands == 300
    assert np.array_equal(saved[0].learner.average.network.theta, resumed.learner.average.network.theta)
    assert whole.learner.average.seen > 50  # it recorded the stage-2 decisions
    untrained = Trainer.start(config, SCHEDULE, 7).learner.average.network.theta
    assert not np.array_equal(whole.learner.average.network.theta, untrained)  # and learned from them
    # a shorter run resumed to a longer one equals the longer one, too
    train(config, SCHEDULE, 200, 7, tmp_path / "short")
    train(config, SCHEDULE, 300, 7, tmp_path / "short", resume=True)
    assert (tmp_path / "short" / "training.csv").read_bytes() == (
        tmp_path / "whole" / "training.csv"
    ).read_bytes()
    with pytest.raises(ConfigError, match="another config, schedule or seed"):
        train(config, SCHEDULE, 400, 8, tmp_path / "whole", resume=True)


@pytest.mark.parametrize(
    "state",
    [b"cpokerlab.learning.td\nTrainer\n)\x81.", b"not a pickle", b""],
    ids=["old-layout", "junk", "empty"],
)
def test_a_trainer_state_that_cannot_be_read_is_one_line(tmp_path, capsys, state):
    """A trainer.pkl of the layout before pokerlab.programs (or a damaged one) is refused in one line."""
    (tmp_path / "trainer.pkl").write_bytes(state)
    with pytest.raises(CorruptData, match="trainer.pkl cannot be resumed .*train the run again"):
        train(PRESETS["repaired"], SCHEDULE, 100, 7, tmp_path, resume=True)
    args = ["train", "td", "--hands", "100", "--out", str(tmp_path), "--resume", "--no-progress"]
    assert main(args) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_per_opponent_networks_train_resume_and_snapshot(tmp_path):
    config = replace(PRESETS["repaired"], opponent_networks=True)
    whole = train(config, SCHEDULE, 300, 7, tmp_path / "whole")
    assert len(whole.learner.networks) == 3  # call, random, and the self-play slot
    untrained = Trainer.start(config, SCHEDULE, 7).learner.networks
    assert all(
        not np.array_equal(a.theta, b.theta) for a, b in zip(whole.learner.networks, untrained, strict=True)
    )
    assert len(whole.snapshots[0].learner.networks) == 3
    train(config, SCHEDULE, 200, 7, tmp_path / "short")
    resumed = train(config, SCHEDULE, 300, 7, tmp_path / "short", resume=True)
    for name in FILES:
        assert (tmp_path / "whole" / name).read_bytes() == (tmp_path / "short" / name).read_bytes(), name
    for a, b in zip(whole.learner.networks, resumed.learner.networks, strict=True):
        assert np.array_equal(a.theta, b.theta)
    with pytest.raises(ConfigError, match="opponent_networks .* needs the schedule's opponent_id_input"):
        Trainer.start(config, replace(SCHEDULE, opponent_id_input=False), 7)


def test_schedule_identity_inputs_and_stage_two_shares():
    trainer = Trainer.start(PRESETS["repaired"], SCHEDULE, 1)
    assert trainer.config.opponent_ids == 3 and trainer.config.input_size == 123
    assert [trainer.opponent_id(n) for n in ("call", "random", SELF)] == [0, 1, 2]
    stage1 = [trainer.draw_opponent()[0] for _ in range(600)]
    assert set(stage1) == {"call", "random", SELF}
    trainer.done = 100
    trainer.snapshots = [TDAgent(), TDAgent()]
    draws = [trainer.draw_opponent() for _ in range(4000)]
    live = sum(a is trainer.live[1] for _, a in draws) / 4000
    snap = sum(any(a is s for s in trainer.snapshots) for _, a in draws) / 4000
    fixed = sum(n in ("call", "random") for n, _ in draws) / 4000
    assert live == pytest.approx(0.25, abs=0.03) and snap == pytest.approx(0.5, abs=0.03)
    assert fixed == pytest.approx(0.25, abs=0.03)


def test_seed_literal_self_play_does_not_change_its_strategy(tmp_path):
    """§A.9 item 1 in miniature: after its first few hundred hands the seed-literal learner's evaluation
    results no longer change (its greedy strategy froze, as the seed reported). The mechanism here: the
    small blind's fold (class value −1, "lose small") came to beat every after-state the network values, so
    each hand ends at the first decision, before any after-state is visited, and nothing is learned again."""
    schedule = Schedule(eval_every=600, eval_deals=60, checkpoint_every=1200, block=100)
    trainer = train(PRESETS["seed-literal"], schedule, 600, 1, tmp_path / "seed")
    weights = trainer.learner.network.theta.copy()
    trainer = train(PRESETS["seed-literal"], schedule, 1200, 1, tmp_path / "seed", resume=True)
    rows = trainer.curve_rows
    by_opponent = {name: [r[2:] for r in rows if r[1] == name] for name in schedule.eval_opponents}
    assert all(len(v) == 3 and v[1] == v[2] for v in by_opponent.values())  # 600 hands = 1200 hands
    assert any(v[0] != v[1] for v in by_opponent.values())  # but not the untrained network
    assert by_opponent["raise"][1] == [-0.75, -0.75, -0.75]  # it folds every hand to a raise
    assert np.array_equal(weights, trainer.learner.network.theta)
    assert not np.array_equal(
        weights, Trainer.start(PRESETS["seed-literal"], schedule, 1).learner.network.theta
    )


def test_run_config_files(tmp_path):
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"preset": "repaired", "lam": 1.0, "schedule": {"eval_deals": 7}}))
    config, schedule = run_config(path=path)
    assert config == replace(PRESETS["repaired"], lam=1.0) and schedule.eval_deals == 7
    path.write_text(json.dumps({"lamda": 1.0}))
    with pytest.raises(ConfigError, match="unknown td config field"):
        run_config(path=path)
    path.write_text(json.dumps({"schedule": {"opponents": ["nobody"]}}))
    with pytest.raises(ConfigError, match="unknown agent 'nobody'"):
        run_config(path=path)


def test_cli_train_td(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["train", "td", "--preset", "faithful", "--hands", "40", "--seed", "1", "--out", str(out)]
    assert main([*args, "--eval-deals", "5", "--json"]) == 0
    final = json.loads(capsys.readouterr().out)
    assert final["hands"] == 40 and [r["opponent"] for r in final["results"]] == ["call", "raise", "random"]
    assert (out / "curves.png").stat().st_size > 1000
    assert main(args) == 2
    assert "already holds a training run" in capsys.readouterr().err
    assert (
        main(["train", "td", "--preset", "faithful", "--config", "x.json", "--hands", "5", "--out", "y"]) == 2
    )
    assert "not both" in capsys.readouterr().err
    assert main(["train", "td", "--hands", "0", "--out", str(tmp_path / "z")]) == 2
    assert main(["match", "--agents", f"td:{out}/checkpoint,call", "--hands", "10", "--json"]) == 0
    summary = tmp_path / "summary"
    assert main(["train", "summary", str(out), "--out", str(summary)]) == 0
    rows = (summary / "summary.csv").read_text().splitlines()
    assert len(rows) == 4 and rows[1].startswith("run,1,40,call,")
    assert (summary / "curves.png").is_file() and (summary / "run-curve.csv").is_file()
    assert main(["train", "summary", str(tmp_path / "z"), "--out", str(summary)]) == 2


def test_train_td_curve_ends_with_the_trained_player_and_labels_its_axis_truly(tmp_path, monkeypatch):
    """A run shorter than --eval-every: the curve has its evaluation at 0 and one at the end, and the x axis
    says "log scale" only when it is one."""
    import matplotlib.figure

    drawn = []

    def savefig(fig, *args, **kwargs):
        bottom = fig.axes[-1]
        drawn.append((bottom.get_xlabel(), bottom.get_xscale()))

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", savefig)
    out = tmp_path / "run"
    args = ["train", "td", "--preset", "faithful", "--hands", "40", "--seed", "1", "--out", str(out)]
    assert main([*args, "--eval-deals", "5", "--eval-every", "100000", "--json"]) == 0
    hands = sorted({int(row.split(",")[0]) for row in (out / "curve.csv").read_text().splitlines()[1:]})
    assert hands == [0, 40]
    assert drawn[-1] == ("training hands (log scale from the first evaluation)", "symlog")
    assert all(scale == "symlog" or "log scale" not in label for label, scale in drawn), drawn


class _Buggy(Agent):
    """A learner with a bug in its hook (``where="observe"``) or its act, or one that answers 7."""

    def __init__(self, where):
        super().__init__()
        self.where = where

    def act(self, view):
        if self.where == "act":
            raise ZeroDivisionError("a learner's bug")
        return 7 if self.where == "illegal" else CALL

    def observe(self, record):
        if self.where == "observe":
            raise ZeroDivisionError("a learner's bug")


@pytest.mark.parametrize(
    ("where", "error"),
    [("act", ZeroDivisionError), ("observe", ZeroDivisionError), ("illegal", IllegalAction)],
)
def test_the_trainers_table_raises_a_learners_bug_as_it_is(where, error):
    """The trainer plays through the arena's table (strict): a learner's error is raised as it is, never
    checked or folded for as a fault, and an illegal answer stops it."""
    game = GameConfig()
    with pytest.raises(error):
        play_series(_Buggy(where), make_agent("call"), game, Dealer(1), 4)
    cards = Dealer(1).cards(0, 2)
    with pytest.raises(error):
        play_hand([make_agent("call"), _Buggy(where)], HandState(game, cards[:4], cards[4:9]), 0)


def test_the_trainers_table_plays_the_agents_it_is_given_each_hand():
    """Agents change from hand to hand at one table, each hand numbered as asked (`HandStart.hand`)."""
    seen = []

    class Counter(Agent):
        def act(self, view):
            return CALL

        def begin_hand(self, start):
            seen.append((self.name, start.hand, start.position))

    a, b = Counter(), Counter()
    a.name, b.name = "a", "b"
    nets = play_series(a, b, GameConfig(), Dealer(2), 4)
    assert seen == [
        ("a", 0, 0),
        ("b", 0, 1),
        ("b", 1, 0),
        ("a", 1, 1),
        ("a", 2, 0),
        ("b", 2, 1),
        ("b", 3, 0),
        ("a", 3, 1),
    ]
    assert nets.shape == (4,)
