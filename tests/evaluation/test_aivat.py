"""AIVAT's tiers over DIVAT's value: the reach of a hand-long uniform against a brute-force draw, the
actions tier unbiased and narrower for a bot that says what it drew from, the command line and the
crosstable, and the one-line refusals."""

import json

import numpy as np
import pytest

from pokerlab import play_match
from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents import Agent, Decision
from pokerlab.errors import ConfigError
from pokerlab.evaluation.aivat import aivat_of_folder, conditional, fit_imaginary_weights, narrowed
from pokerlab.evaluation.luck import fit_street_weights
from pokerlab.evaluation.stats import estimator_row
from pokerlab.interfaces.cli import main
from pokerlab.programs.loki2.selector import draw


def test_the_reach_of_one_uniform_for_the_hand_against_a_brute_force_draw():
    """P(action | the actions before) of a selector that keeps one u for the hand, from the interval
    arithmetic, equals the frequencies over a fine grid of u run through the selector itself."""
    rng = np.random.default_rng(4)
    u = (np.arange(40_000) + 0.5) / 40_000
    for _ in range(8):
        triples = rng.dirichlet(np.ones(3), size=3)
        alive, interval = np.ones(u.size, dtype=bool), (0.0, 1.0)
        for triple in triples:
            actions = np.array([draw(triple[0], triple[1], x) for x in u[alive]])
            q = conditional(tuple(triple), interval)
            frequencies = np.bincount(actions, minlength=3) / actions.size
            assert np.allclose(q, frequencies, atol=2 / actions.size) and abs(q.sum() - 1) < 1e-12
            taken = int(np.argmax(frequencies))
            interval = narrowed(tuple(triple), interval, taken)
            alive[alive] = actions == taken
    assert np.allclose(conditional((0.2, 0.5, 0.3), None), (0.2, 0.5, 0.3))


class Mixer(Agent):
    """Raises, calls or folds at random with probabilities that depend on its cards, and says so."""

    name = "mixer"

    def act(self, view):
        high = max(view.hole) // 4 / 12  # its high card's rank in [0, 1]
        legal = view.legal_actions
        p = np.array([0.0 if view.to_call == 0 else 0.3 * (1 - high), 0.5, 0.2 + 0.3 * high])
        p = np.where([a in legal for a in (FOLD, CALL, RAISE)], p, 0.0)
        p /= p.sum()
        action = int(self.rng.choice(3, p=p))
        return Decision(action, tuple(float(x) for x in p))


def test_the_actions_tier_is_unbiased_and_narrower_for_a_bot_that_says_what_it_drew_from(tmp_path):
    play_match([Mixer(), "call"], 400, seed=6, out=tmp_path / "m", log_decisions=True)
    tiers = aivat_of_folder(tmp_path / "m", seed=2, samples_preflop=50)
    rows = {
        tier: estimator_row(tier, "", d.adjusted[:, 0], d.raw[:, 0], d.units, d.small_bet, d.big_blind, 0)
        for tier, d in tiers.items()
    }
    assert all(abs(r.bias_z) < 3 for r in rows.values())
    assert rows["actions"].sd_ratio < rows["chance"].sd_ratio < 0.8
    assert np.allclose(tiers["actions"].adjusted.sum(axis=1), 0)


class Liar(Agent):
    """Calls, and says it raises for sure."""

    name = "liar"

    def act(self, view):
        return Decision(CALL, (0.0, 0.0, 1.0))


def test_what_aivat_cannot_evaluate_gets_one_line(tmp_path):
    play_match([Liar(), "call"], 3, seed=1, out=tmp_path / "liar", log_decisions=True)
    with pytest.raises(ConfigError, match="liar took call, which its probabilities .* made impossible"):
        aivat_of_folder(tmp_path / "liar", seed=0)
    play_match(["loki1", "loki1-basic"], 5, seed=1, out=tmp_path / "m")
    with pytest.raises(
        ConfigError, match="records no decision probabilities and no seat is known .*--log-decisions"
    ):
        aivat_of_folder(tmp_path / "m", seed=0)
    with pytest.raises(ConfigError, match=r"--shared-uniform names \['loki2'\], not seats"):
        aivat_of_folder(tmp_path / "m", seed=0, shared_uniform=frozenset({"loki2"}))


