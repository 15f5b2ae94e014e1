"""Reproductions of the papers' experiments, one module each, callable from the CLI
(`pokerlab experiment`)."""

from pokerlab.experiments.loki import EXPERIMENTS, PooledResult, loki_ablation, loki_vs_styles, run_pooled

__all__ = ["EXPERIMENTS", "PooledResult", "loki_ablation", "loki_vs_styles", "run_pooled"]
