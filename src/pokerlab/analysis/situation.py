"""The known cards of a post-flop decision and the opponent's weight table, checked once.

The kernels enumerate the opponent's *subcases* (Papp 1998 §5.2's term: the two-card holdings that share no
card with ours or the board; 1,081 on the flop, 1,035 on the turn, 990 on the river), each counted with the
opponent's weight for it (Billings et al. 1998 §4.3); holdings of weight 0 are skipped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numba as nb
import numpy as np

from pokerlab.cards import CARD_MASKS, format_cards, parse_cards
from pokerlab.errors import ConfigError, InvalidCards
from pokerlab.holdings import HOLDING_CARDS, check_weights, live_holdings, uniform_weights

CardsLike = str | Iterable[str | int]

_UNIFORM = uniform_weights()


@dataclass(frozen=True, eq=False)
class Situation:
    """Our hole cards and the board (uint8 card codes) and the opponent's weight table (1,326 floats).

    `weighted` says whether a weight table was given (else the weights are all 1).
    """

    hole: np.ndarray
    board: np.ndarray
    weights: np.ndarray
    weighted: bool


def parse_board(board: CardsLike, sizes: tuple[int, ...] = (3, 4, 5)) -> list[int]:
    """A board of one of the allowed sizes (flop, turn, river), as codes; `InvalidCards` otherwise."""
    codes = parse_cards(board)
    if len(codes) not in sizes:
        allowed = " or ".join(", ".join(map(str, sizes)).rsplit(", ", 1))
        raise InvalidCards(f"a board here has {allowed} cards; got {len(codes)}: {format_cards(codes)!r}")
    return codes


def parse_situation(
    hole: CardsLike, board: CardsLike, sizes: tuple[int, ...] = (3, 4, 5)
) -> tuple[list[int], list[int]]:
    """Our two hole cards and a board of an allowed size, as codes; `InvalidCards` on anything else."""
    hole_codes = parse_cards(hole)
    if len(hole_codes) != 2:
        raise InvalidCards(f"hole cards are 2 cards; got {len(hole_codes)}: {format_cards(hole_codes)!r}")
    board_codes = parse_board(board, sizes)
    parse_cards(hole_codes + board_codes)  # the same card in hole and board
    return hole_codes, board_codes


def situation(hole: CardsLike, board: CardsLike, weights: object = None) -> Situation:
    """Our `hole` cards on a flop, turn or river `board` against an opponent weighted by `weights`
    (1,326 floats >= 0, see `pokerlab.holdings`; None for uniform weights).

    Raises `InvalidCards` for bad cards and `ConfigError` for a bad table or one that gives no weight to
    any live holding.
    """
    hole_codes, board_codes = parse_situation(hole, board)
    table = _UNIFORM if weights is None else check_weights(weights)
    if weights is not None and not table[live_holdings(hole_codes + board_codes)].any():
        raise ConfigError(
            "the weight table gives no weight to any holding live beside "
            f"{format_cards(hole_codes + board_codes)!r}"
        )
    return Situation(
        np.array(hole_codes, dtype=np.uint8),
        np.array(board_codes, dtype=np.uint8),
        table,
        weights is not None,
    )


def known_situation(hole: tuple[int, ...], board: tuple[int, ...], weights: np.ndarray | None) -> Situation:
    """The `Situation` of card codes and a weight table that are already valid (an agent's own view and
    field array): the fast path of `situation`, which checks nothing."""
    table = _UNIFORM if weights is None else weights
    return Situation(
        np.array(hole, dtype=np.uint8), np.array(board, dtype=np.uint8), table, weights is not None
    )


@nb.njit(inline="always", cache=True)
def is_subcase(holding: int, dead_mask: np.uint64, weights: np.ndarray) -> bool:
    """Whether holding i is live (no card in `dead_mask`) and has weight > 0 (numba kernel)."""
    cards = CARD_MASKS[HOLDING_CARDS[holding, 0]] | CARD_MASKS[HOLDING_CARDS[holding, 1]]
    return (cards & dead_mask) == 0 and weights[holding] > 0
