"""Matches: agents at one table for many hands, ordinary (button rotation) or duplicate, on local cores.

A match is one or more sessions (`pokerlab.arena.session`); within a session every agent keeps its memory.

* An ordinary match is one session by default; ``sessions=k`` cuts its hands into k independent sessions
  with fresh agents, which may run in parallel.
* A duplicate match (Papp 1998 ch. 8; Billings et al. 1998 §5) has one session per seat rotation, each
  playing every deal with its own fresh agents, so that no agent ever meets a deal twice.

Sessions are the unit of parallel work: ``workers`` processes play them, or a Ray cluster
(``workers=Backend("ray", ...)``, `pokerlab.arena.backend`), and the results are identical for any number
of workers or nodes. Each session starts from a copy of the agents as passed; a match of one session in
this process plays the given agent instances themselves, so a learning agent comes back having learned.

``isolate`` runs agents in their own sandboxed processes (`pokerlab.arena.players.IsolatedPlayer`, a fresh
process every session): True for all named agents, False for none, None (default) for the outside bots
("module:Class", "file.py:Class") only, which are then never imported in this process. ``sandbox``
("required", the default, or "best-effort") says what to do where a layer of the sandbox is missing.
``pin`` (default: on where a seat is isolated) keeps a table and its isolated bots on one CPU (`pinned`):
they never compute at the same time, and a wake-up on the same CPU costs a fraction of one on another.
Agents passed as instances, and any agent with ``isolate=False``, are trusted code in this process.

Faults are loud: a seat's fault in its first hand of a session, or more than ``max_faults`` in a session,
stops the match with `BotFault` (one line; the traceback goes to faults.log in the results folder, beside
what was written so far); ``tolerate_faults`` checks or folds for the faulty player and goes on.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import queue as queue_module
import threading
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from pokerlab.agents import Agent
from pokerlab.agents.registry import is_external, split_label
from pokerlab.arena.backend import Backend, Update, as_backend, farm, parallel
from pokerlab.arena.output import MatchResult, ResultsWriter, run_meta
from pokerlab.arena.players import AgentSpec
from pokerlab.arena.sandbox import MODES as SANDBOX_MODES
from pokerlab.arena.seating import duplicate_positions
from pokerlab.arena.session import (
    Block,
    Done,
    Pause,
    Progress,
    SessionJob,
    SessionReport,
    make_table,
    run_session,
)
from pokerlab.arena.table import MAX_FAULTS
from pokerlab.engine import GameConfig
from pokerlab.errors import BotFault, ConfigError, PokerlabError

log = logging.getLogger(__name__)


def unique_labels(names: Sequence[str], sep: str = "#", number_first: bool = True) -> list[str]:
    """Display names: the agent's name, numbered where several agents share it (random#1, random#2;
    the ACPC dealer uses sep="-": call-1, call-2; the web table leaves the first bare: loki1, loki1 #2)."""
    counts = {name: names.count(name) for name in names}
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        numbered = counts[name] > 1 and (number_first or seen[name] > 1)
        out.append(f"{name}{sep}{seen[name]}" if numbered else name)
    return out


def seat_names(seats: Sequence[Agent | str]) -> tuple[list[str], list[Agent | str]]:
    """Each seat's name before numbering (`unique_labels`) and its agent without the label: the label of a
    seat "LABEL=SPEC" (`pokerlab.agents.registry.split_label`), else an outside bot's class ("bots.py:MyBot"
    -> "MyBot"), a registered agent's name or an instance's ``name``. Seats may share a name only where they
    play the same agent (`ConfigError` where a label would name two: "me=random,me=call", "call=random,call"
    is refused at the registry)."""
    names: list[str] = []
    agents: list[Agent | str] = []
    labelled: set[str] = set()
    for seat in seats:
        if isinstance(seat, str):
            label, spec = split_label(seat)
            if label is not None:
                labelled.add(label)
            names.append(label or (spec.rpartition(":")[2] if is_external(spec) else spec))
            agents.append(spec)
        else:  # an instance (anything else is refused with the seats' checks)
            names.append(seat.name if isinstance(seat, Agent) else repr(seat))
            agents.append(seat)
    for name in labelled:
        played = {a if isinstance(a, str) else id(a) for n, a in zip(names, agents, strict=True) if n == name}
        if len(played) > 1:
            raise ConfigError(f"label {name!r} names two different agents: give each its own label")
    return names, agents


