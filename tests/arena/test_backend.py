"""The backend that farms out independent work (`pokerlab.arena.backend`): every task's result once, with
its index, in this process or in worker processes; bad backends and a missing Ray say so in one line. The
Ray backend on a real cluster: tests/arena/test_backend_ray.py."""

import math
import os
import sys

import pytest

from pokerlab.arena.backend import Backend, as_backend, farm, parallel
from pokerlab.errors import ConfigError
from pokerlab.interfaces.cli import main

TASKS = [(n, k) for n in range(3, 9) for k in (0, 2, n)]


@pytest.mark.parametrize("workers", [1, 2, Backend("local", 3)])
def test_farm_gives_every_result_once_with_its_index(workers):
    got = list(farm(math.comb, TASKS, workers))
    assert sorted(i for i, _ in got) == list(range(len(TASKS)))
    assert all(
        value == math.factorial(n) // (math.factorial(k) * math.factorial(n - k))
        for (i, value) in got
        for n, k in [TASKS[i]]
    )


def test_local_workers_are_other_processes_and_one_worker_is_this_one():
    assert {pid for _, pid in farm(os.getpid, [()] * 3, 1)} == {os.getpid()}
    others = {pid for _, pid in farm(os.getpid, [()] * 4, 2)}
    assert os.getpid() not in others and 1 <= len(others) <= 2


def test_an_error_in_a_task_is_raised_where_the_work_was_farmed_out():
    with pytest.raises(ValueError, match="non-negative"):
        list(farm(math.comb, [(4, 2), (3, -1), (5, 1)], 2))


def test_which_backends_run_away_from_this_process():
    assert not parallel(1, 10) and not parallel(4, 1) and parallel(2, 2)
    assert parallel(Backend("ray"), 2) and not parallel(Backend("ray"), 1)
    assert as_backend(3) == Backend("local", 3) and as_backend(Backend("ray")) == Backend("ray")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(kind="dask"), "backend must be one of local, ray, got 'dask'"),
        (dict(workers=0), "workers must be a positive integer, got 0"),
        (dict(workers=True), "workers must be a positive integer, got True"),
        (dict(address="auto"), "an address names a Ray cluster"),
        (dict(kind="ray", address="http://head"), "a Ray address is auto, ray://HOST:PORT or HOST:PORT"),
    ],
)
def test_a_bad_backend_says_what_was_wrong_and_what_is_allowed(kwargs, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        Backend(**kwargs)


@pytest.mark.parametrize("address", ["auto", "ray://head.example:10001", "10.0.0.5:6379"])
def test_the_addresses_ray_takes(address):
    assert Backend("ray", address=address).address == address


def test_without_ray_the_ray_backend_is_one_clear_line(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # as where it is not installed: import ray fails
    args = ["match", "--agents", "call,raise", "--hands", "4", "--backend", "ray"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "pip install 'pokerlab[ray]'" in err
    with pytest.raises(ConfigError, match="needs Ray"):
        list(farm(math.comb, TASKS, Backend("ray")))


@pytest.mark.parametrize(
    "command", [["match", "--agents", "call,raise", "--hands", "4"], ["exploit", "call", "--hands", "4"]]
)
def test_an_address_without_the_ray_backend_is_refused(command, capsys):
    assert main([*command, "--address", "auto"]) == 2
    assert "--address names a Ray cluster: add --backend ray" in capsys.readouterr().err
