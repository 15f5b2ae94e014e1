"""The results folder of a match, written as it goes: config.json, hands.csv, hands.sqlite (hand
histories and, where asked, the decision log), hindsight.jsonl (a `pokerlab match`'s complete hindsight
record of every hand, for evaluation after the match), then summary.json and bankroll.png (the
bankroll-versus-hands plot of Billings et al. 1998, Fig. 1).

hindsight.jsonl has one JSON object a line per hand, appended and flushed block by block after the hands
were played (so no player can read it during its hand; the sandbox hides the whole folder from outside
bots): {"hand", "deal", "session", "names" (agent labels by position, 0 = first left of the button),
"stacks" (chips before the blinds), "holes" (2 card codes a position, folded ones too), "deck" (the deal's
whole deck order: holes by position, then the board, then the cards never dealt), "board" (the board dealt,
five cards even where the hand ended early), "actions" ([position, action, [fold, call, raise] or null] in
order: the probabilities the agent's `Decision` gave, with ``log_decisions``), "nets" (by position)}.
With ``log_policies``, policies.bin beside it keeps the all-holdings answers of the seats that gave them
(`pokerlab.arena.policy_record`), written, resumed and sorted alike.

config.json and each block of hands.sqlite / hands.csv are on disk before the next block starts (the
SQLite commit first), so a failed run keeps everything played so far; any figure can be re-made from
hands.csv. Blocks of parallel sessions arrive in any order: the finished hands.csv, hindsight.jsonl and
policies.bin are sorted by hand number, so a match writes the same files for any number of workers or
nodes.
"""

from __future__ import annotations

import csv
import dataclasses
import errno
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pokerlab.arena.dealing import deal_block
from pokerlab.arena.policy_record import POLICIES_FILE, keep_sessions, sort_records
from pokerlab.arena.session import SessionReport
from pokerlab.arena.stats import AgentResult, summarize
from pokerlab.arena.store import HandStore
from pokerlab.engine import GameConfig
from pokerlab.errors import ConfigError, CorruptData, PokerlabError, StorageError


@dataclass
class MatchResult:
    """A finished match: per-hand nets (hands x agents, chips, in hand-number order), per-agent results,
    per-session reports and where it was saved."""

    labels: list[str]
    config: GameConfig
    seed: int
    duplicate: bool
    nets: np.ndarray
    deal_of_hand: np.ndarray
    faults: list[int]
    results: list[AgentResult] = field(default_factory=list)
    out: Path | None = None
    sessions: list[SessionReport] = field(default_factory=list)
    hands_asked: int = 0

    @classmethod
    def of_rows(
        cls,
        labels: list[str],
        config: GameConfig,
        seed: int,
        duplicate: bool,
        rows: list[tuple[int, int, tuple[int, ...]]],
        faults: list[int],
        out: Path | None,
        sessions: list[SessionReport],
        hands_asked: int,
    ) -> MatchResult:
        """The result of (hand, deal, nets by seat) rows in hand order, with per-agent statistics."""
        fractional = any(type(v) is float for r in rows for v in r[2])  # an ACPC client's split pots
        nets = np.array([r[2] for r in rows], dtype=np.float64 if fractional else np.int64)
        nets = nets.reshape(len(rows), len(labels))
        deals = np.array([r[1] for r in rows], dtype=np.int64)
        results = summarize(labels, nets, deals, config.small_bet, config.big_blind, faults)
        return cls(labels, config, seed, duplicate, nets, deals, faults, results, out, sessions, hands_asked)

    @property
    def hands(self) -> int:
        """Hands played."""
        return int(self.nets.shape[0])

    def to_json(self) -> dict:
        """{"hands", "hands_asked", "deals", "duplicate", "seed", "results", "sessions", "out"} (the CLI's
        --json). In a duplicate match ``hands`` counts every replay (deals x players)."""
        return {
            "hands": self.hands,
            "hands_asked": self.hands_asked,
            "deals": int(len(np.unique(self.deal_of_hand))),
            "duplicate": self.duplicate,
            "seed": self.seed,
            "results": [r.to_json() for r in self.results],
            "sessions": [s.to_json() for s in self.sessions],
            "out": str(self.out) if self.out else None,
        }


