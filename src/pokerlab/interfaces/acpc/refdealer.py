"""The ACPC dealer as the reference dealer (``project_acpc_server``'s ``dealer``, protocol 2.0.0) runs one.

`ReferenceCommand` is its command line (``MATCH GAME HANDS SEED NAME... [options]``, the options its usage
text lists); `run_reference` plays the match as it does, on our table (`AcpcTable`):

* the same cards and seats for the same seed (`refdeal`: its Mersenne Twister and dealing order; seats
  rotate one position a hand, or stay with ``-f``);
* each state line goes to every seat as it happens, and no comment line is sent;
* the ports on the first line of standard output and the final SCORE line on the second; its four header
  lines (name, game, hands and seed, then the three time limits in milliseconds) on standard error and at
  the top of ``MATCH.log``, one STATE line a hand there (the values of each position as the reference
  counts them, a tie split into fractions of a chip, `reference_values`, written ``%.6f`` without trailing
  zeros), then the SCORE line; with ``-T`` the transcript ``MATCH.tlog``: each action, its hand, and when
  the state was sent and the answer came (``c 4 1795726438.376341 1795726438.376356``); without ``-q``
  every line sent and received on standard error (``TO 1 at <time> <line>``, ``FROM 1 at ...``), when the
  match started and finished, and each seat's seconds used every 100 hands;
* an answer is read as the reference reads it: a line that answers another state is skipped with a
  warning, an action it cannot read, or one the rules do not allow (a fold where nothing is owed, a raise
  past the cap), is a call, with a warning;
* time: each answer within ``--t_response``, each seat's answers of a hand within ``--t_hand``, and of the
  match within ``--t_per_hand`` times the hands (milliseconds). A seat that runs out of time, or that never
  connects (within ``--start_timeout``, where one is given), closes its connection or sends no VERSION
  line, stops the match (`BotFault`: no SCORE line, the hands so far kept in the log), unless
  ``tolerate_faults`` (then the table checks or folds for it, the sandbox's rule, and the match plays on).
"""

from __future__ import annotations

import contextlib
import getopt
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from pokerlab.actions import ACTION_LETTERS, CALL, FOLD
from pokerlab.arena.players import Disconnected, Timeout
from pokerlab.engine import GameConfig, HandState
from pokerlab.errors import BotFault, ConfigError
from pokerlab.interfaces.acpc.channel import ConnectionClosed
from pokerlab.interfaces.acpc.dealer import DEALER_POLL, AcpcTable, listen
from pokerlab.interfaces.acpc.gamedef import load_gamedef
from pokerlab.interfaces.acpc.logfile import LogFile, stop_on_signals
from pokerlab.interfaces.acpc.matchstate import protocol_name, read_action, reference_values
from pokerlab.interfaces.acpc.refdeal import ReferenceDeals, reference_seats
from pokerlab.interfaces.acpc.seat import AcpcPlayer, Owed

USAGE = (
    "MATCH GAME HANDS SEED NAME... [-f] [-l|-L] [-p PORT,PORT...] [-q] [-t|-T] [-a] [--t_response MS] "
    "[--t_hand MS] [--t_per_hand MS] [--start_timeout MS]"
)
_LONG = ("t_response=", "t_hand=", "t_per_hand=", "start_timeout=")
#: Our dealer's own options (``--poll-us``, ``--tolerate-faults``), after the reference's.
EXTRAS = ("poll-us=", "tolerate-faults")
#: The options of the dealer's former command line, refused with the new form shown.
_FORMER = ("game=", "hands=", "seed=", "log=", "out=", "ports=", "action-timeout=", "hand-timeout=")
_FORMER += ("connect-timeout=",)


@dataclass(frozen=True)
class ReferenceCommand:
    """The reference dealer's command line; times in milliseconds, its defaults (``start_timeout`` < 0:
    wait for the players for ever)."""

    match: str
    game: str
    hands: int
    seed: int
    names: tuple[str, ...]
    ports: tuple[int, ...] | None = None
    fixed: bool = False
    log: bool = True
    transcript: bool = False
    append: bool = False
    quiet: bool = False
    t_response: int = 600_000
    t_hand: int = 600_000
    t_per_hand: int = 7_000
    start_timeout: int = -1

    def header(self) -> str:
        """The reference's four header lines (each ended by a newline)."""
        return (
            f"# name/game/hands/seed {self.match} {self.game} {self.hands} {self.seed}\n"
            f"#--t_response {self.t_response}\n#--t_hand {self.t_hand}\n#--t_per_hand {self.t_per_hand}\n"
        )


