"""The opponent model's predictions as TD inputs (docs/learning-spec-td.md §A.10, switch
``opponent_model_inputs``): input lengths, the predictions against the real hand's state as oracle,
information hiding, learning from finished hands, and saving."""

import copy
from dataclasses import replace

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.cards import parse_cards
from pokerlab.engine import GameConfig, HandState, hand_end, hand_start, seat_view
from pokerlab.modeling.next_action import context
from pokerlab.programs.td.agent import TDAgent
from pokerlab.programs.td.config import PRESETS

REPAIRED = replace(PRESETS["repaired"], opponent_model_inputs=True)


def trained_agent(config=REPAIRED, seed=0):
    """A TD player whose opponent models learned from 30 random hands (so the predictions are not uniform)."""
    agent = TDAgent(config)
    agent.opponent_id = 1
    rng = np.random.default_rng(seed)
    for hand in range(30):
        cards = rng.permutation(52)[:9].tolist()
        state = HandState(GameConfig(), cards[:4], cards[4:9])
        agent.begin_hand(hand_start(state, hand % 2))
        while state.actor >= 0:
            legal = [a for a in state.legal_actions() if a != FOLD or hand % 5 == 0]
            state.act(int(rng.choice(legal)))
        agent.end_hand(hand_end(state, hand % 2))
    return agent


def test_switch_changes_the_input_length():
    assert REPAIRED.input_size == PRESETS["repaired"].input_size + 6 == 126
    faithful = replace(PRESETS["faithful"], opponent_model_inputs=True)
    assert faithful.input_size == 92 + 3
    state = HandState(GameConfig(), parse_cards("2c 7d Ah Kh"), parse_cards("As Kd 3s 8h 4s"))
    view = seat_view(state, state.actor)
    assert TDAgent(PRESETS["repaired"]).features(view).shape == (120,)
    assert TDAgent(REPAIRED).features(view).shape == (126,)
    assert TDAgent(faithful).features(view, RAISE).shape == (95,)
    assert TDAgent(REPAIRED).learner.network.theta.size == 40 * 126 + 40 + 2 * 40 + 2


def test_predictions_are_the_models_on_the_state_the_opponent_faces():
    """Oracle: the real hand (true cards) advanced by P's action, the opponent's context, the model."""
    agent = trained_agent()
    model = agent.learner.opponent_models.models[1]
    state = HandState(GameConfig(), parse_cards("2c 7d Ah Kh"), parse_cards("As Kd 3s 8h 4s"))
    button = seat_view(state, state.actor)  # pre-flop: the button completes or raises, the big blind answers
    block = agent.features(button)[-6:]
    for i, action in enumerate((CALL, RAISE)):
        after = state.copy()
        after.act(action)
        assert np.array_equal(block[3 * i : 3 * i + 3], model.predict(context(seat_view(after, 0))))
    assert block.sum() == 2.0 and len(set(block.round(12))) > 2  # two distributions, not uniform
    state.act(CALL)
    big_blind = seat_view(state, state.actor)  # its check ends the round: zeros; a raise is answered
    block = agent.features(big_blind)[-6:]
    after = state.copy()
    after.act(RAISE)
    assert block[:3].tolist() == [0.0, 0.0, 0.0]
    assert np.array_equal(block[3:], model.predict(context(seat_view(after, 1))))


def test_inputs_hide_the_opponents_cards():
    """TD-14 with the opponent block: P's vector is unchanged when only the opponent's cards change."""
    agent = trained_agent()
    rng = np.random.default_rng(3)
    checked = 0
    while checked < 25:
        cards = rng.permutation(52)[:11].tolist()
        steps = int(rng.integers(0, 7))
        views = []
        for opponent_cards in (cards[2:4], cards[9:11]):
            state = HandState(GameConfig(), [*cards[:2], *opponent_cards], cards[4:9])
            walk = np.random.default_rng(steps)
            for _ in range(steps):
                if state.actor >= 0:
                    state.act(int(walk.choice([a for a in state.legal_actions() if a != FOLD])))
            views.append(seat_view(state, state.actor) if state.actor == 0 else None)
        if views[0] is None:
            continue
        assert np.array_equal(agent.features(views[0]), agent.features(views[1]))
        checked += 1


def test_learning_reads_only_public_information_and_steps_each_opponent_decision():
    """After a hand the opponent's model took one step per opponent decision on the context the opponent
    faced (oracle: the real state), the generic model the same steps, whatever the opponent held."""
    agent = trained_agent()
    models = agent.learner.opponent_models
    before, generic = copy.deepcopy(models.models[1]), copy.deepcopy(models.generic)
    results = []
    for opponent_cards in ("Ah Kh", "3c 3d"):
        learner = copy.deepcopy(agent.learner)
        player = TDAgent(learner=learner)
        player.opponent_id = 1
        state = HandState(GameConfig(), parse_cards("2c 7d " + opponent_cards), parse_cards("As Kd 3s 8h 4s"))
        player.begin_hand(hand_start(state, 0))
        expected, expected_generic = copy.deepcopy(before), copy.deepcopy(generic)
        for action in (RAISE, RAISE, CALL, CALL, RAISE, CALL, CALL, CALL, CALL, CALL):
            if state.actor == 1:
                x = context(seat_view(state, 1))
                expected.learn(x, action)
                expected_generic.learn(x, action)
            state.act(action)
        player.frozen = True  # the opponent model still learns only when the player learns
        player.end_hand(hand_end(state, 0))
        assert np.array_equal(learner.opponent_models.models[1].w1, before.w1)
        player.frozen = False
        player.end_hand(hand_end(state, 0))
        got = learner.opponent_models
        assert not np.allclose(got.models[1].w1, before.w1, atol=1e-6)
        assert np.allclose(got.models[1].w1, expected.w1, atol=1e-15)
        assert np.allclose(got.generic.w2, expected_generic.w2, atol=1e-15)
        results.append(got.models[1].w1.copy())
    assert np.array_equal(results[0], results[1])


def test_models_are_saved_with_the_player(tmp_path):
    agent = trained_agent()
    agent.learner.opponent_models.model(None)  # an unlabelled opponent's model too
    agent.save(tmp_path / "p.npz")
    loaded = TDAgent()
    loaded.load(tmp_path / "p.npz")
    loaded.opponent_id = 1
    state = HandState(GameConfig(), parse_cards("2c 7d Ah Kh"), parse_cards("As Kd 3s 8h 4s"))
    view = seat_view(state, state.actor)
    assert np.array_equal(loaded.features(view), agent.features(view))
    assert set(loaded.learner.opponent_models.models) == {1, None}
