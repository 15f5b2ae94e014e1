"""Behaviour of the Loki-1 agent in play (Billings et al. 1998 §4; Papp 1998 ch. 5-7)."""

import pickle

import numpy as np
import pytest

from pokerlab import GameConfig, HandState, duplicate_tournament, make_agent, play_match
from pokerlab.agents import Agent
from pokerlab.agents.base import split_decision
from pokerlab.arena.store import read_decisions
from pokerlab.cards import parse_cards
from pokerlab.engine import CALL, FOLD, RAISE, seat_view
from pokerlab.errors import ConfigError
from pokerlab.holdings import holding_index
from pokerlab.modeling.frequencies import RAISE as RAISE_COUNT
from pokerlab.modeling.reweighting import MIN_WEIGHT
from pokerlab.programs.loki1 import VARIANTS, Loki1Agent, Loki1Config
from pokerlab.programs.loki1.preflop import PreflopStrategy


class Checked(Agent):
    """Wraps a Loki-1 and records every (to_call, action) it produced."""

    def __init__(self, inner: Agent) -> None:
        super().__init__()
        self.inner, self.name, self.seen = inner, inner.name, []

    def seed(self, rng):
        super().seed(rng)
        self.inner.seed(rng)

    def begin_hand(self, start):
        self.inner.begin_hand(start)

    def act(self, view):
        decision = self.inner.act(view)
        self.seen.append((view.to_call, split_decision(decision)[0], view.legal_actions))
        return decision

    def end_hand(self, end):
        self.inner.end_hand(end)


def test_never_folds_when_checking_is_free_and_acts_legally():
    players = [
        Checked(make_agent(name))
        for name in (
            "loki1",
            "loki1-basic",
            "loki1-uniform",
            "loki1-no-potential",
            "loki1-simple-preflop",
            "raise",
        )
    ]
    play_match(players, 150, seed=4)
    for p in players[:5]:
        assert p.seen
        assert all(action in legal for _, action, legal in p.seen)
        assert not any(to_call == 0 and action == FOLD for to_call, action, _ in p.seen)
        assert any(action == RAISE for _, action, _ in p.seen)


def test_raises_the_nuts_on_every_street():
    """With the royal flush from the flop on, Loki-1 raises on every street (a deceptive check included:
    the opponents, who bet whenever they can, then face its raise)."""
    holes = parse_cards("2c 7d 3c 8d As Ks 4c 9d")
    board = parse_cards("Qs Js Ts 2h 3h")
    for seed in range(5):
        state = HandState(GameConfig(), holes, board)
        loki = Loki1Agent()
        loki.seed(np.random.default_rng(seed))
        raised_on = set()
        while not state.is_over:
            if state.actor == 2:
                view = seat_view(state, 2)
                action = loki.act(view).action
                if action == RAISE:
                    raised_on.add(view.round)
            else:
                action = RAISE if RAISE in state.legal_actions() else CALL
            state.act(action)
        assert raised_on >= {1, 2, 3}, (seed, raised_on)


class Recorder(Loki1Agent):
    """A Loki-1 that notes, after each showdown, the weight it gave each shown opponent's real holding."""

    def __init__(self) -> None:
        super().__init__(VARIANTS["loki1-generic"])
        self.revealed: list[float] = []

    def end_hand(self, end):
        super().end_hand(end)
        for p, cards in end.shown.items():
            if p != end.position:
                self.revealed.append(self.last_hand.weights[p, holding_index(list(cards))])


def test_revealed_hands_keep_weight_above_the_floor():
    """After a showdown, the real holding of an opponent that showed stays above the 0.01 floor in the
    weight table Loki built from that opponent's actions (in self-play opponents act as Loki models them)."""
    lokis = [Recorder() for _ in range(4)]
    play_match(lokis, 300, seed=8)
    weights = np.concatenate([agent.revealed for agent in lokis])
    assert len(weights) > 100
    assert np.mean(weights > MIN_WEIGHT) >= 0.9


