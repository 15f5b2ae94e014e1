"""Agent interface v2 (issue 8): reseeding is not forgetting, freezing, saving and loading what was learned,
external agents by spec, and engine states rebuilt from a view."""

import io
import json
import zipfile

import numpy as np
import pytest

from pokerlab import GameConfig, HandState, play_match
from pokerlab.agents import make_agent, parse_lineup
from pokerlab.agents.base import AGENT_FILE_VERSION
from pokerlab.engine import seat_view, state_from_view
from pokerlab.errors import ConfigError, CorruptData, InvalidCards
from pokerlab.programs.loki1 import Loki1Agent


def trained_loki() -> Loki1Agent:
    loki = Loki1Agent()
    play_match([loki, "raise", "call"], 60, seed=3)
    return loki


def test_reseeding_keeps_what_was_learned_and_forget_clears_it():
    loki = trained_loki()
    counts = {s: f.counts.copy() for s, f in loki.frequencies.items()}
    assert set(counts) == {1, 2} and all(c.sum() > 0 for c in counts.values())
    loki.seed(np.random.default_rng(9))
    assert all((loki.frequencies[s].counts == c).all() for s, c in counts.items())
    loki.forget()
    assert loki.frequencies == {}


def test_a_frozen_agent_plays_without_learning():
    loki = trained_loki()
    before = {s: f.counts.copy() for s, f in loki.frequencies.items()}
    loki.freeze()
    play_match([loki, "raise", "call"], 30, seed=4)
    assert all((loki.frequencies[s].counts == c).all() for s, c in before.items())
    loki.freeze(False)
    play_match([loki, "raise", "call"], 30, seed=4)
    assert loki.frequencies[1].counts.sum() > before[1].sum()


def test_save_and_load_round_trip_with_a_versioned_file(tmp_path):
    loki = trained_loki()
    path = loki.save(tmp_path / "loki.npz")
    copy = Loki1Agent()
    copy.load(path)
    assert set(copy.frequencies) == set(loki.frequencies)
    assert all((copy.frequencies[s].counts == loki.frequencies[s].counts).all() for s in loki.frequencies)
    # the same seeds and the same learned state: the same play
    a = play_match([loki, "raise", "call"], 40, seed=5).nets
    b = play_match([copy, "raise", "call"], 40, seed=5).nets
    assert (a == b).all()


def test_load_refuses_what_does_not_fit(tmp_path):
    loki = trained_loki()
    path = loki.save(tmp_path / "loki.npz")
    with pytest.raises(CorruptData, match="holds agent 'loki1', not 'loki1-basic'"):
        make_agent("loki1-basic").load(path)
    with pytest.raises(CorruptData, match="learns nothing"):
        make_agent("call").load_learned_state({"counts": np.zeros(3)})
    (tmp_path / "junk.npz").write_bytes(b"not a zip file")
    with pytest.raises(CorruptData, match="not a pokerlab agent file"):
        Loki1Agent().load(tmp_path / "junk.npz")
    with pytest.raises(ConfigError, match="no agent file"):
        Loki1Agent().load(tmp_path / "missing.npz")
    future = tmp_path / "future.npz"  # a file from a later format version
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(future, "w") as target:
        for item in source.namelist():
            data = source.read(item)
            if item == "meta.npy":
                meta = json.loads(bytes(np.load(source.open(item))).decode())
                meta["version"] = AGENT_FILE_VERSION + 1
                buffer = io.BytesIO()
                np.save(buffer, np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8))
                data = buffer.getvalue()
            target.writestr(item, data)
    with pytest.raises(CorruptData, match=f"version {AGENT_FILE_VERSION + 1}"):
        Loki1Agent().load(future)


def test_lineups_take_counts_and_external_specs(tmp_path):
    bot = tmp_path / "mybots.py"
    bot.write_text(
        "from pokerlab import Agent\n"
        "class Folder(Agent):\n"
        "    '''Folds.'''\n"
        "    def act(self, view):\n"
        "        return 0 if view.to_call else 1\n"
    )
    assert parse_lineup(f"call:2,{bot}:Folder:2") == ["call", "call", f"{bot}:Folder", f"{bot}:Folder"]
    assert make_agent(f"{bot}:Folder").name == f"{bot}:Folder"
    # an outside bot's spec is checked by its text only: its file is loaded only where it plays
    assert parse_lineup(f"{bot}:Nobody,no_such_module:Bot") == [f"{bot}:Nobody", "no_such_module:Bot"]
    with pytest.raises(ConfigError, match="no Agent subclass named 'Nobody'"):
        make_agent(f"{bot}:Nobody")
    with pytest.raises(ConfigError, match="cannot import module 'no_such_module'"):
        make_agent("no_such_module:Bot")
    with pytest.raises(ConfigError, match="unknown agent|known"):
        parse_lineup("no-such-agent")
    with pytest.raises(ConfigError, match="bad count"):
        parse_lineup("random:0")


def test_state_from_view_rebuilds_a_state_that_reaches_the_view():
    rng = np.random.default_rng(4)
    for stack in (None, 120):
        config = GameConfig(stack=stack)
        for _ in range(30):
            cards = rng.permutation(52).tolist()
            n = int(rng.integers(2, 7))
            state = HandState(config, cards[: 2 * n], cards[2 * n : 2 * n + 5])
            for _ in range(int(rng.integers(0, 12))):
                if state.is_over:
                    break
                state.act(int(rng.choice(state.legal_actions())))
            if state.is_over:
                continue
            view = seat_view(state, state.actor, config=config)
            # fill the unseen cards differently: the rebuilt state still gives the same view
            others = [c for c in rng.permutation(52).tolist() if c not in view.hole and c not in view.board]
            holes = others[: 2 * n]
            holes[2 * view.position : 2 * view.position + 2] = view.hole
            runout = list(view.board) + others[2 * n : 2 * n + 5 - len(view.board)]
            rebuilt = state_from_view(view, holes, runout)
            assert seat_view(rebuilt, view.position, config=config) == view
    with pytest.raises(InvalidCards, match="own"):
        state_from_view(view, [0] * (2 * view.players), runout)