def test_evaluate_and_match_evaluate_on_the_command_line(tmp_path, capsys):
    rr = tmp_path / "round-robin"
    assert main(["match", "--agents", "loose-aggressive,call", "--hands", "60", "--seed", "1", "--out",
                 str(rr / "a"), "--evaluate", "aivat", "--no-progress"]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "aivat-chance" in text and "aivat-imaginary" in text and "digest" in text
    assert (rr / "a" / "policies.bin").stat().st_size > 0  # --evaluate aivat records the answers
    reports = {}
    for weights in ("fitted", "plain", "1,1,1,1"):
        assert main(["evaluate", str(rr / "a"), "--method", "aivat", "--imaginary-weights", weights,
                     "--json"]) == 0  # fmt: skip
        report = json.loads(capsys.readouterr().out)
        reports[weights] = {row["name"]: row["sb_per_hand"] for row in report["seats"]["call"]}
        reports[weights]["digest"] = report["value_digest"]
    assert reports["plain"] == reports["1,1,1,1"]
    assert reports["fitted"]["aivat-chance"] == reports["plain"]["aivat-chance"]
    assert reports["fitted"]["aivat-imaginary"] != reports["plain"]["aivat-imaginary"]
    assert reports["fitted"]["digest"] != reports["plain"]["digest"]
    assert main(["evaluate", str(rr / "a"), "--method", "aivat", "--imaginary-weights", "2,2,1"]) == 2
    assert "four finite numbers" in capsys.readouterr().err
    assert main(["evaluate", str(rr / "a"), "--method", "aivat", "--fit-weights", "--seed", "7"]) == 0
    fitted = tuple(round(w, 2) for w in fit_imaginary_weights([rr / "a"], seed=7))
    assert capsys.readouterr().out.strip() == str(fitted)
    assert main(["evaluate", str(rr / "a"), "--method", "luck", "--fit-weights", "--samples", "50"]) == 0
    fitted = tuple(round(w, 2) for w in fit_street_weights(rr / "a", seed=0, samples=50))
    assert capsys.readouterr().out.strip() == f"{rr / 'a'} {fitted}"
    assert main(["evaluate", str(rr / "a"), "--method", "divat", "--fit-weights"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "divat has none" in err[0]
    assert main(["match", "--agents", "raise,call", "--hands", "60", "--seed", "1", "--out", str(rr / "b"),
                 "--no-progress"]) == 0  # fmt: skip
    assert main(["match", "--agents", "raise,loki2-triples", "--hands", "60", "--seed", "1", "--out",
                 str(rr / "c"), "--no-progress"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["evaluate", str(rr), "--method", "divat", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    cells = {(c["row"], c["column"]): c["sb_per_hand"] for c in table["cells"]}
    assert set(table["agents"]) == {"call", "loki2-triples", "loose-aggressive", "raise"} and len(cells) == 6
    assert all(cells[(a, b)] == -cells[(b, a)] for a, b in cells)
    assert main(["evaluate", str(rr)]) == 0  # the luck adjustment's crosstable, as text
    assert "mbb/hand" in capsys.readouterr().out
    assert main(["match", "--agents", "raise,call", "--hands", "40", "--out", str(tmp_path / "j"), "--json",
                 "--evaluate", "divat", "--no-progress"]) == 0  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert (
        report["hands"] == 40
        and report["evaluation"]["method"] == "divat"
        and report["evaluation"]["value_digest"]
    )
    assert main(["match", "--agents", "call,raise", "--hands", "5", "--evaluate", "divat"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "give --out" in err[0]


def test_parts_of_one_match_pool_into_one_report(tmp_path, capsys):
    """--pool: folders of one pairing on other seeds (one with the seats swapped) give the report of their
    units together, checked against pooling each folder's own report by the textbook formulas."""
    parts = []
    for seed, agents in (
        (1, "raise,loose-aggressive"),
        (2, "raise,loose-aggressive"),
        (3, "loose-aggressive,raise"),
    ):
        parts.append(str(tmp_path / f"p{seed}"))
        assert main(["match", "--agents", agents, "--deals", str(10 * seed), "--duplicate",
                     "--seed", str(seed), "--out", parts[-1], "--no-progress"]) == 0  # fmt: skip
    capsys.readouterr()
    alone = []
    for part in parts:
        assert main(["evaluate", part, "--json"]) == 0
        alone.append(json.loads(capsys.readouterr().out))
    assert main(["evaluate", *parts, "--pool", "--json"]) == 0
    pooled = json.loads(capsys.readouterr().out)
    n = np.array([report["units"] for report in alone])
    assert pooled["units"] == n.sum() == 60 and pooled["results"] == parts
    for row, name in enumerate(("raw", "luck")):
        got = pooled["seats"]["raise"][row]
        assert got["name"] == name
        means = np.array([report["seats"]["raise"][row]["sb_per_hand"] for report in alone])
        sds = np.array([report["seats"]["raise"][row]["sd_per_unit"] for report in alone])
        mean = (n * means).sum() / n.sum()
        sd = np.sqrt((((n - 1) * sds**2 + n * (means - mean) ** 2).sum()) / (n.sum() - 1))
        assert got["sb_per_hand"] == pytest.approx(mean, abs=1e-12)
        assert got["sd_per_unit"] == pytest.approx(sd, rel=1e-9)
    assert main(["evaluate", parts[0], parts[0], "--pool"]) == 2
    assert "dealt from the same seed, 1" in capsys.readouterr().err
    shorter = str(tmp_path / "p1-short")  # its deals are the first 5 of p1's: not another part
    assert main(["match", "--agents", "raise,loose-aggressive", "--deals", "5", "--duplicate", "--seed", "1",
                 "--out", shorter, "--no-progress"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["evaluate", parts[0], shorter, "--pool"]) == 2
    assert "dealt from the same seed, 1" in capsys.readouterr().err
    other = str(tmp_path / "other")
    assert main(["match", "--agents", "raise,call", "--deals", "5", "--duplicate", "--seed", "4",
                 "--out", other, "--no-progress"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["evaluate", parts[0], other, "--pool"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the same agents" in err[0]
