"""Every constant of Loki-1 in one frozen configuration, and the named variants of Billings et al.
1998's Fig 1.

Defaults are the source's (Papp 1998) where it gives them; the rest are ours, tagged [OUR CHOICE]
decisions, each a field here so that an experiment can change it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pokerlab.errors import ConfigError
from pokerlab.programs.loki1.postflop import PostflopRules
from pokerlab.programs.loki1.preflop import TIGHTNESS, PreflopRules


@dataclass(frozen=True)
class Loki1Config:
    """Loki-1's switches and constants.

    * ``tightness``: pre-flop table B.1 column; Loki's default is loose (Papp App. B).
    * ``preflop``: "advanced" (income rate by expected players and position, Papp 1998 §6.1, App. B) or
      "simple" [OUR CHOICE for Fig 1's player C]: the IR7 thresholds of the dealer seat, whatever the
      number of players and the position.
    * ``weighting``: re-weight opponents' tables after their actions (Papp 1998 ch. 7); without it every
      subcase counts the same (Fig 1's player B).
    * ``potential``: use hand potential in EHS', semi-bluffs and pot odds (Fig 1's player D lacks it).
    * ``modelling``: "specific" (each opponent's own action frequencies, mixed with Papp's Table B.2 until
      20 observations, Papp 1998 ch. 7) or "generic" (every opponent acts like Table B.2). Papp found no
      significant difference in self-play; we default to specific, the complete Loki-1, because generic
      modelling only breaks even against an always-raising maniac heads-up (+0.11 sb/hand, CI
      [-0.07, 0.29], 1,500 duplicate deals, seed 7) where specific modelling wins +0.92 [0.71, 1.13].
    * ``weighting_rounds``: "all" (re-weight after the actions of every round, Papp 1998 ch. 7) or
      "preflop" (only pre-flop actions re-weight: the common pre-flop weights of Billings et al. 1998 §4.3,
      "based on the simulations of the 169 different starting hand types").
    * ``flop_lookahead``: 2 (EHS' on the flop with the two-card Ppot, Billings et al. 1998 §4.4) or 1.
    * ``preflop_rules`` and ``rules``: the pre-flop table B.1 and small-blind thresholds, and the post-flop
      rule constants (deception included).
    """

    tightness: str = "loose"
    preflop: str = "advanced"
    weighting: bool = True
    potential: bool = True
    modelling: str = "specific"
    weighting_rounds: str = "all"
    flop_lookahead: int = 2
    probability_play: float = 0.6  # Papp App. B
    preflop_sigma: float = 330.0  # Papp §7.2.2, IR x 1000
    postflop_sigma: float = 0.2  # [OUR CHOICE] Papp 1998 ch. 7
    no_reweight_percentile: float = 0.05  # Papp §7.2.2: no re-weighting below the 5th percentile
    preflop_rules: PreflopRules = field(default_factory=PreflopRules)
    rules: PostflopRules = field(default_factory=PostflopRules)

    def __post_init__(self) -> None:
        choices = {
            "tightness": TIGHTNESS,
            "preflop": ("advanced", "simple"),
            "modelling": ("generic", "specific"),
            "weighting_rounds": ("all", "preflop"),
            "flop_lookahead": (1, 2),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ConfigError(f"Loki1Config.{name} is {getattr(self, name)!r}; allowed: {allowed}")
        for name in ("probability_play", "no_reweight_percentile"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ConfigError(f"Loki1Config.{name} must be in [0, 1], got {getattr(self, name)!r}")
        for name in ("preflop_sigma", "postflop_sigma"):
            if getattr(self, name) < 0:
                raise ConfigError(f"Loki1Config.{name} must be >= 0, got {getattr(self, name)!r}")


#: The five players of Billings et al. 1998, Fig 1 (Papp's ablation): A full, B without weighting of subcases,
#: C with simple pre-flop selection, D without hand potential, E without all three.
VARIANTS: dict[str, Loki1Config] = {
    "loki1": Loki1Config(),
    "loki1-uniform": Loki1Config(weighting=False),
    "loki1-simple-preflop": Loki1Config(preflop="simple"),
    "loki1-no-potential": Loki1Config(potential=False),
    "loki1-basic": Loki1Config(weighting=False, preflop="simple", potential=False),
    "loki1-generic": Loki1Config(modelling="generic"),
    # E plus one of Fig 1's three components alone: what each is worth on its own
    "loki1-weighting-only": Loki1Config(preflop="simple", potential=False),
    "loki1-preflop-only": Loki1Config(weighting=False, potential=False),
    "loki1-potential-only": Loki1Config(weighting=False, preflop="simple"),
}

#: Readings of the field of Billings et al. 1998 Fig 1, applied to every player alike (Fig 1's players keep
#: their differences): Loki1Config fields, ``rules`` a dict of PostflopRules fields.
#:
#: * ``ours``: Papp 1998's Loki-1 as we read it (specific modelling, semi-bluffs, showdown odds, deception).
#: * ``generic``: generic opponent modelling (Papp 1998 App. B Table B.2 for everyone): Billings et al. 1998
#:   §4.3 says Lokibot "treats all opponents the same", and Papp's betting experiments used generic
#:   modelling.
#: * ``betting-1998``: generic modelling and only the betting Billings et al. 1998 §4.4 describes (EHS
#:   thresholds, calls when Ppot beats the pot odds): no semi-bluff, showdown-odds call or deception, which
#:   are Papp 1998 §6.4-6.7 additions.
#: * ``lokibot-1998``: betting-1998 with the common pre-flop weights of §4.3 only (no re-weighting after the
#:   flop).
#: * ``no-showdown-odds``, ``no-semi-bluff``: our reading without one of those rules.
FIG1_READINGS: dict[str, dict] = {
    "ours": {},
    "generic": {"modelling": "generic"},
    "betting-1998": {
        "modelling": "generic",
        "rules": {"semi_bluff": False, "showdown_odds": False, "deception": False},
    },
    "lokibot-1998": {
        "modelling": "generic",
        "weighting_rounds": "preflop",
        "rules": {"semi_bluff": False, "showdown_odds": False, "deception": False},
    },
    "no-showdown-odds": {"rules": {"showdown_odds": False}},
    "no-semi-bluff": {"rules": {"semi_bluff": False}},
}


def fig1_reading(config: Loki1Config, reading: str) -> Loki1Config:
    """`config` under one of the `FIG1_READINGS`; `ConfigError` names them otherwise."""
    if reading not in FIG1_READINGS:
        raise ConfigError(f"unknown Fig 1 reading {reading!r}; allowed: {', '.join(FIG1_READINGS)}")
    changes = dict(FIG1_READINGS[reading])
    if "rules" in changes:
        changes["rules"] = replace(config.rules, **changes["rules"])
    return replace(config, **changes)


def basic_player(tightness: str) -> Loki1Config:
    """Papp's basic non-modelling players BPL / BPM / BPT (Papp 1998 ch. 8): Loki-1 without re-weighting."""
    return replace(Loki1Config(), tightness=tightness, weighting=False)