def _milliseconds(option: str, text: str, negative: bool = False) -> int:
    """A time option's whole milliseconds (below 0 only where ``negative``: no limit)."""
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or (value < 0 and not negative):
        allowed = "whole milliseconds" + (" (below 0: no limit)" if negative else ", 0 or more")
        raise ConfigError(f"{option} takes {allowed}, got {text!r}")
    return value


def parse_reference_command(argv: Sequence[str]) -> tuple[ReferenceCommand, dict[str, str]]:
    """The reference dealer's command line (options anywhere, as its getopt reads them) and our own
    options given (`EXTRAS`, by name: ``{"poll-us": "200"}``); `ConfigError` saying what is wrong and
    showing the usage."""
    try:
        options, words = getopt.gnu_getopt(list(argv), "flLp:qtTa", [*_LONG, *EXTRAS, *_FORMER])
    except getopt.GetoptError as exc:
        raise ConfigError(f"{exc}; usage: {USAGE}") from None
    former = [o for o, _ in options if f"{o[2:]}=" in _FORMER]
    if former:
        raise ConfigError(
            f"{former[0]} belongs to the dealer's former command line; it now takes the reference dealer's: "
            f"{USAGE} (e.g. m holdem.limit.2p.reverse_blinds 1000 1 alice bob -p 9001,9002)"
        )
    extras = {o[2:]: v for o, v in options if o[2:] in EXTRAS or f"{o[2:]}=" in EXTRAS}
    options = [(o, v) for o, v in options if o[2:] not in extras]
    if len(words) < 4:
        raise ConfigError(
            f"the dealer needs a match name, game, hands, seed and a name per player; usage: {USAGE}"
        )
    match, game, hands_text, seed_text, *names = words
    players = load_gamedef(game).players
    if len(names) < players:
        raise ConfigError(f"the game {game} has {players} players, got {len(names)} names; usage: {USAGE}")
    if not hands_text.isdigit() or int(hands_text) == 0:
        raise ConfigError(f"HANDS is a whole number of hands above 0, got {hands_text!r}")
    if not seed_text.isdigit() or int(seed_text) >= 2**32:
        raise ConfigError(f"SEED is a whole number from 0 to {2**32 - 1}, got {seed_text!r}")
    fields: dict = {}
    for option, value in options:
        if option == "-p":
            try:
                ports = tuple(int(p) for p in value.split(","))
            except ValueError:
                raise ConfigError(f"-p takes ports separated by commas, got {value!r}") from None
            if len(ports) != players or not all(0 <= p < 65536 for p in ports):
                raise ConfigError(
                    f"-p takes {players} ports from 0 to 65535 (0: any free port), got {value!r}"
                )
            fields["ports"] = ports
        elif option in ("-l", "-L"):
            fields["log"] = option == "-L"
        elif option in ("-t", "-T"):
            fields["transcript"] = option == "-T"
        elif option in ("-f", "-q", "-a"):
            fields[{"-f": "fixed", "-q": "quiet", "-a": "append"}[option]] = True
        else:
            name = option[2:]
            fields[name] = _milliseconds(option, value, negative=name == "start_timeout")
    command = ReferenceCommand(match, game, int(hands_text), int(seed_text), tuple(names[:players]), **fields)
    return command, extras


def chips(value: float) -> str:
    """A value as the reference writes it: ``%.6f`` with trailing zeros (and a bare point) removed."""
    return f"{value:.6f}".rstrip("0").rstrip(".")


