"""The TD-Hold'em network and its TD(λ) trace chain (docs/learning-spec-td.md §A.6).

`Network`: one hidden layer of sigmoid units, sigmoid or linear outputs (h = σ(W1 x + b1), y = f(W2 h + b2),
§A.6.1), with the analytic gradient of each output (§A.6.2). `TDChain`: Tesauro's rule (Tesauro 1995,
the article's lost Fig. 2) over one sequence of states, one trace per output followed, no discount, the reward
only at the end (§A.6.3), updated after every state ("online") or with the weights frozen until the end of
the sequence ("end_of_hand", the form of the offline λ = 1 equivalence, §A.8.1 G3).

`Network.gradients` (numpy) is the plain reference; `accumulate_trace` is the numba kernel the chain uses
(the output, and e ← λ e + ∇y in place, without building the gradient), tested equal to it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba as nb
import numpy as np

PARAMS = ("w1", "b1", "w2", "b2")


def sigmoid(z: np.ndarray) -> np.ndarray:
    """The logistic function, 1 / (1 + e^-z), computed without overflow."""
    return 0.5 * (1.0 + np.tanh(0.5 * z))


@nb.njit(cache=True)
def accumulate_trace(
    theta: np.ndarray,
    x: np.ndarray,
    ks: np.ndarray,
    hidden: int,
    outputs: int,
    linear: bool,
    lam: float,
    trace: np.ndarray,
) -> np.ndarray:
    """The outputs y[ks] of the network `theta` at `x`, and trace[c] ← λ trace[c] + ∂y_{ks[c]}/∂θ in place
    (the formulas of `Network.gradients`; numba kernel)."""
    inputs = x.size
    at_b1 = hidden * inputs
    at_w2 = at_b1 + hidden
    at_b2 = at_w2 + outputs * hidden
    h = np.empty(hidden)
    for j in range(hidden):
        z = theta[at_b1 + j]
        row = j * inputs
        for i in range(inputs):
            z += theta[row + i] * x[i]
        h[j] = 0.5 * (1.0 + np.tanh(0.5 * z))
    values = np.empty(ks.size)
    trace *= lam
    for c in range(ks.size):
        k = ks[c]
        z = theta[at_b2 + k]
        for j in range(hidden):
            z += theta[at_w2 + k * hidden + j] * h[j]
        y = z if linear else 0.5 * (1.0 + np.tanh(0.5 * z))
        values[c] = y
        d = 1.0 if linear else y * (1.0 - y)
        tc = trace[c]
        tc[at_b2 + k] += d
        for j in range(hidden):
            tc[at_w2 + k * hidden + j] += d * h[j]
            g = d * theta[at_w2 + k * hidden + j] * h[j] * (1.0 - h[j])
            tc[at_b1 + j] += g
            if g != 0.0:
                row = j * inputs
                for i in range(inputs):
                    tc[row + i] += g * x[i]
    return values


class Network:
    """A one-hidden-layer perceptron: `inputs` -> `hidden` sigmoid units -> `outputs` units, sigmoid or
    linear. Weights uniform in ±`scale`, biases 0 (§A.6.1)."""

    def __init__(
        self,
        inputs: int,
        hidden: int,
        outputs: int,
        linear: bool,
        rng: np.random.Generator,
        scale: float = 0.1,
    ) -> None:
        self.linear = linear
        self.shapes = [(hidden, inputs), (hidden,), (outputs, hidden), (outputs,)]
        ends = np.cumsum([int(np.prod(shape)) for shape in self.shapes]).tolist()
        self.spans = list(zip([0, *ends[:-1]], ends, strict=True))
        self.theta = np.zeros(ends[-1])  # every weight in one vector; w1 .. b2 are views into it
        self.w1[...] = rng.uniform(-scale, scale, (hidden, inputs))
        self.w2[...] = rng.uniform(-scale, scale, (outputs, hidden))

    def _view(self, index: int) -> np.ndarray:
        start, end = self.spans[index]
        return self.theta[start:end].reshape(self.shapes[index])

    # views made on demand, so that a pickled (copied) network keeps a single weight vector
    w1 = property(lambda self: self._view(0), doc="input-to-hidden weights (hidden x inputs), a view")
    b1 = property(lambda self: self._view(1), doc="hidden biases, a view")
    w2 = property(lambda self: self._view(2), doc="hidden-to-output weights (outputs x hidden), a view")
    b2 = property(lambda self: self._view(3), doc="output biases, a view")

    @property
    def params(self) -> list[np.ndarray]:
        """The weight arrays in `PARAMS` order (views: changing them changes the network)."""
        return [self.w1, self.b1, self.w2, self.b2]

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(hidden activations h, outputs y) for one input vector."""
        h = sigmoid(self.w1 @ x + self.b1)
        z = self.w2 @ h + self.b2
        return h, (z if self.linear else sigmoid(z))

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """The outputs for one input vector."""
        return self.forward(x)[1]

    def outputs_of_rows(self, x: np.ndarray) -> np.ndarray:
        """The outputs for every row of the matrix `x` (`forward`'s pass, batched)."""
        y = sigmoid(x @ self.w1.T + self.b1) @ self.w2.T + self.b2
        return y if self.linear else sigmoid(y)

    def gradients(self, x: np.ndarray, outputs: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """(y, G): G[c] = ∂y_k/∂θ for the c-th k in `outputs`, laid out like `theta` (§A.6.2): with
        d_k = y_k (1 − y_k) (1 when linear) and g = h (1 − h), ∂y_k/∂w2[k] = d_k h, ∂y_k/∂b2[k] = d_k,
        ∂y_k/∂b1 = d_k w2[k] g, ∂y_k/∂w1 = (d_k w2[k] g) ⊗ x."""
        h, y = self.forward(x)
        ks = list(outputs)
        d = np.ones(len(ks)) if self.linear else y[ks] * (1 - y[ks])
        count, (hidden, inputs), outs = len(ks), self.shapes[0], self.b2.size
        grads = np.zeros((count, self.theta.size))
        g_b1 = d[:, None] * self.w2[ks] * (h * (1 - h))[None, :]
        at = hidden * inputs
        grads[:, :at] = (g_b1[:, :, None] * x[None, None, :]).reshape(count, at)
        grads[:, at : at + hidden] = g_b1
        at += hidden
        for c, k in enumerate(ks):
            grads[c, at + k * hidden : at + (k + 1) * hidden] = d[c] * h
            grads[c, at + outs * hidden + k] = d[c]
        return y, grads

    def split(self, flat: np.ndarray) -> list[np.ndarray]:
        """A vector laid out like `theta` as arrays shaped like w1, b1, w2, b2 (views)."""
        lead = flat.shape[:-1]
        return [
            flat[..., a:b].reshape(*lead, *shape)
            for (a, b), shape in zip(self.spans, self.shapes, strict=True)
        ]

    def state(self) -> dict[str, np.ndarray]:
        """The weights by name (copies)."""
        return {name: p.copy() for name, p in zip(PARAMS, self.params, strict=True)}

    def load(self, state: dict[str, np.ndarray]) -> None:
        """Take weights of the same shapes back from `state`."""
        for name, p in zip(PARAMS, self.params, strict=True):
            if state[name].shape != p.shape:
                raise ValueError(f"weights {name}: shape {state[name].shape}, this network has {p.shape}")
            p[...] = state[name]


class TDChain:
    """TD(λ) over one sequence of states (one player's decisions in one hand, §A.6.3).

    For states s_1 .. s_T and a final target z: before s_t (t > 1) the weights move by α Σ_k δ_k e_k with
    δ = Y(s_t) − Y(s_{t−1}); then e_k ← λ e_k + ∇Y_k(s_t); at the end δ = z − Y(s_T). Each state names the
    outputs it follows (all four for the class head, the taken action's for action values, §A.6.5); the
    traces are the ones of the current positions in that list. ``updates`` counts weight changes (TD-13).
    """

    def __init__(self, network: Network, lam: float, online: bool = True) -> None:
        self.network = network
        self.lam = lam
        self.online = online
        self.updates = 0
        self.reset()

    def reset(self) -> None:
        """Start a new sequence: traces cleared, nothing pending."""
        self.trace: np.ndarray | None = None
        self.last: np.ndarray | None = None
        self.pending: np.ndarray | None = None

    @property
    def started(self) -> bool:
        """Whether a state was visited since the last reset."""
        return self.last is not None

    def _step(self, delta: np.ndarray, alpha: float) -> None:
        step = alpha * (delta @ self.trace)
        self.updates += 1
        if self.online:
            self.network.theta += step
        elif self.pending is None:
            self.pending = step
        else:
            self.pending += step

    def visit(self, x: np.ndarray, outputs: Sequence[int], alpha: float) -> np.ndarray:
        """Visit state `x` following `outputs`; returns their values Y(x)."""
        net = self.network
        ks = np.asarray(outputs, dtype=np.int64)
        if self.last is not None:
            self._step(net(x)[ks] - self.last, alpha)
        if self.trace is None:
            self.trace = np.zeros((ks.size, net.theta.size))
        hidden, outs = net.b1.size, net.b2.size
        self.last = accumulate_trace(net.theta, x, ks, hidden, outs, net.linear, self.lam, self.trace)
        return self.last

    def finish(self, target: np.ndarray, alpha: float) -> None:
        """End the sequence with the final target z (one value per followed output); then reset."""
        if self.last is not None:
            self._step(np.asarray(target, float) - self.last, alpha)
            if self.pending is not None:
                self.network.theta += self.pending
        self.reset()
