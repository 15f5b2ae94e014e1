import io

import numpy as np
import pytest

from pokerlab.agents import Agent, HumanAgent, agent_names, make_agent, parse_lineup, register
from pokerlab.agents.human import PlayerLeft
from pokerlab.engine import CALL, FOLD, RAISE, GameConfig, HandState, seat_view
from pokerlab.errors import ConfigError


def view_to_act(actions=()):
    s = HandState(GameConfig(), list(range(4)), list(range(10, 15)))
    for a in actions:
        s.act(a)
    return seat_view(s, s.actor)


def test_registry_and_lineups():
    assert {"random", "call", "raise", "human"} <= set(agent_names())
    assert make_agent("call").name == "call"
    assert parse_lineup("random:8,call,raise") == ["random"] * 8 + ["call", "raise"]
    with pytest.raises(
        ConfigError,
        match="unknown agent .nobody.; known agents: .*call, human, loki1.*"
        "families: bw:ARG, switch:ARG, td:ARG",
    ):
        parse_lineup("nobody")
    with pytest.raises(ConfigError, match="bad count"):
        parse_lineup("random:x")


def test_registering_is_one_line():
    class Folder(Agent):
        def act(self, view):
            return FOLD

    register("folder", Folder)
    assert make_agent("folder").act(view_to_act()) == FOLD


def test_simple_agents():
    v = view_to_act()
    assert make_agent("call").act(v) == CALL
    assert make_agent("raise").act(v) == RAISE
    capped = view_to_act([RAISE, RAISE, RAISE])
    assert make_agent("raise").act(capped) == CALL
    agent = make_agent("random")
    agent.seed(np.random.default_rng(1))
    first = [agent.act(v) for _ in range(50)]
    agent.seed(np.random.default_rng(1))
    assert [agent.act(v) for _ in range(50)] == first and set(first) == {FOLD, CALL, RAISE}
    free = view_to_act([CALL])
    assert FOLD not in {agent.act(free) for _ in range(50)}


def test_human_reasks_on_typo():
    out = io.StringIO()
    human = HumanAgent(stdin=io.StringIO("x\nraise it\nr\n"), stdout=out)
    assert human.act(view_to_act()) == RAISE
    text = out.getvalue()
    assert text.count("try again") == 2 and "[f]old/[c]all/[r]aise" in text and "pot 15" in text
    capped = HumanAgent(stdin=io.StringIO("r\nc\n"), stdout=io.StringIO())
    assert capped.act(view_to_act([RAISE, RAISE, RAISE])) == CALL
    with pytest.raises(PlayerLeft):
        HumanAgent(stdin=io.StringIO(""), stdout=io.StringIO()).act(view_to_act())
