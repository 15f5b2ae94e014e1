"""The TD-Hold'em player: targets and equity (TD-7, TD-8), exact fold values (TD-9), per-player traces
(TD-13), the seed's shared chain, freezing, saving and loading, and use by name in a match."""

from dataclasses import replace

import numpy as np
import pytest

from pokerlab import play_match
from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents import make_agent, parse_lineup
from pokerlab.agents.registry import is_external
from pokerlab.cards import parse_cards
from pokerlab.engine import GameConfig, HandState, hand_end, hand_start, seat_view
from pokerlab.errors import ConfigError, CorruptData
from pokerlab.programs.td.agent import TDAgent, TDLearner, class_target
from pokerlab.programs.td.config import PRESETS

FAITHFUL = PRESETS["faithful"]


def test_td7_class_targets():
    got = [class_target(r, FAITHFUL).tolist() for r in (81, 80, 5, 0, -5, -80, -81)]
    wb, ws, ls, lb = ([1.0 if i == k else 0.0 for i in range(4)] for k in range(4))
    assert got == [wb, ws, ws, [0, 0.5, 0.5, 0], ls, ls, lb]
    inclusive = replace(FAITHFUL, class_boundary="inclusive")
    assert class_target(80, inclusive).tolist() == wb and class_target(-80, inclusive).tolist() == lb


def test_td8_class_equity():
    agent = TDAgent(FAITHFUL)
    means = agent.learner.class_means()
    for y, expected in (((0.5, 0.5, 0.5, 0.5), 0.0), ((0.9, 0.1, 0.1, 0.1), 1.6 / 1.2)):
        y = np.array(y)
        assert y @ means / y.sum() == pytest.approx(expected)


class CountingNetwork:
    """Wraps a network and counts its evaluations (TD-9: folding is never a network call)."""

    def __init__(self, network):
        self.network, self.calls = network, 0

    def __call__(self, x):
        self.calls += 1
        return self.network(x)


def test_td9_fold_value_is_exact():
    state = HandState(GameConfig(), parse_cards("2c 7d Ah Kh"), parse_cards("Qs Jd 3c 8h 4s"))
    for action in (RAISE, RAISE, CALL, RAISE, RAISE, CALL, CALL, RAISE):
        state.act(action)
    view = seat_view(state, 0)  # §A.4 bets example: the big blind has 50 chips in
    for config, fold in ((FAITHFUL, -1.0), (replace(FAITHFUL, head="value"), -50 / 240)):
        agent = TDAgent(config)
        agent.learner.network = counting = CountingNetwork(agent.learner.network)
        values, _ = agent.action_values(view, (FOLD, CALL, RAISE))
        assert values[FOLD] == fold and counting.calls == 2  # the call and raise after-states only
    chips = TDAgent(replace(FAITHFUL, equity="chips"))
    assert chips.fold_value(50) == -40.0  # the initial chip mean of "lose small"
    chips.learner.record_result(-50)
    assert chips.fold_value(50) == -45.0
    q = TDAgent(PRESETS["repaired"])
    values, inputs = q.action_values(view, (FOLD, CALL, RAISE))
    assert values[FOLD] == -50 / 240 and inputs[CALL] is inputs[RAISE]


class RecordingChain:
    """Stands in for a `TDChain` and records which seat visited what."""

    def __init__(self, log, seat):
        self.log, self.seat, self.visits = log, seat, 0

    def reset(self):
        self.visits = 0

    def visit(self, x, outputs, alpha):
        self.visits += 1
        self.log.append((self.seat, "update" if self.visits > 1 else "first"))

    def finish(self, target, alpha):
        if self.visits:
            self.log.append((self.seat, "terminal"))
        self.visits = 0


def play_hand(agents, cards, scripted=None):
    state = HandState(GameConfig(), cards[:4], cards[4:9])
    for p, agent in enumerate(agents):
        agent.begin_hand(hand_start(state, p))
    while state.actor >= 0:
        p = state.actor
        action = agents[p].act(seat_view(state, p))
        state.act(action if scripted is None else scripted.pop(0))
    for p, agent in enumerate(agents):
        agent.end_hand(hand_end(state, p))
    return state