def run_meta(
    labels: list[str],
    config: GameConfig,
    seed: int,
    duplicate: bool,
    deals: int,
    block: int,
    sessions: int = 1,
    rebuy: int | None = None,
    log_decisions: bool = False,
    log_policies: bool = False,
) -> dict:
    """config.json of a run: what decides its results. ``deals`` are the deals dealt; ``hands`` the hands
    asked for (deals x players in a duplicate match, where every deal is replayed once per player, else
    the deals), as ``deals`` and ``hands_asked`` in summary.json. ``log_policies`` (policies.bin) is
    named only where on, so the folders of earlier runs still resume."""
    meta = {
        "agents": labels,
        "seed": seed,
        "duplicate": duplicate,
        "deals": deals,
        "hands": deals * len(labels) if duplicate else deals,
        "block": block,
        "sessions": sessions,
        "rebuy": rebuy,
        "log_decisions": log_decisions,
        "game": config.to_dict(),
    }
    if log_policies:
        meta["log_policies"] = True
    return meta


class ResultsWriter:
    """Writes one match's folder incrementally (see the module docstring).

    With ``resume``, a folder that already holds a run of the same `meta` (a killed one) is continued:
    the sessions marked complete in hands.sqlite are kept (`completed`, `kept_rows`), the hands of every
    other session are deleted from hands.sqlite and hands.csv, and those sessions are played again from
    their first hand (their agents' memory cannot be restored half-way, so a session is the unit).
    """

    def __init__(
        self, out: Path, labels: list[str], meta: dict, resume: bool = False, hindsight: bool = False
    ) -> None:
        self.out, self.labels = out, labels
        #: hindsight.jsonl, for a run whose deals come from `meta`'s seed (`pokerlab.arena.dealing`)
        self.hindsight = None
        #: policies.bin, where the run records all-holdings answers (`pokerlab.arena.policy_record`)
        self.policies = None
        self.completed: dict[int, dict] = {}
        self.kept_rows: list[list[str]] = []
        self._positions: dict[tuple[int, ...], str] = {}  # the text of each seating, made once
        self.failed = False
        try:
            self._open(meta, resume, hindsight)
        except (OSError, sqlite3.Error, UnicodeDecodeError) as exc:
            if isinstance(exc, PokerlabError):
                raise
            raise ConfigError(
                f"cannot write the results folder {str(out)!r}: {_reason(exc)}; --out takes a folder "
                "that can be created and written (a new one, or one of a killed run with --resume)"
            ) from None

    def _storage_error(self, exc: BaseException) -> StorageError:
        """The one line for a write that failed mid-run (a full disk): what is kept, and how to see it."""
        self.failed = True
        return StorageError(
            f"cannot write the results folder {str(self.out)!r}: {_reason(exc)}; the hands written before "
            f"stay readable (pokerlab summarize {self.out})"
        )

    def _open(self, meta: dict, resume: bool, hindsight: bool) -> None:
        out, labels = self.out, self.labels
        header = ["hand", "deal", "session", "positions", *labels]
        if (out / "config.json").exists():
            if not resume:
                raise ConfigError(
                    f"results folder {str(out)!r} already holds a run; choose another folder, "
                    "or continue a killed run with --resume"
                )
            self._check_meta(meta)
            try:
                self.store = HandStore(out / "hands.sqlite")
                self.completed = self.store.sessions()
                self.store.drop_sessions_except(self.completed)
            except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
                raise CorruptData(
                    f"cannot resume {str(out)!r}: its hands.sqlite is unreadable ({_reason(exc)}); "
                    "start the run afresh in a new folder"
                ) from None
            self.kept_rows = _complete_rows(out / "hands.csv", header, set(self.completed))
            kept = sum(r["hands_played"] for r in self.completed.values())
            if len(self.kept_rows) != kept:
                # hands.csv lost (deleted, truncated) what hands.sqlite says is complete: never carry on
                # with a summary of fewer hands than were played
                where = "is missing" if not (out / "hands.csv").exists() else f"holds {len(self.kept_rows):,}"
                raise ConfigError(
                    f"cannot resume {str(out)!r}: hands.csv {where}, but hands.sqlite holds {kept:,} hands "
                    "of complete sessions; restore hands.csv, or start the run afresh in a new folder"
                )
            partial = out / "hands.csv.partial"
            with partial.open("w", newline="") as file:
                csv.writer(file).writerows([header, *self.kept_rows])
            partial.replace(out / "hands.csv")
            self.csv_file = open(out / "hands.csv", "a", newline="")  # noqa: SIM115 - closed in close()
            self.csv = csv.writer(self.csv_file)
            if hindsight:
                self._open_hindsight(meta["seed"], set(self.completed))
            self._open_policies(meta, set(self.completed))
            return
        out.mkdir(parents=True, exist_ok=True)
        (out / "config.json").write_text(json.dumps(meta, indent=2) + "\n")
        self.csv_file = open(out / "hands.csv", "w", newline="")  # noqa: SIM115 - closed in close()
        self.csv = csv.writer(self.csv_file)
        self.csv.writerow(header)
        self.csv_file.flush()
        (out / "hands.sqlite").unlink(missing_ok=True)
        self.store = HandStore(out / "hands.sqlite")
        if hindsight:
            self._open_hindsight(meta["seed"], set())
        self._open_policies(meta, set())

    def _open_policies(self, meta: dict, keep: set[int]) -> None:
        """Open policies.bin for appending where the run records all-holdings answers, keeping only the
        records of the sessions in `keep`."""
        if meta.get("log_policies"):
            path = self.out / POLICIES_FILE
            keep_sessions(path, keep)
            self.policies = open(path, "ab")  # noqa: SIM115 - closed in close()

    def _open_hindsight(self, seed: int, keep: set[int]) -> None:
        """Open hindsight.jsonl for appending, keeping only the lines of the sessions in `keep` (a resumed
        run replays the others; a line torn by a kill is dropped)."""
        path = self.out / "hindsight.jsonl"
        kept = []
        if keep and path.exists():
            for line in path.read_text().splitlines(keepends=True):
                try:
                    if line.endswith("\n") and json.loads(line)["session"] in keep:
                        kept.append(line)
                except (ValueError, KeyError, TypeError):
                    continue
        partial = path.with_suffix(".jsonl.partial")
        partial.write_text("".join(kept))
        partial.replace(path)
        self.seed = seed
        self.hindsight = open(path, "a")  # noqa: SIM115 - closed in close()

    def _check_meta(self, meta: dict) -> None:
        try:
            old = json.loads((self.out / "config.json").read_text())
        except (OSError, ValueError) as exc:
            raise ConfigError(f"cannot resume {str(self.out)!r}: config.json is unreadable ({exc})") from None
        keys = [k for k in meta if old.get(k) != meta[k]] + [k for k in old if k not in meta]
        if keys:
            diff = "; ".join(f"{k}: {old.get(k)!r} there, {meta.get(k)!r} now" for k in keys)
            raise ConfigError(
                f"cannot resume {str(self.out)!r}: it was run with other settings ({diff}); "
                "resume with the command that started it"
            )

    def session_done(self, report: dict) -> None:
        """Mark a session complete, after its last block was written (what --resume skips)."""
        try:
            self.store.add_session(report)
        except (OSError, sqlite3.Error) as exc:
            raise self._storage_error(exc) from None

    def add(self, outcomes) -> None:
        """Append one block of `HandOutcome`s: commit them to SQLite, then flush them to the CSV."""
        try:
            self._add(outcomes)
        except (OSError, sqlite3.Error) as exc:
            raise self._storage_error(exc) from None

    def _add(self, outcomes) -> None:
        self.store.add(
            ((o.hand, o.deal, o.session, o.history) for o in outcomes if o.history is not None),
            [
                (o.hand, d.seat, d.index, d.action, d.probabilities, d.info)
                for o in outcomes
                if o.decisions
                for d in o.decisions
            ],
        )
        self.csv.writerows(
            [o.hand, o.deal, o.session, " ".join(map(str, o.positions)), *o.nets] for o in outcomes
        )
        self.csv_file.flush()
        if self.policies is not None:  # before the hindsight lines: a hand there always has its record
            self.policies.writelines(o.policies for o in outcomes if o.policies is not None)
            self.policies.flush()
        if self.hindsight is not None:
            played = [o for o in outcomes if o.history is not None]
            if played:
                first = min(o.deal for o in played)
                decks = deal_block(self.seed, first, max(o.deal for o in played) - first + 1).tolist()
                self.hindsight.writelines(self._hindsight_line(o, decks[o.deal - first]) for o in played)
            self.hindsight.flush()

    def _hindsight_line(self, outcome, deck: list[int]) -> str:
        """One hand's line of hindsight.jsonl (see the module doc), from its stored row, its decision log and
        its deal's deck order; a deal whose cards are not the seed's is a loud error, never a wrong record."""
        _, names, stacks, holes, board, actions, nets = outcome.history
        holes = [c - 1 for c in holes]
        n = len(holes) // 2
        if deck[: 2 * n] != holes or deck[2 * n : 2 * n + len(board)] != [c - 1 for c in board]:
            raise CorruptData(
                f"hand {outcome.hand}: its cards are not deal {outcome.deal} of seed {self.seed}"
            )
        probabilities = {d.index: d.probabilities for d in outcome.decisions or ()}
        moves = ",".join(
            f"[{b >> 2},{b & 3},{_probabilities(probabilities.get(i))}]" for i, b in enumerate(actions)
        )
        # written by hand, not json.dumps of a dict: a third of the time (the fastest bots play 20,000
        # hands a second); `pokerlab.evaluation.hindsight` reads it back with json
        return (
            f'{{"hand":{outcome.hand},"deal":{outcome.deal},"session":{outcome.session},"names":{names},'
            f'"stacks":[{stacks.replace(" ", ",")}],"holes":[{",".join(map(str, holes))}],'
            f'"deck":[{",".join(map(str, deck))}],"board":[{",".join(map(str, deck[2 * n : 2 * n + 5]))}],'
            f'"actions":[{moves}],"nets":[{nets.replace(" ", ",")}]}}\n'
        )

    def close(self) -> None:
        """Close both files; after a failed write (`failed`) whatever else fails is left unsaid, since the
        first failure is the one reported."""
        try:
            try:
                self.csv_file.close()
                if self.hindsight is not None:
                    self.hindsight.close()
                if self.policies is not None:
                    self.policies.close()
            finally:
                self.store.close()
        except (OSError, sqlite3.Error) as exc:
            if not self.failed:
                raise self._storage_error(exc) from None

    def finish(self, result) -> None:
        """Sort hands.csv by hand number; write summary.json and bankroll.png for a finished match."""
        try:
            self._finish(result)
        except (OSError, sqlite3.Error) as exc:
            raise self._storage_error(exc) from None

    def _finish(self, result) -> None:
        path = self.out / "hands.csv"
        with path.open(newline="") as file:
            header, *rows = list(csv.reader(file))
        rows.sort(key=lambda row: int(row[0]))
        partial = path.with_suffix(".csv.partial")
        with partial.open("w", newline="") as file:
            csv.writer(file).writerows([header, *rows])
        partial.replace(path)
        if self.hindsight is not None:
            _sort_hindsight(self.out / "hindsight.jsonl")
        if self.policies is not None:
            sort_records(self.out / POLICIES_FILE)
        write_summary(self.out, result)


