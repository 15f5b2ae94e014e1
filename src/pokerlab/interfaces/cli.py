"""The `pokerlab` command line. Each subcommand mirrors an API call; `--json` prints numbers for programs.

Errors print one line (``pokerlab: error: ...``) and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numba

from pokerlab.agents.human import PlayerLeft
from pokerlab.analysis.assessment import assess
from pokerlab.analysis.income_rate import DEFAULT_SEED, shipped_table, simulate_table, write_table
from pokerlab.arena.output import finite_json
from pokerlab.arena.sandbox import MODES as SANDBOX_MODES
from pokerlab.cards import format_cards, parse_cards
from pokerlab.errors import BotFault, ConfigError, PokerlabError
from pokerlab.evaluator import best_five, describe, evaluate
from pokerlab.handclass import NUM_CLASSES
from pokerlab.holdings import load_weights
from pokerlab.interfaces.report import results_table
from pokerlab.programs.barone_while.experiments import BW_EXPERIMENTS, BWResult
from pokerlab.programs.loki1 import FIG1_READINGS
from pokerlab.programs.loki1.experiments import EXPERIMENTS as LOKI1_EXPERIMENTS
from pokerlab.programs.loki2.experiments import loki2_experiment

#: The experiments that take a --reading of the Fig 1 field.
READABLE = ("loki-ablation", "loki-components")

#: Every experiment the CLI offers, by name.
EXPERIMENTS = {**LOKI1_EXPERIMENTS, "loki2": loki2_experiment, **BW_EXPERIMENTS}


class _UsageError(Exception):
    pass


#: Seeds are integers 0 .. 2**63 - 1 (numpy's seed sequences take any integer >= 0; the income-rate
#: simulation mixes the seed into 64-bit streams).
MAX_SEED = 2**63 - 1


def _int_in(low: int, high: int, what: str, high_text: str | None = None) -> Callable[[str], int]:
    """An argparse type: an integer low..high, or one clear line naming the allowed range."""
    allowed = f"{what} are integers {low} to {high_text or high}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{allowed}; got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{allowed}; got {value}")
        return value

    parse.__name__ = what  # argparse names the type in some messages
    return parse


_seed = _int_in(0, MAX_SEED, "seeds", "2**63 - 1")


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing a usage block, so every error is one line."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(f"{message} (see: {self.prog} --help)")


def _rank_report(text: str) -> dict:
    codes = parse_cards(text)
    rank = evaluate(codes)
    info = describe(rank)
    return {
        "cards": format_cards(codes),
        "rank": rank,
        "category": info.category.label,
        "description": info.description,
        "best_five": format_cards(best_five(codes)),
    }


def cmd_rank(args: argparse.Namespace) -> int:
    """Rank each hand given; print its description (or one JSON object per hand)."""
    reports = [_rank_report(text) for text in args.hands]
    for r in reports:
        if args.json:
            print(json.dumps(r))
        else:
            print(f"{r['cards']}: {r['description']} [{r['best_five']}] (rank {r['rank']} of {NUM_CLASSES})")
    if len(reports) > 1 and not args.json:
        best = max(r["rank"] for r in reports)
        winners = [r["cards"] for r in reports if r["rank"] == best]
        print(("wins: " if len(winners) == 1 else "split: ") + " | ".join(winners))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """A short demonstration: rank seeded random hands and famous ones, then assess the example of Billings
    et al. 1998."""
    import numpy as np

    from pokerlab.cards import Deck

    rng = np.random.default_rng(args.seed)
    print(f"Seven-card hands dealt with seed {args.seed}:")
    for _ in range(args.hands):
        deck = Deck(rng)
        r = _rank_report(format_cards(deck.deal(7)))
        print(f"  {r['cards']:<22} {r['description']:<40} rank {r['rank']}")
    print("Some named hands:")
    named = ("As Ks Qs Js Ts 2c 3d", "5d 4d 3d 2d Ad Kc Kh", "Kh Kd Ks 5c 5h 2d 3c", "Ah 2s 3c 4d 5h 9c Jd")
    for text in named:
        r = _rank_report(text)
        print(f"  {r['cards']:<22} {r['description']:<40} rank {r['rank']}")
    report = assess("Ad Qc", "3h 4c Jh").to_dict()
    print("Billings et al. (1998), Table 2: Ad Qc on 3h 4c Jh against one opponent:")
    print(
        f"  ahead {report['ahead']:g}, tied {report['tied']:g}, behind {report['behind']:g}: "
        f"HS {report['hand_strength']:.3f}; Ppot {report['ppot2']:.3f}, Npot {report['npot2']:.3f}; "
        f"EHS' {report['ehs_optimistic']:.3f}"
    )
    return 0


def cmd_analyze(args: argparse.Namespace) -> int:
    """Hand strength, HS_n, potential (3x3 tables, Ppot, Npot) and EHS of hole cards on a board."""
    weights = load_weights(args.weights) if args.weights else None
    report = assess(args.hole, args.board, weights, args.opponents).to_dict()
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"{format_cards(parse_cards(args.hole))} on {format_cards(parse_cards(args.board))}, "
        f"{args.opponents} opponent(s){', weighted' if weights is not None else ''}"
    )
    print(
        f"  ahead {report['ahead']:g}, tied {report['tied']:g}, behind {report['behind']:g}: "
        f"HS {report['hand_strength']:.3f}, HS_n {report['hs_n']:.3f}"
    )
    for cards in ("2", "1"):
        if report["potential" + cards] is not None:
            ppot, npot = report["ppot" + cards], report["npot" + cards]
            print(f"  {cards} card(s) to come: Ppot {ppot:.3f}, Npot {npot:.3f}")
            for name, row in zip(("ahead", "tied", "behind"), report["potential" + cards], strict=True):
                print(f"    now {name:<6} -> " + "  ".join(f"{x:>10g}" for x in row))
    print(f"  EHS {report['ehs']:.3f}, EHS' {report['ehs_optimistic']:.3f}")
    return 0


def cmd_preflop_table(args: argparse.Namespace) -> int:
    """Pre-flop income rates x 1000 of the 169 starting-hand types: the shipped table, or (with --games) a new
    simulation on every core."""
    if args.games is None:
        if args.write:
            raise ConfigError("--write needs --games: it writes a newly simulated table")
        table = shipped_table(args.players)
    else:
        if args.write and not args.force:
            _check_replaces_shipped(args.players, args.games)
        if args.workers is not None:
            if not 1 <= args.workers <= numba.config.NUMBA_NUM_THREADS:
                raise ConfigError(f"--workers is 1 to {numba.config.NUMBA_NUM_THREADS}; got {args.workers}")
            numba.set_num_threads(args.workers)
        table = simulate_table(args.players, args.games, args.seed, progress=True)
        if args.write:
            print(f"wrote {write_table(table)}", file=sys.stderr)
    if args.json:
        print(json.dumps(table.to_dict()))
        return 0
    ranks = "23456789TJQKA"
    print(
        f"Income rates x 1000, {table.players} players, {table.games:,} games per type "
        "(row > column: suited, row < column: offsuit)"
    )
    print("   " + "".join(f"{r:>6}" for r in ranks))
    for rank, row in zip(ranks, table.grid(), strict=True):
        print(f"{rank:>3}" + "".join(f"{x:>6}" for x in row))
    return 0


def _check_replaces_shipped(players: int, games: int) -> None:
    """Refuse to replace a shipped table by one simulated with fewer games (unless --force)."""
    try:
        shipped = shipped_table(players)
    except PokerlabError:
        return  # a missing or unreadable table may always be made again
    if games < shipped.games:
        raise ConfigError(
            f"--games {games:,} is fewer than the {shipped.games:,} games per type of the shipped "
            f"{players}-player table; --write replaces it only with at least as many (or add --force)"
        )


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
        workers=args.workers,
        out=args.out,
        block=args.block,
        progress=_progress(args),
        isolate=args.isolate,
        action_timeout=args.action_timeout,
        rebuy=args.rebuy,
        log_decisions=args.log_decisions,
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
        from pokerlab.programs.loki1.experiments import pool_match

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
    from pokerlab.arena.match import unique_labels

    opponents = parse_lineup(args.opponents)
    if "human" in opponents:
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
    names = ["you", *unique_labels(opponents)]
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


def cmd_history_replay(args: argparse.Namespace) -> int:
    """Replay hand histories and print each hand's nets: a PHH file (.phh, .phhs), a folder of them, or a
    hand store (hands.sqlite, or a results folder holding one).

    A file that cannot be read, or a hand the rules reject, is reported and the others go on. Exit status:
    0 when every hand replayed, 1 when some file or hand was bad, 2 when nothing could be read."""
    from pokerlab.interfaces.phh import ReplayedHand, read_phh, read_store

    path = Path(args.path)
    if path.suffix == ".sqlite" or (path.is_dir() and (path / "hands.sqlite").is_file()):
        hands = [ReplayedHand(f"{path.name}#{k}", record, None) for k, record in read_store(path)]
    else:
        hands = read_phh(path)
    for hand in hands:
        report = hand.to_json()
        if args.json:
            print(json.dumps(report))
        elif hand.unreadable:
            print(f"{hand.name}: unreadable: {hand.error}")
        elif hand.error:
            print(f"{hand.name}: rejected: {hand.error}")
        else:
            print(f"{hand.name}: nets {' '.join(f'{v:+d}' for v in report['nets'])}")
    bad_files = sum(1 for h in hands if h.unreadable)
    rejected = sum(1 for h in hands if h.error and not h.unreadable)
    replayed = len(hands) - bad_files - rejected
    if not args.json:
        print(
            f"{replayed + rejected} hands, {rejected} rejected"
            + (f"; {bad_files} file(s) could not be read" if bad_files else ""),
        )
    if not hands or (bad_files and not replayed + rejected):
        print("pokerlab: error: no hand could be read", file=sys.stderr)
        return 2
    return 1 if bad_files or rejected else 0


def cmd_history_export(args: argparse.Namespace) -> int:
    """Write the hands of a hand store (a results folder or its hands.sqlite) as one PHH file (.phhs)."""
    from pokerlab.interfaces.phh import read_store, to_phhs

    out = Path(args.out)
    if out.suffix != ".phhs":
        raise ConfigError(f"--out {out}: a file of several PHH hands ends in .phhs")
    if out.exists() and not args.force:
        raise ConfigError(f"--out {out} exists; add --force to replace it")
    hands = read_store(args.source)
    text = to_phhs([r for _, r in hands], [k for k, _ in hands])
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write --out {out}: {exc.strerror or exc}") from None
    print(f"wrote {len(hands)} hands to {out}", file=sys.stderr)
    return 0


def cmd_history_show(args: argparse.Namespace) -> int:
    """Print the hands of a PHH file (or folder, or hand store) as a person reads them: seats, actions, the
    board by round, the showdown and who won what."""
    from pokerlab.interfaces.phh import read_phh, read_store
    from pokerlab.interfaces.show import describe_hand

    path = Path(args.path)
    if path.suffix == ".sqlite" or (path.is_dir() and (path / "hands.sqlite").is_file()):
        hands = [(f"{path.name}#{k}", record, None) for k, record in read_store(path)]
    else:
        hands = [(h.name, h.record, h.error) for h in read_phh(path)]
    bad = 0
    for i, (name, record, error) in enumerate(hands):
        if i:
            print()
        if record is None:
            bad += 1
            print(f"{name}: cannot be shown: {error}")
        else:
            print(f"Hand {name}")
            print(describe_hand(record))
    if hands and bad == len(hands):
        print("pokerlab: error: no hand could be read", file=sys.stderr)
        return 2
    return 1 if bad else 0


def cmd_experiment(args: argparse.Namespace) -> int:
    """Run one of the papers' experiments and report it: Loki's (duplicate, pooled per player kind; loki2:
    Peña's design) or Barone & While's (epochs of an evolving player: bw-1, bw-2, bw-3)."""
    from pokerlab.programs.barone_while.config import parse_settings

    evolving = args.name in BW_EXPERIMENTS
    given = {
        "--deals": args.deals,
        "--epochs": args.epochs,
        "--runs": args.runs,
        "--player": args.player,
        "--set": args.set,
    }
    wrong = [k for k, v in given.items() if v is not None and (k == "--deals") == evolving]
    if args.player and args.name != "bw-3":
        wrong.append("--player")
    if wrong or (evolving and args.resume):
        bad = wrong[0] if wrong else "--resume"
        raise _UsageError(f"{bad} does not apply to experiment {args.name}")
    for name in ("deals", "epochs", "runs"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise _UsageError(f"--{name} must be a positive integer, got {value}")
    if evolving:
        kwargs = {
            k: v for k, v in (("epochs", args.epochs), ("runs", args.runs), ("players", args.player)) if v
        }
        options = {"config": parse_settings(args.set or "")}
    else:
        kwargs = {"deals": args.deals} if args.deals is not None else {}
        options = {"resume": args.resume}
    if args.reading is not None:
        if args.name not in READABLE:
            raise ConfigError(f"--reading applies to {' and '.join(READABLE)}, not {args.name}")
        kwargs["reading"] = args.reading
    if args.only is not None:
        if args.name != "loki2":
            raise ConfigError(f"--only chooses loki2 match-ups; experiment {args.name!r} has none")
        kwargs["only"] = args.only
    result = EXPERIMENTS[args.name](
        seed=args.seed, workers=args.workers, out=args.out, progress=_progress(args), **options, **kwargs
    )
    if args.json:
        print(json.dumps(finite_json(result.to_json()), allow_nan=False))
        return 0
    if isinstance(result, BWResult):
        print("\n".join(result.lines))
        if result.out:
            print(f"results in {result.out} (summary.json, epochs.json, PNG plots, evolved players .npz)")
        return 0
    print(f"{args.name}: {result.deals} deals, {result.hands} hands, seed {args.seed}")
    width = max(22, 2 + max(len(r.agent) for r in result.results))
    print(f"{'agent':<{width}}{'hands':>9}{'sb/hand':>10}  95% CI (sb/hand)")
    for r in sorted(result.results, key=lambda r: -r.sb_per_hand):
        print(f"{r.agent:<{width}}{r.hands:>9}{r.sb_per_hand:>+10.3f}  [{r.ci95[0]:+.3f}, {r.ci95[1]:+.3f}]")
    if result.out:
        files = (
            "loki2.png, loki2_summary.json"
            if args.name == "loki2"
            else "pooled_bankroll.png, pooled_summary.json"
        )
        print(f"results in {result.out} ({files})")
    return 0


def cmd_show_player(args: argparse.Namespace) -> int:
    """Plot what an evolved Barone & While player does where: for each opponent segment, the average
    candidate of each population (rows: position, columns: bets to call) as P(fold), P(call), P(raise)
    against x, the probability of winning."""
    from pokerlab.programs.barone_while import EvolvingAgent
    from pokerlab.programs.barone_while.plots import plot_controller
    from pokerlab.programs.barone_while.situation import STAGES

    player = EvolvingAgent.from_file(args.file)
    cube = player.cube
    segments = [args.segment] if args.segment else list(cube.segments)
    for segment in segments:
        if segment not in cube.segments:
            raise _UsageError(f"no segment {segment!r} in {args.file}; it has {', '.join(cube.segments)}")
    stage = STAGES.index(args.stage)
    out = Path(args.out) if args.out else Path(args.file).with_suffix("")
    written = []
    for segment in segments:
        path = out.parent / f"{out.name}-{args.stage}-{segment.replace(' ', '-')}.png"
        plot_controller(cube, segment, path, f"{Path(args.file).name}", stage)
        written.append(str(path))
    s = [cube.segments.index(g) for g in segments]
    about = {
        "file": str(args.file),
        "agent": player.name,
        "segments": list(cube.segments),
        "population_size": int(cube.genes.shape[1]),
        "generations": {
            g: int(cube.generation.reshape(len(cube.segments), -1)[i].max())
            for g, i in zip(segments, s, strict=True)
        },
        "plots": written,
    }
    if args.json:
        print(json.dumps(about))
        return 0
    print(
        f"{args.file}: {player.name}, segments {', '.join(cube.segments)}, "
        f"populations of {about['population_size']}"
    )
    for g in segments:
        print(f"  {g}: up to {about['generations'][g]} generations")
    print("plots: " + ", ".join(written))
    return 0


def cmd_train_td(args: argparse.Namespace) -> int:
    """Train a TD-Hold'em player (LEARNING-SPEC Part A) into --out: progress with a running win rate,
    checkpoints every so many hands (--resume continues one to the same result), learning curves as PNG;
    the player is then "td:OUT/checkpoint" in any match."""
    from pokerlab.programs.td.training import run_config, train

    if args.preset and args.config:
        raise _UsageError("give --preset or --config, not both")
    config, schedule = run_config(args.preset, args.config)
    changes = {
        k: getattr(args, k) for k in ("eval_every", "eval_deals", "checkpoint_every") if getattr(args, k)
    }
    if changes:
        schedule = type(schedule)(**{**schedule.to_json(), **changes})
    trainer = train(
        config,
        schedule,
        args.hands,
        args.seed,
        args.out,
        resume=args.resume,
        progress=_progress_lines(args),
    )
    final = json.loads((Path(args.out) / "final.json").read_text())
    if args.json:
        print(json.dumps(finite_json(final), allow_nan=False))
        return 0
    print(f"trained {trainer.done} hands, seed {args.seed}; the player: td:{args.out}/checkpoint")
    for r in final["results"]:
        low, high = r["ci95_low"], r["ci95_high"]
        print(f"  vs {r['opponent']:<18}{r['sb_per_hand']:>+8.3f} sb/hand  [{low:+.3f}, {high:+.3f}]")
    print(f"curves: {args.out}/curves.png, {args.out}/curve.csv")
    return 0


def cmd_train_summary(args: argparse.Namespace) -> int:
    """Put finished `pokerlab train td` runs side by side: their small files, summary.csv (each run's
    evaluation before training and at its end), seeds.csv (median and range over the runs at each shared
    evaluation point) and curves.png, in --out."""
    from pokerlab.programs.td.studies.runs import summarize_runs

    rows = summarize_runs(args.runs, args.out, args.title)
    for r in rows:
        print(f"{r[0]:<24} vs {r[3]:<10} before {r[4]:+.3f}  after {r[7]:+.3f} [{r[8]:+.3f}, {r[9]:+.3f}]")
    print(f"summary in {args.out}/summary.csv, {args.out}/seeds.csv, {args.out}/curves.png")
    return 0


def cmd_train_curve(args: argparse.Namespace) -> int:
    """Learning curves evaluated after training (LEARNING-SPEC §A.9 item 2): every player a `pokerlab train
    td` run kept (its schedule's save_at hands, and the final one) against each opponent on the same
    --deals duplicate deals of --seed, in --workers processes; writes curve.csv (kept as it goes: a second
    call with the same deals and seed plays only what is missing), reference.csv (--reference against each
    opponent on the same deals, a dotted line on the plot), seeds.csv (median and range over the runs) and
    curves.png into --out."""
    from pokerlab.agents import parse_lineup
    from pokerlab.programs.td.studies.curve import curves

    opponents = list(dict.fromkeys(parse_lineup(args.opponents)))
    progress = _progress_lines(args)
    rows = curves(
        args.runs, opponents, args.deals, args.seed, args.out, args.workers, progress, args.reference
    )
    for name, _, hands, opponent, value, low, high in rows:
        print(f"{name:<16}{hands:>10} vs {opponent:<18}{value:+.3f} [{low:+.3f}, {high:+.3f}]")
    print(f"curves in {args.out}/curve.csv, {args.out}/seeds.csv, {args.out}/curves.png")
    return 0


def cmd_train_deltas(args: argparse.Namespace) -> int:
    """Each repair alone against the base configuration (LEARNING-SPEC §A.9 item 7, T4): finished `pokerlab
    train td` runs named by their folders (ROOT/sS/NAME), each configuration's final result against
    --opponent less the --base run's of the same seed, per seed and over the seeds; writes results.csv,
    deltas.csv and curves.png in --out."""
    from pokerlab.programs.td.studies.repairs import repair_deltas

    _, deltas = repair_deltas(args.runs, args.out, args.base, args.opponent)
    for name, seed, delta, low, high, p, _ in deltas:
        test = f"  p(better) {p:.3f}" if seed == "mean" else ""
        print(f"{name:<16} seed {seed!s:<5} {delta:+.3f} [{low:+.3f}, {high:+.3f}]{test}")
    print(
        f"deltas against {args.base} in {args.out}/deltas.csv, {args.out}/results.csv, {args.out}/curves.png"
    )
    return 0


def cmd_train_table(args: argparse.Namespace) -> int:
    """The final table of a `pokerlab train td` run (LEARNING-SPEC §A.9 item 4): its player against each
    opponent in duplicate (sb/hand, 95 % CI) with its VPIP, PFR and aggression factor; writes
    RUN/final-table.csv."""
    from pokerlab.agents import parse_lineup
    from pokerlab.programs.td.studies.runs import final_table, table_name

    opponents = list(dict.fromkeys(parse_lineup(args.opponents)))
    rows = final_table(
        args.run,
        opponents,
        args.deals,
        args.seed,
        args.style_hands,
        progress=_progress_lines(args),
        player=args.player,
    )
    print(f"{'opponent':<18}{'sb/hand':>8}  {'95% CI':<18}{'VPIP':>6}{'PFR':>6}{'AF':>6}")
    for name, value, low, high, vpip, pfr, af in rows:
        ci = f"[{low:+.3f}, {high:+.3f}]"
        print(f"{name:<18}{value:>+8.3f}  {ci:<18}{vpip:>6.0%}{pfr:>6.0%}{af:>6.2f}")
    print(f"table in {args.run}/{table_name(args.player)}")
    return 0


def cmd_train_select(args: argparse.Namespace) -> int:
    """Checkpoint selection on held-out deals (early stopping, LEARNING-SPEC §A.9 item 7): every stage-2
    snapshot of a `pokerlab train td` run and its final player play --deals duplicate deals of the
    validation seed against each opponent; --criterion over the schedule's fixed opponents picks one, copied
    to RUN/best.npz (the player td:RUN/best). Writes RUN/select.csv and RUN/select.json. Training is not
    changed."""
    from pokerlab.agents import parse_lineup
    from pokerlab.programs.td.studies.select import select

    opponents = list(dict.fromkeys(parse_lineup(args.opponents))) if args.opponents else None
    result = select(
        args.run,
        args.deals,
        args.seed,
        opponents,
        args.criterion,
        progress=_progress_lines(args),
    )
    judged = ", ".join(result["judged_on"])
    print(f"{result['criterion']} over {judged} ({result['deals']} deals, seed {result['seed']}):")
    for name, score in result["scores"].items():
        mark = "  <- chosen" if name == result["chosen"] else ""
        print(f"  {name:<28}{score:>+8.3f}{mark}")
    print(f"the chosen player: td:{args.run}/best ({result['chosen']}); rows in {args.run}/select.csv")
    return 0


def cmd_train_ladder(args: argparse.Namespace) -> int:
    """The self-play ladder of a `pokerlab train td` run (LEARNING-SPEC §A.9 item 5): each frozen snapshot
    against every earlier one in duplicate; writes ladder.csv and the heat map ladder.png into --out."""
    from pokerlab.programs.td.studies.ladder import ladder

    out = args.out or str(Path(args.run) / "ladder")
    rows = ladder(
        args.run,
        args.deals,
        args.seed,
        out,
        progress=_progress_lines(args),
    )
    for later, earlier, value, low, high in rows:
        print(f"{later:>10} vs {earlier:>10}  {value:+.3f} sb/hand [{low:+.3f}, {high:+.3f}]")
    print(f"ladder in {out}/ladder.csv, {out}/ladder.png")
    return 0


def cmd_train_exploit(args: argparse.Namespace) -> int:
    """The exploitability proxy (LEARNING-SPEC §A.9 item 6): a fresh repaired learner trains --hands hands
    against the frozen player of CHECKPOINT (greedy, epsilon-mixed, average policy); its win rate (lower is
    better for the frozen player) goes to exploit.csv and exploit.png in --out."""
    from pokerlab.programs.td.studies.exploit import exploit

    versions = tuple(v.strip() for v in args.versions.split(",") if v.strip())
    rows = exploit(
        args.checkpoint,
        args.hands,
        args.seed,
        args.out,
        deals=args.deals,
        versions=versions,
        epsilon=args.epsilon,
        progress=_progress_lines(args),
    )
    print("version   learner training, last fifth   learner frozen, duplicate (sb/hand)")
    for r in rows:
        train, frozen = f"{r[2]:+.3f} [{r[3]:+.3f}, {r[4]:+.3f}]", f"{r[5]:+.3f} [{r[6]:+.3f}, {r[7]:+.3f}]"
        print(f"{r[0]:<10}{train:<31}{frozen}")
    print(f"results in {args.out}/exploit.csv, {args.out}/exploit.png")
    return 0


def cmd_train_switch(args: argparse.Namespace) -> int:
    """Adaptation to an opponent who changes style (LEARNING-SPEC §A.10 (b)): each trained player plays
    --sessions sessions of 2 x --after hands against switch:FIRST/SECOND/AFTER, learning as in training,
    with only its opponent model learning (players with those inputs) and frozen; writes switch.csv (the
    windows before and after the switch and at the end, 95 % CIs over sessions), switch-curve.csv and
    switch.png (rolling win rates) into --out."""
    from pokerlab.programs.td.studies.switch import switch_study

    settings = {k: getattr(args, k) for k in ("first", "second", "after", "sessions", "window", "seed")}
    rows = switch_study(args.runs, args.out, progress=_progress_lines(args), **settings)
    print(f"sb/hand over {args.window} hands, mean of {args.sessions} sessions [95 % CI]")
    print(f"{'run':<24}{'mode':<10}{'before':>26}{'after':>26}{'end':>26}")
    for i in range(0, len(rows), 3):
        cells = "".join(f"{f'{r[4]:+.3f} [{r[5]:+.3f}, {r[6]:+.3f}]':>26}" for r in rows[i : i + 3])
        print(f"{rows[i][0]:<24}{rows[i][1]:<10}{cells}")
    print(f"results in {args.out}/switch.csv, {args.out}/switch.png")
    return 0


def cmd_train_opponent_model(args: argparse.Namespace) -> int:
    """Train the next-action network (LEARNING-SPEC §A.10) on each opponent heads-up against a partner and
    score it on held-out hands against a frequency table and a uniform guess; writes model_study.csv/png."""
    from pokerlab.agents import parse_lineup
    from pokerlab.programs.td.studies.runs import opponent_model_study, write_model_study

    opponents = list(dict.fromkeys(parse_lineup(args.opponents)))
    rows = opponent_model_study(opponents, args.train_hands, args.test_hands, args.seed, args.partner)
    write_model_study(rows, args.out)
    print(f"{'opponent':<18}{'decisions':>10}  {'model':<16}{'accuracy':>9}{'log-loss':>9}")
    for r in rows:
        print(f"{r[0]:<18}{r[1]:>10}  {r[2]:<16}{r[3]:>9.3f}{r[4]:>9.3f}")
    print(f"results in {args.out}/model_study.csv, {args.out}/model_study.png")
    return 0


def _progress(args: argparse.Namespace) -> bool:
    """Show the progress bar (stderr: hands done, hands/s, time left) when asked, by default when stderr is
    a terminal: also with --json, whose numbers go to stdout; never into a log file or a pipe."""
    return sys.stderr.isatty() if args.progress is None else args.progress


def _progress_lines(args: argparse.Namespace):
    """Where a long command's progress lines go: stderr, when `_progress` says to show progress."""
    return (lambda line: print(line, file=sys.stderr, flush=True)) if _progress(args) else None


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the web table (issue 14): people play the bots and each other in a browser, with accounts,
    bankrolls and levels that open as the bankroll grows (Billings et al. 1998 §5; LOKI-SPEC §7.1)."""
    try:
        from pokerlab.interfaces.web.config import DEFAULT_TABLES, WebConfig, parse_tables
        from pokerlab.interfaces.web.server import serve
    except ImportError as exc:
        raise ConfigError(
            f"pokerlab serve needs the web extra ({exc.name} is missing): pip install 'pokerlab[web]'"
        ) from None
    config = WebConfig(
        database=args.db,
        tables=parse_tables(args.tables or DEFAULT_TABLES),
        seed=args.seed,
        action_seconds=args.action_seconds,
        run_bot_tables=args.run_bot_tables,
        pause_seconds=args.pause_seconds,
        show_thoughts=args.show_thoughts,
        trusted_proxies=tuple(args.trusted_proxy),
        allowed_origins=tuple(args.allow_origin),
        sandbox=args.sandbox,
    )
    serve(config, host=args.host, port=args.port)
    return 0


def _add_progress_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr, updated twice a second (default: when stderr is a terminal)",
    )


def _add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=_seed, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument("--small-bet", type=int, default=10, help="small bet in chips (default 10)")
    p.add_argument("--stack", type=int, default=None, help="real stacks in chips (default unlimited)")
    p.add_argument("--no-cap-heads-up", action="store_true", help="no raise cap while two players remain")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pokerlab", description="A testbed for poker-AI research.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("rank", help="rank 5-7 card hands", description=cmd_rank.__doc__)
    p.add_argument("hands", nargs="+", help='cards of a hand, e.g. "As Ks Qs Js Ts 2c 3d"')
    p.add_argument("--json", action="store_true", help="one JSON object per hand")
    p.set_defaults(func=cmd_rank)

    p = sub.add_parser("analyze", help="hand strength, potential and EHS", description=cmd_analyze.__doc__)
    p.add_argument("hole", help='our two hole cards, e.g. "Ad Qc"')
    p.add_argument("board", help='the flop, turn or river, e.g. "3h 4c Jh"')
    p.add_argument(
        "--opponents",
        type=_int_in(1, 9, "opponents"),
        default=1,
        help="active opponents n of HS_n, 1 to 9 (default 1)",
    )
    p.add_argument(
        "--weights",
        metavar="FILE",
        help="opponent weight table: 1,326 numbers (.npy, text or JSON), pokerlab.holdings order",
    )
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser(
        "preflop-table", help="pre-flop income-rate tables", description=cmd_preflop_table.__doc__
    )
    p.add_argument("--players", type=int, required=True, help="players at the table, 2 to 10")
    p.add_argument("--games", type=int, help="simulate this many games per type (the paper: 1000000)")
    p.add_argument(
        "--seed", type=_seed, default=DEFAULT_SEED, help=f"random seed, integer >= 0 (default {DEFAULT_SEED})"
    )
    p.add_argument("--workers", type=int, help="threads to simulate on (default: every core)")
    p.add_argument("--write", action="store_true", help="store the simulated table as the shipped one")
    p.add_argument(
        "--force",
        action="store_true",
        help="with --write: replace the shipped table even with fewer games per type than it has",
    )
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=cmd_preflop_table)

    p = sub.add_parser("demo", help="a short demonstration", description=cmd_demo.__doc__)
    p.add_argument(
        "--hands", type=_int_in(0, 1000, "hands"), default=5, help="random hands to deal, 0-1000 (default 5)"
    )
    p.add_argument("--seed", type=_seed, default=2026, help="random seed, an integer >= 0 (default 2026)")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("match", help="play a match between agents", description=cmd_match.__doc__)
    p.add_argument(
        "--agents",
        required=True,
        help="one agent per seat, e.g. call,raise or random:8,call; yours: mypkg.mod:MyBot or bots.py:MyBot",
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
    _add_game_options(p)
    _add_progress_option(p)
    p.set_defaults(func=cmd_match)

    p = sub.add_parser(
        "summarize", help="rebuild a results folder's summary and plot", description=cmd_summarize.__doc__
    )
    p.add_argument("results", help="a results folder (written by match --out)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.set_defaults(func=cmd_summarize)

    p = sub.add_parser("agents", help="list the agents by name", description=cmd_agents.__doc__)
    p.add_argument("--json", action="store_true", help="one JSON object: name -> description")
    p.set_defaults(func=cmd_agents)

    p = sub.add_parser("play", help="play against agents at the terminal", description=cmd_play.__doc__)
    p.add_argument("--opponents", default="call", help="agents in seats 1.. (default: call)")
    p.add_argument("--hands", type=int, default=10, help="hands to play (default 10)")
    p.add_argument("--out", default=None, help="results folder: keeps every hand played (hands.sqlite, csv)")
    _add_game_options(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "experiment", help="reproduce a paper's experiment", description=cmd_experiment.__doc__
    )
    p.add_argument("name", choices=sorted(EXPERIMENTS), help="which experiment")
    p.add_argument(
        "--deals",
        type=int,
        default=None,
        help="duplicate deals (default: 10000 for the ablation, 2000 for the components and the styles, "
        "2500 per loki2 match-up)",
    )
    p.add_argument(
        "--reading",
        choices=list(FIG1_READINGS),
        default=None,
        help="how the Loki-1 field reads Billings et al. 1998 (loki-ablation, loki-components; default "
        "no-showdown-odds, see docs/results/loki-fig1-fidelity)",
    )
    p.add_argument(
        "--only",
        default=None,
        help="loki2 match-ups, comma-separated: betting, reweighting, triples, simulation, sim-call",
    )
    p.add_argument("--epochs", type=int, default=None, help="bw-*: epochs of 100 hands (default 1000)")
    p.add_argument("--runs", type=int, default=None, help="bw-*: independent runs, seeds seed.. (5, 1, 3)")
    p.add_argument(
        "--player", action="append", default=None, help="bw-3: an evolved-A file of bw-2 (repeatable)"
    )
    p.add_argument(
        "--set", default=None, help="bw-*: evolving-player switches, e.g. multiway_x=single,sigma=0.1"
    )
    p.add_argument("--seed", type=_seed, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument("--workers", type=int, default=1, help="parallel processes (results do not depend on it)")
    p.add_argument("--out", default=None, help="results folder")
    p.add_argument("--json", action="store_true", help="print the pooled results as one JSON object")
    p.add_argument("--resume", action="store_true", help="continue a killed run in --out (same command)")
    _add_progress_option(p)
    p.set_defaults(func=cmd_experiment)

    p = sub.add_parser(
        "show-player", help="plot an evolved Barone & While player", description=cmd_show_player.__doc__
    )
    p.add_argument("file", help="an evolving player's file (.npz, from bw-1, bw-2 or save)")
    p.add_argument(
        "--stage", choices=["pre-flop", "post-flop", "post-turn", "post-river"], default="post-river"
    )
    p.add_argument("--segment", default=None, help="one opponent segment (default: each)")
    p.add_argument("--out", default=None, help="PNG name stem (default: beside the file)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_show_player)

    p = sub.add_parser("train", help="train a learning player", description="Train a learning player.")
    trainers = p.add_subparsers(dest="train_command", required=True, parser_class=_Parser)
    p = trainers.add_parser("td", help="TD-Hold'em (seed 003)", description=cmd_train_td.__doc__)
    p.add_argument(
        "--preset", choices=("seed-literal", "faithful", "repaired"), help="a preset (default faithful)"
    )
    p.add_argument("--config", help="a JSON file: {preset, player fields..., schedule: {...}}")
    p.add_argument("--hands", type=_int_in(1, 10**10, "hands"), required=True, help="training hands")
    p.add_argument("--seed", type=_seed, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument("--out", required=True, help="the run's folder")
    p.add_argument("--resume", action="store_true", help="continue the run in --out from its last checkpoint")
    p.add_argument("--eval-every", type=_int_in(1, 10**10, "hands"), help="evaluate every so many hands")
    p.add_argument("--eval-deals", type=_int_in(1, 10**8, "deals"), help="duplicate deals per evaluation")
    p.add_argument(
        "--checkpoint-every", type=_int_in(1, 10**10, "hands"), help="checkpoint every so many hands"
    )
    p.add_argument("--json", action="store_true", help="print the final evaluation as JSON")
    _add_progress_option(p)
    p.set_defaults(func=cmd_train_td)

    p = trainers.add_parser("summary", help="runs side by side", description=cmd_train_summary.__doc__)
    p.add_argument("runs", nargs="+", help="folders of finished `pokerlab train td` runs")
    p.add_argument("--out", required=True, help="the results folder")
    p.add_argument("--title", default="TD-Hold'em", help="the plot's title")
    p.set_defaults(func=cmd_train_summary)

    p = trainers.add_parser(
        "curve", help="learning curves on many deals, after training", description=cmd_train_curve.__doc__
    )
    p.add_argument("runs", nargs="+", help="folders of `pokerlab train td` runs whose schedule has save_at")
    p.add_argument(
        "--opponents",
        default="call,raise,random,loose-passive,loose-aggressive,tight-passive,tight-aggressive,loki1",
        help="evaluation opponents (default: the eight of LEARNING-SPEC §A.9 item 2)",
    )
    p.add_argument(
        "--deals", type=_int_in(1, 10**8, "deals"), default=10000, help="duplicate deals per point (10000)"
    )
    p.add_argument(
        "--seed", type=_seed, default=2026, help="the deals' seed (default 2026, that of the final tables)"
    )
    p.add_argument("--workers", type=_int_in(1, 256, "workers"), default=1, help="processes (default 1)")
    p.add_argument(
        "--reference",
        default=None,
        help="an agent played against each opponent on the same deals (e.g. loki1)",
    )
    p.add_argument("--out", required=True, help="the results folder")
    _add_progress_option(p)
    p.set_defaults(func=cmd_train_curve)

    p = trainers.add_parser(
        "deltas", help="each repair against the base (T4)", description=cmd_train_deltas.__doc__
    )
    p.add_argument(
        "runs", nargs="+", help="folders of finished `pokerlab train td` runs, named by configuration"
    )
    p.add_argument("--base", default="faithful", help="the configuration the others are compared with")
    p.add_argument("--opponent", default="call", help="the evaluation opponent compared (default: call)")
    p.add_argument("--out", required=True, help="the results folder")
    p.set_defaults(func=cmd_train_deltas)

    p = trainers.add_parser("table", help="final table of a run", description=cmd_train_table.__doc__)
    p.add_argument("run", help="the folder of a `pokerlab train td` run")
    p.add_argument(
        "--opponents",
        default="call,raise,random,loose-passive,loose-aggressive,tight-passive,tight-aggressive,loki1",
        help="evaluation opponents (default: the eight of LEARNING-SPEC §A.9 item 2)",
    )
    p.add_argument("--deals", type=_int_in(1, 10**8, "deals"), default=1000, help="duplicate deals each")
    p.add_argument("--style-hands", type=_int_in(1, 10**8, "hands"), default=2000, help="hands for VPIP etc.")
    p.add_argument("--seed", type=_seed, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument(
        "--player",
        default="checkpoint",
        help="the run's player file: checkpoint (the final player, default), best (chosen by `train select`; "
        "table in final-table-best.csv), averaged (the weight average of a run with the schedule's polyak; "
        "final-table-averaged.csv), snapshots/hands-N or a path",
    )
    _add_progress_option(p)
    p.set_defaults(func=cmd_train_table)

    p = trainers.add_parser("select", help="choose a run's checkpoint", description=cmd_train_select.__doc__)
    p.add_argument("run", help="the folder of a `pokerlab train td` run with stage-2 snapshots")
    p.add_argument(
        "--deals",
        type=_int_in(1, 10**8, "deals"),
        default=2000,
        help="deals per candidate and opponent (default 2000)",
    )
    p.add_argument(
        "--seed",
        type=_seed,
        default=7,
        help="the validation seed (default 7); it must differ from 2026, the reported final tables' seed",
    )
    p.add_argument("--opponents", default=None, help="opponents (default: the schedule's fixed opponents)")
    p.add_argument(
        "--criterion",
        default="mean",
        help="mean: the mean sb/hand over the fixed opponents (default); worst-low: their worst CI low bound",
    )
    _add_progress_option(p)
    p.set_defaults(func=cmd_train_select)

    p = trainers.add_parser("ladder", help="snapshot ladder of a run", description=cmd_train_ladder.__doc__)
    p.add_argument("run", help="the folder of a `pokerlab train td` run with stage-2 snapshots")
    p.add_argument("--deals", type=_int_in(1, 10**8, "deals"), default=1000, help="duplicate deals per pair")
    p.add_argument("--seed", type=_seed, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument("--out", default=None, help="the results folder (default RUN/ladder)")
    _add_progress_option(p)
    p.set_defaults(func=cmd_train_ladder)

    p = trainers.add_parser("exploit", help="exploitability proxy", description=cmd_train_exploit.__doc__)
    p.add_argument("checkpoint", help="the frozen player: a run folder or its checkpoint.npz")
    p.add_argument("--hands", type=_int_in(20, 10**10, "hands"), required=True, help="the learner's hands")
    p.add_argument("--versions", default="greedy,mixed", help="greedy, mixed, average (default greedy,mixed)")
    p.add_argument("--epsilon", type=float, default=0.1, help="random-action share of 'mixed' (default 0.1)")
    p.add_argument(
        "--deals", type=_int_in(1, 10**8, "deals"), default=1000, help="duplicate deals at the end"
    )
    p.add_argument("--seed", type=_seed, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument("--out", required=True, help="the results folder")
    _add_progress_option(p)
    p.set_defaults(func=cmd_train_exploit)

    p = trainers.add_parser(
        "switch", help="adaptation to a switching opponent", description=cmd_train_switch.__doc__
    )
    p.add_argument("runs", nargs="+", help="trained players: `pokerlab train td` run folders")
    p.add_argument("--first", default="tight-passive", help="its first style (default tight-passive)")
    p.add_argument("--second", default="loose-aggressive", help="its second style (default loose-aggressive)")
    p.add_argument(
        "--after", type=_int_in(1, 10**8, "hands"), default=5000, help="hands before it switches (5000)"
    )
    p.add_argument("--sessions", type=_int_in(1, 10**6, "sessions"), default=4, help="sessions (default 4)")
    p.add_argument("--window", type=_int_in(1, 10**8, "hands"), default=500, help="window (default 500)")
    p.add_argument("--seed", type=_seed, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument("--out", required=True, help="the results folder")
    _add_progress_option(p)
    p.set_defaults(func=cmd_train_switch)

    p = trainers.add_parser(
        "opponent-model", help="next-action prediction study", description=cmd_train_opponent_model.__doc__
    )
    p.add_argument("--opponents", required=True, help="agents to model, e.g. random,loose-aggressive")
    p.add_argument("--partner", default="random", help="who they play against (default random)")
    p.add_argument("--train-hands", type=_int_in(1, 10**8, "hands"), default=3000, help="hands to learn from")
    p.add_argument("--test-hands", type=_int_in(1, 10**8, "hands"), default=1000, help="held-out hands")
    p.add_argument("--seed", type=_seed, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument("--out", required=True, help="the results folder")
    p.set_defaults(func=cmd_train_opponent_model)

    p = sub.add_parser("history", help="hand histories", description="Work with hand histories.")
    hist = p.add_subparsers(dest="history_command", required=True, parser_class=_Parser)
    p = hist.add_parser("replay", help="replay PHH files", description=cmd_history_replay.__doc__)
    p.add_argument("path", help="a .phh or .phhs file, a folder of them, hands.sqlite or a results folder")
    p.add_argument("--json", action="store_true", help='one JSON line per hand: {"hand", "nets", "error"}')
    p.set_defaults(func=cmd_history_replay)
    p = hist.add_parser("export", help="write a hand store as PHH", description=cmd_history_export.__doc__)
    p.add_argument("source", help="a results folder or its hands.sqlite")
    p.add_argument("--out", required=True, help="the PHH file to write (.phhs)")
    p.add_argument("--force", action="store_true", help="replace --out if it exists")
    p.set_defaults(func=cmd_history_export)
    p = hist.add_parser(
        "show", help="print hands as a person reads them", description=cmd_history_show.__doc__
    )
    p.add_argument("path", help="a .phh or .phhs file, a folder of them, hands.sqlite or a results folder")
    p.set_defaults(func=cmd_history_show)
    p = sub.add_parser("serve", help="run the web table", description=cmd_serve.__doc__)
    p.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, loopback only)"
    )
    p.add_argument("--port", type=_int_in(1, 65535, "ports"), default=8000, help="port (default 8000)")
    p.add_argument(
        "--db",
        default="sqlite:///pokerlab-web.db",
        help="database URL: sqlite:///FILE (default sqlite:///pokerlab-web.db) or postgresql://USER@HOST/DB",
    )
    p.add_argument(
        "--tables",
        default=None,
        metavar="SPEC",
        help="tables as LEVEL/SEATS/BOT,BOT,...;... e.g. '10-20/6/loki1,tight-aggressive;20-40/4/loki1' "
        "(levels 10-20, 20-40, 50-100; bots by agent name, see `pokerlab agents`)",
    )
    p.add_argument(
        "--seed",
        type=_seed,
        default=None,
        help="practice only: deal reproducibly from this seed, said so in the lobby and log (default: every "
        "hand from a fresh secret seed)",
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="believe X-Forwarded-For/-Proto from this proxy address or network (repeatable; default none)",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another origin (https://poker.example) allowed to use the API and sockets (repeatable; default "
        "the server's own only)",
    )
    p.add_argument(
        "--sandbox",
        choices=SANDBOX_MODES,
        default="required",
        help="where a layer of an outside bot's sandbox (module:Class, file.py:Class) is missing: refuse "
        "(default) or go on, saying so",
    )
    p.add_argument("--action-seconds", type=float, default=20.0, help="a person's time to act (default 20)")
    p.add_argument(
        "--pause-seconds", type=float, default=2.0, help="pause between hands where a person sits (default 2)"
    )
    p.add_argument(
        "--run-bot-tables",
        action="store_true",
        help="tables where no person sits play on (default: they pause)",
    )
    p.add_argument(
        "--show-thoughts",
        action="store_true",
        help="replays show what a bot logged also for hands it did not show down (teaching; default: only "
        "where its cards were seen)",
    )
    p.set_defaults(func=cmd_serve)
    from pokerlab.interfaces.acpc.commands import add_acpc_parser

    add_acpc_parser(sub, _Parser)
    return parser


def _command_parser(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.ArgumentParser:
    """The (sub)parser of the command that `argv` runs (`history export`, `acpc match` ...)."""
    for token in argv:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or token not in subs[0].choices:
            break
        parser = subs[0].choices[token]
    return parser


def in_flags(message: str, parser: argparse.ArgumentParser) -> str:
    """An error message with the Python names of settings (``small_bet``, ``action_timeout``, ``out``) put
    as the command's flags (``--small-bet`` ...), and Python-only advice (``(resume=True)``) left out: the
    person at the command line typed flags."""
    import re

    for action in parser._actions:
        flags = [f for f in action.option_strings if f.startswith("--")]
        if not flags or action.dest in ("help", argparse.SUPPRESS):
            continue
        flag, dest = max(flags, key=len), re.escape(action.dest)
        message = re.sub(rf"\s*\({dest}=[^)]*\)", "", message)
        # a setting that begins the message or a clause of it ("small_bet must be ..."), or that ends it
        # ("... give out")
        message = re.sub(
            rf"(^|[:;] )({dest})(?=\s+(?:must|is|are|continues|takes)\b)", rf"\g<1>{flag}", message
        )
        message = re.sub(rf"(\bgive ){dest}$", rf"\g<1>{flag}", message)
    return message


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `pokerlab` command; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        func: Callable[[argparse.Namespace], int] = args.func
        status = func(args)
        sys.stdout.flush()  # a closed pipe shows up here, inside the try, not at interpreter exit
        return status
    except BrokenPipeError:
        # the reader went away (`pokerlab ... | head -1`): stop quietly, and keep Python's exit-time flush
        # from failing again on the same pipe
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except BotFault as exc:
        print(f"pokerlab: error: {exc}", file=sys.stderr)
        return 1
    except (PokerlabError, _UsageError) as exc:
        text = str(exc) if isinstance(exc, _UsageError) else in_flags(str(exc), _command_parser(parser, argv))
        print(f"pokerlab: error: {text}", file=sys.stderr)
        return 2
    except OSError as exc:  # a results folder or file that cannot be made or read, for every command
        where = f" {exc.filename}" if exc.filename else ""
        print(f"pokerlab: error: cannot use{where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pokerlab: interrupted", file=sys.stderr)
        return 130
    except PlayerLeft:  # a human agent in a match reached the end of its input (play handles it itself)
        print("pokerlab: error: end of input: the human player left the match", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
