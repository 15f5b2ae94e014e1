"""The commands that play matches: ``pokerlab match``, ``summarize``, ``agents`` and ``play`` (a person at
the terminal)."""

from __future__ import annotations

import argparse
import json

from pokerlab.agents.human import PlayerLeft
from pokerlab.arena.backend import add_backend_options, backend_of
from pokerlab.arena.output import finite_json
from pokerlab.arena.sandbox import MODES as SANDBOX_MODES
from pokerlab.arena.stats import results_table
from pokerlab.commandline import (
    add_game_options,
    add_progress_option,
    show_progress,
)
from pokerlab.errors import ConfigError


def _game(args: argparse.Namespace):
    from pokerlab.engine import GameConfig

    return GameConfig(small_bet=args.small_bet, stack=args.stack, no_cap_heads_up=args.no_cap_heads_up)


def cmd_match(args: argparse.Namespace) -> int:
    """Play a match between agents (one per seat, in seat order) and report each agent's results."""
    from pokerlab.agents import parse_lineup
    from pokerlab.arena import play_match

    if args.duplicate and args.hands is not None:
        raise ConfigError(
            "a duplicate match counts deals: give --deals N (each deal is played once per agent, "
            "so N x agents hands), not --hands"
        )
    if not args.duplicate and args.deals is not None:
        raise ConfigError("--deals counts the deals of a --duplicate match; an ordinary match plays --hands")
    count = args.deals if args.duplicate else args.hands
    count = 1000 if count is None else count
    result = play_match(
        parse_lineup(args.agents),
        count,
        _game(args),
        args.seed,
        duplicate=args.duplicate,
        sessions=args.sessions,
        workers=backend_of(args),
        out=args.out,
        block=args.block,
        progress=show_progress(args),
        isolate=args.isolate,
        action_timeout=args.action_timeout,
        rebuy=args.rebuy,
        log_decisions=args.log_decisions,
        log_policies=args.log_policies,
        resume=args.resume,
        max_faults=args.max_faults,
        tolerate_faults=args.tolerate_faults,
        sandbox=args.sandbox,
        pin=args.pin,
    )
    if args.json:
        print(json.dumps(finite_json(result.to_json()), allow_nan=False))
        return 0
    if args.duplicate:
        n = len(result.labels)
        print(
            f"{result.hands} hands: {count} deals, each played {n} times (once per seat rotation), "
            f"seed {args.seed}"
        )
    else:
        print(f"{result.hands} hands, seed {args.seed}")
    for report in result.sessions:
        if report.ended != "completed":
            print(
                f"session {report.session}: {report.hands_played} of {report.hands_asked} hands: "
                f"{report.ended}"
            )
    print(results_table(result.results))
    if result.out:
        print(f"results in {result.out}")
    return 0


def cmd_summarize(args: argparse.Namespace) -> int:
    """Rebuild a results folder's summary.json and bankroll.png from its hands.csv and config.json (after a
    killed run, or to re-make the plot)."""
    from pokerlab.arena.output import summarize_folder

    result = summarize_folder(args.results)
    about_path = result.out / "experiment.json"
    if about_path.exists():  # an experiment's folder: its pooled files too
        from pokerlab.arena.evidence import pool_match

        try:
            about = json.loads(about_path.read_text())
            pool_match(result, about["lineup"], about["deals"], about["experiment"])
        except (ValueError, KeyError, TypeError) as exc:
            raise ConfigError(f"{about_path} is unreadable ({exc!r})") from None
    if args.json:
        print(json.dumps(finite_json(result.to_json()), allow_nan=False))
        return 0
    print(
        f"{result.hands} of {result.hands_asked} hands, {len(result.sessions)} session(s) complete; "
        f"wrote {result.out / 'summary.json'} and {result.out / 'bankroll.png'}"
    )
    for r in result.results:
        print(
            f"{r.seat:>4}  {r.agent:<16}{r.total:>10}{r.sb_per_hand:>10.3f}"
            f"  [{r.ci95[0]:.3f}, {r.ci95[1]:.3f}]"
        )
    return 0


