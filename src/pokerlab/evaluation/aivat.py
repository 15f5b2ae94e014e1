"""AIVAT for heads-up limit hold'em (Burch et al. 2018) over DIVAT's value function, in tiers.

The value W(h) of a state is what DIVAT's baseline would net from it: the baseline finishes the round
and plays the rest over random cards to come (`pokerlab.evaluation.divat`). Writing the result as W at
the deal plus W's change at every step of the hand, AIVAT takes off the change at every step whose
distribution the evaluator knows:

* tier ``chance``: the cards. With this W it is DIVAT itself (Zinkevich et al. 2006 recast DIVAT as this
  advantage sum), the same numbers for the same run-outs;
* tier ``actions``: also the actions of every agent that said what it drew them from (the probabilities
  of its `Decision`, in the hindsight record): at such a decision h the correction is
  W(h a_taken) - sum_a P(a | h) W(h a), of mean zero given h, so the estimate stays unbiased whatever W
  is (Burch et al. 2018). The children's values use the round's run-outs, shared with the
  round's chance term, so the action's noise cancels.

P(a | h) must be the probability of the action *given everything before it in the hand*. An agent that
draws each decision with a fresh uniform gives exactly that. One that keeps a single uniform u for the
whole hand (Loki-2's same-u selector, ``same_u_per_hand``) does not: its later draws depend on its earlier
ones. Name such a seat in ``shared_uniform``: u then lies in the intersection I of the intervals of the
actions it has taken (fold [0, f), call [f, f + c), raise [f + c, 1) of each triple), and
P(a | h) = |I ∩ interval_a| / |I|, the reach of the hand's actions so far.

A seat is *known by its query* when its label is a registered player that answers the all-holdings
policy query (`pokerlab.agents.policy`) and does not learn during a match (the stereotypes, call, raise,
mix, a saved TD player, which loads frozen): the evaluator makes a fresh one and asks it, on the public
history of each of its decisions, the probabilities of every holding. Its own holding's row gives the
actions tier its probabilities where the record has none; a recorded triple must agree with it, and the
action taken must have a positive probability, else the seat did not play the policy it answers (it
adapted, or it is another program) and the evaluation stops with one line. A player that learns during
the match (Loki-1's opponent model, an untrained TD player) is not known by its query: at each decision
its policy was that of what it had learned by then, which a fresh copy cannot give.

A seat is *known by its recorded answers* when the match ran with ``--log-policies``: the arena asked it,
in process, before each of its decisions, for its all-holdings answer (`pokerlab.arena.policy_record`),
so a learner's answers are those of what it had learned by then. They stand in for the query's (the
recorded answers of a fixed player too). The answers are P(a | g, the hand so far): a seat that draws
its hand from one uniform (Loki-2) answers its later decisions already narrowed, so its recorded triple
must be the row or the row's share of the interval its earlier actions left. Answers that contradict
what the seat played (the action taken at probability 0, or another triple) are not its policy: the
seat is then evaluated as if it had given none, with a warning (a learner whose query lags what its act
has learned within the hand does this now and then). A hand without its record stops with one line.

* tier ``imaginary`` (Burch et al. 2018, "imaginary observations"; Bowling et al. 2008): for each seat
  K known by its query or by its recorded answers, with U the other seat, U's view of the hand is
  averaged over K's holdings g that U cannot rule out (not meeting U's cards nor the board dealt so
  far), each weighted by K's reach w(g) = prod over K's decisions of P(a | g, public history) from
  the query (Bayes; the chance probabilities are equal across g and cancel). With
  W-bar(O) = sum_g w(g) W(g, O) / sum_g w(g),

      X_K = u-bar(end) - [W-bar(after the deal) - E W-bar(after the deal)]
            - sum over cards [W-bar(O x) - W-bar(O)]
            - sum over K's actions [W-bar(O a_taken) - sum_g w(g) sum_a P(a | g) W(g, O a) / sum_g w(g)]

  and X_U = -X_K; with both seats known, the mean of the two. W(g, h) is the all-in equity of holding g
  against U's cards (exact from the flop on; pre-flop over ``samples_preflop`` boards drawn from (seed,
  deal, K), independently of the deal's own cards) times the pot, less K's chips in: of the state itself
  at a round's start or end, and, mid-round, of the state once DIVAT's baseline has finished the round
  (K acting on g's strength, U on its own), so that an action the baseline would have taken moves W
  little. At a card W is the plain all-in equity on both sides, balanced for every g, so the card
  brackets need W-bar only before and after the card; E W-bar(after the deal) = pot/2 - K's blind by
  symmetry; u-bar(end) is the weighted mean of what each g nets (the equity on the full board at a
  showdown). Each bracket has mean zero given U's view, whatever W is, so E X = E u (the toy-game tests
  enumerate this exactly).

  The brackets are weighted by round (the linear control variate of White & Bowling 2009, as the luck
  adjustment weights its streets): the deal's, those of K's actions in round r and that of the cards
  that end round r are valued at the pot of round r, and the bets still to come follow a good holding,
  so the weight of round r is its least-squares fit, above 1 (`IMAGINARY_WEIGHTS`, fitted on
  calibration matches by `fit_imaginary_weights`). Any fixed weights keep every bracket's mean zero, so
  X stays exactly unbiased; weight 1 everywhere is the plain W.

A decision of a seat known neither way is not corrected. Loki-2 in simulation mode reports its argmax as
a probability-one choice, although its simulation is noisy: its correction is zero and AIVAT falls back
to the chance tier for those decisions.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.base import Agent
from pokerlab.agents.policy import blind_view, holdings_policy_refusal
from pokerlab.analysis.strength import uniform_holding_strengths
from pokerlab.arena.policy_record import POLICIES_FILE, decode, read_policies
from pokerlab.cards import CARD_MASKS
from pokerlab.engine import RIVER, GameConfig, HandState
from pokerlab.engine.view import seat_view
from pokerlab.errors import ConfigError
from pokerlab.evaluation.core import fit_linear
from pokerlab.evaluation.divat import (
    DEFAULT_SAMPLES,
    MAKE,
    Divat,
    RoundValues,
    baseline_action,
    preflop_percentiles,
)
from pokerlab.evaluation.hindsight import HindsightHand, read_hindsight, seat_estimates
from pokerlab.evaluation.lbr import win_ties, win_ties_over
from pokerlab.evaluation.stats import SeatEstimates, unit_means
from pokerlab.holdings import HOLDING_INDEX, HOLDING_MASKS, NUM_HOLDINGS

log = logging.getLogger(__name__)

#: The tiers, in order of what they correct.
TIERS = ("chance", "actions", "imaginary")
#: Boards drawn for a pre-flop all-in equity of the imaginary tier.
SAMPLES_PREFLOP = 300
#: The imaginary tier's weight of the brackets valued at the pot of each round (pre-flop, flop, turn,
#: river; the module doc): `fit_imaginary_weights` rounded, fitted over the calibration matches of
#: match seed 7 (1,000 duplicate deals of Loki-1 against each of the four stereotypes and of the
#: untrained TD player against Loki-1, 300 of Loki-1 against Loki-2's triples, all with
#: --log-policies), evaluation seed 7. None of the hands they judge in the docs.
IMAGINARY_WEIGHTS = (1.86, 1.96, 1.38, 1.06)
#: The betting rounds: pre-flop, flop, turn and river.
ROUNDS = RIVER + 1
#: Weight 1 in every round: the plain all-in equity value.
PLAIN_WEIGHTS = (1.0, 1.0, 1.0, 1.0)


def conditional(
    probabilities: tuple[float, float, float], interval: tuple[float, float] | None
) -> np.ndarray:
    """P(fold, call, raise | the hand so far) of a decision drawn from `probabilities` with the hand's one
    uniform u known to lie in `interval` (None: a fresh uniform, the probabilities themselves)."""
    p = np.asarray(probabilities, dtype=np.float64)
    if interval is None:
        return p
    lo, hi = interval
    if hi <= lo:  # the actions taken were impossible together: nothing is possible any more
        return np.zeros(3)
    edges = np.concatenate([[0.0], np.cumsum(p)])
    edges[-1] = 1.0
    overlap = np.clip(np.minimum(edges[1:], hi) - np.maximum(edges[:-1], lo), 0.0, None)
    return overlap / (hi - lo)


def narrowed(
    probabilities: tuple[float, float, float], interval: tuple[float, float], action: int
) -> tuple[float, float]:
    """The interval of the hand's uniform once `action` was drawn from `probabilities`."""
    edges = np.concatenate([[0.0], np.cumsum(probabilities)])
    edges[-1] = 1.0
    return max(interval[0], float(edges[action])), min(interval[1], float(edges[action + 1]))


