"""Bots we did not write (issue 24): each hostile bot of hostile.py / patcher.py gains nothing, is a fault or
a refused start in one line, leaves the other seats' results as they were, and no process of it outlives
the match."""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pokerlab import play_match
from pokerlab.arena.players import AgentSpec, IsolatedPlayer
from pokerlab.arena.sandbox import PYTHON_PATHS, _descendants, alive
from pokerlab.arena.store import read_decisions
from pokerlab.errors import BotFault

HERE = Path(__file__).parent
HOSTILE = HERE / "hostile.py"
sys.path.insert(0, str(HERE))
import hostile  # noqa: E402 - the hostile bots' own constants (this file runs no bot in this process)

sys.path.remove(str(HERE))


def bot(name: str, file: Path = HOSTILE) -> str:
    return f"{file}:{name}"


def infos(out: Path, seat: int = 0) -> list[dict]:
    return [d["info"] for d in read_decisions(out / "hands.sqlite") if d["seat"] == seat and d["info"]]


@pytest.fixture(autouse=True)
def nothing_outlives_the_match():
    """After every test: no process this one started is left, and no escapee anywhere on the machine."""
    yield
    ends = time.monotonic() + 5
    while (left := [p for p in _descendants(os.getpid()) if ours(p)]) and time.monotonic() < ends:
        time.sleep(0.05)
    assert left == []
    escapees = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and entry.joinpath("comm").read_text().strip() == "pokerlab-escapee":
                escapees.append(entry.name)
        except OSError:
            pass
    assert escapees == []


