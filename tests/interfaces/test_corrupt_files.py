"""Fuzz: corrupted PHH files, hand stores and results folders give the project's error naming the file
(one line: what is wrong), never a Python error (TypeError, KeyError, JSONDecodeError ...). Seeded: a few
thousand corruptions each (byte flips, truncations, fields swapped or replaced), a few seconds each."""

import json
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

import numpy as np
import pytest

from pokerlab import play_match
from pokerlab.arena import output
from pokerlab.arena.store import read_decisions
from pokerlab.errors import PokerlabError
from pokerlab.interfaces.cli import main
from pokerlab.interfaces.phh import read_phh, read_store, to_phhs

CORRUPTIONS = 3000


@pytest.fixture
def scratch(tmp_path):
    """A folder for the mutants: in memory (/dev/shm) where there is one, as thousands of files are
    written and read back."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(dir=shm, prefix="pokerlab-fuzz-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A small results folder: 6 hands of three agents."""
    folder = tmp_path_factory.mktemp("fuzz") / "r"
    play_match(["random", "call", "raise"], 6, seed=3, out=folder, sessions=2, log_decisions=True)
    return folder


def _bytes_mutant(data: bytes, rng: np.random.Generator) -> bytes:
    """Flip a few bytes, cut the tail, or splice in a copy of another stretch."""
    data = bytearray(data)
    kind = rng.integers(3)
    if kind == 0:
        for _ in range(rng.integers(1, 6)):
            data[rng.integers(len(data))] = int(rng.integers(256))
    elif kind == 1:
        data = data[: rng.integers(len(data))]
    else:
        a, b = sorted(rng.integers(len(data), size=2))
        at = rng.integers(len(data))
        data[at:at] = data[a:b]
    return bytes(data)


def _check_one_line(exc: BaseException, name: str) -> None:
    assert isinstance(exc, PokerlabError), repr(exc)
    assert name in str(exc) and "\n" not in str(exc), str(exc)


#: Values a field swap may put into a stored field, of every type a SQLite column can hold.
ODD_VALUES = [
    None,
    "",
    "x",
    "1 2 x",
    "-5 -5",
    "1e999",
    "[]",
    "{}",
    '["a"]',
    "[1, 2]",
    "null",
    b"",
    b"\xff",
    b"\x00\x00",
    0,
    -1,
    2**62,
    1.5,
    "NaN",
    '{"small_bet": "x"}',
    '{"small_bet": 10}',
    "p²",
    "²",
]


def _store_field_mutant(source, target, rng: np.random.Generator) -> None:
    """Copy the store, then swap two fields of a row, or put an odd value into one."""
    shutil.copy(source, target)
    db = sqlite3.connect(target)
    db.execute("PRAGMA synchronous = OFF")  # a throwaway copy: no wait for the disk
    db.execute("PRAGMA journal_mode = MEMORY")
    table, columns = [
        ("hands", ["deal", "session", "config", "names", "stacks", "holes", "board", "actions", "nets"]),
        ("configs", ["config", "id"]),
        ("decisions", ["seat", "action", "probabilities", "info"]),
        ("sessions", ["report"]),
    ][rng.integers(4)]
    rowid = int(rng.integers(1, 4))
    a, b = rng.choice(columns, size=2)
    value = ODD_VALUES[rng.integers(len(ODD_VALUES))]
    try:
        if rng.integers(2):
            db.execute(f"UPDATE {table} SET {a} = {b} WHERE rowid = ?", (rowid,))
        else:
            db.execute(f"UPDATE {table} SET {a} = ? WHERE rowid = ?", (value, rowid))
    except sqlite3.Error:  # a constraint: the store keeps such a row out, and so can the fuzz
        pass
    db.commit()
    db.close()


def test_fuzz_hand_stores(run, scratch):
    rng = np.random.default_rng(1)
    source = run / "hands.sqlite"
    original = source.read_bytes()
    target = scratch / "hands.sqlite"
    for k in range(CORRUPTIONS):
        target.unlink(missing_ok=True)
        if k % 2:
            target.write_bytes(_bytes_mutant(original, rng))
        else:
            _store_field_mutant(source, target, rng)
        for read in (read_store, read_decisions):
            try:
                read(target)
            except Exception as exc:  # noqa: BLE001 - what the test is about
                _check_one_line(exc, str(target))


def test_fuzz_phh_files(run, scratch):
    from pokerlab.arena.store import read_hands

    text = to_phhs([r for _, r in read_hands(run / "hands.sqlite")]).encode()
    rng = np.random.default_rng(2)
    words = [
        b"p1",
        b"p2",
        b"p3",
        b"p\xc2\xb2",
        b"cbr",
        b"cc",
        b"f",
        b"sm",
        b"d db",
        b"d dh",
        b"10",
        b"-1",
        b"1e9",
        b"1.5",
        b"[",
        b"]",
        b'"',
        b",",
        b"= ",
        b"AcAc",
        b"????",
        b"players",
        b"actions",
        b"small_bet",
    ]
    target = scratch / "hands.phhs"
    for _ in range(CORRUPTIONS):
        if rng.integers(2):
            data = _bytes_mutant(text, rng)
        else:  # a word of PHH put in place of another
            parts = text.split(b" ")
            parts[rng.integers(len(parts))] = words[rng.integers(len(words))]
            data = b" ".join(parts)
        target.write_bytes(data)
        try:
            for hand in read_phh(target):
                assert hand.name.startswith(target.name) and (hand.record is None) == bool(hand.error)
        except Exception as exc:  # noqa: BLE001 - what the test is about
            _check_one_line(exc, str(target))


