import json
import subprocess
import sys

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
