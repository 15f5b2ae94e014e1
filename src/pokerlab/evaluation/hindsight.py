"""Reading the hindsight record of a results folder (hindsight.jsonl, written by `pokerlab match` after
each block of hands: see `pokerlab.arena.output`): every hand with every hole card, the deal's deck order,
the board, each action with the probabilities its agent gave, and the nets, each hand re-checked by replay.

A line torn by a killed run (the last one, without its newline) is left out: the hands before it stay
readable. A folder without the record, or a line that does not replay, gets one line saying what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pokerlab.engine import GameConfig, HandState
from pokerlab.errors import ConfigError, CorruptData, PokerlabError
from pokerlab.evaluation.stats import SeatEstimates

#: The file name in a results folder.
HINDSIGHT_FILE = "hindsight.jsonl"


@dataclass(frozen=True)
class HindsightHand:
    """One hand as the hindsight record keeps it (positions 0 = first left of the button; chips)."""

    hand: int
    deal: int
    session: int
    names: tuple[str, ...]
    stacks: tuple[int, ...]
    holes: tuple[int, ...]
    deck: tuple[int, ...]
    board: tuple[int, ...]
    actions: tuple[tuple[int, int, tuple[float, float, float] | None], ...]
    nets: tuple[int, ...]

    @property
    def players(self) -> int:
        return len(self.stacks)

    def start(self, config: GameConfig) -> HandState:
        """The hand's state before its first action."""
        return HandState(config, list(self.holes), list(self.board), list(self.stacks))


@dataclass(frozen=True)
class Hindsight:
    """A results folder's hindsight record: its seats (config.json order), game, kind and hands."""

    labels: list[str]
    config: GameConfig
    seed: int
    duplicate: bool
    hands: list[HindsightHand]


def read_hindsight(out: str | Path, needs: str = "this evaluation") -> Hindsight:
    """The hindsight record of results folder `out`; `ConfigError` (one line, naming what `needs` it) for
    a folder without one, `CorruptData` for a record that does not replay to its nets."""
    out = Path(out)
    try:
        meta = json.loads((out / "config.json").read_text())
        labels, seed, duplicate = list(meta["agents"]), int(meta["seed"]), bool(meta["duplicate"])
        config = GameConfig.from_dict(meta["game"])
    except FileNotFoundError:
        raise ConfigError(f"{str(out)!r} is not a results folder (no config.json)") from None
    except (OSError, ValueError, KeyError, TypeError, PokerlabError) as exc:
        raise CorruptData(f"{out / 'config.json'} is unreadable ({' '.join(str(exc).split())})") from None
    path = out / HINDSIGHT_FILE
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise ConfigError(
            f"{str(out)!r} has no {HINDSIGHT_FILE}: {needs} needs the hindsight record of every hand (hole "
            "cards, deck order, decisions) that `pokerlab match --out` writes"
        ) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    elif lines:
        lines.pop()  # torn by a kill: the hands before it stand
    hands = [_hand(path, number, line, config) for number, line in enumerate(lines, 1)]
    if not hands:
        raise ConfigError(f"{path} holds no hands to evaluate")
    return Hindsight(labels, config, seed, duplicate, hands)


def _hand(path: Path, number: int, line: str, config: GameConfig) -> HindsightHand:
    """Line `number` as a hand, replayed to check that its actions are legal and its nets right."""
    try:
        d = json.loads(line)
        hand = HindsightHand(
            hand=int(d["hand"]),
            deal=int(d["deal"]),
            session=int(d["session"]),
            names=tuple(str(x) for x in d["names"]),
            stacks=tuple(int(x) for x in d["stacks"]),
            holes=tuple(int(x) for x in d["holes"]),
            deck=tuple(int(x) for x in d["deck"]),
            board=tuple(int(x) for x in d["board"]),
            actions=tuple(
                (int(p), int(a), None if q is None else tuple(float(x) for x in q))
                for p, a, q in d["actions"]
            ),
            nets=tuple(int(x) for x in d["nets"]),
        )
        if sorted(hand.deck) != list(range(52)) or hand.deck[: len(hand.holes)] != hand.holes:
            raise ValueError("the deck order is not a deck starting with the hole cards")
        state = hand.start(config)
        for position, action, probabilities in hand.actions:
            if state.actor != position:
                raise ValueError(f"position {position} acted out of turn")
            if probabilities is not None and (len(probabilities) != 3 or abs(sum(probabilities) - 1) > 1e-6):
                raise ValueError(f"probabilities {list(probabilities)} are not a (fold, call, raise) triple")
            state.act(action)
        if not state.is_over or tuple(state.nets) != hand.nets:
            raise ValueError("its actions do not replay to its nets")
        return hand
    except (ValueError, KeyError, TypeError, IndexError, PokerlabError) as exc:
        raise CorruptData(f"{path}: line {number} is unreadable ({' '.join(str(exc).split())})") from None


def seat_estimates(record: Hindsight, estimate: Callable[[HindsightHand], np.ndarray]) -> SeatEstimates:
    """Every hand's raw nets and `estimate` (chips by position) by seat in config.json order, with the
    unit of each hand (its deal in a duplicate match, else the hand)."""
    seat_of = {label: j for j, label in enumerate(record.labels)}
    n = len(record.labels)
    raw, adjusted, units = np.zeros((len(record.hands), n)), np.zeros((len(record.hands), n)), []
    for k, hand in enumerate(record.hands):
        if not set(hand.names) <= seat_of.keys():
            raise CorruptData(f"hand {hand.hand} seats {list(hand.names)}, config.json {record.labels}")
        order = [seat_of[name] for name in hand.names]
        raw[k, order] = hand.nets
        adjusted[k, order] = estimate(hand)
        units.append(hand.deal if record.duplicate else hand.hand)
    config = record.config
    return SeatEstimates(
        record.labels, raw, adjusted, np.array(units), config.small_bet, config.big_blind, record.duplicate
    )
