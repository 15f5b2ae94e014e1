"""Loki-1's all-holdings answers recorded during a match in which it learns (`--log-policies`): the row of
the holding it holds gives the action it took a positive probability at every one of its decisions. Its
opponents' tables are re-weighted as its `act` re-weighted them, with the action frequencies as they were
at each action (counted in one by one from those it kept when the hand began), not with the frequencies
as they are when it is asked: on this match that older replay contradicted the action at hand 15."""

import numpy as np

from pokerlab import play_match
from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.arena.policy_record import decode, read_policies
from pokerlab.evaluation.hindsight import read_hindsight
from pokerlab.holdings import HOLDING_INDEX


def test_the_recorded_row_of_its_own_holding_allows_every_action_it_took(tmp_path):
    out = tmp_path / "td-loki1"
    play_match(["td", "loki1"], 8, seed=63, duplicate=True, out=out, log_policies=True, log_decisions=True)
    answers, record = read_policies(out), read_hindsight(out, "the test")
    checked, taken = 0, set()
    for hand in record.hands:
        me = hand.names.index("loki1")
        rows = decode(answers[hand.hand])
        own = HOLDING_INDEX[hand.holes[2 * me], hand.holes[2 * me + 1]]
        for k, (position, action, _) in enumerate(hand.actions):
            if position == me:
                assert rows[k][own][action] > 0, f"hand {hand.hand}, decision {k}: took {action}"
                assert np.isclose(rows[k][own].sum(), 1.0)
                checked += 1
                taken.add(action)
    assert checked >= 30 and taken == {FOLD, CALL, RAISE}
