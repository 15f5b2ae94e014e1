import io
import json
import sys

from pokerlab.interfaces.cli import main


def test_match_json_schema(capsys, tmp_path):
    assert (
        main(
            [
                "match",
                "--agents",
                "random:2,call",
                "--hands",
                "40",
                "--seed",
                "3",
                "--json",
                "--out",
                str(tmp_path / "m"),
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == 40 and out["out"] == str(tmp_path / "m")
    assert [r["agent"] for r in out["results"]] == ["random#1", "random#2", "call"]
    assert [r["seat"] for r in out["results"]] == [0, 1, 2]
    for r in out["results"]:
        assert {"total", "sb_per_hand", "mbb_per_hand", "ci95"} <= set(r) and len(r["ci95"]) == 2


def test_match_duplicate_text(capsys):
    assert main(["match", "--agents", "call,raise", "--deals", "10", "--duplicate", "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert "20 hands: 10 deals, each played 2 times" in out and "raise" in out


def test_deals_and_hands_one_vocabulary(capsys, tmp_path):
    assert main(["match", "--agents", "call,raise", "--hands", "10", "--duplicate"]) == 2
    assert "give --deals N" in capsys.readouterr().err
    assert main(["match", "--agents", "call,raise", "--deals", "10"]) == 2
    assert "ordinary match plays --hands" in capsys.readouterr().err
    assert main(["experiment", "loki-ablation", "--deals", "0"]) == 2
    assert "deals must be a positive integer, got 0" in capsys.readouterr().err
    out = tmp_path / "d"
    assert (
        main(["match", "--agents", "call,raise,random", "--deals", "7", "--duplicate", "--out", str(out)])
        == 0
    )
    config = json.loads((out / "config.json").read_text())
    summary = json.loads((out / "summary.json").read_text())
    assert (config["deals"], config["hands"]) == (7, 21) == (summary["deals"], summary["hands_asked"])


def test_match_errors_are_one_line(capsys):
    assert main(["match", "--agents", "call,nobody", "--hands", "5"]) == 2
    assert capsys.readouterr().err.startswith("pokerlab: error: unknown agent 'nobody'")
    assert main(["match", "--agents", "call", "--hands", "5"]) == 2


def test_play_with_scripted_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("c\n" * 200))
    assert main(["play", "--opponents", "call", "--hands", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "you hold" in out and "you +" in out or "you -" in out
    assert "after 3 hands you are" in out


def test_human_in_a_match_at_end_of_input(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["match", "--agents", "human,call", "--hands", "3"]) == 2
    assert capsys.readouterr().err.strip() == "pokerlab: error: end of input: the human player left the match"


def test_an_unusable_out_is_one_line_and_exit_2(tmp_path, capsys):
    """--out that is a file, or lies below one, or cannot be created: one clear line, no traceback."""
    from pokerlab.interfaces.cli import main

    existing = tmp_path / "d1.json"
    existing.write_text("{}")
    for out in (existing, existing / "x", "/dev/null/x"):
        assert main(["match", "--agents", "call,raise", "--hands", "5", "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "cannot write the results folder" in err and "Traceback" not in err
    assert existing.read_text() == "{}"  # nothing written over