class Aivat:
    """AIVAT's tiers of one game (heads-up, unlimited stacks) over DIVAT's value function."""

    def __init__(
        self,
        config: GameConfig,
        seed: int,
        samples: int = DEFAULT_SAMPLES,
        shared_uniform: frozenset[str] = frozenset(),
    ) -> None:
        self.divat = Divat(config, seed, samples)
        self.shared_uniform = shared_uniform

    def hand(self, hand: HindsightHand) -> np.ndarray:
        """(tiers x positions) X of one heads-up hand, chips: the chance tier, then the actions tier."""
        intervals = {p: (0.0, 1.0) for p in range(hand.players) if hand.names[p] in self.shared_uniform}

        def correct(state: HandState, p: int, action: int, probabilities, values: RoundValues):
            """W(h a_taken) - sum_a P(a | h) W(h a) at a decision that gave its probabilities."""
            if probabilities is None:
                return None
            q = conditional(probabilities, intervals.get(p))
            if not q[action] > 0:
                raise ConfigError(
                    f"hand {hand.hand}: {hand.names[p]} took {('fold', 'call', 'raise')[action]}, which its "
                    "probabilities (given the hand so far) made impossible: "
                    + (
                        "it draws afresh at each decision: drop --shared-uniform"
                        if p in intervals
                        else "its probabilities are not what it drew from"
                    )
                )
            if p in intervals:
                intervals[p] = narrowed(probabilities, intervals[p], action)
            if q[action] >= 1.0:
                return None
            children = {}
            for a in state.legal_actions():
                if q[a] > 0:
                    child = state.copy()
                    child.act(a)
                    children[a] = values(child)
            return children[action] - sum(q[a] * w for a, w in children.items())

        result = self.divat.hand(hand, correct)
        return np.array([result.x, result.x - result.corrections])


