"""The page's own logic in Chromium, without a server: the table state fed a hand-worked sequence of frames,
the replayer's picture of a hand after k steps, the chart's ticks, and the drawn seats and cards.

The static files are served by a plain HTTP server and imported as ES modules, as the real page does.
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest

import pokerlab

pytestmark = pytest.mark.e2e

STATIC = Path(pokerlab.__file__).parent / "interfaces" / "web" / "static"

# A three-seat 10-20 hand (small bet 10, big bet 20): alice (seat 0, on the button, holding As Kd) raises,
# loki (small blind) folds, tag (big blind) calls; on the flop tag bets and alice calls; on the turn the
# hand ends at a showdown that tag wins. Each expected figure below is worked out by hand from these frames.
FRAMES = [
    {"type": "table", "table": 4, "level": "10-20", "small_bet": 10, "big_bet": 20, "you": 0, "hand": None,
     "seats": [{"seat": 0, "name": "alice", "kind": "human", "stack": 1000, "connected": True},
               {"seat": 1, "name": "loki", "kind": "bot", "stack": 2000, "connected": True},
               {"seat": 2, "name": "tag", "kind": "bot", "stack": 2000, "connected": True}]},
    {"type": "hand_start", "hand": 5, "button": 0, "seats_in": [0, 1, 2], "blinds": {"1": 5, "2": 10},
     "hole": ["As", "Kd"]},
    {"type": "turn", "seat": 0, "deadline": 4102444800000, "to_call": 10, "legal": ["fold", "call", "raise"]},
    {"type": "action", "seat": 0, "action": "raise", "amount": 20, "pot": 35, "stack": 980},
    {"type": "turn", "seat": 1, "deadline": 4102444800000, "to_call": 15},
    {"type": "action", "seat": 1, "action": "fold", "amount": 0, "pot": 35, "stack": 1995},
    {"type": "action", "seat": 2, "action": "call", "amount": 10, "pot": 45, "stack": 1980},
    {"type": "board", "round": "flop", "cards": ["2c", "7h", "Td"]},
    {"type": "action", "seat": 2, "action": "bet", "amount": 10, "pot": 55, "stack": 1970},
    {"type": "turn", "seat": 0, "deadline": 4102444800000, "to_call": 10, "legal": ["fold", "call", "raise"]},
    {"type": "action", "seat": 0, "action": "call", "amount": 10, "pot": 65, "stack": 970},
    {"type": "board", "round": "turn", "cards": ["2c", "7h", "Td", "Th"]},
    {"type": "hand_end", "hand": 5, "shown": {"0": ["As", "Kd"], "2": ["Tc", "9c"]},
     "hand_names": {"0": "high card", "2": "three of a kind"}, "winners": [2],
     "nets": {"0": -30, "1": -5, "2": 35}, "stacks": {"0": 970, "1": 1995, "2": 2035}},
]  # fmt: skip

RUN_FRAMES = """
async (frames) => {
  const { TableState } = await import('/table.js');
  const { felt } = await import('/felt.js');
  const state = new TableState();
  const out = [];
  for (const frame of frames) {
    const lines = state.apply(frame);
    const p = state.picture();
    const turn = state.hand && state.hand.turn;
    out.push({lines, picture: p, labels: state.labels(turn ? turn.toCall : 0)});
  }
  document.body.replaceChildren(felt(out[out.length - 1].picture));
  return out;
}
"""


@pytest.fixture(scope="module")
def static_server():
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(STATIC))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def blank(page, static_server):
    page.goto(f"{static_server}/no-such-page")  # a page of the same origin that runs none of the app
    return page


def seat(picture, number):
    return next(s for s in picture["seats"] if s["seat"] == number)


def test_table_state_follows_a_hand_frame_by_frame(blank):
    steps = blank.evaluate(RUN_FRAMES, FRAMES)
    start = steps[1]["picture"]
    assert [seat(start, n)["stack"] for n in (0, 1, 2)] == [1000, 1995, 1990]  # blinds posted
    assert [seat(start, n)["bet"] for n in (0, 1, 2)] == [0, 5, 10] and start["pot"] == 15
    assert seat(start, 0)["cards"] == ["As", "Kd"] and seat(start, 1)["cards"] == [None, None]
    assert start["button"] == 0 and start["turn"] is None
    assert steps[2]["picture"]["turn"] == 0 and steps[2]["labels"] == {
        "fold": "Fold",
        "call": "Call 10",
        "raise": "Raise to 20",
    }
    after_fold = steps[5]["picture"]
    assert seat(after_fold, 1)["folded"] and seat(after_fold, 1)["cards"] is None
    assert after_fold["turn"] is None and steps[5]["lines"] == ["loki folds."]
    preflop_end = steps[6]["picture"]
    assert [seat(preflop_end, n)["bet"] for n in (0, 2)] == [20, 20] and preflop_end["pot"] == 45
    flop = steps[7]
    assert flop["picture"]["board"] == ["2c", "7h", "Td"]
    assert all(s["bet"] == 0 for s in flop["picture"]["seats"])
    assert seat(flop["picture"], 0)["action"] is None and seat(flop["picture"], 1)["action"] == "fold"
    assert flop["labels"]["call"] == "Check" and flop["labels"]["raise"] == "Bet 10"
    assert steps[9]["labels"]["call"] == "Call 10" and steps[9]["labels"]["raise"] == "Raise to 20"
    turn = steps[11]
    assert turn["labels"]["raise"] == "Bet 20"  # the big bet from the turn on
    assert steps[3]["lines"] == ["alice raises 20."] and steps[10]["lines"] == ["alice calls 10."]
    end = steps[12]["picture"]
    assert end["pot"] == 65 and end["potWon"] and end["turn"] is None  # the pot just won, not 0
    assert seat(end, 2)["winner"] and not seat(end, 0)["winner"]
    assert seat(end, 2)["cards"] == ["Tc", "9c"] and seat(end, 2)["handName"] == "three of a kind"
    assert [seat(end, n)["net"] for n in (0, 1, 2)] == [-30, -5, 35]
    assert [seat(end, n)["stack"] for n in (0, 1, 2)] == [970, 1995, 2035]
    assert "tag wins (+35) with three of a kind." in steps[12]["lines"]


def test_the_drawn_table_shows_only_what_the_seat_may_see(blank):
    blank.evaluate(RUN_FRAMES, FRAMES[:4])
    mine = blank.locator("[data-seat='0'] .card")
    assert [mine.nth(i).get_attribute("aria-label") for i in range(2)] == [
        "ace of spades",
        "king of diamonds",
    ]
    assert blank.locator("[data-seat='1'] .card.back").count() == 2
    assert blank.locator("[data-seat='1'] .card:not(.back)").count() == 0
    assert blank.locator("[data-seat='0'] .dealer").count() == 1
    assert blank.locator("[data-seat='1'] .badge.bot").count() == 1
    assert blank.locator("[data-seat='0'] .bet").inner_text() == "20"
    assert blank.get_by_test_id("pot").inner_text() == "35"


def test_a_reconnect_snapshot_is_not_counted_twice(blank):
    snapshot = dict(FRAMES[0])
    snapshot["seats"] = [dict(s) for s in FRAMES[0]["seats"]]
    for s, stack in zip(snapshot["seats"], (980, 1995, 1970), strict=True):
        s["stack"] = stack
    snapshot["hand"] = {
        "hand": 5,
        "button": 0,
        "seats_in": [0, 1, 2],
        "blinds": {"1": 5, "2": 10},
        "hole": ["As", "Kd"],
        "board": ["2c", "7h", "Td"],
        "actions": [
            {"seat": 0, "action": "raise", "amount": 20, "pot": 35, "stack": 980, "round": "pre-flop"},
            {"seat": 1, "action": "fold", "amount": 0, "pot": 35, "stack": 1995, "round": "pre-flop"},
            {"seat": 2, "action": "call", "amount": 10, "pot": 45, "stack": 1980, "round": "pre-flop"},
            {"seat": 2, "action": "bet", "amount": 10, "pot": 55, "stack": 1970, "round": "flop"},
        ],
        "turn": {"seat": 0, "deadline": 4102444800000, "to_call": 10, "legal": ["fold", "call", "raise"]},
    }
    picture = blank.evaluate(RUN_FRAMES, [snapshot])[0]["picture"]
    assert [seat(picture, n)["stack"] for n in (0, 1, 2)] == [980, 1995, 1970]  # not less the blinds
    assert [seat(picture, n)["bet"] for n in (0, 1, 2)] == [0, 0, 10]  # this round's bets only
    assert picture["pot"] == 55 and picture["board"] == ["2c", "7h", "Td"] and picture["turn"] == 0
    assert seat(picture, 1)["folded"] and seat(picture, 2)["action"] == "bet 10"


def test_the_replayer_picture_after_k_steps(blank):
    replay = {
        "id": 5,
        "level": "10-20",
        "button": 0,
        "seats": [
            {"seat": s, "name": n, "kind": k} for s, n, k in ((0, "alice", "human"), (1, "loki", "bot"))
        ],
        "holes": {"0": ["As", "Kd"]},
        "board": ["2c", "7h", "Td", "Th", "3s"],
        "steps": [
            {"seat": 0, "action": "call", "amount": 5, "round": "pre-flop", "pot": 20, "info": None},
            {"seat": 1, "action": "check", "amount": 0, "round": "pre-flop", "pot": 20, "info": {"ehs": 0.5}},
            {"seat": 1, "action": "bet", "amount": 10, "round": "flop", "pot": 30, "info": {"ehs": 0.7}},
            {"seat": 0, "action": "fold", "amount": 0, "round": "flop", "pot": 30, "info": None},
        ],
        "shown": {},
        "hand_names": {},
        "nets": {"0": -10, "1": 10},
    }
    pictures = blank.evaluate(
        """async (replay) => {
            const { replayPicture } = await import('/history.js');
            return [0, 1, 3, 4].map((k) => replayPicture(replay, k, 0));
        }""",
        replay,
    )
    start, first, flop, end = pictures
    assert start["board"] == [] and start["turn"] == 0 and start["pot"] == 0
    assert seat(start, 0)["cards"] == ["As", "Kd"] and seat(start, 1)["cards"] == [None, None]
    assert seat(first, 0)["bet"] == 5 and seat(first, 0)["action"] == "call 5" and first["turn"] == 1
    assert flop["board"] == ["2c", "7h", "Td"] and seat(flop, 1)["bet"] == 10 and seat(flop, 0)["bet"] == 0
    assert end["board"] == replay["board"] and end["turn"] is None
    assert seat(end, 0)["folded"] and seat(end, 1)["winner"] and seat(end, 1)["net"] == 10
    assert seat(end, 1)["cards"] == [None, None]  # never shown: stays face down


def test_chart_ticks_are_round_numbers(blank):
    ticks = blank.evaluate(
        """async () => {
            const { ticks } = await import('/chart.js');
            return [ticks(0, 100), ticks(955, 1090), ticks(-3, 3, 6), ticks(5, 5)];
        }"""
    )
    assert ticks == [
        [0, 20, 40, 60, 80, 100],
        [960, 980, 1000, 1020, 1040, 1060, 1080],
        [-3, -2, -1, 0, 1, 2, 3],
        [5],
    ]


def test_a_table_without_people_says_it_pauses(blank):
    """Watching a table that pauses without people: the page says so, until a person sits there."""
    paused = blank.evaluate(
        """async (frame) => {
            const { TableState } = await import('/table.js');
            const state = new TableState();
            const bots = {...frame, you: null, pauses: true,
                seats: frame.seats.map((s) => ({...s, kind: 'bot'}))};
            const states = [];
            for (const table of [bots, {...frame, you: null, pauses: true}, {...bots, pauses: false}]) {
                state.apply(table);
                states.push(state.paused);
            }
            return states;
        }""",
        FRAMES[0],
    )
    assert paused == [True, False, False]
