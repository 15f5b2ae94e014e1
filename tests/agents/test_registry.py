"""The lazy registry: names map to entry strings, so loading the registry, the arena or the CLI's parser
imports no player; a player's module is imported when a player of that name is first made."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pokerlab.agents import make_agent, register
from pokerlab.agents.registry import _FACTORIES, agent_descriptions
from pokerlab.agents.stereotypes import MORE_STYLES, STYLES
from pokerlab.errors import ConfigError


def imported_after(code: str) -> list[str]:
    """The pokerlab.programs modules a fresh interpreter holds after running `code`."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(m for m in sys.modules if 'programs' in m)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def test_loading_the_arena_and_the_registry_imports_no_player():
    assert (
        imported_after(
            "import pokerlab, pokerlab.arena\nfrom pokerlab.agents import agent_names\nagent_names()"
        )
        == []
    )
    made = imported_after("from pokerlab.agents import make_agent\nmake_agent('loki2')")
    assert "pokerlab.programs.loki2.agent" in made and "pokerlab.programs.loki1.agent" in made  # its lineage
    assert not [m for m in made if ".td" in m or ".barone_while" in m]


def test_loading_the_cli_parser_imports_no_player():
    """The parser imports the command modules of the programs (and their empty package files), nothing of
    what they drive."""
    loaded = imported_after("from pokerlab.interfaces.cli import build_parser\nbuild_parser()")
    assert loaded == [
        "pokerlab.programs",
        "pokerlab.programs.barone_while",
        "pokerlab.programs.barone_while.commands",
        "pokerlab.programs.commands",
        "pokerlab.programs.td",
        "pokerlab.programs.td.commands",
    ]


def test_the_registry_names_every_variant_of_each_program():
    from pokerlab.programs.loki1 import VARIANTS as LOKI1
    from pokerlab.programs.loki2 import VARIANTS as LOKI2

    for program, variants in (("loki1", LOKI1), ("loki2", LOKI2)):
        named = {
            name
            for name, entry in _FACTORIES.items()
            if entry.target == f"pokerlab.programs.{program}:variant"
        }
        assert named == set(variants)
        for name in variants:
            agent = make_agent(name)
            assert (agent.loki2 if program == "loki2" else agent.config) == variants[name]
    assert {name for name, e in _FACTORIES.items() if str(e.target).endswith("StereotypeAgent")} == set(
        STYLES
    ) | set(MORE_STYLES)
    assert make_agent("bw-a").start == "player_a" and make_agent("bw-evolving").start == "random"


def test_an_entry_string_is_imported_only_when_asked_for(tmp_path, monkeypatch):
    (tmp_path / "lazy_bots.py").write_text(
        "from pokerlab.agents.simple import CallAgent\n\n\n"
        "class Patient(CallAgent):\n    '''Calls, after waiting.'''\n\n    def __init__(self, wait):\n"
        "        super().__init__()\n        self.wait = wait\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    register("patient", "lazy_bots:Patient", args=(3,))
    try:
        assert "lazy_bots" not in sys.modules
        agent = make_agent("patient")
        assert agent.wait == 3 and agent.name == "patient" and "lazy_bots" in sys.modules
        assert agent_descriptions()["patient"] == "Calls, after waiting."
    finally:
        _FACTORIES.pop("patient")
        sys.modules.pop("lazy_bots", None)


@pytest.mark.parametrize(
    "name, factory, message",
    [
        ("Upper", "a:B", "agent name 'Upper' must be lower-case"),
        ("fine", "no colon", "agent entry 'no colon' must read 'module:attribute'"),
    ],
)
def test_a_bad_registration_is_one_clear_line(name, factory, message):
    with pytest.raises(ConfigError, match=message):
        register(name, factory)
    assert name not in _FACTORIES
