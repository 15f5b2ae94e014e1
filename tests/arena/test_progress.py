"""Progress that moves: run_session reports at least every second, whatever the block size, and the CLI
draws the bar on stderr (with --json too) when asked."""

import time

from pokerlab.agents import Agent
from pokerlab.arena.players import AgentSpec
from pokerlab.arena.session import Progress, SessionJob, run_session
from pokerlab.engine import CALL, GameConfig
from pokerlab.interfaces.cli import main


class Slow(Agent):
    name = "slow"

    def act(self, view):
        time.sleep(0.002)
        return CALL


def test_progress_events_at_least_every_second():
    specs = (AgentSpec.of(Slow(), True), AgentSpec.of(Slow(), True))
    job = SessionJob(0, specs, ("a", "b"), GameConfig(), 1, None, 0, 150, block=10_000)
    stamps, start = [], time.monotonic()
    for event in run_session(job):
        stamps.append((time.monotonic(), type(event)))
    assert stamps[-1][0] - start > 1.0  # the run is long enough to tell
    times = [start] + [t for t, kind in stamps if kind is Progress] + [stamps[-1][0]]
    assert max(b - a for a, b in zip(times, times[1:], strict=False)) < 1.0
    assert sum(kind is Progress for _, kind in stamps) >= 2


def test_progress_on_stderr_with_json(capsys):
    args = ["match", "--agents", "call,raise", "--hands", "300", "--json", "--progress"]
    assert main(args) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("{") and "hand/s" in captured.err and "300/300" in captured.err
    assert main([*args[:-1], "--no-progress"]) == 0
    assert capsys.readouterr().err == ""
