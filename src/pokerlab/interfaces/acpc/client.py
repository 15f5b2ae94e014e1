"""An ACPC client: one of our agents plays at a protocol dealer (ours or any other).

The client sends ``VERSION:2.0.0``, then reads MATCHSTATE lines until the dealer closes the connection
(ACPC protocol 2.0.0): comment lines ('#' or ';') are skipped, every state is played through
our engine (`Follower`: the opponents' unseen cards unknown; a line that breaks the rules is warned about
and ignored), the agent hears each hand's start, every action and
the end, exactly as at one of our tables, and when the rules make it our turn the client answers the
line it was sent followed by ':' and the action letter. The agent lives for the whole connection, so it
keeps its memory across hands.

Who sits where: ACPC names no players. Our dealer says it in a comment before each hand
(``# pokerlab seats 2|0|1``: the lasting seat at each position); without one the client assumes the
ACPC reference dealer's rotation (its ``seatToPlayer``: the seat at position p in hand h is (p + h) mod
n, so each seat's position drops by one a hand; our own dealer seats (p + h + 1) mod n, the same turn
one hand ahead, and says so in its comment). With a `ClientResults`, every finished hand also goes to
our results folder (`client_results`).
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
from pokerlab.interfaces.acpc.matchstate import SEATS_COMMENT, Follower, MatchState, seats_of

log = logging.getLogger(__name__)
VERSION = "VERSION:2.0.0"


@dataclass
class ClientReport:
    """What a client played: hands finished, its net chips, warnings about lines it could not use, and
    the final state line of every hand (the dealer's view from this seat)."""

    hands: int = 0
    net: int = 0
    warnings: int = 0
    finals: list[str] = field(default_factory=list)


class AcpcClient:
    """Plays `agent` over `channel` in the game `config`; ``seed`` and ``session`` seed the agent as our
    sessions do (``(seed, 1, session, seat)``), so a client at our dealer plays as at our table."""

    def __init__(
        self,
        agent: Agent,
        config: GameConfig,
        channel: Channel,
        seed: int = 0,
        session: int = 0,
        results: ClientResults | None = None,
    ) -> None:
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
        channel = self.channel
        follow = self.follower.follow_line
        try:
            channel.send(VERSION)
        except ConnectionClosed:
            return self.report
        while True:
            try:
                line = channel.readline()
            except ConnectionClosed:
                return self.report
            except LineTooLong as exc:
                self._warn(str(exc))
                continue
            if not line or line[0] in "#;":
                if line.startswith(SEATS_COMMENT):
                    self._seats_comment(line)
                continue
            try:
                state = follow(line)
            except PokerlabError as exc:  # a line no rules make sense of (the engine says why)
                self._warn(f"ignored the line {line[:80]!r}: {exc}")
                continue
            try:
                self._handle(self.follower.last, state, line)
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
            else:
                self.seats = tuple((q + ms.hand) % n for q in range(n))  # ACPC's reference dealer
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
        if state.is_over:
            self._end(state, ms, line)
        elif state.actor == p:
            self.channel.send(f"{line}:{ACTION_LETTERS[self._decide(state, p)]}")

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
        self.report.hands += 1
        self.report.net += state.nets[p]
        self.report.finals.append(line)
        if self.results is not None and not self.results.add(state, ms.hand, self.session, p, self.seats):
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
) -> ClientReport:
    """Connect to the dealer at host:port and play `agent` until the dealer closes; with ``out``, every
    finished hand goes to that results folder (our agent's column named ``name``, default its own);
    ``poll_for``: seconds each read polls before it sleeps (`Channel.poll_for`)."""
    check_poll(poll_for)
    results = None if out is None else ClientResults(out, name or agent.name, config, seed)
    channel = connect(host, port)
    channel.poll_for = poll_for
    try:
        return AcpcClient(agent, config, channel, seed, session, results).play()
    except PokerlabError:
        raise
    finally:
        channel.close()
