"""Hands per second of the fixed-limit engine with random legal actions: ours beside RLCard and PokerKit.

Each engine deals a fresh shuffled deck, plays every decision uniformly at random among its legal actions
(the same pre-drawn uniform numbers for every engine, so no engine pays for a random-number call) and
settles the hand (showdown included), on one core, at 10 players and heads-up. RLCard is timed at its
game level (no observation encoding) and through its environment (what RL users call); PokerKit with its
automations for dealing and settling. Usage: ``python benchmarks/engine.py [--seconds S] [--json]``.
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


def ours(n: int, hands: int, seed: int = 0) -> float:
    """Hands/s of `HandState` (decks and random numbers drawn in batches, as a simulation would)."""
    rng = np.random.default_rng(seed)
    config = GameConfig()
    decks = np.argsort(rng.random((hands, 52)), axis=1)[:, : 2 * n + 5]  # an array: no garbage to collect
    draws = uniforms(hands, seed)
    start = time.perf_counter()
    for row in decks:
        deck = row.tolist()
        state = HandState(config, deck[: 2 * n], deck[2 * n :], n=n)
        while state.actor >= 0:
            legal = state.legal_actions()
            state.act(legal[int(next(draws) * len(legal))])
        state.nets  # noqa: B018 - settle-and-read is part of the work
    return hands / (time.perf_counter() - start)


def rlcard_game(n: int, hands: int, seed: int = 0) -> float:
    """Hands/s of RLCard's LimitHoldemGame driven directly."""
    from rlcard.games.limitholdem.game import LimitHoldemGame

    game = LimitHoldemGame(num_players=n)
    game.np_random = np.random.RandomState(seed)
    draws = uniforms(hands, seed)
    start = time.perf_counter()
    for _ in range(hands):
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[int(next(draws) * len(legal))])
        game.get_payoffs()
    return hands / (time.perf_counter() - start)


def rlcard_env(n: int, hands: int, seed: int = 0) -> float:
    """Hands/s of RLCard's 'limit-holdem' environment (steps return encoded observations)."""
    import rlcard

    env = rlcard.make("limit-holdem", config={"game_num_players": n, "seed": seed})
    draws = uniforms(hands, seed)
    start = time.perf_counter()
    for _ in range(hands):
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[int(next(draws) * len(legal))])
        env.get_payoffs()
    return hands / (time.perf_counter() - start)


def pokerkit(n: int, hands: int, seed: int = 0) -> float:
    """Hands/s of PokerKit's FixedLimitTexasHoldem (random dealing by its automations)."""
    from pokerkit import Automation, FixedLimitTexasHoldem, Mode

    game = FixedLimitTexasHoldem(tuple(Automation), True, 0, (5, 10), 10, 20, mode=Mode.CASH_GAME)
    draws = uniforms(hands, seed)
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
    return hands / (time.perf_counter() - start)


def measure(func, n: int, seconds: float) -> float:
    """Rate of func over about `seconds` (a short warm-up sizes the run)."""
    rate = func(n, 50)
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
        print(json.dumps({str(n): row for n, row in table.items()}))
        return
    print(f"{'players':>7}  {'engine':<14}{'hands/s':>10}  {'ours is':>8}")
    for n, row in table.items():
        for name, rate in row.items():
            print(f"{n:>7}  {name:<14}{rate:>10,.0f}  {row['pokerlab'] / rate:>7.1f}x")


if __name__ == "__main__":
    main()
