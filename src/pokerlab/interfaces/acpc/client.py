"""An ACPC client: one of our agents plays at a protocol dealer (ours or any other).

The client sends ``VERSION:2.0.0``, then reads MATCHSTATE lines until the dealer closes the connection
(ACPC protocol 2.0.0): comment lines ('#' or ';') are skipped, every state is played through
our engine (`Follower`: the opponents' unseen cards unknown; a line that breaks the rules is warned about
and ignored), the agent hears each hand's start, every action and
the end, exactly as at one of our tables, and when the rules make it our turn the client answers the
line it was sent followed by ':' and the action letter. The agent lives for the whole connection, so it
keeps its memory across hands.

Who sits where: ACPC names no players. Our dealer says it in a comment before each hand
(``# pokerlab seats 2|0|1``: the lasting seat at each position); without one the client follows the
ACPC reference dealer's seating (its ``seatToPlayer``), which is one of two (`SEATINGS`): ``rotate``, its
default, seats (p + h) mod n at position p in hand h, so each seat's position drops by one a hand;
``fixed`` (its ``-f``) keeps every seat at its position, seat p at position p in every hand. In hand 0
both seat p at position p; ``auto`` (the default) tells them apart by the client's position in the next
hand (its seat is the one thing that never changes on its connection), and until then seats as both do
(or, where the first hand it sees is not a multiple of n, as ``rotate``, and says so). Our ``acpc
dealer`` seats as the reference does and sends no comment; the dealer of ``acpc match`` seats
(p + h + 1) mod n, the same turn one hand ahead, and says so in its comment. With a
`ClientResults`, every finished hand also goes to our results folder (`client_results`).

Accounting: each hand's value for this seat is the reference's (`reference_values`: a tied pot split in
equal parts, fractions of a chip included), so `ClientReport.net` is the reference dealer's total for
this seat. The client refuses a line of another number of players than the game's (`ConfigError`, the
line named), and stops with `DealerSilent` when the dealer sends nothing for ``timeout`` seconds.
"""

from __future__ import annotations

import copy
import logging
import socket
from dataclasses import dataclass, field
from pathlib import Path

from pokerlab.actions import ACTION_LETTERS, CALL
from pokerlab.agents import Agent
from pokerlab.agents.base import overrides, split_decision
from pokerlab.arena.players import seat_generator
from pokerlab.engine import GameConfig, HandState, hand_end, hand_start, seat_view
from pokerlab.errors import ConfigError, PokerlabError
from pokerlab.interfaces.acpc.channel import Channel, ConnectionClosed, LineTooLong, check_poll
from pokerlab.interfaces.acpc.client_results import ClientResults
from pokerlab.interfaces.acpc.matchstate import (
    SEATS_COMMENT,
    Follower,
    MatchState,
    reference_values,
    seats_of,
)

log = logging.getLogger(__name__)
VERSION = "VERSION:2.0.0"
#: How the reference dealer may seat the players (its default rotation, or ``-f``), or ``auto``: told apart.
SEATINGS = ("auto", "rotate", "fixed")
#: Seconds the client waits for the dealer's next line by default before it stops (`DealerSilent`).
DEALER_TIMEOUT = 600.0


class DealerSilent(PokerlabError):
    """The dealer sent nothing for the client's time limit."""


@dataclass
class ClientReport:
    """What a client played: hands finished, its net chips (the reference's count: fractions of a chip
    where a tied pot splits unevenly), warnings about lines it could not use, the final state line of
    every hand (the dealer's view from this seat) and this seat's value of each (chips)."""

    hands: int = 0
    net: float = 0
    warnings: int = 0
    finals: list[str] = field(default_factory=list)
    values: list[float] = field(default_factory=list)


