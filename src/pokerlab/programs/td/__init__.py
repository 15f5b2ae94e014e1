"""TD-Hold'em (2005; docs/learning-spec-td.md): a heads-up player whose every decision comes from one small
network trained by TD(λ): the configuration and presets, the input encoding, the network and its update,
and the agent."""
