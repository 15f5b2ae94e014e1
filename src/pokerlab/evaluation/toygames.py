"""Kuhn and Leduc poker, small enough to enumerate: the exact tests of the control-variate core.

One-card poker for two seats: each antes, gets one private card from a small deck, and bets in limit
rounds (seat 0 acts first in every round); Leduc deals one public card between its two rounds, and a
private card that pairs it wins. Kuhn poker is Kuhn (1950): three cards, one round, bet 1, one bet. Leduc
poker is Southey et al. (2005): two suits of three ranks, bets 2 then 4, two raises a round.

A history is a tuple of events: card codes (ints; rank = code // suits) and actions "f", "c", "r".
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from pokerlab.evaluation.core import Step, ValueFunction, step


@dataclass(frozen=True)
class OneCardPoker:
    """A one-card poker game: ``ranks`` x ``suits`` cards, a bet size per round, ``max_raises`` a round."""

    ranks: int
    suits: int
    bets: tuple[int, ...]
    max_raises: int
    ante: int = 1

    @property
    def deck(self) -> range:
        """The card codes."""
        return range(self.ranks * self.suits)

    def _state(self, h: tuple) -> dict:
        """Replay ``h``: cards dealt, contributions, the round and its actions, a fold (cached: the exact
        tests ask for the same histories many times; callers never change the answer)."""
        return _replay(self, h)

    def _replay(self, h: tuple) -> dict:
        state = {"cards": [], "paid": [self.ante, self.ante], "round": 0, "acts": [], "folded": None}
        for event in h:
            if isinstance(event, str):
                self._apply(state, event)
            else:
                state["cards"].append(event)
        return state

    def _apply(self, state: dict, action: str) -> None:
        paid, bet = state["paid"], self.bets[state["round"]]
        seat = len(state["acts"]) % 2
        if action == "f":
            state["folded"] = seat
        elif action == "c":
            paid[seat] = max(paid)
        else:
            paid[seat] = max(paid) + bet
        state["acts"].append(action)
        if action == "c" and len(state["acts"]) >= 2 and state["round"] + 1 < len(self.bets):
            state["round"] += 1
            state["acts"] = []

    def is_terminal(self, h: tuple) -> bool:
        """Whether the hand is over (a fold, or the last round closed by a call)."""
        s = self._state(h)
        if s["folded"] is not None:
            return True
        return s["round"] == len(self.bets) - 1 and len(s["acts"]) >= 2 and s["acts"][-1] == "c"

    def chance(self, h: tuple) -> list[tuple[int, float]] | None:
        """The card dealt next as (card, probability) pairs, or None when a seat acts next."""
        s = self._state(h)
        due = 2 + s["round"]  # two private cards, then one public card per later round
        if len(s["cards"]) >= due or self.is_terminal(h):
            return None
        left = [c for c in self.deck if c not in s["cards"]]
        return [(c, 1.0 / len(left)) for c in left]

    def seat(self, h: tuple) -> int:
        """The seat to act."""
        return len(self._state(h)["acts"]) % 2

    def actions(self, h: tuple) -> tuple[str, ...]:
        """Legal actions: fold only facing a bet; raise while the round allows."""
        s = self._state(h)
        facing = s["acts"] and s["acts"][-1] == "r"
        raises = s["acts"].count("r")
        return ("f", "c", "r")[0 if facing else 1 : 3 if raises < self.max_raises else 2]

    def infoset(self, h: tuple) -> tuple:
        """What the seat to act knows: its card, the public cards and the actions."""
        seat = self.seat(h)
        cards = [e for e in h if not isinstance(e, str)]
        return (cards[seat], tuple(cards[2:]), tuple(e for e in h if isinstance(e, str)))

    def utility(self, h: tuple) -> np.ndarray:
        """Net chips of both seats at a terminal history (zero-sum)."""
        s = self._state(h)
        paid = s["paid"]
        if s["folded"] is not None:
            loser = s["folded"]
        else:
            strength = [self._strength(s["cards"][seat], s["cards"][2:]) for seat in (0, 1)]
            if strength[0] == strength[1]:
                return np.zeros(2)
            loser = 0 if strength[0] < strength[1] else 1
        out = np.zeros(2)
        out[loser] = -paid[loser]
        out[1 - loser] = paid[loser]
        return out

    def _strength(self, card: int, board: list[int]) -> int:
        rank = card // self.suits
        return rank + (self.ranks if board and board[0] // self.suits == rank else 0)


@functools.lru_cache(maxsize=1 << 16)
def _replay(game: OneCardPoker, h: tuple) -> dict:
    return game._replay(h)


KUHN = OneCardPoker(ranks=3, suits=1, bets=(1,), max_raises=1)
LEDUC = OneCardPoker(ranks=3, suits=2, bets=(2, 4), max_raises=2)

#: A strategy: an infoset -> {action: probability}.
Strategy = dict


def random_strategy(game: OneCardPoker, rng: np.random.Generator) -> Strategy:
    """A random behaviour strategy for both seats: Dirichlet(1) probabilities at every infoset."""
    out: Strategy = {}
    for h, _ in _histories(game, (), None):
        if game.chance(h) is None and not game.is_terminal(h):
            key = game.infoset(h)
            if key not in out:
                acts = game.actions(h)
                out[key] = dict(zip(acts, rng.dirichlet(np.ones(len(acts))), strict=True))
    return out


def _histories(game: OneCardPoker, h: tuple, strategy: Strategy | None, p: float = 1.0) -> Iterator[tuple]:
    """Every history below ``h`` with its probability (1 at decisions when ``strategy`` is None)."""
    yield h, p
    if game.is_terminal(h):
        return
    dist = game.chance(h)
    if dist is None:
        probs = strategy[game.infoset(h)] if strategy is not None else dict.fromkeys(game.actions(h), 1.0)
        dist = list(probs.items())
    for x, q in dist:
        yield from _histories(game, h + (x,), strategy, p * q)


def terminals(game: OneCardPoker, strategy: Strategy) -> list[tuple[tuple, float]]:
    """Every terminal history with its probability under ``strategy`` and the uniform deal."""
    return [(h, p) for h, p in _histories(game, (), strategy) if game.is_terminal(h) and p > 0]


def steps_of(
    game: OneCardPoker,
    z: tuple,
    value: ValueFunction,
    known: dict[int, Strategy],
    chance: bool = True,
) -> list[Step]:
    """The known steps of the terminal history ``z``: every card (with ``chance``), and the actions of the
    seats in ``known`` under the strategy given for each."""
    out = []
    for t in range(len(z)):
        h = z[:t]
        dist = game.chance(h)
        if dist is not None:
            if chance:
                out.append(step(value, h, dist, z[t]))
        elif game.seat(h) in known:
            out.append(step(value, h, list(known[game.seat(h)][game.infoset(h)].items()), z[t]))
    return out


def continuation_value(game: OneCardPoker, strategy: Strategy) -> ValueFunction:
    """The exact expected net chips of both seats from a history on, under ``strategy`` and the uniform
    deal: the ideal W (Zinkevich et al. 2006), for which the estimator has zero variance."""
    cache: dict[tuple, np.ndarray] = {}

    def value(h: tuple) -> np.ndarray:
        if h not in cache:
            if game.is_terminal(h):
                cache[h] = game.utility(h)
            else:
                dist = game.chance(h) or list(strategy[game.infoset(h)].items())
                cache[h] = sum(p * value(h + (x,)) for x, p in dist)
        return cache[h]

    return value


def cards_dealt(h: tuple) -> int:
    """How many cards ``h`` has dealt (the two private cards, then the public one)."""
    return sum(not isinstance(e, str) for e in h)


def alternatives(game: OneCardPoker, h: tuple, seat: int) -> list[tuple]:
    """The histories the other seat cannot tell from ``h``: ``seat``'s private card replaced by every card
    not held by the other seat nor on the board dealt *so far* in ``h`` (``h`` itself among them); ``h``
    whole when ``seat``'s card is not dealt yet."""
    if cards_dealt(h) <= seat:
        return [h]
    where = [t for t, e in enumerate(h) if not isinstance(e, str)][seat]
    seen = {e for t, e in enumerate(h) if not isinstance(e, str) and t != where}
    return [h[:where] + (g,) + h[where + 1 :] for g in game.deck if g not in seen]


