"""The evolving player of Barone & While 2000: a hypercube of (1+1)-ES populations that adapts, hand by
hand, to the opponents at its table (docs/barone-while.md §2-8).

At each decision: x (the probability of winning), our position class and the bets to call pick, for every
opponent still in the hand, the population of that opponent's segment; its representative (the member
its cycling pointer names) suggests an action from one shared uniform u; suggestions are legalised and the
tightest (fold < call < raise) is played (§6). With ``uses_rule = "per_consultation"`` every
per-opponent consultation is a use: its representative answers (from its own uniform with ``shared_u =
False``) and the pointer moves on at once, so two opponents of one segment consult two members (the
paper's candidate "cycles ... as the population is consulted", §3.3); ``"per_credit"`` cycles the same way
but counts a use for every member credited.
At the end of the hand the net result R (or, with
``fitness_signal = "luck_adjusted"``, R less the luck of the board, `pokerlab.programs.barone_while.luck`) is
credited to the representative and to every member of the same population that suggests the same action
(§7), and populations whose members have all been used 25 times reproduce (§8). A frozen player plays
without credit and reproduction; its populations still cycle (or play their average candidate,
``frozen_play = "average"``). What `act` would play with each of the 1,326 holdings is
`policy_from_pointers`, offered as the all-holdings policy query where the pointers cannot change it
(docs/exploitability.md).

The player is told each opponent's stereotype label (`tell_styles`): Barone & While describe no
classifier (§5). With ``opponent_segments = "seat"`` it keeps one segment per seat instead.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Sequence
from dataclasses import replace
from itertools import product
from pathlib import Path

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.base import Agent
from pokerlab.agents.policy import board_clash
from pokerlab.analysis.income_rate import shipped_table
from pokerlab.analysis.starting_hands import HOLDING_TYPE, STARTING_HANDS
from pokerlab.analysis.strength import uniform_holding_strengths
from pokerlab.engine import HandEnd, HandStart, SeatView
from pokerlab.errors import ConfigError, CorruptData
from pokerlab.programs.barone_while.candidate import most_probable_actions, probabilities, sample_actions
from pokerlab.programs.barone_while.config import EvolvingConfig
from pokerlab.programs.barone_while.hypercube import CELLS, Hypercube
from pokerlab.programs.barone_while.luck import board_luck
from pokerlab.programs.barone_while.player_a import PREFLOP_N_REF, player_a_cells
from pokerlab.programs.barone_while.situation import (
    bets_to_call,
    hand_position,
    opponents_in,
    single_opponent_x,
)

#: Seats of the largest table: the segments of ``opponent_segments = "seat"``.
MAX_SEATS = 10
_BATCH = 512
STARTS = ("random", "player_a")


def seat_segments() -> tuple[str, ...]:
    """The segment names of ``opponent_segments = "seat"``."""
    return tuple(f"seat {j}" for j in range(MAX_SEATS))


def multiway_x(x1: float, opponents: int, stage: int, position: int, rule: str) -> float:
    """x from the single-opponent x1 (docs/barone-while.md §2): x1^n against n opponents (``"power"``), x1
    (``"single"``), or, pre-flop, x1^n_ref with player A's n_ref = 9 / 7 / 4 by position (``"player_a_n"``,
    a repair: player A's pre-flop thresholds t = c^n_ref then compare x1 with c whatever the live n)."""
    if rule == "single":
        return x1
    if rule == "player_a_n" and stage == 0:
        return x1 ** PREFLOP_N_REF[position]
    return x1**opponents


def starting_genes(
    start, segments: int, members: int, rng: np.random.Generator, player_a_scale: str = "x"
) -> np.ndarray:
    """Initial candidates (segments, 48, members, 7): every gene uniform on [0, 1] ("random", experiment 1
    of Barone & While 2000 §4.2) or every member a copy of player A's cell ("player_a", §4.3, on the
    `player_a_scale`)."""
    if start == "random":
        return rng.random((segments, CELLS, members, 7))
    if start == "player_a":
        cells = player_a_cells(player_a_scale)
        return np.broadcast_to(cells[None, :, None, :], (segments, CELLS, members, 7))
    raise ConfigError(f"unknown start {start!r}; starts: {', '.join(STARTS)}")


