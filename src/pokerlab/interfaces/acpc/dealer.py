"""An ACPC dealer: our table, with every seat a protocol client on its own loopback port.

The dealer listens on 127.0.0.1 only (one port per seat, fixed or picked by the system), deals with our
engine and dealing (the cards of deal d depend on the seed alone, so the same seed deals the same cards
as `play_match`), moves the button one seat a hand as our sessions do, and plays every hand through
`Table` with `AcpcPlayer` seats (their rules: ACPC protocol 2.0.0). A seat's first fault (it never
connects or says VERSION, disconnects, answers late or with anything but a legal action) stops the match
with `BotFault`, as ACPC's reference dealer stops (the table's rule with ``max_faults=0``): no SCORE line,
the hands finished so far kept in the log and the results folder. With ``tolerate_faults`` the table
checks or folds for the seat instead (for the rest of its session where it left) and the match goes on
to the end; the result counts each seat's faults and says which seat left, when and why.

It writes the ACPC log (one ``STATE:<hand>:<betting>:<cards>:<nets>:<names>`` line per hand, names and
nets by position, and a final ``SCORE:<totals>:<names>`` line by player) and, with ``out``, our usual
results folder (config, hands.csv, hands.sqlite, summary.json). A duplicate match plays one session per
seat rotation, each with a fresh connection per seat (clients reconnect), so no agent meets a deal twice.
"""

from __future__ import annotations

import socket
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from pokerlab.arena.match import MatchResult, Tally, check_match, plan_sessions, unique_labels
from pokerlab.arena.players import AgentSpec
from pokerlab.arena.session import run_session
from pokerlab.arena.table import Table
from pokerlab.engine import GameConfig, HandState
from pokerlab.errors import BotFault, ConfigError
from pokerlab.interfaces.acpc.channel import check_poll
from pokerlab.interfaces.acpc.logfile import LogFile, stop_on_signals
from pokerlab.interfaces.acpc.matchstate import SEATS_COMMENT, HandLines
from pokerlab.interfaces.acpc.seat import AcpcPlayer, Owed
from pokerlab.interfaces.acpc.statelog import format_state_line, score_line

#: Seconds the dealer polls for each answer before it sleeps (`Channel.poll_for`): about what an
#: always-call client takes to answer on loopback, so a fast client's answer is read without a wake-up,
#: and a slow one costs the dealer at most this much CPU an action. Measured with `benchmarks/acpc.py`:
#: on an idle machine 1.4x the hands/s of a dealer that sleeps at once, on a busy one about the same.
#: Clients do not poll by default: a client's wait is a whole round of the others, and a polling client
#: on a busy machine yields its processor to other jobs for their whole turn (5x fewer hands/s).
DEALER_POLL = 0.0002


class AcpcTable(Table):
    """A `Table` of `AcpcPlayer` seats: it makes every seat's line of each state of the hand (`HandLines`:
    the betting and board text once for all seats) and hands it over as notifications go to other players
    (a seat that is gone is left out, one that fails is counted); writes each finished hand to the ACPC
    log. ``says_seats``: a comment line before each hand tells every seat who sits where."""

    says_seats = True

    def __init__(
        self,
        players: Sequence[AcpcPlayer],
        config: GameConfig,
        labels: Sequence[str],
        log: LogFile | None = None,
        tolerate_faults: bool = False,
    ) -> None:
        super().__init__(players, config, labels, max_faults=0, tolerate_faults=tolerate_faults)
        for player in players:
            player.table = self
        self.log = log
        self.logged = 0
        self.lines = HandLines(0)

    def new_session(self, entropies, agents=None) -> None:
        """Start every seat's program (where it has one) at once, then wait for each client in turn."""
        for player in self.players:
            player.start()
        super().new_session(entropies, agents)

    def view(self) -> Owed:
        """The answer's checks for the seat to act (`Owed`), in place of the `SeatView` that local agents
        get."""
        state = self.state
        return Owed(state.actor, state.legal_actions(), state.to_call())

    def _send_lines(self) -> None:
        lines = self.lines.lines(self.state)
        tell = self._tell
        for p, j in enumerate(self.seats):
            tell(j, "tell", lines[p])

    def start_hand(self, state: HandState, seats: Sequence[int]) -> None:
        super().start_hand(state, seats)
        self.lines = HandLines(self.hand_number)
        lines = self.lines.lines(state)
        if self.says_seats:  # who sits where, before each hand
            comment = SEATS_COMMENT + "|".join(map(str, self.seats))
            for p, line in enumerate(lines):
                self._tell(self.seats[p], "begin", (comment, line))
        else:
            for p, line in enumerate(lines):
                self._tell(self.seats[p], "begin", (line,))

    def step(self) -> None:
        super().step()
        if not self.state.is_over:  # the end goes with finish_hand, the cards shown down included
            self._send_lines()

    def finish_hand(self) -> HandState:
        self._send_lines()  # sent with the seat's next lines, or when the session closes
        state = super().finish_hand()
        if self.log is not None:
            names = [self.labels[j] for j in self.seats]
            betting = state.betting_string()
            line = format_state_line(self.logged, betting, state.holes, state.board_seen, state.nets, names)
            self.log.write(line + "\n")
            self.log.hand_done()
        self.logged += 1
        return state


