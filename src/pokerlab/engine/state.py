"""One hand of fixed-limit Texas hold'em as a small, fast state machine.

Players are indexed by **position**: position 0 sits first left of the button and position n-1 is the
button (the order of PokerKit's PHH players p1..pN). With three or more players position 0 posts the small
blind and position 1 the big blind; heads-up the button posts the small blind and position 0 the big blind,
so the button acts first before the flop and last after it. Pre-flop action starts left of the big blind,
later rounds at position 0.

The state holds only ints, lists of ints, int bitmasks and the list of `ActionRecord`s (immutable
tuples, shared by copies), so `copy` and `act` cost a few microseconds (Loki-2's simulations copy states
thousands of times per decision).
All money is in chips.

All-in rule (real stacks). A bet or raise is *full* when its increment over the previous high bet is at
least the largest increment made so far in the round; the round's opening bet is always full. An all-in
for less is *short*: it does not reopen the betting for players who already acted in the round (they may
only call or fold), and a player who faces less than the largest increment cannot raise, unless several
consecutive short all-ins add up to a full increment. A raise after a short all-in goes one full bet above
it. Every bet or raise, short or full, counts towards the cap. This is PokerKit's rule, kept so that
PokerKit's hand histories replay here unchanged. A player whose bet already covers every other player's
whole stake, or who is the only one left able to act and owes nothing, is not asked to act.
"""

from __future__ import annotations

from typing import NamedTuple

from pokerlab.actions import ACTION_LETTERS, CALL, FOLD, RAISE, Action
from pokerlab.engine.config import GameConfig
from pokerlab.engine.showdown import settle
from pokerlab.errors import ConfigError, IllegalAction, InvalidCards
from pokerlab.evaluator import rank_holdings

PREFLOP, FLOP, TURN, RIVER, SHOWDOWN = 0, 1, 2, 3, 4
#: Board cards visible in each round (pre-flop, flop, turn, river, after the hand).
BOARD_SIZE = (0, 3, 4, 5, 5)
ROUND_NAMES = ("pre-flop", "flop", "turn", "river", "showdown")
#: An unknown hole card (a replayed hand where a seat's cards were never shown).
UNKNOWN = -1

_ACTIVE, _FOLDED, _ALL_IN = 0, 1, 2
#: The status of a position that folded (`HandState.status`).
FOLDED = _FOLDED
_CHECK_OR_FOLD = (FOLD, CALL)
_CHECK = (CALL,)
_ALL_ACTIONS = (FOLD, CALL, RAISE)
#: Cap counts at or above this stand for "no cap" (`GameConfig.max_bets` is 2**30 without a cap).
UNCAPPED = 1 << 29


class ActionRecord(NamedTuple):
    """One action of a hand, as everyone at the table saw it (money in chips).

    * ``round``: 0 pre-flop .. 3 river; ``position``: who acted; ``action``: FOLD, CALL or RAISE.
    * ``amount``: chips the action put in (0 for a fold or a check).
    * ``to_call``: chips the player owed before acting (capped at its stack); 0 means checking was free.
    * ``raises``: bets and raises made in the round before this action, the big blind counting as the
      pre-flop bet when the config says so (the count the cap applies to).
    * ``raises_left``: bets or raises the cap still allowed the acting player before this action (the
      smaller of the round's cap and its own per-player limit, `GameConfig.max_raises_per_player`); None
      when uncapped.
    """

    round: int
    position: int
    action: int
    amount: int
    to_call: int
    raises: int
    raises_left: int | None


_new_record = tuple.__new__


def betting_string(actions, round_index: int) -> str:
    """The ACPC betting string ("cr/cc/rc/c") of `ActionRecord`s, with a '/' for every round opened up to
    `round_index` (a finished hand's `SHOWDOWN` counts as the river).

    >>> betting_string([ActionRecord(0, 0, CALL, 5, 5, 1, 3), ActionRecord(0, 1, CALL, 0, 0, 1, 3)], 1)
    'cc/'
    """
    letters = [[] for _ in range(min(round_index, RIVER) + 1)]
    for record in actions:
        letters[record.round].append(ACTION_LETTERS[record.action])
    return "/".join("".join(r) for r in letters)


