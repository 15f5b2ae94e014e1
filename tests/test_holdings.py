import json

import numpy as np
import pytest

from pokerlab.cards import parse_cards
from pokerlab.errors import ConfigError, CorruptData
from pokerlab.holdings import (
    CARD_HOLDINGS,
    HOLDING_CARDS,
    HOLDING_INDEX,
    NUM_HOLDINGS,
    check_weights,
    field_array,
    holding_index,
    holding_text,
    live_holdings,
    load_weights,
    normalise,
    uniform_weights,
)


def test_holding_index_is_a_bijection():
    assert HOLDING_CARDS.shape == (NUM_HOLDINGS, 2) == (1326, 2)
    assert (HOLDING_CARDS[:, 0] < HOLDING_CARDS[:, 1]).all()
    assert len({tuple(h) for h in HOLDING_CARDS.tolist()}) == 1326
    assert (HOLDING_INDEX[HOLDING_CARDS[:, 0], HOLDING_CARDS[:, 1]] == np.arange(1326)).all()
    assert (HOLDING_INDEX == HOLDING_INDEX.T).all() and (np.diag(HOLDING_INDEX) == -1).all()
    for card in (0, 37, 51):
        assert len(set(CARD_HOLDINGS[card])) == 51
        assert all(card in HOLDING_CARDS[i] for i in CARD_HOLDINGS[card])
    assert holding_index("Ad Qc") == holding_index("Qc Ad") == holding_index([49, 40])
    assert holding_text(holding_index("Ad Qc")) == "Qc Ad"
    assert holding_text(0) == "2c 2d" and holding_text(1325) == "Ah As"
    with pytest.raises(ConfigError, match="2 cards"):
        holding_index("Ad Qc Jh")
    with pytest.raises(ConfigError, match="0..1325"):
        holding_text(1326)


@pytest.mark.parametrize(
    ("dead", "live"),
    [
        ("", 1326),
        ("Ad Qc", 1225),
        ("Ad Qc 3h 4c Jh", 1081),
        ("Ad Qc 3h 4c Jh 5s", 1035),
        ("Ad Qc 3h 4c Jh 5s 9d", 990),
    ],
)
def test_live_holdings_leave_out_dead_cards(dead, live):
    mask = live_holdings(parse_cards(dead))
    assert mask.sum() == live
    dead_set = set(parse_cards(dead))
    assert all(not (set(h) & dead_set) for h in HOLDING_CARDS[mask].tolist())


def test_normalise_and_field_array(rng):
    dead = parse_cards("Ad Qc 3h 4c Jh")
    table = rng.random(1326)
    norm = normalise(table, dead)
    assert norm.sum() == pytest.approx(1.0)
    assert (norm[~live_holdings(dead)] == 0).all()
    live = live_holdings(dead)
    assert np.allclose(norm[live], table[live] / table[live].sum())
    other = uniform_weights()
    field = field_array([table, other], dead)
    assert np.allclose(field, (norm + normalise(other, dead)) / 2)
    assert field.sum() == pytest.approx(1.0)
    with pytest.raises(ConfigError, match="no weight"):
        normalise(np.where(live_holdings(dead), 0.0, 1.0), dead)
    with pytest.raises(ConfigError, match="at least one"):
        field_array([])


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (np.ones(1325), "shape"),
        (np.ones((2, 1326)), "shape"),
        (np.full(1326, np.nan), "finite"),
        (-np.ones(1326), ">= 0"),
        (["x"] * 1326, "floats"),
    ],
)
def test_check_weights_rejects_bad_tables(bad, message):
    with pytest.raises(ConfigError, match=message):
        check_weights(bad)


def test_load_weights_round_trip_and_corrupt_files(tmp_path, rng):
    table = rng.random(1326)
    np.save(tmp_path / "w.npy", table)
    assert np.array_equal(load_weights(tmp_path / "w.npy"), table)
    (tmp_path / "w.json").write_text(json.dumps(table.tolist()))
    assert np.array_equal(load_weights(tmp_path / "w.json"), table)
    (tmp_path / "w.txt").write_text("\n".join(map(repr, table.tolist())))
    assert np.array_equal(load_weights(tmp_path / "w.txt"), table)
    (tmp_path / "short.json").write_text(json.dumps([1.0] * 10))
    (tmp_path / "junk.json").write_text('{"weights": oops')
    (tmp_path / "junk.npy").write_bytes(b"not numpy")
    for name, message in (
        ("short.json", "shape"),
        ("junk.json", "cannot read"),
        ("junk.npy", "cannot read"),
        ("missing.npy", "cannot read"),
    ):
        with pytest.raises(CorruptData, match=message):
            load_weights(tmp_path / name)


@pytest.mark.parametrize("content", [b"garbage bytes, not numpy\n", b"", "objects"])
def test_a_garbage_npy_weight_table_is_our_one_line_without_numpys_pickle_advice(tmp_path, content):
    from pokerlab.errors import CorruptData
    from pokerlab.holdings import load_weights

    path = tmp_path / "w.npy"
    if content == "objects":
        np.save(path, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    else:
        path.write_bytes(content)
    with pytest.raises(CorruptData) as error:
        load_weights(path)
    assert str(error.value) == (
        f"cannot read weight table {str(path)!r}: not a NumPy .npy file of numbers (made by numpy.save of a "
        "float array)"
    )
