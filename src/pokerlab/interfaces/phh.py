"""PHH, PokerKit's poker hand-history format (TOML), for fixed-limit Texas hold'em (variant 'FT').

PHH lists players p1..pN from the first seat left of the button to the button, which is exactly the
engine's position order. Heads-up PokerKit applies the blinds list reversed (p1 posts the big blind), as the
engine does. Blinds come from the header, never from actions; actions are ``d dh p1 AcKd`` (hole cards,
``????`` unknown), ``d db 7h8s9c`` (board: three cards, then one, then one), ``p2 f``, ``p2 cc``,
``p2 cbr 40`` (bet or raise to a round total of 40, blind included), ``p2 sm AcKd`` / ``p2 sm -`` (show
the cards, given or dealt) and a bare ``p2 sm`` (muck: the player gives up every pot); ``# ...`` is a
comment. Fields starting with ``_`` are the user's own and are ignored. A ``.phhs`` file holds several
hands as TOML tables.

Every imported hand is played through the engine (`pokerlab.engine.state.HandState`) line by line, so an
illegal history is rejected with the reason: an action out of turn or against the rules, a raise to the
wrong amount, board cards dealt before the betting they follow is over (or after the hand is over), more
than five board cards, shown cards that differ from the dealt ones, a show by a player who folded. PokerKit
caps a fixed-limit round at four bets or raises not counting the big blind, so imports use
``blind_counts_as_bet=False``. A muck at a showdown counts as a fold for the pots (the engine's
`pokerlab.engine.showdown.settle` with that player's rank 0); chips nobody called go back first.

Export (`to_phh`) writes what PokerKit expects: the board of each round before its betting, and when the
betting ends in a showdown before the river (all-in), the show lines first and the run-out after them.
"""

from __future__ import annotations

import math
import sqlite3
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pokerlab.cards import format_cards, parse_cards
from pokerlab.engine.config import UNLIMITED_STACK, GameConfig
from pokerlab.engine.records import HandRecord, record_of
from pokerlab.engine.showdown import settle
from pokerlab.engine.state import BOARD_SIZE, CALL, FOLD, RAISE, ROUND_NAMES, UNKNOWN, HandState
from pokerlab.errors import CorruptData, IllegalAction, InvalidCards, PokerlabError

_REQUIRED = ("variant", "antes", "blinds_or_straddles", "small_bet", "big_bet", "starting_stacks", "actions")
#: File name endings read as PHH.
PHH_SUFFIXES = (".phh", ".phhs")


@dataclass(frozen=True)
class ReplayedHand:
    """One hand of a PHH file after replay: its name, and the record or the reason it was rejected.

    ``unreadable`` marks an entry that stands for a whole file that could not be read (missing, binary,
    not TOML, no hands in it) rather than for one rejected hand.
    """

    name: str
    record: HandRecord | None
    error: str | None
    unreadable: bool = False

    def to_json(self) -> dict:
        """{"hand": name, "nets": [net of each player in PHH order] or null, "error": null or reason}."""
        nets = list(self.record.nets) if self.record else None
        return {"hand": self.name, "nets": nets, "error": self.error}


# -- reading ------------------------------------------------------------------------------------------


def _chips(value, field: str, *, positive: bool = False) -> int:
    """A whole number of chips (infinity: the unlimited ring-game stack); `CorruptData` otherwise."""
    if isinstance(value, float) and math.isinf(value) and value > 0:
        return UNLIMITED_STACK
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or (isinstance(value, float) and not math.isfinite(value))
        or int(value) != value
    ):
        raise CorruptData(f"{field} must hold whole chip amounts, got {value!r}")
    if value < 0 or (positive and value == 0):
        raise CorruptData(
            f"{field} must hold {'positive' if positive else 'non-negative'} amounts, got {value!r}"
        )
    return int(value)


def _list(data: dict, field: str) -> list:
    value = data[field]
    if not isinstance(value, list):
        raise CorruptData(f"{field} must be a list, got {value!r}")
    return value