def blind_positions(players: int) -> tuple[int, int]:
    """(small blind, big blind) positions: 0 and 1, but heads-up the button (position 1) posts the small
    blind."""
    return (1, 0) if players == 2 else (0, 1)


def own_raises(actions: tuple[ActionRecord, ...], round_index: int, p: int) -> int:
    """Bets and raises position p made in round `round_index`, from the end of the action history (what
    `GameConfig.max_raises_per_player` limits; blinds are not actions)."""
    count = 0
    for record in reversed(actions):
        if record.round != round_index:
            break
        if record.position == p and record.action == RAISE:
            count += 1
    return count


def raises_left(state: HandState, p: int) -> int | None:
    """Bets or raises the rules still allow position p in the current round: the round's cap less the bets
    made, and at most p's own per-player limit less its own raises; None when neither limits it."""
    config = state.config
    left = config.max_bets - state.bets_made
    if left > UNCAPPED or (config.no_cap_heads_up and state.in_hand == 2):
        left = None
    per = config.max_raises_per_player
    if per is not None:
        own = per - own_raises(state.actions, state.round, p)
        left = own if left is None else min(left, own)
    return left


def _next_in(mask: int, p: int) -> int:
    """The first position after p (cyclically) whose bit is set in the non-empty mask of positions."""
    later = mask >> (p + 1)
    if later:
        return p + (later & -later).bit_length()
    return (mask & -mask).bit_length() - 1