def test_td13_per_player_traces():
    """A player acting T times gets T − 1 in-hand updates and one terminal update from its own chain."""
    rng = np.random.default_rng(0)
    for _ in range(10):
        learner = TDLearner(replace(FAITHFUL, epsilon_start=0.5), np.random.default_rng(1))
        agents = [TDAgent(learner=learner), TDAgent(learner=learner)]
        log: list = []
        for p, agent in enumerate(agents):
            agent.seed(np.random.default_rng(int(rng.integers(1000))))
            agent.chain = RecordingChain(log, p)
        state = play_hand(agents, rng.permutation(52)[:9].tolist())
        for p in (0, 1):
            decisions = sum(1 for r in state.actions if r.position == p and r.action != FOLD)
            mine = [kind for seat, kind in log if seat == p]
            assert mine.count("update") == max(decisions - 1, 0)
            assert mine.count("terminal") == (1 if decisions else 0)


def test_shared_chain_ends_once_with_the_last_deciders_result():
    learner = TDLearner(PRESETS["seed-literal"], np.random.default_rng(1))
    agents = [TDAgent(learner=learner), TDAgent(learner=learner)]
    assert agents[0].chain is agents[1].chain is learner.shared_chain
    before = learner.shared_chain.updates
    state = play_hand(agents, list(range(9)), scripted=[CALL, CALL, CALL, CALL, CALL, CALL, CALL, CALL])
    # 8 decisions in one chain: 7 in-hand updates and 1 terminal, whoever decided
    assert len(state.actions) == 8 and learner.shared_chain.updates - before == 8


def test_learning_changes_weights_and_freezing_stops_it():
    learner = TDLearner(FAITHFUL, np.random.default_rng(3))
    agents = [TDAgent(learner=learner), TDAgent(learner=learner)]
    start = learner.network.theta.copy()
    play_hand(agents, list(range(9)))
    assert not np.array_equal(learner.network.theta, start)
    for agent in agents:
        agent.freeze()
    frozen = learner.network.theta.copy()
    play_hand(agents, list(range(10, 19)))
    assert np.array_equal(learner.network.theta, frozen)


def test_save_load_and_use_by_name(tmp_path, monkeypatch):
    agent = TDAgent(PRESETS["repaired"])
    agent.learner.network.theta[:] = np.random.default_rng(2).normal(size=agent.learner.network.theta.size)
    agent.learner.hands = 1234
    agent.save(tmp_path / "checkpoint.npz")
    spec = f"td:{tmp_path}/checkpoint"
    assert not is_external(spec) and parse_lineup(f"{spec}:2,call") == [spec, spec, "call"]
    loaded = make_agent(spec)
    assert loaded.frozen and loaded.name == spec and loaded.learner.hands == 1234
    assert np.array_equal(loaded.learner.network.theta, agent.learner.network.theta)
    assert make_agent(f"td:{tmp_path}").learner.hands == 1234  # a training folder names its checkpoint
    result = play_match([spec, "call"], hands=40, seed=1, duplicate=True)
    again = play_match([spec, "call"], hands=40, seed=1, duplicate=True)
    assert np.array_equal(result.nets, again.nets)
    with pytest.raises(ConfigError, match="no TD checkpoint"):
        make_agent(f"td:{tmp_path}/nothing")
    monkeypatch.chdir(tmp_path)
    assert make_agent("td:.").learner.hands == 1234  # the folder one is in ("." has no name)


def test_untrained_td_learns_in_a_match():
    result = play_match(["td", "call"], hands=30, seed=2)
    assert result.hands == 30


