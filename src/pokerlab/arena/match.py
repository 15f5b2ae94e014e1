"""Matches: agents at one table for many hands, ordinary (button rotation) or duplicate, on local cores.

Reproducibility: the cards of deal d come from the seed sequence (seed, 0, d), whoever plays them. A match
is cut into fixed blocks of hands (``block``, independent of the number of workers); each agent is reset
at the start of every block with a generator seeded from (seed, 1, block, agent). Blocks are the unit of
parallel work, so a match gives identical results for any number of workers. With real stacks each block
is a session starting from the configured stacks, busted players sitting out until it ends; duplicate
hands always start from the configured stacks, so that the replays of a deal are comparable.

An agent that raises an exception is logged and recorded as folding (checking when that is free), and the
match goes on; an agent that returns an illegal action stops the match with `IllegalAction` naming the
legal ones (results written so far stay on disk).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from tqdm import tqdm

from pokerlab.agents import Agent, make_agent
from pokerlab.arena.seating import duplicate_positions, ring_positions
from pokerlab.arena.stats import AgentResult, summarize
from pokerlab.engine import CALL, FOLD, GameConfig, HandRecord, HandState, record_of, seat_view
from pokerlab.errors import ConfigError, IllegalAction

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class HandOutcome:
    """One played hand: its number, deal, the agent in each position, each agent's net and the record."""

    hand: int
    deal: int
    positions: tuple[int, ...]
    nets: tuple[int, ...]
    record: HandRecord | None


@dataclass(frozen=True)
class _Job:
    agents: list[Agent]
    labels: list[str]
    config: GameConfig
    seed: int
    duplicate: bool
    block: int
    first_deal: int
    deals: int
    records: bool


@dataclass
class MatchResult:
    """A finished match: per-hand nets (hands x agents, chips), per-agent results and where it was saved."""

    labels: list[str]
    config: GameConfig
    seed: int
    duplicate: bool
    nets: np.ndarray
    deal_of_hand: np.ndarray
    faults: list[int]
    results: list[AgentResult] = field(default_factory=list)
    out: Path | None = None

    @property
    def hands(self) -> int:
        """Hands played."""
        return int(self.nets.shape[0])

    def to_json(self) -> dict:
        """{"hands", "deals", "duplicate", "seed", "results": [...], "out"} (the CLI's --json)."""
        return {
            "hands": self.hands,
            "deals": int(len(np.unique(self.deal_of_hand))),
            "duplicate": self.duplicate,
            "seed": self.seed,
            "results": [r.to_json() for r in self.results],
            "out": str(self.out) if self.out else None,
        }


def deal_cards(seed: int, deal: int, players: int) -> list[int]:
    """The 2 * players hole cards and 5 board cards of deal `deal` (seed sequence (seed, 0, deal))."""
    rng = np.random.default_rng([seed, 0, deal])
    return rng.permutation(52)[: 2 * players + 5].tolist()


def play_hand(
    agents: Sequence[Agent],
    state: HandState,
    seats: Sequence[int],
    faults: list[int],
    labels: Sequence[str] = (),
) -> HandState:
    """Play `state` to its end, asking ``agents[seats[position]]``; tell every agent the result."""
    seats = tuple(seats)
    while not state.is_over:
        p = state.actor
        j = seats[p]
        view = seat_view(state, p, seats)
        try:
            action = agents[j].act(view)
        except Exception as exc:  # noqa: BLE001 - any failure of an agent's own code counts as a fold
            faults[j] += 1
            action = CALL if view.to_call == 0 else FOLD
            log.warning(
                "agent %s raised %r; recorded as %s",
                labels[j] if labels else j,
                exc,
                "a check" if action == CALL else "a fold",
            )
        try:
            state.act(action)
        except IllegalAction as exc:
            raise IllegalAction(f"agent {labels[j] if labels else j}: {exc}") from None
    nets = tuple(state.nets)
    for p, j in enumerate(seats):
        try:
            agents[j].hand_over(seat_view(state, p, seats), nets)
        except Exception as exc:  # noqa: BLE001
            faults[j] += 1
            log.warning("agent %s raised %r when told the result", labels[j] if labels else j, exc)
    return state


