"""Write your own bot: a complete player in one file, then a match against the built-in agents.

Run it with ``python examples/my_bot.py``, or play it from the command line without registering it:
``pokerlab match --agents examples/my_bot.py:PairsAndPotOdds,call,random --hands 400`` (a bot from a file
runs isolated in its own process). An agent subclasses `pokerlab.Agent` and answers `act(view)` with 0
(fold), 1 (check or call) or 2 (bet or raise), one of ``view.legal_actions``, or a `pokerlab.agents.Decision`
that also carries its probabilities and info for the decision log. The view holds only what its seat may
know: its own hole cards, the board, every action record, the pot, what it must call and the legal
actions. An agent that learns overrides the hooks it needs: ``begin_hand``, ``observe`` (every action as it
happens), ``end_hand`` (nets and shown cards), and ``forget`` / ``learned_state`` for what it keeps.
"""

from __future__ import annotations

import pokerlab
from pokerlab.engine import CALL, FOLD, RAISE


class PairsAndPotOdds(pokerlab.Agent):
    """Raises pairs and strong hands, calls when the pot odds beat its hand strength, folds the rest."""

    name = "pairs-and-pot-odds"

    def act(self, view) -> int:
        legal = view.legal_actions
        if not view.board:  # pre-flop: income rate of the hole cards at this table size
            strong = pokerlab.income_rate(view.hole, players=view.players) > 300
            if strong and RAISE in legal:
                return RAISE
            return CALL if strong or view.to_call <= view.config.small_bet // 2 else FOLD
        strength = pokerlab.hand_strength(view.hole, view.board, opponents=view.players - 1).hs_n
        if strength > 0.8 and RAISE in legal:
            return RAISE
        if view.to_call == 0 or strength > pokerlab.pot_odds(to_call=view.to_call, pot=view.pot):
            return CALL
        return FOLD


def main(hands: int = 400, seed: int = 1) -> pokerlab.arena.MatchResult:
    """Register the bot and play it against a calling station and a random player; print the results."""
    pokerlab.register("pairs-and-pot-odds", PairsAndPotOdds)
    result = pokerlab.play_match(["pairs-and-pot-odds", "call", "random"], hands=hands, seed=seed)
    for r in result.results:
        print(f"{r.agent:<20} {r.sb_per_hand:+.3f} sb/hand  95% CI [{r.ci95[0]:+.3f}, {r.ci95[1]:+.3f}]")
    return result


if __name__ == "__main__":
    main()
