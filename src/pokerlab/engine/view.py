"""What one position may know of a hand: the per-seat view the engine hands to agents (GUIDE.md).

A view holds the position's own hole cards, the board, the public betting, stacks, pot, amount to call and
the legal actions. Other positions' cards appear only once shown down at the end of the hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerlab.engine.config import GameConfig
from pokerlab.engine.state import HandState


@dataclass(frozen=True, slots=True)
class SeatView:
    """One position's view of a hand (money in chips; positions 0..n-1, n-1 = the button).

    ``stacks`` is None in the unlimited-bankroll ring game. ``history`` is the betting as
    (round, position, action) triples; ``betting`` the same in ACPC form ("cr/cc/rc/c"). ``shown`` maps
    the positions that showed down (only at the end of a hand) to their hole cards. ``seats`` names the
    player at each position by a number that stays the same across the hands of a match (its seat at the
    table), so that an agent can model an opponent over many hands while positions rotate.
    """

    config: GameConfig
    position: int
    players: int
    hole: tuple[int, int]
    board: tuple[int, ...]
    round: int
    history: tuple[tuple[int, int, int], ...]
    betting: str
    stacks: tuple[int, ...] | None
    bets: tuple[int, ...]
    committed: tuple[int, ...]
    folded: tuple[bool, ...]
    pot: int
    to_call: int
    legal_actions: tuple[int, ...]
    actor: int
    shown: dict[int, tuple[int, int]]
    seats: tuple[int, ...]

    @property
    def is_button(self) -> bool:
        """Whether this position holds the button."""
        return self.position == self.players - 1

    @property
    def active_players(self) -> int:
        """Players who have not folded."""
        return self.folded.count(False)


def seat_view(state: HandState, position: int, seats: tuple[int, ...] | None = None) -> SeatView:
    """The view of `position` on `state` (cards of others only where shown at the showdown); `seats` gives
    each position's lasting seat number (default: the positions themselves)."""
    n = state.n
    holes = state.holes
    shown = {}
    if state.showdown:
        shown = {p: (holes[2 * p], holes[2 * p + 1]) for p, s in enumerate(state.shown()) if s}
    history, betting = state.betting()
    return SeatView(
        config=state.config,
        position=position,
        players=n,
        hole=(holes[2 * position], holes[2 * position + 1]),
        board=tuple(state.board),
        round=state.round,
        history=history,
        betting=betting,
        stacks=None if state.config.unlimited else tuple(state.stacks),
        bets=tuple(state.bets),
        committed=tuple(state.committed),
        folded=state.folds(),
        pot=state.pot,
        to_call=0 if state.folded(position) else state.to_call(position),
        legal_actions=state.legal_actions() if position == state.actor else (),
        actor=state.actor,
        shown=shown,
        seats=tuple(range(n)) if seats is None else seats,
    )
