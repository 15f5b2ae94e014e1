"""Evaluation: how good a player is beyond head-to-head results: variance-reduced estimates of what it wins
(control variates, luck adjustment), the exact best response to strategies that ignore their cards
(`best_response`) and local best response, a lower bound for bots that answer the all-holdings policy
query (`lbr`). It reads results folders and sees every card; it sits above the arena and below the
interfaces (never imports them)."""
