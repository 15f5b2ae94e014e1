"""The ``pokerlab acpc`` commands: play (a client), dealer, and match (a dealer with its clients started).

Each command is one call of the package's API; errors are `PokerlabError`s, which the CLI prints as one
line (exit status 2; 1 for a match stopped by a player's fault, `BotFault`).
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from functools import partial

from pokerlab.arena.output import finite_json
from pokerlab.arena.sandbox import MODES
from pokerlab.arena.stats import results_table
from pokerlab.errors import ConfigError
from pokerlab.interfaces.acpc.dealer import DEALER_POLL

_PLAY_DOC = (
    """Play one of our agents at an ACPC dealer (protocol 2.0.0) at HOST PORT until the dealer closes."""
)
_DEALER_DOC = """Deal an ACPC match as the reference dealer (project_acpc_server's dealer) does, with its
command line: MATCH GAME HANDS SEED NAME... [-f] [-l|-L] [-p PORT,PORT...] [-q] [-t|-T] [-a]
[--t_response MS] [--t_hand MS] [--t_per_hand MS] [--start_timeout MS], and ours: [--poll-us US]
[--tolerate-faults]. -f fixes the seats, -l/-L turn MATCH.log off/on (on by default), -T writes the
transcript MATCH.tlog, -q prints only errors, warnings and the final values, -a appends to the files; the
times are milliseconds per answer, per seat and hand, and per hand on average over the match. The
ports (listening on 127.0.0.1 only) go to the first line of standard output, the SCORE line to the next.
The same seed deals the reference's cards to the reference's seats; a seat that runs out of time,
disconnects or never connects stops the match (one line, exit status 1, no SCORE line), unless
--tolerate-faults (--poll-us: the microseconds each read of an answer polls before it sleeps)."""
_MATCH_DOC = """Start a dealer and its clients (our agents by name, or cmd:"COMMAND" run with HOST PORT
appended, either perhaps labelled LABEL=AGENT, each in its own process group, killed at the end of each
session) and play a duplicate match over the protocol (the same seed, seats rotated), with CIs. A client's
fault stops the match (exit status 1) unless --tolerate-faults."""


def _config(args):
    from pokerlab.interfaces.acpc.gamedef import load_gamedef

    return load_gamedef(args.game).to_config()


def _players(args) -> int:
    from pokerlab.interfaces.acpc.gamedef import load_gamedef

    return load_gamedef(args.game).players


def cmd_play(args: argparse.Namespace) -> int:
    from pokerlab.agents import make_agent
    from pokerlab.interfaces.acpc.client import play

    config = _config(args)
    if args.timeout is not None and not args.timeout > 0:
        raise ConfigError(f"--timeout takes positive seconds, got {args.timeout:g}")
    report = play(
        make_agent(args.agent),
        config,
        args.host,
        args.port,
        args.seed,
        args.session,
        args.out,
        args.agent,
        args.poll_us / 1e6,
        _players(args),
        args.seating,
        args.timeout,
    )
    if args.log:
        with open(args.log, "w") as f:
            f.writelines(line + "\n" for line in report.finals)
    sb = report.net / config.small_bet / report.hands if report.hands else 0.0
    net = f"{report.net:+.0f}" if float(report.net).is_integer() else f"{report.net:+.2f}"
    print(f"{report.hands} hands, net {net} chips ({sb:+.3f} sb/hand), {report.warnings} warnings")
    if args.out:
        print(f"results in {args.out}")
    return 0


def _dealer(args, names, on_ports, duplicate, programs=None):
    from pokerlab.interfaces.acpc.dealer import run_dealer
    from pokerlab.interfaces.acpc.matchstate import protocol_name

    config = _config(args)
    names = [
        protocol_name(name) for name in names
    ]  # a cmd: agent's words: no ':', '|' or spaces in STATE lines
    if len(names) != _players(args):
        raise ConfigError(f"the game has {_players(args)} players, got {len(names)} names")
    return run_dealer(
        config,
        names,
        args.hands,
        args.seed,
        ports=args.ports,
        duplicate=duplicate,
        out=args.out,
        log_path=args.log,
        action_timeout=args.action_timeout,
        hand_timeout=args.hand_timeout,
        connect_timeout=args.connect_timeout,
        on_ports=on_ports,
        poll_for=args.poll_us / 1e6,
        tolerate_faults=args.tolerate_faults,
        programs=programs,
    )


def _print_ports(ports: list[int]) -> None:
    print(" ".join(str(p) for p in ports), flush=True)


def _report(result) -> None:
    """Each seat that faulted (faults tolerated): how often, and why it left where it did."""
    for name, count in zip(result.match.labels, result.match.faults, strict=True):
        if count:
            why = result.left.get(name)
            faults = f"{count} fault{'' if count == 1 else 's'}"
            print(f"{name}: {faults}{f'; left: {why}' if why else ''}", file=sys.stderr)


def cmd_dealer(args: argparse.Namespace) -> int:
    from pokerlab.interfaces.acpc.channel import check_poll
    from pokerlab.interfaces.acpc.refdealer import parse_reference_command, run_reference

    if "-h" in args.words or "--help" in args.words:
        print(args.dealer_help(), end="")
        return 0
    command, extras = parse_reference_command(args.words)
    try:
        poll_for = float(extras.get("poll-us", DEALER_POLL * 1e6)) / 1e6
    except ValueError:
        raise ConfigError(f"--poll-us takes microseconds, got {extras['poll-us']!r}") from None
    check_poll(poll_for)
    run_reference(command, poll_for=poll_for, tolerate_faults="tolerate-faults" in extras)
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    from pokerlab.agents.registry import split_label
    from pokerlab.interfaces.acpc.channel import check_poll

    check_poll(args.client_poll_us / 1e6)  # here, not only in the client processes
    seats = [split_label(agent) for agent in args.agents]  # a label names the seat: me=cmd:./bot
    agents = [agent for _, agent in seats]
    names = [label or agent for label, agent in seats]
    for agent in agents:  # before any client starts: a bad one stops the match with none left behind
        if agent.startswith("cmd:"):
            _command_of(agent)
    programs = [partial(_start_client, args, agent) for agent in agents]
    result = _dealer(args, names, None, duplicate=True, programs=programs)
    _report(result)
    match = result.match
    if args.json:
        print(json.dumps(finite_json(match.to_json()), allow_nan=False))
        return 0
    print(
        f"{match.hands} hands over the ACPC protocol: {args.hands} deals, each played {len(agents)} times, "
        f"seed {args.seed}"
    )
    print(results_table(match.results))
    print(result.score)
    return 0


def _command_of(agent: str) -> list[str]:
    """The words of a cmd: agent's program; `ConfigError` when it is empty or its quotes do not close."""
    try:
        words = shlex.split(agent[4:])
    except ValueError as exc:
        raise ConfigError(f"agent {agent!r}: cannot split its command ({str(exc).lower()})") from None
    if not words:
        raise ConfigError(f"agent {agent!r} names no program: cmd:PROGRAM [ARGUMENTS]")
    return words


def _start_client(args, agent: str, port: int, session: int) -> subprocess.Popen:
    """A seat's client for a session, in its own process group (the seat kills the group at its end); a
    cmd: bot in the sandbox, its one connection the dealer's (`pokerlab.arena.relay`), the results folder and
    the log (every hole card) hidden."""
    if agent.startswith("cmd:"):
        from pokerlab.arena.sandbox import SandboxPolicy
        from pokerlab.interfaces.acpc.sandboxed import start_sandboxed_client

        hidden = tuple(path for path in (args.out, args.log) if path)
        policy = SandboxPolicy(hidden=hidden, mode=args.sandbox)
        return start_sandboxed_client(_command_of(agent), port, policy)
    command = [sys.executable, "-m", "pokerlab.interfaces.cli", "acpc", "play", "--agent", agent]
    command += ["--game", args.game, "--seed", str(args.seed), "--session", str(session)]
    command += ["--poll-us", str(args.client_poll_us), "127.0.0.1", str(port)]
    try:
        return subprocess.Popen(command, stdout=subprocess.DEVNULL, start_new_session=True)
    except OSError as exc:
        raise ConfigError(f"cannot start {command[0]} ({exc.strerror or exc})") from None


_POLL_HELP = (
    "microseconds each read polls the socket before it sleeps, yielding the processor between asks: "
    "spares the wake-up of a reply that comes within it, at the CPU it polls for (benchmarks/acpc.py)"
)


def _dealer_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", required=True, help="an ACPC game file, or a standard game (holdem.limit.3p)")
    p.add_argument("--hands", type=int, default=1000, help="hands to deal (deals in a match)")
    p.add_argument("--seed", type=int, default=0, help="the seed of the deals")
    p.add_argument("--out", help="our results folder")
    p.add_argument("--log", help="the ACPC log file (STATE and SCORE lines)")
    p.add_argument("--action-timeout", type=float, default=10.0, help="seconds per action (default 10)")
    p.add_argument("--hand-timeout", type=float, default=60.0, help="seconds per hand and seat (default 60)")
    p.add_argument("--connect-timeout", type=float, default=60.0, help="seconds to wait for each client")
    p.add_argument("--ports", type=lambda s: [int(x) for x in s.split(",")], help="ports, comma-separated")
    p.add_argument(
        "--tolerate-faults",
        action="store_true",
        help="check or fold for a player that fails (never connects, leaves, answers late or with anything "
        "but a legal action) and play on, counting its faults; by default its first fault stops the match "
        "(exit status 1, no SCORE line)",
    )
    p.add_argument(
        "--poll-us",
        type=float,
        default=DEALER_POLL * 1e6,
        help=f"the dealer's reads of answers: {_POLL_HELP} (default {DEALER_POLL * 1e6:.0f})",
    )


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """The ``acpc`` command and its subcommands, on the CLI's subparsers."""
    p = subparsers.add_parser("acpc", help="the ACPC protocol: client, dealer, match", description=__doc__)
    acpc = p.add_subparsers(dest="acpc_command", required=True, parser_class=type(p))
    p = acpc.add_parser("play", help="play an agent at an ACPC dealer", description=_PLAY_DOC)
    p.add_argument("--agent", required=True, help="a registered agent")
    p.add_argument("--game", required=True, help="an ACPC game file, or a standard game (holdem.limit.3p)")
    p.add_argument("--seed", type=int, default=0, help="seeds the agent (as our sessions do)")
    p.add_argument("--session", type=int, default=0, help="seeds the agent (as our sessions do)")
    p.add_argument("--log", help="write the final state line of every hand here")
    p.add_argument("--out", help="our results folder: every hand this client finished")
    p.add_argument("--poll-us", type=float, default=0.0, help=_POLL_HELP + " (default 0)")
    p.add_argument(
        "--seating",
        choices=("auto", "rotate", "fixed"),
        default="auto",
        help="how a dealer that names no seats seats the players: the reference dealer's rotation, its -f "
        "(fixed seats), or auto: told apart by this client's position in the second hand (default auto)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=600.0,
        help="seconds to wait for the dealer's next line before the client stops (default 600)",
    )
    p.add_argument("host")
    p.add_argument("port", type=int)
    p.set_defaults(func=cmd_play)
    p = acpc.add_parser(  # its options are the reference's, read as its getopt reads them: in cmd_dealer
        "dealer",
        help="deal to ACPC clients (the reference dealer's command line)",
        description=_DEALER_DOC,
        prefix_chars="+",
        add_help=False,
        usage="pokerlab acpc dealer [-h] MATCH GAME HANDS SEED NAME... [options]",
    )
    p.add_argument("words", nargs="*", metavar="MATCH GAME HANDS SEED NAME... [options]")
    p.set_defaults(func=cmd_dealer, dealer_help=p.format_help)
    p = acpc.add_parser("match", help="a duplicate match over the protocol", description=_MATCH_DOC)
    _dealer_options(p)
    p.add_argument("--json", action="store_true", help="print the results as one JSON object")
    p.add_argument(
        "--client-poll-us", type=float, default=0.0, help=f"our clients' reads: {_POLL_HELP} (default 0)"
    )
    p.add_argument(
        "--sandbox",
        choices=MODES,
        default="required",
        help="cmd: bots run sandboxed (own mount view, PID and network namespaces, their one connection to "
        "the dealer, limits): required refuses where a layer is missing, best-effort says so and goes on "
        "(default required)",
    )
    p.add_argument(
        "agents",
        nargs="+",
        help='agent names, or cmd:"COMMAND" (run with HOST PORT appended); LABEL=AGENT names the seat',
    )
    p.set_defaults(func=cmd_match)