class Disagreement(ConfigError):
    """A seat's query answer contradicts what it played (its action, or the probabilities it reported)."""

    def __init__(self, seat: str, message: str) -> None:
        super().__init__(message)
        self.seat = seat


#: Action names for the one-line errors.
NAMES = ("fold", "call", "raise")


def known_by_query(labels: list[str]) -> tuple[dict[str, Agent], dict[str, str]]:
    """({label: a fresh, frozen player} of the seats known by their query (the module doc), {label: why
    not} of the others)."""
    from pokerlab.agents.registry import is_external, make_agent

    known, why = {}, {}
    for label in labels:
        if is_external(label):
            why[label] = "its code is not ours to run in the evaluator"
            continue
        try:
            agent = make_agent(label)
        except ConfigError:
            why[label] = "not a registered player"
            continue
        refusal = holdings_policy_refusal(agent)
        if refusal is not None:
            why[label] = f"it does not answer the all-holdings policy query ({refusal})"
        elif agent.learns and not agent.frozen:
            why[label] = "it learns during the match, so its policy then is not the fresh one's"
        else:
            agent.freeze()
            known[label] = agent
    return known, why


def with_query(
    hand: HindsightHand,
    config: GameConfig,
    known: dict[str, Agent],
    recorded: frozenset[str] = frozenset(),
    answers: dict[int, np.ndarray] | None = None,
) -> tuple[HindsightHand, dict]:
    """`hand` with the probabilities of its known seats' decisions filled in from their query, and
    {action index: float[1326, 3], the query's answer}; the seats named in `recorded` answer from `answers`,
    the hand's record of what they answered during the match (`pokerlab.arena.policy_record`), the others
    in `known` are asked afresh. One `ConfigError` line where a recorded answer is missing, or where the
    seat's recorded triple or its action disagrees with its answer."""
    state = hand.start(config)
    actions, policies = [], {}
    intervals: dict[int, tuple[float, float]] = {}  # of a hand-long uniform, from each seat's triples
    for i, (p, action, triple) in enumerate(hand.actions):
        name = hand.names[p]
        agent = known.get(name)
        if name in recorded:
            if answers is None or i not in answers:
                raise ConfigError(
                    f"hand {hand.hand}: {POLICIES_FILE} holds no answer for {name}'s decision {i} (its other "
                    "decisions have one): the record is torn or incomplete; play the match again with "
                    "--log-policies"
                )
            policy = np.asarray(answers[i], dtype=np.float64)
        elif agent is not None:
            policy = np.asarray(agent.policy_for_holdings(blind_view(seat_view(state, p, config=config))))
        else:
            actions.append((p, action, triple))
            state.act(action)
            continue
        row = policy[HOLDING_INDEX[hand.holes[2 * p], hand.holes[2 * p + 1]]]
        if not row[action] > 0 or triple is not None and not _agrees(row, triple, intervals.get(p)):
            raise Disagreement(
                name,
                f"hand {hand.hand}: {name} took {NAMES[action]} where its policy query gives "
                f"{[round(float(x), 4) for x in row]}"
                + ("" if triple is None else f" and its record {list(triple)}")
                + (
                    ": its recorded answer is not what it played (its query and its act disagree)"
                    if name in recorded
                    else ": it did not play the fresh, frozen player's policy (it adapted, or is another bot)"
                ),
            )
        if triple is not None:
            intervals[p] = narrowed(triple, intervals.get(p, (0.0, 1.0)), action)
        policies[i] = policy
        actions.append((p, action, tuple(float(x) for x in row)))
        state.act(action)
    return replace(hand, actions=tuple(actions)), policies


