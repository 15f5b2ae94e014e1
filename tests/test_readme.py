"""The README's own promises: its card codes, its sources, and examples/my_bot.py, which it shows.

Every code block of the README (and of docs/) runs in tests/test_docs.py.
"""

import re
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)


def test_readme_card_codes_are_right():
    import pokerlab

    assert pokerlab.parse_cards("Ad Qc") == [49, 40]
    assert "[49, 40]" in BLOCKS[0] and pokerlab.format_cards([49, 40]) == "Ad Qc"


def test_readme_cites_no_outside_documents():
    text = README.lower()
    for outside in ("seed 00", "loki-spec", "guide.md", "../shared"):
        assert outside not in text
    assert (ROOT / "docs" / "references.md").is_file()


def test_example_bot_plays_a_match(capsys):
    module = runpy.run_path(str(ROOT / "examples" / "my_bot.py"))
    result = module["main"](hands=150, seed=3)
    assert [r.agent for r in result.results][0] == "pairs-and-pot-odds"
    assert sum(r.total for r in result.results) == 0  # chips are conserved
    assert "pairs-and-pot-odds" in capsys.readouterr().out


def test_readme_bot_is_the_example_bot():
    """The bot the README shows is examples/my_bot.py's class, word for word."""
    example = (ROOT / "examples" / "my_bot.py").read_text()
    cls = "class PairsAndPotOdds" + example.split("class PairsAndPotOdds", 1)[1].split("\n\n\ndef main", 1)[0]
    assert cls in README
    assert "examples/my_bot.py:PairsAndPotOdds" in README
