"""Loki's hand assessment: hand strength, potential, effective hand strength and pre-flop income rates."""
