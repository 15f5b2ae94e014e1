"""TD-Hold'em (seed 003; LEARNING-SPEC Part A): a heads-up player whose every decision comes from one small
network trained by TD(λ): the configuration and presets, the input encoding, the network and its update,
and the agent."""
