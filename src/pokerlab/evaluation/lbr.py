"""Local best response (LBR) for heads-up limit hold'em (Lisý & Bowling 2017; docs/exploitability.md).

LBR plays one seat with its own cards against a target that answers the all-holdings policy query
(`pokerlab.agents.policy`). It keeps the target's **range**, a distribution over its 1,326 holdings:
uniform over those that miss LBR's cards at the start, multiplied after each target action by the query's
probability of that action with each holding (Bayes), holdings that meet the board zeroed. At each of its
own decisions, with pot ``P`` (all chips in) and ``asked`` chips to call, and ``wt[h]`` the win-plus-half-
tie probability of its holding against holding h with the rest of the board dealt and no more betting:

* ``WP = r . wt`` (the range normalised), ``U(fold) = 0``, ``U(call) = WP P - (1 - WP) asked``;
* ``U(raise) = fp P + (1 - fp) [WP' (P + a) - (1 - WP') (asked + a)]``, ``fp`` the range's probability of
  folding to the raise (one more query on the state after it), ``WP'`` the equity against the range of
  the holdings that do not fold, ``a`` the raise the target must call;

and it plays the largest, never folding when checking is free. LBR is a legal strategy, so what
it wins on average, over both seats of duplicate deals, is a lower bound on the target's exploitability.

LBR is an `Agent` and plays through the arena's table like any other player. It never sees the target's
cards: the views it asks about are built by the engine (`HandState` replayed from the public actions,
the target's hole unknown) and handed over blind (`blind_view`). It asks a copy of the target of its own,
so its questions change nothing at the table.

``wt`` is exact on the flop (every turn and river), turn and river; pre-flop it is the mean over
`PREFLOP_BOARDS` boards drawn with a generator seeded by LBR's holding (the same for every run), kept per
holding. A noisy ``wt`` only weakens the bound, never invalidates it. `reference_win_ties` is the plain
computation the tests compare the numba kernel with.
"""

from __future__ import annotations

import copy
import functools
import math
import pickle
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from itertools import combinations

import numba as nb
import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.base import Agent
from pokerlab.agents.policy import blind_view, board_clash, holdings_policy_refusal
from pokerlab.cards import CARD_MASKS, NUM_CARDS
from pokerlab.engine import GameConfig, HandStart, HandState, SeatView
from pokerlab.engine.view import seat_view
from pokerlab.errors import ConfigError
from pokerlab.evaluator import CARD_KEYS, START_KEY, evaluate, rank_of
from pokerlab.holdings import HOLDING_CARDS, HOLDING_INDEX, HOLDING_MASKS, NUM_HOLDINGS

#: Boards drawn for the pre-flop ``wt`` of one holding.
PREFLOP_BOARDS = 2000

_HOLD_KEYS = CARD_KEYS[HOLDING_CARDS[:, 0]] + CARD_KEYS[HOLDING_CARDS[:, 1]]


@nb.njit(cache=True)
def _win_ties(
    hole_key, hole_mask, board_key, board_mask, runout_keys, runout_masks, hold_keys, hold_masks, out
):
    """Mean win + half tie of the hole against every holding over the run-outs (numba kernel); 0 for
    holdings that clash with the hole or the board."""
    n = hold_keys.shape[0]
    total = np.zeros(n)
    count = np.zeros(n)
    dead = hole_mask | board_mask
    for j in range(runout_keys.shape[0]):
        full_key = board_key + runout_keys[j]
        full_mask = board_mask | runout_masks[j]
        ours = rank_of(full_key + hole_key, full_mask | hole_mask)
        for i in range(n):
            m = hold_masks[i]
            if m & dead or m & runout_masks[j]:
                continue
            theirs = rank_of(full_key + hold_keys[i], full_mask | m)
            count[i] += 1.0
            if ours > theirs:
                total[i] += 1.0
            elif ours == theirs:
                total[i] += 0.5
    for i in range(n):
        out[i] = total[i] / count[i] if count[i] > 0 else 0.0


