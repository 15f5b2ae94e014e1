"""The parameters of a fixed-limit hold'em game: bet sizes, blinds, the raise cap and the money mode.

Defaults are the papers' game (docs/getting-started.md): 10/20 fixed limit, blinds 5/10, a bet and three
raises per round with the big blind counting as the pre-flop bet, unlimited bankroll (self-play ring
game). ``stack=1000`` gives real stacks (Barone & While 2000) with all-ins, side pots and busted
players leaving.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from pokerlab.errors import ConfigError

#: Chips behind each seat in the unlimited-bankroll ring game: more than any fixed-limit hand can spend.
UNLIMITED_STACK = 10**12


@dataclass(frozen=True, slots=True)
class GameConfig:
    """A fixed-limit Texas hold'em game (all money in chips); validated on construction.

    * ``small_bet``: bet and raise size of the pre-flop and flop; ``big_bet`` that of turn and river
      (default twice the small bet).
    * ``small_blind`` / ``big_blind``: default half a small bet and one small bet (docs/getting-started.md).
    * ``max_raises``: raises allowed after the round's opening bet (3: "a bet and three raises");
      ``None`` for no cap. ``blind_counts_as_bet``: the big blind is the pre-flop opening bet (the papers'
      rule); PokerKit's FT instead allows ``max_raises + 1`` raises over the blind.
    * ``max_raises_per_player``: bets and raises each player may make per round, besides the cap above
      (``None``: no such limit). The blinds are not a player's raises. ``max_raises=None,
      max_raises_per_player=3`` is TD-Hold'em's literal cap, "no player may raise more than three times in
      any single round" (docs/learning-spec-td.md §A.2, ``cap_rule = "three_raises_per_player"``).
    * ``no_cap_heads_up``: lift the cap while only two players remain in the hand (a casino option).
    * ``stack``: ``None`` for the ring game with unlimited bankroll; an int for real stacks.
    """

    small_bet: int = 10
    big_bet: int | None = None
    small_blind: int | None = None
    big_blind: int | None = None
    max_raises: int | None = 3
    blind_counts_as_bet: bool = True
    no_cap_heads_up: bool = False
    stack: int | None = None
    max_raises_per_player: int | None = None
    # derived, filled in by __post_init__
    max_bets: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in (
            "small_bet",
            "big_bet",
            "small_blind",
            "big_blind",
            "max_raises",
            "max_raises_per_player",
            "stack",
        ):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise ConfigError(f"{name} must be an integer number of chips, got {value!r}")
        if self.small_bet <= 0:
            raise ConfigError(f"small_bet must be positive, got {self.small_bet}")
        if self.big_bet is None:
            object.__setattr__(self, "big_bet", 2 * self.small_bet)
        if self.small_blind is None:
            object.__setattr__(self, "small_blind", self.small_bet // 2)
        if self.big_blind is None:
            object.__setattr__(self, "big_blind", self.small_bet)
        if self.big_bet <= 0:
            raise ConfigError(f"big_bet must be positive, got {self.big_bet}")
        if not 0 <= self.small_blind <= self.big_blind:
            raise ConfigError(
                f"blinds must satisfy 0 <= small_blind <= big_blind, got {self.small_blind}/{self.big_blind}"
            )
        if self.big_blind <= 0:
            raise ConfigError(f"big_blind must be positive, got {self.big_blind}")
        if self.max_raises is not None and self.max_raises < 0:
            raise ConfigError(f"max_raises must be >= 0 or None (no cap), got {self.max_raises}")
        if self.max_raises_per_player is not None and self.max_raises_per_player < 0:
            raise ConfigError(
                "max_raises_per_player must be >= 0 or None (no per-player limit), "
                f"got {self.max_raises_per_player}"
            )
        if self.stack is not None and self.stack <= 0:
            raise ConfigError(
                f"stack must be a positive number of chips or None (unlimited), got {self.stack}"
            )
        for name in ("blind_counts_as_bet", "no_cap_heads_up"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be true or false, got {getattr(self, name)!r}")
        bets = 1 << 30 if self.max_raises is None else self.max_raises + 1
        object.__setattr__(self, "max_bets", bets)

    @property
    def unlimited(self) -> bool:
        """True in the ring game with unlimited bankroll."""
        return self.stack is None

    def starting_stack(self) -> int:
        """Chips each seat starts a hand (ring game) or a session (real stacks) with."""
        return UNLIMITED_STACK if self.stack is None else self.stack

    def bet_size(self, round_index: int) -> int:
        """The fixed bet and raise size in round 0..3 (small bet, small bet, big bet, big bet)."""
        return self.small_bet if round_index < 2 else self.big_bet

    def to_dict(self) -> dict:
        """The configuration as plain JSON-ready data (what `from_dict` reads back)."""
        data = asdict(self)
        data.pop("max_bets")
        return data

    @classmethod
    def from_dict(cls, data: dict) -> GameConfig:
        """A configuration from `to_dict` output; unknown keys raise `ConfigError` naming them."""
        known = {
            "small_bet",
            "big_bet",
            "small_blind",
            "big_blind",
            "max_raises",
            "blind_counts_as_bet",
            "max_raises_per_player",
            "no_cap_heads_up",
            "stack",
        }
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown game settings {unknown}; known: {sorted(known)}")
        return cls(**data)
