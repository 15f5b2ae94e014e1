"""The backend file (`pokerlab.arena.backend.load_backend`, --backend-config, POKERLAB_BACKEND_CONFIG) and
its precedence (command line > file > RAY_ADDRESS), a bad file or an unreachable head node in one line,
and sessions that tell their hands as they go (the Ray side: tests/arena/test_backend_ray.py). Head nodes
here are listening sockets on loopback: reaching one is all `backend_of` asks of it."""

import argparse
import socket
from pathlib import Path

import pytest

from pokerlab.arena import session as session_module
from pokerlab.arena.backend import (
    CONFIG_VARIABLE,
    Backend,
    add_backend_options,
    backend_of,
    farm,
    load_backend,
    reach,
)
from pokerlab.arena.match import session_events
from pokerlab.arena.players import AgentSpec
from pokerlab.arena.session import Done, Progress, SessionJob
from pokerlab.engine import GameConfig
from pokerlab.errors import ConfigError
from pokerlab.interfaces.cli import main


@pytest.fixture(autouse=True)
def no_outside_settings(monkeypatch):
    monkeypatch.delenv(CONFIG_VARIABLE, raising=False)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)


@pytest.fixture
def head():
    """A loopback address something listens on, as a head node would."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        yield f"127.0.0.1:{server.getsockname()[1]}"


@pytest.fixture
def nobody():
    """A loopback address nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{s.getsockname()[1]}"  # closed again: connections are refused


def write(folder: Path, text: str, name: str = "backend.toml") -> Path:
    path = folder / name
    path.write_text(text)
    return path


def options(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=3)
    add_backend_options(parser)
    return parser.parse_args(argv)


def test_a_file_gives_every_setting_of_the_ray_backend(tmp_path):
    (tmp_path / "code").mkdir()
    path = write(
        tmp_path,
        'backend = "ray"\naddress = "ray://head.example:10001"\nnum_cpus = 0.5\n'
        '[runtime_env]\nworking_dir = "code"\npip = ["pokerlab[ray]", "numpy>=2"]\n',
    )
    backend = load_backend(path)
    assert backend == Backend(
        "ray",
        address="ray://head.example:10001",
        num_cpus=0.5,
        working_dir=str(tmp_path / "code"),  # relative to the file's folder
        pip=("pokerlab[ray]", "numpy>=2"),
    )
    assert backend.runtime_env == {
        "working_dir": str(tmp_path / "code"),
        "pip": ["pokerlab[ray]", "numpy>=2"],
    }
    assert load_backend(write(tmp_path, 'address = "auto"\n')) == Backend("ray", address="auto")
    assert Backend("ray").runtime_env is None


