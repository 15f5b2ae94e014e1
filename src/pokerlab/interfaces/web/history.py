"""Reading hands back: a player's list, the replay of a hand (docs/web-protocol.md), PHH, the
leaderboard and bankroll curves.

A person reads only hands they played (anyone else's answers `None`, which the app turns into 404), and
in them only their own hole cards and those shown down: every other hole card is left out of the replay
and written as unknown (``????``) in PHH. What a bot logged for a decision goes with it only where its
cards are seen too (or everywhere, on a server that shows every bot's thoughts:
`WebConfig.show_thoughts`). The PHH comes from the engine's `HandRecord` and
`pokerlab.interfaces.phh.to_phh`, so it replays in PokerKit and in ``pokerlab history replay``.
"""

from __future__ import annotations

from sqlalchemy import select

from pokerlab.engine import ROUND_NAMES, UNKNOWN, GameConfig, HandRecord, HandState
from pokerlab.evaluator import describe, evaluate
from pokerlab.interfaces.phh import to_phh, to_phhs
from pokerlab.interfaces.web.config import START_BANKROLL
from pokerlab.interfaces.web.db import Hand, HandPlayer, PlayerStats, User
from pokerlab.interfaces.web.frames import action_word, cards


def _viewer_position(db, hand_id: int, user_id: int) -> int | None:
    return db.scalar(
        select(HandPlayer.position).where(HandPlayer.hand_id == hand_id, HandPlayer.user_id == user_id)
    )


def hands_of(sessions, user_id: int) -> list[dict]:
    """The finished hands a player played, newest first: id, table, level, when it ended, the net."""
    with sessions() as db:
        rows = db.execute(
            select(Hand.id, Hand.table_id, Hand.level, Hand.ended, HandPlayer.net)
            .join(HandPlayer, HandPlayer.hand_id == Hand.id)
            .where(HandPlayer.user_id == user_id, Hand.status == "finished")
            .order_by(Hand.id.desc())
        ).all()
    return [
        {"id": i, "table": t, "level": lv, "ended": int(e * 1000), "net": net} for i, t, lv, e, net in rows
    ]


def _visible(hand: Hand, position: int) -> list[int]:
    """The hole cards the player at `position` may see: their own and those shown down."""
    holes = list(hand.holes)
    for p in range(len(hand.seats)):
        if p != position and not hand.shown[p]:
            holes[2 * p] = holes[2 * p + 1] = UNKNOWN
    return holes


def _load(db, hand_id: int, user_id: int) -> tuple[Hand, int] | None:
    hand = db.get(Hand, hand_id)
    if hand is None or hand.status != "finished":
        return None
    position = _viewer_position(db, hand_id, user_id)
    return None if position is None else (hand, position)


def replay(sessions, hand_id: int, user_id: int, show_thoughts: bool = False) -> dict | None:
    """The replay of a hand the player played (None: no such hand for this player); what a bot logged
    goes with its decisions where the player saw its cards, or everywhere with `show_thoughts`."""
    with sessions() as db:
        found = _load(db, hand_id, user_id)
    if found is None:
        return None
    hand, position = found
    config = GameConfig.from_dict(hand.config)
    state = HandState(config, list(hand.holes), list(hand.board), list(hand.stacks))
    seat = [pl["seat"] for pl in hand.seats]
    visible = _visible(hand, position)
    steps = []
    for (p, a), decision in zip(hand.actions, hand.decisions, strict=True):
        state.act(a)
        record = state.actions[-1]
        steps.append(
            {
                "seat": seat[p],
                "action": action_word(record),
                "amount": record.amount,
                "round": ROUND_NAMES[record.round],
                "pot": state.pot,
                # what a bot thought of a hand it did not show would tell about its cards
                "info": decision if show_thoughts or visible[2 * p] != UNKNOWN else None,
            }
        )
    holes = {
        str(seat[p]): cards(visible[2 * p : 2 * p + 2]) for p in range(len(seat)) if visible[2 * p] != UNKNOWN
    }
    shown = {str(seat[p]): cards(hand.holes[2 * p : 2 * p + 2]) for p, s in enumerate(hand.shown) if s}
    names = {
        str(seat[p]): describe(evaluate(hand.holes[2 * p : 2 * p + 2] + hand.board)).description
        for p, s in enumerate(hand.shown)
        if s
    }
    return {
        "id": hand.id,
        "level": hand.level,
        "seats": [{"seat": pl["seat"], "name": pl["name"], "kind": pl["kind"]} for pl in hand.seats],
        "button": hand.button,
        "holes": holes,
        "board": cards(hand.board),
        "steps": steps,
        "shown": shown,
        "hand_names": names,
        "nets": {str(seat[p]): net for p, net in enumerate(hand.nets)},
    }


def _record(hand: Hand, position: int) -> HandRecord:
    return HandRecord(
        GameConfig.from_dict(hand.config),
        tuple(hand.stacks),
        tuple(_visible(hand, position)),
        tuple(hand.board),
        tuple((p, a) for p, a in hand.actions),
        tuple(hand.nets),
        tuple(hand.shown),
        tuple(pl["name"] for pl in hand.seats),
    )


def phh(sessions, hand_id: int, user_id: int) -> str | None:
    """A hand the player played as PHH text (None: no such hand for this player)."""
    with sessions() as db:
        found = _load(db, hand_id, user_id)
    return None if found is None else to_phh(_record(*found))


def phhs(sessions, user_id: int) -> str:
    """All the player's finished hands as one .phhs text, tables named by hand id."""
    with sessions() as db:
        rows = db.execute(
            select(Hand, HandPlayer.position)
            .join(HandPlayer, HandPlayer.hand_id == Hand.id)
            .where(HandPlayer.user_id == user_id, Hand.status == "finished")
            .order_by(Hand.id)
        ).all()
    return to_phhs([_record(h, p) for h, p in rows], [h.id for h, _ in rows])


def leaderboard(sessions) -> list[dict]:
    """Every account by what it has won (``net``: the bankroll less what it started with, 1,000 for a
    person and 0 for a bot's books, so a losing person never ranks above a winning bot), with their
    statistics: VPIP and PFR as shares of hands, aggression as bets and raises per call, small bets won per
    hand."""
    with sessions() as db:
        rows = db.execute(
            select(User.name, User.kind, User.bankroll, PlayerStats).join(
                PlayerStats, PlayerStats.user_id == User.id
            )
        ).all()
    out = []
    for name, kind, bankroll, st in rows:
        hands = st.hands
        out.append(
            {
                "name": name,
                "kind": kind,
                "bankroll": bankroll,
                "net": bankroll - (START_BANKROLL if kind == "human" else 0),
                "hands": hands,
                "sb_per_hand": st.small_bets / hands if hands else 0.0,
                "vpip": st.vpip / hands if hands else 0.0,
                "pfr": st.pfr / hands if hands else 0.0,
                "aggression": st.raises / st.calls if st.calls else None,
            }
        )
    out.sort(key=lambda row: (-row["net"], row["name"]))
    return out


def bankroll_curve(sessions, name: str) -> list[dict] | None:
    """A player's bankroll after each finished hand (None: no such player)."""
    with sessions() as db:
        user_id = db.scalar(select(User.id).where(User.name == name))
        if user_id is None:
            return None
        rows = db.execute(
            select(HandPlayer.hand_id, HandPlayer.bankroll)
            .where(HandPlayer.user_id == user_id)
            .order_by(HandPlayer.hand_id)
        ).all()
    return [{"hand": h, "bankroll": b} for h, b in rows]