def _sort_hindsight(path: Path) -> None:
    """hindsight.jsonl in hand order, as hands.csv (each line starts ``{"hand":N,``), replaced whole."""
    with path.open() as file:
        lines = file.readlines()
    lines.sort(key=lambda line: int(line[8 : line.index(",", 8)]))
    partial = path.with_suffix(".jsonl.partial")
    partial.write_text("".join(lines))
    partial.replace(path)


def _probabilities(p) -> str:
    """A decision's (fold, call, raise) as a JSON list of numbers, or null where the agent gave none."""
    return "null" if p is None else json.dumps([float(x) for x in p])


def _reason(exc: BaseException) -> str:
    """What went wrong with a file, in a few words (an OSError's strerror, SQLite's message)."""
    if getattr(exc, "errno", None) == errno.ENOSPC:
        return "the disk is full"
    return getattr(exc, "strerror", None) or " ".join(str(exc).split()) or type(exc).__name__


def write_summary(out: Path, result) -> None:
    """summary.json and bankroll.png of a `MatchResult` (finished, or rebuilt by `summarize_folder`)."""
    summary = result.to_json()
    del summary["out"]  # the folder may move: summary.json does not name it
    # strict JSON: a statistic that is undefined (no hands, one deal) is null, never a bare NaN
    (out / "summary.json").write_text(json.dumps(finite_json(summary), indent=2, allow_nan=False) + "\n")
    deals = len(np.unique(result.deal_of_hand))
    kind = "duplicate match" if result.duplicate else "match"
    who = " vs ".join(result.labels) if len(result.labels) <= 4 else f"{len(result.labels)} agents"
    title = f"{who}: {kind}, {deals:,} deals ({result.hands:,} hands), seed {result.seed}"
    plot_bankroll(
        result.nets, result.labels, result.config.small_bet, out / "bankroll.png", result.deal_of_hand, title
    )


