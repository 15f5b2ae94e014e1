"""The hindsight record of a results folder: complete (every hole card, the deck order, each decision's
probabilities), readable after a crash, continued by --resume, out of the bots' reach during the match."""

import json
import textwrap

import pytest

from pokerlab import play_match
from pokerlab.arena import output
from pokerlab.arena.dealing import deal_cards
from pokerlab.arena.policy_record import POLICIES_FILE, read_policies, records
from pokerlab.arena.store import read_decisions, read_hands
from pokerlab.errors import ConfigError, CorruptData, SandboxUnavailable
from pokerlab.evaluation.hindsight import HINDSIGHT_FILE, read_hindsight


@pytest.fixture(scope="module")
def triples(tmp_path_factory):
    out = tmp_path_factory.mktemp("hindsight") / "m"
    play_match(["loki2-triples", "tight-aggressive"], 60, seed=7, out=out, block=25, log_decisions=True)
    return out


def test_every_hand_with_its_deal_its_cards_and_its_decisions(triples):
    record = read_hindsight(triples)
    stored = dict(read_hands(triples / "hands.sqlite"))
    assert [h.hand for h in record.hands] == sorted(stored) and len(record.hands) == 60
    logged = {
        (d["hand"], d["action_index"]): d["probabilities"] for d in read_decisions(triples / "hands.sqlite")
    }
    given = 0
    for hand in record.hands:
        cards = deal_cards(7, hand.deal, 2)  # the dealer's plain reference
        assert (
            list(hand.deck[:9]) == cards and list(hand.holes) == cards[:4] and list(hand.board) == cards[4:9]
        )
        assert sorted(hand.deck) == list(range(52))
        same = stored[hand.hand]
        assert tuple(same.holes) == hand.holes and tuple(same.nets) == hand.nets
        assert tuple(same.board) == hand.board[: len(same.board)]
        for i, (_, action, probabilities) in enumerate(hand.actions):
            assert probabilities == (
                None if logged[(hand.hand, i)] is None else tuple(logged[(hand.hand, i)])
            )
            given += probabilities is not None
            if probabilities is not None:
                assert probabilities[action] > 0
    assert given > 20  # loki2-triples' post-flop triples


def test_a_torn_last_line_is_left_out_and_a_bad_line_named(triples, tmp_path):
    copy = tmp_path / "c"
    copy.mkdir()
    (copy / "config.json").write_text((triples / "config.json").read_text())
    lines = (triples / HINDSIGHT_FILE).read_text().splitlines(keepends=True)
    (copy / HINDSIGHT_FILE).write_text("".join(lines[:10]) + lines[10][:30])  # killed while writing
    assert len(read_hindsight(copy).hands) == 10
    bad = json.loads(lines[3])
    bad["nets"] = [n + 1 for n in bad["nets"]]
    (copy / HINDSIGHT_FILE).write_text("".join(lines[:3]) + json.dumps(bad) + "\n")
    with pytest.raises(CorruptData, match="line 4 is unreadable .*do not replay to its nets"):
        read_hindsight(copy)
    (copy / HINDSIGHT_FILE).unlink()
    with pytest.raises(ConfigError, match="has no hindsight.jsonl: DIVAT needs"):
        read_hindsight(copy, "DIVAT")


def test_the_record_is_in_hand_order_whatever_the_number_of_workers(tmp_path):
    """Blocks of parallel sessions arrive in any order; the finished record is sorted like hands.csv, so one
    match writes one hindsight.jsonl for 1 or 2 workers (or a Ray cluster's nodes)."""
    lineup = ["random", "call", "raise"]
    alone, farmed = tmp_path / "one", tmp_path / "two"
    play_match(lineup, 240, seed=3, block=10, sessions=4, out=alone, log_policies=True)
    play_match(lineup, 240, seed=3, block=10, sessions=4, out=farmed, workers=2, log_policies=True)
    record = (farmed / HINDSIGHT_FILE).read_bytes()
    assert record == (alone / HINDSIGHT_FILE).read_bytes()
    assert [h.hand for h in read_hindsight(farmed).hands] == list(range(240))
    answers = (farmed / POLICIES_FILE).read_bytes()  # the recorded answers too, in hand order
    assert answers == (alone / POLICIES_FILE).read_bytes()
    assert [hand for hand, _, _, _ in records(answers, farmed)] == list(range(240))


class Killed(BaseException):
    """Stands for a kill -9."""


def test_a_killed_run_keeps_its_hands_and_resume_writes_the_uninterrupted_record(tmp_path, monkeypatch):
    """The hindsight record and the recorded answers (policies.bin, "random" answering the query), one
    record torn by the kill."""
    lineup, whole, killed = ["random", "call"], tmp_path / "whole", tmp_path / "killed"
    options = dict(seed=5, block=20, sessions=3, log_policies=True)
    play_match(lineup, 150, out=whole, **options)
    real_add, seen = output.ResultsWriter.add, []

    def add(self, outcomes):
        if len(seen) == 4:
            self.policies.write(outcomes[0].policies[:30])  # a record torn by the kill
            self.policies.flush()
            raise Killed
        seen.append(1)
        real_add(self, outcomes)

    with monkeypatch.context() as m:
        m.setattr(output.ResultsWriter, "add", add)
        with pytest.raises(Killed):
            play_match(lineup, 150, out=killed, **options)
    played = (killed / "hands.csv").read_text().count("\n") - 1  # the four blocks written
    assert len(read_hindsight(killed).hands) == len(read_policies(killed)) == played > 0
    play_match(lineup, 150, out=killed, resume=True, **options)
    lines = sorted((killed / HINDSIGHT_FILE).read_text().splitlines())
    assert lines == sorted((whole / HINDSIGHT_FILE).read_text().splitlines()) and len(lines) == 150
    assert (killed / POLICIES_FILE).read_bytes() == (whole / POLICIES_FILE).read_bytes()


PEEKER = """
import os
from pokerlab.actions import CALL
from pokerlab.agents import Agent, Decision


class Peeker(Agent):
    name = "peeker"

    def act(self, view):
        try:
            seen = len(open({path!r}).read())
        except OSError:
            seen = -1
        return Decision(CALL, None, {{"seen": seen}})
"""


@pytest.mark.parametrize("isolate", [False, True])
def test_a_bot_cannot_read_the_hindsight_record_during_the_match(tmp_path, isolate):
    """In this process a bot could open the file (the test can fail); in the sandbox the results folder is
    hidden, the hindsight record with it."""
    out = tmp_path / "out"
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "peeker.py").write_text(textwrap.dedent(PEEKER.format(path=str(out / HINDSIGHT_FILE))))
    try:
        play_match(
            [f"{bot / 'peeker.py'}:Peeker", "call"],
            40,
            seed=3,
            out=out,
            block=10,
            isolate=isolate,
            log_decisions=True,
        )
    except SandboxUnavailable:
        pytest.skip("no sandbox on this machine")
    seen = [d["info"]["seen"] for d in read_decisions(out / "hands.sqlite") if d["info"]]
    assert (out / HINDSIGHT_FILE).stat().st_size > 0 and seen
    if isolate:
        assert set(seen) == {-1}
    else:
        assert max(seen) > 0