def check_seconds(name: str, value: float | None) -> None:
    """`ConfigError` unless `value` (a timeout) is None or a positive number of seconds."""
    if value is not None and not value > 0:
        raise ConfigError(f"{name} must be a positive number of seconds, got {value!r}")


def _positive(name: str, value, allow_none: bool = False) -> None:
    if allow_none and value is None:
        return
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ConfigError(f"{name} must be a positive integer, got {value!r}")


class Tally:
    """What a match keeps of its sessions' events (`Block`, `Done`): (hand, deal, nets by seat) rows, each
    seat's faults and the session reports, each block written to the results folder (``writer``) as it
    comes. `play_match` and the ACPC dealer keep theirs so."""

    def __init__(self, seats: int, writer=None) -> None:
        self.rows: list[tuple[int, int, tuple[int, ...]]] = []
        self.faults = [0] * seats
        self.reports: list[SessionReport] = []
        self.writer = writer

    def take(self, event) -> None:
        """Keep what `event` tells (progress and pauses tell nothing to keep)."""
        match event:
            case Block(outcomes=outcomes, faults=faults):
                self.rows += [(o.hand, o.deal, o.nets) for o in outcomes]
                self.faults = [a + b for a, b in zip(self.faults, faults, strict=True)]
                if self.writer:
                    self.writer.add(outcomes)
            case Done(report=report):
                self.reports.append(report)
                if self.writer:
                    self.writer.session_done(report.to_json())


def check_match(players: int, hands: int, duplicate: bool, **timeouts: float | None) -> None:
    """The checks of every match before it plays (`play_match`, the ACPC dealer): 2 to 10 players, a
    positive number of hands (of deals when ``duplicate``), each timeout None or positive seconds."""
    if not 2 <= players <= 10:
        raise ConfigError(f"a match needs 2 to 10 agents, got {players}")
    _positive("deals" if duplicate else "hands", hands)  # a duplicate match plays each deal once per agent
    for name, seconds in timeouts.items():
        check_seconds(name, seconds)


