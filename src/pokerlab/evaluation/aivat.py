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

A decision without probabilities is not corrected: Loki-1 and the stereotypes give none, so their
actions stay in X as DIVAT judges them. Loki-2 in simulation mode reports its argmax as a probability-one
choice, although its simulation is noisy: its correction is zero and AIVAT falls back to the chance tier
for those decisions. The third tier of Burch et al. (imaginary observations over the hidden cards of a
known agent) needs every holding's probabilities at every decision and is not built here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerlab.engine import GameConfig, HandState
from pokerlab.errors import ConfigError
from pokerlab.evaluation.divat import DEFAULT_SAMPLES, Divat, RoundValues
from pokerlab.evaluation.hindsight import HindsightHand, read_hindsight, seat_estimates
from pokerlab.evaluation.stats import SeatEstimates

#: The tiers, in order of what they correct.
TIERS = ("chance", "actions")


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


def aivat_of_folder(
    out: str | Path, seed: int, samples: int = DEFAULT_SAMPLES, shared_uniform: frozenset[str] = frozenset()
) -> dict[str, SeatEstimates]:
    """Every tier's X of every hand of a heads-up results folder (its hindsight record), by tier; one
    `ConfigError` line for a folder without the record, of a game AIVAT does not cover here, or whose
    agents reported no probabilities."""
    record = read_hindsight(out, "AIVAT")
    if len(record.labels) != 2:
        raise ConfigError(f"AIVAT here covers heads-up matches; {str(out)!r} has {len(record.labels)} seats")
    unknown = sorted(set(shared_uniform) - set(record.labels))
    if unknown:
        raise ConfigError(f"--shared-uniform names {unknown}, not seats of {str(out)!r} ({record.labels})")
    if not any(q is not None for hand in record.hands for _, _, q in hand.actions):
        raise ConfigError(
            f"{str(out)!r} records no decision probabilities: AIVAT's actions tier needs an agent that gives "
            "them (loki2-triples, ...) and a match played with --log-decisions"
        )
    aivat = Aivat(record.config, seed, samples, frozenset(shared_uniform))
    tiers = {hand.hand: aivat.hand(hand) for hand in record.hands}
    return {
        tier: seat_estimates(record, lambda hand, k=k: tiers[hand.hand][k]) for k, tier in enumerate(TIERS)
    }
