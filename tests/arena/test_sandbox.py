"""The sandbox for programs we did not write (issue 24): what a sandboxed command can see and do."""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from pokerlab.arena.relay import relay_argv
from pokerlab.arena.sandbox import (
    SandboxPolicy,
    missing_layers,
    sandbox_argv,
    start_sandboxed,
    stop,
)
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


def _behind_the_relay(code: str) -> tuple[socket.socket, subprocess.Popen]:
    """The server's end of a connection and the sandbox running the Python snippet `code` behind the relay
    (its host and port in ``sys.argv[1:]``)."""
    server, theirs = socket.socketpair()
    process = start_sandboxed(
        relay_argv([sys.executable, "-c", code], theirs.fileno()),
        SandboxPolicy(readable=PYTHON),
        keep_fds=(theirs.fileno(),),
        stdin=subprocess.DEVNULL,
    )
    theirs.close()
    server.settimeout(30)
    return server, process


def test_a_program_that_dials_its_server_reaches_it_through_the_relay_and_nothing_else():
    """As an ACPC client would: it connects to the HOST PORT appended to its command itself, and only the
    server's end answers: neither the network nor a port listening on the host's 127.0.0.1."""
    other = socket.create_server(("127.0.0.1", 0))
    other.settimeout(0.5)
    client = (
        "import socket, sys\n"
        "s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=10)\n"
        "def tried(address):\n"
        "    try:\n        socket.create_connection(address, timeout=2); return b'reached'\n"
        "    except OSError:\n        return b'no'\n"
        f"out = tried(('1.1.1.1', 53)) + b' net, ' + tried(('127.0.0.1', {other.getsockname()[1]}))\n"
        "s.sendall(sys.argv[1].encode() + b' ' + out + b' host\\n')\n"
        "s.makefile('rb').readline()\n"
    )
    server, process = _behind_the_relay(client)
    received = server.makefile("rb").readline()
    server.sendall(b"welcome\n")
    assert process.wait(timeout=30) == 0
    stop(process)
    assert received == b"127.0.0.1 no net, no host\n"
    with pytest.raises(TimeoutError):
        other.accept()
    other.close()


def test_the_relay_ends_with_a_program_that_exits_before_it_connects():
    server, process = _behind_the_relay("raise SystemExit(3)")
    assert process.wait(timeout=30) == 3
    stop(process)
    server.close()


def test_the_relay_ends_a_program_that_never_connects_when_its_server_closes():
    server, process = _behind_the_relay("import time; time.sleep(300)")
    server.close()
    assert process.wait(timeout=30) == 1
    stop(process)


def test_best_effort_without_bubblewrap_says_so_and_clears_only_its_own(tmp_path):
    """With no bwrap on the PATH: `required` refuses in one line; `best-effort` warns once, plays, and its
    zygote, outside any namespace, leaves the machine's /tmp alone."""
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "prlimit").symlink_to(shutil.which("prlimit"))
    env = {**os.environ, "PATH": str(tools)}
    marker = Path(tempfile.mkstemp(prefix="pokerlab-best-effort-")[1])
    bot = f"{Path(__file__).with_name('cheaters.py')}:Counter,call"
    match = [sys.executable, "-m", "pokerlab.interfaces.cli", "match", "--agents", bot, "--hands", "5"]
    refused = subprocess.run(match, capture_output=True, text=True, env=env, timeout=120)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "bubblewrap" in refused.stderr
    played = subprocess.run(
        [*match, "--sandbox", "best-effort", "--sessions", "2"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr
    assert played.stderr.count("sandbox layers missing") == 1 and "5 hands" in played.stdout
    assert marker.exists()
    marker.unlink()