class HandState:
    """One hand in progress: start it with the positions' stacks, hole cards and board run-out.

    * ``holes``: 2 * n card codes, position i holding ``holes[2i], holes[2i + 1]`` (`UNKNOWN` allowed for
      a replayed hand, as long as that position never reaches a showdown).
    * ``runout``: the five board cards in dealing order (fewer are allowed when the hand ends earlier).
    * ``stacks``: chips each position holds before the blinds (default: the config's starting stack).
    """

    __slots__ = (
        "config",
        "n",
        "holes",
        "runout",
        "round",
        "stacks",
        "bets",
        "committed",
        "status",
        "actor",
        "active",
        "need",
        "acted",
        "raise_ok",
        "max_bet",
        "raise_size",
        "shorts",
        "bets_made",
        "in_hand",
        "actions",
        "winnings",
        "ranks",
        "known_ranks",
        "_folds",
        "blinds",
        "starting_stacks",
        "pot",
        "board_seen",
        "_nets",
    )

    def __init__(
        self,
        config: GameConfig,
        holes: list[int],
        runout: list[int],
        stacks: list[int] | None = None,
        n: int | None = None,
    ) -> None:
        if n is None:
            n = len(holes) // 2 if stacks is None else len(stacks)
        if not 2 <= n <= 10:
            raise ConfigError(f"a hand needs 2 to 10 players, got {n}")
        if stacks is None:
            stacks = [config.starting_stack()] * n
        if len(stacks) != n or len(holes) != 2 * n:
            raise ConfigError(
                f"{n} players need {n} stacks and {2 * n} hole cards, got {len(stacks)} and {len(holes)}"
            )
        if min(stacks) <= 0:
            raise ConfigError(f"every player in a hand needs chips; stacks {list(stacks)}")
        self.config = config
        self.n = n
        self.holes = list(holes)
        self.runout = list(runout)
        self.round = PREFLOP
        self.stacks = list(stacks)
        self.bets = [0] * n
        self.committed = [0] * n
        self.status = [_ACTIVE] * n
        self.active = (1 << n) - 1
        self.in_hand = n
        #: every action so far, in order: the one betting history (views, records and files derive from it);
        #: a tuple, extended by each action, so views and copies share it
        self.actions: tuple[ActionRecord, ...] = ()
        self.winnings: list[int] | None = None
        self.ranks: list[int] | None = None
        #: every position's hand rank with `runout` when the caller already knows them (a search playing one
        #: deal out many times ranks it once); None: the showdown ranks the hands itself
        self.known_ranks: list[int] | None = None
        self._folds: tuple[bool, ...] | None = None  # `folds()`, kept until the next fold
        self.acted = 0
        self.raise_ok = False
        self.raise_size = 0
        self.shorts = 0
        self.bets_made = 1 if config.blind_counts_as_bet else 0
        small, big = blind_positions(n)
        self.starting_stacks = tuple(stacks)
        self._nets: list[int] | None = None
        self.pot = 0  # chips in the pot, this round's bets included (kept by `_post`)
        self.board_seen: tuple[int, ...] = ()  # the board cards dealt so far (kept by `_next_round`)
        self._post(small, config.small_blind)
        self._post(big, config.big_blind)
        bets = self.bets
        self.blinds = tuple(bets)  # what each position posted as a blind (short stacks post less)
        # PokerKit's opener: left of the largest blind actually posted (ties: the later position)
        first = big if (bets[big], big) > (bets[small], small) else small
        max_bet = self.max_bet = bets[first]
        need = self.active
        second = sorted(stacks)[-2]  # the second largest whole stake (nobody has folded yet)
        if need & (need - 1) and max_bet >= second:  # drop whoever already covers every other stake
            for i in range(n):
                if need >> i & 1 and second <= bets[i]:
                    need &= ~(1 << i)
        if need and not need & (need - 1) and bets[need.bit_length() - 1] >= max_bet:
            need = 0  # a lone player who owes nothing has no decision
        if need:
            self.need = need
            self.actor = _next_in(need, first)
        else:
            self._next_round()

    # -- the rules ----------------------------------------------------------------------------------

    def _post(self, p: int, amount: int) -> None:
        """Put up to `amount` chips of position p into the pot (all-in when the stack runs out)."""
        stack = self.stacks[p]
        if amount >= stack:
            amount = stack
            self.status[p] = _ALL_IN
            self.active &= ~(1 << p)
        self.stacks[p] = stack - amount
        self.bets[p] += amount
        self.committed[p] += amount
        self.pot += amount

    def _next_round(self) -> None:
        """Close the round's betting and open the next, dealing on while fewer than two players can bet;
        settle the hand after the river."""
        while True:
            self.round += 1
            self.board_seen = tuple(self.runout[: BOARD_SIZE[self.round]])
            if self.round == SHOWDOWN:
                self._showdown()
                return
            self.bets = [0] * self.n
            self.max_bet = self.acted = self.raise_size = self.shorts = self.bets_made = 0
            need = self.active
            if need & (need - 1):  # two or more can bet; after the flop betting opens at position 0
                self.need = need
                self.actor = (need & -need).bit_length() - 1
                return

    def legal_actions(self) -> tuple[int, ...]:
        """The actions the player to act may take: (FOLD, CALL) or (FOLD, CALL, RAISE); () when over.

        A bet or raise needs room under the cap, chips beyond the call, a full increment to answer (or
        betting reopened for this player) and another player able to answer it. A player who is the only
        one left able to act and owes nothing may only check, (CALL,): a fold there would give away chips
        nobody called (PokerKit's rule too; the big blind keeps its option to check).
        """
        p = self.actor
        if p < 0:
            return ()
        stacks, bets, max_bet = self.stacks, self.bets, self.max_bet
        to_call = max_bet - bets[p]
        if to_call <= 0 and self.active == 1 << p:
            return _CHECK
        config = self.config
        if self.bets_made >= config.max_bets and not (config.no_cap_heads_up and self.in_hand == 2):
            return _CHECK_OR_FOLD
        per = config.max_raises_per_player
        if per is not None and own_raises(self.actions, self.round, p) >= per:
            return _CHECK_OR_FOLD
        if stacks[p] <= to_call or to_call < self.raise_size or (self.shorts and self.acted >> p & 1):
            return _CHECK_OR_FOLD
        others = self.active & ~(1 << p)
        while others:
            low = others & -others
            i = low.bit_length() - 1
            if stacks[i] + bets[i] > max_bet:
                self.raise_ok = True  # spares `act` the same test
                return _ALL_ACTIONS
            others ^= low
        return _CHECK_OR_FOLD

    def act(self, action: int) -> None:
        """Apply the action of the player to act; raises `IllegalAction` naming the legal ones."""
        p = self.actor
        if p < 0:
            raise IllegalAction(f"action {action!r} after the hand is over")
        bit = 1 << p
        stack = self.stacks[p]
        owed = self.max_bet - self.bets[p]
        made = self.bets_made
        config = self.config
        if config.max_raises_per_player is None:  # `raises_left` inlined: the hot path
            left = config.max_bets - made
            if left > UNCAPPED or (config.no_cap_heads_up and self.in_hand == 2):
                left = None
        else:
            left = raises_left(self, p)
        if action == FOLD and (owed > 0 or self.active != bit):
            self._folds = None
            self.status[p] = _FOLDED
            self.active &= ~bit
            self.in_hand -= 1
            self.acted |= bit
        elif action == CALL:
            if owed > 0:
                self._post(p, owed)
            self.acted |= bit
        elif action == RAISE and (self.raise_ok or self.legal_actions() is _ALL_ACTIONS):
            bets, max_bet, raise_size = self.bets, self.max_bet, self.raise_size
            size = config.bet_size(self.round)
            self._post(p, max_bet + (size if size > raise_size else raise_size) - bets[p])
            increment = bets[p] - max_bet
            self.acted = bit if increment >= raise_size else self.acted | bit
            if increment > raise_size:
                self.raise_size = raise_size = increment
            shorts = 0 if self.stacks[p] else self.shorts + increment
            self.shorts = 0 if shorts >= raise_size else shorts
            self.max_bet = bets[p]
            self.bets_made += 1
            self.need = self.active
        else:
            legal = ", ".join(Action(a).name for a in self.legal_actions())
            what = Action(action).name if action in _ALL_ACTIONS else repr(action)
            raise IllegalAction(
                f"{what} is not allowed for position {p} in the {ROUND_NAMES[self.round]}; legal: {legal}"
            )
        self.raise_ok = False
        self.actions += (
            _new_record(
                ActionRecord,
                (self.round, p, action, stack - self.stacks[p], owed if owed < stack else stack, made, left),
            ),
        )
        need = self.need & ~bit
        self.need = need
        if self.in_hand == 1:
            self._uncontested()
        elif need:
            later = need >> (p + 1)  # the next position after p that must act (as `_next_in`)
            self.actor = p + (later & -later).bit_length() if later else (need & -need).bit_length() - 1
        else:
            self._next_round()

    def _uncontested(self) -> None:
        """Everyone else folded: the last player takes the whole pot without showing."""
        self.actor = -1
        winner = 0
        while self.status[winner] == _FOLDED:
            winner += 1
        self.winnings = [0] * self.n
        self.winnings[winner] = self.pot

    def _showdown(self) -> None:
        """Rank the hands still in and settle the main pot and each side pot."""
        self.actor = -1
        n, status, holes = self.n, self.status, self.holes
        live = [i for i in range(n) if status[i] != _FOLDED]
        if len(self.runout) < 5:
            raise InvalidCards(f"the showdown needs five board cards, only {len(self.runout)} are known")
        if UNKNOWN in [holes[c] for i in live for c in (2 * i, 2 * i + 1)]:
            unknown = [i for i in live if UNKNOWN in holes[2 * i : 2 * i + 2]]
            raise InvalidCards(f"hole cards of position(s) {unknown} are unknown at the showdown")
        known = self.known_ranks
        ranks = [0] * n
        if known is not None:
            for i in live:
                ranks[i] = known[i]
        else:
            ranked = rank_holdings(self.runout[:5], [holes[2 * i : 2 * i + 2] for i in live])
            for i, r in zip(live, ranked, strict=True):
                ranks[i] = r
        self.ranks = ranks
        self.winnings = settle(self.committed, ranks)

    # -- reading the state --------------------------------------------------------------------------

    def copy(self) -> HandState:
        """An independent copy (lists copied; config and action records, immutable, shared): the cheap
        branch point for search."""
        new = object.__new__(HandState)
        new.config = self.config
        new.n = self.n
        new.holes = self.holes[:]
        new.runout = self.runout[:]
        new.round = self.round
        new.stacks = self.stacks[:]
        new.bets = self.bets[:]
        new.committed = self.committed[:]
        new.status = self.status[:]
        new.actor = self.actor
        new.active = self.active
        new.need = self.need
        new.acted = self.acted
        new.raise_ok = self.raise_ok
        new.max_bet = self.max_bet
        new.raise_size = self.raise_size
        new.shorts = self.shorts
        new.bets_made = self.bets_made
        new.in_hand = self.in_hand
        new.actions = self.actions
        new.winnings = self.winnings
        new.ranks = self.ranks
        new.known_ranks = self.known_ranks
        new._folds = self._folds
        new.blinds = self.blinds
        new.starting_stacks = self.starting_stacks
        new.pot = self.pot
        new.board_seen = self.board_seen
        new._nets = self._nets
        return new

    @property
    def is_over(self) -> bool:
        """True once the hand is settled."""
        return self.actor < 0

    @property
    def board(self) -> list[int]:
        """The board cards dealt so far (none beyond the round where everyone else folded)."""
        return self.runout[: BOARD_SIZE[self.round]]

    def to_call(self, p: int | None = None) -> int:
        """Chips position p (default: the player to act) must add to call (0: checking is free)."""
        p = self.actor if p is None else p
        return min(self.max_bet - self.bets[p], self.stacks[p]) if p >= 0 else 0

    def folded(self, p: int) -> bool:
        """Whether position p has folded."""
        return self.status[p] == _FOLDED

    def folds(self) -> tuple[bool, ...]:
        """Whether each position has folded (`folded` for all positions at once)."""
        folds = self._folds
        if folds is None:
            folds = self._folds = tuple([s == _FOLDED for s in self.status])
        return folds

    def all_in(self, p: int) -> bool:
        """Whether position p has no chips left behind."""
        return self.status[p] == _ALL_IN

    @property
    def showdown(self) -> bool:
        """True when the hand ended with two or more players showing their cards."""
        return self.ranks is not None

    @property
    def nets(self) -> list[int]:
        """Chips won (positive) or lost by each position; only once the hand is over. Sums to 0."""
        nets = self._nets
        if nets is None:
            if self.winnings is None:
                raise IllegalAction("the hand is not over yet: nets are known only after it")
            nets = self._nets = [w - c for w, c in zip(self.winnings, self.committed, strict=True)]
        return nets

    def shown(self) -> list[bool]:
        """Which positions showed their cards (those still in at a showdown)."""
        if self.ranks is None:
            return [False] * self.n
        return [s != _FOLDED for s in self.status]

    def betting_string(self) -> str:
        """The public betting in ACPC form, rounds separated by '/', e.g. "cr/cc/rc/c"."""
        return betting_string(self.actions, self.round)


def max_loss(config: GameConfig, players: int = 2) -> int:
    """The most chips one player can lose in a hand of `players` under `config`: what each commits when
    everyone bets or raises whenever the rules allow and calls otherwise (every round then holds the most bets
    the cap allows; docs/learning-spec-td.md §A.2: 40 + 40 + 80 + 80 = 240 in the 10/20 game with four bets).
    `ConfigError` when nothing bounds it (no cap and unlimited stacks)."""
    uncapped = config.max_raises is None or config.no_cap_heads_up
    if config.stack is None and uncapped and config.max_raises_per_player is None:
        raise ConfigError(
            "the largest loss of a hand is unbounded without a raise cap and with unlimited stacks"
        )
    state = HandState(config, list(range(2 * players)), list(range(2 * players, 2 * players + 5)))
    while state.actor >= 0:
        state.act(RAISE if RAISE in state.legal_actions() else CALL)
    return max(state.committed)
