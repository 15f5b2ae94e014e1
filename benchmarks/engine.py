"""Hands per second of the fixed-limit engine with random legal actions: ours beside RLCard and PokerKit.

Each engine shuffles and deals a fresh deck inside the timed loop (every engine pays for its dealing, as
a user's loop does), plays every decision uniformly at random among its legal actions (the same pre-drawn
uniform numbers for every engine, so no engine pays for a random-number call) and settles the hand
(showdown included), on one core, at 10 players and heads-up. RLCard is timed at its game level (no
observation encoding) and through its environment (what RL users call); PokerKit with its automations for
dealing and settling.

The engines offer their legal actions in different orders and sets (PokerKit offers no fold when checking
is free), so the same uniform numbers do not make the same choices and hands differ in length: the table
gives decisions per second beside hands per second, and the ratio of each. Usage:
``python benchmarks/engine.py [--seconds S] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import time
import warnings

import numpy as np

from pokerlab.engine import GameConfig, HandState


def uniforms(hands: int, seed: int):
    """An iterator over enough pre-drawn uniform numbers in [0, 1) for `hands` hands."""
    return iter(np.random.default_rng(seed).random(hands * 100).tolist())


def ours(n: int, hands: int, seed: int = 0) -> tuple[float, float]:
    """(hands/s, decisions/s) of `HandState`, each hand's deck shuffled inside the clock."""
    rng = np.random.default_rng(seed)
    config = GameConfig()
    draws = uniforms(hands, seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(hands):
        deck = rng.permutation(52).tolist()
        state = HandState(config, deck[: 2 * n], deck[2 * n : 2 * n + 5], n=n)
        while state.actor >= 0:
            legal = state.legal_actions()
            state.act(legal[int(next(draws) * len(legal))])
            decisions += 1
        state.nets  # noqa: B018 - settle-and-read is part of the work
    took = time.perf_counter() - start
    return hands / took, decisions / took


def rlcard_game(n: int, hands: int, seed: int = 0) -> float:
    """(hands/s, decisions/s) of RLCard's LimitHoldemGame driven directly (it shuffles in init_game)."""
    from rlcard.games.limitholdem.game import LimitHoldemGame

    game = LimitHoldemGame(num_players=n)
    game.np_random = np.random.RandomState(seed)
    draws = uniforms(hands, seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(hands):
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[int(next(draws) * len(legal))])
            decisions += 1
        game.get_payoffs()
    took = time.perf_counter() - start
    return hands / took, decisions / took


def rlcard_env(n: int, hands: int, seed: int = 0) -> float:
    """(hands/s, decisions/s) of RLCard's 'limit-holdem' environment (steps return encoded observations)."""
    import rlcard

    env = rlcard.make("limit-holdem", config={"game_num_players": n, "seed": seed})
    draws = uniforms(hands, seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(hands):
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[int(next(draws) * len(legal))])
            decisions += 1
        env.get_payoffs()
    took = time.perf_counter() - start
    return hands / took, decisions / took


def pokerkit(n: int, hands: int, seed: int = 0) -> float:
    """(hands/s, decisions/s) of PokerKit's FixedLimitTexasHoldem (random dealing by its automations)."""
    from pokerkit import Automation, FixedLimitTexasHoldem, Mode

    game = FixedLimitTexasHoldem(tuple(Automation), True, 0, (5, 10), 10, 20, mode=Mode.CASH_GAME)
    draws = uniforms(hands, seed)
    decisions = 0
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(hands):
            state = game([10**6] * n, n)
            while state.status:
                options = [state.check_or_call]
                if state.can_complete_bet_or_raise_to():
                    options.append(state.complete_bet_or_raise_to)
                if state.can_fold():
                    options.append(state.fold)
                options[int(next(draws) * len(options))]()
                decisions += 1
    took = time.perf_counter() - start
    return hands / took, decisions / took


def measure(func, n: int, seconds: float) -> tuple[float, float]:
    """(hands/s, decisions/s) of func over about `seconds` (a short warm-up sizes the run)."""
    rate, _ = func(n, 50)
    return func(n, max(100, int(rate * seconds)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    peers = {"pokerlab": ours, "rlcard (game)": rlcard_game, "rlcard (env)": rlcard_env, "pokerkit": pokerkit}
    table = {}
    for n in (10, 2):
        table[n] = {name: measure(func, n, args.seconds) for name, func in peers.items()}
    if args.json:
        print(json.dumps({str(n): {k: {"hands_per_s": h, "decisions_per_s": d} for k, (h, d) in row.items()}
                          for n, row in table.items()}))  # fmt: skip
        return
    print("every engine shuffles and deals inside the clock; 'ours is' = our rate / the engine's rate")
    print(f"{'players':>7}  {'engine':<14}{'hands/s':>10}  {'ours is':>8}{'decisions/s':>13}  {'ours is':>8}")
    for n, row in table.items():
        ours_h, ours_d = row["pokerlab"]
        for name, (h, d) in row.items():
            print(f"{n:>7}  {name:<14}{h:>10,.0f}  {ours_h / h:>7.1f}x{d:>13,.0f}  {ours_d / d:>7.1f}x")


if __name__ == "__main__":
    main()
