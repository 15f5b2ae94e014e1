import json
import tomllib
import warnings

import numpy as np
import pytest

from pokerlab.engine import GameConfig, HandState, record_of
from pokerlab.interfaces.cli import main
from pokerlab.interfaces.phh import hand_from_phh, read_phh, to_phh, to_phhs

pokerkit = pytest.importorskip("pokerkit")

from pokerkit_hands import play_pokerkit_hand  # noqa: E402

EXAMPLE = """variant = 'FT'
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
small_bet = 10
big_bet = 20
starting_stacks = [200, 200, 200]
_venue = 'kitchen table'
actions = ['d dh p1 AcAd', 'd dh p2 ????', 'd dh p3 7h2c', 'p3 f', 'p1 cbr 20', 'p2 cc # a comment',
           'd db KhQs3d', 'p1 cbr 10', 'p2 f']
finishing_stacks = [220, 180, 200]
"""


def test_example_replays():
    record = hand_from_phh(tomllib.loads(EXAMPLE))
    assert record.nets == (20, -20, 0)


def test_pokerkit_files_replay(tmp_path):
    rng = np.random.default_rng(3)
    texts, expected = [], []
    for _ in range(60):
        n = int(rng.integers(2, 11))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            phh, *_, nets = play_pokerkit_hand(rng, rng.integers(5, 200, n).tolist())
        texts.append(phh)
        expected.append(nets)
    for i, text in enumerate(texts):
        (tmp_path / f"{i:03}.phh").write_text(text)
    (tmp_path / "bad.phh").write_text(EXAMPLE.replace("'p1 cbr 10'", "'p1 cbr 15'"))
    hands = read_phh(tmp_path)
    assert [h.record.nets for h in hands[:60]] == [tuple(n) for n in expected]
    assert hands[60].error and "raise to 10" in hands[60].error


def test_our_phh_replays_in_pokerkit_and_back():
    rng = np.random.default_rng(8)
    for _ in range(30):
        n = int(rng.integers(2, 11))
        cards = rng.permutation(52).tolist()
        s = HandState(GameConfig(stack=1000), cards[: 2 * n], cards[2 * n : 2 * n + 5])
        while not s.is_over:
            legal = s.legal_actions()
            s.act(legal[rng.integers(1, len(legal))])  # no folds: PokerKit refuses free folds
        record = record_of(s, [1000] * n, [f"bot{i}" for i in range(n)])
        text = to_phh(record)
        assert hand_from_phh(tomllib.loads(text)).nets == record.nets
        states = list(pokerkit.HandHistory.loads(text))
        assert [a - b for a, b in zip(states[-1].stacks, record.stacks, strict=True)] == list(record.nets)


def test_history_replay_cli(tmp_path, capsys):
    records = []
    for seed in range(3):
        cards = np.random.default_rng(seed).permutation(52).tolist()
        s = HandState(GameConfig(), cards[:4], cards[4:9])
        for a in (2, 1, 1, 1, 1, 1, 1, 1):
            s.act(a)
        records.append(record_of(s, [1000, 1000]))
    (tmp_path / "three.phhs").write_text(to_phhs(records))
    (tmp_path / "broken.phh").write_text("variant = 'NT'\n")
    assert main(["history", "replay", str(tmp_path), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["hand"] == "broken.phh" and lines[0]["nets"] is None and "required" in lines[0]["error"]
    assert [x["hand"] for x in lines[1:]] == ["three.phhs#1", "three.phhs#2", "three.phhs#3"]
    assert [tuple(x["nets"]) for x in lines[1:]] == [r.nets for r in records]
    assert main(["history", "replay", str(tmp_path / "three.phhs")]) == 0
    assert "3 hands, 0 rejected" in capsys.readouterr().out
