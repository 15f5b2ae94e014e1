import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pokerlab
from pokerlab.agents import Agent, HumanAgent, agent_names, make_agent, parse_lineup, register
from pokerlab.agents.human import PlayerLeft
from pokerlab.agents.stereotypes import STYLES
from pokerlab.engine import CALL, FOLD, RAISE, GameConfig, HandState, hand_end, hand_start, seat_view
from pokerlab.errors import ConfigError


def view_to_act(actions=()):
    s = HandState(GameConfig(), list(range(4)), list(range(10, 15)))
    for a in actions:
        s.act(a)
    return seat_view(s, s.actor)


def test_registry_and_lineups():
    assert {"random", "call", "raise", "fold", "human"} <= set(agent_names())
    assert make_agent("call").name == "call"
    assert parse_lineup("random:8,call,raise") == ["random"] * 8 + ["call", "raise"]
    with pytest.raises(
        ConfigError,
        match="unknown agent .nobody.; known agents: .*call, fold, human, loki1.*"
        "families: bw:ARG, mix:ARG, switch:ARG, td:ARG",
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
    assert text.count("try again") == 2 and "[f]old/[c]all 5/[r]aise to 20" in text and "pot 15" in text
    capped = HumanAgent(stdin=io.StringIO("r\nc\n"), stdout=io.StringIO())
    assert capped.act(view_to_act([RAISE, RAISE, RAISE])) == CALL
    with pytest.raises(PlayerLeft):
        HumanAgent(stdin=io.StringIO(""), stdout=io.StringIO()).act(view_to_act())


def test_human_prompt_says_the_amounts_and_long_names_keep_their_column():
    """The prompt says what a call costs and what a bet or raise brings the bet to; a long name never runs
    into the next column of the seating list."""
    out = io.StringIO()
    long = "a-rather-long-opponent-name-indeed"
    human = HumanAgent(stdin=io.StringIO("c\n" * 40), stdout=out, names=["you", long])
    pokerlab.play_match([human, "call"], hands=2, seed=1)
    text = out.getvalue()
    assert "[c]all 5/[r]aise to 20" in text or "[c]heck/[b]et 10" in text, text
    seating = [line for line in text.splitlines() if long in line and ("blind" in line or "button" in line)]
    assert seating and all(f"{long} (seat 1)  " in line for line in seating), seating
    after_flop = HumanAgent(stdin=io.StringIO("c\n"), stdout=(flop := io.StringIO()))
    after_flop.act(view_to_act([CALL, CALL]))  # the flop: a bet of one small bet
    assert "[c]heck/[b]et 10" in flop.getvalue()


def test_random_checks_where_only_a_check_is_legal():
    """With real stacks a player whose opponents are all in may only check, (CALL,): random never bets there
    (it did half the time: `pokerlab match --agents random:6 --stack 300 --hands 150 --seed 2` stopped with
    "2 is not legal here")."""
    s = HandState(GameConfig(stack=300), list(range(6)), list(range(10, 15)), (300, 300, 5), n=3)
    s.act(CALL)  # the button calls all in for 5, the small blind folds: the big blind may only check
    s.act(FOLD)
    assert s.legal_actions() == (CALL,)
    agent = make_agent("random")
    agent.seed(np.random.default_rng(0))
    assert {agent.act(seat_view(s, s.actor)) for _ in range(50)} == {CALL}
    result = pokerlab.play_match(["random"] * 6, hands=150, config=GameConfig(stack=300), seed=2)
    assert result.hands > 0


# every built-in player of this folder that plays a hand in milliseconds (Loki and TD have their own tests)
SIMPLE_AGENTS = ["random", "call", "raise", *STYLES, "bpl", "bpm", "bpt", "bw-evolving", "bw-a"]


@pytest.mark.parametrize("name", SIMPLE_AGENTS)
@settings(max_examples=25, deadline=None)
@given(seats=st.integers(2, 10), stack=st.integers(1, 120), seed=st.integers(0, 2**32 - 1))
def test_simple_agents_only_answer_legal_actions_with_real_stacks(name, seats, stack, seed):
    """All-ins, side pots and checks-only spots with short stacks: the table stops the match with
    `IllegalAction` at an in-process agent's first illegal answer. Half the seats play `name`, the others
    raise or call whenever they may, stacks restored every 10 hands so that all-ins keep coming."""
    others = ["raise", "call"]
    lineup = [name if j % 2 == 0 else others[j // 2 % 2] for j in range(seats)]
    result = pokerlab.play_match(lineup, hands=40, config=GameConfig(stack=stack), seed=seed, rebuy=10)
    assert result.hands > 0


def test_human_narrates_the_blinds_as_posted_by_a_short_stack():
    """A big blind of 7 chips posts 7, all in: the narration's pot, and what each player wins at the
    showdown (net + chips put in), count the 7 posted, not the configured 10 (they said pot 15 and 22, and
    "wins 13" of a pot of 19)."""
    s = HandState(GameConfig(stack=1000), list(range(6)), list(range(10, 15)), [1000, 7, 1000])
    out = io.StringIO()
    human = HumanAgent(stdin=io.StringIO("c\n"), stdout=out, names=["a", "b", "me"])
    human.begin_hand(hand_start(s, 2, (0, 1, 2)))
    s.act(human.act(seat_view(s, 2, (0, 1, 2))))
    s.act(FOLD)
    while s.actor >= 0:
        s.act(CALL)
    for record in s.actions:
        human.observe(record)
    human.end_hand(hand_end(s, 2))
    text = out.getvalue()
    assert "big blind 7 (all-in)" in text and "pot 12\n" in text, text
    assert "flop: 4h 4s 5c   (pot 19)" in text, text
    assert s.nets == [-5, 3, 2] and "b (seat 1) wins 10 " in text and "you win 9 " in text, text
