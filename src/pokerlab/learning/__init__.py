"""Trainers: what changes a learning player over many hands (Barone & While's epochs of evolution)."""