@dataclass
class DealerResult:
    """A dealer's match: the usual `MatchResult` (with each seat's faults), the SCORE line, and the seats
    that left (why), where faults were tolerated."""

    match: MatchResult
    score: str
    left: dict[str, str] = field(default_factory=dict)


def listen(ports: Sequence[int]) -> list[socket.socket]:
    """Listening sockets on 127.0.0.1 (port 0: one the system picks); `ConfigError` for a port in use."""
    listeners = []
    for port in ports:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError as exc:
            sock.close()
            for other in listeners:
                other.close()
            raise ConfigError(f"cannot listen on 127.0.0.1:{port} ({exc.strerror or exc})") from None
        sock.listen(4)
        listeners.append(sock)
    return listeners


def run_dealer(
    config: GameConfig,
    names: Sequence[str],
    hands: int,
    seed: int = 0,
    *,
    ports: Sequence[int] | None = None,
    duplicate: bool = False,
    out: str | Path | None = None,
    log_path: str | Path | None = None,
    action_timeout: float | None = 10.0,
    hand_timeout: float | None = 60.0,
    connect_timeout: float = 60.0,
    on_ports: Callable[[list[int]], None] | None = None,
    poll_for: float = DEALER_POLL,
    tolerate_faults: bool = False,
    programs: Sequence[Callable[[int, int], subprocess.Popen]] | None = None,
) -> DealerResult:
    """Deal `hands` hands (deals, with ``duplicate``) to clients connecting on one port per name.

    ``on_ports`` is called with the ports once they listen (before any client is awaited); ``poll_for``
    is how many seconds each read of an answer polls before it sleeps (`Channel.poll_for`). A seat's
    fault raises `BotFault` (see the module doc), unless ``tolerate_faults``. ``programs`` starts each
    seat's client: ``programs[j](port, session)`` returns the started process, leading its own process
    group, which the seat watches and whose group it kills at the end of the session.
    """
    n = len(names)
    check_match(n, hands, duplicate, action_timeout=action_timeout, hand_timeout=hand_timeout)
    ports = list(ports) if ports else [0] * n
    if len(ports) != n:
        raise ConfigError(f"{n} players need {n} ports, got {len(ports)}")
    if programs is not None and len(programs) != n:
        raise ConfigError(f"{n} players need {n} programs, got {len(programs)}")
    check_poll(poll_for)
    labels = unique_labels(list(names), sep="-")
    specs = [AgentSpec(label, b"") for label in labels]
    jobs = plan_sessions(
        specs,
        labels,
        hands,
        config,
        seed,
        duplicate=duplicate,
        sessions=1,
        block=1000,
        records=out is not None,
        log_decisions=False,
        isolate=(False,) * n,
        action_timeout=None,
        rebuy=None,
    )
    writer = None
    if out is not None:
        from pokerlab.arena.output import ResultsWriter, run_meta

        meta = run_meta(labels, config, seed, duplicate, hands, 1000, len(jobs))
        writer = ResultsWriter(Path(out), labels, meta)
    listeners = listen(ports)
    log = LogFile.open(log_path) if log_path else None
    players = [
        AcpcPlayer(
            s,
            label,
            action_timeout,
            hand_timeout,
            connect_timeout,
            poll_for,
            program=None if programs is None else partial(programs[j], s.getsockname()[1]),
        )
        for j, (s, label) in enumerate(zip(listeners, labels, strict=True))
    ]
    table = AcpcTable(players, config, labels, log, tolerate_faults)
    tally = Tally(n, writer)
    left: dict[str, str] = {}
    with stop_on_signals():  # a stopped dealer writes its log first
        try:
            if log:
                log.write(
                    f"# pokerlab acpc dealer: {' '.join(labels)}; {hands} "
                    f"{'deals' if duplicate else 'hands'}, seed {seed}\n"
                )
            if on_ports:
                on_ports([s.getsockname()[1] for s in listeners])
            for job in jobs:
                try:
                    for event in run_session(job, table):
                        tally.take(event)
                except BotFault as exc:
                    where = f"session {job.session}: " if duplicate else ""
                    played = f"{table.logged} hand{'' if table.logged == 1 else 's'}"
                    failed = BotFault(f"{where}{exc}; the match stopped after {played}")
                    if log:
                        log.write(f"# {failed}\n")
                    raise failed from None
                for j, player in enumerate(players):
                    if player.gone:
                        where = f"session {job.session}: " if duplicate else ""
                        left[labels[j]] = (
                            left.get(labels[j], "")
                            + ("; " if labels[j] in left else "")
                            + where
                            + player.gone
                        )
                table.close()  # the clients see the end of the session
        finally:
            table.close()
            for s in listeners:
                s.close()
            if writer:
                writer.close()
            if log:
                log.close()
    rows, reports, faults = sorted(tally.rows), tally.reports, tally.faults
    result = MatchResult.of_rows(
        labels,
        config,
        seed,
        duplicate,
        rows,
        faults,
        Path(out) if out else None,
        reports,
        hands * (n if duplicate else 1),
    )
    totals = result.nets.sum(axis=0) if result.hands else [0] * n
    score = score_line(totals, labels)
    if log:
        with open(log_path, "a") as f:
            f.write(score + "\n")
    if writer:
        writer.finish(result)
    return DealerResult(result, score, left)
