"""Studies of TD-Hold'em's trained players (they train nothing): a run's final table and summary, learning
curves against fixed opponents, snapshot ladders, checkpoint selection, an exploitability proxy, opponent
switches and the opponent-model study."""
