"""The README and the documentation site (docs/) as a reader meets them.

- every ```python block runs (in a scratch folder);
- every ```console block runs: each `$ ` line as a shell command (with the project's `pokerlab` first on the
  PATH, `examples/` and `docs/` in reach, and "c" lines on stdin for `pokerlab play`), exit status 0, and
  every output line the block shows appears in what it printed (stdout or stderr);
- every `pokerlab ...` line of a ```sh block (commands that take minutes to hours: experiments, training,
  servers) names a command that exists and only options that command has;
- every link and image path resolves, the README stays a front door (at most 300 lines, nothing about how
  the project is organised inside), and `mkdocs build --strict` builds the site without a warning.

A block preceded by `<!-- not run: REASON -->` is skipped with that reason (use it sparingly).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(
    r"(?:<!--\s*not run:\s*(?P<skip>[^>]*?)\s*-->\s*\n)?^```(?P<lang>[a-z]*)\n(?P<body>.*?)^```", re.S | re.M
)
BIN = Path(sys.executable).parent


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def _blocks(lang: str) -> list[tuple[str, int, str, str | None]]:
    found = []
    for page in PAGES:
        for number, m in enumerate(FENCE.finditer(page.read_text()), 1):
            if m["lang"] == lang:
                found.append((_name(page), number, m["body"], m["skip"]))
    return found


PYTHON = _blocks("python")
CONSOLE = _blocks("console")
SH = _blocks("sh")


def _ids(blocks):
    return [f"{page}#{number}" for page, number, _, _ in blocks]


def test_there_are_blocks_to_run():
    assert len(PYTHON) >= 10 and len(CONSOLE) >= 5 and len(SH) >= 10
    readme = [b for b in PYTHON + CONSOLE if b[0] == "README.md"]
    assert len(readme) >= 6


@pytest.mark.parametrize(("page", "number", "body", "skip"), PYTHON, ids=_ids(PYTHON))
def test_python_block_runs(page, number, body, skip, tmp_path, monkeypatch):
    if skip:
        pytest.skip(skip)
    monkeypatch.chdir(tmp_path)  # snippets may write results folders
    exec(compile(body, f"{page} python block {number}", "exec"), {"__name__": "docs"})


def _scratch(tmp_path: Path) -> Path:
    for name in ("examples", "docs"):
        (tmp_path / name).symlink_to(ROOT / name)
    return tmp_path


@pytest.mark.parametrize(("page", "number", "body", "skip"), CONSOLE, ids=_ids(CONSOLE))
def test_console_block_runs(page, number, body, skip, tmp_path):
    if skip:
        pytest.skip(skip)
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    steps: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif line.strip():
            assert steps, f"{page} console block {number}: output before the first `$ ` line"
            steps[-1][1].append(line.strip())
    assert steps
    cwd = _scratch(tmp_path)
    for command, shown in steps:
        proc = subprocess.run(
            command,
            shell=True,
            cwd=cwd,
            env=env,
            input="c\n" * 50,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, (command, proc.stderr[-2000:])
        assert "Traceback" not in proc.stderr, (command, proc.stderr[-2000:])
        printed = {line.strip() for line in (proc.stdout + proc.stderr).splitlines()}  # as a terminal shows
        missing = [line for line in shown if line not in printed]
        assert not missing, (command, missing, proc.stdout[-2000:])


def _commands(body: str) -> list[str]:
    """The `pokerlab ...` command lines of a sh block (continuation lines joined)."""
    joined = body.replace("\\\n", " ")
    lines = []
    for line in joined.splitlines():
        line = line.strip()
        for prefix in (".venv/bin/pokerlab ", "pokerlab "):
            if line.startswith(prefix):
                lines.append(line[len(prefix) :])
    return lines


def _subparser(parser: argparse.ArgumentParser, words: list[str]) -> tuple[argparse.ArgumentParser, int]:
    """The (sub)parser the leading words of a command name, and how many words named it."""
    used = 0
    for word in words:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or word not in subs[0].choices:
            break
        parser, used = subs[0].choices[word], used + 1
    return parser, used


@pytest.mark.parametrize(("page", "number", "body", "skip"), SH, ids=_ids(SH))
def test_sh_block_commands_exist(page, number, body, skip):
    from pokerlab.interfaces.cli import build_parser

    for line in _commands(body):
        words = shlex.split(line, comments=True)
        parser, used = _subparser(build_parser(), words)
        assert used >= 1 or all(w.startswith("-") for w in words), (
            f"{page} sh block {number}: pokerlab {line}"
        )
        for word in words[used:]:
            if word.startswith("--"):
                option = word.split("=", 1)[0]
                assert option in parser._option_string_actions, (
                    f"{page} sh block {number}: `pokerlab {' '.join(words[:used])}` has no {option}"
                )


LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _targets(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text())  # links inside code blocks are code
    text = re.sub(r"`[^`\n]*`", "", text)
    return LINK.findall(text)


@pytest.mark.parametrize("page", PAGES, ids=[_name(p) for p in PAGES])
def test_every_link_and_image_resolves(page):
    bad = []
    for target in _targets(page):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        if not (page.parent / path).exists():
            bad.append(target)
    assert not bad, f"{_name(page)} links to missing files: {bad}"


SPAN = re.compile(r"`((?:docs|examples|benchmarks|tests|src)/[^`\s]*)`")


@pytest.mark.parametrize("page", PAGES, ids=[_name(p) for p in PAGES])
def test_every_repository_path_named_exists(page):
    """A path of the repository written as code (`docs/results/...png`, `tests/...py::test`) exists."""
    bad = []
    for named in SPAN.findall(page.read_text()):
        path = named.rstrip(".,;:").split("::")[0]
        found = list(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()
        if not found:
            bad.append(named)
    assert not bad, f"{_name(page)} names missing files: {bad}"


def test_readme_is_a_front_door():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 300
    lower = text.lower()
    for inside in ("seed 00", "loki-spec", "learning-spec", "issue ", "branch ", "load average", "guide.md"):
        assert inside not in lower, inside
    assert not re.search(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b", text), "a commit hash"
    assert not re.search(r"\bT[1-4]\b", text)
    for command in ("make run", "make test", "source .venv/bin/activate", ".venv/bin/pokerlab"):
        assert command in text


OUTSIDE = re.compile(r"seed 00|LOKI-SPEC|LEARNING-SPEC|EVALUATION-SPEC|GUIDE\.md|\bissue \d")


def _help_texts(parser: argparse.ArgumentParser, name: str) -> dict[str, str]:
    texts = {name: parser.format_help()}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command, sub in action.choices.items():
                texts.update(_help_texts(sub, f"{name} {command}"))
    return texts


def test_what_users_read_cites_no_inside_document():
    """The docs, every command's --help and `pokerlab agents` cite papers, never the project's own working
    documents (specifications, seed files, issue numbers)."""
    from pokerlab.interfaces.cli import build_parser

    texts = {_name(page): page.read_text() for page in PAGES}
    texts.update(_help_texts(build_parser(), "pokerlab"))
    texts["pokerlab agents"] = subprocess.run(
        [BIN / "pokerlab", "agents"], capture_output=True, text=True, check=True
    ).stdout
    assert len(texts) > len(PAGES) + 20  # every page, every command
    bad = {name: m[0] for name, text in texts.items() if (m := OUTSIDE.search(text))}
    assert not bad, bad


def test_mkdocs_builds_strict(tmp_path):
    mkdocs = BIN / "mkdocs"
    if not mkdocs.exists():
        pytest.fail("mkdocs is missing: pip install -e '.[docs]' (the test extra has it)")
    proc = subprocess.run(
        [str(mkdocs), "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (tmp_path / "site" / "index.html").is_file()
