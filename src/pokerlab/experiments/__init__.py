"""Reproductions of the papers' experiments, one module each, callable from the CLI
(`pokerlab experiment`)."""

from pokerlab.experiments.barone_while import BW_EXPERIMENTS, BWResult, bw_1, bw_2, bw_3
from pokerlab.experiments.loki import EXPERIMENTS as LOKI1_EXPERIMENTS
from pokerlab.experiments.loki import PooledResult, loki_ablation, loki_vs_styles, run_pooled
from pokerlab.experiments.loki2 import loki2_experiment

#: Every experiment the CLI offers, by name.
EXPERIMENTS = {**LOKI1_EXPERIMENTS, "loki2": loki2_experiment, **BW_EXPERIMENTS}

__all__ = [
    "BW_EXPERIMENTS",
    "EXPERIMENTS",
    "BWResult",
    "PooledResult",
    "bw_1",
    "bw_2",
    "bw_3",
    "loki2_experiment",
    "loki_ablation",
    "loki_vs_styles",
    "run_pooled",
]
