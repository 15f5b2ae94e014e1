"""PHH, PokerKit's poker hand-history format (TOML), for fixed-limit Texas hold'em (variant 'FT').

PHH lists players p1..pN from the first seat left of the button to the button, which is exactly the
engine's position order. Heads-up PokerKit applies the blinds list reversed (p1 posts the big blind), as the
engine does. Blinds come from the header, never from actions; actions are ``d dh p1 AcKd`` (hole cards,
``????`` unknown), ``d db 7h8s9c`` (board), ``p2 f``, ``p2 cc``, ``p2 cbr 40`` (bet or raise to a round
total of 40, blind included) and ``p2 sm AcKd`` / ``p2 sm`` (show or muck); ``# ...`` is a comment.
Fields starting with ``_`` are the user's own and are ignored. A ``.phhs`` file holds several hands as
TOML tables.

Every imported hand is replayed by the engine (`pokerlab.engine.records.replay`), so an illegal history
is rejected with the reason. PokerKit caps a fixed-limit round at four bets or raises not counting the
big blind, so imports use ``blind_counts_as_bet=False``.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pokerlab.cards import format_cards, parse_cards
from pokerlab.engine.config import UNLIMITED_STACK, GameConfig
from pokerlab.engine.records import HandRecord, record_of, replay
from pokerlab.engine.state import BOARD_SIZE, CALL, FOLD, RAISE, UNKNOWN, HandState
from pokerlab.errors import CorruptData, PokerlabError

_REQUIRED = ("variant", "antes", "blinds_or_straddles", "small_bet", "big_bet", "starting_stacks", "actions")


@dataclass(frozen=True)
class ReplayedHand:
    """One hand of a PHH file after replay: its name, and the record or the reason it was rejected."""

    name: str
    record: HandRecord | None
    error: str | None

    def to_json(self) -> dict:
        """{"hand": name, "nets": [net of each player in PHH order] or null, "error": null or reason}."""
        nets = list(self.record.nets) if self.record else None
        return {"hand": self.name, "nets": nets, "error": self.error}


def _chips(value, field: str) -> int:
    if isinstance(value, float) and math.isinf(value):
        return UNLIMITED_STACK
    if isinstance(value, bool) or not isinstance(value, int | float) or int(value) != value:
        raise CorruptData(f"{field} must hold whole chip amounts, got {value!r}")
    return int(value)


def hand_from_phh(data: dict) -> HandRecord:
    """Replay one PHH hand (a parsed TOML table) through the engine into a record."""
    missing = [f for f in _REQUIRED if f not in data]
    if missing:
        raise CorruptData(f"PHH hand lacks the required field(s) {missing}")
    if data["variant"] != "FT":
        raise CorruptData(
            f"variant {data['variant']!r} is not supported: only 'FT' (fixed-limit Texas hold'em)"
        )
    stacks = [_chips(v, "starting_stacks") for v in data["starting_stacks"]]
    n = len(stacks)
    antes = [_chips(v, "antes") for v in _per_player(data["antes"], n)]
    if any(antes):
        raise CorruptData(f"antes {antes} are not supported: the papers' game has none")
    blinds = [_chips(v, "blinds_or_straddles") for v in _per_player(data["blinds_or_straddles"], n)]
    if any(blinds[2:]) or len(blinds) < 2:
        raise CorruptData(f"blinds_or_straddles {blinds}: only a small and a big blind are supported")
    config = GameConfig(
        small_bet=_chips(data["small_bet"], "small_bet"),
        big_bet=_chips(data["big_bet"], "big_bet"),
        small_blind=blinds[0],
        big_blind=blinds[1],
        blind_counts_as_bet=False,
        stack=max(stacks),
    )
    holes, board, actions = [UNKNOWN] * (2 * n), [], []
    for text in data["actions"]:
        words = text.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "d" and len(words) == 4 and words[1] == "dh":
            p = _player(words[2], n, text)
            if words[3] != "????":
                holes[2 * p : 2 * p + 2] = _two_cards(words[3], text)
        elif words[0] == "d" and len(words) == 3 and words[1] == "db":
            board += parse_cards(words[2])
        elif len(words) >= 2 and words[1] == "sm":
            p = _player(words[0], n, text)
            if len(words) == 3 and words[2] != "-":
                holes[2 * p : 2 * p + 2] = _two_cards(words[2], text)
        elif len(words) == 2 and words[1] in ("f", "cc"):
            actions.append((_player(words[0], n, text), FOLD if words[1] == "f" else CALL))
        elif len(words) == 3 and words[1] == "cbr":
            actions.append((_player(words[0], n, text), RAISE, _chips(_number(words[2], text), "cbr")))
        else:
            raise CorruptData(f"unknown PHH action {text!r}")
    state = replay(config, stacks, holes, board, actions)
    names = [str(x) for x in data.get("players", [])][:n]
    record = record_of(state, stacks, names)
    if "finishing_stacks" in data:
        expected = [s + v for s, v in zip(stacks, record.nets, strict=True)]
        given = [_chips(v, "finishing_stacks") for v in data["finishing_stacks"]]
        if given != expected:
            raise CorruptData(f"finishing_stacks {given} differ from the replayed {expected}")
    return record


def _per_player(value, n: int) -> list:
    """PHH allows a list, or a single number, for antes and blinds."""
    return list(value) + [0] * (n - len(value)) if isinstance(value, list) else [value] * n


def _number(text: str, action: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise CorruptData(f"amount {text!r} in PHH action {action!r} is not a number") from None


def _player(word: str, n: int, action: str) -> int:
    if word[:1] != "p" or not word[1:].isdigit() or not 1 <= int(word[1:]) <= n:
        raise CorruptData(f"player {word!r} in PHH action {action!r}: players are p1..p{n}")
    return int(word[1:]) - 1


def _two_cards(text: str, action: str) -> list[int]:
    codes = parse_cards(text)
    if len(codes) != 2:
        raise CorruptData(f"PHH action {action!r} must give two hole cards")
    return codes


def read_phh(path: str | Path) -> list[ReplayedHand]:
    """Replay every hand of a .phh or .phhs file, or of every such file under a directory (sorted).

    A hand the engine rejects is returned with its reason; the others still replay.
    """
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.suffix in (".phh", ".phhs"))
        return [hand for f in files for hand in read_phh(f)]
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return [ReplayedHand(path.name, None, f"cannot read {path}: {exc}")]
    if "variant" in data:
        tables = [(path.name, data)]
    else:
        tables = [(f"{path.name}#{key}", value) for key, value in data.items() if isinstance(value, dict)]
    out = []
    for name, table in tables:
        try:
            out.append(ReplayedHand(name, hand_from_phh(table), None))
        except PokerlabError as exc:
            out.append(ReplayedHand(name, None, str(exc)))
    return out


def to_phh(record: HandRecord) -> str:
    """The hand as PHH text (variant 'FT'), readable by PokerKit and by `hand_from_phh`."""
    config, n = record.config, record.players
    state = HandState(config, list(record.holes), list(record.board), list(record.stacks))
    actions = [
        f"d dh p{p + 1} "
        + ("".join(format_cards(record.hole(p), sep="")) if UNKNOWN not in record.hole(p) else "????")
        for p in range(n)
    ]
    dealt = 0
    for p, a in record.actions:
        state.act(a)
        actions.append(f"p{p + 1} " + ("f", "cc", f"cbr {state.bets[p]}")[a])
        while dealt < BOARD_SIZE[state.round] and dealt < len(record.board):
            count = 3 if dealt == 0 else 1
            actions.append("d db " + format_cards(record.board[dealt : dealt + count], sep=""))
            dealt += count
    for p in range(n):
        if record.shown[p]:
            actions.append(f"p{p + 1} sm " + format_cards(record.hole(p), sep=""))
    fields = {
        "variant": "FT",
        "antes": [0] * n,
        "blinds_or_straddles": [config.small_blind, config.big_blind] + [0] * (n - 2),
        "small_bet": config.small_bet,
        "big_bet": config.big_bet,
        "starting_stacks": list(record.stacks),
        "actions": actions,
        "finishing_stacks": [s + v for s, v in zip(record.stacks, record.nets, strict=True)],
    }
    if record.names:
        fields["players"] = list(record.names)
    return "\n".join(f"{key} = {_toml(value)}" for key, value in fields.items()) + "\n"


def _toml(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, str):
        return "'" + value + "'" if "'" not in value else '"' + value.replace('"', '\\"') + '"'
    return str(value)


def to_phhs(records: list[HandRecord]) -> str:
    """Several hands as one .phhs text: TOML tables [1], [2], ..."""
    return "\n".join(f"[{i + 1}]\n{to_phh(r)}" for i, r in enumerate(records))
