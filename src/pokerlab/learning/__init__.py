"""Trainers: what changes a player's weights over many hands (TD(λ) self-play and schedules of opponents)."""