def _runouts(hole, board, rng: np.random.Generator | None) -> np.ndarray:
    """int[m, 5 - len(board)]: every run-out of the board (flop on), or `PREFLOP_BOARDS` drawn from `rng`."""
    dead = set(hole) | set(board)
    unseen = np.array([c for c in range(NUM_CARDS) if c not in dead])
    need = 5 - len(board)
    if need == 0:
        return np.zeros((1, 0), dtype=np.int64)
    if need <= 2:
        return np.array(list(combinations(unseen.tolist(), need)), dtype=np.int64)
    if rng is None:
        raise ConfigError("pre-flop win/tie vectors are sampled: give a generator")
    order = np.argsort(rng.random((PREFLOP_BOARDS, unseen.size)), axis=1)[:, :need]
    return unseen[order]


def win_ties(hole, board, rng: np.random.Generator | None = None) -> np.ndarray:
    """float[1326]: win + half tie of `hole` against every holding, the board run out with no more betting
    (exact from the flop on; pre-flop over `PREFLOP_BOARDS` boards from `rng`); 0 for clashing holdings."""
    return win_ties_over(hole, board, _runouts(hole, board, rng))


def win_ties_over(hole, board, runouts: np.ndarray) -> np.ndarray:
    """`win_ties` over the given run-outs (int[m, 5 - len(board)]) only."""
    runouts = np.asarray(runouts, dtype=np.int64).reshape(len(runouts), 5 - len(board))
    keys = CARD_KEYS[runouts].sum(axis=1, dtype=np.uint64)
    masks = np.bitwise_or.reduce(CARD_MASKS[runouts], axis=1) if runouts.shape[1] else np.zeros(1, np.uint64)
    board = np.asarray(board, dtype=np.int64)
    board_key = START_KEY + CARD_KEYS[board].sum(dtype=np.uint64)
    board_mask = np.bitwise_or.reduce(CARD_MASKS[board]) if board.size else np.uint64(0)
    hole_key = CARD_KEYS[hole[0]] + CARD_KEYS[hole[1]]
    hole_mask = CARD_MASKS[hole[0]] | CARD_MASKS[hole[1]]
    out = np.zeros(NUM_HOLDINGS)
    _win_ties(hole_key, hole_mask, board_key, board_mask, keys, masks, _HOLD_KEYS, HOLDING_MASKS, out)
    return out


@functools.cache
def _preflop_win_ties(hole: tuple[int, int]) -> np.ndarray:
    return win_ties(hole, (), np.random.default_rng(int(HOLDING_INDEX[hole[0], hole[1]])))


def preflop_win_ties(hole) -> np.ndarray:
    """The pre-flop `win_ties` of `hole`, its `PREFLOP_BOARDS` boards drawn with a generator seeded by the
    holding's index (the same in every run), kept for the process."""
    a, b = sorted(int(c) for c in hole)
    return _preflop_win_ties((a, b))


def reference_win_ties(hole, board, runouts=None) -> np.ndarray:
    """`win_ties` by the scalar evaluator over the given run-outs (default: every one), the plain oracle."""
    if runouts is None:
        runouts = _runouts(hole, board, None)
    runouts = [tuple(int(c) for c in r) for r in runouts]
    out = np.zeros(NUM_HOLDINGS)
    for i, (a, b) in enumerate(HOLDING_CARDS.tolist()):
        if {a, b} & (set(hole) | set(board)):
            continue
        score = n = 0
        for r in runouts:
            if a in r or b in r:
                continue
            full = [*board, *r]
            ours, theirs = evaluate([*hole, *full]), evaluate([a, b, *full])
            score += 1.0 if ours > theirs else 0.5 if ours == theirs else 0.0
            n += 1
        out[i] = score / n if n else 0.0
    return out


