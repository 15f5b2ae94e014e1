"""The sandbox for programs we did not write (issue 24): what a sandboxed command can see and do."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from pokerlab.arena.sandbox import SandboxPolicy, missing_layers, sandbox_argv, start_sandboxed, stop
from pokerlab.errors import SandboxUnavailable

PYTHON = (sys.base_prefix, sys.prefix)
PRELUDE = "import os, socket, sys\ndef send(value):\n    out.sendall((repr(value) + '\\n').encode())\n"


def run_sandboxed(code: str, tmp_path, **policy):
    """The first thing a Python snippet in the sandbox sends (``send(value)``) over an inherited, connected
    socket; the sandbox is then stopped."""
    ours, theirs = socket.socketpair()
    readable = (*PYTHON, *policy.pop("readable", ()))
    process = start_sandboxed(
        [sys.executable, "-c", f"{PRELUDE}out = socket.socket(fileno={theirs.fileno()})\n{code}"],
        SandboxPolicy(readable=readable, **policy),
        keep_fds=(theirs.fileno(),),
        stdin=subprocess.DEVNULL,
    )
    theirs.close()
    ours.settimeout(20)
    try:
        return eval(ours.makefile().readline())
    finally:
        stop(process)


def test_every_layer_is_here():
    """CI installs bubblewrap (make test); a missing layer would turn every outside bot away."""
    assert missing_layers() == []


def test_the_sandbox_hides_the_host_and_the_parent(tmp_path):
    secret = tmp_path / "results"
    secret.mkdir()
    (secret / "config.json").write_text('{"seed": 1}')
    readme = str(Path.cwd() / "README.md")
    code = (
        "send((os.getpid(), sorted(p for p in os.listdir('/proc') if p.isdigit()),"
        f" os.path.exists({str(secret / 'config.json')!r}), os.path.exists({readme!r}),"
        " sorted(os.environ), os.getuid()))"
    )
    pid, pids, sees_secret, sees_work, env, uid = run_sandboxed(code, tmp_path)
    assert pid < 10 and all(int(p) < 10 for p in pids)  # its own PID namespace: no /proc/<parent>
    assert not sees_secret and not sees_work
    assert set(env) <= {"PATH", "HOME", "LANG", "PWD"}  # nothing of the parent's environment
    assert uid == 65534


def test_readable_paths_are_read_only_and_hidden_ones_empty(tmp_path):
    bot = tmp_path / "bot"
    (bot / "results").mkdir(parents=True)
    (bot / "bot.py").write_text("x = 1")
    (bot / "results" / "hands.sqlite").write_text("cards")
    code = (
        f"d = {str(bot)!r}\n"
        "try:\n    open(d + '/new', 'w'); wrote = True\nexcept OSError:\n    wrote = False\n"
        "open('/tmp/mine', 'w').write('ok')\n"
        "send((sorted(os.listdir(d)), os.listdir(d + '/results'), wrote))"
    )
    listing, results, wrote = run_sandboxed(
        code, tmp_path, readable=(str(bot),), hidden=(str(bot / "results"),)
    )
    assert listing == ["bot.py", "results"] and results == [] and not wrote


def test_no_network_and_a_memory_limit(tmp_path):
    code = (
        "try:\n    socket.create_connection(('1.1.1.1', 53), timeout=2); net = 'connected'\n"
        "except OSError as exc:\n    net = type(exc).__name__\n"
        "try:\n    b = bytearray(2 << 30); mem = 'allocated'\nexcept MemoryError:\n    mem = 'refused'\n"
        "send((net, mem))"
    )
    net, mem = run_sandboxed(code, tmp_path)
    assert net != "connected" and mem == "refused"


def test_a_forked_child_dies_with_the_sandbox(tmp_path):
    code = (
        "if os.fork() == 0:\n    import time; time.sleep(60); os._exit(0)\n"
        "send('forked')\n"
        "import time; time.sleep(60)"
    )
    marker = f"sleep-marker-{os.getpid()}"
    assert run_sandboxed(code.replace("time.sleep(60)", f"time.sleep(60) # {marker}"), tmp_path) == "forked"
    leftovers = [p for p in Path("/proc").iterdir() if p.name.isdigit() and marker in _cmdline(p)]
    assert leftovers == []


def _cmdline(p: Path) -> str:
    try:
        return p.joinpath("cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def test_a_missing_layer_refuses_when_required_and_warns_in_best_effort(monkeypatch, caplog):
    monkeypatch.setattr("pokerlab.arena.sandbox.missing_layers", lambda: ["namespaces need bubblewrap"])
    with pytest.raises(SandboxUnavailable, match="namespaces need bubblewrap"):
        sandbox_argv(["true"])
    assert sandbox_argv(["true"], SandboxPolicy(mode="best-effort"))[-1] == "true"
    assert "namespaces need bubblewrap" in caplog.text
