"""A short run of benchmarks/web.py: bot tables and WebSocket clients on loopback, no hand lost, chips
conserved, latency bounded."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "web.py"


@pytest.mark.slow  # two server start-ups and 20 people signing up: about 25 s
def test_short_load_loses_no_hand_and_keeps_latency_bounded():
    spec = importlib.util.spec_from_file_location("web_benchmark", BENCHMARK)
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    result = benchmark.measure(tables=5, clients=20, seconds=5.0, seed=1)
    ours = result["ours"]
    assert ours["hands"] > 10 and ours["actions"] > 50
    assert ours["lost"] == 0 and ours["unseen"] == 0 and ours["unfinished"] <= 5
    assert ours["books_ok"] and ours["chips_conserved"]
    assert ours["p99_ms"] < 2000  # bounded: far under the 20 s a person is given
    assert result["peer"]["frames"] > 0
