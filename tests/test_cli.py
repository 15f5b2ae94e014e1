import json
import subprocess
import sys

import pytest

from pokerlab.interfaces.cli import main


def test_rank_json(capsys):
    assert main(["rank", "As Ks Qs Js Ts 2c 3d", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rank"] == 7462 and out["category"] == "Straight Flush"
    assert out["description"] == "Royal Flush" and out["best_five"] == "As Ks Qs Js Ts"


def test_rank_text_and_showdown(capsys):
    assert main(["rank", "Kh Kd Ks 5c 5h 2d 3c", "Ah Ad As 2c 2h 7d 9c"]) == 0
    out = capsys.readouterr().out
    assert "Full House, Kings full of Fives" in out
    assert "wins: Ah Ad As 2c 2h 7d 9c" in out


def test_errors_are_one_line_exit_2():
    for args in (["rank", "As Kx Qs Js Ts"], ["rank", "As Ks"], ["rank"], ["nonsense"]):
        proc = subprocess.run(
            [sys.executable, "-m", "pokerlab.interfaces.cli", *args], capture_output=True, text=True
        )
        assert proc.returncode == 2, args
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("pokerlab: error:"), proc.stderr
        assert "Traceback" not in proc.stderr


def test_demo_runs(capsys):
    assert main(["demo", "--hands", "2", "--seed", "1"]) == 0
    assert "Royal Flush" in capsys.readouterr().out


def _one_line_error(capsys, args) -> str:
    """Run the CLI in-process; it must fail with exit 2 and one `pokerlab: error:` line on stderr."""
    assert main(args) == 2, args
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and captured.err.startswith("pokerlab: error:"), captured.err
    return captured.err


def test_bad_seeds_and_ranges_are_refused(capsys):
    for args in (
        ["match", "--agents", "call,raise", "--hands", "10", "--seed", "-1"],
        ["demo", "--seed", "-5"],
        ["play", "--seed", "-1"],
        ["experiment", "loki-ablation", "--seed", "-1"],
        ["preflop-table", "--players", "3", "--seed", "-1"],
        ["demo", "--seed", "2**64"],
        ["demo", "--seed", str(2**63)],
    ):
        assert "seeds are integers 0 to 2**63 - 1" in _one_line_error(capsys, args)
    assert "hands are integers 0 to 1000; got -1" in _one_line_error(capsys, ["demo", "--hands", "-1"])
    err = _one_line_error(capsys, ["analyze", "Ad Qc", "3h 4c Jh", "--opponents", "50"])
    assert "opponents are integers 1 to 9; got 50" in err


def test_errors_name_cards_not_codes(capsys):
    err = _one_line_error(capsys, ["rank", "As Ks"])
    assert "'As Ks'" in err and "51" not in err
    import pytest

    from pokerlab import evaluate, parse_cards
    from pokerlab.errors import InvalidCards

    with pytest.raises(InvalidCards, match="'Kh' appears twice in 'As Kh Kh'"):
        parse_cards([51, 46, 46])
    with pytest.raises(InvalidCards, match="got 3: 'As Kh Qd'"):
        evaluate([51, 46, 41])


def test_preflop_write_keeps_the_shipped_table_unless_forced(capsys, monkeypatch, tmp_path):
    import pokerlab.analysis.commands as cli
    from pokerlab.analysis.income_rate import shipped_table

    err = _one_line_error(capsys, ["preflop-table", "--players", "3", "--games", "1000", "--write"])
    assert "1,000,000" in err and "--force" in err
    assert shipped_table(3).games == 1_000_000
    written = []
    monkeypatch.setattr(cli, "write_table", lambda table: written.append(table) or tmp_path / "t.json")
    args = ["preflop-table", "--players", "3", "--games", "1000", "--write", "--force", "--json"]
    assert main(args) == 0
    assert written and written[0].games == 1000
    assert json.loads(capsys.readouterr().out)["games"] == 1000


def test_closed_pipe_is_quiet():
    code = "import sys; from pokerlab.interfaces.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "preflop-table", "--players", "7"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdout.close()  # the reader goes away before anything is written, as `| head -1` can
    err = proc.stderr.read().decode()
    assert proc.wait() == 0
    assert err == "", err


def test_python_dash_m_pokerlab_is_the_command():
    done = subprocess.run(
        [sys.executable, "-m", "pokerlab", "match", "--agents", "call,raise", "--deals", "2", "--duplicate"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "call" in done.stdout and "raise" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "pokerlab", "match"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2 and "--agents" in bad.stderr


@pytest.mark.parametrize(
    "extra, says",
    [
        (["--small-bet", "0"], "--small-bet must be positive, got 0"),
        (["--action-timeout", "-1"], "--action-timeout must be a positive number of seconds, got -1.0"),
        (["--resume"], "--resume continues a run in its results folder: give --out"),
        (["--block", "0"], "--block must be a positive integer, got 0"),
    ],
)
def test_cli_errors_name_the_flags_the_user_typed(extra, says, capsys):
    assert main(["match", "--agents", "call,raise", "--hands", "10", *extra]) == 2
    assert capsys.readouterr().err == f"pokerlab: error: {says}\n"


def test_cli_errors_leave_out_python_only_advice():
    from pokerlab.interfaces.cli import _command_parser, build_parser, in_flags

    parser = _command_parser(build_parser(), ["train", "td"])
    said = "r already holds a training run: continue it with --resume (resume=True), or use another folder"
    assert (
        in_flags(said, parser)
        == "r already holds a training run: continue it with --resume, or use another folder"
    )
    assert (
        in_flags("unknown agent 'x'; known agents: call", parser) == "unknown agent 'x'; known agents: call"
    )


@pytest.mark.parametrize(
    "extra, says",
    [
        (["--opponents", "call", "--hands", "0"], "--hands must be a positive integer, got 0"),
        (["--opponents", "call", "--hands", "2", "--small-bet", "0"], "--small-bet must be positive, got 0"),
        (["--opponents", "call:10", "--hands", "2"], "--opponents: a table seats you and 1 to 9 opponents"),
        (["--opponents", "call,human", "--hands", "2"], "--opponents human: play seats one person"),
    ],
)
def test_play_says_only_the_error_no_greeting(extra, says, capsys, monkeypatch):
    """A bad play command prints its error and nothing before it; a second human at one terminal (who
    would see the first one's hole cards) is refused."""
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", *extra]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"pokerlab: error: {says}") and err.count("\n") == 1, (out, err)


def test_match_json_is_strict_json_when_a_statistic_is_undefined(capsys):
    """One hand: no standard deviation. --json prints null there, never a bare NaN (which is not JSON)."""
    assert main(["match", "--agents", "call,raise", "--hands", "1", "--json"]) == 0
    out = capsys.readouterr().out
    json.loads(out, parse_constant=lambda c: pytest.fail(f"bare {c} in --json output"))
