"""A short run of benchmarks/web.py: bot tables and WebSocket clients on loopback, no hand lost, chips
conserved, latency bounded."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "web.py"


@pytest.mark.slow  # two server start-ups and 20 people signing up: about 13 s
def test_short_load_loses_no_hand_and_keeps_latency_bounded(tmp_path):
    """Our server for 2 s (about 50 to 90 hands a second on two shared cores: the bounds on hands and
    actions hold at a tenth of that pace), the peer's echo server for 1 s: it answers, that is all we check
    of it here (its figures are the benchmark's)."""
    spec = importlib.util.spec_from_file_location("web_benchmark", BENCHMARK)
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    ours = asyncio.run(benchmark.load_ours(tables=5, clients=20, seconds=2.0, seed=1, folder=tmp_path))
    peer = asyncio.run(benchmark.load_echo(clients=20, seconds=1.0, rate=ours["actions_per_s"], seed=1))
    assert ours["hands"] > 10 and ours["actions"] > 50
    assert ours["lost"] == 0 and ours["unseen"] == 0 and ours["unfinished"] <= 5
    assert ours["books_ok"] and ours["chips_conserved"]
    assert ours["p99_ms"] < 2000  # bounded: far under the 20 s a person is given
    assert peer["frames"] > 0