def _agrees(row: np.ndarray, triple: tuple, interval: tuple[float, float] | None) -> bool:
    """Whether a query's row (P(a | the hand so far), float32 where recorded: rounding below 1e-7) is the
    `Decision`'s triple to 1e-6 absolute, or, for a seat that draws the whole hand from one uniform, the
    triple's share of the `interval` its earlier triples and actions left (the query answers given the
    hand so far)."""
    return np.allclose(row, triple, rtol=0, atol=1e-6) or (
        interval is not None and np.allclose(row, conditional(triple, interval), rtol=0, atol=1e-6)
    )


def recorded_seats(hands: list[HindsightHand], answers: dict[int, bytes]) -> frozenset[str]:
    """The labels whose decisions have recorded all-holdings answers in policies.bin (those of in-process
    players that answer the query, asked by the arena with --log-policies)."""
    seats = set()
    for hand in hands:
        if hand.hand in answers:
            seats |= {
                hand.names[hand.actions[i][0]] for i in decode(answers[hand.hand]) if i < len(hand.actions)
            }
    return frozenset(seats)


@dataclass(frozen=True)
class BoardTables:
    """What the imaginary tier's W needs on one board: the known seat's all-in equity per holding against
    the other's cards, its baseline strength per holding, and the other seat's baseline strength."""

    equity: np.ndarray
    strength: np.ndarray
    other: float


