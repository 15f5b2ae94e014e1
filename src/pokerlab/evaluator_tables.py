"""Builds, stores and loads the lookup tables behind `pokerlab.evaluator`.

How a hand of 5 to 7 cards is looked up (see `pokerlab.evaluator.rank_of`):

* Each card adds ``5 ** rank`` to a *rank key* (a base-5 count of each rank, unique for every multiset of
  ranks) and one to its suit's 4-bit counter in the upper half of the same 64-bit word. The counters start
  at 3, so bit 3 of a counter is set exactly when the suit holds five or more cards: a flush.
* A flush is ranked from the 13 rank bits of the flush suit (`flush`, 8,192 entries): with at most seven
  cards no full house or four of a kind can sit beside a flush, so the flush suit alone decides.
* Anything else is ranked from its rank key through a minimal-probe perfect hash (hash and displace):
  ``h = key * multiplier`` (mod 2**64), bucket = the top 15 bits, slot = (bits 32..48 + displacement[bucket])
  mod 2**17, ``nonflush[slot]``. All 73,775 rank multisets of 5, 6 and 7 cards have distinct slots.

The tables are derived from the plain reference in `pokerlab.handclass` and shipped as package data;
``python -m pokerlab.evaluator_tables`` rebuilds them (deterministically) and a test checks that the
shipped file equals a fresh build.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from importlib import resources
from itertools import combinations, combinations_with_replacement
from pathlib import Path

import numpy as np

from pokerlab.errors import CorruptData
from pokerlab.handclass import NUM_CLASSES, all_classes, class_ranks, classify_ranks

BUCKET_BITS = 15
SLOT_BITS = 17
SUIT_COUNTER_SHIFT = 32
#: The suit counters start at 3 so that a count of 5 or more sets bit 3 of its nibble.
START_KEY = 0x3333 << SUIT_COUNTER_SHIFT
FLUSH_BITS = 0x8888 << SUIT_COUNTER_SHIFT
RANK_KEY_MASK = (1 << SUIT_COUNTER_SHIFT) - 1
TABLES_FILE = "evaluator_tables.npz"
_HASH_SEED = 20260121


@dataclass(frozen=True)
class EvaluatorTables:
    """The arrays the evaluator needs; see the module docstring for how they are used."""

    multiplier: int
    displacement: np.ndarray  # uint32[2**BUCKET_BITS]
    nonflush: np.ndarray  # uint16[2**SLOT_BITS], rank by slot
    flush: np.ndarray  # uint16[8192], rank by the 13 rank bits of the flush suit
    category: np.ndarray  # uint8[NUM_CLASSES + 1], category of each rank (index 0 unused)

    def arrays(self) -> dict[str, np.ndarray]:
        return {
            "multiplier": np.array([self.multiplier], dtype=np.uint64),
            "displacement": self.displacement,
            "nonflush": self.nonflush,
            "flush": self.flush,
            "category": self.category,
        }


def card_keys() -> np.ndarray:
    """CARD_KEYS[code]: what one card adds to a hand key (its rank digit and its suit counter)."""
    return np.array(
        [5 ** (c // 4) + (1 << (SUIT_COUNTER_SHIFT + 4 * (c % 4))) for c in range(52)], dtype=np.uint64
    )


def rank_multisets(size: int) -> list[tuple[int, ...]]:
    """Every sorted multiset of `size` ranks with no rank more than four times."""
    return [m for m in combinations_with_replacement(range(13), size) if max(Counter(m).values()) <= 4]


def nonflush_ranks() -> tuple[np.ndarray, np.ndarray]:
    """(rank keys, ranks) of every 5-, 6- and 7-card rank multiset, played without a flush."""
    by_class = class_ranks()
    five = {m: by_class[classify_ranks(m, flush=False)] for m in rank_multisets(5)}
    keys, values = [], []
    for size in (5, 6, 7):
        for m in rank_multisets(size):
            keys.append(sum(5**r for r in m))
            values.append(max(five[sub] for sub in combinations(m, 5)))
    return np.array(keys, dtype=np.uint64), np.array(values, dtype=np.uint16)


def flush_ranks() -> np.ndarray:
    """Rank of the best flush or straight flush in each 13-bit rank set of 5 to 7 suited cards."""
    by_class = class_ranks()
    table = np.zeros(1 << 13, dtype=np.uint16)
    for bits in range(1 << 13):
        ranks = [r for r in range(13) if bits >> r & 1]
        if 5 <= len(ranks) <= 7:
            table[bits] = max(by_class[classify_ranks(five, flush=True)] for five in combinations(ranks, 5))
    return table


def _hash_parts(keys: np.ndarray, multiplier: int) -> tuple[np.ndarray, np.ndarray]:
    h = keys * np.uint64(multiplier)  # wraps mod 2**64
    bucket = h >> np.uint64(64 - BUCKET_BITS)
    slot = (h >> np.uint64(32)) & np.uint64((1 << SLOT_BITS) - 1)
    return bucket.astype(np.int64), slot.astype(np.int64)


def build_perfect_hash(
    keys: np.ndarray, values: np.ndarray, seed: int = _HASH_SEED
) -> tuple[int, np.ndarray, np.ndarray]:
    """(multiplier, displacement, table) with table[slot(key)] == value for every key (hash and displace).

    Buckets are placed largest first, each at the smallest displacement whose slots are all free.
    """
    rng = np.random.default_rng(seed)
    n_slots = 1 << SLOT_BITS
    for _ in range(100):
        multiplier = int(rng.integers(1 << 62, 1 << 63)) * 2 + 1
        bucket, slot = _hash_parts(keys, multiplier)
        if len(np.unique(bucket << SLOT_BITS | slot)) < len(keys):
            continue  # two keys share bucket and slot: no displacement can separate them
        members: dict[int, list[int]] = {}
        for i, b in enumerate(bucket.tolist()):
            members.setdefault(b, []).append(i)
        used = np.zeros(n_slots, dtype=bool)
        displacement = np.zeros(1 << BUCKET_BITS, dtype=np.uint32)
        table = np.zeros(n_slots, dtype=np.uint16)
        ok = True
        for b, idx in sorted(members.items(), key=lambda item: (-len(item[1]), item[0])):
            own = slot[idx]
            for d in range(n_slots):
                where = (own + d) & (n_slots - 1)
                if not used[where].any():
                    break
            else:
                ok = False
                break
            used[where] = True
            table[where] = values[idx]
            displacement[b] = d
        if ok:
            return multiplier, displacement, table
    raise RuntimeError("no perfect hash found in 100 tries")  # pragma: no cover


def build_tables() -> EvaluatorTables:
    """Derive every table from the plain reference (takes a few seconds)."""
    keys, values = nonflush_ranks()
    multiplier, displacement, nonflush = build_perfect_hash(keys, values)
    category = np.zeros(NUM_CLASSES + 1, dtype=np.uint8)
    category[1:] = [cls[0] for cls in all_classes()]
    return EvaluatorTables(multiplier, displacement, nonflush, flush_ranks(), category)


def shipped_path() -> Path:
    return Path(str(resources.files("pokerlab.data").joinpath(TABLES_FILE)))


def save_tables(tables: EvaluatorTables, path: Path) -> None:
    np.savez_compressed(path, **tables.arrays())


_SHAPES = {
    "multiplier": (1,),
    "displacement": (1 << BUCKET_BITS,),
    "nonflush": (1 << SLOT_BITS,),
    "flush": (1 << 13,),
    "category": (NUM_CLASSES + 1,),
}


def load_tables(path: Path | None = None) -> EvaluatorTables:
    """Read the tables, raising `CorruptData` (with the fix) if the file is missing or malformed."""
    path = shipped_path() if path is None else path
    fix = "rebuild it with: python -m pokerlab.evaluator_tables"
    try:
        with np.load(path) as data:
            arrays = {name: data[name] for name in _SHAPES}
    except Exception as exc:  # noqa: BLE001 - any read failure means the same thing here
        raise CorruptData(f"cannot read evaluator tables {path}: {exc}; {fix}") from exc
    for name, shape in _SHAPES.items():
        if arrays[name].shape != shape:
            raise CorruptData(
                f"evaluator tables {path}: {name} has shape {arrays[name].shape}, expected {shape}; {fix}"
            )
    return EvaluatorTables(
        int(arrays["multiplier"][0]),
        arrays["displacement"].astype(np.uint32),
        arrays["nonflush"].astype(np.uint16),
        arrays["flush"].astype(np.uint16),
        arrays["category"].astype(np.uint8),
    )


if __name__ == "__main__":
    out = shipped_path()
    save_tables(build_tables(), out)
    print(f"wrote {out}")
