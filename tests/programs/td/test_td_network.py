"""The TD network's gates (docs/learning-spec-td.md §A.8.1, §C.1 TD-10 .. TD-12): analytic gradients against
central finite differences, Sutton's random walk learned by the same network and trace code, and the
offline λ = 1 equivalence of the summed TD update with the Monte-Carlo update."""

import numpy as np
import pytest

from pokerlab.programs.td.network import Network, TDChain, accumulate_trace


@pytest.mark.parametrize("linear", [False, True])
def test_td10_gradients_match_finite_differences(linear):
    rng = np.random.default_rng(1)
    net = Network(12, 7, 4, linear, rng, scale=0.8)
    net.b1[:] = rng.normal(size=7)
    net.b2[:] = rng.normal(size=4)
    x = rng.normal(size=12)
    y, flat = net.gradients(x, [0, 1, 2, 3])
    grads = net.split(flat)
    eps, worst = 1e-6, 0.0
    for p, g in zip(net.params, grads, strict=True):
        for index in np.ndindex(p.shape):
            saved = p[index]
            p[index] = saved + eps
            up = net(x)
            p[index] = saved - eps
            down = net(x)
            p[index] = saved
            numeric = (up - down) / (2 * eps)
            worst = max(worst, np.abs(numeric - g[(slice(None), *index)]).max())
    assert worst < 1e-6
    assert np.array_equal(net(x), y)
    # a subset of outputs gives the same rows
    assert np.array_equal(net.gradients(x, [2])[1][0], flat[2])


def random_walk_rms(lam: float, seed: int) -> float:
    """Sutton's five-state random walk (true values 1/6 .. 5/6) with one-hot inputs, H = 10: α = 0.2 for
    3,000 episodes then 0.02 for 1,000 (§A.8.1 G2); the RMS error of the learned values."""
    rng = np.random.default_rng(seed)
    net = Network(5, 10, 1, False, rng)
    chain = TDChain(net, lam)
    eye = np.eye(5)
    for episode in range(4000):
        alpha = 0.2 if episode < 3000 else 0.02
        state = 2
        while 0 <= state < 5:
            chain.visit(eye[state], [0], alpha)
            state += 1 if rng.random() < 0.5 else -1
        chain.finish(np.array([1.0 if state == 5 else 0.0]), alpha)
    values = np.array([net(eye[s])[0] for s in range(5)])
    return float(np.sqrt(np.mean((values - np.arange(1, 6) / 6) ** 2)))


@pytest.mark.parametrize(("lam", "gate"), [(0.0, 0.05), (0.7, 0.05), (1.0, 0.08)])
def test_td11_random_walk(lam, gate):
    assert random_walk_rms(lam, seed=0) < gate


@pytest.mark.slow
@pytest.mark.parametrize(("lam", "gate"), [(0.0, 0.05), (0.7, 0.05), (1.0, 0.08)])
def test_td11_random_walk_five_seeds(lam, gate):
    assert max(random_walk_rms(lam, seed) for seed in range(1, 6)) < gate


def test_td12_offline_lambda_one_is_monte_carlo():
    rng = np.random.default_rng(4)
    net = Network(9, 6, 4, False, rng, scale=0.5)
    start = net.state()
    states = [rng.normal(size=9) for _ in range(5)]
    target = np.array([0.0, 0.5, 0.5, 0.0])
    alpha = 0.1
    chain = TDChain(net, 1.0, online=False)
    for x in states:
        chain.visit(x, [0, 1, 2, 3], alpha)
    chain.finish(target, alpha)
    assert chain.updates == len(states)
    expected = [start[name].copy() for name in ("w1", "b1", "w2", "b2")]
    reference = Network(9, 6, 4, False, np.random.default_rng(4), scale=0.5)  # the same start weights
    for x in states:  # Σ_t α (z − y_t) ∇y_t, summed over the outputs
        y, flat = reference.gradients(x, [0, 1, 2, 3])
        for e, g in zip(expected, reference.split(flat), strict=True):
            e += alpha * np.tensordot(target - y, g, axes=1)
    for got, want in zip(net.params, expected, strict=True):
        assert np.allclose(got, want, rtol=1e-12, atol=1e-15)
    assert not np.allclose(net.w1, start["w1"])


def test_online_chain_first_state_does_not_move_weights():
    rng = np.random.default_rng(2)
    net = Network(3, 4, 2, True, rng)
    before = net.state()
    chain = TDChain(net, 0.7)
    chain.visit(np.ones(3), [1], 0.1)
    assert all(np.array_equal(before[k], v) for k, v in net.state().items())
    chain.finish(np.array([0.5]), 0.1)
    assert not chain.started and chain.updates == 1
    assert np.array_equal(net.w2[0], before["w2"][0]) and not np.array_equal(net.w2[1], before["w2"][1])


@pytest.mark.parametrize("linear", [False, True])
def test_trace_kernel_equals_the_numpy_reference(linear):
    """`accumulate_trace` (numba) against λ e + `Network.gradients` (numpy) on random states."""
    rng = np.random.default_rng(6)
    net = Network(20, 8, 3, linear, rng, scale=0.7)
    net.b1[:] = rng.normal(size=8)
    trace = rng.normal(size=(2, net.theta.size))
    for _ in range(5):
        x = rng.normal(size=20) * (rng.random(20) < 0.5)
        ks = rng.choice(3, size=2, replace=False)
        y, grads = net.gradients(x, ks)
        expected = 0.6 * trace + grads
        values = accumulate_trace(net.theta, x, ks, 8, 3, linear, 0.6, trace)
        assert np.allclose(values, y[ks], rtol=1e-13, atol=1e-15)
        assert np.allclose(trace, expected, rtol=1e-13, atol=1e-15)


def test_a_pickled_network_keeps_one_weight_vector():
    """A copy (pickle, as the arena and the trainer's checkpoints make) learns through the same views."""
    import pickle

    net = pickle.loads(pickle.dumps(Network(4, 3, 2, True, np.random.default_rng(0))))
    chain = TDChain(net, 0.5)
    x = np.ones(4)
    before = net(x).copy()
    chain.visit(x, [0], 0.5)
    chain.finish(np.array([before[0] + 1.0]), 0.5)
    assert net(x)[0] > before[0]
    assert np.shares_memory(net.w1, net.theta) and np.shares_memory(net.b2, net.theta)
