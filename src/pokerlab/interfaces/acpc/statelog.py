"""ACPC dealer logs: a finished hand as a STATE line, the match's SCORE line, and a STATE line read back.

A STATE line is ``STATE:<hand>:<betting>:<holes|...>/<board>:<nets>:<names>`` (ACPC protocol 2.0.0, the
reference dealer's log), names and nets by position; reading one back replays its betting through the
engine (`replay`), so a line that breaks the rules is refused with the engine's reason. The MATCHSTATE
lines a dealer sends its clients are in `matchstate`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerlab.actions import LETTER_ACTIONS
from pokerlab.cards import format_card, parse_cards
from pokerlab.engine import UNKNOWN, GameConfig, HandRecord, record_of, replay
from pokerlab.engine.showdown import exact_split_nets
from pokerlab.errors import CorruptData, InvalidCards


def acpc_state_line(record: HandRecord, hand_number: int = 0) -> str:
    """The hand as an ACPC dealer log line: STATE:<hand>:<betting>:<holes|...>/<board>:<nets>:<names>.

    ACPC seats are our positions (the ACPC limit games post the blinds as we do, "reverse blinds"
    heads-up).
    """
    names = record.names or tuple(f"p{p + 1}" for p in range(record.players))
    return format_state_line(
        hand_number, record.betting_string(), record.holes, record.board, record.nets, names
    )


def format_state_line(
    hand_number: int,
    betting: str,
    holes: Sequence[int],
    board: Sequence[int],
    nets: Sequence[int | str],
    names: Sequence[str],
) -> str:
    """An ACPC STATE line from its parts (hole cards by position, `UNKNOWN` left out; the board split by
    round with "/").

    >>> format_state_line(3, "cc/r", [0, 4, 51, 50], [8, 12, 16, 20], [20, -20], ["a", "b"])
    'STATE:3:cc/r:2c3c|AsAh/4c5c6c/7c:20|-20:a|b'
    """
    hole_text = "|".join(
        "".join(format_card(c) for c in holes[2 * p : 2 * p + 2] if c != UNKNOWN) for p in range(len(nets))
    )
    board_text = "".join(
        "/" + "".join(map(format_card, board[a:b])) for a, b in ((0, 3), (3, 4), (4, 5)) if len(board) > a
    )
    return (
        f"STATE:{hand_number}:{betting}:{hole_text}{board_text}:{'|'.join(map(str, nets))}:{'|'.join(names)}"
    )


def parse_acpc_state_line(line: str, config: GameConfig, stacks: list[int] | None = None) -> HandRecord:
    """Replay an ACPC STATE line under `config` (stacks default to the config's) into a record.

    The betting letters are replayed by the engine; the result's nets must match the line's when it has
    them (ours, or the reference's with ties split exactly, `exact_split_nets`), else `CorruptData`.
    """
    parts = line.strip().split(":")
    if len(parts) < 4 or parts[0] != "STATE":
        raise CorruptData(f"not an ACPC STATE line: {line.strip()!r}")
    betting, cards = parts[2], parts[3]
    hole_part, *board_parts = cards.split("/")
    seats = hole_part.split("|")
    n = len(seats)
    holes: list[int] = []
    for text in seats:
        codes = parse_cards(text)
        if len(codes) not in (0, 2):
            raise InvalidCards(f"a seat holds two hole cards, got {text!r} in {line.strip()!r}")
        holes += codes or [UNKNOWN, UNKNOWN]
    board = [c for part in board_parts for c in parse_cards(part)]
    letters = betting.replace("/", "")
    bad = set(letters) - set(LETTER_ACTIONS)
    if bad:
        raise CorruptData(
            f"betting {betting!r} holds {sorted(bad)}; limit betting uses only f, c (or k), r (or b) and /"
        )
    actions = [(None, LETTER_ACTIONS[letter]) for letter in letters]
    start = list(stacks) if stacks is not None else [config.starting_stack()] * n
    state = replay(config, start, holes, board, actions)
    record = record_of(state, start, parts[5].split("|") if len(parts) > 5 else ())
    if len(parts) > 4 and parts[4]:
        given = [float(v) for v in parts[4].split("|")]
        exact = exact_split_nets(state.committed, state.ranks) if state.showdown else record.nets
        ours = given == list(record.nets)
        reference = len(given) == n and all(abs(g - e) < 1e-5 for g, e in zip(given, exact, strict=True))
        if not (ours or reference):  # the reference's log splits ties exactly and writes %.6f
            shown = [int(g) if g.is_integer() else g for g in given]
            raise CorruptData(f"the line's nets {shown} differ from the replayed nets {list(record.nets)}")
    return record


def score_line(totals: Sequence[int], names: Sequence[str]) -> str:
    """The final ACPC log line: each player's total, in the order the players were named."""
    return f"SCORE:{'|'.join(str(int(t)) for t in totals)}:{'|'.join(names)}"
