"""The table runtime: one asyncio task per table drives the engine one action at a time.

Each hand is an engine `HandState` played through the arena's `Table` (`pokerlab.arena.table`, the one hand
loop of the project: it holds every seat's bot, tells them the hand, asks them, and keeps its fault rule);
the runtime takes its steps one at a time between awaits. Bots act off the event loop
(``asyncio.to_thread``: Loki's enumerations take milliseconds). A bot that fails, answers late or answers
an illegal action commits a fault, under the arena table's rule for tolerated faults: it is checked or
folded for, counted and logged, and the ``action`` frame and the stored decision say so (``fault``, one
line). A person acts through the WebSocket before a deadline (``WebConfig.action_seconds``); a person who is
silent past it, or has no connection open when the turn comes, checks when checking is free and folds
otherwise (a rule of the table, not a fault).

Money (docs/web-protocol.md, "Levels"): a person's chips at the table are their whole bankroll (real
stacks), and every finished hand books the nets into the bankrolls in the transaction that stores it
(`HandLedger.finish`). Bots sit with ``bot_stack_bets`` big bets, topped up before every hand; their books
(one account per agent name, starting at 0) take their nets, so the chips of all accounts always add up to
what the people were given. A level opens to a person whose bankroll reached its threshold
(Billings et al. 1998 §5).

Cards: each hand is dealt from its own 63-bit seed (`deal_cards(seed, 0, n)`), drawn from the operating
system's entropy (`secrets`) unless the server has a practice ``seed``, from which every hand's seed is
derived (table, hand number: reproducible, and said so in the lobby). The seed is stored with the hand
(`HandLedger.start`) for an audit to re-deal it, and never sent to anyone.

A table with no person pauses (no CPU) unless ``run_bot_tables`` is set.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import secrets
import time
from dataclasses import dataclass

import numpy as np

from pokerlab.actions import check_or_fold
from pokerlab.agents.registry import is_external
from pokerlab.arena.dealing import deal_cards
from pokerlab.arena.match import unique_labels
from pokerlab.arena.players import AgentSpec, IsolatedPlayer, LocalPlayer
from pokerlab.arena.table import Table as ArenaTable
from pokerlab.engine import CALL, FOLD, RAISE, RIVER, GameConfig, HandState
from pokerlab.interfaces.web import frames
from pokerlab.interfaces.web.accounts import AccountError
from pokerlab.interfaces.web.config import Level, TableSpec, WebConfig, level_named
from pokerlab.interfaces.web.store import HandLedger

log = logging.getLogger(__name__)
#: Frames queued for one connection before it is dropped as too slow.
MAX_QUEUED = 1000
WORDS = {"fold": FOLD, "call": CALL, "raise": RAISE}


def jsonable(value):
    """A bot's decision info as plain JSON data (numpy scalars and arrays become numbers and lists; NaN and
    infinities become null: strict JSON has no such numbers, and PostgreSQL's json type refuses them)."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, np.generic):
        return jsonable(value.item())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _bot_player(bot: str, config: GameConfig, sandbox_mode: str) -> LocalPlayer | IsolatedPlayer:
    """A seat's bot: a built-in agent in this process, an outside bot ("module:Class", "file.py:Class")
    in its own sandboxed process (`pokerlab.arena.players`), never imported by the server."""
    spec = AgentSpec(bot)
    return IsolatedPlayer(spec, config, sandbox_mode=sandbox_mode) if is_external(bot) else LocalPlayer(spec)