def finite_json(value):
    """`value` (JSON-able) with every NaN or infinite float replaced by None: strict JSON, which every
    reader parses (a bare NaN is not JSON)."""
    if isinstance(value, float):
        return value if np.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite_json(v) for v in value]
    return value


def _chips(text: str) -> int | float:
    """A net of hands.csv: whole chips, or a fraction of a chip where an ACPC client's tied pot split
    unevenly (`pokerlab.interfaces.acpc.matchstate.reference_values`)."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def summarize_folder(out: str | Path):
    """Rebuild summary.json and bankroll.png of a results folder from config.json and hands.csv (and the
    session reports in hands.sqlite): the same files a finished run writes, and for a killed run a summary
    of the hands it kept (its incomplete sessions have no report). Returns the `MatchResult`."""
    out = Path(out)
    try:
        meta = json.loads((out / "config.json").read_text())
        labels, seed, duplicate = meta["agents"], meta["seed"], meta["duplicate"]
        config = GameConfig.from_dict(meta["game"])
        hands = meta.get("hands", 0)  # None in an ACPC client's folder (the dealer decides how many)
        if not isinstance(labels, list) or not labels or not all(isinstance(x, str) for x in labels):
            raise ValueError(f"agents must be a list of names, got {labels!r}")
        for key, value, kind in (("seed", seed, int), ("duplicate", duplicate, bool), ("hands", hands, int)):
            if key == "hands" and value is None:
                continue
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise ValueError(f"{key} must be {kind.__name__}, got {value!r}")
    except FileNotFoundError:
        raise ConfigError(f"{str(out)!r} is not a results folder (no config.json)") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        raise CorruptData(f"{out / 'config.json'} is unreadable ({' '.join(repr(exc).split())})") from None
    header = ["hand", "deal", "session", "positions", *labels]
    try:
        with (out / "hands.csv").open(newline="") as file:
            first, *rows = list(csv.reader(file))
    except (FileNotFoundError, ValueError):
        raise ConfigError(f"{str(out)!r} holds no hands.csv") from None
    if first != header:
        raise ConfigError(f"{out / 'hands.csv'} has columns {first}, expected {header}")
    parsed = []
    for row in rows:
        try:
            if len(row) == len(header):
                parsed.append((int(row[0]), int(row[1]), tuple(_chips(v) for v in row[4:])))
        except ValueError:
            continue  # a line torn by a kill
    parsed.sort()
    found = []
    if (out / "hands.sqlite").exists():
        db = sqlite3.connect(f"file:{out / 'hands.sqlite'}?mode=ro", uri=True)
        try:
            found = db.execute("SELECT report FROM sessions ORDER BY session").fetchall()
        except (sqlite3.DatabaseError, UnicodeDecodeError):
            found = []  # an unreadable store: the summary of hands.csv, without session reports
        finally:
            db.close()
    faults = [0] * len(labels)
    reports = []
    for (text,) in found:
        try:
            report = SessionReport(**json.loads(text))
            report = dataclasses.replace(report, faults=tuple(int(f) for f in report.faults))
            faults = [a + b for a, b in zip(faults, report.faults, strict=True)]
        except (ValueError, TypeError, RecursionError) as exc:
            raise CorruptData(
                f"{out / 'hands.sqlite'}: a session report is unreadable ({' '.join(str(exc).split())})"
            ) from None
        reports.append(report)
    try:
        result = MatchResult.of_rows(labels, config, seed, duplicate, parsed, faults, out, reports, hands)
    except (ValueError, TypeError) as exc:  # hands.csv rows that do not fit config.json's players
        raise CorruptData(f"{out / 'hands.csv'} does not fit {out / 'config.json'} ({exc})") from None
    write_summary(out, result)
    return result


def _complete_rows(path: Path, header: list[str], sessions: set[int]) -> list[list[str]]:
    """The rows of hands.csv that belong to complete sessions; a torn last line is dropped."""
    if not path.exists():
        return []
    try:
        with path.open(newline="") as file:
            rows = list(csv.reader(file))
    except (UnicodeDecodeError, csv.Error) as exc:
        raise CorruptData(
            f"cannot resume: {path} is not a hands.csv ({' '.join(str(exc).split())})"
        ) from None
    if rows and rows[0] != header:
        raise ConfigError(f"cannot resume: {path} has columns {rows[0]}, expected {header}")
    kept = []
    for row in rows[1:]:
        if len(row) == len(header) and row[2].isdigit() and int(row[2]) in sessions:
            kept.append(row)
    return kept


#: Most agents whose 95 % bands a bankroll plot draws.
MAX_BANDS = 5
#: Most agents whose bands are shaded areas; with more, each band is its two dotted edges.
MAX_SHADED = 2


def plot_bankroll(
    nets: np.ndarray,
    labels: list[str],
    small_bet: int,
    path: Path,
    deal_of_hand: np.ndarray | None = None,
    title: str | None = None,
    ylabel: str = "bankroll (small bets)",
) -> None:
    """Each agent's cumulative winnings in small bets against hands played, with a 95 % band, as a PNG
    (Billings et al. 1998, Fig. 1).

    The band is the cumulative sum ± 1.96 · sd · sqrt(u), where sd is the standard deviation of an agent's
    result per unit of independence (a deal: all replays of a duplicate deal together, see
    `pokerlab.arena.stats`) and u the units played so far (drawn for up to `MAX_BANDS` agents; more
    overlap into a blur): a shaded area for up to `MAX_SHADED` agents, else its two dotted edges. The
    legend, outside the axes, gives each agent's rate in small bets per hand with its 95 % CI.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pokerlab.arena.stats import Z95

    count = nets.shape[0]
    if deal_of_hand is None or len(deal_of_hand) != count:
        deal_of_hand = np.arange(count)
    _, unit = np.unique(deal_of_hand, return_inverse=True)
    units_so_far = np.maximum.accumulate(unit) + 1 if count else np.zeros(0)
    per_unit = np.zeros((unit.max() + 1 if count else 0, nets.shape[1]))
    np.add.at(per_unit, unit, nets / small_bet)
    fig, ax = plt.subplots(figsize=(10, 5.5))
    hands = np.arange(1, count + 1)
    every = max(1, count // 2000)  # at most about 2,000 points a line: the same to the eye, far cheaper
    bands = len(labels) <= MAX_BANDS
    shade = len(labels) <= MAX_SHADED
    for j, label in enumerate(labels):
        line = np.cumsum(nets[:, j]) / small_bet
        sd = per_unit[:, j].std(ddof=1) if len(per_unit) > 1 else 0.0
        rate = line[-1] / count if count else 0.0
        half = Z95 * sd * np.sqrt(len(per_unit)) / count if count else 0.0
        (drawn,) = ax.plot(
            hands[::every], line[::every], linewidth=1.2, label=f"{label}  {rate:+.3f} ± {half:.3f} sb/hand"
        )
        if bands:
            band = Z95 * sd * np.sqrt(units_so_far)
            low, high = (line - band)[::every], (line + band)[::every]
            if shade:
                ax.fill_between(hands[::every], low, high, color=drawn.get_color(), alpha=0.12, linewidth=0)
            else:  # shaded, three or more bands overlap into one muddy area: their edges stay apart
                for edge in (low, high):
                    ax.plot(hands[::every], edge, color=drawn.get_color(), linewidth=0.7, linestyle=":")
    ax.axhline(0, color="grey", linewidth=0.6)
    ax.set_xlabel("hands played")
    ax.set_ylabel(ylabel)
    ax.set_xlim(0, max(count, 1))
    ax.grid(True, alpha=0.25)
    if title:
        ax.set_title(title, fontsize=11)
    ax.legend(
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=8,
        frameon=False,
        title="agent, rate ± 95 % CI\n"
        + (
            f"({'shaded' if shade else 'dotted'}: 95 % band)"
            if bands
            else f"(95 % bands drawn for {MAX_BANDS} agents or fewer)"
        ),
        title_fontsize=8,
    )
    fig.savefig(path, dpi=120, bbox_inches="tight")  # the box grows to hold a long title and the legend
    plt.close(fig)
