"""The average-policy network of stage 3 (docs/learning-spec-td.md §A.8.3; the idea from Heinrich & Silver's
NFSP): a second network on the TD player's inputs with a 3-way softmax (fold, call, raise), trained by
supervised classification to imitate the actions the TD player chose greedily, from a reservoir-sampled
memory. At play time the player acts from it, taking the greedy TD action with a small probability instead.

Memory size, step size, steps per hand and the mixing probability are [OUR CHOICE] (``average_*`` fields).
"""

from __future__ import annotations

import numpy as np

from pokerlab.programs.td.network import Network


def softmax(z: np.ndarray) -> np.ndarray:
    """exp(z) / Σ exp(z), shifted by the maximum against overflow."""
    e = np.exp(z - z.max())
    return e / e.sum()


class AveragePolicy:
    """The imitation network and its reservoir memory of (pre-decision inputs, greedy action) pairs."""

    def __init__(
        self, inputs: int, hidden: int, capacity: int, alpha: float, rng: np.random.Generator
    ) -> None:
        self.network = Network(inputs, hidden, 3, True, rng)
        self.capacity = capacity
        self.alpha = alpha
        self.memory = np.zeros((capacity, inputs))
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.seen = 0

    def probabilities(self, x: np.ndarray, options: tuple[int, ...]) -> np.ndarray:
        """P(fold), P(call), P(raise) at inputs `x`, zero outside `options` and renormalised."""
        p = softmax(self.network(x))
        mask = np.zeros(3)
        mask[list(options)] = 1.0
        p = p * mask
        return p / p.sum()

    def remember(self, x: np.ndarray, action: int, rng: np.random.Generator) -> None:
        """Reservoir sampling (Vitter's algorithm R): every decision seen so far is in memory with the same
        probability, capacity / seen."""
        slot = self.seen if self.seen < self.capacity else int(rng.integers(self.seen + 1))
        if slot < self.capacity:
            self.memory[slot], self.actions[slot] = x, action
        self.seen += 1

    def step(self, x: np.ndarray, action: int) -> float:
        """One gradient step on −log P(action | x); returns the loss before the step. With logits z,
        ∂(−log p_a)/∂z = p − onehot(a), so the step is −α Σ_k (p_k − [k = a]) ∇z_k."""
        z, grads = self.network.gradients(x, (0, 1, 2))
        p = softmax(z)
        dz = p.copy()
        dz[action] -= 1.0
        self.network.theta -= self.alpha * (dz @ grads)
        return float(-np.log(max(p[action], 1e-300)))

    def train(self, steps: int, rng: np.random.Generator) -> None:
        """`steps` steps on decisions drawn uniformly from memory (none while it is empty)."""
        filled = min(self.seen, self.capacity)
        for _ in range(steps if filled else 0):
            i = int(rng.integers(filled))
            self.step(self.memory[i], int(self.actions[i]))
