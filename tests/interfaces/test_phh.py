import json
import tomllib
import warnings

import numpy as np
import pytest

from pokerlab.cards import parse_cards
from pokerlab.engine import GameConfig, HandState, record_of
from pokerlab.errors import CorruptData, IllegalAction, InvalidCards
from pokerlab.interfaces.cli import main
from pokerlab.interfaces.phh import hand_from_phh, read_phh, to_phh, to_phhs

pokerkit = pytest.importorskip("pokerkit")

from pokerkit_hands import play_pokerkit_hand, replay_in_pokerkit  # noqa: E402

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
        assert replay_in_pokerkit(text) == list(record.nets)


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
    assert main(["history", "replay", str(tmp_path), "--json"]) == 1  # one hand rejected
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["hand"] == "broken.phh" and lines[0]["nets"] is None and "required" in lines[0]["error"]
    assert [x["hand"] for x in lines[1:]] == ["three.phhs#1", "three.phhs#2", "three.phhs#3"]
    assert [tuple(x["nets"]) for x in lines[1:]] == [r.nets for r in records]
    assert main(["history", "replay", str(tmp_path / "three.phhs")]) == 0
    assert "3 hands, 0 rejected" in capsys.readouterr().out


def random_record(rng, free_folds: bool = True, max_stack: int = 120):
    """A hand of random legal actions with short real stacks (all-ins and side pots are common)."""
    n = int(rng.integers(2, 11))
    stacks = rng.integers(1, max_stack, n).tolist()
    cards = rng.permutation(52).tolist()
    s = HandState(GameConfig(stack=max(stacks)), cards[: 2 * n], cards[2 * n : 2 * n + 5], stacks)
    while not s.is_over:
        legal = [a for a in s.legal_actions() if free_folds or a != 0 or s.to_call()]
        s.act(legal[rng.integers(len(legal))])
    return record_of(s, stacks, [f"bot{i}" for i in range(n)])