def plan_sessions(
    specs: Sequence[AgentSpec],
    labels: Sequence[str],
    hands: int,
    config: GameConfig,
    seed: int,
    *,
    duplicate: bool,
    sessions: int,
    block: int,
    records: bool,
    log_decisions: bool,
    isolate: Sequence[bool],
    action_timeout: float | None,
    rebuy: int | None,
    **table,
) -> list[SessionJob]:
    """The sessions of a match: one per seat rotation (duplicate), else `sessions` even slices of hands."""
    common = dict(
        specs=tuple(specs),
        labels=tuple(labels),
        config=config,
        seed=seed,
        block=block,
        records=records,
        log_decisions=log_decisions,
        isolate=tuple(isolate),
        action_timeout=action_timeout,
        rebuy=rebuy,
        **table,
    )
    if duplicate:
        return [
            SessionJob(session=k, rotation=k, first_deal=0, deals=hands, **common)
            for k in range(len(duplicate_positions(len(specs))))
        ]
    cuts = [hands * s // sessions for s in range(sessions + 1)]
    return [
        SessionJob(session=s, rotation=None, first_deal=cuts[s], deals=cuts[s + 1] - cuts[s], **common)
        for s in range(sessions)
        if cuts[s + 1] > cuts[s]
    ]


def play_match(
    agents: Sequence[Agent | str],
    hands: int,
    config: GameConfig | None = None,
    seed: int = 0,
    *,
    duplicate: bool = False,
    sessions: int = 1,
    workers: int | Backend = 1,
    out: str | Path | None = None,
    block: int = 1000,
    progress: bool = False,
    isolate: bool | None = None,
    action_timeout: float | None = None,
    rebuy: int | None = None,
    log_decisions: bool = False,
    log_policies: bool = False,
    resume: bool = False,
    max_faults: int = MAX_FAULTS,
    tolerate_faults: bool = False,
    sandbox: str = "required",
    pin: bool | None = None,
) -> MatchResult:
    """Play a match; agents (instances, registered names or "module:Class" specs, a spec perhaps labelled
    "LABEL=SPEC" as in `seat_names`) sit in seats 0..n-1.

    ``hands`` is the number of hands, or of deals when ``duplicate`` (each deal is then played once per
    agent, see `pokerlab.arena.seating`). ``out`` names a results folder (config, per-hand results, hand
    histories, decision logs with ``log_decisions``, summary.json, bankroll plot), written block by block
    (``block`` hands). ``action_timeout`` (seconds) checks or folds for a player who answers late;
    ``rebuy`` restores the stacks every so many hands of a session (real stacks only); ``isolate``,
    ``sandbox``, ``max_faults``, ``tolerate_faults`` and ``pin``: see the module doc. ``log_policies``
    asks every in-process agent that answers the all-holdings policy query at each of its decisions
    (once it has acted, on the same view) for its answer, kept in ``out``'s policies.bin
    (`pokerlab.arena.policy_record`); asking changes no play.

    ``resume`` continues a killed run in ``out`` (started with the same arguments, else `ConfigError`):
    sessions it completed are read back, every other session is played again from its first hand, so
    hands.csv and summary.json come out byte-identical to an uninterrupted run's. Without a run in
    ``out`` it starts one. Pass agents by name or as fresh instances: an instance that played the killed
    run in this process remembers what it learned there.
    """
    config = config or GameConfig()
    names, agents = seat_names(agents)
    n = len(agents)
    check_match(n, hands, duplicate, action_timeout=action_timeout)
    for name, value in (("block", block), ("sessions", sessions)):
        _positive(name, value)
    backend = as_backend(workers)
    _positive("rebuy", rebuy, allow_none=True)
    if rebuy is not None and config.unlimited:
        raise ConfigError("rebuy restores real stacks: give the game a stack (GameConfig(stack=...))")
    if duplicate and sessions != 1:
        raise ConfigError("a duplicate match has one session per seat rotation; leave sessions at 1")
    if not isinstance(max_faults, int) or isinstance(max_faults, bool) or max_faults < 0:
        raise ConfigError(f"max_faults must be a whole number of faults, 0 or more, got {max_faults!r}")
    if sandbox not in SANDBOX_MODES:
        raise ConfigError(f"sandbox must be one of {', '.join(SANDBOX_MODES)}, got {sandbox!r}")
    # outside bots ("module:Class") are isolated by default; instances passed in are the caller's own
    isolated = [(isinstance(a, str) and is_external(a)) if isolate is None else bool(isolate) for a in agents]
    for a, iso in zip(agents, isolated, strict=True):
        if iso and not isinstance(a, str):
            raise ConfigError(
                f"agent {a.name!r} is an instance (trusted code, played in this process): to isolate an "
                "agent, give it by name or as module:Class / file.py:Class"
            )
    copies = duplicate or sessions > 1 or any(isolated)  # otherwise the instances play themselves
    specs = [AgentSpec.of(a, copies) for a in agents]
    labels = unique_labels(names)
    jobs = plan_sessions(
        specs,
        labels,
        hands,
        config,
        seed,
        duplicate=duplicate,
        sessions=sessions,
        block=block,
        records=out is not None,
        log_decisions=log_decisions,
        isolate=isolated,
        action_timeout=action_timeout,
        rebuy=rebuy,
        max_faults=max_faults,
        tolerate_faults=tolerate_faults,
        sandbox=sandbox,
        hidden=(str(Path(out).resolve()),) if out else (),
        log_policies=log_policies and out is not None,
    )
    if resume and out is None:
        raise ConfigError("resume continues a run in its results folder: give out")
    writer = None
    if out:
        meta = run_meta(
            labels, config, seed, duplicate, hands, block, len(jobs), rebuy, log_decisions, log_policies
        )
        writer = ResultsWriter(Path(out), labels, meta, resume, hindsight=True)
    tally = Tally(n, writer)
    total = hands * (n if duplicate else 1)
    # the given instances play themselves in a single in-process session (so a learner keeps its learning)
    direct = [a if isinstance(a, Agent) else None for a in agents] if len(jobs) == 1 else None
    if writer and writer.completed:  # a resumed run: what its complete sessions played
        tally.rows = [(int(r[0]), int(r[1]), tuple(int(v) for v in r[4:])) for r in writer.kept_rows]
        for report in writer.completed.values():
            tally.reports.append(SessionReport(**{**report, "faults": tuple(report["faults"])}))
            tally.faults = [a + b for a, b in zip(tally.faults, report["faults"], strict=True)]
        jobs = [job for job in jobs if job.session not in writer.completed]
    events = _events(jobs, backend, direct, any(isolated) if pin is None else bool(pin), progress)
    try:
        with tqdm(
            total=total, initial=len(tally.rows), disable=not progress, unit="hand", smoothing=0.1
        ) as bar:
            done_before: dict[int, int] = {}
            for session, event in events:
                tally.take(event)
                match event:
                    case Progress(hands=played):
                        bar.update(played - done_before.get(session, 0))
                        done_before[session] = played
                    case Done(report=report):
                        bar.update(report.hands_played - done_before.get(session, 0))
                        done_before[session] = report.hands_played
                        if report.ended != "completed":
                            log.warning("session %d: %s", report.session, report.ended)
    except BotFault as exc:
        if writer:
            (Path(out) / "faults.log").write_text(f"{exc}\n\n{exc.details}\n")
        raise
    finally:
        events.close()  # the tables, their processes and the CPU pin end now, not at garbage collection
        if writer:
            writer.close()
    rows, reports, faults = sorted(tally.rows), sorted(tally.reports, key=lambda r: r.session), tally.faults
    result = MatchResult.of_rows(
        labels, config, seed, duplicate, rows, faults, Path(out) if out else None, reports, total
    )
    if writer:
        writer.finish(result)
    return result


def duplicate_tournament(
    agents: Sequence[Agent | str], deals: int, config: GameConfig | None = None, seed: int = 0, **options
) -> MatchResult:
    """A duplicate match (Papp 1998; Billings et al. 1998 §5): every deal replayed once per agent, seats
    permuted, each seat rotation a session of its own."""
    return play_match(agents, deals, config, seed, duplicate=True, **options)


# -- running sessions -----------------------------------------------------------------------------------


def _events(jobs: list[SessionJob], backend: Backend, direct, pin: bool = False, progress: bool = False):
    """(session, event) pairs from every job: in this process, in up to ``backend.workers`` local worker
    processes (streaming their events), or as Ray tasks (`session_events`, a session's events at once,
    after its `Progress` as it plays where `progress` is asked); with `pin`, each local table and its bots
    on one CPU (`pinned`)."""
    if not jobs:
        return
    if not parallel(backend, len(jobs)):
        yield from _in_process(jobs, direct, _current_cpu() if pin else None)
    elif backend.kind == "ray":
        for index, told in farm(session_events, [(job,) for job in jobs], backend, progress):
            session = jobs[index].session
            if type(told) is Update:  # hands played so far
                yield session, Progress(told.value)
                continue
            for event in told:  # the session's events, all at once
                yield session, event
    else:
        cpus = sorted(os.sched_getaffinity(0)) if pin else []
        yield from _parallel_events(jobs, backend.workers, cpus)


def session_events(job: SessionJob, tell=None) -> list:
    """The events of one session played in this process, all at once (a Ray task's result: a session
    played again after its node died reaches the match once), less its progress and pauses; `tell`, where
    given, takes the hands played as they go (each `Progress`)."""
    events = []
    for _, event in _in_process([job]):
        if type(event) is Progress and tell is not None:
            tell(event.hands)
        elif type(event) not in (Progress, Pause):
            events.append(event)
    return events


def _current_cpu() -> int | None:
    """The CPU this thread last ran on (Linux), so that matches run side by side spread over the CPUs."""
    try:
        with open("/proc/thread-self/stat", "rb") as stat:
            return int(stat.read().rpartition(b")")[2].split()[36])  # field 39, "processor"
    except (OSError, ValueError, IndexError):
        return None


@contextlib.contextmanager
def pinned(cpu: int | None):
    """Run the calling thread on `cpu` only (None, or a CPU it may not use, or no affinity on this
        system: unchanged), restoring its CPUs at the end.

        A table talks to its isolated bots one question at a time: the table waits while a bot thinks, and
        the bot waits while the table deals, so one CPU serves them all at no cost, and a round trip on one
        CPU is several times cheaper than waking a process on another (about 9 against 51 us on a 2-core
        VM). Processes started meanwhile inherit the pin (and their children with them); an isolated bot's
    sandbox, started before, moves to the table's CPU when it says hello (`sandbox.share_cpus`).
        It can hurt only where the CPU is busy with other work: pass ``pin=False`` to `play_match` then.
    """
    try:
        before = os.sched_getaffinity(0)
    except (AttributeError, OSError):
        before = None
    if cpu is None or before is None or cpu not in before or len(before) == 1:
        yield
        return
    os.sched_setaffinity(0, {cpu})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


#: Deals each seat rotation of a duplicate match plays before the next rotation in the same process takes
#: its turn (0: one rotation after the other). The replays of a deal then come close together, so caches
#: that agents share in a process (Loki-1's potential counts and board values) serve them all instead of
#: being flushed by a whole session of other deals. Sessions stay independent: results do not depend on it.
LOCKSTEP_DEALS = 32


def _in_process(jobs: list[SessionJob], direct=None, cpu: int | None = None):
    """(session, event) pairs of `jobs` played in this process: the seat rotations of a duplicate match in
    lockstep (`LOCKSTEP_DEALS`, a table each) when no seat is isolated, else one session after the other
    on one table (isolated processes start once; their sandboxes boot on every CPU, then the table plays
    `pinned` to `cpu` where given, and each bot follows it once it has said hello)."""
    if (
        LOCKSTEP_DEALS
        and len(jobs) > 1
        and direct is None
        and all(job.rotation is not None and not any(job.isolate) for job in jobs)
    ):
        tables = [make_table(job) for job in jobs]
        try:
            turns = [
                (job.session, run_session(job, table, pace=LOCKSTEP_DEALS))
                for job, table in zip(jobs, tables, strict=True)
            ]
            while turns:
                for turn in list(turns):
                    session, events = turn
                    for event in events:
                        if type(event) is Pause:
                            break
                        yield session, event
                    else:
                        turns.remove(turn)
        finally:
            for table in tables:
                table.close()
        return
    table = make_table(jobs[0])
    try:
        with pinned(cpu):
            for job in jobs:
                for event in run_session(job, table, direct):
                    yield job.session, event
    finally:
        table.close()


@dataclass(frozen=True, slots=True)
class _WorkerFailed:
    """A worker process stopped on this error (raised again in the match)."""

    error: BaseException


@dataclass(frozen=True, slots=True)
class _WorkerExit:
    """A worker process has played all its sessions."""


def _exit_with_parent() -> None:
    """End this worker process as soon as the match's process ends, however it ends: killed (SIGTERM,
    SIGKILL), it runs no clean-up, and a worker left alone would play on, or wait on the queue, forever."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _worker(jobs: list[SessionJob], events, cpu: int | None = None) -> None:
    """A worker process: play its jobs (`_in_process`, on `cpu` alone where given), forwarding every
    event; it ends with the match's process (`_exit_with_parent`)."""
    _exit_with_parent()
    try:
        for event in _in_process(jobs, cpu=cpu):
            events.put(event)
    except PokerlabError as exc:
        events.put((-1, _WorkerFailed(exc)))
    except BaseException:  # noqa: BLE001 - report anything, so the match does not wait forever
        events.put((-1, _WorkerFailed(RuntimeError(traceback.format_exc()))))
    events.put((-1, _WorkerExit()))


def _parallel_events(jobs: list[SessionJob], workers: int, cpus: Sequence[int] = ()):
    """Events of `jobs` played by worker processes; worker w pinned to ``cpus[w % len(cpus)]`` if any."""
    context = multiprocessing.get_context("spawn")
    events = context.Queue()
    shares = [jobs[w::workers] for w in range(min(workers, len(jobs)))]
    processes = [
        context.Process(
            target=_worker, args=(share, events, cpus[w % len(cpus)] if cpus else None), daemon=False
        )
        for w, share in enumerate(shares)
    ]
    for process in processes:
        process.start()
    running = len(processes)
    try:
        while running:
            try:
                session, event = events.get(timeout=1.0)
            except queue_module.Empty:
                dead = [p for p in processes if p.exitcode not in (None, 0)]
                if dead:
                    raise RuntimeError(f"a worker process died (exit code {dead[0].exitcode})") from None
                continue
            if type(event) is _WorkerExit:
                running -= 1
            elif type(event) is _WorkerFailed:
                raise event.error
            else:
                yield session, event
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
            process.join()
