import json

import numba
import numpy as np
import pytest

from pokerlab.analysis.income_rate import (
    income_rate,
    read_table,
    shipped_table,
    simulate_income_rate,
    simulate_table,
    write_table,
)
from pokerlab.analysis.starting_hands import (
    GRID,
    HOLDING_TYPE,
    STARTING_HANDS,
    check_type,
    combinations_of,
    example_holding,
    hand_type,
)
from pokerlab.errors import ConfigError, CorruptData, InvalidCards
from pokerlab.interfaces.cli import main

# Papp (1998) Appendix A, as transcribed from Papp 1998 Appendix A: IR x 1000, rows and columns ranks 2..A,
# suited where row > column, offsuit where row < column, pairs on the diagonal.
PAPP_APPENDIX_A = {
    2: """
    7 -351 -334 -314 -318 -308 -264 -217 -166 -113  -53   10   98
 -279   74 -296 -274 -277 -267 -251 -201 -148  -93  -35   27  116
 -263 -225  142 -236 -240 -231 -209 -185 -130  -75  -17   46  134
 -244 -206 -169  207 -201 -189 -169 -148 -114  -55    2   68  153
 -247 -208 -171 -138  264 -153 -134 -108  -78  -43   19   85  154
 -236 -200 -162 -125  -91  324  -99  -72  -43   -6   37  104  176
 -192 -182 -143 -108  -75  -43  384  -39   -4   29   72  120  197
 -152 -134 -122  -84  -50  -17   16  440   28   65  106  155  215
 -104  -86  -69  -56  -19   12   47   81  499  102  146  195  254
  -52  -35  -19    0   11   46   79  113  149  549  161  212  271
    2   21   34   55   72   86  121  153  188  204  598  228  289
   63   79   98  116  132  151  168  200  235  249  268  647  305
  146  164  180  198  198  220  240  257  291  305  323  339  704""",
    4: """
 -121 -440 -409 -382 -411 -432 -394 -357 -301 -259 -194 -116   16
 -271  -42 -345 -312 -340 -358 -371 -328 -277 -231 -165  -87   54
 -245 -183   52 -246 -269 -287 -300 -308 -252 -204 -135  -55   84
 -219 -151  -91  152 -200 -211 -227 -236 -227 -169 -104  -24  118
 -247 -177 -113  -52  256 -145 -152 -158 -152 -145  -74    9   99
 -261 -201 -129  -65    3  376  -76  -79  -68  -66  -44   48  148
 -226 -204 -140  -73   -2   66  503    0   15   24   45   84  194
 -191 -166 -147  -79   -5   68  138  647  104  113  136  177  241
 -141 -116  -91  -69   -4   75  150  235  806  226  255  295  354
  -89  -67  -41  -12    7   82  163  248  349  965  301  348  410
  -29   -3   22   51   80  108  185  274  379  423 1141  403  473
   47   76  101  128  161  199  230  318  425  473  529 1325  541
  175  211  237  266  249  295  338  381  491  539  594  655 1554""",
    7: """
   -6 -462 -422 -397 -459 -495 -469 -433 -383 -336 -274 -188  -39
 -180   21 -347 -304 -365 -418 -447 -414 -356 -308 -248 -163   -1
 -148  -69   67 -227 -273 -323 -362 -391 -334 -287 -223 -133   32
 -121  -38   31  122 -198 -230 -270 -303 -309 -259 -200 -103   64
 -174  -95  -10   64  206 -151 -175 -204 -217 -235 -164  -72   23
 -208 -135  -47   35  108  298  -87 -106 -112 -128 -124  -26   72
 -184 -164  -83    2   93  168  420   -5    6  -10  -10   22  126
 -146 -128 -111  -26   64  153  245  565  134  118  118  151  189
  -88  -68  -46  -29   59  155  268  383  765  299  305  336  373
  -38  -15    1   30   51  147  256  377  536  996  380  420  462
   35   49   72   99  127  162  268  384  553  628 1279  529  574
  117  141  167  190  223  261  304  423  591  669  764 1621  712
  269  304  333  363  313  365  416  475  644  720  815  934 2043""",
}


def noise(players: int, rate: np.ndarray, games: int) -> np.ndarray:
    """Standard error of IR x 1000 from `games` games: x * share has variance at most x^2 q (1 - q)."""
    q = np.clip((rate / 1000 + 1) / players, 1e-3, 1)
    return 1000 * players * np.sqrt(q * (1 - q) / games)