def _per_player(value, n: int, field: str) -> list:
    """PHH allows a list, or a single number, for antes and blinds."""
    if isinstance(value, list):
        if len(value) > n:
            raise CorruptData(f"{field} {value!r} has more entries than the {n} players")
        return value + [0] * (n - len(value))
    return [value] * n


def _config(data: dict) -> tuple[GameConfig, list[int]]:
    """The game and starting stacks of a PHH hand, every header value checked."""
    if data["variant"] != "FT":
        raise CorruptData(
            f"variant {data['variant']!r} is not supported: only 'FT' (fixed-limit Texas hold'em)"
        )
    stacks = [_chips(v, "starting_stacks", positive=True) for v in _list(data, "starting_stacks")]
    n = len(stacks)
    if not 2 <= n <= 10:
        raise CorruptData(f"starting_stacks must list 2 to 10 players, got {n}: {stacks}")
    antes = [_chips(v, "antes") for v in _per_player(data["antes"], n, "antes")]
    if any(antes):
        raise CorruptData(f"antes {antes} are not supported: the papers' game has none")
    blinds = [
        _chips(v, "blinds_or_straddles")
        for v in _per_player(data["blinds_or_straddles"], n, "blinds_or_straddles")
    ]
    if any(blinds[2:]):
        raise CorruptData(f"blinds_or_straddles {blinds}: only a small and a big blind are supported")
    try:
        config = GameConfig(
            small_bet=_chips(data["small_bet"], "small_bet", positive=True),
            big_bet=_chips(data["big_bet"], "big_bet", positive=True),
            small_blind=blinds[0],
            big_blind=blinds[1],
            blind_counts_as_bet=False,
            stack=max(stacks),
        )
    except PokerlabError as exc:
        raise CorruptData(f"the PHH header is not a game pokerlab plays: {exc}") from None
    return config, stacks


def _player(word: str, n: int, action: str) -> int:
    number = word[1:]
    if word[:1] != "p" or not (number.isascii() and number.isdigit()) or not 1 <= int(number) <= n:
        raise CorruptData(f"player {word!r} in PHH action {action!r}: players are p1..p{n}")
    return int(number) - 1


def _two_cards(text: str, action: str) -> list[int]:
    codes = parse_cards(text)
    if len(codes) != 2:
        raise InvalidCards(f"PHH action {action!r} must give two hole cards, got {len(codes)}")
    return codes


def _amount(text: str, action: str) -> int:
    try:
        value = float(text) if any(c in text for c in ".eE") else int(text)
    except ValueError:
        raise CorruptData(f"amount {text!r} in PHH action {action!r} is not a number") from None
    return _chips(value, f"the amount of PHH action {action!r}", positive=True)


def _parse_lines(actions: list, n: int) -> tuple[list[int], list[int], list[tuple]]:
    """Hole cards, board and the lines in order: ("board", count, text), ("act", p, a, amount, text),
    ("show", p, cards or None, text) with cards None for a muck."""
    holes, board, lines = [UNKNOWN] * (2 * n), [], []
    dealt = [False] * n
    for text in actions:
        if not isinstance(text, str):
            raise CorruptData(f"PHH actions are strings, got {text!r}")
        words = text.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "d" and len(words) == 4 and words[1] == "dh":
            p = _player(words[2], n, text)
            if dealt[p]:
                raise CorruptData(f"PHH action {text!r} deals p{p + 1} a second time")
            dealt[p] = True
            if words[3] != "????":
                holes[2 * p : 2 * p + 2] = _two_cards(words[3], text)
        elif words[0] == "d" and len(words) == 3 and words[1] == "db":
            cards = parse_cards(words[2])
            expected = 3 if not board else 1
            if len(board) + len(cards) > 5:
                raise InvalidCards(
                    f"PHH action {text!r} deals board card {len(board) + len(cards)}: a board has five"
                )
            if len(cards) != expected:
                raise InvalidCards(
                    f"PHH action {text!r} deals {len(cards)} board card(s) where the "
                    f"{'flop has three' if expected == 3 else 'turn and river have one each'}"
                )
            board += cards
            lines.append(("board", len(board), text))
        elif len(words) in (2, 3) and words[1] == "sm":
            p = _player(words[0], n, text)
            if len(words) == 2:
                lines.append(("show", p, None, text))
            else:
                cards = None if words[2] == "-" else _two_cards(words[2], text)
                if cards is not None and UNKNOWN not in holes[2 * p : 2 * p + 2]:
                    if sorted(cards) != sorted(holes[2 * p : 2 * p + 2]):
                        raise InvalidCards(
                            f"PHH action {text!r} shows {format_cards(cards)} but p{p + 1} was dealt "
                            f"{format_cards(holes[2 * p : 2 * p + 2])}"
                        )
                elif cards is not None:
                    holes[2 * p : 2 * p + 2] = cards
                lines.append(("show", p, cards if cards is not None else "dealt", text))
        elif len(words) == 2 and words[1] in ("f", "cc"):
            lines.append(("act", _player(words[0], n, text), FOLD if words[1] == "f" else CALL, None, text))
        elif len(words) == 3 and words[1] == "cbr":
            lines.append(("act", _player(words[0], n, text), RAISE, _amount(words[2], text), text))
        else:
            raise CorruptData(f"unknown PHH action {text!r}")
    parse_cards([c for c in holes + board if c != UNKNOWN])  # a card dealt twice
    return holes, board, lines


