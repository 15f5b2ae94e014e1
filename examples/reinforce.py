"""Train a small policy through the Gymnasium environment, then enter it in a duplicate match by name.

The policy is linear softmax over a dozen features read from `HoldemEnv`'s observation vector (its own
cards' ranks, a pair, suited cards, a pair with the board, the betting round, what it must call), the
illegal actions masked out; it learns by REINFORCE (Williams 1992, the likelihood-ratio policy gradient with
a running-mean baseline), one update per hand from the hand's reward in small bets. Every ``--every``
hands the policy, frozen, plays a duplicate match against the opponent on the same ``--deals`` deals
(seed + 1), so that the learning curve compares like with like. Writes into ``--out``: curve.csv (hands,
sb/hand, 95 % CI), reinforce.png (the curve), reinforce.npz (the weights).

    python examples/reinforce.py --opponent loose-passive --hands 30000 --seed 1 --out docs/results/envs

Then, as any agent, by name: registered here (``pokerlab.register``), or from the command line as a file
spec (trusted code of ours: ``--no-isolate`` plays it in the match's process, where it reads its weights)::

    pokerlab match --duplicate --deals 2000 --seed 5 --no-isolate \\
        --agents examples/reinforce.py:LinearPolicy,loose-passive
"""

from __future__ import annotations

import argparse
import csv
from functools import partial
from pathlib import Path

import numpy as np

import pokerlab
from pokerlab.agents import Decision
from pokerlab.envs import HoldemEnv, observation

#: Where the trained weights are kept (what `LinearPolicy()` plays).
WEIGHTS = Path(__file__).resolve().parent.parent / "docs" / "results" / "envs" / "reinforce.npz"
FEATURES = 12


def features(obs: np.ndarray) -> np.ndarray:
    """Bias, high and low hole rank (0-1), pair, suited, a hole rank on the board, the round (4 one-hot),
    chips to call and the pot (small bets / 10), from the observation vector (`pokerlab.envs.encoding`)."""
    hole = np.flatnonzero(obs[:52])
    board_ranks = set((np.flatnonzero(obs[52:104]) // 4).tolist())
    high, low = sorted(hole // 4, reverse=True)
    f = np.zeros(FEATURES)
    f[:6] = 1.0, high / 12, low / 12, high == low, hole[0] % 4 == hole[1] % 4, bool({high, low} & board_ranks)
    f[6:10] = obs[104:108]
    f[10:12] = obs[120] / 10, obs[119] / 10
    return f


def probabilities(weights: np.ndarray, f: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Softmax of ``weights @ f`` over the legal actions (`mask`), 0 elsewhere."""
    logits = np.where(mask > 0, weights @ f, -np.inf)
    p = np.exp(logits - logits.max())
    return p / p.sum()


class LinearPolicy(pokerlab.Agent):
    """The trained policy as a pokerlab agent: the same features of the same observation, read from its own
    seat's view (`pokerlab.envs.observation`), an action drawn from its seeded generator."""

    name = "reinforce"

    def __init__(self, weights: np.ndarray | str | Path = WEIGHTS) -> None:
        super().__init__()
        if not isinstance(weights, np.ndarray):
            with np.load(weights) as data:
                weights = data["weights"]
        self.weights = np.array(weights, dtype=float)

    def act(self, view) -> Decision:
        obs = observation(view)
        p = probabilities(self.weights, features(obs), obs[149:152])
        action = int(self.rng.choice(3, p=p))
        return Decision(action, tuple(float(x) for x in p), None)


def evaluate(weights: np.ndarray, opponent: str, deals: int, seed: int) -> tuple[float, float, float]:
    """(sb/hand, 95 % CI) of the frozen policy in a duplicate match against `opponent`."""
    r = pokerlab.duplicate_tournament([LinearPolicy(weights.copy()), opponent], deals, seed=seed).results[0]
    return tuple(round(v, 6) for v in (r.sb_per_hand, *r.ci95))


def train(opponent: str, hands: int, seed: int, every: int, deals: int, rate: float = 0.002):
    """REINFORCE through `HoldemEnv` for `hands` hands; (weights, curve rows (hands, sb/hand, low, high))."""
    env = HoldemEnv(opponents=[opponent], seed=seed)
    rng = np.random.default_rng(seed)
    weights = np.zeros((3, FEATURES))
    curve = [(0, *evaluate(weights, opponent, deals, seed + 1))]
    baseline = 0.0
    obs, info = env.reset(seed=seed)
    for hand in range(1, hands + 1):
        gradient = np.zeros_like(weights)
        done = False
        while not done:
            f = features(obs)
            p = probabilities(weights, f, info["action_mask"])
            action = int(rng.choice(3, p=p))
            gradient += np.outer(np.eye(3)[action] - p, f)  # the gradient of log p[action]
            obs, reward, done, _, info = env.step(action)
        weights += rate * (reward - baseline) * gradient
        baseline += 0.01 * (reward - baseline)
        obs, info = env.reset()
        if hand % every == 0:
            curve.append((hand, *evaluate(weights, opponent, deals, seed + 1)))
    return weights, curve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="loose-passive")
    parser.add_argument("--hands", type=int, default=30000, help="training hands")
    parser.add_argument("--every", type=int, default=3000, help="training hands between evaluations")
    parser.add_argument("--deals", type=int, default=1000, help="duplicate deals of each evaluation")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="docs/results/envs")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    weights, curve = train(args.opponent, args.hands, args.seed, args.every, args.deals)
    np.savez(out / "reinforce.npz", weights=weights)
    with open(out / "curve.csv", "w", newline="") as file:
        csv.writer(file).writerows([("hands", "sb_per_hand", "ci95_low", "ci95_high"), *curve])
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hands, value, low, high = (np.array(c) for c in zip(*curve, strict=True))
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.fill_between(hands, low, high, alpha=0.25, label="95 % CI")
    ax.plot(hands, value, marker="o", label=f"linear softmax, REINFORCE (seed {args.seed})")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set(xlabel="training hands", ylabel="sb/hand (duplicate)", title=f"against {args.opponent}")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(out / "reinforce.png", dpi=100)
    # by name, as any agent: registered with its weights, in a duplicate match on fresh deals
    pokerlab.register("reinforce", partial(LinearPolicy, out / "reinforce.npz"))
    final = pokerlab.duplicate_tournament(["reinforce", args.opponent], 2000, seed=args.seed + 2)
    for r in final.results:
        print(f"{r.agent:<16}{r.sb_per_hand:+.3f} sb/hand  95% CI [{r.ci95[0]:+.3f}, {r.ci95[1]:+.3f}]")


if __name__ == "__main__":
    main()
