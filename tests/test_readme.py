"""Every ```python block of the README runs (in a scratch folder), and so does examples/my_bot.py."""

import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)


def test_readme_has_python_blocks():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_readme_python_block_runs(number, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # snippets may write results folders
    exec(compile(BLOCKS[number], f"README.md python block {number + 1}", "exec"), {"__name__": "readme"})


def test_readme_card_codes_are_right():
    import pokerlab

    assert pokerlab.parse_cards("Ad Qc") == [49, 40]
    assert "[49, 40]" in BLOCKS[0] and pokerlab.format_cards([49, 40]) == "Ad Qc"


def test_readme_cites_no_outside_documents():
    text = (ROOT / "README.md").read_text().lower()
    for outside in ("seed 00", "loki-spec", "guide.md", "../shared"):
        assert outside not in text
    assert (ROOT / "docs" / "references.md").is_file()


def test_example_bot_plays_a_match(capsys):
    module = runpy.run_path(str(ROOT / "examples" / "my_bot.py"))
    result = module["main"](hands=150, seed=3)
    assert [r.agent for r in result.results][0] == "pairs-and-pot-odds"
    assert sum(r.total for r in result.results) == 0  # chips are conserved
    assert "pairs-and-pot-odds" in capsys.readouterr().out


def test_readme_shell_examples(tmp_path):
    """A few cheap `sh` lines of the README, run as written."""
    lines = [
        'pokerlab rank "As Ks Qs Js Ts 2c 3d"',
        'pokerlab analyze "Ad Qc" "3h 4c Jh" --opponents 5 --json',
        "pokerlab preflop-table --players 7 --json",
    ]
    readme = (ROOT / "README.md").read_text()
    pokerlab = str(Path(sys.executable).parent / "pokerlab")
    for line in lines:
        assert line in readme
        proc = subprocess.run(
            line.replace("pokerlab", pokerlab, 1), shell=True, capture_output=True, text=True, cwd=tmp_path
        )
        assert proc.returncode == 0 and proc.stderr == "", (line, proc.stderr)
    assert (
        "Royal Flush"
        in subprocess.run([pokerlab, "rank", "As Ks Qs Js Ts 2c 3d"], capture_output=True, text=True).stdout
    )