def _placeholders(holes: list[int], board: list[int], players: set[int]) -> list[int]:
    """Hole cards with unused cards standing in for the unknown ones of `players` (mucked players, whose
    cards only have to exist for the engine to reach the showdown; they win nothing)."""
    holes = list(holes)
    spare = (c for c in range(52) if c not in set(holes) | set(board))
    for p in sorted(players):
        if UNKNOWN in holes[2 * p : 2 * p + 2]:
            holes[2 * p : 2 * p + 2] = [next(spare), next(spare)]
    return holes


def hand_from_phh(data: dict) -> HandRecord:
    """Replay one PHH hand (a parsed TOML table) through the engine into a record.

    Raises `CorruptData` for a missing or ill-typed field, `InvalidCards` for impossible cards and
    `IllegalAction` for betting against the rules or lines in the wrong order, each naming the line.
    """
    if not isinstance(data, dict):
        raise CorruptData(f"a PHH hand is a TOML table, got {data!r}")
    missing = [f for f in _REQUIRED if f not in data]
    if missing:
        raise CorruptData(f"PHH hand lacks the required field(s) {missing}")
    config, stacks = _config(data)
    n = len(stacks)
    names = data.get("players", [])
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names) or len(names) not in (0, n):
        raise CorruptData(f"players must be a list of {n} names, got {names!r}")
    holes, board, lines = _parse_lines(_list(data, "actions"), n)
    mucked = {line[1] for line in lines if line[0] == "show" and line[2] is None}
    state = HandState(config, _placeholders(holes, board, mucked), board, stacks)
    shown: set[int] = set()
    board_seen = 0  # board cards dealt by the lines so far
    for line in lines:
        if line[0] == "act":
            _, p, a, amount, text = line
            if state.is_over:
                raise IllegalAction(f"PHH action {text!r} comes after the hand is over")
            if board_seen < BOARD_SIZE[state.round]:
                raise IllegalAction(
                    f"PHH action {text!r} is in the {ROUND_NAMES[state.round]}, but only {board_seen} "
                    "board cards are dealt before it"
                )
            if p != state.actor:
                raise IllegalAction(
                    f"PHH action {text!r} is out of turn: p{state.actor + 1} is to act in the "
                    f"{ROUND_NAMES[state.round]}"
                )
            try:
                state.act(a)
            except IllegalAction as exc:
                raise IllegalAction(f"PHH action {text!r}: {exc}") from None
            if amount is not None and state.bets[p] != amount:
                raise IllegalAction(
                    f"PHH action {text!r} raises to {amount}, but the fixed limit makes it a raise to "
                    f"{state.bets[p]}"
                )
        elif line[0] == "board":
            _, count, text = line
            board_seen = count
            if BOARD_SIZE[state.round] < count:
                when = (
                    "after the hand is over"
                    if state.is_over
                    else f"during the {ROUND_NAMES[state.round]} betting"
                )
                raise IllegalAction(f"PHH action {text!r} deals board cards {when}")
        else:
            _, p, cards, text = line
            if not state.is_over:
                raise IllegalAction(f"PHH action {text!r} shows or mucks before the betting is over")
            if state.folded(p):
                raise IllegalAction(f"PHH action {text!r}: p{p + 1} folded and has nothing to show")
            if p in shown:
                raise IllegalAction(f"PHH action {text!r}: p{p + 1} already showed or mucked")
            shown.add(p)
    if not state.is_over:
        raise IllegalAction(
            f"the actions stop before the hand is over: p{state.actor + 1} is to act in the "
            f"{ROUND_NAMES[state.round]}"
        )
    if len(board) < BOARD_SIZE[state.round]:
        raise InvalidCards(
            f"the hand reached the {ROUND_NAMES[state.round]} but only {len(board)} board cards are dealt"
        )
    record = record_of(state, stacks, names)
    if mucked and state.showdown:
        record = _with_mucks(record, state, holes, mucked)
    if "finishing_stacks" in data:
        expected = [s + v for s, v in zip(stacks, record.nets, strict=True)]
        given = [_chips(v, "finishing_stacks") for v in _list(data, "finishing_stacks")]
        if given != expected:
            raise CorruptData(f"finishing_stacks {given} differ from the replayed {expected}")
    return record