def _run_block(job: _Job) -> tuple[list[HandOutcome], list[int]]:
    """Play one block of deals from fresh agents; the unit of parallel work."""
    agents, config, n = job.agents, job.config, len(job.agents)
    for j, agent in enumerate(agents):
        agent.reset(np.random.default_rng([job.seed, 1, job.block, j]))
    faults = [0] * n
    outcomes: list[HandOutcome] = []
    if job.duplicate:
        replays = duplicate_positions(n)
        for d in range(job.first_deal, job.first_deal + job.deals):
            cards = deal_cards(job.seed, d, n)
            for k, positions in enumerate(replays):
                seats = [0] * n
                for j, p in enumerate(positions):
                    seats[p] = j
                stacks = [config.starting_stack()] * n
                state = play_hand(
                    agents,
                    HandState(config, cards[: 2 * n], cards[2 * n :], stacks),
                    seats,
                    faults,
                    job.labels,
                )
                nets = tuple(state.nets[p] for p in positions)
                record = record_of(state, stacks, [job.labels[j] for j in seats]) if job.records else None
                outcomes.append(HandOutcome(d * n + k, d, tuple(seats), nets, record))
        return outcomes, faults
    chips = [config.starting_stack()] * n
    for d in range(job.first_deal, job.first_deal + job.deals):
        order = ring_positions([s for s in range(n) if chips[s] > 0], d % n, n)
        if len(order) < 2:
            break
        m = len(order)
        cards = deal_cards(job.seed, d, m)
        stacks = [chips[s] for s in order]
        state = play_hand(
            agents, HandState(config, cards[: 2 * m], cards[2 * m :], stacks), order, faults, job.labels
        )
        nets = [0] * n
        for p, s in enumerate(order):
            nets[s] = state.nets[p]
            if not config.unlimited:
                chips[s] += state.nets[p]
        record = record_of(state, stacks, [job.labels[s] for s in order]) if job.records else None
        outcomes.append(HandOutcome(d, d, tuple(order), tuple(nets), record))
    return outcomes, faults


def _labels(agents: Sequence[Agent]) -> list[str]:
    """Display names: the agent's name, numbered where several agents share it (random#1, random#2)."""
    names = [a.name for a in agents]
    counts = {name: names.count(name) for name in names}
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(f"{name}#{seen[name]}" if counts[name] > 1 else name)
    return out


def play_match(
    agents: Sequence[Agent | str],
    hands: int,
    config: GameConfig | None = None,
    seed: int = 0,
    *,
    duplicate: bool = False,
    workers: int = 1,
    out: str | Path | None = None,
    block: int = 1000,
    progress: bool = False,
) -> MatchResult:
    """Play a match; agents (instances or registered names) sit in seats 0..n-1 in the order given.

    ``hands`` is the number of hands, or of deals when ``duplicate`` (each deal is then played once per
    agent, see `pokerlab.arena.seating`). ``out`` names a results folder (config, per-hand results,
    hand histories, summary.json, bankroll plot), written block by block. ``workers`` > 1 plays blocks in
    parallel processes (agents must be picklable); results do not depend on it.
    """
    config = config or GameConfig()
    players = [make_agent(a) if isinstance(a, str) else a for a in agents]
    n = len(players)
    if not 2 <= n <= 10:
        raise ConfigError(f"a match needs 2 to 10 agents, got {n}")
    for name, value in (("hands", hands), ("block", block), ("workers", workers)):
        if not isinstance(value, int) or value < 1:
            raise ConfigError(f"{name} must be a positive integer, got {value!r}")
    labels = _labels(players)
    per_block = max(1, block // n) if duplicate else block
    jobs = [
        _Job(
            players,
            labels,
            config,
            seed,
            duplicate,
            b,
            start,
            min(per_block, hands - start),
            records=out is not None,
        )
        for b, start in enumerate(range(0, hands, per_block))
    ]
    from pokerlab.arena.output import ResultsWriter  # the results folder (plots, SQLite) only when asked

    writer = ResultsWriter(Path(out), labels, config, seed, duplicate, hands, block) if out else None
    all_nets: list[tuple[int, ...]] = []
    deal_of_hand: list[int] = []
    faults = [0] * n
    executor = ProcessPoolExecutor(workers) if workers > 1 and len(jobs) > 1 else None
    try:
        blocks = executor.map(_run_block, jobs) if executor else map(_run_block, jobs)
        with tqdm(total=hands * (n if duplicate else 1), disable=not progress, unit="hand") as bar:
            for outcomes, block_faults in blocks:
                all_nets += [o.nets for o in outcomes]
                deal_of_hand += [o.deal for o in outcomes]
                faults = [a + b for a, b in zip(faults, block_faults, strict=True)]
                if writer:
                    writer.add(outcomes)
                bar.update(len(outcomes))
    finally:
        if executor:
            executor.shutdown(cancel_futures=True)
        if writer:
            writer.close()
    nets = np.array(all_nets, dtype=np.int64).reshape(len(all_nets), n)
    deals = np.array(deal_of_hand, dtype=np.int64)
    result = MatchResult(
        labels,
        config,
        seed,
        duplicate,
        nets,
        deals,
        faults,
        summarize(labels, nets, deals, config.small_bet, config.big_blind, faults),
        Path(out) if out else None,
    )
    if writer:
        writer.finish(result)
    return result


def duplicate_tournament(
    agents: Sequence[Agent | str], deals: int, config: GameConfig | None = None, seed: int = 0, **options
) -> MatchResult:
    """A duplicate match (Papp 1998; seed 000 §4): every deal replayed once per agent, seats permuted."""
    return play_match(agents, deals, config, seed, duplicate=True, **options)