class AcpcClient:
    """Plays `agent` over `channel` in the game `config`; ``seed`` and ``session`` seed the agent as our
    sessions do (``(seed, 1, session, seat)``), so a client at our dealer plays as at our table.
    ``players``: the game's number of players (a line of another is refused; None: not checked);
    ``seating``: one of `SEATINGS`; ``timeout``: seconds to wait for each line (None: no limit)."""

    def __init__(
        self,
        agent: Agent,
        config: GameConfig,
        channel: Channel,
        seed: int = 0,
        session: int = 0,
        results: ClientResults | None = None,
        players: int | None = None,
        seating: str = "auto",
        timeout: float | None = None,
    ) -> None:
        if seating not in SEATINGS:
            raise ConfigError(f"seating must be one of {', '.join(SEATINGS)}, got {seating!r}")
        if timeout is not None and not timeout > 0:
            raise ConfigError(f"the client's timeout must be positive seconds, got {timeout}")
        self.players, self.seating, self.timeout = players, seating, timeout
        self.fixed: bool | None = {"rotate": False, "fixed": True}.get(seating)
        self.first: tuple[int, int] | None = None  # (hand, position) of the first hand seen
        self.agent = agent
        self.results = results
        self.config = config
        self.seat_config = copy.copy(config)
        self.channel = channel
        self.seed, self.session = seed, session
        self.seeded = False
        self.report = ClientReport()
        self.hand: int | None = None
        self.ended = True
        self.seen = 0
        self.seats: tuple[int, ...] = ()
        self.told_seats: tuple[int, ...] | None = None
        self.follower = Follower(config)
        self.wants_begin = overrides(agent, "begin_hand")
        self.wants_observe = overrides(agent, "observe")
        self.wants_end = overrides(agent, "end_hand")

    def play(self) -> ClientReport:
        """Play until the dealer closes the connection (the results folder, if any, written whatever
        ends it)."""
        try:
            return self._play()
        finally:
            if self.results is not None:
                self.results.close()

    def _play(self) -> ClientReport:
        channel, follower, players = self.channel, self.follower, self.players
        follow = follower.follow_line
        try:
            channel.send(VERSION)
        except ConnectionClosed:
            return self.report
        while True:
            try:
                line = channel.readline(self.timeout)
            except ConnectionClosed:
                return self.report
            except LineTooLong as exc:
                self._warn(str(exc))
                continue
            if line is None:
                raise DealerSilent(
                    f"the dealer sent nothing for {self.timeout:g} s; the client stopped after "
                    f"{self.report.hands} hands (--timeout sets the limit)"
                )
            if not line or line[0] in "#;":
                if line.startswith(SEATS_COMMENT):
                    self._seats_comment(line)
                continue
            try:
                state = follow(line)
            except PokerlabError as exc:  # a line no rules make sense of (the engine says why)
                self._warn(f"ignored the line {line[:80]!r}: {exc}")
                continue
            ms = follower.last
            if players is not None and len(ms.holes) != players:
                raise ConfigError(
                    f"the dealer's line {line[:80]!r} has {len(ms.holes)} players; the game "
                    f"has {players} (--game)"
                )
            try:
                self._handle(ms, state, line)
            except ConnectionClosed:
                return self.report

    def _warn(self, text: str) -> None:
        self.report.warnings += 1
        if self.report.warnings <= 3:
            log.warning("acpc client: %s", text)

    def _seats_comment(self, line: str) -> None:
        seats = seats_of(line)
        if seats is None:
            self._warn(f"ignored the comment {line!r}")
        else:
            self.told_seats = seats

    def _handle(self, ms: MatchState, state: HandState, line: str) -> None:
        p = ms.position
        agent = self.agent
        if ms.hand != self.hand:  # a new hand
            n = ms.players
            self.hand, self.ended, self.seen = ms.hand, False, 0
            told = self.told_seats
            self.told_seats = None
            if told is not None and sorted(told) == list(range(n)):
                self.seats = told
            elif self._seated_fixed(ms.hand, p, n):
                self.seats = tuple(range(n))  # the reference dealer's -f
            else:
                self.seats = tuple((q + ms.hand) % n for q in range(n))  # the reference dealer's rotation
            if not self.seeded:
                agent.seed(seat_generator([self.seed, 1, self.session, self.seats[p]]))
                self.seeded = True
            if self.wants_begin:
                agent.begin_hand(hand_start(state, p, self.seats, self.seat_config, ms.hand))
        elif self.ended:
            return
        if self.wants_observe:
            for record in state.actions[self.seen :]:
                agent.observe(record)
        self.seen = len(state.actions)
        actor = state.actor
        if actor < 0:  # the hand is over
            self._end(state, ms, line)
        elif actor == p:
            self.channel.send(f"{line}:{ACTION_LETTERS[self._decide(state, p)]}")

    def _seated_fixed(self, hand: int, position: int, n: int) -> bool:
        """Whether the reference dealer keeps the seats fixed (``-f``), as `seating` says or, ``auto``, as
        this seat's position in `hand` tells (see the module doc); rotation while it cannot tell."""
        if self.fixed is not None:
            return self.fixed
        if self.first is None:
            self.first = (hand, position)
            if hand % n:
                self._warn(
                    f"the first hand is {hand}, where a fixed and a rotating dealer seat differently: "
                    "seated as rotating until the next hand tells (--seating fixed or rotate to say)"
                )
            return False
        first_hand, first_position = self.first
        rotating = (first_position + first_hand - hand) % n
        if position != rotating or position != first_position:
            self.fixed = position == first_position
            if position not in (rotating, first_position):
                self._warn(f"in hand {hand} position {position} fits neither seating; seated as rotating")
        return bool(self.fixed)

    def _decide(self, state: HandState, p: int) -> int:
        view = seat_view(state, p, self.seats, self.seat_config)
        action = split_decision(self.agent.act(view))[0]
        if action not in view.legal_actions:
            self._warn(f"the agent answered {action!r}, not legal here; sent a call")
            action = CALL
        return action

    def _end(self, state: HandState, ms: MatchState, line: str) -> None:
        p = ms.position
        self.ended = True
        values = reference_values(state)
        value = values[p]
        report = self.report
        report.hands += 1
        report.net += value
        report.values.append(value)
        report.finals.append(line)
        if self.results is not None and not self.results.add(
            state, values, ms.hand, self.session, p, self.seats
        ):
            self._warn(
                f"hand {ms.hand} has {state.n} players, not the first hand's: not in the results folder"
            )
        if self.wants_end:
            self.agent.end_hand(hand_end(state, p))


