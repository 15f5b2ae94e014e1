"""Seat labels: "--agents me=bots.py:MyBot,loki1" names a seat in every table, file and page that names it."""

import csv
import json

import pytest

from pokerlab import play_match
from pokerlab.agents import parse_lineup
from pokerlab.agents.registry import split_label
from pokerlab.arena.match import seat_names, unique_labels
from pokerlab.errors import ConfigError
from pokerlab.interfaces.cli import main

BOT = (
    "from pokerlab import Agent\n"
    "class Folder(Agent):\n"
    "    '''Folds.'''\n"
    "    def act(self, view):\n"
    "        return 0 if view.to_call else 1\n"
)


def test_a_label_comes_before_the_first_equals_sign_of_a_seat():
    assert split_label("me=bots.py:MyBot") == ("me", "bots.py:MyBot")
    assert split_label("Strong_2.b-x=loki2") == ("Strong_2.b-x", "loki2")
    assert split_label("loki1") == (None, "loki1")
    # a spec's own '=' comes after a ':' or '/': no label
    assert split_label("cmd:./bot --depth=3") == (None, "cmd:./bot --depth=3")
    assert split_label("td:runs/lr=0.1/checkpoint") == (None, "td:runs/lr=0.1/checkpoint")
    assert split_label("./a=b.py:Bot") == (None, "./a=b.py:Bot")
    assert split_label("runs/a=1/bots.py:Bot") == (None, "runs/a=1/bots.py:Bot")
    # a file whose path begins NAME= takes a label, split once
    assert split_label("me=a=b.py:Bot") == ("me", "a=b.py:Bot")
    assert split_label("loki1=loki1") == ("loki1", "loki1")


@pytest.mark.parametrize(
    ("seat", "message"),
    [
        ("my bot=random", "a label is 1 to 24 letters"),
        ("-x=random", "a label is 1 to 24 letters"),
        ("a<b>=random", "a label is 1 to 24 letters"),
        ("a#1=random", "a label is 1 to 24 letters"),
        (f"{'x' * 25}=random", "a label is 1 to 24 letters"),
        ("=random", "a label is 1 to 24 letters"),
        ("me=", "names no agent"),
        ("call=random", "the name of another agent"),
    ],
)
def test_a_bad_label_is_one_clear_line(seat, message):
    with pytest.raises(ConfigError, match=message):
        parse_lineup(f"{seat},call")


def test_lineups_keep_labels_and_count_labelled_seats(tmp_path):
    bot = tmp_path / "mybots.py"
    bot.write_text(BOT)
    assert parse_lineup(f"me={bot}:Folder,loki1") == [f"me={bot}:Folder", "loki1"]
    assert parse_lineup("strong=random:2,call") == ["strong=random", "strong=random", "call"]
    with pytest.raises(ConfigError, match="unknown agent 'nobody'"):
        parse_lineup("me=nobody")
    with pytest.raises(ConfigError, match="labels name the seats of a match"):
        parse_lineup("me=random", labels=False)


def test_seats_share_a_name_only_where_they_play_one_agent():
    names, agents = seat_names(["me=random", "random", "me=random", "random"])
    assert agents == ["random"] * 4
    assert unique_labels(names) == ["me#1", "random#1", "me#2", "random#2"]
    with pytest.raises(ConfigError, match="label 'me' names two different agents"):
        seat_names(["me=random", "me=call"])
    with pytest.raises(ConfigError, match="label 'Folder' names two different agents"):
        seat_names(["Folder=random", "bots.py:Folder"])


def test_labels_name_the_seats_in_results_summary_and_hands(tmp_path):
    bot = tmp_path / "mybots.py"
    bot.write_text(BOT)
    out = tmp_path / "run"
    result = play_match(
        [f"me={bot}:Folder", "strong=call", "random", "random"], 30, seed=2, out=out, isolate=False
    )
    assert result.labels == ["me", "strong", "random#1", "random#2"]
    assert [r.agent for r in result.results] == result.labels
    summary = json.loads((out / "summary.json").read_text())
    assert [r["agent"] for r in summary["results"]] == result.labels
    with open(out / "hands.csv") as f:
        header = next(csv.reader(f))
    assert header[-4:] == result.labels


def test_the_cli_takes_labels_and_refuses_a_bad_one_in_one_line(capsys):
    assert main(["match", "--agents", "me=random,call", "--hands", "10", "--json", "--no-progress"]) == 0
    assert [r["agent"] for r in json.loads(capsys.readouterr().out)["results"]] == ["me", "call"]
    assert main(["match", "--agents", "me=random,me=call", "--hands", "10", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert "label 'me' names two different agents" in err and len(err.splitlines()) == 1


def test_an_acpc_match_names_a_labelled_seat_by_its_label(capsys, tmp_path):
    status = main(
        ["acpc", "match", "--game", "holdem.limit.2p.reverse_blinds", "--hands", "10", "--seed", "4",
         "--connect-timeout", "30", "--json", "--out", str(tmp_path / "m"), "me=random", "raise"]
    )  # fmt: skip
    assert status == 0
    result = json.loads(capsys.readouterr().out)
    assert [r["agent"] for r in result["results"]] == ["me", "raise"]
    summary = json.loads((tmp_path / "m" / "summary.json").read_text())
    assert [r["agent"] for r in summary["results"]] == ["me", "raise"]