def _with_mucks(record: HandRecord, state: HandState, holes: list[int], mucked: set[int]) -> HandRecord:
    """The record of a showdown where the players in `mucked` gave up: each pot goes to the best hand
    shown among those who contest it. Chips nobody called go back to their owner first."""
    committed = list(state.committed)
    live = [p for p in range(record.players) if not state.folded(p)]
    refund = [0] * record.players
    top = max(live, key=lambda p: committed[p])
    others = max(committed[p] for p in range(record.players) if p != top)
    if committed[top] > others:
        refund[top] = committed[top] - others
        committed[top] = others
    ranks = [0 if p in mucked else r for p, r in enumerate(state.ranks)]
    if not any(ranks):
        raise IllegalAction("every player at the showdown mucked: nobody can take the pot")
    winnings = settle(committed, ranks)
    nets = tuple(w + r - c for w, r, c in zip(winnings, refund, state.committed, strict=True))
    return record._replace(
        holes=tuple(holes),
        nets=nets,
        shown=tuple(s and p not in mucked for p, s in enumerate(record.shown)),
    )


def _hands_of(path: Path) -> list[tuple[str, object]]:
    """(name, table) of each hand in one PHH file; `CorruptData` when the file cannot be read as PHH."""
    if path.suffix not in PHH_SUFFIXES:
        raise CorruptData(f"{path} is not a PHH file: hand histories end in .phh or .phhs")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CorruptData(f"{path}: no such file") from None
    except OSError as exc:
        raise CorruptData(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CorruptData(f"cannot read {path}: not a text file (PHH is TOML text)") from None
    except tomllib.TOMLDecodeError as exc:
        raise CorruptData(f"cannot read {path}: not valid TOML ({exc})") from None
    except RecursionError:
        raise CorruptData(f"cannot read {path}: lists or tables nested too deeply") from None
    if "variant" in data:
        return [(path.name, data)]
    tables = [(f"{path.name}#{key}", value) for key, value in data.items() if isinstance(value, dict)]
    if not tables:
        raise CorruptData(
            f"{path} holds no hands (a .phh file is one hand, a .phhs file TOML tables of hands)"
        )
    return tables


def read_phh(path: str | Path) -> list[ReplayedHand]:
    """Replay every hand of a .phh or .phhs file, or of every such file under a directory (sorted).

    A hand the engine rejects is returned with its reason; a file that cannot be read is returned as one
    entry with ``unreadable=True``; the other hands and files still replay. Raises `CorruptData` when
    `path` does not exist, is a single file that cannot be read, or is a folder with no PHH files.
    """
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.suffix in PHH_SUFFIXES and p.is_file())
        if not files:
            raise CorruptData(f"{path} holds no .phh or .phhs files")
        out = []
        for f in files:
            try:
                out += _replay_tables(_hands_of(f))
            except CorruptData as exc:
                out.append(ReplayedHand(str(f.relative_to(path)), None, str(exc), unreadable=True))
        return out
    if not path.exists():
        raise CorruptData(f"{path}: no such file or folder")
    return _replay_tables(_hands_of(path))