def connect(host: str, port: int, timeout: float = 10.0) -> Channel:
    """A channel to a dealer; `ConfigError` when nobody answers at host:port."""
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as exc:
        raise ConfigError(f"cannot connect to a dealer at {host}:{port} ({exc.strerror or exc})") from None
    return Channel(sock)


def play(
    agent: Agent,
    config: GameConfig,
    host: str,
    port: int,
    seed: int = 0,
    session: int = 0,
    out: str | Path | None = None,
    name: str | None = None,
    poll_for: float = 0.0,
    players: int | None = None,
    seating: str = "auto",
    timeout: float | None = DEALER_TIMEOUT,
) -> ClientReport:
    """Connect to the dealer at host:port and play `agent` until the dealer closes; with ``out``, every
    finished hand goes to that results folder (our agent's column named ``name``, default its own);
    ``poll_for``: seconds each read polls before it sleeps (`Channel.poll_for`); ``players``, ``seating``
    and ``timeout`` as `AcpcClient` takes them."""
    check_poll(poll_for)
    results = None if out is None else ClientResults(out, name or agent.name, config, seed)
    channel = connect(host, port)
    channel.poll_for = poll_for
    try:
        client = AcpcClient(agent, config, channel, seed, session, results, players, seating, timeout)
        return client.play()
    except PokerlabError:
        raise
    finally:
        channel.close()
