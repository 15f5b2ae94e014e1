"""The wire between a table and a bot in its own process: JSON over a SOCK_SEQPACKET socket, version 1.

docs/bot-wire.md describes the format. Each packet is one JSON document (UTF-8, no NaN), a list:

* table -> bot: a list of events, in order: ``["b", ...]`` a hand begins, ``["r", records]`` new action
  records, ``["e", ...]`` the hand ended, and last, where an answer is wanted, ``["a", seq, ...]`` (a
  question) or ``["q"]`` (the session ends: report hook errors). Begins, records and ends wait in an outbox
  until the next question, so a decision costs one round trip whatever the bot listens to.
* bot -> table: ``["a", seq, action, probabilities, info, errors]``, ``["x", seq, error, errors]`` (its
  ``act`` raised) or ``["q", errors]``; ``errors`` is ``[count, [first lines]]`` of its hooks' exceptions.

`answer` checks what a bot sent; anything malformed raises `WireError`, a fault of that bot.
"""

from __future__ import annotations

import json
import math

from pokerlab.agents.base import Decision
from pokerlab.engine import ActionRecord, HandEnd, HandStart, SeatView

VERSION = 1
#: Largest packet either side reads (bytes): far above any hand's events.
MAX_PACKET = 1 << 20
#: Error lines of hooks kept per report.
KEPT_ERRORS = 3

_new = tuple.__new__  # a named tuple from a list whose length the event's unpacking checked
_decode = json.JSONDecoder(parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name))).decode


def _numpy(value):
    """A numpy array or scalar as plain JSON (a bot's info often holds them); anything else is refused."""
    import numpy as np

    if isinstance(value, np.ndarray | np.generic):
        return value.tolist()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


_encode = json.JSONEncoder(separators=(",", ":"), allow_nan=False, default=_numpy).encode


class WireError(Exception):
    """A packet that does not parse as the protocol says: a fault of the side that sent it."""


def dumps(message) -> bytes:
    """A packet: compact JSON (numpy arrays and scalars as lists and numbers), no NaN or infinity
    (`ValueError`, `TypeError` on anything else not plain)."""
    return _encode(message).encode()


class Receiver:
    """Reads packets of a SEQPACKET socket into one buffer (a fresh 1 MiB ``recv`` each time would cost
    more than the round trip)."""

    def __init__(self) -> None:
        self.buffer = bytearray(MAX_PACKET)
        self.view = memoryview(self.buffer)

    def __call__(self, sock) -> bytes:
        """The next packet (empty: the other side closed)."""
        return self.view[: sock.recv_into(self.buffer)].tobytes()


def loads(packet: bytes):
    """The JSON document of a packet (`WireError` if it is not one)."""
    try:
        return _decode(packet.decode())
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise WireError(f"sent {packet[:40]!r}, not JSON ({exc})") from None


# -- table side: events out, answers in ----------------------------------------------------------------


def begin_event(start: HandStart) -> list:
    hand = (start.position, start.players, start.hole, start.stacks, start.seats, start.hand, start.blinds)
    return ["b", *hand]


def end_event(end: HandEnd) -> list:
    return ["e", end.nets, sorted(end.shown.items()), end.board]


def question_event(seq: int, view: SeatView) -> list:
    return [
        "a",
        seq,
        view.board,
        view.round,
        view.pot,
        view.to_call,
        view.legal_actions,
        view.raises,
        view.raises_left,
    ]


def _errors(value) -> tuple[int, list[str]]:
    if (
        type(value) is not list
        or len(value) != 2
        or type(value[0]) is not int
        or value[0] < 0
        or type(value[1]) is not list
        or not all(type(line) is str for line in value[1])
    ):
        raise WireError(f"hook errors {value!r:.80} are not [count, [lines]]")
    return value[0], value[1][:KEPT_ERRORS]


def answer(packet: bytes) -> tuple[str, int | None, object, tuple[int, list[str]]]:
    """(kind, seq, payload, hook errors) of a bot's packet: kind "a" with a `Decision`, "x" with the error
    line, "q" with None. `WireError` names what is malformed."""
    message = loads(packet)
    if type(message) is not list or not message or message[0] not in ("a", "x", "q"):
        raise WireError(f"sent {message!r:.80}, not an answer")
    kind = message[0]
    if kind == "q":
        if len(message) != 2:
            raise WireError(f'sent {message!r:.80}, not ["q", errors]')
        return kind, None, None, _errors(message[1])
    if type(message[1]) is not int:
        raise WireError(f"sent {message!r:.80} without a question number")
    if kind == "x":
        if len(message) != 4 or type(message[2]) is not str:
            raise WireError(f'sent {message!r:.80}, not ["x", seq, error, errors]')
        return kind, message[1], message[2], _errors(message[3])
    if len(message) != 6:
        raise WireError(f"answered {message[2:-1]!r:.80}, not [action, probabilities, info]")
    _, seq, action, probabilities, info, errors = message
    if type(action) is not int:
        raise WireError(f"answered {action!r:.40}, not an action (0, 1 or 2)")
    if probabilities is not None:
        if (
            type(probabilities) is not list
            or len(probabilities) != 3
            or not all(type(p) in (int, float) and math.isfinite(p) for p in probabilities)
        ):
            raise WireError(f"gave probabilities {probabilities!r:.60}, not three numbers")
        probabilities = tuple(float(p) for p in probabilities)
    if info is not None and type(info) is not dict:
        raise WireError(f"gave info {info!r:.60}, not a JSON object")
    return kind, seq, Decision(action, probabilities, info), _errors(errors)


# -- bot side: events in, answers out ----------------------------------------------------------------------


def hand_start(event: list, config) -> HandStart:
    _, position, players, hole, stacks, seats, hand, blinds = event
    return HandStart(
        position,
        players,
        tuple(hole),
        None if stacks is None else tuple(stacks),
        tuple(seats),
        config,
        hand,
        tuple(blinds),
    )


def records(event: list) -> tuple[ActionRecord, ...]:
    return tuple([_new(ActionRecord, r) for r in event[1]])


def view(event: list, start: HandStart, actions: tuple[ActionRecord, ...]) -> SeatView:
    _, _, board, round_index, pot, to_call, legal, raises, left = event
    return _new(
        SeatView,
        (
            start.config,
            start.position,
            start.players,
            start.hole,
            tuple(board),
            round_index,
            actions,
            pot,
            to_call,
            tuple(legal),
            raises,
            left,
            start.seats,
            start.blinds,
            start.stacks,
        ),
    )


def hand_end(event: list, start: HandStart, actions: tuple[ActionRecord, ...]) -> HandEnd:
    _, nets, shown, board = event
    return HandEnd(start.position, tuple(nets), {p: tuple(c) for p, c in shown}, tuple(board), actions)


def decision(choice) -> list:
    """[action, probabilities, info] of what a bot's ``act`` returned: an int (numpy's too) or a
    `Decision`; `ValueError` for anything else (a bool, an int subclass, a float, a tuple of another
    length)."""
    if type(choice) is Decision:
        action, probabilities, info = choice
    else:
        action, probabilities, info = choice, None, None
    if type(action) is not int and not _numpy_int(action):
        raise ValueError(f"act returned {choice!r:.80}, not an action or a Decision")
    if probabilities is not None:
        probabilities = [float(p) for p in probabilities]
    return [int(action), probabilities, info]  # info: plain JSON, or `dumps` fails on it


def _numpy_int(value) -> bool:
    import numpy as np

    return isinstance(value, np.integer)
