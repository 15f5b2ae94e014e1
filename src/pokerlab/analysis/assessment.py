"""Everything Loki knows about its hand after the flop, computed once: HS and HS_n, both potentials, EHS and
EHS' (Billings et al. 1998 §4.2-4.4; Papp 1998 §5.2-5.3, §6.3). `pokerlab analyze` prints this."""

from __future__ import annotations

from dataclasses import dataclass

from pokerlab.analysis.effective import effective_hand_strength, optimistic_hand_strength
from pokerlab.analysis.potential import HandPotential, PotentialTable, potential_of
from pokerlab.analysis.situation import CardsLike, situation
from pokerlab.analysis.strength import HandStrength, strength_of
from pokerlab.errors import ConfigError


@dataclass(frozen=True)
class Assessment:
    """Hand strength and potential of one situation, with the potential EHS uses.

    `flop_lookahead` (2 or 1) picks the flop potential for EHS; our choice (Papp 1998 §5.3 leaves it open)
    uses two cards
    (EHS' means "best by the showdown"); the turn always uses one card, and on the river EHS = HS_n.
    """

    strength: HandStrength
    potential: HandPotential
    flop_lookahead: int = 2

    @property
    def lookahead(self) -> PotentialTable | None:
        """The potential table EHS uses on this street (None on the river)."""
        if self.potential.two_cards is not None and self.flop_lookahead == 2:
            return self.potential.two_cards
        return self.potential.one_card

    @property
    def ehs(self) -> float:
        """EHS = HS_n + (1 - HS_n) Ppot - HS_n Npot (Papp eq. 6.3), in [0, 1]."""
        table = self.lookahead
        if table is None:
            return self.strength.hs_n
        return effective_hand_strength(self.strength.hs_n, table.positive_potential, table.negative_potential)

    @property
    def ehs_optimistic(self) -> float:
        """EHS' = HS_n + (1 - HS_n) Ppot (Papp eq. 6.4), in [0, 1]."""
        table = self.lookahead
        if table is None:
            return self.strength.hs_n
        return optimistic_hand_strength(self.strength.hs_n, table.positive_potential)

    def to_dict(self) -> dict:
        """hand_strength, ahead, tied, behind, hs_n, ppot2, npot2, ppot1, npot1, potential2, potential1 (3x3
        lists without sums, rows now ahead/tied/behind, columns final), ehs, ehs_optimistic; null where a
        look-ahead does not apply on the street."""
        strength = self.strength.to_dict()
        potential = self.potential.to_dict()
        out = {key: strength[key] for key in ("hand_strength", "ahead", "tied", "behind", "hs_n")}
        out |= {key: potential[key] for key in ("ppot2", "npot2", "ppot1", "npot1")}
        for key, table in (("potential2", self.potential.two_cards), ("potential1", self.potential.one_card)):
            out[key] = table.table() if table else None
        return out | {"ehs": self.ehs, "ehs_optimistic": self.ehs_optimistic}


def assess(
    hole: CardsLike, board: CardsLike, weights: object = None, opponents: int = 1, flop_lookahead: int = 2
) -> Assessment:
    """Assess our `hole` cards on a flop, turn or river `board` against `opponents` opponents weighted by
    `weights` (one table, e.g. the field array; None for uniform).

    >>> a = assess("Ad Qc", "3h 4c Jh", opponents=3)  # EHS (Billings et al. 1998 §4.4)
    >>> round(a.strength.hs_n, 3), round(a.ehs, 3), round(a.ehs_optimistic, 3)
    (0.2, 0.312, 0.367)
    """
    if flop_lookahead not in (1, 2):
        raise ConfigError(f"the flop look-ahead is 1 or 2 cards; got {flop_lookahead!r}")
    known = situation(hole, board, weights)
    return Assessment(strength_of(known, opponents), potential_of(known), flop_lookahead)
