"""Random fixed-limit hands played by PokerKit (test-only peer), for differential tests."""

from __future__ import annotations

import numpy as np
from pokerkit import Automation, FixedLimitTexasHoldem, HandHistory, Mode
from pokerkit.state import BoardDealing, CheckingOrCalling, CompletionBettingOrRaisingTo, Folding

from pokerlab.cards import format_cards

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
SHOWING = Automation.HOLE_CARDS_SHOWING_OR_MUCKING


def replay_in_pokerkit(text: str) -> list[int]:
    """Replay a PHH text in PokerKit strictly, action by action; returns the nets (final - starting stacks).

    Unlike iterating `HandHistory` (which, when an action fails, puts it back and checks, folds or shows for
    the player on its own), any action PokerKit refuses raises here, no show or muck is made for a player,
    and the hand must be over when the actions end.
    """
    import warnings

    from pokerkit.notation import parse_action

    history = HandHistory.loads(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns (cash-game mode) about folds when checking is free
        state = history.create_state()
        for action in history.actions:
            while state.can_burn_card():
                state.burn_card("??")
            parse_action(state, action, history.parse_value)
    if state.status:
        raise ValueError("PokerKit's hand is not over after the last action")
    starting = history.starting_stacks
    return [int(after) - int(before) for after, before in zip(state.stacks, starting, strict=True)]


def play_pokerkit_hand(rng: np.random.Generator, stacks: list[int], small_bet: int = 10, muck: float = 0.0):
    """One hand with random legal actions (no free folds); returns (PHH text, holes, board, actions, nets).

    Positions are PokerKit's player indices; actions are (position, 0 fold / 1 call / 2 raise). With
    ``muck`` > 0 each player at a river showdown mucks (a bare ``pK sm``) with that probability, else shows.
    """
    n = len(stacks)
    automations = AUTOMATIONS if not muck else tuple(a for a in AUTOMATIONS if a != SHOWING)
    game = FixedLimitTexasHoldem(
        automations, True, 0, (small_bet // 2, small_bet), small_bet, 2 * small_bet, mode=Mode.CASH_GAME
    )
    state = game(list(stacks), n)
    deck = rng.permutation(52).tolist()
    holes, board = deck[: 2 * n], deck[2 * n : 2 * n + 5]
    for p in range(n):
        state.deal_hole(format_cards(holes[2 * p : 2 * p + 2], sep=""))
    dealt = 0
    while state.status:
        if state.can_burn_card():
            state.burn_card("??")
            continue
        if state.can_show_or_muck_hole_cards():
            # PokerKit itself fails (an assertion) when players muck before an all-in run-out
            state.show_or_muck_hole_cards(bool(state.all_in_status or rng.random() >= muck))
            continue
        if state.can_deal_board():
            count = 3 if dealt == 0 else 1
            state.deal_board(format_cards(board[dealt : dealt + count], sep=""))
            dealt += count
            continue
        options = [state.check_or_call]
        if state.can_complete_bet_or_raise_to():
            options.append(state.complete_bet_or_raise_to)
        if state.checking_or_calling_amount:
            options.append(state.fold)
        options[rng.integers(len(options))]()
    actions = []
    for op in state.operations:
        if isinstance(op, Folding):
            actions.append((op.player_index, 0))
        elif isinstance(op, CheckingOrCalling):
            actions.append((op.player_index, 1))
        elif isinstance(op, CompletionBettingOrRaisingTo):
            actions.append((op.player_index, 2))
    dealt_board = [c for op in state.operations if isinstance(op, BoardDealing) for c in op.cards]
    nets = [int(after) - int(before) for after, before in zip(state.stacks, stacks, strict=True)]
    phh = HandHistory.from_game_state(game, state).dumps()
    return phh, holes, board[: len(dealt_board)], actions, nets