def test_game_switches_and_result_scale():
    """§A.2's [OUR CHOICE]s: the cap rule picks the engine's game; the value targets' scale is the largest
    loss of a hand in it (240 / 370, hand-worked in tests/engine) unless set; the seed's ring blind rule
    is refused with the reason."""
    per_player = replace(PRESETS["repaired"], cap_rule="three_raises_per_player")
    assert PRESETS["repaired"].game() == GameConfig()
    assert per_player.game() == GameConfig(max_raises=None, max_raises_per_player=3)
    assert TDAgent(PRESETS["repaired"]).learner.scale == 240
    assert TDAgent(per_player).fold_value(50) == -50 / 370
    assert TDAgent(replace(per_player, result_scale=100)).fold_value(50) == -0.5
    with pytest.raises(ConfigError, match="hu_blinds: 'ring' .* not supported.*allowed: 'button_small'"):
        replace(FAITHFUL, hu_blinds="ring")
    with pytest.raises(ConfigError, match="cap_rule must be one of 'four_bets', 'three_raises_per_player'"):
        replace(FAITHFUL, cap_rule="two")
    with pytest.raises(ConfigError, match="result_scale must be an integer >= 0"):
        replace(FAITHFUL, result_scale=-1)


def test_per_player_cap_trains_in_its_game(tmp_path, monkeypatch):
    """The trainer plays the config's game: under the per-player cap, against always-raise, some hands
    go past the four-bet cap's 40 chips pre-flop."""
    from pokerlab.programs.td import training as td

    games, preflop = set(), []
    play = td.play_hand

    def spy(agents, state, hand, table=None):
        games.add(state.config)
        state = play(agents, state, hand, table)
        preflop.append(sum(r.amount for r in state.actions if r.round == 0) + 15)
        return state

    monkeypatch.setattr(td, "play_hand", spy)
    config = replace(PRESETS["repaired"], cap_rule="three_raises_per_player", epsilon_start=1.0)
    trainer = td.train(config, td.Schedule(opponents=("raise",), eval_deals=2), 60, 3, tmp_path / "run")
    assert trainer.learner.scale == 370
    assert games == {GameConfig(max_raises=None, max_raises_per_player=3)}
    assert max(preflop) > 80  # both players' pre-flop chips: more than 2 × 40


PER_OPPONENT = replace(PRESETS["repaired"], opponent_ids=3, opponent_networks=True)


def thetas(agent):
    return [n.theta.copy() for n in agent.learner.networks]


def test_one_network_per_opponent_learns_only_against_its_opponent():
    agent = TDAgent(PER_OPPONENT)
    assert len(agent.learner.networks) == 3
    for opponent_id, moved in ((1, 1), (None, 2), (0, 0)):  # an unlabelled opponent: the last (self) slot
        before = thetas(agent)
        agent.opponent_id = opponent_id
        play_match([agent, "random"], hands=30, seed=5)
        after = thetas(agent)
        assert [not np.array_equal(b, a) for b, a in zip(before, after, strict=True)] == [
            k == moved for k in range(3)
        ]


def test_a_slots_network_plays_as_a_single_network_player_with_its_weights():
    multi = TDAgent(PER_OPPONENT)
    rng = np.random.default_rng(4)
    for network in multi.learner.networks:
        network.theta[:] = rng.normal(size=network.theta.size)
    single = TDAgent(replace(PER_OPPONENT, opponent_networks=False))
    single.learner.network.theta[:] = multi.learner.networks[1].theta
    for agent in (multi, single):
        agent.freeze()
        agent.opponent_id = 1
    played = [play_match([agent, "random"], hands=60, seed=6).nets for agent in (multi, single)]
    assert np.array_equal(played[0], played[1])
    multi.opponent_id = 0  # another slot's weights play differently
    assert not np.array_equal(play_match([multi, "random"], hands=60, seed=6).nets, played[0])


def test_per_opponent_networks_save_load_and_refuse_what_does_not_fit(tmp_path):
    agent = TDAgent(PER_OPPONENT)
    for k, network in enumerate(agent.learner.networks):
        network.theta[:] = k
    loaded = make_agent(f"td:{agent.save(tmp_path / 'multi.npz')}")
    assert [float(n.theta.mean()) for n in loaded.learner.networks] == [0.0, 1.0, 2.0]
    state = agent.learned_state()
    state["theta"] = state["theta"][:2]
    with pytest.raises(CorruptData, match=r"weights of \(2, \d+\), the config needs \(3, \d+\)"):
        TDAgent().load_learned_state(state)
    with pytest.raises(ConfigError, match="opponent_networks needs per-player chains"):
        replace(FAITHFUL, td_chain="shared", opponent_networks=True)
