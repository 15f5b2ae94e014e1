"""Barone & While's own command, ``pokerlab show-player`` (their experiments: ``pokerlab experiment``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pokerlab.commandline import (
    UsageError,
)


def cmd_show_player(args: argparse.Namespace) -> int:
    """Plot what an evolved Barone & While player does where: for each opponent segment, the average
    candidate of each population (rows: position, columns: bets to call) as P(fold), P(call), P(raise)
    against x, the probability of winning."""
    from pokerlab.programs.barone_while.agent import EvolvingAgent
    from pokerlab.programs.barone_while.plots import plot_controller
    from pokerlab.programs.barone_while.situation import STAGES

    player = EvolvingAgent.from_file(args.file)
    cube = player.cube
    segments = [args.segment] if args.segment else list(cube.segments)
    for segment in segments:
        if segment not in cube.segments:
            raise UsageError(f"no segment {segment!r} in {args.file}; it has {', '.join(cube.segments)}")
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


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """show-player."""
    p = subparsers.add_parser(
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
