"""TD-Hold'em's commands: ``pokerlab train td`` (training) and the studies of trained players under
``pokerlab train`` (summary, curve, deltas, table, select, ladder, exploit, switch, opponent-model)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pokerlab.arena.backend import add_backend_options, backend_of
from pokerlab.arena.output import finite_json
from pokerlab.commandline import (
    UsageError,
    add_progress_option,
    int_in,
    progress_lines,
    seed_arg,
)


def cmd_train_td(args: argparse.Namespace) -> int:
    """Train a TD-Hold'em player into --out: progress with a running win rate,
    checkpoints every so many hands (--resume continues one to the same result), learning curves as PNG;
    the player is then "td:OUT/checkpoint" in any match."""
    from pokerlab.programs.td.training import run_config, train

    if args.preset and args.config:
        raise UsageError("give --preset or --config, not both")
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
        progress=progress_lines(args),
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
    from pokerlab.arena.evidence import named_rows
    from pokerlab.programs.td.studies.runs import SUMMARY_HEADER, summarize_runs

    for r in named_rows(SUMMARY_HEADER, summarize_runs(args.runs, args.out, args.title)):
        print(
            f"{r['run']:<24} vs {r['opponent']:<10} before {r['before']:+.3f}  after {r['after']:+.3f} "
            f"[{r['after_low']:+.3f}, {r['after_high']:+.3f}]"
        )
    print(f"summary in {args.out}/summary.csv, {args.out}/seeds.csv, {args.out}/curves.png")
    return 0


def cmd_train_curve(args: argparse.Namespace) -> int:
    """Learning curves evaluated after training (TD design §A.9 item 2): every player a `pokerlab train
    td` run kept (its schedule's save_at hands, and the final one) against each opponent on the same
    --deals duplicate deals of --seed, in --workers processes; writes curve.csv (kept as it goes: a second
    call with the same deals and seed plays only what is missing), reference.csv (--reference against each
    opponent on the same deals, a dotted line on the plot), seeds.csv (median and range over the runs) and
    curves.png into --out."""
    from pokerlab.agents import parse_lineup
    from pokerlab.programs.td.studies.curve import curves

    opponents = list(dict.fromkeys(parse_lineup(args.opponents, labels=False)))
    progress = progress_lines(args)
    rows = curves(
        args.runs, opponents, args.deals, args.seed, args.out, backend_of(args), progress, args.reference
    )
    for name, _, hands, opponent, value, low, high in rows:
        print(f"{name:<16}{hands:>10} vs {opponent:<18}{value:+.3f} [{low:+.3f}, {high:+.3f}]")
    print(f"curves in {args.out}/curve.csv, {args.out}/seeds.csv, {args.out}/curves.png")
    return 0


def cmd_train_deltas(args: argparse.Namespace) -> int:
    """Each repair alone against the base configuration (TD design §A.9 item 7, T4): finished `pokerlab
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
    """The final table of a `pokerlab train td` run (TD design §A.9 item 4): its player against each
    opponent in duplicate (sb/hand, 95 % CI) with its VPIP, PFR and aggression factor; writes
    RUN/final-table.csv."""
    from pokerlab.agents import parse_lineup
    from pokerlab.programs.td.studies.runs import final_table, table_name

    opponents = list(dict.fromkeys(parse_lineup(args.opponents, labels=False)))
    rows = final_table(
        args.run,
        opponents,
        args.deals,
        args.seed,
        args.style_hands,
        progress=progress_lines(args),
        player=args.player,
    )
    print(f"{'opponent':<18}{'sb/hand':>8}  {'95% CI':<18}{'VPIP':>6}{'PFR':>6}{'AF':>6}")
    for name, value, low, high, vpip, pfr, af in rows:
        ci = f"[{low:+.3f}, {high:+.3f}]"
        print(f"{name:<18}{value:>+8.3f}  {ci:<18}{vpip:>6.0%}{pfr:>6.0%}{af:>6.2f}")
    print(f"table in {args.run}/{table_name(args.player)}")
    return 0


def cmd_train_select(args: argparse.Namespace) -> int:
    """Checkpoint selection on held-out deals (early stopping, TD design §A.9 item 7): every stage-2
    snapshot of a `pokerlab train td` run and its final player play --deals duplicate deals of the
    validation seed against each opponent; --criterion over the schedule's fixed opponents picks one, copied
    to RUN/best.npz (the player td:RUN/best). Writes RUN/select.csv and RUN/select.json. Training is not
    changed."""
    from pokerlab.agents import parse_lineup
    from pokerlab.programs.td.studies.select import select

    opponents = list(dict.fromkeys(parse_lineup(args.opponents, labels=False))) if args.opponents else None
    result = select(
        args.run,
        args.deals,
        args.seed,
        opponents,
        args.criterion,
        progress=progress_lines(args),
    )
    judged = ", ".join(result["judged_on"])
    print(f"{result['criterion']} over {judged} ({result['deals']} deals, seed {result['seed']}):")
    for name, score in result["scores"].items():
        mark = "  <- chosen" if name == result["chosen"] else ""
        print(f"  {name:<28}{score:>+8.3f}{mark}")
    print(f"the chosen player: td:{args.run}/best ({result['chosen']}); rows in {args.run}/select.csv")
    return 0


def cmd_train_ladder(args: argparse.Namespace) -> int:
    """The self-play ladder of a `pokerlab train td` run (TD design §A.9 item 5): each frozen snapshot
    against every earlier one in duplicate; writes ladder.csv and the heat map ladder.png into --out."""
    from pokerlab.programs.td.studies.ladder import ladder

    out = args.out or str(Path(args.run) / "ladder")
    rows = ladder(
        args.run,
        args.deals,
        args.seed,
        out,
        progress=progress_lines(args),
    )
    for later, earlier, value, low, high in rows:
        print(f"{later:>10} vs {earlier:>10}  {value:+.3f} sb/hand [{low:+.3f}, {high:+.3f}]")
    print(f"ladder in {out}/ladder.csv, {out}/ladder.png")
    return 0


def cmd_train_exploit(args: argparse.Namespace) -> int:
    """The exploitability proxy (TD design §A.9 item 6): a fresh repaired learner trains --hands hands
    against the frozen player of CHECKPOINT (greedy, epsilon-mixed, average policy); its win rate (lower is
    better for the frozen player) goes to exploit.csv and exploit.png in --out."""
    from pokerlab.arena.evidence import named_rows
    from pokerlab.programs.td.studies.exploit import EXPLOIT_HEADER, exploit

    versions = tuple(v.strip() for v in args.versions.split(",") if v.strip())
    rows = exploit(
        args.checkpoint,
        args.hands,
        args.seed,
        args.out,
        deals=args.deals,
        versions=versions,
        epsilon=args.epsilon,
        progress=progress_lines(args),
    )
    print("version   learner training, last fifth   learner frozen, duplicate (sb/hand)")
    for r in named_rows(EXPLOIT_HEADER, rows):
        train = f"{r['train_sb_per_hand']:+.3f} [{r['train_ci95_low']:+.3f}, {r['train_ci95_high']:+.3f}]"
        frozen = f"{r['eval_sb_per_hand']:+.3f} [{r['eval_ci95_low']:+.3f}, {r['eval_ci95_high']:+.3f}]"
        print(f"{r['version']:<10}{train:<31}{frozen}")
    print(f"results in {args.out}/exploit.csv, {args.out}/exploit.png")
    return 0


def cmd_train_switch(args: argparse.Namespace) -> int:
    """Adaptation to an opponent who changes style (TD design §A.10 (b)): each trained player plays
    --sessions sessions of 2 x --after hands against switch:FIRST/SECOND/AFTER, learning as in training,
    with only its opponent model learning (players with those inputs) and frozen; writes switch.csv (the
    windows before and after the switch and at the end, 95 % CIs over sessions), switch-curve.csv and
    switch.png (rolling win rates) into --out."""
    from pokerlab.arena.evidence import named_rows
    from pokerlab.programs.td.studies.switch import SWITCH_HEADER, switch_study

    settings = {k: getattr(args, k) for k in ("first", "second", "after", "sessions", "window", "seed")}
    rows = named_rows(
        SWITCH_HEADER, switch_study(args.runs, args.out, progress=progress_lines(args), **settings)
    )
    print(f"sb/hand over {args.window} hands, mean of {args.sessions} sessions [95 % CI]")
    print(f"{'run':<24}{'mode':<10}{'before':>26}{'after':>26}{'end':>26}")
    for i in range(0, len(rows), 3):
        windows = [
            f"{r['sb_per_hand']:+.3f} [{r['ci95_low']:+.3f}, {r['ci95_high']:+.3f}]" for r in rows[i : i + 3]
        ]
        print(f"{rows[i]['run']:<24}{rows[i]['mode']:<10}" + "".join(f"{w:>26}" for w in windows))
    print(f"results in {args.out}/switch.csv, {args.out}/switch.png")
    return 0


def cmd_train_opponent_model(args: argparse.Namespace) -> int:
    """Train the next-action network (TD design §A.10) on each opponent heads-up against a partner and
    score it on held-out hands against a frequency table and a uniform guess; writes model_study.csv/png."""
    from pokerlab.agents import parse_lineup
    from pokerlab.arena.evidence import named_rows
    from pokerlab.programs.td.studies.runs import MODEL_HEADER, opponent_model_study, write_model_study

    opponents = list(dict.fromkeys(parse_lineup(args.opponents, labels=False)))
    rows = opponent_model_study(opponents, args.train_hands, args.test_hands, args.seed, args.partner)
    write_model_study(rows, args.out)
    print(f"{'opponent':<18}{'decisions':>10}  {'model':<16}{'accuracy':>9}{'log-loss':>9}")
    for r in named_rows(MODEL_HEADER, rows):
        scores = f"{r['accuracy']:>9.3f}{r['log_loss']:>9.3f}"
        print(f"{r['opponent']:<18}{r['decisions']:>10}  {r['model']:<16}{scores}")
    print(f"results in {args.out}/model_study.csv, {args.out}/model_study.png")
    return 0


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """train td and the studies."""
    p = subparsers.add_parser("train", help="train a learning player", description="Train a learning player.")
    trainers = p.add_subparsers(dest="train_command", required=True, parser_class=type(p))
    p = trainers.add_parser("td", help="TD-Hold'em (2005)", description=cmd_train_td.__doc__)
    p.add_argument(
        "--preset", choices=("seed-literal", "faithful", "repaired"), help="a preset (default faithful)"
    )
    p.add_argument("--config", help="a JSON file: {preset, player fields..., schedule: {...}}")
    p.add_argument("--hands", type=int_in(1, 10**10, "hands"), required=True, help="training hands")
    p.add_argument("--seed", type=seed_arg, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument("--out", required=True, help="the run's folder")
    p.add_argument("--resume", action="store_true", help="continue the run in --out from its last checkpoint")
    p.add_argument("--eval-every", type=int_in(1, 10**10, "hands"), help="evaluate every so many hands")
    p.add_argument("--eval-deals", type=int_in(1, 10**8, "deals"), help="duplicate deals per evaluation")
    p.add_argument(
        "--checkpoint-every", type=int_in(1, 10**10, "hands"), help="checkpoint every so many hands"
    )
    p.add_argument("--json", action="store_true", help="print the final evaluation as JSON")
    add_progress_option(p)
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
        help="evaluation opponents (default: the eight of the TD design, §A.9 item 2)",
    )
    p.add_argument(
        "--deals", type=int_in(1, 10**8, "deals"), default=10000, help="duplicate deals per point (10000)"
    )
    p.add_argument(
        "--seed", type=seed_arg, default=2026, help="the deals' seed (default 2026, that of the final tables)"
    )
    p.add_argument("--workers", type=int_in(1, 256, "workers"), default=1, help="processes (default 1)")
    add_backend_options(p)
    p.add_argument(
        "--reference",
        default=None,
        help="an agent played against each opponent on the same deals (e.g. loki1)",
    )
    p.add_argument("--out", required=True, help="the results folder")
    add_progress_option(p)
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
        help="evaluation opponents (default: the eight of the TD design, §A.9 item 2)",
    )
    p.add_argument("--deals", type=int_in(1, 10**8, "deals"), default=1000, help="duplicate deals each")
    p.add_argument("--style-hands", type=int_in(1, 10**8, "hands"), default=2000, help="hands for VPIP etc.")
    p.add_argument("--seed", type=seed_arg, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument(
        "--player",
        default="checkpoint",
        help="the run's player file: checkpoint (the final player, default), best (chosen by `train select`; "
        "table in final-table-best.csv), averaged (the weight average of a run with the schedule's polyak; "
        "final-table-averaged.csv), snapshots/hands-N or a path",
    )
    add_progress_option(p)
    p.set_defaults(func=cmd_train_table)

    p = trainers.add_parser("select", help="choose a run's checkpoint", description=cmd_train_select.__doc__)
    p.add_argument("run", help="the folder of a `pokerlab train td` run with stage-2 snapshots")
    p.add_argument(
        "--deals",
        type=int_in(1, 10**8, "deals"),
        default=2000,
        help="deals per candidate and opponent (default 2000)",
    )
    p.add_argument(
        "--seed",
        type=seed_arg,
        default=7,
        help="the validation seed (default 7); it must differ from 2026, the reported final tables' seed",
    )
    p.add_argument("--opponents", default=None, help="opponents (default: the schedule's fixed opponents)")
    p.add_argument(
        "--criterion",
        default="mean",
        help="mean: the mean sb/hand over the fixed opponents (default); worst-low: their worst CI low bound",
    )
    add_progress_option(p)
    p.set_defaults(func=cmd_train_select)

    p = trainers.add_parser("ladder", help="snapshot ladder of a run", description=cmd_train_ladder.__doc__)
    p.add_argument("run", help="the folder of a `pokerlab train td` run with stage-2 snapshots")
    p.add_argument("--deals", type=int_in(1, 10**8, "deals"), default=1000, help="duplicate deals per pair")
    p.add_argument("--seed", type=seed_arg, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument("--out", default=None, help="the results folder (default RUN/ladder)")
    add_progress_option(p)
    p.set_defaults(func=cmd_train_ladder)

    p = trainers.add_parser("exploit", help="exploitability proxy", description=cmd_train_exploit.__doc__)
    p.add_argument("checkpoint", help="the frozen player: a run folder or its checkpoint.npz")
    p.add_argument("--hands", type=int_in(20, 10**10, "hands"), required=True, help="the learner's hands")
    p.add_argument("--versions", default="greedy,mixed", help="greedy, mixed, average (default greedy,mixed)")
    p.add_argument("--epsilon", type=float, default=0.1, help="random-action share of 'mixed' (default 0.1)")
    p.add_argument("--deals", type=int_in(1, 10**8, "deals"), default=1000, help="duplicate deals at the end")
    p.add_argument("--seed", type=seed_arg, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument("--out", required=True, help="the results folder")
    add_progress_option(p)
    p.set_defaults(func=cmd_train_exploit)

    p = trainers.add_parser(
        "switch", help="adaptation to a switching opponent", description=cmd_train_switch.__doc__
    )
    p.add_argument("runs", nargs="+", help="trained players: `pokerlab train td` run folders")
    p.add_argument("--first", default="tight-passive", help="its first style (default tight-passive)")
    p.add_argument("--second", default="loose-aggressive", help="its second style (default loose-aggressive)")
    p.add_argument(
        "--after", type=int_in(1, 10**8, "hands"), default=5000, help="hands before it switches (5000)"
    )
    p.add_argument("--sessions", type=int_in(1, 10**6, "sessions"), default=4, help="sessions (default 4)")
    p.add_argument("--window", type=int_in(1, 10**8, "hands"), default=500, help="window (default 500)")
    p.add_argument("--seed", type=seed_arg, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument("--out", required=True, help="the results folder")
    add_progress_option(p)
    p.set_defaults(func=cmd_train_switch)

    p = trainers.add_parser(
        "opponent-model", help="next-action prediction study", description=cmd_train_opponent_model.__doc__
    )
    p.add_argument("--opponents", required=True, help="agents to model, e.g. random,loose-aggressive")
    p.add_argument("--partner", default="random", help="who they play against (default random)")
    p.add_argument("--train-hands", type=int_in(1, 10**8, "hands"), default=3000, help="hands to learn from")
    p.add_argument("--test-hands", type=int_in(1, 10**8, "hands"), default=1000, help="held-out hands")
    p.add_argument("--seed", type=seed_arg, default=0, help="random seed, an integer >= 0 (default 0)")
    p.add_argument("--out", required=True, help="the results folder")
    p.set_defaults(func=cmd_train_opponent_model)
