"""Sessions: runs of hands in which every agent keeps its memory.

A session seats fresh agents (copies of the match's agents), seeds each from the seed sequence
(seed, 1, session, seat) and plays its deals in order, the agents learning as they go. The cards of deal
d come from the seed sequence (seed, 0, d), whoever plays them.

* An ordinary session plays consecutive deals with the button moving one seat per deal. With real
  stacks, players who go broke sit out; the session ends early, and says why, when fewer than two have
  chips. ``rebuy`` starts a new epoch every ``rebuy`` hands, or at once when fewer than two players have
  chips, restoring every stack to the configured one (Barone & While 2000's epochs).
* A duplicate session plays every deal of the match in one seat rotation of `duplicate_positions`, from
  the configured stacks; a duplicate match has one session per rotation, so no agent sees a deal twice.

`run_session` is a generator of typed events (`SessionEvent`), so the same code runs in this process or in a
worker process that forwards the events to the match: `Progress` at least twice a second, a `Block` of
`HandOutcome`s every ``block`` hands (the unit written to disk), and a final `Done` with the
`SessionReport`. Its consumers (`arena.match`, the ACPC dealer) read them by type.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from pokerlab.arena.dealing import Dealer
from pokerlab.arena.players import AgentSpec, IsolatedPlayer, LocalPlayer, bot_folder
from pokerlab.arena.policy_record import encode
from pokerlab.arena.seating import duplicate_positions, ring_positions
from pokerlab.arena.store import HandEncoder
from pokerlab.arena.table import MAX_FAULTS, DecisionLog, Table
from pokerlab.engine import GameConfig, HandState

#: Seconds between progress events.
PROGRESS_EVERY = 0.4


class HandOutcome(NamedTuple):
    """One played hand: its number, deal and session, the agent (seat) at each position, each agent's net
    chips (by seat), and, where asked for, its history as the hand store's row (`HandEncoder`), the
    decision log and the record of its all-holdings answers (`pokerlab.arena.policy_record`; None for a
    hand without one)."""

    hand: int
    deal: int
    session: int
    positions: tuple[int, ...]
    nets: tuple[int, ...]
    history: tuple | None = None
    decisions: tuple[DecisionLog, ...] | None = None
    policies: bytes | None = None


@dataclass(frozen=True, slots=True)
class EndedEarly:
    """A ring session that cannot go on (fewer than two players with chips): why, in one line."""

    reason: str


@dataclass(frozen=True)
class SessionReport:
    """How a session went: hands asked and played, why it ended, faults per seat."""

    session: int
    hands_asked: int
    hands_played: int
    ended: str
    faults: tuple[int, ...]

    def to_json(self) -> dict:
        return {
            "session": self.session,
            "hands_asked": self.hands_asked,
            "hands_played": self.hands_played,
            "ended": self.ended,
            "faults": list(self.faults),
        }


@dataclass(frozen=True, slots=True)
class Progress:
    """Hands the session has played so far (at least twice a second)."""

    hands: int


@dataclass(frozen=True, slots=True)
class Pause:
    """A point where a driver may let other sessions play (`run_session`'s ``pace``); never forwarded."""


@dataclass(frozen=True, slots=True)
class Block:
    """The next hands of the session (the unit written to disk) and each seat's faults in them."""

    outcomes: list[HandOutcome]
    faults: list[int]


@dataclass(frozen=True, slots=True)
class Done:
    """The session is over: how it went."""

    report: SessionReport


#: What `run_session` yields.
SessionEvent = Progress | Pause | Block | Done


@dataclass(frozen=True)
class SessionJob:
    """Everything a session needs; picklable, so that it can run in a worker process.

    ``rotation`` is the duplicate seat rotation (None for an ordinary session); the session plays deals
    ``first_deal`` .. ``first_deal + deals - 1``. ``sandbox`` ("required", "best-effort") and ``hidden``
    (paths no bot may see) are for the isolated seats; ``max_faults`` and ``tolerate_faults`` for the table.
    """

    session: int
    specs: tuple[AgentSpec, ...]
    labels: tuple[str, ...]
    config: GameConfig
    seed: int
    rotation: int | None
    first_deal: int
    deals: int
    block: int
    records: bool = False
    log_decisions: bool = False
    isolate: tuple[bool, ...] = ()
    action_timeout: float | None = None
    rebuy: int | None = None
    max_faults: int = MAX_FAULTS
    tolerate_faults: bool = False
    sandbox: str = "required"
    hidden: tuple[str, ...] = ()
    log_policies: bool = False


def make_table(job: SessionJob) -> Table:
    """The table of a job's players: isolated processes where asked, local agents elsewhere."""
    isolate = job.isolate or (False,) * len(job.specs)
    players = []
    try:
        folders = {bot_folder(spec.name) for spec in job.specs} - {None}
        for spec, isolated in zip(job.specs, isolate, strict=True):
            own = bot_folder(spec.name) or ""
            others = (f for f in folders if not (own + "/").startswith(f + "/"))  # not its own, nor above
            hidden = (*job.hidden, *others)
            players.append(
                IsolatedPlayer(spec, job.config, sandbox_mode=job.sandbox, hidden=hidden)
                if isolated
                else LocalPlayer(spec)
            )
    except BaseException:
        for player in players:
            player.close()
        raise
    return Table(
        players,
        job.config,
        job.labels,
        job.action_timeout,
        job.log_decisions,
        max_faults=job.max_faults,
        tolerate_faults=job.tolerate_faults,
        log_policies=job.log_policies,
    )


def run_session(
    job: SessionJob, table: Table | None = None, agents=None, pace: int | None = None
) -> Iterator[SessionEvent]:
    """Play one session, yielding `Progress`, `Block`s of `HandOutcome`s and the final `Done`.

    `table` may be reused across sessions (its isolated processes stay up); `agents` gives the agent
    instances to play (default: fresh copies from the specs). With `pace`, a `Pause` follows every
    `pace` hands: where a driver may let other sessions play (it forwards nothing of it).
    """
    own_table = table is None
    table = table or make_table(job)
    try:
        n = len(job.specs)
        table.new_session([[job.seed, 1, job.session, j] for j in range(n)], agents)
        plays = _duplicate_hands(job, table) if job.rotation is not None else _ring_hands(job, table)
        outcomes: list[HandOutcome] = []
        block_faults = [0] * n
        played, last = 0, time.monotonic()
        ended = "completed"
        for outcome in plays:
            if type(outcome) is EndedEarly:
                ended = outcome.reason
                break
            outcomes.append(outcome)
            played += 1
            if pace and played % pace == 0:
                yield Pause()
            if len(outcomes) >= job.block:
                faults = [a - b for a, b in zip(table.faults, block_faults, strict=True)]
                block_faults = list(table.faults)
                yield Block(outcomes, faults)
                outcomes = []
            if time.monotonic() - last > PROGRESS_EVERY:  # a clock read per hand: ~50 ns
                last = time.monotonic()
                yield Progress(played)
        table.end_session()
        faults = [a - b for a, b in zip(table.faults, block_faults, strict=True)]
        yield Block(outcomes, faults)
        yield Done(SessionReport(job.session, job.deals, played, ended, tuple(table.faults)))
    finally:
        if own_table:
            table.close()


def _policies(hand: int, job: SessionJob, table: Table) -> bytes | None:
    """The hand's record of all-holdings answers, where it has any."""
    return encode(hand, job.session, table.policies) if table.policies else None


def _duplicate_hands(job: SessionJob, table: Table) -> Iterator[HandOutcome]:
    config, n, k = job.config, len(job.specs), job.rotation
    positions = duplicate_positions(n)[k]
    seats = [0] * n
    for j, p in enumerate(positions):
        seats[p] = j
    labels = tuple([job.labels[j] for j in seats])
    stacks = (config.starting_stack(),) * n
    encoder = HandEncoder() if job.records else None
    dealer = Dealer(job.seed)
    for d in range(job.first_deal, job.first_deal + job.deals):
        cards = dealer.cards(d, n)
        state = table.play_hand(HandState(config, cards[: 2 * n], cards[2 * n :], stacks), seats)
        nets = state.nets
        yield HandOutcome(
            d * n + k,
            d,
            job.session,
            tuple(seats),
            tuple([nets[p] for p in positions]),
            encoder.encode(state, stacks, labels) if encoder else None,
            tuple(table.decisions) if job.log_decisions else None,
            _policies(d * n + k, job, table),
        )


def _ring_hands(job: SessionJob, table: Table) -> Iterator[HandOutcome | EndedEarly]:
    config, n = job.config, len(job.specs)
    start = config.starting_stack()
    chips = [start] * n
    unlimited = config.unlimited
    everyone = list(range(n))
    full_table = [tuple(ring_positions(everyone, button, n)) for button in range(n)]
    dealer = Dealer(job.seed)
    encoder = HandEncoder() if job.records else None
    since_rebuy = 0
    for i, d in enumerate(range(job.first_deal, job.first_deal + job.deals)):
        if unlimited:
            order = full_table[d % n]
        else:
            with_chips = [s for s in everyone if chips[s] > 0]
            if job.rebuy and (since_rebuy == job.rebuy or len(with_chips) < 2):
                chips, with_chips, since_rebuy = [start] * n, everyone, 0  # a new epoch
            since_rebuy += 1
            order = ring_positions(with_chips, d % n, n)
        if len(order) < 2:
            left = ", ".join(job.labels[s] for s in order) or "nobody"
            yield EndedEarly(f"players broke after {i} of {job.deals} hands: only {left} has chips")
            return
        m = len(order)
        cards = dealer.cards(d, m)
        stacks = tuple([chips[s] for s in order])
        state = table.play_hand(HandState(config, cards[: 2 * m], cards[2 * m :], stacks, m), order)
        state_nets = state.nets
        nets = [0] * n
        for p, s in enumerate(order):
            nets[s] = state_nets[p]
            if not unlimited:
                chips[s] += state_nets[p]
        yield HandOutcome(
            d,
            d,
            job.session,
            order if unlimited else tuple(order),
            tuple(nets),
            encoder.encode(state, stacks, tuple([job.labels[s] for s in order])) if encoder else None,
            tuple(table.decisions) if job.log_decisions else None,
            _policies(d, job, table),
        )
