"""The 1,326 two-card holdings, their index, and weight tables over them: checks, dead cards, normalisation,
the multi-opponent field array and loading from a file.

This module sits below `analysis` and `modeling`: both index holdings and take weight tables, and it
imports only `cards` and `errors`, so imports between the floors go one way (down).

A weight table is a float64 numpy array of shape (1326,): entry i is the relative likelihood that an
opponent holds `HOLDING_CARDS[i]` (Billings et al. 1998 §4.3; Papp 1998 §7.1.1 "weight array", reset to 1 at
the start of a hand). Holding i is the pair of card codes ``(c1, c2)`` with ``c1 < c2``, in lexicographic
order: (0, 1), (0, 2), ..., (50, 51).

>>> holding_text(0), holding_index("Ad Qc"), NUM_HOLDINGS
('2c 2d', 1268, 1326)
>>> int(live_holdings(parse_cards("Ad Qc 3h 4c Jh")).sum())  # 47 cards unseen: 47 * 46 / 2 holdings
1081
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from pokerlab.cards import CARD_MASKS, NUM_CARDS, format_cards, parse_cards
from pokerlab.errors import ConfigError, CorruptData

NUM_HOLDINGS = NUM_CARDS * (NUM_CARDS - 1) // 2

#: HOLDING_CARDS[i] = (c1, c2) with c1 < c2: the two card codes of holding i (uint8, shape (1326, 2)).
HOLDING_CARDS = np.array([(a, b) for a in range(NUM_CARDS) for b in range(a + 1, NUM_CARDS)], dtype=np.uint8)

#: HOLDING_INDEX[c1, c2] = HOLDING_INDEX[c2, c1] = index of the holding {c1, c2}; -1 on the diagonal.
HOLDING_INDEX = np.full((NUM_CARDS, NUM_CARDS), -1, dtype=np.int16)
HOLDING_INDEX[HOLDING_CARDS[:, 0], HOLDING_CARDS[:, 1]] = np.arange(NUM_HOLDINGS)
HOLDING_INDEX[HOLDING_CARDS[:, 1], HOLDING_CARDS[:, 0]] = np.arange(NUM_HOLDINGS)

#: The 64-bit card mask (`pokerlab.cards.CARD_MASKS`) of each holding.
HOLDING_MASKS = CARD_MASKS[HOLDING_CARDS[:, 0]] | CARD_MASKS[HOLDING_CARDS[:, 1]]
#: CARD_HOLDINGS[c] lists the 51 holdings that contain card c (int16, shape (52, 51)).
CARD_HOLDINGS = np.array(
    [[HOLDING_INDEX[c, x] for x in range(NUM_CARDS) if x != c] for c in range(NUM_CARDS)], dtype=np.int16
)


def holding_index(cards: str | Iterable[str | int]) -> int:
    """Index 0..1325 of a two-card holding given as text ("Ad Qc") or two codes, in either order."""
    codes = parse_cards(cards)
    if len(codes) != 2:
        raise ConfigError(f"a holding has 2 cards; got {len(codes)}: {cards!r}")
    return int(HOLDING_INDEX[codes[0], codes[1]])


def holding_text(index: int) -> str:
    """Text of holding `index`, e.g. 0 -> "2c 2d"."""
    if not 0 <= index < NUM_HOLDINGS:
        raise ConfigError(f"invalid holding index {index!r}: holdings are 0..{NUM_HOLDINGS - 1}")
    return format_cards(HOLDING_CARDS[index])


def live_holdings(dead: Sequence[int]) -> np.ndarray:
    """Boolean mask (1326,): True for the holdings that share no card with `dead` (e.g. our hole + board)."""
    dead_card = np.zeros(NUM_CARDS, dtype=bool)
    dead_card[list(dead)] = True
    return ~(dead_card[HOLDING_CARDS[:, 0]] | dead_card[HOLDING_CARDS[:, 1]])


def uniform_weights() -> np.ndarray:
    """The weight table of an opponent about whom nothing is known: 1 for every holding (Papp 1998 §7.1.1)."""
    return np.ones(NUM_HOLDINGS)


def check_weights(weights: object, what: str = "weight table") -> np.ndarray:
    """`weights` as a float64 array of shape (1326,) of finite values >= 0; else `ConfigError` saying why."""
    try:
        table = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"a {what} holds numbers; could not read it as floats: {exc}") from None
    if table.shape != (NUM_HOLDINGS,):
        raise ConfigError(f"a {what} has shape ({NUM_HOLDINGS},), one weight per holding; got {table.shape}")
    if not np.isfinite(table).all():
        i = int(np.argmin(np.isfinite(table)))
        raise ConfigError(f"a {what} holds finite numbers; holding {i} ({holding_text(i)}) has {table[i]}")
    if (table < 0).any():
        i = int(np.argmax(table < 0))
        raise ConfigError(f"weights are >= 0; holding {i} ({holding_text(i)}) has {table[i]}")
    return table


def normalise(weights: np.ndarray, dead: Sequence[int] = ()) -> np.ndarray:
    """The table with dead holdings set to 0 and the live ones scaled to sum 1 (Papp 1998 §5.2.1, §7.3.1).

    Raises `ConfigError` if no live holding has a positive weight.
    """
    table = np.where(live_holdings(dead), check_weights(weights), 0.0)
    total = table.sum()
    if total <= 0:
        raise ConfigError(f"a weight table gives no weight to any holding live beside {format_cards(dead)!r}")
    return table / total


def field_array(tables: Sequence[np.ndarray], dead: Sequence[int] = ()) -> np.ndarray:
    """The field array: the average of the active opponents' normalised weight tables (Papp §7.3.1,
    Papp 1998 §5.2.1, §7.3.1 (b)); hand strength against it, raised to the number of opponents, is Loki's
    HS_n.

    Card removal between opponents is ignored on purpose, as in the source.
    """
    if len(tables) == 0:
        raise ConfigError("a field array needs the weight table of at least one opponent")
    return np.mean([normalise(t, dead) for t in tables], axis=0)


def load_weights(path: str | Path) -> np.ndarray:
    """A weight table from a .npy file or a text/JSON file of 1,326 numbers; `CorruptData` if unreadable."""
    path = Path(path)
    try:
        if path.suffix == ".npy":
            raw = np.load(path, allow_pickle=False)
        else:
            text = path.read_text().translate(str.maketrans("[],", "   "))
            raw = np.array([float(x) for x in text.split()])
    except (OSError, ValueError, EOFError) as exc:
        why = str(exc)
        if path.suffix == ".npy" and ("pickle" in why or isinstance(exc, EOFError)):
            # numpy's advice (load with allow_pickle) would run code from the file: never ours to give
            why = "not a NumPy .npy file of numbers (made by numpy.save of a float array)"
        raise CorruptData(f"cannot read weight table {str(path)!r}: {why}") from None
    try:
        return check_weights(raw, what=f"weight table in {str(path)!r}")
    except ConfigError as exc:
        raise CorruptData(str(exc)) from None
