"""The results folder of an ACPC client: every hand it finished, in our usual folder (`arena.output`).

The client knows the seats only as the dealer's lines and our seat comment tell them: the columns are the
lasting seats, ours named after our agent and the others ``seat-<k>``; each hand's row holds the seat at
each position and every seat's net chips (the betting is public, so every net is known), and hands.sqlite
its history with the cards this seat saw (the others' unknown unless shown down). Hands are written in
blocks of `BLOCK` and at the end, whatever ends the connection (the dealer closing, a broken connection),
so a folder always holds every hand finished before the last block; summary.json and bankroll.png come
when the client stops.
"""

from __future__ import annotations

from pathlib import Path

from pokerlab.arena.match import MatchResult
from pokerlab.arena.output import ResultsWriter, run_meta
from pokerlab.arena.session import HandOutcome
from pokerlab.arena.store import HandEncoder
from pokerlab.engine import GameConfig, HandState
from pokerlab.errors import ConfigError

#: Hands kept before they are written (a block commits once to SQLite and flushes hands.csv).
BLOCK = 100


class ClientResults:
    """Collects the finished hands of one client connection and writes them to ``out``."""

    def __init__(self, out: str | Path, name: str, config: GameConfig, seed: int) -> None:
        self.out, self.name, self.config, self.seed = Path(out), name, config, seed
        self.writer: ResultsWriter | None = None
        self.labels: list[str] = []
        self.pending: list[HandOutcome] = []
        self.rows: list[tuple[int, int, tuple[int, ...]]] = []
        self.encoder = HandEncoder()
        if (self.out / "config.json").exists():  # before any hand is played, as `ResultsWriter` would
            raise ConfigError(f"results folder {str(out)!r} already holds a run; choose another folder")

    def _open(self, players: int, ours: int) -> None:
        self.labels = [self.name if s == ours else f"seat-{s}" for s in range(players)]
        meta = run_meta(self.labels, self.config, self.seed, False, 0, BLOCK)
        meta["deals"] = meta["hands"] = None  # the dealer decides how many
        self.writer = ResultsWriter(self.out, self.labels, meta)

    def add(
        self,
        state: HandState,
        values: list[float],
        hand: int,
        session: int,
        position: int,
        seats: tuple[int, ...],
    ) -> bool:
        """Keep a finished hand (``seats``: the lasting seat at each position, ours at ``position``; its nets
        are ``values``, each position's as the reference counts it, `reference_values`: a whole number of
        chips, or the fraction of a tie split unevenly); False for a hand of another number of players than
        the first (the folder's columns are fixed)."""
        if self.writer is None:
            self._open(state.n, seats[position])
        elif state.n != len(self.labels):
            return False
        nets: list[float] = [0] * state.n
        for q, s in enumerate(seats):
            nets[s] = int(values[q]) if values[q].is_integer() else values[q]
        names = tuple(self.labels[s] for s in seats)
        stacks = tuple([self.config.starting_stack()] * state.n)
        self.pending.append(
            HandOutcome(hand, hand, session, seats, tuple(nets), self.encoder.encode(state, stacks, names))
        )
        self.rows.append((hand, hand, tuple(nets)))
        if len(self.pending) >= BLOCK:
            self.flush()
        return True

    def flush(self) -> None:
        if self.pending and self.writer is not None:
            self.writer.add(self.pending)
            self.pending = []

    def close(self) -> None:
        """Write what is left, then summary.json and bankroll.png (nothing when no hand finished)."""
        if self.writer is None:
            return
        self.flush()
        self.writer.close()
        rows = sorted(self.rows)
        n = len(self.labels)
        result = MatchResult.of_rows(
            self.labels, self.config, self.seed, False, rows, [0] * n, self.out, [], len(rows)
        )
        self.writer.finish(result)
