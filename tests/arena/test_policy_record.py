"""policies.bin (match --log-policies): asking a learning agent for its all-holdings answer before each of
its decisions changes nothing it plays; the record keeps what it answered then (not what a fresh copy
answers), compactly (the same bytes for any number of workers and after a killed run is resumed:
tests/evaluation/test_hindsight.py);
players outside the table's process are never asked; a torn record is left out, a damaged one refused."""

import numpy as np
import pytest

from pokerlab import play_match
from pokerlab.actions import RAISE
from pokerlab.agents import Agent, Decision
from pokerlab.agents.policy import blind_view, board_clash
from pokerlab.arena.players import AgentSpec, LocalPlayer
from pokerlab.arena.policy_record import (
    POLICIES_FILE,
    decode,
    distinct_rows,
    encode,
    read_policies,
    records,
)
from pokerlab.arena.table import Table
from pokerlab.engine import GameConfig
from pokerlab.engine.view import seat_view
from pokerlab.errors import CorruptData
from pokerlab.evaluation.hindsight import read_hindsight
from pokerlab.holdings import HOLDING_CARDS, HOLDING_INDEX


class Learner(Agent):
    """Raises more often with its high cards the more showdowns it has lost; calls or folds otherwise. It
    learns (its answers drift through the session), draws each decision afresh, says its probabilities
    every other hand and answers the all-holdings query purely."""

    name = "learner"
    learns = True

    def __init__(self) -> None:
        super().__init__()
        self.lost = 0
        self.hands = 0

    def end_hand(self, end) -> None:
        self.hands += 1
        if not self.frozen and end.nets[end.position] < 0:
            self.lost += 1

    def policy_for_holdings(self, view) -> np.ndarray:
        high = HOLDING_CARDS.max(axis=1) // 4 / 12
        boldness = (self.lost % 7) / 7
        p = np.stack(
            [
                np.full(high.shape, 0.0 if view.to_call == 0 else 0.4) * (1 - high),
                np.full(high.shape, 0.5),
                0.1 + boldness * high,
            ],
            axis=1,
        )
        p[:, RAISE] *= RAISE in view.legal_actions
        p /= p.sum(axis=1, keepdims=True)
        p[board_clash(view.board)] = 0.0
        return p

    def act(self, view):
        row = self.policy_for_holdings(view)[HOLDING_INDEX[view.hole]]
        action = int(self.rng.choice(3, p=row / row.sum()))
        return Decision(action, tuple(float(x) for x in row) if self.hands % 2 else None)


LINEUP = [Learner(), "loose-aggressive"]


def test_asking_changes_no_play_and_the_record_is_the_answers_given_then(tmp_path):
    asked, plain = tmp_path / "asked", tmp_path / "plain"
    play_match(LINEUP, 30, seed=4, duplicate=True, out=asked, log_policies=True, log_decisions=True)
    play_match(LINEUP, 30, seed=4, duplicate=True, out=plain, log_decisions=True)
    for name in ("hands.csv", "hindsight.jsonl"):
        assert (asked / name).read_bytes() == (plain / name).read_bytes()
    assert not (plain / POLICIES_FILE).exists()
    answers = read_policies(asked)
    record = read_hindsight(asked)
    assert set(answers) == {h.hand for h in record.hands}  # both seats answer in process
    fresh = Learner()
    drift = 0
    for hand in record.hands:
        got = decode(answers[hand.hand])
        assert sorted(got) == list(range(len(hand.actions)))  # every decision, each seat's
        for i, (p, action, triple) in enumerate(hand.actions):
            row = got[i][HOLDING_INDEX[hand.holes[2 * p], hand.holes[2 * p + 1]]]
            assert row[action] > 0
            if triple is not None:
                assert np.allclose(row, triple, atol=1e-6)
            if hand.names[p] == "learner":
                state = hand.start(record.config)
                for _, a, _ in hand.actions[:i]:
                    state.act(a)
                view = blind_view(seat_view(state, p, config=record.config))
                drift += not np.allclose(got[i], fresh.policy_for_holdings(view), atol=1e-6)
    assert drift > 0  # the learner answered what it had learned, not what a fresh copy answers
    size = (asked / POLICIES_FILE).stat().st_size
    assert size < 1500 * len(record.hands)  # a few hundred bytes a decision, not 16 kB


def test_encoding_round_trips_and_stays_small():
    rng = np.random.default_rng(1)
    policy = np.zeros((1326, 3))
    policy[np.arange(1326), rng.integers(0, 3, 1326)] = 1.0  # 0/1 rows, as most bots answer
    policy[:40] = rng.dirichlet(np.ones(3), 40)
    data = encode(7, 1, [(3, policy), (5, policy[::-1])])
    ((hand, session, payload, whole),) = list(records(data, "x"))
    assert (hand, session, whole) == (7, 1, data)
    got = decode(payload)
    assert sorted(got) == [3, 5]
    assert np.array_equal(got[3], policy.astype(np.float32))
    assert np.array_equal(got[5], policy[::-1].astype(np.float32))
    assert len(data) < 2 * 1326 * 3 * 4 / 10  # a tenth of the float32 arrays, with random 0/1 rows
    assert list(records(data[:-1], "x")) == []  # torn: left out
    damaged = bytearray(data)
    damaged[-3] ^= 0xFF
    with pytest.raises(CorruptData, match="hand 7 .* fails its checksum"):
        list(records(bytes(damaged), "x"))
    with pytest.raises(CorruptData, match="no record starts at byte 0"):
        list(records(b"JUNK" + data[4:], "x"))


class Elsewhere:
    """Stands for an isolated or remote player: its agent's code does not run in the table's process."""

    wants_begin = wants_observe = wants_end = False

    def new_session(self, entropy, agent=None) -> None:
        pass


def test_only_in_process_agents_that_answer_are_asked():
    spec = AgentSpec.of("tight-passive", True)
    table = Table(
        [LocalPlayer(spec), Elsewhere(), LocalPlayer(AgentSpec.of("loki2", True))],
        GameConfig(),
        ["tight-passive", "sandboxed", "loki2"],
        log_policies=True,
    )
    table.new_session([[1, j] for j in range(3)])
    assert callable(table.queries[0]) and table.queries[1:] == [None, None]  # loki2 simulates: no query


def test_distinct_rows_are_numpys_unique_rows():
    rng = np.random.default_rng(3)
    policy = rng.integers(0, 3, (1326, 3)).astype(np.float32) / 2
    rows, inverse = distinct_rows(policy)
    want_rows, want_inverse = np.unique(policy.view("<u4"), axis=0, return_inverse=True)
    assert np.array_equal(rows.view("<u4"), want_rows)
    assert np.array_equal(inverse, want_inverse.reshape(-1))
    assert np.array_equal(rows[inverse], policy)