class Imaginary:
    """The imaginary tier of one game (heads-up, unlimited stacks): X by position of a hand whose known
    seats' query answers are given (the module doc)."""

    def __init__(
        self,
        config: GameConfig,
        seed: int,
        samples_preflop: int = SAMPLES_PREFLOP,
        weights: tuple[float, ...] = IMAGINARY_WEIGHTS,
    ) -> None:
        self.config, self.seed, self.samples_preflop = config, seed, samples_preflop
        self.weights = self.checked(weights)

    @staticmethod
    def checked(weights: tuple[float, ...]) -> np.ndarray:
        """`weights` as an array, or one `ConfigError` line unless they are a finite weight per round."""
        try:
            array = np.asarray(weights, dtype=np.float64)
        except (TypeError, ValueError):
            array = np.array([np.nan])
        if array.shape != (ROUNDS,) or not np.isfinite(array).all():
            raise ConfigError(
                f"the imaginary tier takes {ROUNDS} finite weights (pre-flop, flop, turn, river), "
                f"got {weights!r}"
            )
        return array

    def equities(self, hand: HindsightHand, known: int, board: tuple[int, ...]) -> np.ndarray:
        """float[1326]: the all-in equity of each holding of position `known` against the other's cards on
        `board`, no more betting (pre-flop over boards drawn from (seed, deal, known))."""
        u = 1 - known
        hole = (hand.holes[2 * u], hand.holes[2 * u + 1])
        if board:
            return 1.0 - win_ties(hole, board)
        rng = np.random.default_rng([self.seed, hand.deal, known])
        deck = np.array([c for c in range(52) if c not in hole])
        boards = deck[np.argsort(rng.random((self.samples_preflop, deck.size)), axis=1)[:, :5]]
        return 1.0 - win_ties_over(hole, (), boards)

    def tables(self, hand: HindsightHand, known: int, state: HandState) -> BoardTables:
        """The `BoardTables` of the state's board."""
        board, u = state.board_seen, 1 - known
        strength = preflop_percentiles() if not board else uniform_holding_strengths(board)
        other = float(strength[HOLDING_INDEX[hand.holes[2 * u], hand.holes[2 * u + 1]]])
        return BoardTables(self.equities(hand, known, board), strength, other)

    def values(self, state: HandState, known: int, tables: BoardTables, round_index: int) -> np.ndarray:
        """W(g, state) of position `known` for every holding g (chips): its net at a fold; mid-round (an
        action taken in `round_index`, the round not over) the all-in equity's share of the pot once the
        baseline has finished the round, the known seat acting on g's strength (Billings & Kan 2006); at a
        round's start or end, that share of the pot as it is; at a showdown, the equity on the full board."""
        out = np.empty(NUM_HOLDINGS)
        stack = [(state, np.ones(NUM_HOLDINGS, dtype=bool))]
        while stack:
            s, mask = stack.pop()
            if s.is_over and any(s.folds()):
                out[mask] = s.nets[known]
                continue
            if s.actor < 0 or s.round != round_index:
                out[mask] = tables.equity[mask] * sum(s.committed) - s.committed[known]
                continue
            legal, to_call = s.legal_actions(), s.to_call(s.actor)
            if s.actor != known:
                split = [
                    (baseline_action(tables.other, round_index, to_call, s.pot, s.bets_made, legal), mask)
                ]
            else:
                fold = to_call / (s.pot + to_call) if to_call > 0 else -np.inf
                make = MAKE[round_index]
                bet = make[s.bets_made] if RAISE in legal and s.bets_made < len(make) else np.inf
                folds = mask & (tables.strength < fold)
                raises = mask & ~folds & (tables.strength >= bet)
                split = [(FOLD, folds), (RAISE, raises), (CALL, mask & ~folds & ~raises)]
            for action, part in split:
                if part.any():
                    child = s.copy()
                    child.act(action)
                    stack.append((child, part))
        return out

    def hand(self, hand: HindsightHand, policies: dict[int, np.ndarray], known: int) -> np.ndarray:
        """X by position (chips) of the imaginary observations over position `known`'s holdings: u-bar(end)
        less the weighted brackets."""
        return imaginary_estimate(self.terms(hand, policies, [known]), self.weights)

    def terms(self, hand: HindsightHand, policies: dict[int, np.ndarray], known: list[int]) -> np.ndarray:
        """float[2, 5] by position: u-bar(end), then the brackets by round (`brackets`), the mean over the
        `known` positions' views (each seat's view counted for it and against the other)."""
        out = np.zeros((2, 1 + ROUNDS))
        for k in known:
            end, brackets = self.brackets(hand, policies, k)
            view = np.concatenate([[end], brackets])
            out[k] += view
            out[1 - k] -= view
        return out / len(known)

    def brackets(
        self, hand: HindsightHand, policies: dict[int, np.ndarray], known: int
    ) -> tuple[float, np.ndarray]:
        """(u-bar(end), the brackets' sums by the round whose pot values them) of position `known` (chips):
        the deal's and K's pre-flop actions' and the flop's in round 0, and so on."""
        k, u = known, 1 - known
        weights = np.ones(NUM_HOLDINGS)
        weights[
            (HOLDING_MASKS & (CARD_MASKS[hand.holes[2 * u]] | CARD_MASKS[hand.holes[2 * u + 1]])) != 0
        ] = 0
        state = hand.start(self.config)
        tables = self.tables(hand, k, state)

        def bar(w: np.ndarray, v: np.ndarray) -> float:
            return float(w @ v / w.sum())

        start = bar(weights, self.values(state, k, tables, -1))
        brackets = np.zeros(ROUNDS)
        brackets[0] = start - (sum(state.committed) / 2 - state.committed[k])
        for i, (p, action, _) in enumerate(hand.actions):
            board, r = state.board_seen, state.round
            if p == k:
                policy = policies[i]
                expected = 0.0
                for a in state.legal_actions():
                    child = state.copy()
                    child.act(a)
                    expected += float(weights @ (policy[:, a] * self.values(child, k, tables, r)))
                expected /= weights.sum()
                weights = weights * policy[:, action]
                weights /= weights.sum()  # the true holding's reach is positive (`with_query`)
                state.act(action)
                brackets[r] += bar(weights, self.values(state, k, tables, r)) - expected
            else:
                state.act(action)
            if len(state.board_seen) > len(board):  # the round's cards: one chance step
                before = bar(weights, self.values(state, k, tables, r))
                for card in state.board_seen[len(board) :]:
                    weights = weights * ((HOLDING_MASKS & CARD_MASKS[card]) == 0)
                tables = self.tables(hand, k, state)
                brackets[r] += bar(weights, self.values(state, k, tables, state.round - 1)) - before
        return bar(weights, self.values(state, k, tables, -1)), brackets


