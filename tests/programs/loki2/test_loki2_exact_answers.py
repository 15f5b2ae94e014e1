"""Loki-2's all-holdings answers during a match in which it and Loki-1 learn: asked right after each of its
decisions, the row of the holding it holds is exactly what its `act` drew from (its triple, narrowed to
the part of the hand's uniform its earlier actions left), and every other holding's row is what `act`
draws from with that holding in the same state (its opponents' tables re-weighted with the model as it
was at each action). Asking changes nothing Loki-2 plays."""

import copy
import logging

import numpy as np

from pokerlab import play_match
from pokerlab.agents.base import split_decision
from pokerlab.agents.policy import blind_view, board_clash
from pokerlab.arena.policy_record import decode, read_policies
from pokerlab.engine import GameConfig, HandState
from pokerlab.engine.view import hand_end, hand_start, seat_view
from pokerlab.evaluation.aivat import aivat_of_folder, conditional, narrowed, recorded_seats
from pokerlab.evaluation.hindsight import read_hindsight
from pokerlab.holdings import HOLDING_CARDS, HOLDING_INDEX
from pokerlab.programs.loki1 import Loki1Agent
from pokerlab.programs.loki2 import VARIANTS, Loki2Agent


def play(hands, ask, seed):
    """The actions of `hands` heads-up hands (dealt from `seed`) of Loki-2's triples against Loki-1, both
    learning, seats alternating; with `ask`, Loki-2 is asked for its all-holdings answer after each decision
    that drew from a triple and the answer checked against `act` (the module doc). Returns (the actions,
    Loki-2's own rows checked, other holdings' rows checked, own rows narrowed by earlier draws)."""
    config, seats = GameConfig(), (0, 1)
    loki2, loki1 = Loki2Agent(VARIANTS["loki2-triples"]), Loki1Agent()
    loki2.seed(np.random.default_rng(5))
    loki1.seed(np.random.default_rng(6))
    deal, probe_rng = np.random.default_rng(seed), np.random.default_rng(seed + 1)
    played, own, others, tied = [], 0, 0, 0
    for number in range(hands):
        cards = deal.permutation(52)[:9].tolist()
        state = HandState(config, cards[:4], cards[4:])
        agents = (loki2, loki1) if number % 2 else (loki1, loki2)
        me = agents.index(loki2)
        for p, agent in enumerate(agents):
            agent.begin_hand(hand_start(state, p, seats, config, number))
        interval, first = (0.0, 1.0), True
        while not state.is_over:
            view = seat_view(state, state.actor, seats, config)
            before = copy.deepcopy(loki2) if ask and state.actor == me and first else None
            action, triple, _ = split_decision(agents[state.actor].act(view))
            if ask and state.actor == me and triple is not None:
                policy = loki2.policy_for_holdings(blind_view(view))
                wanted = conditional(triple, interval)
                np.testing.assert_allclose(policy[HOLDING_INDEX[view.hole]], wanted, rtol=0, atol=1e-12)
                tied += not np.allclose(wanted, triple)
                interval = narrowed(triple, interval, action)
                own += 1
                if first:  # no earlier triple: every holding's row is its own triple in this state
                    live = np.flatnonzero(~board_clash(view.board))
                    for i in probe_rng.choice(live, 4, replace=False):
                        hole = (int(HOLDING_CARDS[i, 0]), int(HOLDING_CARDS[i, 1]))
                        probe = copy.deepcopy(before)
                        probe._hand.hole = hole  # the same follower (its tables know nothing of our cards)
                        theirs = split_decision(probe.act(view._replace(hole=hole)))[1]
                        np.testing.assert_allclose(policy[i], theirs, rtol=0, atol=1e-12)
                        others += 1
                    first = False
            played.append(action)
            state.act(action)
        for p, agent in enumerate(agents):
            agent.end_hand(hand_end(state, p))
    assert any(f.counts.sum() > 0 for f in loki2.frequencies.values())  # it learned as it went
    return played, own, others, tied


def test_answers_after_act_are_what_act_drew_from_and_asking_changes_no_play():
    asked, own, others, tied = play(12, True, 8)
    assert own >= 10 and others >= 20 and tied >= 3
    assert play(12, False, 8)[0] == asked


def test_recorded_answers_are_the_decisions_and_the_evaluator_keeps_them(tmp_path, caplog):
    out = tmp_path / "l2l1"
    play_match(
        ["loki2-triples", "loki1"], 2, seed=41, duplicate=True, out=out, log_policies=True, log_decisions=True
    )
    record, answers = read_hindsight(out), read_policies(out)
    checked = 0
    for hand in record.hands:
        rows = decode(answers[hand.hand]) if hand.hand in answers else {}
        interval = (0.0, 1.0)
        for i, (p, action, triple) in enumerate(hand.actions):
            if hand.names[p] != "loki2-triples" or triple is None:
                continue
            row = rows[i][HOLDING_INDEX[hand.holes[2 * p], hand.holes[2 * p + 1]]]
            np.testing.assert_allclose(row, conditional(triple, interval), rtol=0, atol=1e-7)  # float32
            interval = narrowed(triple, interval, action)
            checked += 1
    assert checked >= 3
    assert recorded_seats(record.hands, answers) == {"loki2-triples", "loki1"}
    with caplog.at_level(logging.WARNING):
        tiers = aivat_of_folder(out, seed=1, samples=2, samples_preflop=10)
    assert "imaginary" in tiers and not [r for r in caplog.records if "are not used" in r.getMessage()]
