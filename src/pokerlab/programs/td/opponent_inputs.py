"""The opponent model's predictions as inputs of the TD network (docs/learning-spec-td.md §A.10, "Use in the
TD network"; switch ``opponent_model_inputs``).

For each action P may take (call, raise) the situation the opponent would then face is built from P's view
alone, and the next-action network of `pokerlab.modeling.next_action` gives the opponent's P(fold),
P(check/call), P(bet/raise) there; zeros when the action ends the hand or the betting round (the opponent
does not act next in it). Action-value heads get six inputs (call, then raise), an after-state three (those
of its own action).

One model per opponent identity (the trainer's opponent id; None for an unlabelled opponent), each started
as a copy of a generic model that learns from every opponent met (§A.10: "start from a generic model
trained on all opponents met so far"). The models learn from each finished hand: the hand is replayed from
what P saw (its own cards, the board, the actions) and every opponent decision is one cross-entropy step on
the context the opponent faced [OUR CHOICE: after the hand rather than after each decision; within a hand
the predictions come from the models as they stood at its start].

Information hiding: the opponent's hole cards are never read. Replays put two stand-in cards in the
opponent's seat (the lowest codes not among P's cards and the board seen), and the context reads public
information only (`pokerlab.modeling.next_action.context`).
"""

from __future__ import annotations

import copy

import numpy as np

from pokerlab.actions import CALL, RAISE
from pokerlab.engine import GameConfig, HandEnd, HandState, SeatView, seat_view, state_from_view
from pokerlab.modeling.next_action import NextActionNetwork, context

#: The continuations whose predictions are inputs in action-value mode, in input order.
CONTINUATIONS = (CALL, RAISE)


def stand_in_cards(position: int, hole: tuple[int, int], board: tuple[int, ...]) -> tuple[list, list]:
    """(hole cards, run-out) of a heads-up hand as P knows it: P's cards at `position`, the board so far,
    and stand-ins (the lowest codes not among those) for the opponent's cards and the cards to come."""
    taken = {*hole, *board}
    spare = [c for c in range(52) if c not in taken][: 2 + 5 - len(board)]
    holes = [*spare[:2], *spare[:2]]
    holes[2 * position : 2 * position + 2] = hole
    return holes, [*board, *spare[2:]]


class OpponentInputs:
    """The opponent models of one TD player and the inputs they give."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.generic = NextActionNetwork(rng)
        self.models: dict[int | None, NextActionNetwork] = {}

    def model(self, opponent: int | None) -> NextActionNetwork:
        """The model of opponent `opponent`, started from the generic one when first met."""
        if opponent not in self.models:
            self.models[opponent] = copy.deepcopy(self.generic)
        return self.models[opponent]

    def predictions(self, view: SeatView, action: int, opponent: int | None) -> np.ndarray:
        """The opponent's (fold, call, raise) probabilities after P's `action`; zeros when the hand or the
        round ends with it or it is not legal."""
        if action not in view.legal_actions:
            return np.zeros(3)
        p = view.position
        state = state_from_view(view, *stand_in_cards(p, view.hole, view.board))
        state.act(action)
        if state.actor < 0 or state.round != view.round or state.actor == p:
            return np.zeros(3)
        model = self.models.get(opponent, self.generic)
        return model.predict(context(seat_view(state, state.actor)))

    def inputs(self, view: SeatView, actions: tuple[int, ...], opponent: int | None) -> np.ndarray:
        """The block appended to the TD inputs: three predictions per action of `actions`."""
        return np.concatenate([self.predictions(view, a, opponent) for a in actions])

    def learn(
        self, config: GameConfig, position: int, hole: tuple[int, int], end: HandEnd, opponent: int | None
    ) -> None:
        """One step of the opponent's model and of the generic model per opponent decision of the hand."""
        state = HandState(config, *stand_in_cards(position, hole, end.board))
        model = self.model(opponent)
        for record in end.actions:
            if record.position != position:
                x = context(seat_view(state, record.position))
                model.learn(x, record.action)
                if model is not self.generic:
                    self.generic.learn(x, record.action)
            state.act(record.action)

    def state(self) -> dict[str, np.ndarray]:
        """Every model's weights as arrays: ``om_ids`` (−1 for None) and one row of weights each."""
        keys = list(self.models)
        return {
            "om_ids": np.array([-1 if k is None else k for k in keys], dtype=np.int64),
            "om_weights": np.array([*(weights(self.models[k]) for k in keys), weights(self.generic)]),
        }

    def load(self, state: dict[str, np.ndarray]) -> None:
        """Restore what `state` wrote (the last row is the generic model)."""
        rows = np.asarray(state["om_weights"], dtype=float)
        ids = [None if k == -1 else int(k) for k in state["om_ids"]]
        set_weights(self.generic, rows[-1])
        self.models = {}
        for k, row in zip(ids, rows[:-1], strict=True):
            set_weights(self.model(k), row)


def weights(model: NextActionNetwork) -> np.ndarray:
    """A model's parameters as one vector."""
    return np.concatenate([model.w1.ravel(), model.b1, model.w2.ravel(), model.b2])


def set_weights(model: NextActionNetwork, vector: np.ndarray) -> None:
    """Set a model's parameters from `weights`' vector."""
    at = 0
    for array in (model.w1, model.b1, model.w2, model.b2):
        array[...] = vector[at : at + array.size].reshape(array.shape)
        at += array.size