def cmd_agents(args: argparse.Namespace) -> int:
    """List every registered agent with a one-line description."""
    from pokerlab.agents import agent_descriptions

    descriptions = agent_descriptions()
    if args.json:
        print(json.dumps(descriptions))
        return 0
    width = max(map(len, descriptions))
    for name, text in descriptions.items():
        print(f"{name:<{width}}  {text}")
    print("your own: module.path:Class or path/to/file.py:Class (sandboxed in its own process by default)")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Play at the terminal against agents (you sit in seat 0); end of input ends the game cleanly."""
    from pokerlab.agents import HumanAgent, parse_lineup
    from pokerlab.arena import play_match
    from pokerlab.arena.match import seat_names, unique_labels

    opponents = parse_lineup(args.opponents)
    names, agents = seat_names(opponents)
    if "human" in agents:
        raise ConfigError(
            "--opponents human: play seats one person at this terminal (you); a second would see your "
            "hole cards. Play people through the web table (pokerlab serve)"
        )
    # every setting checked before the greeting: an error is the only line a bad command prints
    game = _game(args)
    if not isinstance(args.hands, int) or args.hands < 1:
        raise ConfigError(f"--hands must be a positive integer, got {args.hands!r}")
    if not 1 <= len(opponents) <= 9:
        raise ConfigError(f"--opponents: a table seats you and 1 to 9 opponents, got {len(opponents)}")
    if "you" in names:
        raise ConfigError("--opponents: 'you' is your seat's name; label the agent otherwise")
    names = ["you", *unique_labels(names)]
    human = HumanAgent(names=names)
    print(
        "you sit in seat 0 against "
        + ", ".join(f"{name} (seat {j})" for j, name in enumerate(names) if j)
        + f"; {args.hands} hands, seed {args.seed}"
    )
    try:
        play_match([human, *opponents], args.hands, game, args.seed, out=args.out, block=1)
    except PlayerLeft:
        print("end of input: you left the table")
        if args.out:
            from pokerlab.arena.output import summarize_folder

            summarize_folder(args.out)  # the hands played so far: summary.json and bankroll.png
    sb = human.total / _game(args).small_bet / human.hands if human.hands else 0.0
    print(f"after {human.hands} hands you are {human.total:+d} chips ({sb:+.2f} small bets per hand)")
    if args.out:
        print(f"hands kept in {args.out}")
    return 0


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """match, summarize, agents and play."""
    p = subparsers.add_parser("match", help="play a match between agents", description=cmd_match.__doc__)
    p.add_argument(
        "--agents",
        required=True,
        help="one agent per seat, e.g. call,raise or random:8,call; yours: mypkg.mod:MyBot or bots.py:MyBot; "
        "a label before '=' names a seat in the results: me=bots.py:MyBot,loki1",
    )
    p.add_argument("--hands", type=int, default=None, help="hands to play (default 1000)")
    p.add_argument(
        "--deals",
        type=int,
        default=None,
        help="with --duplicate: deals to play (default 1000), each once per agent (deals x agents hands)",
    )
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="replay each deal once per agent, seats permuted (one session per seat rotation)",
    )
    p.add_argument("--json", action="store_true", help="print the results as one JSON object")
    p.add_argument("--out", default=None, help="results folder (config, hands, histories, summary, plot)")
    p.add_argument(
        "--sessions", type=int, default=1, help="independent sessions with fresh agents (default 1)"
    )
    p.add_argument(
        "--workers", type=int, default=1, help="processes playing sessions (results do not depend on it)"
    )
    add_backend_options(p)
    p.add_argument("--block", type=int, default=1000, help="hands per block written to the results folder")
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue a killed run in --out (same command): complete sessions are kept, the others replayed",
    )
    p.add_argument(
        "--isolate",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="run agents in their own sandboxed processes, a fresh one per session (default: only outside "
        "bots, module:Class and file.py:Class; --no-isolate plays them in this process, as trusted code)",
    )
    p.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="keep each table and its isolated bots on one CPU, where a round trip is several times "
        "cheaper (default: on where a seat is isolated; --no-pin where that CPU is busy with other work)",
    )
    p.add_argument(
        "--sandbox",
        choices=SANDBOX_MODES,
        default="required",
        help="where a layer of the isolated bots' sandbox is missing: refuse (default) or go on, saying so",
    )
    p.add_argument(
        "--action-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="a player who answers later is checked or folded for (default: none in this process, 10 s for "
        "an isolated bot)",
    )
    p.add_argument(
        "--max-faults",
        type=int,
        default=3,
        metavar="N",
        help="stop the match when a bot faults more than N times in a session, or at all in its first hand "
        "(default 3)",
    )
    p.add_argument(
        "--tolerate-faults",
        action="store_true",
        help="never stop for faults: check or fold for a faulty bot and go on (competitions)",
    )
    p.add_argument(
        "--rebuy", type=int, default=None, metavar="HANDS", help="restore the stacks every HANDS hands"
    )
    p.add_argument(
        "--log-decisions",
        action="store_true",
        help="store every decision (with the agent's probabilities and info) in hands.sqlite",
    )
    p.add_argument(
        "--log-policies",
        action="store_true",
        help="ask every in-process agent that answers the all-holdings policy query for its answer at "
        "each of its decisions, kept in policies.bin (for AIVAT; sandboxed bots are not asked)",
    )
    add_game_options(p)
    add_progress_option(p)
    p.set_defaults(func=cmd_match)
    p = subparsers.add_parser(
        "summarize", help="rebuild a results folder's summary and plot", description=cmd_summarize.__doc__
    )
    p.add_argument("results", help="a results folder (written by match --out)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.set_defaults(func=cmd_summarize)
    p = subparsers.add_parser("agents", help="list the agents by name", description=cmd_agents.__doc__)
    p.add_argument("--json", action="store_true", help="one JSON object: name -> description")
    p.set_defaults(func=cmd_agents)
    p = subparsers.add_parser(
        "play", help="play against agents at the terminal", description=cmd_play.__doc__
    )
    p.add_argument(
        "--opponents",
        default="call",
        help="agents in seats 1.., perhaps labelled (LABEL=AGENT; default: call)",
    )
    p.add_argument("--hands", type=int, default=10, help="hands to play (default 10)")
    p.add_argument("--out", default=None, help="results folder: keeps every hand played (hands.sqlite, csv)")
    add_game_options(p)
    p.set_defaults(func=cmd_play)