def reach(game: OneCardPoker, h: tuple, seat: int, strategy: Strategy) -> float:
    """The product of ``seat``'s action probabilities along ``h`` under ``strategy`` (its reach; the
    chance probabilities, equal across `alternatives`, cancel)."""
    p = 1.0
    for t, e in enumerate(h):
        if isinstance(e, str) and game.seat(h[:t]) == seat:
            p *= strategy[game.infoset(h[:t])].get(e, 0.0)
    return p


def imaginary(
    game: OneCardPoker,
    value: ValueFunction,
    seat: int,
    strategy: Strategy,
    round_weights: tuple[float, float] = (1.0, 1.0),
) -> Callable[[tuple], np.ndarray]:
    """AIVAT with imaginary observations over ``seat``'s private card (Burch et al. 2018; Bowling et al.
    2008): W averaged over the `alternatives` weighted by ``seat``'s `reach` under its known ``strategy``,
    W-bar(O), and at every card but ``seat``'s own and at every action of ``seat`` the correction
    W-bar(O x_obs) - sum_x P(x | O) W-bar(O x), P(x | O) the reach-weighted mixture of the alternatives'
    distributions. X = the payoff averaged so (u-bar) - the corrections, each times ``round_weights`` of
    the round it is taken in (before or after the public card), per seat; the other seat's actions get
    none. Returns z -> X(z), the weighted sums kept between calls."""
    cache: dict[tuple, tuple[float, np.ndarray]] = {}

    def weighted(h: tuple, w_of: ValueFunction = value) -> tuple[float, np.ndarray]:
        key = (h, w_of is value)
        if key not in cache:
            cache[key] = _weighted(h, w_of)
        return cache[key]

    def _weighted(h: tuple, w_of: ValueFunction) -> tuple[float, np.ndarray]:
        alts = alternatives(game, h, seat)
        w = np.array([reach(game, a, seat, strategy) for a in alts])
        if w.sum() == 0:
            return 0.0, np.zeros(2)
        return float(w.sum()), sum(
            wi * np.asarray(w_of(a), dtype=np.float64) for wi, a in zip(w, alts, strict=True) if wi
        )

    def bar(h: tuple) -> np.ndarray:
        total, sum_w = weighted(h)
        return sum_w / total

    def estimate(z: tuple) -> np.ndarray:
        total, sum_u = weighted(z, game.utility)
        return sum_u / total - sum(
            round_weights[cards_dealt(z[:t]) > 2] * correction(z[:t], z[t]) for t in range(len(z))
        )

    def correction(h: tuple, observed) -> np.ndarray:
        dealt = cards_dealt(h)
        if game.chance(h) is None and game.seat(h) != seat or game.chance(h) and dealt == seat:
            return np.zeros(2)  # the other seat's action, or the known seat's card, which it does not see
        total, _ = weighted(h)
        expected = np.zeros(2)
        for child in {h + (e,) for a in alternatives(game, h, seat) for e, _ in _moves(game, a, strategy)}:
            mass, sum_w = weighted(child)
            if mass > 0:
                # P(x | O) = sum_g w(g) P(x | g) / sum_g w(g), and w(g) P(x | g) summed is the child's mass
                # times the chance probability (equal across its alternatives) for a card
                p_child = mass * _chance_factor(game, h, child[-1]) / total
                expected += p_child * sum_w / mass
        return bar(h + (observed,)) - expected

    return estimate


def _moves(game: OneCardPoker, h: tuple, strategy: Strategy) -> list[tuple]:
    return game.chance(h) or list(strategy[game.infoset(h)].items())


def _chance_factor(game: OneCardPoker, h: tuple, x) -> float:
    """P(x | g) for a card x (the same for every alternative g that x does not meet); 1 for an action (its
    probability is inside the child's reach)."""
    if isinstance(x, str):
        return 1.0
    left = [c for c in game.deck if c not in {e for e in h if not isinstance(e, str)}]
    return 1.0 / len(left)
