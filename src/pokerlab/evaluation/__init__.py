"""Evaluation: how good a strategy is beyond head-to-head results; today the exact best response to strategies
that ignore their cards (`best_response`). It sits above the arena and below the interfaces (never imports
them)."""
