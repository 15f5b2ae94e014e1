import json
import subprocess
import sys

import numpy as np
import pytest

from pokerlab.analysis import (
    assess,
    call_value,
    effective_hand_strength,
    hand_potential,
    hand_strength,
    optimistic_hand_strength,
    pot_odds,
)
from pokerlab.errors import ConfigError
from pokerlab.interfaces.cli import main

ANALYZE_KEYS = [
    "hand_strength",
    "ahead",
    "tied",
    "behind",
    "hs_n",
    "ppot2",
    "npot2",
    "ppot1",
    "npot1",
    "potential2",
    "potential1",
    "ehs",
    "ehs_optimistic",
]


def test_ehs_formulas_papp_eq_6_3_and_6_4():
    assert effective_hand_strength(0.5, 0.2, 0.3) == pytest.approx(0.5 + 0.5 * 0.2 - 0.5 * 0.3)
    assert optimistic_hand_strength(0.5, 0.2) == pytest.approx(0.6)
    assert optimistic_hand_strength(1.0, 0.7) == 1.0 and effective_hand_strength(0.0, 0.0, 0.9) == 0.0
    with pytest.raises(ConfigError, match="ppot"):
        optimistic_hand_strength(0.5, 1.5)


def test_pot_odds_seed000_section_4_4_and_loki_spec_vectors():
    assert round(pot_odds(20, 175), 3) == 0.103  # the paper's example: call since Ppot .108 > .103
    assert pot_odds(4, 20) == 4 / 24
    assert call_value(0.2, to_call=4, pot=20) == pytest.approx(0.8)
    assert call_value(0.2, to_call=4, pot=12) == pytest.approx(-0.8)
    assert call_value(0.25, to_call=4, pot=20) == pytest.approx(2.0)
    assert pot_odds(0, 10) == 0.0
    with pytest.raises(ConfigError, match="to_call"):
        pot_odds(-1, 10)


def test_assessment_of_the_paper_example():
    result = assess("Ad Qc", "3h 4c Jh", opponents=5)
    report = result.to_dict()
    assert list(report) == ANALYZE_KEYS
    assert (report["ahead"], report["tied"], report["behind"]) == (628, 9, 444)
    assert round(report["hs_n"], 3) == 0.069
    assert [round(report[k], 3) for k in ("ppot2", "npot2", "ppot1", "npot1")] == [0.208, 0.274, 0.108, 0.145]
    hs_n, ppot, npot = report["hs_n"], report["ppot2"], report["npot2"]
    assert report["ehs"] == pytest.approx(hs_n + (1 - hs_n) * ppot - hs_n * npot)
    assert report["ehs_optimistic"] == pytest.approx(hs_n + (1 - hs_n) * ppot)
    one_card = assess("Ad Qc", "3h 4c Jh", opponents=5, flop_lookahead=1)
    assert one_card.ehs_optimistic == pytest.approx(hs_n + (1 - hs_n) * report["ppot1"])
    with pytest.raises(ConfigError, match="look-ahead"):
        assess("Ad Qc", "3h 4c Jh", flop_lookahead=3)


def test_assessment_streets():
    turn = assess("Ad Qc", "3h 4c Jh 5s").to_dict()
    assert turn["ppot2"] is turn["npot2"] is turn["potential2"] is None
    assert turn["ehs_optimistic"] == pytest.approx(turn["hs_n"] + (1 - turn["hs_n"]) * turn["ppot1"])
    river = assess("Ad Qc", "3h 4c Jh 5s 9d").to_dict()
    assert all(river[k] is None for k in ("ppot2", "npot2", "ppot1", "npot1", "potential2", "potential1"))
    assert river["ehs"] == river["ehs_optimistic"] == river["hs_n"]


def test_cli_analyze_json(capsys):
    assert main(["analyze", "Ad Qc", "3h 4c Jh", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ANALYZE_KEYS
    assert out["potential2"] == [[449_005, 3_211, 169_504], [0, 8_370, 540], [91_981, 1_036, 346_543]]
    assert len(out["potential1"]) == 3 and all(len(row) == 3 for row in out["potential1"])
    assert main(["analyze", "Ad Qc", "3h 4c Jh 5s 9d", "--opponents", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["potential1"] is None and out["hs_n"] == pytest.approx(out["hand_strength"] ** 3)


def test_cli_analyze_with_weights_and_text(tmp_path, capsys, rng):
    weights = rng.random(1326)
    np.save(tmp_path / "w.npy", weights)
    assert main(["analyze", "Ah 8h", "9h 8c 2c", "--weights", str(tmp_path / "w.npy"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hand_strength"] == pytest.approx(hand_strength("Ah 8h", "9h 8c 2c", weights).hand_strength)
    one_card = hand_potential("Ah 8h", "9h 8c 2c", weights).one_card
    assert out["ppot1"] == pytest.approx(one_card.positive_potential)
    assert main(["analyze", "Ad Qc", "3h 4c Jh"]) == 0
    text = capsys.readouterr().out
    assert "ahead 628, tied 9, behind 444" in text and "Ppot 0.208, Npot 0.274" in text


@pytest.mark.parametrize(
    "args",
    [
        ["analyze", "Ad Qx", "3h 4c Jh"],
        ["analyze", "Ad Qc", "3h 4c"],
        ["analyze", "Ad Qc Kd", "3h 4c Jh"],
        ["analyze", "Ad Qc", "3h 4c Qc"],
        ["analyze", "Ad Qc", "3h 4c Jh", "--opponents", "0"],
        ["analyze", "Ad Qc", "3h 4c Jh", "--weights", "{short}"],
        ["analyze", "Ad Qc", "3h 4c Jh", "--weights", "{junk}"],
        ["analyze", "Ad Qc", "3h 4c Jh", "--weights", "{missing}"],
        ["preflop-table", "--players", "1"],
        ["preflop-table", "--players", "11"],
        ["preflop-table"],
        ["preflop-table", "--players", "4", "--games", "0"],
        ["preflop-table", "--players", "4", "--write"],
    ],
)
def test_cli_errors_are_one_line_exit_2(tmp_path, args):
    (tmp_path / "short.json").write_text("[1, 2, 3]")
    (tmp_path / "junk.npy").write_bytes(b"\x93NUMPY garbage")
    files = {
        "short": tmp_path / "short.json",
        "junk": tmp_path / "junk.npy",
        "missing": tmp_path / "none.npy",
    }
    args = [a.format(**files) for a in args]
    proc = subprocess.run(
        [sys.executable, "-m", "pokerlab.interfaces.cli", *args], capture_output=True, text=True
    )
    assert proc.returncode == 2, (args, proc.stderr)
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("pokerlab: error:"), proc.stderr