def aivat_of_folder(
    out: str | Path,
    seed: int,
    samples: int = DEFAULT_SAMPLES,
    shared_uniform: frozenset[str] = frozenset(),
    samples_preflop: int = SAMPLES_PREFLOP,
    weights: tuple[float, ...] = IMAGINARY_WEIGHTS,
) -> dict[str, SeatEstimates]:
    """Every tier's X of every hand of a heads-up results folder (its hindsight record), by tier (the
    imaginary tier, its brackets weighted by round with `weights`, where a seat is known by its query or
    its recorded answers); one `ConfigError` line for a folder without the record, of a game AIVAT does
    not cover here, or where no seat is known either way."""
    weights = Imaginary.checked(weights)
    record, tiers, terms = _walk(out, seed, samples, shared_uniform, samples_preflop)
    found = {t: seat_estimates(record, lambda h, k=k: tiers[h.hand][k]) for k, t in enumerate(TIERS[:2])}
    if terms:
        found["imaginary"] = seat_estimates(record, lambda h: imaginary_estimate(terms[h.hand], weights))
    return found


def imaginary_estimate(terms: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The imaginary tier's X by position from `Imaginary.terms`: u-bar(end) less the weighted brackets."""
    return terms[:, 0] - terms[:, 1:] @ weights


def fit_imaginary_weights(
    folders: list[str | Path], seed: int, samples_preflop: int = SAMPLES_PREFLOP
) -> tuple[float, ...]:
    """The least-squares weights of the imaginary tier's rounds (`fit_linear`, White & Bowling 2009) over
    the units (deals of a duplicate match) of calibration results folders pooled, the first seat's view;
    the rounded figures are `IMAGINARY_WEIGHTS`. Never fit them on the hands they will judge."""
    features, utility = [], []
    for out in folders:
        # one run-out for the chance and actions tiers, which the fit leaves aside
        record, _, terms = _walk(out, seed, 1, frozenset(), samples_preflop)
        if not terms:
            raise ConfigError(f"{str(out)!r}: no seat is known by its query or its recorded answers")
        columns = []
        for j in range(1 + ROUNDS):
            data = seat_estimates(record, lambda hand, j=j, terms=terms: terms[hand.hand][:, j])
            columns.append(unit_means(data.adjusted[:, 0], data.units))
        utility.append(columns[0])
        features.append(np.stack(columns[1:], axis=1))
    return tuple(float(w) for w in fit_linear(np.vstack(features), np.concatenate(utility)))


def _walk(out, seed, samples, shared_uniform, samples_preflop):
    """(the hindsight record, {hand: the chance and actions tiers' X by position}, {hand: the imaginary
    tier's `Imaginary.terms`}, empty where no seat is known) of a heads-up results folder."""
    record = read_hindsight(out, "AIVAT")
    if len(record.labels) != 2:
        raise ConfigError(f"AIVAT here covers heads-up matches; {str(out)!r} has {len(record.labels)} seats")
    unknown = sorted(set(shared_uniform) - set(record.labels))
    if unknown:
        raise ConfigError(f"--shared-uniform names {unknown}, not seats of {str(out)!r} ({record.labels})")
    answers = read_policies(out) or {}
    recorded = recorded_seats(record.hands, answers)
    imaginary = Imaginary(record.config, seed, samples_preflop)
    while True:
        try:
            return (record, *_tiers(out, record, seed, samples, shared_uniform, imaginary, answers, recorded))
        except Disagreement as exc:
            if exc.seat not in recorded:
                raise
            # answers that contradict what the seat played are not its policy: evaluate without them
            log.warning("%s: its answers in %s are not used (%s)", exc.seat, POLICIES_FILE, exc)
            recorded -= {exc.seat}


def _tiers(out, record, seed, samples, shared_uniform, imaginary, answers, recorded):
    """`_walk` with the seats in `recorded` known by their recorded answers."""
    known, why = known_by_query([label for label in record.labels if label not in recorded])
    if not known and not recorded and not any(q is not None for h in record.hands for _, _, q in h.actions):
        raise ConfigError(
            f"{str(out)!r} records no decision probabilities and no seat is known by its policy query ("
            + "; ".join(f"{label}: {reason}" for label, reason in why.items())
            + "): AIVAT's actions tier needs an agent that gives them (loki2-triples, ...) and a match "
            "played with --log-decisions, a fixed player answering the query (a stereotype, call, td:DIR), "
            "or a match played with --log-policies by a player that answers it in process (loki1, ...)"
        )
    # a seat with query answers has P(a | the hand so far) from them: its draw needs no narrowing here
    aivat = Aivat(record.config, seed, samples, frozenset(shared_uniform) - recorded - known.keys())
    tiers, terms = {}, {}
    for hand in record.hands:
        if known or recorded:
            hand, policies = with_query(hand, record.config, known, recorded, decoded(answers, hand))
            positions = [p for p in range(2) if hand.names[p] in known or hand.names[p] in recorded]
            terms[hand.hand] = imaginary.terms(hand, policies, positions)
        tiers[hand.hand] = aivat.hand(hand)
    return tiers, terms


def decoded(answers: dict[int, bytes], hand: HindsightHand) -> dict[int, np.ndarray] | None:
    """The hand's recorded answers ({action index: float32[1326, 3]}), None where it has no record."""
    return decode(answers[hand.hand]) if hand.hand in answers else None