class Connection:
    """One open WebSocket: who it belongs to (``session``: the hash of the log-in's token) and the frames
    waiting to be sent (a writer task sends them; a None closes the socket)."""

    def __init__(self, user_id: int, name: str, session: str) -> None:
        self.user_id, self.name, self.session = user_id, name, session
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def send(self, frame: dict | str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUED:
            self.close()
            return
        self.queue.put_nowait(frame if isinstance(frame, str) else json.dumps(frame))

    def close(self) -> None:
        """Send nothing more and close the socket."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)


@dataclass
class Seat:
    """A lasting seat: its bot (``bot_name``: its name at this table, ``loki1 #2`` for a second Loki-1;
    ``player``: a built-in agent in this process, or an outside bot in its sandboxed process), and the
    person sitting there (``user_id`` None: the bot plays)."""

    seat: int
    bot: str
    player: LocalPlayer | IsolatedPlayer
    bot_user: int
    bot_name: str
    user_id: int | None = None
    name: str | None = None
    stack: int = 0
    leaving: bool = False
    connections: int = 0
    away_since: float | None = None


class Table:
    """One table of the lobby and the task that plays its hands."""

    def __init__(self, table_id: int, spec: TableSpec, web: WebConfig, store: HandLedger) -> None:
        self.id = table_id
        self.level: Level = level_named(spec.level)
        self.web = web
        self.store = store
        self.config = GameConfig(
            small_bet=self.level.small_bet,
            big_bet=self.level.big_bet,
            stack=web.bot_stack_bets * self.level.big_bet,
        )
        root = secrets.randbits(128) if web.seed is None else web.seed
        self.seats: list[Seat] = []
        names = unique_labels([spec.bots[s % len(spec.bots)] for s in range(spec.seats)], " #", False)
        for s, display in enumerate(names):
            bot = spec.bots[s % len(spec.bots)]
            player = _bot_player(bot, self.config, web.sandbox)
            self.seats.append(Seat(s, bot, player, store.bot_user(bot), display))
        # the one hand loop, its fault rule the competitions' (a faulty bot is checked or folded for)
        self.table = ArenaTable([s.player for s in self.seats], self.config, names, tolerate_faults=True)
        self.table.new_session([[root, table_id, s] for s in range(len(self.seats))])
        self.hand: frames.LiveHand | None = None
        self.button = -1
        self.connections: set[Connection] = set()
        self.pending: asyncio.Future | None = None
        self.wake = asyncio.Event()
        self.hands_played = 0

    # -- people ---------------------------------------------------------------------------------------

    def person_seat(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def sit(self, user_id: int, name: str, bankroll: int, seat: int | None) -> int:
        """Seat a person with their bankroll as chips; `AccountError` 403/409 says why not."""
        level = self.level
        if bankroll < level.threshold:
            raise AccountError(
                403, f"level {level.name} opens at a bankroll of {level.threshold}; yours is {bankroll}"
            )
        if bankroll < level.big_bet:
            raise AccountError(
                403, f"a bankroll of {bankroll} is less than one big bet ({level.big_bet}) here"
            )
        if seat is None:
            free = [s for s in self.seats if s.user_id is None]
            if not free:
                raise AccountError(409, f"table {self.id} has no free seat")
            seat = free[0].seat
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise AccountError(400, f"seat must be 0 to {len(self.seats) - 1}, got {seat!r}")
        chosen = self.seats[seat]
        if chosen.user_id is not None:
            raise AccountError(409, f"seat {seat} is taken")
        chosen.user_id, chosen.name, chosen.stack, chosen.leaving = user_id, name, bankroll, False
        chosen.connections = sum(c.user_id == user_id for c in self.connections)
        chosen.away_since = None if chosen.connections else time.monotonic()
        self.wake.set()
        self.broadcast_table()
        return seat

    def leave(self, user_id: int) -> bool:
        """Stand a person up now, or after the running hand if they are in it; False if not seated."""
        seat = self.person_seat(user_id)
        if seat is None:
            return False
        if self.hand is not None and self.hand.position_of(user_id) is not None:
            seat.leaving = True
        else:
            self._stand(seat)
            self.broadcast_table()
        return True

    def _stand(self, seat: Seat) -> None:
        seat.user_id = seat.name = None
        seat.stack, seat.leaving, seat.connections, seat.away_since = 0, False, 0, None

    def connect(self, conn: Connection) -> None:
        """A WebSocket opened: it gets the `table` frame; a seated person is back."""
        self.connections.add(conn)
        seat = self.person_seat(conn.user_id)
        if seat is not None:
            seat.connections += 1
            seat.away_since = None
        conn.send(self.table_frame(conn.user_id))

    def disconnect(self, conn: Connection) -> None:
        self.connections.discard(conn)
        seat = self.person_seat(conn.user_id)
        if seat is not None:
            seat.connections = max(0, seat.connections - 1)
            if not seat.connections:
                seat.away_since = time.monotonic()
                hand = self.hand
                if hand is not None and self.pending is not None and not self.pending.done():
                    p = hand.state.actor
                    if hand.position_of(conn.user_id) == p:
                        self.pending.set_result(check_or_fold(hand.state.to_call(p)))

    def submit(self, user_id: int, word) -> str | None:
        """A person's action from the WebSocket; the error message, or None when taken."""
        hand, pending = self.hand, self.pending
        if hand is None or pending is None or pending.done() or hand.position_of(user_id) != hand.state.actor:
            return "it is not your turn"
        action = WORDS.get(word) if isinstance(word, str) else None
        legal = hand.state.legal_actions()
        if action not in legal:
            allowed = ", ".join(frames.ACTION_NAMES[a] for a in legal)
            return f"action {word!r} is not allowed now; allowed: {allowed}"
        pending.set_result(action)
        return None

    # -- frames ---------------------------------------------------------------------------------------

    def seats_public(self) -> list[dict]:
        out = []
        for s in self.seats:
            person = s.user_id is not None
            out.append(
                {
                    "seat": s.seat,
                    "name": s.name if person else s.bot_name,
                    "kind": "human" if person else "bot",
                    "agent": None if person else s.bot,
                    "stack": s.stack if person else self.config.stack,
                    "connected": s.connections > 0 if person else True,
                }
            )
        return out

    def table_frame(self, viewer: int | None) -> dict:
        seat = self.person_seat(viewer) if viewer is not None else None
        return {
            "type": "table",
            "table": self.id,
            "level": self.level.name,
            "small_bet": self.level.small_bet,
            "big_bet": self.level.big_bet,
            "you": None if seat is None else seat.seat,
            "practice": self.web.seed is not None,
            "pauses": not self.web.run_bot_tables,
            "seats": self.seats_public(),
            "hand": None if self.hand is None else frames.running(self.hand, viewer),
        }

    def broadcast(self, frame: dict) -> None:
        text = json.dumps(frame)
        for conn in list(self.connections):
            conn.send(text)

    def broadcast_each(self, make) -> None:
        for conn in list(self.connections):
            conn.send(make(conn.user_id))

    def broadcast_table(self) -> None:
        self.broadcast_each(self.table_frame)

    # -- playing --------------------------------------------------------------------------------------

    def hand_seed(self) -> int:
        """The next hand's 63-bit deck seed: secret, or derived from the practice seed."""
        if self.web.seed is None:
            return secrets.randbits(63)
        sequence = np.random.SeedSequence([self.web.seed, self.id, self.table.hand_number])
        return int(sequence.generate_state(1, np.uint64)[0]) >> 1

    def _line_up(self) -> list[Seat] | None:
        """Stand up who must go; the seats dealt in, button last, or None when the table should pause."""
        now = time.monotonic()
        changed = False
        for s in self.seats:
            away = s.away_since is not None and now - s.away_since > self.web.reconnect_seconds
            if s.user_id is not None and (s.leaving or s.stack <= 0 or away):
                self._stand(s)
                changed = True
        if changed:
            self.broadcast_table()
        if not self.web.run_bot_tables and all(s.user_id is None for s in self.seats):
            return None
        n = len(self.seats)
        self.button = (self.button + 1) % n
        return [self.seats[(self.button + 1 + k) % n] for k in range(n)]

    async def run(self) -> None:
        """Play hands for as long as the server runs, pausing while nobody sits here."""
        while True:
            seats = self._line_up()
            if seats is None:
                self.wake.clear()
                await self.wake.wait()
                continue
            try:
                await self.play_hand(seats)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - a failed hand stays `running` (void at restart); play on
                log.exception("table %s: hand failed", self.id)
                self.hand = None
                for s in self.seats:
                    if s.user_id is not None:
                        s.stack = await asyncio.to_thread(self.store.bankroll, s.user_id)
            people = any(s.user_id is not None for s in self.seats)
            await asyncio.sleep(self.web.pause_seconds if people else 0)

    def close(self) -> None:
        """End the bots' players (an outside bot's sandbox and every process in it)."""
        self.table.close()

    async def play_hand(self, seats: list[Seat]) -> None:
        """Deal, play and store one hand with `seats` (position order, button last)."""
        n = len(seats)
        players, stacks = [], []
        for s in seats:
            person = s.user_id is not None
            players.append(
                {
                    "seat": s.seat,
                    "user_id": s.user_id if person else s.bot_user,
                    "name": s.name if person else s.bot_name,
                    "kind": "human" if person else "bot",
                    "agent": None if person else s.bot,
                }
            )
            stacks.append(s.stack if person else self.config.stack)
        seed = self.hand_seed()
        dealt = deal_cards(seed, 0, n)
        state = HandState(self.config, dealt[: 2 * n], dealt[2 * n :], stacks)
        button = seats[-1].seat
        # the hand is the table's before the first await: who leaves now leaves after it
        hand = self.hand = frames.LiveHand(0, state, players, button)
        hand.hand_id = await asyncio.to_thread(
            self.store.start, self.id, self.level.name, self.config.to_dict(), button, players, stacks, seed
        )
        seat_numbers = tuple(pl["seat"] for pl in players)
        people = frozenset(pl["seat"] for pl in players if pl["kind"] == "human")
        self.broadcast_each(lambda viewer: frames.hand_start(hand, viewer))
        table = self.table
        await asyncio.to_thread(table.start_hand, state, seat_numbers, people)
        round_seen = 0
        while state.actor >= 0:
            p = state.actor
            fault = None
            if players[p]["kind"] == "human":
                hand.deadline = int((time.time() + self.web.action_seconds) * 1000)
                self.broadcast_each(lambda viewer: frames.turn(hand, viewer))
                action, decision = await self._ask_person(hand, p), None
            else:
                hand.deadline = None
                self.broadcast_each(lambda viewer: frames.turn(hand, viewer))
                action, decision, fault = await self._ask_bot(seat_numbers[p])
            hand.decisions.append(decision)
            table.apply(action)
            if table.hand_observers:
                await asyncio.to_thread(table.tell_observers)
            self.broadcast(frames.last_action(hand) | ({"fault": fault} if fault else {}))
            for r in range(round_seen + 1, min(state.round, RIVER) + 1):
                self.broadcast(frames.board(r, state))
            round_seen = max(round_seen, min(state.round, RIVER))
        after = await asyncio.to_thread(self.store.finish, hand.hand_id, state, players, hand.decisions)
        for player in players:
            seat = self.seats[player["seat"]]
            if player["kind"] == "human" and seat.user_id == player["user_id"]:
                seat.stack = after[seat.user_id]
        await asyncio.to_thread(table.finish_hand)
        self.hand = None
        self.hands_played += 1
        self.broadcast(frames.hand_end(hand))

    async def _ask_person(self, hand: frames.LiveHand, p: int) -> int:
        state = hand.state
        seat = self.seats[hand.players[p]["seat"]]
        fallback = check_or_fold(state.to_call(p))
        if seat.user_id != hand.players[p]["user_id"] or seat.connections == 0:
            return fallback
        self.pending = asyncio.get_running_loop().create_future()
        try:
            return await asyncio.wait_for(self.pending, self.web.action_seconds)
        except TimeoutError:
            return fallback
        finally:
            self.pending = None

    async def _ask_bot(self, seat: int) -> tuple[int, dict | None, str | None]:
        """(action, logged decision or None, the fault in one line or None) of the bot in lasting seat
        `seat`, which is to act, asked by the arena table off the event loop."""
        table = self.table
        faults = table.faults[seat]
        action, probabilities, info = await asyncio.to_thread(table.ask, seat, table.view())
        if table.faults[seat] > faults:  # checked or folded for it (the table logged it)
            fault = table.last_faults[seat]
            return action, {"fault": fault}, fault
        decision = None
        if probabilities is not None or info is not None:
            decision = {"probabilities": jsonable(probabilities), "info": jsonable(info)}
        return action, decision, None


class Lobby:
    """Every table of a server, and who sits where (a person sits at one table at a time)."""

    def __init__(self, web: WebConfig, store: HandLedger) -> None:
        self.web = web
        self.tables = {i + 1: Table(i + 1, spec, web, store) for i, spec in enumerate(web.tables)}
        self.tasks: list[asyncio.Task] = []

    def start(self) -> None:
        self.tasks = [asyncio.create_task(t.run(), name=f"table-{t.id}") for t in self.tables.values()]

    async def stop(self) -> None:
        """Stop the tables, then their bots (no bot process outlives the server)."""
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await asyncio.to_thread(self.close)

    def close(self) -> None:
        for table in self.tables.values():
            table.close()

    def table(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise AccountError(404, f"no table {table_id}; tables: {', '.join(map(str, self.tables))}")
        return table

    def close_sessions(self, sessions: set[str]) -> None:
        """Close every socket opened by one of these log-ins (token hashes): log-out ends what they see."""
        for table in self.tables.values():
            for conn in list(table.connections):
                if conn.session in sessions:
                    conn.close()

    def seated_at(self, user_id: int) -> Table | None:
        return next((t for t in self.tables.values() if t.person_seat(user_id) is not None), None)

    def listing(self, bankroll: int | None) -> list[dict]:
        """The lobby (GET /api/tables): each table, its level, whether it is open to this bankroll, whether
        its deals are practice (reproducible from a ``--seed``) and whether it pauses without people."""
        return [
            {
                "id": t.id,
                "level": t.level.name,
                "small_bet": t.level.small_bet,
                "big_bet": t.level.big_bet,
                "threshold": t.level.threshold,
                "open": bankroll is not None and bankroll >= t.level.threshold,
                "practice": self.web.seed is not None,
                "pauses": not self.web.run_bot_tables,
                "seats": [
                    {"seat": s["seat"], "name": s["name"], "kind": s["kind"], "agent": s["agent"]}
                    for s in t.seats_public()
                ],
            }
            for t in self.tables.values()
        ]