class ReferenceSeat(AcpcPlayer):
    """A seat under the reference's rules (the module doc): lines sent at once (and traced), stray lines
    skipped with a warning, unreadable or disallowed actions read as calls, a budget for the whole match.
    ``sent`` and ``heard`` are the wall-clock times of the last line sent and the last answer read."""

    def __init__(
        self,
        *args,
        number: int,
        match_timeout: float,
        warn: Callable[[str], None],
        trace: TextIO | None,
        **kw,
    ) -> None:
        super().__init__(*args, **kw)
        self.number = number  # the reference's seat number, from 1
        self.match_timeout = match_timeout
        self.match_used = 0.0
        self.warn = warn
        self.trace = trace
        self.sent = self.heard = 0.0

    def tell(self, line: str) -> None:
        channel = self.channel
        if channel is None:
            raise Disconnected(self.gone or "not connected")
        self.last = line
        self.sent = time.time()
        try:
            channel.send(line)
        except ConnectionClosed:
            self.hand = self.table.hand_number
            self._leave(f"cannot send seat {self.number} its state")
        if self.trace is not None:
            self.trace.write(f"TO {self.number} at {_stamp(self.sent)} {line}\r\n")

    def act(self, view: Owed, deadline: float | None = None) -> int:
        """The answer, waited for up to the response limit; then, as the reference checks them, the
        hand's and the match's budgets (`Timeout` where the answer overran one)."""
        used = self.used
        try:
            action = super().act(view, deadline)
        finally:
            self.match_used += self.used - used
        if self.hand_timeout is not None and self.used > self.hand_timeout:
            raise Timeout(f"ran out of the hand's {self.hand_timeout:g} s")
        if self.match_used > self.match_timeout:
            raise Timeout(f"ran out of the match's {self.match_timeout:g} s")
        return action

    def _limit(self) -> float | None:
        return self.action_timeout  # the budgets are checked once the answer is in, as the reference does

    def _heard(self, line: str, answer: str | None = None) -> None:
        """Note when a line came (`line`, or the state `line` answered with `answer`: the answer's whole
        line is made only to be traced)."""
        self.heard = time.time()
        if self.trace is not None:
            text = line if answer is None else f"{line}:{answer}"
            self.trace.write(f"FROM {self.number} at {_stamp(self.heard)} {text}\n")

    def _stray(self, line: str) -> None:
        self._heard(line)
        if line.startswith("MATCHSTATE:"):
            self.warn("ignoring un-requested response")
        elif line and line[0] not in "#;":
            self.warn("bad state format in response")

    def _action(self, answer: str, view: Owed) -> int:
        self._heard(self.last, answer)
        action = read_action(answer)
        if action is None:
            self.warn("bad action format in response, changed to call")
            return CALL
        if action not in view.legal_actions or (action == FOLD and view.to_call <= 0):
            self.warn("invalid action, changed to call")
            return CALL
        return action


def _stamp(t: float) -> str:
    """A wall-clock time as the reference writes it (seconds, '.', the microseconds in six digits)."""
    seconds, micro = divmod(int(t * 1e6), 1_000_000)
    return f"{seconds}.{micro:06d}"


class ReferenceTable(AcpcTable):
    """`AcpcTable` writing the reference's log and transcript, and sending no comment lines."""

    says_seats = False

    def __init__(self, players, config, labels, log, transcript, tolerate_faults) -> None:
        super().__init__(players, config, labels, None, tolerate_faults)
        self.reference_log = log
        self.transcript = transcript
        self.totals = [0.0] * len(players)

    def _send_lines(self) -> None:
        """Every seat's line of the state, the actor's first (so it thinks while the others' go out)."""
        lines = self.lines.lines(self.state)
        first = max(self.state.actor, 0)
        tell = self._tell
        for p in (first, *range(first), *range(first + 1, len(lines))):
            tell(self.seats[p], "tell", lines[p])

    def step(self) -> None:
        j = self.seats[self.state.actor]
        super().step()
        if self.transcript is not None:
            seat = self.players[j]
            letter = ACTION_LETTERS[self.state.actions[-1].action]
            sent, sent_us = divmod(int(seat.sent * 1e6), 1_000_000)  # `_stamp`'s, in one format
            heard, heard_us = divmod(int(seat.heard * 1e6), 1_000_000)
            times = f"{sent}.{sent_us:06d} {heard}.{heard_us:06d}"
            self.transcript.write(f"{letter} {self.hand_number} {times}\n")

    def finish_hand(self) -> HandState:
        state = super().finish_hand()
        values = reference_values(state)
        for p, j in enumerate(self.seats):
            self.totals[j] += values[p]
        if self.transcript is not None:
            self.transcript.hand_done()
        if self.reference_log is not None:
            names = [self.labels[j] for j in self.seats]
            self.reference_log.write(self.lines.state_line(list(map(chips, values)), names) + "\n")
            self.reference_log.hand_done()
        return state

    def score(self) -> str:
        """The SCORE line: each seat's total, seats in the order named."""
        return f"SCORE:{'|'.join(map(chips, self.totals))}:{'|'.join(self.labels)}"


