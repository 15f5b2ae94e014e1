"""DIVAT's card corrections street by street: for each heads-up results folder given (a match played by
`pokerlab match --out`), the mean per hand of the luck of the flop, the turn and the river for the first
seat's agent, with its standard error and z, over the folders' duplicate deals (or hands).

The luck of the card(s) opening round r is V_r(the baseline from the round's start) - V_{r-1}(the end of
round r - 1), DIVAT's value V (`pokerlab.evaluation.divat`, Zinkevich et al. 2006) on each round's
run-outs: the terms the chance tier takes off the net. Each has mean zero given the hand so far, so a
street whose mean stands several standard errors from 0 over many deals points at where a lean of the
chance tier comes from. A diagnostic, not an estimator:

    python examples/divat_by_street.py la-60 la-61 la-62 la-63 --seed 1
"""

from __future__ import annotations

import argparse

import numpy as np

from pokerlab.evaluation.divat import DEFAULT_SAMPLES, Divat, RoundValues
from pokerlab.evaluation.hindsight import read_hindsight

STREETS = ("flop", "turn", "river")


def street_luck(folders: list[str], seed: int, samples: int) -> np.ndarray:
    """float[units, 3]: the first seat's luck of the flop, turn and river, summed per unit (a duplicate
    deal, else a hand), in small bets per hand."""
    units: dict[tuple[str, int], np.ndarray] = {}
    for folder in folders:
        record = read_hindsight(folder, "the street account")
        divat, label = Divat(record.config, seed, samples), record.labels[0]
        hands_per_unit = 2 if record.duplicate else 1
        for hand in record.hands:
            state, actions = hand.start(record.config), iter(hand.actions)
            luck, before = np.zeros((4, 2)), None
            while state.actor >= 0:
                values = RoundValues(divat, hand, state.round)
                start = values(state)
                if before is not None:
                    luck[state.round] = start - before
                r = state.round
                while state.actor >= 0 and state.round == r:
                    state.act(next(actions)[1])
                before = values(state)
            key = (folder, hand.deal if record.duplicate else hand.hand)
            share = luck[1:, hand.names.index(label)] / record.config.small_bet / hands_per_unit
            units[key] = units.get(key, 0.0) + share
    return np.array(list(units.values()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", help="heads-up results folders")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run-outs (as pokerlab evaluate's)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="run-outs per value")
    args = parser.parse_args()
    luck = street_luck(args.results, args.seed, args.samples)
    for s, name in enumerate(STREETS):
        mean, se = luck[:, s].mean(), luck[:, s].std(ddof=1) / np.sqrt(len(luck))
        print(f"{name:6s} {mean:+.4f} sb/hand  SE {se:.4f}  z {mean / se:+.2f}")
    print(f"{len(luck)} units")


if __name__ == "__main__":
    main()
