"""A lean follower of a limit hold'em hand's betting: whose turn it is, from the ACPC betting string alone.

The client must know after every MATCHSTATE line whether the rules make it its turn (ACPC protocol 2.0.0:
the dealer never says so). Our engine (`pokerlab.engine.HandState`) answers that and everything an agent
sees, at a cost per action of a record, the checks of every rule variant and, at a showdown, the ranking
of the hands. `LimitBetting` keeps only what the turn needs in the ring game (no stacks to run out, the
round's cap on bets, no per-player limit): each position's chips in, the round's highest bet and bets
made, who must still act, who folded. It reads the betting string's letters incrementally (`extend`:
only the characters a line adds), so the client answers a line that is not its turn without the engine,
and follows the engine's rules exactly (the blinds, the first player of each round, the cap: `GameConfig`,
its docs), which a test checks at every prefix of random betting strings. Configurations it does not
model (`supports` is False) are left to the engine.
"""

from __future__ import annotations

from pokerlab.actions import CALL, FOLD, LETTER_ACTIONS, RAISE
from pokerlab.engine import GameConfig, HandState
from pokerlab.engine.state import blind_positions

_ROUNDS = 4  # pre-flop, flop, turn, river; the round after the river is the showdown
_CHECK_OR_FOLD = (FOLD, CALL)
_ALL_ACTIONS = (FOLD, CALL, RAISE)


def supports(config: GameConfig) -> bool:
    """Whether `LimitBetting` follows `config`'s rules: the ring game (no stacks), the round's cap alone."""
    return config.stack is None and config.max_raises_per_player is None and not config.no_cap_heads_up


class LimitBetting:
    """The betting of one hand of `players` positions in `config` (which `supports`), after the letters
    given so far. ``actor``: the position to act, -1 once the hand is over (one player left, or the
    river's betting closed); ``round``: 0-3, 4 after the river; ``committed``: each position's chips in."""

    __slots__ = (
        "config",
        "n",
        "actor",
        "round",
        "committed",
        "bets",
        "max_bet",
        "made",
        "raise_size",
        "need",
        "active",
        "letters",
    )

    def __init__(self, config: GameConfig, players: int) -> None:
        self.config, self.n = config, players
        small, big = blind_positions(players)
        self.committed = [0] * players
        self.committed[small] += config.small_blind
        self.committed[big] += config.big_blind
        self.bets = list(self.committed)
        # the engine's opener: left of the largest blind (ties: the later position)
        first = big if (config.big_blind, big) > (config.small_blind, small) else small
        self.max_bet = self.bets[first]
        self.round, self.raise_size = 0, 0
        self.made = 1 if config.blind_counts_as_bet else 0
        self.active = self.need = (1 << players) - 1
        self.actor = (first + 1) % players
        self.letters = 0  # characters of the betting string read, '/' included

    @classmethod
    def following(cls, state: HandState, letters: int) -> LimitBetting:
        """The betting of the engine's `state` (a hand in a game that `supports`, not over), whose betting
        string has `letters` characters: what the engine knows, carried on without it."""
        lean = cls.__new__(cls)
        lean.config, lean.n, lean.actor, lean.round = state.config, state.n, state.actor, state.round
        lean.committed, lean.bets = list(state.committed), list(state.bets)
        lean.max_bet, lean.made, lean.raise_size = state.max_bet, state.bets_made, state.raise_size
        lean.need, lean.active, lean.letters = state.need, state.active, letters
        return lean

    @property
    def pot(self) -> int:
        return sum(self.committed)

    def legal_actions(self) -> tuple[int, ...]:
        """What the position to act may do, as the engine's `HandState.legal_actions`; () once over."""
        p = self.actor
        if p < 0:
            return ()
        if self.made >= self.config.max_bets or self.max_bet - self.bets[p] < self.raise_size:
            return _CHECK_OR_FOLD
        return _ALL_ACTIONS

    def extend(self, betting: str) -> bool:
        """Read the letters of `betting` after those read so far (the betting string of a later line of the
        hand); False where they break the rules or the rounds' '/' (the state is then undefined: only the
        engine can say what is wrong)."""
        for letter in betting[self.letters :]:
            if letter == "/":
                continue
            action = LETTER_ACTIONS.get(letter, -1)
            if action < 0 or not self._act(action):
                return False
        self.letters = len(betting)
        return self.actor < 0 or (self.round if self.round < 3 else 3) == betting.count("/")

    def _act(self, action: int) -> bool:
        p = self.actor
        if p < 0:
            return False
        bit = 1 << p
        bets = self.bets
        if action == FOLD:
            self.active &= ~bit
        elif action == CALL:
            owed = self.max_bet - bets[p]
            bets[p] += owed
            self.committed[p] += owed
        elif self.legal_actions() is _ALL_ACTIONS:
            size = self.config.bet_size(self.round)
            raise_size = self.raise_size
            step = size if size > raise_size else raise_size
            owed = self.max_bet + step - bets[p]
            bets[p] += owed
            self.committed[p] += owed
            self.raise_size = step
            self.max_bet = bets[p]
            self.made += 1
            self.need = self.active
        else:
            return False
        need = self.need & ~bit
        self.need = need
        active = self.active
        if not active & (active - 1):  # one player left: the hand is over
            self.actor = -1
        elif need:
            later = need >> (p + 1)
            self.actor = p + (later & -later).bit_length() if later else (need & -need).bit_length() - 1
        else:  # the round's betting closed
            self.round += 1
            if self.round == _ROUNDS:
                self.actor = -1
            else:
                self.bets = [0] * self.n
                self.max_bet = self.raise_size = self.made = 0
                self.need = active
                self.actor = (active & -active).bit_length() - 1
        return True
