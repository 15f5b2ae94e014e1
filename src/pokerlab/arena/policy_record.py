"""policies.bin: the all-holdings answers of the seats that gave them during a match, one record a hand.

With ``log_policies`` (`pokerlab match --log-policies`, implied by ``--evaluate aivat``) the table asks
every in-process agent that answers the all-holdings policy query (`pokerlab.agents.policy`) at each of its
decisions, once it has acted and on the same view (a learner counts the opponents' latest actions
as it acts: asked before, its answer could lag), what it would do with each of the 1,326 holdings. A
player that learns during the match (Loki-1's opponent model) answers with what it has learned by then:
the record keeps the policy it actually played, which no fresh copy could give after the match. Isolated
(sandboxed) bots are never asked: their code does not run in the table's process.

A record is a 24-byte header, ``b"PLCY"``, then little-endian int64 hand, uint32 session, uint32 length of
the payload and uint32 CRC-32 of the payload, and the payload: zlib of uint16 decisions, then per decision
uint16 action index in the hand, uint16 rows u, float32[u, 3] the distinct (fold, call, raise) rows and
uint16[1326] each holding's row (most rows are 0/1 and repeat: a few hundred bytes a decision). Records are
appended block by block, before the block's hindsight lines, so a killed run leaves at worst records of
hands the hindsight record does not hold yet; a record torn by the kill (the file's end inside it) is left
out when read. The finished file is sorted by hand number, so any number of workers writes the same bytes.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from pokerlab.errors import CorruptData
from pokerlab.holdings import NUM_HOLDINGS

#: The file name in a results folder.
POLICIES_FILE = "policies.bin"
MAGIC = b"PLCY"
HEADER = struct.Struct("<4sqIII")


def encode(hand: int, session: int, policies: Sequence[tuple[int, np.ndarray]]) -> bytes:
    """One hand's record from its (action index, float[1326, 3]) answers."""
    parts = [struct.pack("<H", len(policies))]
    for index, policy in policies:
        rows, inverse = distinct_rows(np.ascontiguousarray(policy, dtype="<f4"))
        parts += [struct.pack("<HH", index, len(rows)), rows.tobytes(), inverse.astype("<u2").tobytes()]
    payload = zlib.compress(b"".join(parts), 6)
    return HEADER.pack(MAGIC, hand, session, len(payload), zlib.crc32(payload)) + payload


def distinct_rows(policy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct rows of float32 `policy` in sorted order, each row's index among them): np.unique's
    answer along axis 0, by a lexsort of the rows' bits (a tenth of its time)."""
    bits = policy.view("<u4")
    order = np.lexsort(bits.T[::-1])
    ranked = bits[order]
    new = np.ones(len(policy), dtype=bool)
    new[1:] = (ranked[1:] != ranked[:-1]).any(axis=1)
    inverse = np.empty(len(policy), dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return policy[order[new]], inverse


def decode(payload: bytes) -> dict[int, np.ndarray]:
    """{action index: float32[1326, 3]} of a record's payload."""
    data = zlib.decompress(payload)
    (count,), at = struct.unpack_from("<H", data), 2
    out = {}
    for _ in range(count):
        index, u = struct.unpack_from("<HH", data, at)
        at += 4
        rows = np.frombuffer(data, "<f4", 3 * u, at).reshape(u, 3)
        at += 12 * u
        inverse = np.frombuffer(data, "<u2", NUM_HOLDINGS, at)
        at += 2 * NUM_HOLDINGS
        out[index] = rows[inverse]
    if at != len(data):
        raise ValueError(f"{len(data) - at} bytes left over")
    return out


def records(data: bytes, path: Path) -> Iterator[tuple[int, int, bytes, bytes]]:
    """(hand, session, payload, the whole record) of every complete record of `data` (the file `path`),
    a torn last one left out; `CorruptData` for a record that is not one (bad magic or CRC)."""
    at = 0
    while at + HEADER.size <= len(data):
        magic, hand, session, length, crc = HEADER.unpack_from(data, at)
        end = at + HEADER.size + length
        if magic != MAGIC:
            raise CorruptData(f"{path}: no record starts at byte {at} (not a policies file, or damaged)")
        if end > len(data):
            return  # torn by a kill
        payload = data[at + HEADER.size : end]
        if zlib.crc32(payload) != crc:
            raise CorruptData(f"{path}: the record of hand {hand} (byte {at}) fails its checksum")
        yield hand, session, payload, data[at:end]
        at = end


def keep_sessions(path: Path, keep: set[int]) -> None:
    """Rewrite `path` with only the records of the sessions in `keep` (a resumed run replays the others)."""
    data = path.read_bytes() if keep and path.exists() else b""
    kept = b"".join(whole for _, session, _, whole in records(data, path) if session in keep)
    partial = path.with_suffix(".bin.partial")
    partial.write_bytes(kept)
    partial.replace(path)


def sort_records(path: Path) -> None:
    """`path` with its records in hand order, replaced whole."""
    found = sorted((hand, whole) for hand, _, _, whole in records(path.read_bytes(), path))
    partial = path.with_suffix(".bin.partial")
    partial.write_bytes(b"".join(whole for _, whole in found))
    partial.replace(path)


def read_policies(out: str | Path) -> dict[int, bytes] | None:
    """{hand: payload} of a results folder's policies.bin (decode a payload with `decode`), None where the
    folder has none."""
    path = Path(out) / POLICIES_FILE
    if not path.exists():
        return None
    return {hand: payload for hand, _, payload, _ in records(path.read_bytes(), path)}