def run_reference(
    command: ReferenceCommand,
    *,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    poll_for: float = DEALER_POLL,
    tolerate_faults: bool = False,
    on_ports: Callable[[list[int]], None] | None = None,
) -> str:
    """Play the match of `command` as the reference dealer does (the module doc); returns the SCORE line.

    ``on_ports`` is called with the ports once they listen (as they go to standard output); ``stdout`` and
    ``stderr`` default to the process's.
    """
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    gamedef = load_gamedef(command.game)
    config: GameConfig = gamedef.to_config()
    n = gamedef.players
    names = [protocol_name(name) for name in command.names]
    if command.append and command.transcript:
        raise ConfigError(
            "-a with -T would resume a match from its transcript, which this dealer does not do"
        )
    mode = "a" if command.append else "w"
    listeners = listen(command.ports or [0] * n)
    files = contextlib.ExitStack()  # the log and transcript, written whatever stops the match
    files.enter_context(stop_on_signals())  # entered first, left last: the files are written before
    log = transcript = None
    try:
        if command.log:
            log = files.enter_context(LogFile.open(f"{command.match}.log", mode))
        if command.transcript:
            transcript = files.enter_context(LogFile.open(f"{command.match}.tlog", mode))
    except BaseException:
        files.close()
        for s in listeners:
            s.close()
        raise

    def warn(text: str) -> None:
        stderr.write(f"WARNING: {text}\n")

    trace = None if command.quiet else stderr
    start = None if command.start_timeout < 0 else command.start_timeout / 1000
    players = [
        ReferenceSeat(
            s,
            names[j],
            command.t_response / 1000,
            command.t_hand / 1000,
            start,
            poll_for,
            number=j + 1,
            match_timeout=command.t_per_hand * command.hands / 1000,
            warn=warn,
            trace=trace,
        )
        for j, s in enumerate(listeners)
    ]
    table = ReferenceTable(players, config, names, log, transcript, tolerate_faults)
    try:
        ports = [s.getsockname()[1] for s in listeners]
        stdout.write(" ".join(map(str, ports)) + "\n")
        stdout.flush()
        if on_ports:
            on_ports(ports)
        stderr.write(command.header())
        if log:
            log.write(command.header())
        table.new_session([[command.seed, 1, 0, j] for j in range(n)])
        if trace:
            trace.write(f"STARTED at {_stamp(time.time())}\n")
        deals = ReferenceDeals(command.seed, n)
        stacks = (config.starting_stack(),) * n
        for hand in range(command.hands):
            cards = deals.next()
            seats = reference_seats(hand, n, command.fixed)
            try:
                table.play_hand(HandState(config, cards[: 2 * n], cards[2 * n :], stacks), seats)
            except BotFault as exc:
                played = f"{hand} hand{'' if hand == 1 else 's'}"
                raise BotFault(f"{exc}; the match stopped after {played}") from None
            if trace and hand % 100 == 0:  # as the reference reports each seat's time every 100 hands
                for j, player in enumerate(players):
                    seconds = int(player.match_used)
                    trace.write(f"Seconds cumulatively spent in match for seat {j}: {seconds}\n")
        if trace:
            trace.write(f"FINISHED at {_stamp(time.time())}\n")
        for j, player in enumerate(players):  # faults tolerated: how often, and why the seat left
            if table.faults[j]:
                count = f"{table.faults[j]} fault{'' if table.faults[j] == 1 else 's'}"
                stderr.write(f"{names[j]}: {count}{f'; left: {player.gone}' if player.gone else ''}\n")
        score = table.score()
        stdout.write(score + "\n")
        stdout.flush()
        stderr.write(score + "\n")
        if log:
            log.write(score + "\n")
        return score
    finally:
        try:
            table.close()
            for s in listeners:
                s.close()
        finally:
            files.close()
