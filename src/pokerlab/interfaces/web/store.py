"""Writing hands: a row when a hand is dealt, and everything about it, bankrolls included, in ONE
transaction when it ends, so a crash loses no finished hand and never half a pot.

A hand is ``running`` from its deal to its end. Bankrolls change only in `HandLedger.finish`, in the
transaction that stores the hand, so a hand a stopped server left ``running`` changed no bankroll:
`void_running` marks it ``void`` at the next start and the chips it had taken are still in the bankrolls.

Statistics per player and hand (the counts `PlayerStats` keeps; the leaderboard divides them):
VPIP, chips put in voluntarily before the flop (a call of more than nothing, or a raise); PFR, a raise
before the flop; aggression, bets and raises over calls of a bet, every round; small bets won per hand.
"""

from __future__ import annotations

import time

from sqlalchemy import select, update

from pokerlab.engine import HandState
from pokerlab.interfaces.web.db import Database, Hand, HandPlayer, PlayerStats, User
from pokerlab.modeling.style import style_counts


def seat_counters(state: HandState, position: int) -> dict[str, int]:
    """A position's statistics counters in a finished hand: vpip, pfr (0 or 1), raises, calls."""
    counts = style_counts((0, r.round, r.to_call, r.action) for r in state.actions if r.position == position)
    return {"vpip": counts.vpip, "pfr": counts.pfr, "raises": sum(counts.raises), "calls": sum(counts.calls)}


class HandLedger:
    """The hands of a server (writes take the database's one writer lock)."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.sessions = database.sessions

    def void_running(self) -> int:
        """Mark every hand left running by a stopped server void; returns how many."""
        with self.database.write() as db:
            result = db.execute(
                update(Hand).where(Hand.status == "running").values(status="void", ended=time.time())
            )
            return result.rowcount

    def bot_user(self, agent: str) -> int:
        """The user id that books a bot's chips (one per agent name; its bankroll starts at 0)."""
        name = f"{agent} (bot)"
        with self.database.write() as db:
            user_id = db.scalar(select(User.id).where(User.name == name))
            if user_id is None:
                user = User(name=name, kind="bot", password_hash=None, bankroll=0, created=time.time())
                db.add(user)
                db.flush()
                db.add(
                    PlayerStats(user_id=user.id, hands=0, vpip=0, pfr=0, raises=0, calls=0, small_bets=0.0)
                )
                user_id = user.id
            return user_id

    def bankroll(self, user_id: int) -> int:
        with self.sessions() as db:
            return db.scalar(select(User.bankroll).where(User.id == user_id))

    def start(
        self, table_id: int, level: str, config: dict, button: int, seats: list, stacks: list, seed: int
    ) -> int:
        """Store a hand as dealt (``running``) with its deck seed; returns its id."""
        with self.database.write() as db:
            hand = Hand(
                table_id=table_id,
                level=level,
                status="running",
                started=time.time(),
                seed=seed,
                config=config,
                button=button,
                seats=seats,
                stacks=stacks,
            )
            db.add(hand)
            db.flush()
            return hand.id

    def finish(self, hand_id: int, state: HandState, seats: list, decisions: list) -> dict[int, int]:
        """Store the finished hand, every player's net into the bankroll and the statistics, in one
        transaction; returns each person's bankroll after the hand (user id -> chips)."""
        nets = state.nets
        small_bet = state.config.small_bet
        after = {}
        with self.database.write() as db:
            hand = db.get(Hand, hand_id)
            hand.status = "finished"
            hand.ended = time.time()
            hand.holes = list(state.holes)
            hand.board = list(state.board_seen)
            hand.actions = [[r.position, r.action] for r in state.actions]
            hand.decisions = decisions
            hand.nets = list(nets)
            hand.shown = state.shown()
            for p, seat in enumerate(seats):
                user_id = seat["user_id"]
                db.execute(update(User).where(User.id == user_id).values(bankroll=User.bankroll + nets[p]))
                bankroll = db.scalar(select(User.bankroll).where(User.id == user_id))
                after[user_id] = bankroll
                db.add(
                    HandPlayer(hand_id=hand_id, position=p, user_id=user_id, net=nets[p], bankroll=bankroll)
                )
                c = seat_counters(state, p)
                db.execute(
                    update(PlayerStats)
                    .where(PlayerStats.user_id == user_id)
                    .values(
                        hands=PlayerStats.hands + 1,
                        vpip=PlayerStats.vpip + c["vpip"],
                        pfr=PlayerStats.pfr + c["pfr"],
                        raises=PlayerStats.raises + c["raises"],
                        calls=PlayerStats.calls + c["calls"],
                        small_bets=PlayerStats.small_bets + nets[p] / small_bet,
                    )
                )
        return after
