"""The Ray backend on a real cluster of two nodes on loopback (a head and a worker node, each `ray start`ed
as its own processes with one CPU): a duplicate match and a short TD curve sweep played across them write
the same results folder as the local backend, a run killed under Ray resumes to it, and a worker node
killed in the middle of a session has that session played again and counted once, while the progress bar
moves within sessions. Marked `ray` (about 50 s, up to 4 GB resident): skipped where Ray is not installed
(``pip install 'pokerlab[ray]'``)."""

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from tqdm import tqdm

ray = pytest.importorskip("ray")

from test_resume import Killed  # noqa: E402 - tests/arena's own: a match's process killed mid-run
from test_resume import _kill_after as kill_after  # noqa: E402

from pokerlab.arena import match as match_module  # noqa: E402
from pokerlab.arena.backend import Backend  # noqa: E402
from pokerlab.arena.match import duplicate_tournament, play_match  # noqa: E402
from pokerlab.programs.td.config import PRESETS  # noqa: E402
from pokerlab.programs.td.studies.curve import curves  # noqa: E402
from pokerlab.programs.td.training import Schedule, train  # noqa: E402

pytestmark = pytest.mark.ray

RAY = str(Path(sys.executable).with_name("ray"))
LINEUP = ["loki1", "tight-aggressive", "loose-passive", "call"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_node(args: list[str], env: dict, log: Path) -> subprocess.Popen:
    """A Ray node as its own process group (`ray start --block` and what it starts), so that it can be
    killed whole."""
    with open(log, "w") as out:
        return subprocess.Popen(
            [RAY, "start", "--block", "--node-ip-address", "127.0.0.1", "--num-cpus", "1", *args],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def alive_nodes() -> list[dict]:
    return [n for n in ray.nodes() if n["Alive"]]


@pytest.fixture(scope="module")
def cluster():
    """(head address, worker node process): two nodes of one CPU each on loopback (no token: nothing
    outside this machine reaches them), this process their driver."""
    temp = tempfile.mkdtemp(prefix="ray")  # short: Ray's socket paths must fit 107 bytes
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
    port = free_port()
    memory = ["--object-store-memory", str(80 * 2**20)]
    logs = Path(temp)
    head = start_node(
        ["--head", "--port", str(port), "--temp-dir", temp, "--include-dashboard=false", *memory],
        env,
        logs / "head.log",
    )
    worker = start_node(["--address", f"127.0.0.1:{port}", *memory], env, logs / "worker.log")
    try:
        ray.init(address=f"127.0.0.1:{port}", log_to_driver=False)
        deadline = time.monotonic() + 120
        while len(alive_nodes()) < 2:
            assert worker.poll() is None and time.monotonic() < deadline, (logs / "worker.log").read_text()
            time.sleep(0.2)
        yield f"127.0.0.1:{port}", worker
    finally:
        ray.shutdown()
        for node in (worker, head):
            if node.poll() is None:
                node.terminate()  # `ray start --block` stops what it started
                node.wait(60)
        shutil.rmtree(temp, ignore_errors=True)


def busy(node: str) -> bool:
    """Whether the node's CPU runs a task (Ray leaves out a resource none of which is free)."""
    free = ray._private.state.available_resources_per_node()
    return node in free and free[node].get("CPU", 0) == 0


def same_folders(a: Path, b: Path) -> None:
    """Every file of two results folders byte for byte, but the hand store, compared row for row (SQLite
    lays out its pages in the order the blocks came)."""
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    for name in names:
        if name.endswith(".sqlite"):
            with sqlite3.connect(a / name) as x, sqlite3.connect(b / name) as y:
                assert list(x.iterdump()) == list(y.iterdump())
        else:
            assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_a_duplicate_match_across_two_nodes_writes_what_the_local_backend_writes(cluster, tmp_path):
    address, _ = cluster
    local = duplicate_tournament(LINEUP, 60, seed=4, out=tmp_path / "local", workers=2)
    spread = duplicate_tournament(
        LINEUP, 60, seed=4, out=tmp_path / "ray", workers=Backend("ray", address=address)
    )
    assert (spread.nets == local.nets).all() and spread.hands == 4 * 60
    same_folders(tmp_path / "local", tmp_path / "ray")


def test_a_td_curve_sweep_across_two_nodes_writes_what_the_local_backend_writes(cluster, tmp_path):
    address, _ = cluster
    schedule = Schedule(opponents=("call", "random"), opponent_id_input=True, eval_deals=2, save_at=(10,))
    runs = [tmp_path / "run1", tmp_path / "run2"]
    for seed, run in enumerate(runs, 1):
        train(PRESETS["repaired"], schedule, 20, seed, run)
    rows = curves(runs, ["call", "raise"], 5, 3, tmp_path / "local", reference="call")
    spread = curves(
        runs, ["call", "raise"], 5, 3, tmp_path / "ray", Backend("ray", address=address), reference="call"
    )
    assert spread == rows and len(rows) == 2 * 2 * 2  # two runs, players at 10 and 20 hands, two opponents
    same_folders(tmp_path / "local", tmp_path / "ray")


def test_a_run_killed_under_ray_resumes_under_ray_to_the_local_backends_files(cluster, tmp_path, monkeypatch):
    address, _ = cluster
    options = dict(seed=5, block=40, sessions=4)
    play_match(["random", "call", "raise"], 300, out=tmp_path / "whole", **options)
    spread = Backend("ray", address=address)
    with monkeypatch.context() as m:
        kill_after(m, 4)  # the match's process dies after writing four blocks
        with pytest.raises(Killed):
            play_match(["random", "call", "raise"], 300, out=tmp_path / "killed", workers=spread, **options)
    assert not (tmp_path / "killed" / "summary.json").exists()
    play_match(
        ["random", "call", "raise"], 300, out=tmp_path / "killed", workers=spread, resume=True, **options
    )
    same_folders(tmp_path / "whole", tmp_path / "killed")


class Bar(tqdm):
    """The progress bar, remembering the hands it showed after each move."""

    shown: list[int] = []

    def update(self, n=1):
        moved = super().update(n)
        self.shown.append(self.n)
        return moved


def test_a_worker_node_killed_mid_session_has_its_session_played_again_and_counted_once(
    cluster, tmp_path, monkeypatch
):
    address, worker = cluster
    deals = 1500  # sessions of a few seconds each: the kill comes while the worker node plays one
    local = duplicate_tournament(LINEUP, deals, seed=9, out=tmp_path / "local")
    monkeypatch.setattr(match_module, "tqdm", Bar)
    monkeypatch.setattr(Bar, "shown", [])
    node = next(n["NodeID"] for n in alive_nodes() if "node:__internal_head__" not in n["Resources"])
    start = time.monotonic()
    played = {}

    def play():
        played["result"] = duplicate_tournament(
            LINEUP,
            deals,
            seed=9,
            out=tmp_path / "ray",
            workers=Backend("ray", address=address),
            progress=True,  # the sessions tell their hands as they go, through a node's death
        )

    thread = threading.Thread(target=play)
    thread.start()
    while not busy(node):
        assert thread.is_alive() and time.monotonic() - start < 60, "the worker node never took a session"
        time.sleep(0.05)
    time.sleep(0.5)
    assert busy(node), "the worker node's session ended before the kill: make the sessions longer"
    os.killpg(worker.pid, signal.SIGKILL)  # the node and every process it started, mid-session
    assert thread.is_alive(), "the match ended before the node died"
    thread.join(300)
    assert worker.wait(10) == -signal.SIGKILL  # the node stayed dead
    result = played["result"]
    assert (result.nets == local.nets).all() and result.hands == 4 * deals
    same_folders(tmp_path / "local", tmp_path / "ray")  # progress on Ray changes no byte
    assert Bar.shown[-1] == 4 * deals  # the bar reached the total
    assert any(hands % deals for hands in Bar.shown)  # and moved within sessions, not only as they ended
