"""The ``pokerlab history`` commands: replay, export and show hand histories (PHH files, hand stores)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pokerlab.errors import ConfigError


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


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """history replay, export and show."""
    p = subparsers.add_parser("history", help="hand histories", description="Work with hand histories.")
    hist = p.add_subparsers(dest="history_command", required=True, parser_class=type(p))
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
