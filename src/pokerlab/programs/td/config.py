"""Every switch of TD-Hold'em (docs/learning-spec-td.md) in one frozen, validated configuration, and its
presets.

Each [OUR CHOICE] of the spec and each repair of §A.8.2 is a field here, so that a repair can be ablated
alone (``dataclasses.replace(PRESETS["faithful"], head="action_value")``). The presets:

* ``seed-literal``: the seed as written (§A.8.4 P1): one TD chain across both players, greedy, the 92
  inputs, four class outputs valued by class, α = 0.1, λ = 0.7. It reproduces the article's failure.
* ``faithful``: the seed with the minimum repair, one chain per player (§A.8.2, "faithful mode").
* ``repaired``: §A.8.2's repaired column: 120 inputs, action-value heads, per-player chains, ε-greedy
  exploration, α = 0.01 decayed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

from pokerlab.checks import check_fields
from pokerlab.engine import GameConfig, max_loss
from pokerlab.errors import ConfigError

_CHOICES: dict[str, tuple[str, ...]] = {
    "unary_round": ("half_up", "half_even"),
    "replicated_mean": ("extra_copies", "all_cards"),
    "class_boundary": ("strict", "inclusive"),
    "split_target": ("half", "zero"),
    "head": ("class", "value", "action_value"),
    "equity": ("class", "chips"),
    "td_chain": ("per_player", "shared"),
    "update": ("online", "end_of_hand"),
    "count_rule": ("checks_as_calls", "calls_only"),
    "hu_blinds": ("button_small", "ring"),
    "cap_rule": ("four_bets", "three_raises_per_player"),
}


@dataclass(frozen=True)
class TDConfig:
    """TD-Hold'em's switches (docs/learning-spec-td.md §A.3-A.8); money in chips of the 10/20 game.

    Encoding (§A.3): ``unary_round`` (how 2.5 rounds), ``replicated_mean`` (H2/T2: extra copies or all
    cards of repeated ranks), ``count_rule`` (B/O blocks: a check counts as a call, "checks_as_calls", or
    only calls of a positive amount do, "calls_only"), ``mean_halved`` (H5/T5 ÷ 2),
    ``table_river_straight_fix`` (T4 river values 4 / 3 for four-to-a-straight boards), ``extra_inputs``
    (the 16 of §A.3.6), ``strength_inputs`` (the 12 hand-strength inputs of §A.8.2),
    ``flop_equity_samples`` (Monte-Carlo samples of the flop's showdown equity; 0 = exact enumeration),
    ``opponent_ids`` (opponent-identity one-hot size, §A.8.3; 0 = none), ``opponent_networks`` (§A.8.3's
    alternative to one network with an identity input: one network per identity slot, an unlabelled
    opponent played by the last, the self-play slot), ``opponent_model_inputs`` (the
    opponent model's predictions of §A.10: 6 inputs with action values, 3 per after-state;
    `pokerlab.programs.td.opponent_inputs`).

    Outputs and targets (§A.5): ``head`` ("class": four sigmoid outputs on after-states; "value": one linear
    output ≈ R/240 on after-states; "action_value": Q(s, call), Q(s, raise) before acting), ``equity`` of
    the class head ("class": values (2, 1, −1, −2); "chips": running class means), ``threshold`` θ between
    small and big results, ``class_boundary`` ("strict": |R| = θ is small), ``split_target`` for R = 0.

    Learning (§A.6, §A.8.2): ``td_chain`` ("per_player" or the article's "shared"), ``update`` ("online" after
    every decision, or "end_of_hand" with weights frozen during the hand), ``alpha`` and its decay
    α_n = alpha / (1 + n / alpha_decay_hands) (0 = constant), ``lam`` (λ), exploration ε decaying linearly
    from ``epsilon_start`` to ``epsilon_end`` over ``epsilon_decay_hands``, ``hidden`` units, ``init_scale``
    (weights uniform in ±init_scale), ``fold_when_free`` (whether folding is offered when checking is free).

    Game (§A.2): ``hu_blinds`` ("button_small": the engine's heads-up rule, the button posts the small
    blind; the article's ring rule "ring" is refused, the engine has no such option), ``cap_rule``
    ("four_bets": a bet and three raises per round; "three_raises_per_player": the article's literal cap, up
    to three bets or raises per player and round, no overall cap), ``result_scale`` (chips R is divided by
    in the value targets R / scale, §A.5-A.6.5; 0: the largest loss of a hand in that game, 240 under the
    four-bet cap, 370 under the per-player one).

    Average policy (§A.8.3 stage 3): ``average_policy`` switches it on; ``average_capacity`` decisions in
    the reservoir, ``average_alpha`` its step, ``average_steps`` steps per training hand, ``average_mix``
    the probability of the greedy TD action when playing from it.
    """

    unary_round: str = "half_up"
    replicated_mean: str = "extra_copies"
    count_rule: str = "checks_as_calls"
    mean_halved: bool = True
    table_river_straight_fix: bool = False
    extra_inputs: bool = False
    strength_inputs: bool = False
    flop_equity_samples: int = 256
    opponent_ids: int = 0
    opponent_networks: bool = False
    opponent_model_inputs: bool = False
    head: str = "class"
    equity: str = "class"
    threshold: int = 80
    class_boundary: str = "strict"
    split_target: str = "half"
    td_chain: str = "per_player"
    update: str = "online"
    alpha: float = 0.1
    alpha_decay_hands: int = 0
    lam: float = 0.7
    epsilon_start: float = 0.0
    epsilon_end: float = 0.0
    epsilon_decay_hands: int = 0
    hidden: int = 40
    init_scale: float = 0.1
    fold_when_free: bool = False
    average_policy: bool = False
    average_capacity: int = 20_000
    average_alpha: float = 0.01
    average_steps: int = 1
    average_mix: float = 0.1
    hu_blinds: str = "button_small"
    cap_rule: str = "four_bets"
    result_scale: int = 0

    def __post_init__(self) -> None:
        check_fields(
            self,
            "TDConfig",
            choices=_CHOICES,
            flags=(
                "mean_halved",
                "table_river_straight_fix",
                "extra_inputs",
                "strength_inputs",
                "fold_when_free",
                "average_policy",
                "opponent_model_inputs",
                "opponent_networks",
            ),
            at_least={
                "flop_equity_samples": 0,
                "opponent_ids": 0,
                "alpha_decay_hands": 0,
                "epsilon_decay_hands": 0,
                "average_steps": 0,
                "hidden": 1,
                "threshold": 1,
                "average_capacity": 1,
                "result_scale": 0,
            },
            fractions=(
                "alpha",
                "lam",
                "epsilon_start",
                "epsilon_end",
                "init_scale",
                "average_alpha",
                "average_mix",
            ),
        )
        if self.hu_blinds == "ring":
            raise ConfigError(
                "td config hu_blinds: 'ring' (the article's rule, the non-button posting the small blind "
                "heads-up) is not supported: the engine's button always posts it; allowed: 'button_small'"
            )
        if self.opponent_networks and self.td_chain == "shared":
            raise ConfigError(
                "td config: opponent_networks needs per-player chains (td_chain 'per_player'): the article's "
                "shared chain runs through one network"
            )
        if self.head == "action_value" and self.td_chain == "shared":
            raise ConfigError(
                "td config: the shared chain belongs to the article's after-state heads, not action_value"
            )

    @property
    def networks(self) -> int:
        """How many networks the player has: one per identity slot with ``opponent_networks``, else one."""
        return max(1, self.opponent_ids) if self.opponent_networks else 1

    @property
    def input_size(self) -> int:
        """Inputs of the network: 92 (§A.3), + 16 extras (§A.3.6), + 12 strength inputs, + opponent ids, +
        the opponent model's predictions (§A.10: 6 with action values, 3 on after-states)."""
        model = (6 if self.head == "action_value" else 3) * self.opponent_model_inputs
        return 92 + 16 * self.extra_inputs + 12 * self.strength_inputs + self.opponent_ids + model

    @property
    def outputs(self) -> int:
        """Network outputs: 4 classes, 1 value, or 2 action values (call, raise)."""
        return {"class": 4, "value": 1, "action_value": 2}[self.head]

    def game(self) -> GameConfig:
        """The game the player is trained in: 10/20 limit heads-up under ``cap_rule`` (§A.2)."""
        if self.cap_rule == "four_bets":
            return GameConfig()
        return GameConfig(max_raises=None, max_raises_per_player=3)

    @property
    def value_scale(self) -> int:
        """Chips per unit of the value and action-value outputs: ``result_scale``, or (0) the largest loss
        of a hand in `game` (§A.2: 240 under the four-bet cap)."""
        return self.result_scale or max_loss(self.game())

    def alpha_at(self, hands: int) -> float:
        """The step size after `hands` training hands (§A.8.2: α_n = α / (1 + n / decay))."""
        return (
            self.alpha if self.alpha_decay_hands == 0 else self.alpha / (1 + hands / self.alpha_decay_hands)
        )

    def epsilon_at(self, hands: int) -> float:
        """The exploration rate after `hands` training hands (linear decay, then constant; §A.8.2)."""
        if self.epsilon_decay_hands == 0 or hands >= self.epsilon_decay_hands:
            return self.epsilon_end if self.epsilon_decay_hands else self.epsilon_start
        return self.epsilon_start + (self.epsilon_end - self.epsilon_start) * hands / self.epsilon_decay_hands

    def to_json(self) -> dict:
        """The fields as a JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> TDConfig:
        """A config from a dict; unknown keys are one clear `ConfigError`."""
        if not isinstance(data, dict):
            raise ConfigError(f"a td config is a JSON object of fields, got {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(
                f"unknown td config field(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        return cls(**data)


FAITHFUL = TDConfig()
PRESETS: dict[str, TDConfig] = {
    "seed-literal": replace(FAITHFUL, td_chain="shared"),
    "faithful": FAITHFUL,
    "repaired": replace(
        FAITHFUL,
        extra_inputs=True,
        strength_inputs=True,
        head="action_value",
        alpha=0.01,
        alpha_decay_hands=200_000,
        epsilon_start=0.1,
        epsilon_end=0.02,
        epsilon_decay_hands=500_000,
    ),
}


def preset(name: str) -> TDConfig:
    """The named preset; `ConfigError` lists the names."""
    if name not in PRESETS:
        raise ConfigError(f"unknown td preset {name!r}; presets: {', '.join(PRESETS)}")
    return PRESETS[name]
