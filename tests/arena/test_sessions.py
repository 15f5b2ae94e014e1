"""Sessions and fair duplicate (issue 8): agents keep their memory within a session, never see a deal twice,
and results do not depend on the number of workers."""

import importlib.util
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from pokerlab import GameConfig, duplicate_tournament, make_agent, play_match
from pokerlab.arena import Table
from pokerlab.arena.dealing import Dealer, deal_block, deal_cards
from pokerlab.arena.players import AgentSpec, LocalPlayer
from pokerlab.arena.seating import duplicate_positions
from pokerlab.arena.store import read_decisions, read_hands
from pokerlab.engine import HandState

CHEATERS = Path(__file__).with_name("cheaters.py")
_spec = importlib.util.spec_from_file_location("arena_cheaters", CHEATERS)
cheaters = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cheaters)


def test_a_learning_agent_keeps_counting_across_blocks():
    counter = cheaters.Counter()
    play_match([counter, "call"], 250, seed=1, block=40)
    assert counter.hands == 250  # the arena never made it forget (the old arena reset it every block)


def test_sessions_keep_memory_and_workers_do_not_change_it(tmp_path):
    runs = {}
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        result = play_match(
            [f"{CHEATERS}:Counter", "random"],
            300,
            seed=4,
            sessions=3,
            workers=workers,
            block=25,
            out=out,
            log_decisions=True,
            isolate=False,
        )
        seen = {}
        for d in read_decisions(out / "hands.sqlite"):
            if d["seat"] == 0:
                seen.setdefault(d["hand"] // 100, []).append(d["info"]["hands"])
        runs[workers] = (result.nets.copy(), seen, (out / "hands.csv").read_bytes())
        for counts in seen.values():  # each session's counter starts at 0 and keeps counting across blocks
            assert counts[0] == 0 and counts == sorted(counts) and counts[-1] >= 95
        assert [s.hands_played for s in result.sessions] == [100, 100, 100]
    assert (runs[1][0] == runs[2][0]).all() and runs[1][1] == runs[2][1] and runs[1][2] == runs[2][2]


def test_duplicate_results_identical_for_any_number_of_workers():
    lineup = ["loki1", "random", "tight-aggressive"]
    one = duplicate_tournament(lineup, 40, seed=7)
    two = duplicate_tournament(lineup, 40, seed=7, workers=2)
    assert (one.nets == two.nets).all() and one.to_json()["results"] == two.to_json()["results"]
    assert [s.session for s in one.sessions] == [0, 1, 2]


def test_a_memory_agent_gains_nothing_from_duplicate_play():
    """Each seat rotation is its own session of fresh agents, so remembering past hands never meets the
    same deal twice: the memory agent plays exactly as a calling station would."""
    memory = duplicate_tournament([f"{CHEATERS}:Memory", "random"], 2000, seed=11, isolate=False)
    plain = duplicate_tournament(["call", "random"], 2000, seed=11)
    low, high = plain.results[0].ci95
    assert low <= memory.results[0].sb_per_hand <= high
    assert memory.results[0].total == plain.results[0].total


def test_the_memory_agent_would_gain_if_it_met_a_deal_twice():
    """The check above can fail: replaying each deal's rotations to one memory agent (the old arena) lets
    it profit from what it saw shown down."""
    config = GameConfig()
    agents = [cheaters.Memory(), make_agent("random")]
    table = Table([LocalPlayer(AgentSpec("memory")), LocalPlayer(AgentSpec("random"))], config, ["m", "r"])
    table.new_session([[1, 1, 0, 0], [1, 1, 0, 1]], agents)
    dealer, total_same = Dealer(11), 0
    for d in range(2000):
        cards = dealer.cards(d, 2)
        for positions in duplicate_positions(2):
            seats = [0, 0]
            for j, p in enumerate(positions):
                seats[p] = j
            state = table.play_hand(HandState(config, cards[:4], cards[4:]), seats)
            total_same += state.nets[positions[0]]
    plain = duplicate_tournament(["call", "random"], 2000, seed=11)
    assert agents[0].hits > 500
    assert total_same / config.small_bet / 4000 > plain.results[0].ci95[1] + 0.2


def test_real_stacks_end_a_session_when_players_are_broke_and_rebuy_restores_them(tmp_path):
    config = GameConfig(stack=60)
    broke = play_match(["raise", "call"], 400, config, seed=2)
    report = broke.sessions[0]
    assert report.hands_played < 400 == report.hands_asked and "broke" in report.ended
    assert broke.hands == report.hands_played
    rebought = play_match(["raise", "call"], 400, config, seed=2, rebuy=5, out=tmp_path)
    assert rebought.sessions[0].ended == "completed" and rebought.hands == 400
    stacks = [record.stacks for _, record in read_hands(tmp_path / "hands.sqlite")]
    full = [h for h, s in enumerate(stacks) if s == (60, 60)]
    # a new epoch every 5 hands, or at once when a player is broke: never more than 5 hands apart
    assert full[0] == 0 and max(np.diff(full)) <= 5 and len(full) >= 80


def test_deals_are_the_plain_reference_and_uniform():
    dealer = Dealer(2026)
    for d in (0, 1, 255, 256, 257, 5000):
        assert dealer.cards(d, 10) == deal_cards(2026, d, 10)
    block = deal_block(3, 0, 20000)
    assert all(sorted(row) == list(range(52)) for row in block[:50].tolist())
    # every card is equally likely at the first hole-card position (chi-square, 51 dof: 99.9 % < 90.6)
    counts = np.bincount(block[:, 0], minlength=52)
    expected = len(block) / 52
    assert ((counts - expected) ** 2 / expected).sum() < 90.6
    assert deal_cards(1, 0, 2) != deal_cards(2, 0, 2)


def test_seat_rotations_in_lockstep_play_as_one_after_the_other(tmp_path, monkeypatch):
    """A duplicate match's rotations played in lockstep in one process (LOCKSTEP_DEALS deals each in turn,
    so that agents' caches serve a deal's replays) give the same hands, byte for byte, as one rotation
    after the other."""
    from pokerlab.arena import match

    lineup = ["loki1", "loki1-uniform", "random", "tight-aggressive"]
    runs = {}
    for lockstep, workers in ((0, 1), (3, 1), (1, 1)):
        monkeypatch.setattr(match, "LOCKSTEP_DEALS", lockstep)
        out = tmp_path / f"l{lockstep}w{workers}"
        result = duplicate_tournament(lineup, 10, seed=5, workers=workers, out=out)
        runs[lockstep, workers] = (result.nets.copy(), (out / "hands.csv").read_bytes())
        assert [s.hands_played for s in result.sessions] == [10, 10, 10, 10]
    first = runs[0, 1]
    assert np.abs(first[0]).sum() > 0
    for nets, csv in runs.values():
        assert np.array_equal(nets, first[0]) and csv == first[1]


def _workers_of(pid: int) -> list[int]:
    """The multiprocessing workers (spawned children) of process `pid`, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
            spawned = b"spawn_main" in (entry / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if entry.name.isdigit() and int(fields[1]) == pid and spawned:
            found.append(int(entry.name))
    return found


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def test_workers_end_with_a_killed_match(tmp_path):
    """A match killed outright (SIGKILL: no clean-up runs) leaves no worker process playing on."""
    out = str(tmp_path / "m")
    command = [sys.executable, "-m", "pokerlab", "match", "--agents", "random,call", "--hands", "10000000",
               "--sessions", "2", "--workers", "2", "--out", out, "--no-progress"]  # fmt: skip
    match = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while len(workers := _workers_of(match.pid)) < 2:
            assert time.monotonic() < deadline and match.poll() is None, "the workers did not start"
            time.sleep(0.1)
    finally:
        match.send_signal(signal.SIGKILL)
        match.wait()
    deadline = time.monotonic() + 10
    while any(_running(w) for w in workers):
        assert time.monotonic() < deadline, "a worker outlived the killed match"
        time.sleep(0.1)
