import numpy as np
import pytest

from pokerlab.errors import CorruptData
from pokerlab.evaluator_tables import build_tables, load_tables, save_tables


def test_shipped_tables_equal_a_fresh_build():
    shipped, fresh = load_tables(), build_tables()
    for name, array in fresh.arrays().items():
        assert np.array_equal(shipped.arrays()[name], array), name


def test_tables_round_trip(tmp_path):
    path = tmp_path / "t.npz"
    save_tables(load_tables(), path)
    assert load_tables(path).multiplier == load_tables().multiplier


def test_corrupt_or_missing_file_is_reported(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a table")
    with pytest.raises(CorruptData, match="rebuild it with"):
        load_tables(bad)
    with pytest.raises(CorruptData, match="cannot read"):
        load_tables(tmp_path / "missing.npz")
    np.savez(
        bad,
        multiplier=np.zeros(1, np.uint64),
        displacement=np.zeros(3),
        nonflush=np.zeros(3),
        flush=np.zeros(3),
        category=np.zeros(3),
    )
    with pytest.raises(CorruptData, match="shape"):
        load_tables(bad)