def ours(pid: int) -> bool:
    """Whether `pid` runs and is not multiprocessing's resource tracker (which lives as long as pytest)."""
    try:
        return alive(pid) and b"resource_tracker" not in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def cli(*args: str, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pokerlab.interfaces.cli", "match", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_an_outside_bot_is_never_imported_in_the_arena(tmp_path):
    """patcher.py patches the arena's legality check when imported: the match is the same as with "call"
    there, in this process and through the CLI, and this process never loaded the file."""
    patched = play_match([bot("Patcher", HERE / "patcher.py"), "random", "call"], 60, seed=4)
    honest = play_match(["call", "random", "call"], 60, seed=4)
    assert (patched.nets == honest.nets).all()
    assert not any(
        getattr(m, "__file__", None) == str(HERE / "patcher.py") for m in list(sys.modules.values())
    )
    # through the CLI too (which once loaded the file to check the spec), and its exit is clean
    run = cli(
        "--agents", f"{bot('Patcher', HERE / 'patcher.py')},random,call", "--hands", "60", "--seed", "4"
    )
    assert run.returncode == 0, run.stderr
    assert f"{honest.results[0].total:>10}" in run.stdout


LISTER = """
import os
from pokerlab.actions import CALL
from pokerlab.agents import Agent, Decision

class Lister(Agent):
    def act(self, view):
        return Decision(CALL, None, {"tmp": sorted(os.listdir("/tmp"))})
"""


def test_a_bot_kept_in_the_hosts_tmp_plays_and_sees_none_of_it(tmp_path):
    """A bot file lying directly in the host's /tmp: its sandbox reads that file alone, never the host's
    /tmp (binding the folder showed it all, and broke the sandbox's private /tmp: the bot could not start)."""
    stamp = f"pokerlab-test-{os.getpid()}"
    bot_file, secret = Path(f"/tmp/{stamp}-bot.py"), Path(f"/tmp/{stamp}-secret")
    bot_file.write_text(LISTER)
    secret.write_text("the seed")
    try:
        result = play_match(
            [f"{bot_file}:Lister", "call"], 6, seed=1, out=tmp_path / "out", log_decisions=True
        )
    finally:
        bot_file.unlink()
        secret.unlink()
    seen = {name for info in infos(tmp_path / "out") for name in info["tmp"]}
    assert result.hands == 6 and result.faults == [0, 0]
    # what else may show: the folders of Python and pokerlab where they lie under /tmp (a CI clone)
    mounts = {Path(p).relative_to("/tmp").parts[0] for p in PYTHON_PATHS if Path(p).is_relative_to("/tmp")}
    assert secret.name not in seen and seen <= {bot_file.name, ".numba", *mounts}


def test_a_bad_spec_is_refused_in_one_line_by_the_bots_own_process(tmp_path):
    with pytest.raises(BotFault, match=r"could not start: .*no file") as missing:
        play_match([f"{tmp_path}/absent.py:Bot", "call"], 5, seed=1)
    with pytest.raises(BotFault, match=r"could not start: .*no config file here") as unbuildable:
        play_match([bot("Unbuildable"), "call"], 5, seed=1)
    with pytest.raises(BotFault, match=r"could not start: .*cannot import module 'no_such_module'"):
        play_match(["no_such_module:Bot", "call"], 5, seed=1)
    for stop in (missing, unbuildable):
        assert "\n" not in str(stop.value)
    run = cli("--agents", f"{tmp_path}/absent.py:Bot,call", "--hands", "5")
    assert (
        run.returncode == 1 and run.stderr.count("\n") == 1 and "could not start" in run.stderr
    )  # a failed match


def test_a_crafted_pickle_is_a_fault_and_runs_nothing(tmp_path):
    Path(hostile.PWNED).unlink(missing_ok=True)
    with pytest.raises(BotFault, match=r"^agent PickleSender failed: .*not JSON .*\(in its first hand"):
        play_match([bot("PickleSender"), "call"], 5, seed=1)
    assert not Path(hostile.PWNED).exists()


@pytest.mark.parametrize("name", sorted(hostile.RAW_ANSWERS) + sorted(hostile.WRONG_ANSWERS))
def test_a_wrong_shaped_answer_is_a_fault_never_a_crash(name):
    with pytest.raises(BotFault, match=rf"^agent {name} failed: .*\(in its first hand") as stop:
        play_match([bot(name), "call"], 3, seed=1)
    assert "\n" not in str(stop.value)


def test_wrong_shaped_answers_tolerated_leave_the_other_seats_as_they_were():
    """Checked or folded for at every decision: the other seats play as they would against a folder."""
    faulty = play_match([bot("RawFloatAction"), "random", "call"], 40, seed=2, tolerate_faults=True)
    folder = play_match([bot("NoneAnswer"), "random", "call"], 40, seed=2, tolerate_faults=True)
    assert faulty.hands == 40 and faulty.faults[0] > 0 and faulty.faults[1:] == [0, 0]
    assert (faulty.nets == folder.nets).all()
    assert faulty.to_json()["results"][0]["faulted"] and not faulty.to_json()["results"][1]["faulted"]


def test_no_secret_reaches_the_bot(tmp_path):
    """The snoop reads every visible process's command line and environment, its parent's memory and every
    file below its folder, where the results folder is: no seed, no secret, no results. In the arena's
    process (--no-isolate), the same snoop finds the seed on the command line: the test can fail."""
    shutil.copy(HOSTILE, tmp_path / "hostile.py")
    seed, secret = "9876543210123", "pokerlab-secret-in-the-environment"
    env = {**os.environ, "POKERLAB_TEST_SECRET": secret}
    snoop = f"{tmp_path / 'hostile.py'}:Snoop,call"
    common = ("--hands", "6", "--seed", seed, "--log-decisions")
    run = cli("--agents", snoop, *common, "--out", str(tmp_path / "results"), env=env)
    assert run.returncode == 0, run.stderr
    seen = infos(tmp_path / "results")
    assert seen and all(i["pids"] < 5 for i in seen)  # its own PID namespace
    text = "\n".join(i["text"] for i in seen)
    assert "hostile.py" in text  # it read its own folder ...
    assert seed not in text and secret not in text  # ... but no seed, no secret
    assert "hands.sqlite" not in text and "config.json" not in text  # and not the results folder
    run = cli("--agents", snoop, *common, "--out", str(tmp_path / "trusted"), "--no-isolate", env=env)
    text = "\n".join(i["text"] for i in infos(tmp_path / "trusted"))
    assert seed in text and secret in text


@pytest.mark.parametrize("name", ["ModuleMemory", "DiskMemory"])
def test_memory_outside_the_object_gains_nothing_across_duplicate_rotations(tmp_path, name):
    """Each seat rotation is a fresh process with a fresh /tmp: the bot never recognises a deal. In this
    process the module-level memory recognises hundreds (the test can fail)."""
    isolated = play_match(
        [bot(name), "call"], 150, seed=5, duplicate=True, out=tmp_path / "isolated", log_decisions=True
    )
    assert max(i["hits"] for i in infos(tmp_path / "isolated")) == 0
    assert isolated.faults == [0, 0]
    if name == "ModuleMemory":
        play_match(
            [bot(name), "call"],
            150,
            seed=5,
            duplicate=True,
            isolate=False,
            out=tmp_path / "trusted",
            log_decisions=True,
        )
        assert max(i["hits"] for i in infos(tmp_path / "trusted")) > 20


def test_a_bot_that_never_answers_stops_the_match_in_one_line(tmp_path):
    began = time.monotonic()
    with pytest.raises(BotFault, match=r"^agent Silent timed out \(no answer within 0.3 s\)"):
        play_match([bot("Silent"), "call"], 5, seed=1, action_timeout=0.3, out=tmp_path)
    assert time.monotonic() - began < 5  # the session's end does not wait for the stuck bot either
    assert "timed out" in (tmp_path / "faults.log").read_text()
    assert (tmp_path / "hands.csv").exists()  # what was written so far stays readable


def test_a_forked_child_does_not_outlive_the_session(tmp_path):
    """The forker leaves a renamed, detached grandchild at every decision; none is left (the fixture)."""
    result = play_match([bot("Forker"), "call"], 20, seed=1, duplicate=True)
    assert result.hands == 40 and result.faults == [0, 0]


def test_memory_is_limited(tmp_path):
    play_match([bot("Hungry"), "call"], 3, seed=1, out=tmp_path, log_decisions=True)
    assert {i["got"] for i in infos(tmp_path)} == {False}


def test_no_network(tmp_path):
    play_match([bot("Dialer"), "call"], 2, seed=1, out=tmp_path, log_decisions=True)
    assert {tuple(i["reached"]) for i in infos(tmp_path)} == {()}


def test_exceptions_in_an_isolated_bots_hooks_are_faults():
    with pytest.raises(BotFault, match=r"^agent BadHooks raised in end_hand: ValueError: end_hand broke"):
        play_match([bot("BadHooks"), "call"], 20, seed=1)
    result = play_match([bot("BadHooks"), "call"], 20, seed=1, tolerate_faults=True)
    assert result.faults == [20, 0]


def test_a_session_starts_in_under_a_second():
    """The sandbox boots once per seat; each session after that is a fork of its warm zygote."""
    player = IsolatedPlayer(AgentSpec(bot("DiskMemory")))
    try:
        player.new_session([1, 1, 0, 0])  # the sandbox's boot, and the first session
        starts = []
        for session in range(1, 4):
            began = time.perf_counter()
            player.new_session([1, 1, session, 0])
            starts.append(time.perf_counter() - began)
        assert max(starts) < 1.0, starts
    finally:
        player.close()


def test_every_result_table_marks_a_seat_that_faulted(tmp_path):
    run = cli(
        "--agents",
        f"{bot('RawFloatAction')},call",
        "--hands",
        "4",
        "--tolerate-faults",
        "--out",
        str(tmp_path),
    )
    assert run.returncode == 0, run.stderr
    faulty, honest = [line for line in run.stdout.splitlines() if "RawFloatAction" in line or "call" in line][
        :2
    ]
    assert faulty.split()[0] == "0!" and "FAULTS" in faulty and "FAULTS" not in honest
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [r["faulted"] for r in summary["results"]] == [True, False]


def test_a_fault_in_a_worker_process_stops_the_match_the_same_way(tmp_path):
    with pytest.raises(BotFault, match=r"^agent NoneAnswer failed: ValueError: act returned None"):
        play_match([bot("NoneAnswer"), "call"], 10, seed=1, sessions=2, workers=2, out=tmp_path)
    assert "Traceback" in (tmp_path / "faults.log").read_text()