def test_fuzz_results_folders(run, scratch, monkeypatch):
    monkeypatch.setattr(output, "plot_bankroll", lambda *args, **kwargs: None)  # the reader, not the plot
    rng = np.random.default_rng(3)
    config, hands = (run / "config.json").read_bytes(), (run / "hands.csv").read_bytes()
    meta = json.loads(config)
    folder = scratch / "r"
    shutil.copytree(run, folder)
    for k in range(CORRUPTIONS):
        (folder / "config.json").write_bytes(config)
        (folder / "hands.csv").write_bytes(hands)
        shutil.copy(run / "hands.sqlite", folder / "hands.sqlite")
        name = "config.json"
        if k % 4 == 0:
            (folder / "config.json").write_bytes(_bytes_mutant(config, rng))
        elif k % 4 == 1:  # a field of config.json swapped with another or replaced by an odd value
            bad = dict(meta)
            a, b = rng.choice(sorted(meta), size=2)
            bad[a] = meta[b] if rng.integers(2) else [None, "x", -1, [], {}, 1.5, ["a"]][rng.integers(7)]
            (folder / "config.json").write_text(json.dumps(bad))
        elif k % 4 == 2:
            name = "hands.csv"
            (folder / "hands.csv").write_bytes(_bytes_mutant(hands, rng))
        else:
            name = "hands.sqlite"
            (folder / "hands.sqlite").unlink()
            _store_field_mutant(run / "hands.sqlite", folder / "hands.sqlite", rng)
        try:
            output.summarize_folder(folder)
        except Exception as exc:  # noqa: BLE001 - what the test is about
            assert isinstance(exc, PokerlabError), (name, repr(exc))
            assert str(folder) in str(exc) and "\n" not in str(exc), str(exc)


def test_a_phh_player_named_p_squared_is_one_line_and_the_folder_goes_on(run, tmp_path, capsys):
    from pokerlab.arena.store import read_hands

    good = to_phhs([r for _, r in read_hands(run / "hands.sqlite")][:1]).split("\n", 1)[1]
    (tmp_path / "a.phh").write_text(good)
    (tmp_path / "b.phh").write_text(good.replace("p1 ", "p² ").replace('"call"', '"p²"'))
    (tmp_path / "c.phh").write_text(good)
    assert main(["history", "replay", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("a.phh: nets") and out[2].startswith("c.phh: nets"), out
    assert out[1].startswith("b.phh: rejected: player 'p²'"), out


def test_history_export_of_a_store_with_a_bad_stacks_field_is_one_line(run, tmp_path, capsys):
    store = tmp_path / "hands.sqlite"
    shutil.copy(run / "hands.sqlite", store)
    db = sqlite3.connect(store)
    db.execute("UPDATE hands SET stacks = 'x 1' WHERE hand = 2")
    db.commit()
    db.close()
    assert main(["history", "export", str(store), "--out", str(tmp_path / "h.phhs")]) == 2
    err = capsys.readouterr().err
    assert (
        err == f"pokerlab: error: {store}: hand 2: bad stacks (invalid literal for int() with base 10: 'x')\n"
    )


def test_fuzz_resume_of_a_corrupted_folder(run, scratch):
    """--resume of a results folder with a corrupted hands.csv, hands.sqlite or config.json: it continues,
    or stops with the project's error naming the folder or file; never a Python error."""
    from pokerlab.arena.output import ResultsWriter

    meta = json.loads((run / "config.json").read_text())
    labels = meta["agents"]
    rng = np.random.default_rng(4)
    hands, config = (run / "hands.csv").read_bytes(), (run / "config.json").read_bytes()
    folder = scratch / "resume"
    for k in range(1500):
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(run, folder)
        if k % 3 == 0:
            (folder / "hands.csv").write_bytes(_bytes_mutant(hands, rng))
        elif k % 3 == 1:
            (folder / "hands.sqlite").unlink()
            if k % 2:
                (folder / "hands.sqlite").write_bytes(_bytes_mutant((run / "hands.sqlite").read_bytes(), rng))
            else:
                _store_field_mutant(run / "hands.sqlite", folder / "hands.sqlite", rng)
        else:
            (folder / "config.json").write_bytes(_bytes_mutant(config, rng))
        try:
            ResultsWriter(folder, labels, meta, resume=True).close()
        except Exception as exc:  # noqa: BLE001 - what the test is about
            assert isinstance(exc, PokerlabError), repr(exc)
            assert str(folder) in str(exc) and "\n" not in str(exc), str(exc)