def test_specific_model_moves_toward_an_opponent_who_always_raises():
    loki = Loki1Agent(VARIANTS["loki1"])
    play_match([loki, "raise"], 200, seed=6, block=200)
    model = loki.frequencies[1]  # the raiser sits in seat 1
    for round_index in range(4):
        assert model.mixed(round_index, 0)[RAISE_COUNT] > 0.95
    # facing a bet, the threshold a raise implies (the share that folds) drops from Table B.2's 0.5
    assert model.mixed(0, 1)[0] < 0.1


def test_agents_travel_to_worker_processes():
    """Parallel matches pickle the agents: a Loki-1 in mid-match must survive the trip."""
    loki = Loki1Agent()
    play_match([loki, "call"], 5, seed=1)
    copy = pickle.loads(pickle.dumps(loki))
    assert copy.config == loki.config and copy.frequencies.keys() == loki.frequencies.keys()


def test_config_is_validated():
    for bad in (
        {"tightness": "wild"},
        {"preflop": "fancy"},
        {"modelling": "psychic"},
        {"flop_lookahead": 3},
        {"probability_play": 1.5},
        {"postflop_sigma": -1},
    ):
        with pytest.raises(ConfigError):
            Loki1Config(**bad)


@pytest.mark.parametrize(
    "opponent",
    ["loose-passive", "loose-aggressive", "tight-passive", "tight-aggressive", "call", "raise", "random"],
)
def test_beats_each_stereotype_and_simple_agent_heads_up(opponent):
    result = duplicate_tournament(["loki1", opponent], 300, seed=5)
    assert result.results[0].sb_per_hand > 0.1, result.results[0]


def test_preflop_weighting_rounds_leave_the_tables_as_the_flop_found_them():
    """weighting_rounds="preflop" (Billings et al. 1998 §4.3's common pre-flop weights): an opponent's bet on
    the flop re-weights its table under "all", not under "preflop"."""
    from pokerlab.engine import ActionRecord
    from pokerlab.programs.loki1.opponents import HandFollower

    preflop = [ActionRecord(0, 2, CALL, 10, 10, 1, 3), ActionRecord(0, 0, CALL, 5, 5, 1, 3)]
    flop = [ActionRecord(1, 0, RAISE, 10, 0, 0, 4)]
    board = (8, 20, 33)
    tables = {}
    for rounds in ("all", "preflop"):
        config = Loki1Config(modelling="generic", weighting_rounds=rounds)
        follower = HandFollower(3, 1, (50, 51), config, (10, 10, 20, 20))
        follower.follow(tuple(preflop), board, {}, (0, 1, 2))
        after_preflop = follower.weights.copy()
        follower.follow(tuple(preflop + flop), board, {}, (0, 1, 2))
        tables[rounds] = (after_preflop, follower.weights.copy())
    for rounds in ("all", "preflop"):
        assert not np.array_equal(tables[rounds][0][0], np.ones(1326))  # the pre-flop call re-weighted
    assert np.array_equal(tables["preflop"][0], tables["preflop"][1])
    assert not np.array_equal(tables["all"][0][0], tables["all"][1][0])


def test_each_decision_says_why_in_the_stored_decisions(tmp_path):
    """Pre-flop the strategy, after the flop the rule and the hand values it used (issue 6's decision
    info), stored with the hand so that a replay can show them."""
    play_match(["loki1", "call", "raise"], 20, seed=3, out=tmp_path, log_decisions=True)
    infos = [d["info"] for d in read_decisions(tmp_path / "hands.sqlite") if d["seat"] == 0]
    strategies = {s.name for s in PreflopStrategy}
    preflop = [i for i in infos if i["rule"] in strategies]
    postflop = [i for i in infos if "hs_n" in i]
    assert preflop and postflop and all(set(i) == {"rule"} for i in preflop)
    assert len(preflop) + len(postflop) + sum(i["rule"] == "check-raise" for i in infos) == len(infos)
    eps = 1e-12
    for i in postflop:
        assert 0.0 <= i["hs_n"] <= i["ehs_optimistic"] + eps <= 1.0 + 2 * eps, i
        assert i["ehs"] <= i["ehs_optimistic"] + eps and 0.0 <= i["potential"] <= 1.0, i
