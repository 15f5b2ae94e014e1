"""Reproductions of the papers' experiments, one module each, callable from the CLI
(`pokerlab experiment`)."""

from pokerlab.experiments.loki import EXPERIMENTS as LOKI1_EXPERIMENTS
from pokerlab.experiments.loki import PooledResult, loki_ablation, loki_vs_styles, run_pooled
from pokerlab.experiments.loki2 import loki2_experiment

#: The experiments the CLI offers, by name.
EXPERIMENTS = {**LOKI1_EXPERIMENTS, "loki2": loki2_experiment}

__all__ = [
    "EXPERIMENTS",
    "PooledResult",
    "loki2_experiment",
    "loki_ablation",
    "loki_vs_styles",
    "run_pooled",
]