@pytest.mark.parametrize(
    "text, message",
    [
        ('adress = "auto"\n', "unknown key 'adress' (allowed: backend, address, num_cpus, runtime_env)"),
        ('[runtime_env]\nconda = "x"\n', "unknown [runtime_env] key 'conda' (allowed: working_dir, pip)"),
        ("num_cpus = 'two'\n", "num_cpus (CPUs a Ray task takes) must be a positive number, got 'two'"),
        ("num_cpus = 0\n", "must be a positive number, got 0"),
        ("num_cpus = true\n", "must be a positive number, got True"),
        ("num_cpus = nan\n", "must be a positive number, got nan"),
        ("address = 6379\n", "address must be a string, got 6379"),
        (
            'address = "http://head"\n',
            "a Ray address is auto, ray://HOST:PORT or HOST:PORT, got 'http://head'",
        ),
        ('backend = "dask"\n', "backend must be one of local, ray, got 'dask'"),
        ('backend = "local"\nnum_cpus = 2\n', "num_cpus, working_dir and pip are settings of Ray tasks"),
        ('runtime_env = "x"\n', "runtime_env must be a table, got 'x'"),
        ('[runtime_env]\npip = "pokerlab"\n', "pip must be a list of requirements, got 'pokerlab'"),
        ("[runtime_env]\npip = [1]\n", "pip must be a list of requirements (strings), got (1,)"),
        ('[runtime_env]\nworking_dir = "missing"\n', "missing is not a folder"),
        ("backend = ray\n", "not TOML (Invalid value"),
    ],
)
def test_a_bad_file_says_in_one_line_what_was_wrong_and_what_is_allowed(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as error:
        load_backend(path)
    assert str(error.value).startswith(f"backend config {path}: ") and message in str(error.value)
    assert "\n" not in str(error.value)


def test_a_file_that_is_not_there(tmp_path):
    with pytest.raises(ConfigError, match=r"backend config .*nowhere.toml: cannot be read \(No such file"):
        load_backend(tmp_path / "nowhere.toml")


def test_the_command_line_overrides_the_file_which_overrides_ray_address(tmp_path, monkeypatch, head, nobody):
    pytest.importorskip("ray")
    monkeypatch.setenv("RAY_ADDRESS", nobody)  # never asked while the file or the command line says
    path = str(write(tmp_path, f'address = "{head}"\nnum_cpus = 2\n'))
    assert backend_of(options("--backend-config", path)) == Backend("ray", address=head, num_cpus=2)
    other = write(tmp_path, 'address = "10.0.0.5:6379"\n', "other.toml")
    got = backend_of(options("--backend-config", str(other), "--address", head))
    assert got == Backend("ray", address=head)
    assert backend_of(options("--backend-config", path, "--backend", "local")) == 3  # --workers
    monkeypatch.setenv(CONFIG_VARIABLE, path)  # the default file, under --backend-config
    assert backend_of(options()) == Backend("ray", address=head, num_cpus=2)
    assert backend_of(
        options("--backend-config", str(write(tmp_path, "num_cpus = 4\n", "bare.toml")), "--address", head)
    ) == Backend("ray", address=head, num_cpus=4)
    monkeypatch.delenv(CONFIG_VARIABLE)
    assert backend_of(options()) == 3  # no file, no --backend: local


def test_without_an_address_ray_address_is_checked(tmp_path, monkeypatch, head, nobody):
    pytest.importorskip("ray")
    bare = str(write(tmp_path, "num_cpus = 1\n"))
    monkeypatch.setenv("RAY_ADDRESS", head)
    assert backend_of(options("--backend-config", bare)) == Backend("ray")  # connects to RAY_ADDRESS
    monkeypatch.setenv("RAY_ADDRESS", nobody)
    with pytest.raises(ConfigError, match=f"cannot reach a Ray cluster at {nobody}"):
        backend_of(options("--backend-config", bare))


def test_an_unreachable_head_node_is_one_line_at_the_command_line(tmp_path, capsys, nobody):
    pytest.importorskip("ray")
    path = write(tmp_path, f'address = "ray://{nobody}"\n')
    out = tmp_path / "run"
    args = [
        "match",
        "--agents",
        "call,raise",
        "--hands",
        "4",
        "--out",
        str(out),
        "--backend-config",
        str(path),
    ]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"cannot reach a Ray cluster at ray://{nobody}" in err
    assert "ray start --head" in err and not out.exists()  # stopped before anything was written
    assert main([*args[:-2], "--backend-config", str(tmp_path / "none.toml")]) == 2
    assert "none.toml: cannot be read" in capsys.readouterr().err


def test_reach_asks_only_addresses_that_name_a_host(head, nobody):
    for address in (None, "auto", head, f"ray://{head}"):
        reach(address)
    with pytest.raises(ConfigError, match="Connection refused"):
        reach(f"ray://{nobody}")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(kind="ray", pip=["x"]), r"pip must be a list of requirements \(strings\), got \['x'\]"),
        (dict(kind="ray", working_dir=3), "working_dir must be a folder's path, got 3"),
        (dict(workers=2, pip=("x",)), "num_cpus, working_dir and pip are settings of Ray tasks"),
    ],
)
def test_bad_ray_settings_in_python(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        Backend(**kwargs)


def test_updates_are_a_ray_affair_elsewhere_tell_does_nothing():
    told = list(farm(pow, [(2, 3), (3, 2)], 1, updates=False))
    assert told == [(0, 8), (1, 9)]
    assert list(farm(_power_telling, [(2, 3), (3, 2)], 1, updates=True)) == told  # results only


def _power_telling(base: int, exponent: int, tell) -> int:
    tell(base)
    return base**exponent


def test_a_session_tells_its_hands_as_it_goes_and_its_events_do_not_change(monkeypatch):
    monkeypatch.setattr(session_module, "PROGRESS_EVERY", -1.0)  # a Progress after every hand
    specs = [AgentSpec.of(name, True) for name in ("tight-aggressive", "loose-passive", "call")]
    job = SessionJob(0, tuple(specs), ("a", "b", "c"), GameConfig(), 7, None, 0, 40, block=16, records=True)
    told = []
    events = session_events(job, told.append)
    assert told == list(range(1, 41))  # hands played so far, one by one
    assert events == session_events(job)  # what the match keeps: the same, told or not
    assert not any(type(e) is Progress for e in events) and type(events[-1]) is Done


def test_farming_out_to_an_unreachable_cluster_stops_before_ray_starts(nobody):
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("this process is connected to a Ray already: that one would serve")
    with pytest.raises(ConfigError, match=f"cannot reach a Ray cluster at ray://{nobody}"):
        list(farm(pow, [(2, 3), (3, 2)], Backend("ray", address=f"ray://{nobody}")))
    assert not ray.is_initialized()
