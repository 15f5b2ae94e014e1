"""A finished hand told as a person reads it: who sits where, the actions spelled out, the board by round,
hand names at the showdown and who won what (`pokerlab history show`).

The hand is played again through the engine from its record (stacks, cards, (position, action) pairs), so
every amount printed is the engine's.
"""

from __future__ import annotations

from pokerlab.cards import format_cards
from pokerlab.engine.config import UNLIMITED_STACK
from pokerlab.engine.records import HandRecord
from pokerlab.engine.state import BOARD_SIZE, CALL, FOLD, UNKNOWN, HandState, blind_positions
from pokerlab.evaluator import describe, evaluate

_ROUND_TITLES = ("Pre-flop", "Flop", "Turn", "River")


def _who(record: HandRecord, p: int) -> str:
    name = record.names[p] if record.names and record.names[p] != f"p{p + 1}" else ""
    return f"p{p + 1} ({name})" if name else f"p{p + 1}"


def _stand_ins(record: HandRecord) -> list[int]:
    """Hole cards with unused cards for the unknown ones, only to drive the engine (never printed)."""
    holes = list(record.holes)
    spare = (c for c in range(52) if c not in set(holes) | set(record.board))
    return [next(spare) if c == UNKNOWN else c for c in holes]


def describe_hand(record: HandRecord) -> str:
    """The hand as lines of text (no trailing newline)."""
    config, n = record.config, record.players
    small, big = blind_positions(n)
    lines = [
        f"Fixed-limit hold'em {config.small_bet}/{config.big_bet}, blinds {config.small_blind}/"
        f"{config.big_blind}, {n} players"
    ]
    for p in range(n):
        roles = [r for r, q in (("button", n - 1), ("small blind", small), ("big blind", big)) if q == p]
        stack = "unlimited" if record.stacks[p] >= UNLIMITED_STACK else f"{record.stacks[p]} chips"
        hole = format_cards(record.hole(p)) if UNKNOWN not in record.hole(p) else "cards unknown"
        lines.append(f"  {_who(record, p):<20} {', '.join(roles):<22} {stack:<12} {hole}")
    state = HandState(config, _stand_ins(record), list(record.board), list(record.stacks))
    lines.append(
        f"{_who(record, small)} posts the small blind {state.committed[small]}, "
        f"{_who(record, big)} posts the big blind {state.committed[big]}"
    )
    current, said = -1, []

    def open_round(r: int) -> None:
        nonlocal current, said
        if said:
            lines.append(f"{_ROUND_TITLES[current]}{_board_text(record, current)}: " + ", ".join(said))
        current, said = r, []

    for p, a in record.actions:
        if state.round != current:
            open_round(state.round)
        owed, had_bet = state.to_call(p), state.max_bet > 0 or state.round == 0
        state.act(a)
        if a == FOLD:
            text = "folds"
        elif a == CALL:
            text = f"calls {owed}" if owed else "checks"
        else:
            text = f"raises to {state.bets[p]}" if had_bet else f"bets {state.bets[p]}"
        if a != FOLD and state.all_in(p):
            text += " (all-in)"
        said.append(f"{_who(record, p)} {text}")
    last = max(current, 0)  # the last round with betting
    open_round(-1)
    for r in range(last + 1, 4):  # the run-out, dealt with nobody left to bet
        if len(record.board) >= BOARD_SIZE[r]:
            lines.append(f"{_ROUND_TITLES[r]}{_board_text(record, r)}")
    if any(record.shown) or state.showdown:
        board = list(record.board)
        lines.append(f"Showdown on {format_cards(board)}:")
        for p in range(n):
            if state.folded(p):
                continue
            if record.shown[p]:
                name = describe(evaluate(list(record.hole(p)) + board)).description
                lines.append(f"  {_who(record, p)} shows {format_cards(record.hole(p))}: {name}")
            else:
                lines.append(f"  {_who(record, p)} mucks")
    committed = state.committed
    for p in range(n):
        won = record.nets[p] + committed[p]
        if won > 0:
            lines.append(f"{_who(record, p)} takes {won} (net {record.nets[p]:+d})")
    lines.append("Nets: " + ", ".join(f"{_who(record, p)} {record.nets[p]:+d}" for p in range(n)))
    return "\n".join(lines)


def _board_text(record: HandRecord, r: int) -> str:
    """ " [Kh Qs 3d]" for the flop, " [Kh Qs 3d] 7c" for the turn ...; "" before the flop."""
    if r <= 0:
        return ""
    cards = record.board
    text = f" [{format_cards(cards[:3])}]"
    if r >= 2:
        text += f" {format_cards(cards[3:4])}"
    if r >= 3:
        text += f" {format_cards(cards[4:5])}"
    return text