class EvolvingAgent(Agent):
    """Barone & While's (2000) evolving hypercube player; learns during a session."""

    name = "bw-evolving"
    learns = True

    def __init__(
        self,
        config: EvolvingConfig | None = None,
        segments: Sequence[str] = ("any",),
        start: str = "random",
        init_seed: int = 0,
        seat_styles: Sequence[str | None] | None = None,
    ) -> None:
        super().__init__()
        self.config = config or EvolvingConfig()
        if self.config.opponent_segments == "seat":
            segments = seat_segments()
        self.start, self.init_seed, self.initial_segments = start, init_seed, tuple(segments)
        self.forget()
        self._seat_segment: list[int] | None = None
        if seat_styles is not None:
            self.tell_styles(seat_styles)
        #: with a list here, every decision is logged: (hand, stage, position, bets, x, to_call, action)
        self.situations: list[tuple[int, int, int, int, float, int, int]] | None = None
        self._hands = 0
        self.seed(self.rng)

    @classmethod
    def from_file(cls, path, config: EvolvingConfig | None = None) -> EvolvingAgent:
        """The evolving player saved at `path` (under any registry name), its population size read from the
        file and its other settings from `config`."""
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                name = json.loads(bytes(data["meta"]).decode()).get("agent", cls.name)
                members = int(data["learned/genes"].shape[-2])
        except FileNotFoundError:
            raise ConfigError(f"no agent file {str(path)!r}") from None
        except (OSError, ValueError, KeyError, IndexError, zipfile.BadZipFile, UnicodeDecodeError) as exc:
            raise CorruptData(f"{path} is not an evolving player's file ({exc!r})") from None
        agent = cls(replace(config or EvolvingConfig(), population_size=members))
        agent.name = name
        agent.load(path)
        return agent

    # -- the session --------------------------------------------------------------------------------

    def forget(self) -> None:
        """Back to the starting populations (random genes from ``init_seed``, or player A)."""
        config = self.config
        rng = np.random.default_rng(self.init_seed)
        start = starting_genes(
            self.start, len(self.initial_segments), config.population_size, rng, config.player_a_scale
        )
        self.cube = Hypercube(self.initial_segments, start, config)
        self._average = None

    def seed(self, rng: np.random.Generator) -> None:
        super().seed(rng)
        self._uniforms: list[float] = []

    def freeze(self, frozen: bool = True) -> None:
        super().freeze(frozen)
        self._average = self.cube.average() if frozen and self.config.frozen_play == "average" else None

    def tell_styles(self, seat_styles: Sequence[str | None]) -> None:
        """Each lasting seat's stereotype label (None for our own seat), as the paper's player is told
        (docs/barone-while.md §5). With one segment every opponent maps to it."""
        segments = self.cube.segments
        mapping = []
        for seat, label in enumerate(seat_styles):
            if self.config.opponent_segments == "seat":
                mapping.append(seat)
            elif len(segments) == 1:
                mapping.append(0)
            elif label is None or label in segments:
                mapping.append(segments.index(label) if label is not None else -1)
            else:
                raise ConfigError(
                    f"seat {seat} plays {label!r}, which is none of this player's segments "
                    f"({', '.join(segments)})"
                )
        self._seat_segment = mapping

    def _segment(self, seat: int) -> int:
        if self._seat_segment is not None:
            return self._seat_segment[seat]
        if self.config.opponent_segments == "seat":
            return seat
        if len(self.cube.segments) == 1:
            return 0
        raise ConfigError(
            f"this player has {len(self.cube.segments)} opponent segments: tell it who plays which "
            "style (tell_styles) before the first hand"
        )

    # -- the hand -----------------------------------------------------------------------------------

    def begin_hand(self, start: HandStart) -> None:
        self._hands += 1
        self._start = start
        self._round = -1
        self._x1 = 0.0
        self._decisions: list[tuple[int, int, float, float, int, tuple[int, int, int]]] = []
        self._consulted: dict[int, None] = {}

    def _uniform(self) -> float:
        if not self._uniforms:
            self._uniforms = self.rng.random(_BATCH).tolist()[::-1]
        return self._uniforms.pop()

    def act(self, view: SeatView) -> int:
        config = self.config
        if view.round != self._round:  # x1 depends on the cards only: once per round
            self._round, self._x1 = view.round, single_opponent_x(view.hole, view.board)
        opponents = opponents_in(view)
        position = hand_position(view, config.position_rule == "acting_order")
        x = multiway_x(self._x1, len(opponents), view.round, position, config.multiway_x)
        bets = bets_to_call(view, config.bets_rounding == "ceil")
        legalise = self._legaliser(view)
        cube, seats = self.cube, view.seats
        per_consultation = config.uses_rule != "per_hand"  # the pointer moves at every consultation
        u = self._uniform()
        suggested: dict[int, tuple[int, int, float]] = {}
        best, best_population, best_member, best_u = RAISE + 1, -1, -1, u
        for j, position_j in enumerate(opponents):  # in the order they act after us: ties go to the first
            p = cube.index(self._segment(seats[position_j]), view.round, position, bets)
            if per_consultation or p not in suggested:
                u_j = u if config.shared_u or not j else self._uniform()
                member = int(cube.pointer[p])
                genes = self._average[p] if self._average is not None else cube.representative(p)
                probs = probabilities(genes, x)
                suggested[p] = (legalise[int(sample_actions(probs, u_j))], member, u_j)
                if per_consultation:
                    cube.use(p)
            action, member, u_j = suggested[p]
            if action < best:
                best, best_population, best_member, best_u = action, p, member, u_j
        for p in suggested:
            self._consulted[p] = None
        self._decisions.append((best_population, best_member, x, best_u, best, legalise))
        if self.situations is not None:
            self.situations.append((self._hands, view.round, position, bets, x, view.to_call, best))
        return best

    # -- the all-holdings policy query (pokerlab.agents.policy; docs/exploitability.md) -----------------

    def _consultations(self, view: SeatView) -> list[tuple[np.ndarray, bool]]:
        """The candidates `act` would consult on `view` from the current pointers, each with whether it
        draws its own uniform (False: it reads the decision's shared u), in `act`'s order; pure (the
        pointer steps of ``uses_rule = "per_consultation"`` are followed on a copy)."""
        config, cube = self.config, self.cube
        position = hand_position(view, config.position_rule == "acting_order")
        bets = bets_to_call(view, config.bets_rounding == "ceil")
        per_consultation = config.uses_rule != "per_hand"
        steps: dict[int, int] = {}
        out: list[tuple[np.ndarray, bool]] = []
        for j, position_j in enumerate(opponents_in(view)):
            p = cube.index(self._segment(view.seats[position_j]), view.round, position, bets)
            if per_consultation or p not in steps:
                member = (int(cube.pointer[p]) + steps.get(p, 0)) % config.population_size
                genes = self._average[p] if self._average is not None else cube.genes[p, member]
                out.append((genes, not (config.shared_u or not j)))
                steps[p] = steps.get(p, 0) + 1
        return out

    def _x(self, view: SeatView, x1):
        """x from x1 (a number or one per holding) on `view`, as `act` computes it."""
        position = hand_position(view, self.config.position_rule == "acting_order")
        return multiway_x(x1, len(opponents_in(view)), view.round, position, self.config.multiway_x)

    def action_probabilities(self, view: SeatView) -> tuple[float, float, float]:
        """(fold, call, raise): the chance of each action `act` plays on `view` with its hole, by plain
        enumeration: each uniform's action intervals (Barone & While 2000 §3.2, the responses' order), the
        tightest suggestion over every combination of the independent uniforms' actions (§6)."""
        x = float(self._x(view, single_opponent_x(view.hole, view.board)))
        legalise = self._legaliser(view)
        groups: list[list[np.ndarray]] = [[]]  # the candidates reading each uniform, the shared u first
        for genes, own_u in self._consultations(view):
            if own_u:
                groups.append([probabilities(genes, x)])
            else:
                groups[0].append(probabilities(genes, x))
        outcomes = []  # per uniform: {action: probability}
        for members in filter(None, groups):
            edges = sorted({0.0, 1.0, *(float(c) for probs in members for c in np.cumsum(probs)[:2])})
            chances: dict[int, float] = {}
            for low, high in zip(edges, edges[1:], strict=False):
                u = (low + high) / 2.0
                action = min(legalise[int(sample_actions(probs, u))] for probs in members)
                chances[action] = chances.get(action, 0.0) + high - low
            outcomes.append(chances)
        out = [0.0, 0.0, 0.0]
        for combination in product(*(list(chances.items()) for chances in outcomes)):
            out[min(a for a, _ in combination)] += float(np.prod([c for _, c in combination]))
        return (out[FOLD], out[CALL], out[RAISE])

    @property
    def policy_for_holdings(self):
        """The all-holdings policy query (`pokerlab.agents.policy`), offered only where its answer cannot
        depend on the cycling pointers: a frozen player on its average candidates (``frozen_play =
        "average"``) or one whose populations each hold copies of one candidate (player A unevolved). A
        copy asked apart from the seated player (as LBR and AIVAT ask) sees none of its hands, so it could
        not follow which member the seated one plays. Elsewhere an AttributeError says so
        (`pokerlab.agents.policy.holdings_policy_refusal`)."""
        if self._average is None and np.any(self.cube.genes != self.cube.genes[:, :1]):
            raise AttributeError(
                "an evolving player whose members differ and cycle answers no all-holdings policy query; "
                "freeze it with frozen_play = 'average', or ask policy_from_pointers"
            )
        return self.policy_from_pointers

    def policy_from_pointers(self, view: SeatView) -> np.ndarray:
        """`action_probabilities` for the 1,326 holdings at once (the view's hole ignored), from the
        current pointers, 0 rows for holdings that meet the board. Each consulted candidate's legal action
        is monotone in its uniform, so with a shared u the tightest one's cumulative chances are the
        largest of theirs, and independent uniforms multiply the chances of staying above each action."""
        if view.round == 0:
            rates = shipped_table(2).income_rate
            rate = np.array([rates[name] for name in STARTING_HANDS], dtype=float)[HOLDING_TYPE]
            x1 = (rate / 1000.0 + 1.0) / 2.0
        else:
            x1 = np.nan_to_num(uniform_holding_strengths(view.board))
        x = self._x(view, x1)
        legal = np.asarray(self._legaliser(view))
        shared = np.zeros((len(x1), 3))  # P(action <= a) of the shared u
        above = np.ones((len(x1), 3))  # P(every independent uniform's action > a)
        for genes, own_u in self._consultations(view):
            legal_probs = np.zeros((len(x1), 3))
            np.add.at(legal_probs.T, legal, probabilities(genes, x).T)
            cumulative = np.cumsum(legal_probs, axis=1)
            if own_u:
                above *= 1.0 - cumulative
            else:
                shared = np.maximum(shared, cumulative)
        cumulative = 1.0 - (1.0 - shared) * above
        cumulative[:, 2] = 1.0
        out = np.diff(cumulative, axis=1, prepend=0.0)
        out[board_clash(view.board)] = 0.0
        return out

    def _legaliser(self, view: SeatView) -> tuple[int, int, int]:
        """Suggested action -> legal action: a fold with nothing to call is a check (``fold_when_free``),
        a raise beyond the cap a call (docs/barone-while.md §4)."""
        legal = view.legal_actions
        free_check = view.to_call == 0 and self.config.fold_when_free == "check"
        fold = CALL if free_check or FOLD not in legal else FOLD
        return (fold, CALL, RAISE if RAISE in legal else CALL)

    def end_hand(self, end: HandEnd) -> None:
        result = float(end.nets[end.position])
        cube, config = self.cube, self.config
        if not self.frozen:
            if config.fitness_signal == "luck_adjusted":  # after the hand, from what the seat saw (luck.py)
                start = self._start
                result -= board_luck(
                    start.hole, end.position, start.players, start.blinds, end.actions, end.board
                )
            credited: dict[int, np.ndarray] = {}
            for p, member, x, u, action, legalise in self._decisions:
                probs = probabilities(cube.genes[p], x)
                raw = (
                    sample_actions(probs, u)
                    if config.suggest_rule == "shared_u"
                    else most_probable_actions(probs)
                )
                same = np.asarray(legalise)[raw] == action
                same[member] = True  # the representative whose suggestion was played
                if config.credit_once_per_hand:
                    credited[p] = credited[p] | same if p in credited else same
                else:
                    cube.credit(p, same, result)
            for p, members in credited.items():
                cube.credit(p, members, result)
        cube.consulted(self._consulted, self.rng, evolve=not self.frozen)

    # -- what was learned ---------------------------------------------------------------------------

    def learned_state(self) -> dict[str, np.ndarray]:
        return self.cube.state()

    def load_learned_state(self, state: dict[str, np.ndarray]) -> None:
        self.cube = Hypercube.from_state(state, self.config)
        self._seat_segment = None
        self.freeze(self.frozen)


def load_evolving_agent(spec: str) -> EvolvingAgent:
    """The player of "bw:FILE" or "bw:FILE@SEGMENT" in a lineup: an evolving player saved by `save` (e.g.
    `pokerlab experiment bw-2`'s evolved-A-seedS.npz), frozen. @SEGMENT keeps only the populations of that
    opponent segment and plays them against every opponent (A^tight is FILE@tight-passive, A^loose
    FILE@loose-aggressive, Barone & While 2000 §4.4); a file of several segments needs one named, since a
    match does not tell a player which stereotype sits where."""
    path, sep, segment = spec.rpartition("@") if "@" in spec else (spec, "", "")
    agent = EvolvingAgent.from_file(path)
    segments = agent.cube.segments
    if sep:
        agent.cube = agent.cube.segment(segment)
    elif len(segments) > 1:
        raise ConfigError(
            f"{path} holds {len(segments)} opponent segments ({', '.join(segments)}): name the one to play, "
            f"e.g. bw:{path}@{segments[0]}"
        )
    agent.freeze()
    return agent