def test_starting_hand_types():
    assert len(STARTING_HANDS) == len(set(STARTING_HANDS)) == 169
    assert STARTING_HANDS[:3] == ("AA", "AKs", "AKo") and STARTING_HANDS[-1] == "22"
    assert sum(len(t) == 2 for t in STARTING_HANDS) == 13
    assert sum(t.endswith("s") for t in STARTING_HANDS) == 78
    counts = np.bincount(HOLDING_TYPE, minlength=169)
    assert counts.sum() == 1326
    assert all(counts[i] == combinations_of(t) for i, t in enumerate(STARTING_HANDS))
    assert hand_type("Ah Kh") == "AKs" and hand_type("2d 7c") == "72o" and hand_type("Td Tc") == "TT"
    assert GRID[12][6] == "A8s" and GRID[6][12] == "A8o" and GRID[0][0] == "22" and GRID[1][0] == "32s"
    assert check_type("t9S") == "T9s" and hand_type(example_holding("T9o")) == "T9o"
    with pytest.raises(InvalidCards, match="starting-hand type"):
        check_type("AAs")


@pytest.mark.parametrize("players", [2, 4, 7])
def test_shipped_tables_agree_with_papp_appendix_a(players):
    lines = PAPP_APPENDIX_A[players].strip().splitlines()
    papp = np.array([[int(x) for x in line.split()] for line in lines])
    ours = np.array(shipped_table(players).grid())
    # both are 1,000,000-game estimates rounded to integers
    z = (ours - papp) / np.sqrt(2 * noise(players, papp, 1_000_000) ** 2 + 2 / 12)
    assert np.abs(z).max() < 5, np.abs(z).max()
    assert 0.5 < (z**2).mean() < 2.0 and abs(z.mean()) < 0.3


def test_shipped_table_facts():
    for players in range(2, 11):
        table = shipped_table(players)
        assert table.players == players and table.games == 1_000_000
        assert max(table.income_rate, key=table.income_rate.get) == "AA"
        assert list(table.income_rate) == list(STARTING_HANDS)
    ten = shipped_table(10).income_rate
    assert min(ten, key=ten.get) == "72o"  # Billings et al. 1998 §4.1
    assert sum(v >= 0 for v in shipped_table(7).income_rate.values()) == 88  # Papp 1998 §5.1
    assert income_rate("Ah 8h", 4) == shipped_table(4)["A8s"]


def test_simulator_is_seeded_and_reproducible():
    a = simulate_income_rate("AKs", 4, 20_000, seed=7)
    assert simulate_income_rate("aks", 4, 20_000, seed=7) == a
    assert simulate_income_rate("AKs", 4, 20_000, seed=8) != a
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        assert simulate_income_rate("AKs", 4, 20_000, seed=7) == a
    finally:
        numba.set_num_threads(threads)
    table = simulate_table(4, 20_000, seed=7, types=["AKs", "72o"])
    seven_two = simulate_income_rate("72o", 4, 20_000, 7)
    assert table.income_rate == {"AKs": round(1000 * a), "72o": round(1000 * seven_two)}


def test_simulator_is_within_noise_of_the_shipped_table():
    games = 40_000
    small = simulate_table(3, games, seed=11)
    shipped = shipped_table(3)
    ours, reference = np.array(small.grid()), np.array(shipped.grid())
    sigma = np.sqrt(noise(3, reference, games) ** 2 + noise(3, reference, 1_000_000) ** 2 + 1 / 6)
    z = (ours - reference) / sigma
    assert np.abs(z).max() < 5 and 0.5 < (z**2).mean() < 2.0


def test_bad_arguments_are_reported():
    with pytest.raises(ConfigError, match="2 to 10"):
        simulate_income_rate("AA", 11, 100)
    with pytest.raises(ConfigError, match="games"):
        simulate_income_rate("AA", 3, 0)
    with pytest.raises(ConfigError, match="2 to 10"):
        shipped_table(1)


def test_tables_read_back_and_corrupt_files_are_reported(tmp_path):
    table = shipped_table(5)
    path = write_table(table, tmp_path / "t.json")
    assert read_table(path, 5) == table
    data = json.loads(path.read_text())
    del data["income_rate"]["AA"]
    (tmp_path / "missing_type.json").write_text(json.dumps(data))
    (tmp_path / "junk.json").write_text("{oops")
    for name in ("missing_type.json", "junk.json", "nothing.json"):
        with pytest.raises(CorruptData, match="preflop-table --players 5"):
            read_table(tmp_path / name, 5)
    with pytest.raises(CorruptData, match="whole 6-player"):
        read_table(path, 6)


def test_cli_preflop_table(capsys):
    assert main(["preflop-table", "--players", "7", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["players", "games", "income_rate"]
    assert out["players"] == 7 and out["games"] == 1_000_000 and len(out["income_rate"]) == 169
    assert out["income_rate"]["AA"] == shipped_table(7)["AA"]
    assert main(["preflop-table", "--players", "2"]) == 0
    assert "704" in capsys.readouterr().out.splitlines()[-1]  # the ace row ends with AA
    assert (
        main(
            ["preflop-table", "--players", "2", "--games", "2000", "--seed", "3", "--workers", "1", "--json"]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2000
    assert out["income_rate"]["32o"] == round(1000 * simulate_income_rate("32o", 2, 2000, 3))