def bayes_update(weights: np.ndarray, policy: np.ndarray, action: int) -> np.ndarray:
    """The range after the target took `action`: ``r(h) pi(action | h)``, normalised (all zero stays zero)."""
    new = weights * policy[:, action]
    total = new.sum()
    return new / total if total > 0 else new


def utilities(
    wt: np.ndarray,
    weights: np.ndarray,
    pot: int,
    asked: int,
    raise_to_call: int,
    fold_if_raised: np.ndarray | None,
) -> tuple[float, float, float]:
    """(U(fold), U(call), U(raise)) in chips of LBR's decision (the module doc); ``fold_if_raised`` is the
    target's fold probability per holding after LBR's raise (None: raising is not allowed)."""
    total = weights.sum()
    wp = float(weights @ wt / total) if total > 0 else 0.5
    call = wp * pot - (1 - wp) * asked
    if fold_if_raised is None:
        return 0.0, call, -math.inf
    fp = float(weights @ fold_if_raised / total) if total > 0 else 0.0
    stay = weights * (1 - fold_if_raised)
    wp2 = float(stay @ wt / stay.sum()) if stay.sum() > 0 else wp
    a = raise_to_call
    return 0.0, call, fp * pot + (1 - fp) * (wp2 * (pot + a) - (1 - wp2) * (asked + a))


class LBRAgent(Agent):
    """Local best response to `target` (an agent answering the all-holdings policy query), heads-up.

    It keeps a copy of the target of its own to ask (frozen, never seated), so its questions change nothing
    at the table. ``decisions`` counts its decisions by action; ``seconds`` its thinking time.
    """

    name = "lbr"

    def __init__(self, target: Agent) -> None:
        super().__init__()
        refusal = holdings_policy_refusal(target)
        if refusal is not None:
            raise ConfigError(
                f"agent {target.name!r} does not answer the all-holdings policy query (policy_for_holdings), "
                f"which local best response needs: {refusal}"
            )
        self.target = pickle.loads(pickle.dumps(target))
        self.target.freeze()
        self.decisions = [0, 0, 0]
        self.seconds = 0.0

    def begin_hand(self, start: HandStart) -> None:
        if start.players != 2:
            raise ConfigError(f"local best response is heads-up; this hand has {start.players} players")
        self.position, self.hole, self.config = start.position, tuple(start.hole), start.config
        self.stacks = None if start.stacks is None else list(start.stacks)
        self.weights = np.ones(NUM_HOLDINGS)
        self.weights[(HOLDING_MASKS & (CARD_MASKS[start.hole[0]] | CARD_MASKS[start.hole[1]])) != 0] = 0.0
        self.weights /= self.weights.sum()
        self.seen = 0  # actions of the hand already taken into the range
        self._wt: dict[tuple, np.ndarray] = {}

    def _ask(self, state: HandState, board: tuple[int, ...]) -> np.ndarray:
        view = seat_view(state, 1 - self.position, config=self.config)
        view = blind_view(view._replace(board=board))
        return np.asarray(self.target.policy_for_holdings(view), dtype=float)

    def _mirror(self, view: SeatView) -> HandState:
        holes = [-1, -1, -1, -1]
        holes[2 * self.position], holes[2 * self.position + 1] = self.hole
        return HandState(self.config, holes, list(view.board), self.stacks)

    def wt(self, board: tuple[int, ...]) -> np.ndarray:
        """LBR's win/tie vector on `board` (kept for the hand; pre-flop kept per holding)."""
        if not board:
            return preflop_win_ties(self.hole)
        if board not in self._wt:
            self._wt[board] = win_ties(self.hole, board)
        return self._wt[board]

    def act(self, view: SeatView) -> int:
        started = time.perf_counter()
        state = self._mirror(view)
        weights = self.weights
        sizes = (0, 3, 4, 5)
        for i, record in enumerate(view.actions):
            if i >= self.seen and record.position != self.position:
                board = view.board[: sizes[record.round]]
                weights = bayes_update(weights, self._ask(state, board), record.action)
            state.act(record.action)
        weights = weights * ~board_clash(view.board)
        self.weights, self.seen = weights, len(view.actions)
        wt = self.wt(view.board)
        fold_if_raised = None
        if RAISE in view.legal_actions:
            after = state.copy()
            after.act(RAISE)
            fold_if_raised = self._ask(after, view.board)[:, FOLD]
            fold_if_raised = np.where(weights > 0, fold_if_raised, 0.0)
        raise_to_call = self.config.bet_size(view.round)
        values = utilities(wt, weights, view.pot, view.to_call, raise_to_call, fold_if_raised)
        best = int(np.argmax(values))
        if best == FOLD and view.to_call == 0:
            best = CALL
        self.decisions[best] += 1
        self.seconds += time.perf_counter() - started
        return best


