"""A candidate of Barone & While 2000 §3.2: seven genes in [0, 1] that shape three betting functions of x,
the probability of winning (docs/barone-while.md §3-4).

Genes, in the order (a_f, b_f, a_c, b_c, c_c, a_r, b_r), with eval(c) = c / (1 - c):

* fold(x)  = exp(-eval(b_f) (x - a_f))
* call(x)  = eval(c_c) exp(-eval(b_c)^2 (x - a_c)^2)
* raise(x) = exp(eval(b_r) (x + a_r - 1))

The responses are computed as logarithms (eval(0.999) = 999 would overflow exp) and turned into
probabilities by normalising them (a softmax of the logarithms). One uniform u picks the action in the fixed
order fold, call, raise. Every function takes genes of shape (..., 7), so one call serves a whole population.
"""

from __future__ import annotations

import math

import numpy as np

#: The gene names in storage order (docs/barone-while.md §3).
GENES = ("a_f", "b_f", "a_c", "b_c", "c_c", "a_r", "b_r")
A_F, B_F, A_C, B_C, C_C, A_R, B_R = range(7)
#: Genes are stored in [0, GENE_MAX]: eval(1) is infinite (docs/barone-while.md §3).
GENE_MAX = 1.0 - 1e-9


def gene_eval(gene):
    """eval(c) = c / (1 - c), mapping [0, 1) onto [0, inf) with eval(0.5) = 1 (Barone & While 2000 §3.2)."""
    return gene / (1.0 - gene)


def gene_from_eval(value):
    """The inverse of `gene_eval`: g(e) = e / (1 + e) (docs/barone-while.md §10)."""
    return value / (1.0 + value)


def log_responses(genes: np.ndarray, x) -> np.ndarray:
    """ln fold(x), ln call(x), ln raise(x) of candidates `genes` (..., 7) at x, shape (..., 3); the call
    response is -inf when c_c = 0 (no calling at all)."""
    genes = np.asarray(genes, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    e = gene_eval(genes)
    out = np.empty(np.broadcast_shapes(genes.shape[:-1], x.shape) + (3,))
    out[..., 0] = -e[..., B_F] * (x - genes[..., A_F])
    with np.errstate(divide="ignore"):
        out[..., 1] = np.log(e[..., C_C]) - e[..., B_C] ** 2 * (x - genes[..., A_C]) ** 2
    out[..., 2] = e[..., B_R] * (x + genes[..., A_R] - 1.0)
    return out


def probabilities(genes: np.ndarray, x) -> np.ndarray:
    """P(fold), P(call), P(raise) at x: the responses normalised to sum to 1 (docs/barone-while.md §4,
    `response_to_prob = "normalise"`), shape (..., 3)."""
    logs = log_responses(genes, x)
    logs = logs - logs.max(axis=-1, keepdims=True)
    weights = np.exp(logs)
    return weights / weights.sum(axis=-1, keepdims=True)


def sample_actions(probs: np.ndarray, u) -> np.ndarray:
    """The action (0 fold, 1 call, 2 raise) that uniform(s) u in [0, 1) pick from probabilities (..., 3):
    fold if u < P_f, call if u < P_f + P_c, else raise (docs/barone-while.md §4)."""
    u = np.asarray(u)
    return (u >= probs[..., 0]).astype(np.int64) + (u >= probs[..., 0] + probs[..., 1])


def most_probable_actions(probs: np.ndarray) -> np.ndarray:
    """The most probable action of each candidate (`suggest_rule = "argmax"`)."""
    return np.argmax(probs, axis=-1)


def reference_responses(genes, x: float) -> tuple[float, float, float]:
    """fold(x), call(x), raise(x) straight from Barone & While 2000 §3.2's formulas (plain Python, one
    candidate): the test oracle of `log_responses`."""
    a_f, b_f, a_c, b_c, c_c, a_r, b_r = (float(g) for g in genes)
    fold = math.exp(-gene_eval(b_f) * (x - a_f))
    call = gene_eval(c_c) * math.exp(-(gene_eval(b_c) ** 2) * (x - a_c) ** 2)
    raise_ = math.exp(gene_eval(b_r) * (x + a_r - 1.0))
    return fold, call, raise_
