"""``pokerlab experiment``'s table: every name runs its program's function, and the readings it offers are
Loki-1's."""

from pokerlab.programs.commands import EVOLVING, EXPERIMENTS, READABLE, READINGS, experiment
from pokerlab.programs.loki1 import FIG1_READINGS


def test_every_experiment_resolves_to_its_programs_function():
    for name in EXPERIMENTS:
        function = experiment(name)
        assert callable(function) and function.__module__.startswith("pokerlab.programs.")
    assert {experiment(name).__module__ for name in EVOLVING} == {
        "pokerlab.programs.barone_while.experiments"
    }
    assert {experiment(name).__module__ for name in READABLE} == {"pokerlab.programs.loki1.experiments"}


def test_the_readings_offered_are_loki1s():
    assert READINGS == tuple(FIG1_READINGS)
