"""What each connection may see: the WebSocket frames of docs/web-protocol.md, built per viewer.

A frame names seats (lasting seat numbers), never engine positions. Hole cards appear in exactly two places:
the viewer's own, in ``hand_start``/``table`` to the person sitting there, and the cards shown down, in
``hand_end`` of a hand that reached a showdown. `LiveHand.seat_of` maps positions to seats.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pokerlab.cards import format_card
from pokerlab.engine import BOARD_SIZE, CALL, FOLD, RAISE, ROUND_NAMES, ActionRecord, HandState
from pokerlab.evaluator import describe, evaluate

ACTION_NAMES = {FOLD: "fold", CALL: "call", RAISE: "raise"}


@dataclass
class LiveHand:
    """A hand in play at a table: its engine state and who sits at each position.

    ``players[p]``: {"seat", "user_id", "name", "kind", "agent"} of position p (the button is last).
    """

    hand_id: int
    state: HandState
    players: list[dict]
    button: int
    deadline: int | None = None  # epoch ms, while a person is to act
    decisions: list = field(default_factory=list)

    def seat_of(self, position: int) -> int:
        return self.players[position]["seat"]

    def position_of(self, user_id: int | None) -> int | None:
        """The position of a person in this hand (None: not in it)."""
        for p, player in enumerate(self.players):
            if user_id is not None and player["kind"] == "human" and player["user_id"] == user_id:
                return p
        return None


def cards(codes) -> list[str]:
    return [format_card(c) for c in codes]


def action_word(record: ActionRecord) -> str:
    """fold, check, call, bet or raise: what a CALL or RAISE was, from what was owed."""
    if record.action == CALL:
        return "call" if record.to_call > 0 else "check"
    if record.action == RAISE:
        return "raise" if record.to_call > 0 or record.raises > 0 else "bet"
    return "fold"


def hand_start(hand: LiveHand, viewer: int | None) -> dict:
    """``hand_start``: the viewer's own hole cards only when the viewer sits in the hand."""
    state = hand.state
    frame = {
        "type": "hand_start",
        "hand": hand.hand_id,
        "button": hand.button,
        "seats_in": [pl["seat"] for pl in hand.players],
        "blinds": {str(hand.seat_of(p)): chips for p, chips in enumerate(state.blinds) if chips},
    }
    p = hand.position_of(viewer)
    if p is not None:
        frame["hole"] = cards(state.holes[2 * p : 2 * p + 2])
    return frame


def turn(hand: LiveHand, viewer: int | None) -> dict:
    """``turn``: whose turn, until when, what it costs; the legal actions only to that seat's owner."""
    state = hand.state
    p = state.actor
    frame = {"type": "turn", "seat": hand.seat_of(p), "deadline": hand.deadline, "to_call": state.to_call(p)}
    if hand.position_of(viewer) == p:
        frame["legal"] = [ACTION_NAMES[a] for a in state.legal_actions()]
    return frame


def action(hand: LiveHand, record: ActionRecord, pot: int, stack: int) -> dict:
    """``action``: one action as everyone saw it (public), with the pot and the actor's stack after it."""
    return {
        "type": "action",
        "seat": hand.seat_of(record.position),
        "action": action_word(record),
        "amount": record.amount,
        "pot": pot,
        "stack": stack,
    }


def last_action(hand: LiveHand) -> dict:
    """``action`` for the action just applied to the hand's state."""
    state = hand.state
    record = state.actions[-1]
    return action(hand, record, sum(state.committed), state.stacks[record.position])


def board(round_index: int, state: HandState) -> dict:
    """``board``: the whole board as of round 1 (flop), 2 (turn) or 3 (river)."""
    return {
        "type": "board",
        "round": ROUND_NAMES[round_index],
        "cards": cards(state.runout[: BOARD_SIZE[round_index]]),
    }


def hand_end(hand: LiveHand) -> dict:
    """``hand_end``: nets and stacks; hole cards and hand names only of those who showed down."""
    state = hand.state
    shown, names = {}, {}
    for p, showed in enumerate(state.shown()):
        if showed:
            hole = state.holes[2 * p : 2 * p + 2]
            shown[str(hand.seat_of(p))] = cards(hole)
            names[str(hand.seat_of(p))] = describe(evaluate(list(hole) + list(state.runout[:5]))).description
    return {
        "type": "hand_end",
        "hand": hand.hand_id,
        "shown": shown,
        "hand_names": names,
        "winners": [hand.seat_of(p) for p, w in enumerate(state.winnings) if w > 0],
        "nets": {str(hand.seat_of(p)): net for p, net in enumerate(state.nets)},
        "stacks": {
            str(hand.seat_of(p)): s + w
            for p, (s, w) in enumerate(zip(state.stacks, state.winnings, strict=True))
        },
    }


def running(hand: LiveHand, viewer: int | None) -> dict:
    """The running hand inside a ``table`` frame: ``hand_start``'s fields, the actions so far, the board,
    and the turn (as in a ``turn`` frame) while someone is to act."""
    state = hand.state
    frame = hand_start(hand, viewer)
    del frame["type"]
    pot = sum(state.blinds)
    stacks = [s - b for s, b in zip(state.starting_stacks, state.blinds, strict=True)]
    frame["actions"] = []
    for r in state.actions:
        pot += r.amount
        stacks[r.position] -= r.amount
        item = action(hand, r, pot, stacks[r.position]) | {"round": ROUND_NAMES[r.round]}
        del item["type"]
        frame["actions"].append(item)
    frame["board"] = cards(state.board_seen)
    frame["turn"] = None if state.is_over else {k: v for k, v in turn(hand, viewer).items() if k != "type"}
    return frame
