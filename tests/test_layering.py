"""The import graph of pokerlab: every import goes down a floor, no module is part of an import circle
(inside a package too), and the programs import each other only along their lineage (docs/architecture.md,
"The floors").

Every module under src/pokerlab is parsed with `ast` (nothing is imported), and every pokerlab-internal import
is collected, those inside functions and `if` blocks included. Each module stands on a floor (`FLOORS`); it
may import its own part and the floors below, never a floor above nor another part of its own floor. A
program's player modules stand just above the agents; its training, experiments, studies and commands
(`PROGRAM_UPPER`) above the arena. A failure names the offending import as file:line.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
PACKAGE = "pokerlab"

#: The floors, lowest first; the parts of one floor are siblings (neither imports the other). "programs"
#: stands for a program's player modules, "programs+" for its training, experiments, studies and commands.
FLOORS: tuple[tuple[str, ...], ...] = (
    ("errors", "actions", "commandline"),
    ("checks",),
    ("cards",),
    ("handclass",),
    ("evaluator_tables",),
    ("evaluator",),
    ("holdings",),
    ("engine", "analysis"),  # the rules; hand assessment knows nothing of the betting
    ("modeling",),
    ("agents",),
    ("programs",),
    ("arena",),
    ("programs+",),
    ("evaluation", "envs"),  # envs: Gymnasium and PettingZoo over the arena's table
    ("interfaces",),
    (PACKAGE, "__main__"),  # the root package: the everyday names, for users only
)
FLOOR = {part: level for level, parts in enumerate(FLOORS) for part in parts}

#: The modules and packages of a program that stand above the arena (the rest is the player).
PROGRAM_UPPER = frozenset(
    {"commands", "experiments", "training", "studies", "epochs", "plots", "ceiling", "bw1_repairs"}
    | {"fig1_fidelity", "calibrate", "generations"}
)

#: program -> the programs it may import (Loki-2 is built on Loki-1's floors; nothing else crosses).
LINEAGE: dict[str, frozenset[str]] = {"loki2": frozenset({"loki1"})}


def part_of(module: str) -> str:
    """The part of a dotted module: "pokerlab.analysis.strength" -> "analysis", "pokerlab" -> itself, a
    program's module -> "programs.NAME" (its player) or "programs+.NAME" (its training and experiments),
    and what the programs share above the arena -> "programs+"."""
    pieces = module.split(".")
    if len(pieces) == 1:
        return pieces[0]
    if pieces[1] != "programs" or len(pieces) == 2:
        return pieces[1]
    if pieces[2] in PROGRAM_UPPER:  # shared by the programs, e.g. pokerlab.programs.commands
        return "programs+"
    upper = len(pieces) > 3 and pieces[3] in PROGRAM_UPPER
    return f"programs{'+' if upper else ''}.{pieces[2]}"


def floor_of(part: str) -> int:
    """The floor of a part; `KeyError` for a part no floor names (the test below lists them)."""
    return FLOOR[part.split(".")[0]]


def program_of(part: str) -> str | None:
    """The program a part belongs to ("programs+.td" -> "td"), None outside the programs."""
    head, _, name = part.partition(".")
    return name if head in ("programs", "programs+") and name else None


@dataclass(frozen=True)
class Import:
    """One pokerlab-internal import: module `origin` imports module `module` at file:line."""

    origin: str  # the importing module, e.g. "pokerlab.analysis.strength"
    module: str  # the dotted module imported, e.g. "pokerlab.holdings"
    file: str
    line: int

    @property
    def source(self) -> str:
        return part_of(self.origin)

    @property
    def target(self) -> str:
        return part_of(self.module)

    def where(self) -> str:
        return f"{self.file}:{self.line}: {self.origin} imports {self.module}"


def module_name(path: Path, root: Path) -> str:
    """Dotted name of the module in `path` under the source root `root` (an `__init__` is its package)."""
    pieces = list(path.relative_to(root).with_suffix("").parts)
    if pieces[-1] == "__init__":
        pieces.pop()
    return ".".join(pieces)


def is_module(dotted: str, root: Path) -> bool:
    """Whether `dotted` names a module or package file under `root`."""
    base = root.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imports_in(path: Path, root: Path, package: str = PACKAGE) -> list[Import]:
    """Every import of `package` in the file `path` (anywhere in it: module level, functions, `if` blocks)."""
    name = module_name(path, root)
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    shown = str(path.relative_to(REPO if REPO in path.parents else root))
    found: list[Import] = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against this module's package
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # `from pokerlab.x import y` imports the module pokerlab.x.y if there is one, else pokerlab.x
            targets = [
                f"{base}.{a.name}" if is_module(f"{base}.{a.name}", root) else base for a in node.names
            ]
        for target in dict.fromkeys(targets):
            if target == package or target.startswith(package + "."):
                found.append(Import(name, target, shown, node.lineno))
    return found


def import_graph(root: Path = SRC, package: str = PACKAGE) -> list[Import]:
    """Every pokerlab-internal import of every module under root/package."""
    return [imp for path in sorted((root / package).rglob("*.py")) for imp in imports_in(path, root, package)]


def find_cycle(imports: list[Import]) -> list[Import]:
    """The imports along one circle of modules (a package's `__init__` is a module like any other, so a
    circle inside a package counts); [] if there is none."""
    edges: dict[str, dict[str, Import]] = {}
    for imp in imports:
        if imp.origin != imp.module:
            edges.setdefault(imp.origin, {}).setdefault(imp.module, imp)
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[Import] = []

    def visit(module: str) -> list[Import]:
        state[module] = 1
        for target, imp in sorted(edges.get(module, {}).items()):
            path.append(imp)
            if state.get(target) == 1:
                start = next(i for i, step in enumerate(path) if step.origin == target)
                return path[start:]
            if target not in state and (cycle := visit(target)):
                return cycle
            path.pop()
        state[module] = 2
        return []

    for module in sorted(edges):
        if module not in state and (cycle := visit(module)):
            return cycle
    return []


def layering_violations(imports: list[Import]) -> list[str]:
    """One line per import that goes up a floor, sideways to a sibling part, or across programs outside
    their lineage."""
    bad = []
    for imp in imports:
        source, target = imp.source, imp.target
        if source == target:
            continue
        mine, theirs = program_of(source), program_of(target)
        if mine and theirs and mine != theirs and theirs not in LINEAGE.get(mine, ()):
            bad.append(f"{imp.where()} (program {mine} may not import program {theirs})")
        elif target == PACKAGE:
            bad.append(
                f"{imp.where()} (only users import the root package; import the module that defines it)"
            )
        elif floor_of(target) > floor_of(source):
            bad.append(f"{imp.where()} ({source} stands below {target})")
        elif floor_of(target) == floor_of(source) and not (mine and theirs):
            bad.append(f"{imp.where()} ({source} and {target} are siblings on one floor)")
    return bad


# ---- the real package ----


@pytest.fixture(scope="module")
def graph() -> list[Import]:
    return import_graph()


def test_the_graph_is_read(graph):
    parts = {imp.source for imp in graph}
    assert {"analysis", "modeling", "engine", "agents", "arena", "interfaces", "pokerlab"} <= parts
    assert {"programs.loki1", "programs.loki2", "programs.td", "programs.barone_while"} <= parts
    assert {"programs+.loki1", "programs+.td", "programs+.barone_while"} <= parts
    assert len(graph) > 100


def test_every_part_stands_on_a_floor():
    modules = {module_name(p, SRC) for p in (SRC / PACKAGE).rglob("*.py")}
    assert not [m for m in sorted(modules) if part_of(m).split(".")[0] not in FLOOR and part_of(m) != "data"]


def test_no_import_circle(graph):
    cycle = find_cycle(graph)
    assert not cycle, "import circle in pokerlab:\n  " + "\n  ".join(i.where() for i in cycle)


def test_imports_go_down(graph):
    bad = layering_violations(graph)
    assert not bad, "imports that break the floors (docs/architecture.md):\n  " + "\n  ".join(bad)


def test_holdings_sit_below_analysis_and_modeling(graph):
    assert {imp.target for imp in graph if imp.source == "holdings"} <= {"holdings", "cards", "errors"}
    assert any(imp.source == "analysis" and imp.target == "holdings" for imp in graph)


def test_loki2_builds_on_loki1(graph):
    assert any(imp.source == "programs.loki2" and imp.target == "programs.loki1" for imp in graph)


# ---- the checker itself can fail ----


def fake(origin: str, module: str, line: int = 1) -> Import:
    """An import of `module` by `origin`, both named without "pokerlab." ("engine.state")."""

    def dotted(name: str) -> str:
        return PACKAGE if name == PACKAGE else f"{PACKAGE}.{name}"

    return Import(dotted(origin), dotted(module), f"src/{PACKAGE}/{origin.replace('.', '/')}.py", line)


def test_a_planted_upward_import_fails_the_real_graph(graph):
    planted = fake("engine.state", "arena.match", 7)
    assert layering_violations([*graph, planted]) == [
        "src/pokerlab/engine/state.py:7: pokerlab.engine.state imports pokerlab.arena.match "
        "(engine stands below arena)"
    ]
    player_to_arena = fake("programs.td.agent", "arena.table", 3)
    assert layering_violations([player_to_arena]) == [
        "src/pokerlab/programs/td/agent.py:3: pokerlab.programs.td.agent imports pokerlab.arena.table "
        "(programs.td stands below arena)"
    ]
    assert layering_violations([fake("programs.td.training", "arena.table")]) == []


def test_checker_finds_a_circle_inside_a_package_and_names_each_import(graph):
    agents = [imp for imp in graph if imp.source == "agents"]
    assert find_cycle(agents) == [] and any(i.origin == "pokerlab.agents.switching" for i in agents)
    planted = fake("agents.registry", "agents.switching", 3)  # the circle the lazy registry removed
    cycle = find_cycle([*agents, planted])
    assert cycle[0].where() == (
        "src/pokerlab/agents/registry.py:3: pokerlab.agents.registry imports pokerlab.agents.switching"
    )
    assert [(i.file, i.module) for i in cycle[1:]] == [
        ("src/pokerlab/agents/switching.py", "pokerlab.agents.registry")
    ]
    longer = [fake("a", "b"), fake("b", "c"), fake("c", "a", 9), fake("c", "d")]
    assert [(i.origin, i.module) for i in find_cycle(longer)] == [
        ("pokerlab.a", "pokerlab.b"),
        ("pokerlab.b", "pokerlab.c"),
        ("pokerlab.c", "pokerlab.a"),
    ]
    assert find_cycle([fake("a", "b"), fake("b", "c"), fake("a", "c"), fake("a", "a")]) == []


def test_checker_finds_siblings_the_root_and_programs_outside_their_lineage():
    bad = layering_violations(
        [
            fake("analysis.strength", "engine.state", 12),
            fake("arena.match", PACKAGE),
            fake("programs.loki1.agent", "programs.loki2.agent"),
            fake("programs.td.training", "programs.barone_while.agent"),
        ]
    )
    assert bad[0] == (
        "src/pokerlab/analysis/strength.py:12: pokerlab.analysis.strength imports pokerlab.engine.state "
        "(analysis and engine are siblings on one floor)"
    )
    assert bad[1].endswith("(only users import the root package; import the module that defines it)")
    assert bad[2].endswith("(program loki1 may not import program loki2)")
    assert bad[3].endswith("(program td may not import program barone_while)") and len(bad) == 4
    assert not layering_violations(
        [
            fake("evaluator", "cards"),
            fake("agents.base", "modeling.frequencies"),
            fake("arena.match", "agents.base"),
            fake("programs.loki2.agent", "programs.loki1.agent"),
            fake("programs.td.studies.curve", "arena.match"),
            fake("programs.barone_while.experiments", "programs.barone_while.agent"),
        ]
    )


def test_parser_sees_function_level_and_relative_imports(tmp_path):
    pkg = tmp_path / PACKAGE
    (pkg / "analysis").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from pokerlab.analysis import strength\n")
    (pkg / "modeling.py").write_text("")
    (pkg / "analysis" / "__init__.py").write_text("from . import strength\n")
    (pkg / "analysis" / "strength.py").write_text(
        "import numpy\nfrom .. import modeling\n\n\n"
        "def later():\n    if True:\n        import pokerlab.engine.state\n"
    )
    found = {(i.file, i.line, i.source, i.module) for i in import_graph(tmp_path)}
    assert found == {
        ("pokerlab/__init__.py", 1, "pokerlab", "pokerlab.analysis.strength"),
        ("pokerlab/analysis/__init__.py", 1, "analysis", "pokerlab.analysis.strength"),
        ("pokerlab/analysis/strength.py", 2, "analysis", "pokerlab.modeling"),
        ("pokerlab/analysis/strength.py", 7, "analysis", "pokerlab.engine.state"),
    }
    bad = layering_violations(import_graph(tmp_path))
    assert [b.split(" (")[0] for b in bad] == [
        "pokerlab/analysis/strength.py:2: pokerlab.analysis.strength imports pokerlab.modeling",
        "pokerlab/analysis/strength.py:7: pokerlab.analysis.strength imports pokerlab.engine.state",
    ]
