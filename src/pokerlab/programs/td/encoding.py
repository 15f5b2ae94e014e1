"""TD-Hold'em's input vector (docs/learning-spec-td.md §A.3): 92 inputs, the 16 extras of §A.3.6 and the 12
hand-strength inputs of §A.8.2, always from the acting player's own view.

Layout (§A.3.1): 0-24 hand quality H1..H5, 25-49 table discount T1..T5, 50-69 this round's bets B1..B4,
70-89 earlier rounds' bets O1..O4, 90-91 whose turn ([button, big blind]); then, when switched on, the round
one-hot and both players' chips committed (unary in units of 40), HS_1 and showdown equity against a uniform
hand (each a real and a 5-slot unary), and an opponent-identity one-hot. Card values: 2 -> 1 ... A -> 13.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from pokerlab.actions import CALL, RAISE
from pokerlab.programs.td.config import TDConfig
from pokerlab.programs.td.strength import showdown_equity, uniform_strength

#: Board cards by round, and the stage names the article's feature tables use.
PREFLOP, FLOP, TURN, RIVER = 0, 1, 2, 3
#: Consecutivity categories of §A.3.3 H4, in the order they are checked.
STRAIGHT, FOUR, INSIDE_GAP, THREE, NOTHING = range(5)
#: H4 values by category, per stage, pre-flop 0 (TD-Hold'em 2005 §4.3; docs/learning-spec-td.md §A.3.3).
_HAND_STRAIGHTS = {FLOP: (5, 3, 2, 1, 0), TURN: (5, 2, 1, 0, 0), RIVER: (5, 0, 0, 0, 0)}
#: T4 values by category, per stage (§A.3.4); the river fix adds 4 / 3 for four consecutive / inside gap.
_TABLE_STRAIGHTS = {FLOP: (0, 0, 0, 1, 0), TURN: (0, 3, 2, 0, 0), RIVER: (5, 0, 0, 0, 0)}
_TABLE_STRAIGHTS_FIXED = {**_TABLE_STRAIGHTS, RIVER: (5, 4, 3, 0, 0)}


#: The unary codes of 0 .. slots ones, by number of slots (5 for the article's features, 6 for the extras).
_CODES = {slots: [[1.0] * k + [0.0] * (slots - k) for k in range(slots + 1)] for slots in (5, 6)}


def unary(value: float, slots: int = 5, rounding: str = "half_up") -> list[float]:
    """k = clip(round(value), 0, slots) ones then zeros (§A.3.2; 2.8 -> 1 1 1 0 0); "half_up" rounds 2.5
    to 3, "half_even" to 2 (Python's rounding). The list returned is shared: do not change it."""
    k = math.floor(value + 0.5) if rounding == "half_up" else round(value)
    k = 0 if k < 0 else (slots if k > slots else k)
    return _CODES[slots][k] if slots in _CODES else [1.0] * k + [0.0] * (slots - k)


def card_value(code: int) -> int:
    """The seed's card value: 2 -> 1, ..., K -> 12, A -> 13 (code = 4 * rank + suit)."""
    return code // 4 + 1


def stage_of(board_size: int) -> int:
    """PREFLOP, FLOP, TURN or RIVER from the number of board cards (0, 3, 4, 5)."""
    return {0: PREFLOP, 3: FLOP, 4: TURN, 5: RIVER}[board_size]


def replicated(cards: Sequence[int]) -> int:
    """H1 / T1: cards minus distinct ranks (one pair 1, two pair or trips 2, full house 3; §A.3.3)."""
    return len(cards) - len({c // 4 for c in cards})


def replicated_mean(cards: Sequence[int], rule: str = "extra_copies") -> float:
    """H2 / T2: the mean value of the replicated cards, halved; 0 without any (§A.3.3).

    "extra_copies": each rank's count − 1 copies; "all_cards": every card of a repeated rank.
    """
    counts: dict[int, int] = {}
    for c in cards:
        v = card_value(c)
        counts[v] = counts.get(v, 0) + 1
    if rule == "extra_copies":
        chosen = [(v, n - 1) for v, n in counts.items() if n > 1]
    else:
        chosen = [(v, n) for v, n in counts.items() if n > 1]
    total = sum(n for _, n in chosen)
    return 0.0 if total == 0 else sum(v * n for v, n in chosen) / total / 2


def mean_value(cards: Sequence[int], halved: bool = True) -> float:
    """H5 / T5: the mean card value (halved when `halved`, §A.3.3); 0 for no cards."""
    if not cards:
        return 0.0
    mean = sum(card_value(c) for c in cards) / len(cards)
    return mean / 2 if halved else mean


def largest_suit(cards: Sequence[int]) -> int:
    """m: the largest number of cards of one suit."""
    counts = [0, 0, 0, 0]
    for c in cards:
        counts[c % 4] += 1
    return max(counts)


def hand_suit(cards: Sequence[int], stage: int) -> int:
    """H3 (§A.3.3): 5 for a made flush; 4 of a suit: 3 on the flop, 2 on the turn; 3 on the flop: 1."""
    m = largest_suit(cards)
    if m >= 5:
        return 5
    return {(4, FLOP): 3, (4, TURN): 2, (3, FLOP): 1}.get((m, stage), 0)


def table_suit(board: Sequence[int], stage: int) -> int:
    """T3 (§A.3.4): by the board's largest suit count m and the stage."""
    m = largest_suit(board)
    return {(3, FLOP): 3, (3, TURN): 2, (3, RIVER): 1, (4, TURN): 4, (4, RIVER): 4, (5, RIVER): 5}.get(
        (m, stage), 0
    )


def consecutivity(cards: Sequence[int]) -> int:
    """The straight category of §A.3.3 H4 on the distinct ranks (the ace also below the deuce): STRAIGHT
    (run >= 5), FOUR (run = 4), INSIDE_GAP (4 distinct ranks in a 5-window), THREE (run = 3) or NOTHING."""
    present = [False] * 14  # 0 = ace low, 1 = deuce ... 13 = ace
    for c in cards:
        present[card_value(c)] = True
    present[0] = present[13]
    run = best = 0
    for p in present:
        run = run + 1 if p else 0
        best = max(best, run)
    window = max(sum(present[low : low + 5]) for low in range(10))
    if best >= 5:
        return STRAIGHT
    if best == 4:
        return FOUR
    if window >= 4:
        return INSIDE_GAP
    return THREE if best == 3 else NOTHING


def hand_features(hole: Sequence[int], board: Sequence[int], config: TDConfig) -> tuple[float, ...]:
    """H1..H5 (§A.3.3) of the known cards (hole + board)."""
    known = list(hole) + list(board)
    stage = stage_of(len(board))
    straight = 0 if stage == PREFLOP else _HAND_STRAIGHTS[stage][consecutivity(known)]
    return (
        float(replicated(known)),
        replicated_mean(known, config.replicated_mean),
        float(hand_suit(known, stage)),
        float(straight),
        mean_value(known, config.mean_halved),
    )


def table_features(board: Sequence[int], config: TDConfig) -> tuple[float, ...]:
    """T1..T5 (§A.3.4) of the board alone; all 0 pre-flop."""
    stage = stage_of(len(board))
    if stage == PREFLOP:
        return (0.0,) * 5
    values = _TABLE_STRAIGHTS_FIXED if config.table_river_straight_fix else _TABLE_STRAIGHTS
    return (
        float(replicated(board)),
        replicated_mean(board, config.replicated_mean),
        float(table_suit(board, stage)),
        float(values[stage][consecutivity(board)]),
        mean_value(board, config.mean_halved),
    )


def betting_stats(
    actions,
    position: int,
    current_round: int,
    extra: int | None = None,
    count_rule: str = "checks_as_calls",
    extra_to_call: int = 1,
) -> tuple[tuple, tuple]:
    """(B1..B4, O1..O4) of §A.3.5 for `position`: own raises, opponent raises, opponent raises / calls,
    own raises / calls, this round and summed over earlier rounds (a ratio with no calls is the raw count).

    A raise is a bet or raise; a call is a call or check ("checks_as_calls", the article's "call or check"
    decision) or only a call of a positive amount ("calls_only") [OUR CHOICE ``count_rule``]; blinds are
    not actions. `extra` (CALL or RAISE) is the acting player's candidate action, counted as if taken (an
    after-state, §A.3.5); `extra_to_call` is what that player owes (0: its CALL is a check).
    """
    checks = count_rule == "checks_as_calls"
    now = [0, 0, 0, 0]  # own raises, own calls, opponent raises, opponent calls
    before = [0, 0, 0, 0]
    for record in actions:
        if record.action == RAISE:
            slot = 0
        elif record.action == CALL and (checks or record.to_call > 0):
            slot = 1
        else:
            continue
        counts = now if record.round == current_round else before
        counts[slot + (0 if record.position == position else 2)] += 1
    if extra == RAISE:
        now[0] += 1
    elif extra == CALL and (checks or extra_to_call > 0):
        now[1] += 1

    def stats(c: list[int]) -> tuple[float, float, float, float]:
        own_raises, own_calls, opp_raises, opp_calls = c
        return (
            float(own_raises),
            float(opp_raises),
            opp_raises / opp_calls if opp_calls else float(opp_raises),
            own_raises / own_calls if own_calls else float(own_raises),
        )

    return stats(now), stats(before)


def card_block(hole: Sequence[int], board: Sequence[int], config: TDConfig) -> np.ndarray:
    """Inputs 0-49 (hand and table blocks), plus the 12 strength inputs when switched on."""
    bits: list[float] = []
    for value in hand_features(hole, board, config) + table_features(board, config):
        bits += unary(value, 5, config.unary_round)
    if config.strength_inputs:
        strength = uniform_strength(hole, board)
        equity = strength if len(board) == 5 else showdown_equity(hole, board, config.flop_equity_samples)
        for value in (strength, equity):  # on the river the showdown equity is HS_1
            bits += [value] + unary(5 * value, 5, config.unary_round)
    return np.array(bits)


def betting_block(view, config: TDConfig, extra: int | None = None) -> np.ndarray:
    """Inputs 50-91 (bets, old bets, whose turn) and, when switched on, the 16 extras of §A.3.6, for the
    view's position; `extra` is the candidate action of an after-state (its chips count as committed)."""
    now, before = betting_stats(
        view.actions, view.position, view.round, extra, config.count_rule, view.to_call
    )
    bits: list[float] = []
    for value in now + before:
        bits += unary(value, 5, config.unary_round)
    bits += [1.0, 0.0] if view.is_button else [0.0, 1.0]
    if config.extra_inputs:
        bits += [1.0 if r == view.round else 0.0 for r in range(4)]
        committed = view.committed
        own, opponent = committed[view.position], sum(committed) - committed[view.position]
        if extra == CALL:
            own += view.to_call
        elif extra == RAISE:
            own += view.to_call + view.bet_size
        bits += unary(own / 40, 6, config.unary_round) + unary(opponent / 40, 6, config.unary_round)
    return np.array(bits)


def opponent_block(opponent: int | None, config: TDConfig) -> np.ndarray:
    """The opponent-identity one-hot of §A.8.3 (all zeros for an unlabelled opponent)."""
    block = np.zeros(config.opponent_ids)
    if opponent is not None:
        block[opponent] = 1.0
    return block


def encode(view, config: TDConfig, extra: int | None = None, opponent: int | None = None) -> np.ndarray:
    """The whole input vector of the view's position (length `config.input_size`), §A.3.1 order: cards,
    betting, then the extras, the strength inputs and the opponent id where switched on (`Encoder` is the
    same with the card block cached).
    """
    cards = card_block(view.hole, view.board, config)
    betting = betting_block(view, config, extra)
    return assemble(cards, betting, opponent, config)


def assemble(cards: np.ndarray, betting: np.ndarray, opponent: int | None, config: TDConfig) -> np.ndarray:
    """Blocks in input order: hand+table (50), betting (42), extras (16), strength (12), opponent id."""
    parts = [cards[:50], betting[:42]]
    if config.extra_inputs:
        parts.append(betting[42:])
    if config.strength_inputs:
        parts.append(cards[50:])
    if config.opponent_ids:
        parts.append(opponent_block(opponent, config))
    return np.concatenate(parts)


class Encoder:
    """`encode` with the card block cached per (hole, board): it changes once a round, the betting every
    decision."""

    def __init__(self, config: TDConfig) -> None:
        self.config = config
        self._key: tuple | None = None
        self._cards = np.zeros(0)

    def cards(self, hole, board) -> np.ndarray:
        """The card block of these cards (cached)."""
        key = (tuple(hole), tuple(board))
        if key != self._key:
            self._key, self._cards = key, card_block(hole, board, self.config)
        return self._cards

    def __call__(self, view, extra: int | None = None, opponent: int | None = None) -> np.ndarray:
        cards = self.cards(view.hole, view.board)
        return assemble(cards, betting_block(view, self.config, extra), opponent, self.config)