@dataclass(frozen=True)
class LBRResult:
    """LBR's winnings against a target, in mbb/g (milli-big-blinds per game) over both seats of duplicate
    deals, with the 95 % confidence interval's half width, and per seat in chips per hand."""

    target: str
    deals: int
    seed: int
    mbb_per_game: float
    ci95: float
    chips_as_big_blind: float
    chips_as_button: float
    seconds: float

    @property
    def lower_bound(self) -> float:
        """The one-sided 97.5 % lower bound on exploitability (Lisý & Bowling 2017's convention)."""
        return self.mbb_per_game - self.ci95

    def to_dict(self) -> dict:
        return {**asdict(self), "lower_bound": self.lower_bound}


def local_best_response(
    target: Agent | str,
    deals: int,
    config: GameConfig | None = None,
    seed: int = 0,
    *,
    workers: int = 1,
    progress: Callable[[str], None] | None = None,
) -> LBRResult:
    """Play LBR against `target` (an agent or a registered name) on `deals` duplicate deals through the
    arena (`play_match`, seats swapped, the target frozen and fresh for each), and report its winnings; with
    `progress`, a line on what is played and the arena's progress bar."""
    from pokerlab.agents.registry import make_agent
    from pokerlab.arena.match import play_match

    config = config or GameConfig()
    agent = make_agent(target) if isinstance(target, str) else target
    lbr = LBRAgent(agent)
    seated = copy.deepcopy(agent)  # the snapshot LBR's copy describes: learning nothing at the table either
    seated.freeze()
    if progress is not None:
        progress(f"LBR against {agent.name}: {deals} duplicate deals, seed {seed}")
    started = time.perf_counter()
    bar = progress is not None
    result = play_match([lbr, seated], deals, config, seed, duplicate=True, workers=workers, progress=bar)
    seconds = time.perf_counter() - started
    mean, half, as_big_blind, as_button = duplicate_winnings(result, deals, config)
    return LBRResult(
        target=agent.name,
        deals=deals,
        seed=seed,
        mbb_per_game=mean,
        ci95=half,
        chips_as_big_blind=as_big_blind,
        chips_as_button=as_button,
        seconds=seconds,
    )


def duplicate_winnings(result, deals: int, config: GameConfig) -> tuple[float, float, float, float]:
    """Seat 0's winnings in a heads-up duplicate `play_match` result: (mbb/g over both seats, the 95 % CI's
    half width over deals, chips a hand as the big blind, as the button)."""
    nets = result.nets[:, 0].astype(float)
    per_deal = np.zeros(deals)
    np.add.at(per_deal, result.deal_of_hand, nets / 2)
    half = 1.96 * per_deal.std(ddof=1) / math.sqrt(deals) if deals > 1 else math.inf
    to_mbb = 1000.0 / config.big_blind
    # hand d * 2 + k is deal d in seat rotation k: seat 0 sits at position k (0: the big blind, 1: the button)
    return (
        float(per_deal.mean() * to_mbb),
        float(half * to_mbb),
        float(nets[0::2].mean()),
        float(nets[1::2].mean()),
    )