def _round_trip(count: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(count):
        record = random_record(rng, free_folds=False)
        text = to_phh(record)
        back = hand_from_phh(tomllib.loads(text))
        assert (back.nets, back.board, back.holes, back.actions) == (
            record.nets,
            record.board,
            record.holes,
            record.actions,
        ), text
        assert replay_in_pokerkit(text) == list(record.nets), text


def test_short_stack_exports_round_trip_here_and_in_pokerkit():
    _round_trip(400, 11)


@pytest.mark.slow
def test_short_stack_exports_round_trip_3000():
    _round_trip(3000, 2026)


def test_free_folds_round_trip_here():
    """A fold when checking is free is legal here (PokerKit only warns); our own import keeps the nets."""
    rng = np.random.default_rng(12)
    for _ in range(300):
        record = random_record(rng, free_folds=True)
        assert hand_from_phh(tomllib.loads(to_phh(record))).nets == record.nets


def test_all_in_shows_before_the_run_out_and_keeps_a_board_without_betting():
    cards = parse_cards("As Ah Kd Kc 2s 7h 9d Jc 3c")
    s = HandState(GameConfig(stack=100), cards[:4], cards[4:], [3, 50])  # p1 all-in on the big blind
    assert s.is_over  # nobody had a decision
    record = record_of(s, [3, 50])
    actions = tomllib.loads(to_phh(record))["actions"]
    assert actions[2:] == ["p1 sm AsAh", "p2 sm KdKc", "d db 2s7h9d", "d db Jc", "d db 3c"]
    assert hand_from_phh(tomllib.loads(to_phh(record))).board == record.board
    assert replay_in_pokerkit(to_phh(record)) == list(record.nets) == [3, -3]


def test_pokerkit_mucks_are_settled_like_pokerkit():
    rng = np.random.default_rng(7)
    mucked = compared = 0
    for _ in range(600):
        n = int(rng.integers(2, 11))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            phh, *_, nets = play_pokerkit_hand(rng, rng.integers(5, 200, n).tolist(), muck=0.5)
        data = tomllib.loads(phh)
        bare = [a for a in data["actions"] if a.split()[1:] == ["sm"]]
        shows = [a for a in data["actions"] if a.split()[1:2] == ["sm"]]
        if bare and len(bare) == len(shows):  # everyone mucked: PokerKit loses the pot, we refuse
            with pytest.raises(IllegalAction, match="every player at the showdown mucked"):
                hand_from_phh(data)
            continue
        mucked += bool(bare)
        compared += 1
        assert list(hand_from_phh(data).nets) == nets, phh
    assert mucked >= 15 and compared > 500


BASE = {
    "variant": "FT",
    "antes": [0, 0],
    "blinds_or_straddles": [5, 10],
    "small_bet": 10,
    "big_bet": 20,
    "starting_stacks": [200, 200],
    "actions": ["d dh p1 AcAd", "d dh p2 KsKh", "p2 cbr 20", "p1 cc", "d db 2c3d4h", "p1 cc", "p2 cc"]
    + ["d db 9s", "p1 cc", "p2 cc", "d db Jd", "p1 cc", "p2 cc"],
}


def _with(**changes) -> dict:
    return {**BASE, **changes}


@pytest.mark.parametrize(
    ("data", "error", "match"),
    [
        (_with(actions=BASE["actions"][:2] + ["p2 cbr nan"]), CorruptData, "nan"),
        (_with(starting_stacks=[200, float("nan")]), CorruptData, "whole chip amounts"),
        (_with(starting_stacks=[200, -5]), CorruptData, "positive"),
        (_with(actions=5), CorruptData, "actions must be a list"),
        (_with(actions=[5]), CorruptData, "actions are strings"),
        (_with(starting_stacks=[]), CorruptData, "2 to 10 players"),
        (_with(players=5), CorruptData, "players must be a list"),
        (_with(small_bet="10"), CorruptData, "whole chip amounts"),
        (_with(blinds_or_straddles=[5, 10, 0, 0]), CorruptData, "more entries"),
        (_with(actions=BASE["actions"][:-1] + ["p1 sm AcAd"]), IllegalAction, "before the betting is over"),
        (_with(actions=BASE["actions"] + ["p1 sm QcQd"]), InvalidCards, "shows Qc Qd but p1 was dealt Ac Ad"),
        (
            _with(actions=BASE["actions"] + ["d db 5s", "d db 6s", "d db 7s"]),
            InvalidCards,
            "a board has five",
        ),
        (
            _with(actions=BASE["actions"][:3] + ["d db 2c3d4h"] + BASE["actions"][3:4] + BASE["actions"][5:]),
            IllegalAction,
            "pre-flop",
        ),
        (
            _with(
                actions=BASE["actions"][:4]
                + BASE["actions"][5:6]
                + BASE["actions"][4:5]
                + BASE["actions"][6:]
            ),
            IllegalAction,
            "only 0 board cards are dealt",
        ),
        (_with(actions=BASE["actions"][:4] + ["d db 2c3d"] + BASE["actions"][5:]), InvalidCards, "three"),
        (_with(actions=["d dh p1 AcAd", "d dh p2 AcKh", "p2 f"]), InvalidCards, "appears twice"),
        (_with(actions=["d dh p1 AcAd", "d dh p2 KsKh", "p2 f", "d db 2c3d4h"]), IllegalAction, "over"),
        ("not a table", CorruptData, "TOML table"),
    ],
)
def test_bad_values_are_rejected_with_a_reason(data, error, match):
    with pytest.raises(error, match=match):
        hand_from_phh(data)


def test_base_hand_replays():
    assert hand_from_phh(BASE).nets == (20, -20)  # aces hold


@pytest.mark.parametrize(
    ("name", "content", "match"),
    [
        ("empty.phh", "", "holds no hands"),
        ("deep.phh", "x = " + "[" * 100_000, "nested too deeply|not valid TOML"),
        ("binary.phh", b"\x00\xff\xfe\x80" * 10, "not a text file"),
        ("hand.json", "{}", "not a PHH file"),
        ("broken.phh", "variant = 'FT\n", "not valid TOML"),
    ],
)
def test_unreadable_files_are_errors(tmp_path, capsys, name, content, match):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(CorruptData, match=match):
        read_phh(path)
    assert main(["history", "replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pokerlab: error:") and err.count("\n") == 1


def test_missing_file_is_an_error(tmp_path, capsys):
    assert main(["history", "replay", str(tmp_path / "nonexistent.phh")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_folder_with_a_bad_file_goes_on(tmp_path, capsys):
    (tmp_path / "good.phh").write_text(EXAMPLE)
    (tmp_path / "bad.phh").write_bytes(b"\x00\xff")
    (tmp_path / "notes.txt").write_text("not a hand history")
    assert main(["history", "replay", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "bad.phh: unreadable: " in out and "good.phh: nets +20 -20 +0" in out
    assert "1 hands, 0 rejected; 1 file(s) could not be read" in out


def test_history_show_reads_like_a_person(tmp_path, capsys):
    path = tmp_path / "hand.phh"
    path.write_text(EXAMPLE.replace("_venue = 'kitchen table'", "players = ['ann', 'bob', 'cy']"))
    assert main(["history", "show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "p3 (cy) folds, p1 (ann) raises to 20, p2 (bob) calls 10" in out
    assert "Flop [Kh Qs 3d]: p1 (ann) bets 10, p2 (bob) folds" in out
    assert "p1 (ann) takes 50 (net +20)" in out


def test_history_show_showdown_and_run_out(tmp_path, capsys):
    cards = parse_cards("As Ah Kd Kc 2s 7h 9d Jc 3c")
    record = record_of(HandState(GameConfig(stack=100), cards[:4], cards[4:], [3, 50]), [3, 50])
    (tmp_path / "h.phhs").write_text(to_phhs([record]))
    assert main(["history", "show", str(tmp_path / "h.phhs")]) == 0
    out = capsys.readouterr().out
    assert "Flop [2s 7h 9d]\nTurn [2s 7h 9d] Jc\nRiver [2s 7h 9d] Jc 3c\n" in out
    assert "p1 shows As Ah: Pair of Aces" in out and "p2 shows Kd Kc: Pair of Kings" in out
    assert "Nets: p1 +3, p2 -3" in out


def test_history_export_from_a_results_folder(tmp_path, capsys):
    out_dir = tmp_path / "run"
    args = ["match", "--agents", "random,random,call", "--hands", "40", "--stack", "150", "--seed", "4"]
    assert main([*args, "--out", str(out_dir), "--json"]) == 0
    played = json.loads(capsys.readouterr().out)["hands"]  # a match ends early when players go broke
    target = tmp_path / "hands.phhs"
    assert main(["history", "export", str(out_dir), "--out", str(target)]) == 0
    assert main(["history", "export", str(out_dir / "hands.sqlite"), "--out", str(target)]) == 2  # exists
    assert "--force" in capsys.readouterr().err
    hands = read_phh(target)
    assert len(hands) == played >= 5 and not [h.error for h in hands if h.error]
    assert main(["history", "replay", str(out_dir), "--json"]) == 0
    stored = [json.loads(x)["nets"] for x in capsys.readouterr().out.splitlines()]
    assert stored == [list(h.record.nets) for h in hands]
    for table in tomllib.loads(target.read_text()).values():
        text = "\n".join(f"{k} = {json.dumps(v)}" for k, v in table.items())
        assert replay_in_pokerkit(text) == [
            b - a for a, b in zip(table["starting_stacks"], table["finishing_stacks"], strict=True)
        ]
