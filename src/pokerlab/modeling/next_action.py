"""Predicting an opponent's next action (docs/learning-spec-td.md §A.10, after Davidson 1999's network): a
19-value context of public information, a 19-10-3 network trained online by cross-entropy, and a frequency
table as the baseline it must beat.

Context (Davidson 1999 Fig. 1; reals scaled to [0, 1], Booleans 0/1), for the player about to act:
immediate pot odds, its bet ratio bets / (bets + calls) this hand, its pot ratio (chips put in / pot),
whether it has put chips in this round, bets to call = 0 / 1 / ≥ 2, stage flop / turn / river, whether it
faced a bet at its previous decision, whether its previous action was a bet or raise, players dealt / 10,
active players / 10, players yet to act this round / 10, flush possible (three of a suit on the board), ace
on board, king on board, and (aces, kings, queens on the board) / board cards. Which hand the bet ratio
covers, and the network's size and step (10 hidden units, α = 0.05) are [OUR CHOICE] (§A.10).
"""

from __future__ import annotations

import numpy as np

from pokerlab.engine import CALL, RAISE, SeatView

CONTEXT_SIZE = 19


def context(view: SeatView) -> np.ndarray:
    """The 19 context values of the player to act in `view`, from public information only (the view's own
    hole cards are never read)."""
    p = view.position
    mine = [r for r in view.actions if r.position == p]
    bets = sum(1 for r in mine if r.action == RAISE)
    calls = sum(1 for r in mine if r.action == CALL)
    committed = view.committed[p]
    to_call_bets = -(-view.to_call // view.bet_size)  # the small blind's half bet counts as one
    in_round = any(r.round == view.round and r.amount > 0 for r in mine) or (
        view.round == 0 and view.blinds[p] > 0
    )
    acted_round = {r.position for r in view.actions if r.round == view.round}
    folded = view.folded
    unacted = sum(1 for q in range(view.players) if q != p and not folded[q] and q not in acted_round)
    board = view.board
    suits = [0, 0, 0, 0]
    for c in board:
        suits[c % 4] += 1
    ranks = [c // 4 for c in board]
    return np.array(
        [
            view.to_call / (view.pot + view.to_call) if view.to_call else 0.0,
            bets / (bets + calls) if bets + calls else 0.0,
            committed / view.pot if view.pot else 0.0,
            float(in_round),
            float(to_call_bets == 0),
            float(to_call_bets == 1),
            float(to_call_bets >= 2),
            float(view.round == 1),
            float(view.round == 2),
            float(view.round == 3),
            float(bool(mine) and mine[-1].to_call > 0),
            float(bool(mine) and mine[-1].action == RAISE),
            view.players / 10,
            view.active_players / 10,
            unacted / 10,
            float(max(suits) >= 3),
            float(12 in ranks),
            float(11 in ranks),
            sum(1 for r in ranks if r >= 10) / len(board) if board else 0.0,
        ]
    )


class NextActionNetwork:
    """P(fold), P(check/call), P(bet/raise) from a context: one hidden layer of sigmoid units and a softmax,
    trained online by one cross-entropy gradient step per observed decision (§A.10)."""

    def __init__(
        self, rng: np.random.Generator, hidden: int = 10, alpha: float = 0.05, scale: float = 0.1
    ) -> None:
        self.alpha = alpha
        self.w1 = rng.uniform(-scale, scale, (hidden, CONTEXT_SIZE))
        self.b1 = np.zeros(hidden)
        self.w2 = rng.uniform(-scale, scale, (3, hidden))
        self.b2 = np.zeros(3)

    def _forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = 0.5 * (1 + np.tanh(0.5 * (self.w1 @ x + self.b1)))
        z = self.w2 @ h + self.b2
        e = np.exp(z - z.max())
        return h, e / e.sum()

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The three probabilities (fold, call, raise) for context `x`."""
        return self._forward(x)[1]

    def learn(self, x: np.ndarray, action: int) -> None:
        """One gradient step on −log P(action | x): ∂/∂z = p − onehot, back through the sigmoid layer."""
        h, p = self._forward(x)
        dz = p.copy()
        dz[action] -= 1.0
        dh = (self.w2.T @ dz) * h * (1 - h)
        self.w2 -= self.alpha * np.outer(dz, h)
        self.b2 -= self.alpha * dz
        self.w1 -= self.alpha * np.outer(dh, x)
        self.b1 -= self.alpha * dh


class FrequencyTable:
    """The baseline: the opponent's action frequencies per stage and bets to call (0, 1, ≥ 2), each cell
    starting from one pseudo-count per action (add-one smoothing) [OUR CHOICE]."""

    def __init__(self) -> None:
        self.counts = np.ones((4, 3, 3))

    @staticmethod
    def _cell(x: np.ndarray) -> tuple[int, int]:
        stage = 1 + int(np.argmax(x[7:10])) if x[7:10].any() else 0
        return stage, int(np.argmax(x[4:7]))

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The smoothed frequencies (fold, call, raise) of the context's cell."""
        row = self.counts[self._cell(x)]
        return row / row.sum()

    def learn(self, x: np.ndarray, action: int) -> None:
        """Count one observed action."""
        self.counts[(*self._cell(x), action)] += 1


def scores(model, contexts: list[np.ndarray], actions: list[int]) -> tuple[float, float]:
    """(accuracy, mean log-loss in nats) of `model`'s predictions on held-out decisions."""
    if not contexts:
        return float("nan"), float("nan")
    probs = np.array([model.predict(x) for x in contexts])
    actions = np.asarray(actions)
    accuracy = float(np.mean(np.argmax(probs, axis=1) == actions))
    loss = float(-np.mean(np.log(np.clip(probs[np.arange(len(actions)), actions], 1e-12, 1.0))))
    return accuracy, loss
