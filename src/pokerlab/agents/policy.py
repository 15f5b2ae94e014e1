"""The all-holdings policy query: "what would you do here with each of the 1,326 holdings?"

An optional capability of an agent (Lisý & Bowling 2017; docs/exploitability.md): an agent that has it
defines ``policy_for_holdings(view) -> float[1326, 3]``, row i the (fold, call, raise) probabilities with
which it would act on `view` holding `HOLDING_CARDS[i]`, rows summing to 1, and zero rows for holdings that
clash with the board. Local best response (`pokerlab.evaluation.lbr`) asks it at every action of the
target, and once more per raise it considers.

The rules of the query:

* the view it is given is a `blind_view`: its hole is ``(UNKNOWN, UNKNOWN)``. The asker builds it from the
  public actions and the board only, so no seat's cards, the agent's own true ones included, are reachable;
* it is pure: it neither advances the agent's random generator nor changes what the agent knows, so asking
  cannot change how the agent plays (the asker also keeps a copy of its own to ask);
* it answers what `act` would do: the probabilities of the actions `act` returns on that view with that
  hole (an action `act` never returns has probability 0).

A card-blind player (always call, always raise, random, a fixed mix) answers one row for every holding; a
player whose decision is a function of its hole and the public view alone (`action_probabilities(view)`,
the view carrying the substituted hole) gets the query from `policy_by_substitution`. Players whose act
depends on state they update with their own decisions, or on a simulation, do not offer it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

import numpy as np

from pokerlab.cards import CARD_MASKS
from pokerlab.engine import SeatView
from pokerlab.holdings import HOLDING_CARDS, HOLDING_MASKS, NUM_HOLDINGS

#: The hole of a view given to the query: no card.
NO_HOLE = (-1, -1)


@runtime_checkable
class HoldingsPolicy(Protocol):
    """An agent that answers the all-holdings policy query (the module doc)."""

    def policy_for_holdings(self, view: SeatView) -> np.ndarray:
        """float[1326, 3]: (fold, call, raise) per holding on `view` (its hole ignored), 0 rows for
        holdings that clash with the board."""
        ...


def holdings_policy_refusal(agent: object) -> str | None:
    """None where `agent` answers the all-holdings policy query, else why not. A player that offers the
    query in some configurations only makes `policy_for_holdings` a property that raises AttributeError,
    saying why, where it does not (Loki-2 when it simulates, an evolving Barone & While player that
    cycles)."""
    if not hasattr(type(agent), "policy_for_holdings"):
        return "it has no policy_for_holdings"
    try:
        query = agent.policy_for_holdings
    except AttributeError as exc:
        return str(exc)
    return None if callable(query) else "its policy_for_holdings is not callable"


def supports_holdings_policy(agent: object) -> bool:
    """Whether `agent` answers the all-holdings policy query."""
    return holdings_policy_refusal(agent) is None


def blind_view(view: SeatView) -> SeatView:
    """`view` without its hole cards (``(UNKNOWN, UNKNOWN)``), as the query is given it."""
    return view._replace(hole=NO_HOLE)


def board_clash(board) -> np.ndarray:
    """bool[1326]: the holdings that share a card with `board`."""
    mask = np.uint64(0)
    for card in board:
        mask |= CARD_MASKS[card]
    return (HOLDING_MASKS & mask) != 0


def triple_of(probabilities: dict[int, float] | tuple) -> np.ndarray:
    """(fold, call, raise) as a float[3] from a tuple or an {action: probability} dict."""
    if isinstance(probabilities, dict):
        out = np.zeros(3)
        for action, p in probabilities.items():
            out[action] += p
        return out
    return np.asarray(probabilities, dtype=float)


def same_for_all_holdings(view: SeatView, triple) -> np.ndarray:
    """The query's answer of a card-blind player that acts with `triple` whatever it holds."""
    out = np.empty((NUM_HOLDINGS, 3))
    out[:] = triple_of(triple)
    out[board_clash(view.board)] = 0.0
    return out


def policy_by_substitution(probabilities: Callable[[SeatView], tuple], view: SeatView) -> np.ndarray:
    """The query's answer from a per-holding rule: ``probabilities(view with hole h)`` for every holding h
    that does not clash with the board (the plain loop: 1,326 calls at most)."""
    out = np.zeros((NUM_HOLDINGS, 3))
    clash = board_clash(view.board)
    for i in range(NUM_HOLDINGS):
        if not clash[i]:
            out[i] = triple_of(
                probabilities(view._replace(hole=(int(HOLDING_CARDS[i, 0]), int(HOLDING_CARDS[i, 1]))))
            )
    return out
