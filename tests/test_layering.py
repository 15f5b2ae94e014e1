"""The import graph of pokerlab: no cycle between its parts, and every import goes down a floor (the layering
docs/architecture.md, "Layout", describes).

Every module under src/pokerlab is parsed with `ast` (nothing is imported), every pokerlab-internal import is
collected, those inside functions and `if` blocks included, and each is mapped to the *part* it belongs to:
the top-level module (`cards`, `holdings`, ...) or subpackage (`engine`, `analysis`, ...) under `pokerlab`;
the package's own `__init__` is the part `pokerlab`. A failure names the offending import as file:line.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
PACKAGE = "pokerlab"

#: The floors below the engine and the analysis, lowest first: each may import only those before it.
BASE = ("errors", "checks", "cards", "handclass", "evaluator_tables", "evaluator", "holdings")

#: part -> the parts it must never import (docs/architecture.md, "Layout"; the root package is above all).
FORBIDDEN: dict[str, frozenset[str]] = {
    "engine": frozenset({"agents", "arena", "interfaces", "programs", "analysis", "modeling"}),
    "analysis": frozenset({"engine", "modeling", "agents", "arena", "interfaces", "programs"}),
    "modeling": frozenset({"agents", "arena", "interfaces", "programs"}),
    "agents": frozenset({"arena", "interfaces"}),
    "arena": frozenset({"interfaces", "programs"}),
    "programs": frozenset({"interfaces"}),
    **{
        base: frozenset({"engine", "analysis", "modeling", "agents", "programs", "arena"})
        | frozenset({"interfaces"})
        | frozenset(BASE[i + 1 :])
        for i, base in enumerate(BASE)
    },
}

#: Pairs of parts whose circle is known: agents/registry still imports every player eagerly.
KNOWN_CYCLES = {("agents", "programs"), ("programs", "agents")}


@dataclass(frozen=True)
class Import:
    """One pokerlab-internal import: `source` (part) imports `target` (part) at file:line."""

    source: str
    target: str
    module: str  # the dotted module imported, e.g. "pokerlab.holdings"
    file: str
    line: int

    def where(self) -> str:
        return f"{self.file}:{self.line}: {self.source} imports {self.module}"


def part_of(module: str, package: str = PACKAGE) -> str:
    """The part of a dotted module: "pokerlab.analysis.strength" -> "analysis"; "pokerlab" -> itself."""
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 else pieces[0]


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
                found.append(Import(part_of(name), part_of(target), target, shown, node.lineno))
    return found


def import_graph(root: Path = SRC, package: str = PACKAGE) -> list[Import]:
    """Every pokerlab-internal import of every module under root/package."""
    return [imp for path in sorted((root / package).rglob("*.py")) for imp in imports_in(path, root, package)]


def find_cycle(imports: list[Import], known: set[tuple[str, str]] = frozenset()) -> list[Import]:
    """The imports along one cycle between parts (self-imports within a part do not count); [] if none."""
    edges: dict[str, dict[str, Import]] = {}
    for imp in imports:
        if imp.source != imp.target and (imp.source, imp.target) not in known:
            edges.setdefault(imp.source, {}).setdefault(imp.target, imp)
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[Import] = []

    def visit(part: str) -> list[Import]:
        state[part] = 1
        for target, imp in sorted(edges.get(part, {}).items()):
            path.append(imp)
            if state.get(target) == 1:
                start = next(i for i, step in enumerate(path) if step.source == target)
                return path[start:]
            if target not in state and (cycle := visit(target)):
                return cycle
            path.pop()
        state[part] = 2
        return []

    for part in sorted(edges):
        if part not in state and (cycle := visit(part)):
            return cycle
    return []


def layering_violations(imports: list[Import], forbidden: dict[str, frozenset[str]] = FORBIDDEN) -> list[str]:
    """One line per import that goes up a floor; nothing below the root package may import the root."""
    bad = []
    for imp in imports:
        if imp.target in forbidden.get(imp.source, ()):
            bad.append(f"{imp.where()} ({imp.source} must not import {imp.target})")
        elif imp.target == PACKAGE and imp.source != PACKAGE:
            bad.append(
                f"{imp.where()} (only users import the root package; import the module that defines it)"
            )
    return bad


# ---- the real package ----


@pytest.fixture(scope="module")
def graph() -> list[Import]:
    return import_graph()


def test_the_graph_is_read(graph):
    parts = {imp.source for imp in graph}
    assert {"analysis", "modeling", "engine", "agents", "arena", "interfaces", "pokerlab"} <= parts
    assert len(graph) > 100


def test_no_import_cycle_between_parts(graph):
    cycle = find_cycle(graph, KNOWN_CYCLES)
    assert not cycle, "import cycle between parts of pokerlab:\n  " + "\n  ".join(i.where() for i in cycle)


def test_imports_go_down(graph):
    bad = layering_violations(graph)
    assert not bad, "imports that go up a floor (docs/architecture.md, Layout):\n  " + "\n  ".join(bad)


def test_holdings_sit_below_analysis_and_modeling(graph):
    assert {imp.target for imp in graph if imp.source == "holdings"} <= {"holdings", "cards", "errors"}
    assert any(imp.source == "analysis" and imp.target == "holdings" for imp in graph)


# ---- the checker itself can fail ----


def fake(source: str, target: str, line: int = 1) -> Import:
    module = PACKAGE if target == PACKAGE else f"{PACKAGE}.{target}"
    return Import(source, target, module, f"src/{PACKAGE}/{source}.py", line)


def test_checker_finds_a_cycle_and_names_each_import():
    imports = [fake("cards", "errors"), fake("analysis", "holdings", 3), fake("holdings", "analysis", 7)]
    cycle = find_cycle(imports)
    assert sorted(i.where() for i in cycle) == [
        "src/pokerlab/analysis.py:3: analysis imports pokerlab.holdings",
        "src/pokerlab/holdings.py:7: holdings imports pokerlab.analysis",
    ]
    longer = [fake("a", "b"), fake("b", "c"), fake("c", "a", 9), fake("c", "d")]
    assert [(i.source, i.target) for i in find_cycle(longer)] == [("a", "b"), ("b", "c"), ("c", "a")]
    assert find_cycle([fake("a", "b"), fake("b", "c"), fake("a", "c"), fake("a", "a")]) == []


def test_checker_finds_an_upward_import():
    bad = layering_violations(
        [fake("analysis", "modeling", 12), fake("modeling", "analysis"), fake("arena", "pokerlab")]
    )
    assert bad[0] == (
        "src/pokerlab/analysis.py:12: analysis imports pokerlab.modeling (analysis must not import modeling)"
    )
    assert len(bad) == 2 and bad[1].startswith("src/pokerlab/arena.py:1: arena imports pokerlab (only users")
    assert layering_violations([fake("agents", "arena")]) and layering_violations(
        [fake("cards", "evaluator")]
    )
    assert not layering_violations(
        [fake("evaluator", "cards"), fake("agents", "modeling"), fake("arena", "agents")]
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
        "pokerlab/analysis/strength.py:2: analysis imports pokerlab.modeling",
        "pokerlab/analysis/strength.py:7: analysis imports pokerlab.engine.state",
    ]
