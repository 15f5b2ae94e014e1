"""Loki-2 made fast plays exactly as before: every hand's nets equal those the code gave before this
branch's fast paths (one-card counts from per-board ranks, the rank-walk holding strengths, the one-pass
field array, in-place re-weighting by triples)."""

import hashlib

import numpy as np

from pokerlab import play_match
from pokerlab.programs.loki2 import VARIANTS, Loki2Agent

#: sha256 of the nets (int64, hands x seats), made by commit 12a6b37
BEFORE = {
    "triples": "98e7756d7a03e86f492612f0366a5a7a31b067e9b34ddf607a40255e33ef8abd",
    "variants": "a25538d902ccfed4a224c385243c442bdc7c832387ff5bf293785153b1b44687",
}


def _digest(nets: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(nets, dtype=np.int64).tobytes()).hexdigest()


def test_a_table_of_triples_plays_as_before():
    nets = play_match(["loki2-triples"] * 10, 60, seed=21).nets
    assert np.abs(nets).sum() > 0
    assert _digest(nets) == BEFORE["triples"]


def test_every_variant_with_simulation_plays_as_before():
    class Recording(Loki2Agent):
        def act(self, view):
            action = super().act(view)
            rules.append(self.last_rule)
            return action

    rules = []
    simulating = Recording(VARIANTS["loki2"])
    players = [simulating, "loki2-sim-call", "loki2-triples", "loki1", "loki2-betting", "loki2-reweighting"]
    nets = play_match(players, 16, seed=22).nets
    assert "simulation" in rules
    assert _digest(nets) == BEFORE["variants"]


def test_final_ranks_are_the_showdown_ranks():
    from pokerlab.evaluator import rank_holdings
    from pokerlab.programs.loki2.simulate import final_ranks

    rng = np.random.default_rng(9)
    cards = np.array([rng.permutation(52)[:25] for _ in range(40)])
    holes, runouts = cards[:, :20].reshape(40, 10, 2), cards[:, 20:]
    ranks = final_ranks(holes, runouts)
    for t in range(40):
        assert ranks[t].tolist() == rank_holdings(runouts[t].tolist(), holes[t].tolist())