def _replay_tables(tables: list[tuple[str, object]]) -> list[ReplayedHand]:
    out = []
    for name, table in tables:
        try:
            out.append(ReplayedHand(name, hand_from_phh(table), None))
        except PokerlabError as exc:
            out.append(ReplayedHand(name, None, str(exc)))
        except RecursionError:
            out.append(ReplayedHand(name, None, "values nested too deeply"))
    return out


def read_store(path: str | Path) -> list[tuple[int, HandRecord]]:
    """(hand number, record) of every hand in a SQLite hand store, or in a results folder's hands.sqlite."""
    from pokerlab.arena.store import read_hands

    path = Path(path)
    if path.is_dir():
        path = path / "hands.sqlite"
    if not path.is_file():
        raise CorruptData(f"{path}: no such hand store (a results folder holds hands.sqlite)")
    try:
        return list(read_hands(path))
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        raise CorruptData(f"cannot read hand store {path}: {' '.join(str(exc).split())}") from None


# -- writing ------------------------------------------------------------------------------------------


def _stand_ins(record: HandRecord) -> list[int]:
    """The record's hole cards, unused cards standing in for unknown ones (to drive the engine; never
    written out)."""
    return _placeholders(list(record.holes), list(record.board), set(range(record.players)))


def to_phh(record: HandRecord) -> str:
    """The hand as PHH text (variant 'FT'), readable by PokerKit and by `hand_from_phh`."""
    config, n = record.config, record.players
    state = HandState(config, _stand_ins(record), list(record.board), list(record.stacks))
    actions = [
        f"d dh p{p + 1} "
        + ("".join(format_cards(record.hole(p), sep="")) if UNKNOWN not in record.hole(p) else "????")
        for p in range(n)
    ]
    dealt = 0

    def deal_to(count: int) -> None:
        nonlocal dealt
        while dealt < min(count, len(record.board)):
            step = 3 if dealt == 0 else 1
            actions.append("d db " + format_cards(record.board[dealt : dealt + step], sep=""))
            dealt += step

    betting_round = 0  # the round of the last betting, where a showdown begins (pre-flop if none)
    for p, a in record.actions:
        deal_to(BOARD_SIZE[state.round])
        betting_round = state.round
        state.act(a)
        actions.append(f"p{p + 1} " + ("f", "cc", f"cbr {state.bets[p]}")[a])
    if any(record.shown):
        # PokerKit shows down as soon as the betting is over, then deals the rest of the board
        deal_to(BOARD_SIZE[betting_round])
        for p in range(n):
            if not state.folded(p):
                actions.append(
                    f"p{p + 1} sm " + format_cards(record.hole(p), sep="")
                    if record.shown[p]
                    else f"p{p + 1} sm"
                )
    deal_to(len(record.board))
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
        return '"' + "".join(_toml_char(c) for c in value) + '"'
    return str(value)


def _toml_char(char: str) -> str:
    """A character inside a TOML basic string: quote, backslash and every control character escaped (a
    name with a newline must not end the string)."""
    if char in '"\\':
        return "\\" + char
    if ord(char) < 0x20 or ord(char) == 0x7F:
        return f"\\u{ord(char):04x}"
    return char


def to_phhs(records: list[HandRecord], numbers: list[int] | None = None) -> str:
    """Several hands as one .phhs text: TOML tables [1], [2], ... (or [number] of each hand given)."""
    numbers = numbers if numbers is not None else list(range(1, len(records) + 1))
    return "\n".join(f"[{k}]\n{to_phh(r)}" for k, r in zip(numbers, records, strict=True))
