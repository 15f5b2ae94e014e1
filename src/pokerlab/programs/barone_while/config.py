"""The switches of the evolving player: every [OUR CHOICE] of docs/barone-while.md, faithful default first.

Barone & While 2000 leave much unsaid (docs/barone-while.md §13); each reading we had to choose is a field
here, so that the alternatives can be run side by side.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerlab.checks import check_fields
from pokerlab.errors import ConfigError

#: field -> the values it allows (the first is the default).
CHOICES: dict[str, tuple] = {
    "multiway_x": ("power", "single", "player_a_n"),  # §2: x = x1^n, or x1 for each per-opponent decision,
    #                    or pre-flop x1^n_ref with player A's n_ref = 9/7/4 by position (its thresholds then
    #                    stand for x1 against the live opponents; a repair, docs/barone-while.md §10)
    "preflop_x": ("ir2",),  # §2: x1 = (IR2/1000 + 1)/2 from the shipped two-player income rates
    "fold_when_free": ("check", "fold"),  # §4: a suggested fold with nothing to call
    "position_rule": ("acting_order", "dealt_order"),  # §5: among players still in, or all dealt in
    "bets_rounding": ("ceil", "floor"),  # §5: chips to call / bet size, rounded
    "opponent_segments": ("style", "seat"),  # §5: one segment per stereotype label, or per seat
    "suggest_rule": ("shared_u", "argmax"),  # §7: which members "suggest the same action"
    "fitness": ("mean", "sum"),  # §7
    "fitness_signal": ("chips", "luck_adjusted"),  # §7: the hand's net R credited, or (a repair) R less the
    #                    luck of the board, an AIVAT-style control variate from what the seat saw
    #                    (pokerlab.programs.barone_while.luck; docs/barone-while.md §14)
    "es_scheme": ("per_slot", "truncation", "paired"),  # §8: each slot keeps a parent and a playing child,
    #                    or the best quarter of the population breeds the next (comma), or (a repair) each
    #                    parent plays beside its child in the same generation, so that the (1+1) comparison
    #                    is made on the same hands (common random numbers; docs/barone-while.md §14)
    "mutate_space": ("genes", "log_eval"),  # §8
    "parent_rule": ("record", "remeasure"),  # §8: a parent keeps the fitness it once earned, or (a repair)
    #                                          every other generation the slots replay their parents and the
    #                                          parent's fitness becomes the running mean of its measurements
    "frozen_play": ("cycle", "average"),  # §11 exp. 3: a frozen player cycles its members, or plays
    #                                        each population's average candidate
    "uses_rule": ("per_hand", "per_consultation", "per_credit"),  # §8: a use for the representative of
    #                    each consulted population once per hand, or (the paper's "cycles ... as the
    #                    population is consulted") a use and a pointer step for every per-opponent
    #                    consultation (each its own draw with shared_u = False), or the same cycling with
    #                    a use for every member
    #                    credited (reproduction at 25 credits a member on average)
    "player_a_scale": ("x", "x1"),  # §10: player A's thresholds on the x = x1^n scale (pre-flop n_ref by
    #                    position), or all on the single-opponent x1 scale (for multiway_x = "single")
    "loose_reading": ("spec", "over-valuing", "never-fold"),  # §9: the table's loose-aggressive players
    "tight_reading": ("spec", "fold-to-bets"),  # §9: the table's tight-passive players
}


@dataclass(frozen=True)
class EvolvingConfig:
    """How the evolving player of Barone & While 2000 reads the game and evolves (docs/barone-while.md §2-8).

    Numbers: ``population_size`` candidates per population (20, SRC), reproduction when every member has
    been used ``uses_per_generation`` times (25, SRC; a use as ``uses_rule`` counts it), mutation step
    ``sigma`` (0.05), Rechenberg's one-fifth rule on or off (σ adapted every ``one_fifth_window``
    comparisons, kept in
    [``sigma_min``, ``sigma_max``]). ``shared_u``: one uniform for all per-opponent suggestions of a
    decision; ``credit_once_per_hand``: a member credited at several decisions of a hand counts it once.
    The table the player meets is set here too, so that every run names it: ``small_bet`` (the blinds are
    half a small bet and one; stacks stay 1,000) and the post-flop readings of the stereotypes
    (``loose_reading``, ``tight_reading``; `pokerlab.agents.stereotypes.READINGS`).
    """

    multiway_x: str = "power"
    preflop_x: str = "ir2"
    fold_when_free: str = "check"
    position_rule: str = "acting_order"
    bets_rounding: str = "ceil"
    opponent_segments: str = "style"
    shared_u: bool = True
    suggest_rule: str = "shared_u"
    credit_once_per_hand: bool = True
    fitness: str = "mean"
    fitness_signal: str = "chips"
    es_scheme: str = "per_slot"
    mutate_space: str = "genes"
    frozen_play: str = "cycle"
    uses_rule: str = "per_hand"
    player_a_scale: str = "x"
    loose_reading: str = "spec"
    tight_reading: str = "spec"
    small_bet: int = 10
    parent_rule: str = "record"
    population_size: int = 20
    uses_per_generation: int = 25
    sigma: float = 0.05
    one_fifth_rule: bool = False
    one_fifth_window: int = 10
    sigma_min: float = 0.005
    sigma_max: float = 0.25

    def __post_init__(self) -> None:
        check_fields(
            self,
            "EvolvingConfig",
            choices=CHOICES,
            flags=("shared_u", "credit_once_per_hand", "one_fifth_rule"),
            at_least={"population_size": 1, "uses_per_generation": 1, "one_fifth_window": 1, "small_bet": 1},
            fractions=("sigma", "sigma_min", "sigma_max"),
        )
        if self.es_scheme == "paired" and self.population_size % 2:
            raise ConfigError(
                "EvolvingConfig with es_scheme='paired' needs an even population_size (parent and child "
                f"pairs), got {self.population_size}"
            )
        if not self.sigma_min <= self.sigma_max:
            raise ConfigError(
                f"EvolvingConfig needs sigma_min <= sigma_max, got {self.sigma_min} > {self.sigma_max}"
            )


def parse_settings(text: str) -> EvolvingConfig:
    """An `EvolvingConfig` from "name=value,name=value" (e.g. "multiway_x=single,sigma=0.1"); unknown names
    and values of the wrong kind raise `ConfigError` naming the allowed ones."""
    defaults = EvolvingConfig()
    values: dict = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or name not in EvolvingConfig.__dataclass_fields__:
            known = ", ".join(EvolvingConfig.__dataclass_fields__)
            raise ConfigError(f"bad setting {item!r}: write name=value with a name among {known}")
        kind = type(getattr(defaults, name))
        raw = raw.strip()
        try:
            if kind is bool:
                if raw.lower() not in ("true", "false"):
                    raise ValueError
                values[name] = raw.lower() == "true"
            else:
                values[name] = kind(raw)
        except ValueError:
            raise ConfigError(f"setting {name} takes a {kind.__name__}, got {raw!r}") from None
    return EvolvingConfig(**values)
