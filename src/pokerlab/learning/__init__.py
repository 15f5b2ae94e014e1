"""Trainers: what changes a learning player over many hands (Barone & While's epochs of evolution,
TD(λ) self-play and its schedules of opponents)."""
