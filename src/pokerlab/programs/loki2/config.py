"""Every switch and constant of Loki-2 in one frozen configuration, and the named variants of Peña 1999's
experiments (Peña 1999 ch. 3-5; Billings et al. 1999)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pokerlab.errors import ConfigError
from pokerlab.programs.loki1.config import Loki1Config
from pokerlab.programs.loki2.simulate import SimulationConfig
from pokerlab.programs.loki2.triples import TripleRules


@dataclass(frozen=True)
class Loki2Config:
    """Loki-2's switches.

    * ``loki1``: what Loki-2 keeps of Loki-1 (pre-flop expert system, hand assessment, action frequencies,
      pre-flop re-weighting, ``modelling`` generic or specific; Peña 1999 node28).
    * ``betting``: after the flop, "rules" (Loki-1's), "triples" (the action selector, "B") or
      "simulation" (selective sampling, Peña 1999 ch. 5), from round ``simulate_from`` on (1 = the flop
      [OUR CHOICE]).
    * ``reweighting``: after the flop, "loki1" (thresholds, Papp 1998 ch. 7) or "triples" ("R", Peña node34).
    * ``triples``: the generator's constants; ``som_low`` / ``som_high`` clamp specific thresholds (Peña
      1999 node35) [OUR CHOICE]: 0.1, not 0.3, at the bottom because triples re-weight at every action, and
      an always-raiser read with t1 = t2 = 0.3 soon seems to hold only strong hands: heads-up (duplicate,
      300 deals, seed 5) loki2-triples then won +0.06 sb/hand [-0.33, +0.46] from the "raise" agent, with
      0.1 +0.43 [+0.02, +0.84] (and +0.65 from "call" either way).
    * ``same_u_per_hand``: the action selector keeps one uniform for the hand [OUR CHOICE, Peña node30].
    * ``simulation``: trials, time budget, mode ("playout" or "always-call"), common random numbers.
    * ``obvious_move``: None, or play a triple's action without simulating when its probability is at least
      this (an optional shortcut, [OUR CHOICE, Peña node40]).
    """

    loki1: Loki1Config = field(default_factory=Loki1Config)
    betting: str = "simulation"
    reweighting: str = "triples"
    triples: TripleRules = field(default_factory=TripleRules)
    som_low: float = 0.1
    som_high: float = 0.95
    same_u_per_hand: bool = True
    simulation: SimulationConfig = field(default_factory=SimulationConfig)
    simulate_from: int = 1
    obvious_move: float | None = None

    def __post_init__(self) -> None:
        choices = {"betting": ("rules", "triples", "simulation"), "reweighting": ("loki1", "triples")}
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ConfigError(f"Loki2Config.{name} is {getattr(self, name)!r}; allowed: {allowed}")
        if not 0.0 <= self.som_low <= self.som_high <= 1.0:
            raise ConfigError(
                f"Loki2Config needs 0 <= som_low <= som_high <= 1, got {self.som_low!r}, {self.som_high!r}"
            )
        if self.simulate_from not in (1, 2, 3):
            raise ConfigError(f"Loki2Config.simulate_from is a round 1..3, got {self.simulate_from!r}")
        if self.obvious_move is not None and not 0.5 < self.obvious_move <= 1.0:
            raise ConfigError(f"Loki2Config.obvious_move is None or in (0.5, 1], got {self.obvious_move!r}")


#: Peña 1999's players (node37): B+R+simulation, B+R, B alone, R alone, always-call simulation.
VARIANTS: dict[str, Loki2Config] = {
    "loki2": Loki2Config(),
    "loki2-triples": Loki2Config(betting="triples"),
    "loki2-betting": Loki2Config(betting="triples", reweighting="loki1"),
    "loki2-reweighting": Loki2Config(betting="rules"),
    "loki2-sim-call": Loki2Config(simulation=SimulationConfig(mode="always-call")),
}
