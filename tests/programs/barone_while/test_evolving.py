"""Barone & While's evolving player: docs/barone-while.md §12, tests BW-1 to BW-16, and the agent's life.

Numbers come from the spec's tables (derived there by a script) or from plain re-computations here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from pokerlab import parse_cards
from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents import make_agent
from pokerlab.agents.stereotypes import STYLES, StereotypeAgent, income_rate_cutoff
from pokerlab.analysis.income_rate import shipped_table
from pokerlab.analysis.starting_hands import STARTING_HANDS, combinations_of
from pokerlab.arena import play_match
from pokerlab.engine import GameConfig, HandState, seat_view
from pokerlab.errors import ConfigError, CorruptData
from pokerlab.holdings import HOLDING_CARDS
from pokerlab.programs.barone_while.agent import EvolvingAgent, multiway_x
from pokerlab.programs.barone_while.candidate import (
    GENE_MAX,
    gene_eval,
    log_responses,
    probabilities,
    reference_responses,
    sample_actions,
)
from pokerlab.programs.barone_while.config import EvolvingConfig
from pokerlab.programs.barone_while.hypercube import CELLS, Hypercube, mutate
from pokerlab.programs.barone_while.player_a import cell_genes, thresholds
from pokerlab.programs.barone_while.situation import (
    EARLY,
    LATE,
    MIDDLE,
    bets_to_call,
    hand_position,
    position_class,
    single_opponent_x,
)

ALWAYS_RAISE = [0.0, GENE_MAX, 0.5, 0.5, 0.0, GENE_MAX, GENE_MAX]
ALWAYS_CALL = [0.5, 0.0, 0.5, 0.0, GENE_MAX, 0.5, 0.0]
ALWAYS_FOLD = [GENE_MAX, GENE_MAX, 0.5, 0.5, 0.0, 0.5, 0.0]


def test_bw1_eval():
    assert [gene_eval(c) for c in (0.0, 0.5, 0.75, 0.9)] == pytest.approx([0, 1, 3, 9], abs=1e-12)


def test_bw2_response_landmarks_and_the_plain_formulas():
    rng = np.random.default_rng(2)
    for genes in rng.uniform(0.01, 0.95, (50, 7)):
        a_f, _, a_c, _, c_c, a_r, _ = genes
        assert reference_responses(genes, a_f)[0] == pytest.approx(1.0, abs=1e-12)
        assert reference_responses(genes, 1 - a_r)[2] == pytest.approx(1.0, abs=1e-12)
        assert reference_responses(genes, a_c)[1] == pytest.approx(gene_eval(c_c), abs=1e-12)
        xs = np.linspace(0, 1, 2001)
        assert abs(xs[np.argmax([reference_responses(genes, x)[1] for x in xs])] - a_c) <= 0.0005
        for x in (0.0, 0.3, 0.77, 1.0):  # the log-space kernel equals the paper's formulas
            assert np.exp(log_responses(genes, x)) == pytest.approx(reference_responses(genes, x), rel=1e-12)


SAME = (0.4, 0.8, 0.55, 0.75, 0.6, 0.3, 0.8)
BW3_ROWS = [
    ((0.5,) * 7, 0.0, (0.5434, 0.2567, 0.1999)),
    ((0.5,) * 7, 0.25, (0.4277, 0.3129, 0.2594)),
    ((0.5,) * 7, 0.5, (0.3333, 0.3333, 0.3333)),
    ((0.5,) * 7, 1.0, (0.1999, 0.2567, 0.5434)),
    (SAME, 0.0, (0.9688, 0.0193, 0.0119)),
    (SAME, 0.4, (0.3958, 0.4849, 0.1192)),
    (SAME, 0.55, (0.2113, 0.5775, 0.2113)),
    (SAME, 0.85, (0.0623, 0.2514, 0.6864)),
    (SAME, 1.0, (0.0248, 0.0664, 0.9088)),
    ((0.5, 0.5, 0.5, 0.5, 0.0, 0.5, 0.5), 0.3, (0.5987, 0.0, 0.4013)),
    ((0.3, 0.0, 0.5, 0.5, 0.5, 0.3, 0.0), 0.9, (0.3506, 0.2988, 0.3506)),
]


@pytest.mark.parametrize(("genes", "x", "expected"), BW3_ROWS)
def test_bw3_probability_table(genes, x, expected):
    assert probabilities(np.array(genes), x) == pytest.approx(expected, abs=5e-5)


def test_bw4_genes_at_the_top_do_not_overflow():
    probs = probabilities(np.full(7, GENE_MAX), 1.0)
    assert np.all(np.isfinite(probs)) and probs.sum() == pytest.approx(1.0)
    many = probabilities(np.random.default_rng(0).choice([0.0, GENE_MAX], (200, 7)), 1.0)
    assert np.all(np.isfinite(many)) and np.allclose(many.sum(axis=1), 1.0)


@pytest.mark.parametrize(
    ("hole", "expected"), [("As Ad", 0.852), ("Ac Kc", 0.6695), ("2s 2d", 0.5035), ("7s 2d", 0.346)]
)
def test_bw5_preflop_x(hole, expected):
    # the spec's values are Papp's Appendix A; the shipped IR2 table is our own 1,000,000-game simulation,
    # within one unit of IR (0.0005 of x) of it
    assert single_opponent_x(tuple(parse_cards(hole)), ()) == pytest.approx(expected, abs=0.0011)


def test_bw6_postflop_x():
    x1 = single_opponent_x(tuple(parse_cards("Ah 8h")), tuple(parse_cards("9h 8c 2c")))
    assert x1 == pytest.approx((903 + 6 / 2) / 1081, abs=1e-12)
    assert x1 == pytest.approx(0.8381, abs=5e-5) and x1**3 == pytest.approx(0.5887, abs=5e-5)


def test_bw7_position_classes():
    assert [position_class(i, 10) for i in range(10)] == [EARLY] * 3 + [MIDDLE] * 3 + [LATE] * 4
    assert [position_class(i, 6) for i in range(6)] == [EARLY, EARLY, MIDDLE, MIDDLE, LATE, LATE]
    assert [position_class(i, 2) for i in range(2)] == [EARLY, LATE]


def _state(n: int, actions=(), seed: int = 0) -> HandState:
    cards = [int(c) for c in np.random.default_rng(seed).permutation(52)[: 2 * n + 5]]
    state = HandState(GameConfig(stack=1000), cards[: 2 * n], cards[2 * n :], [1000] * n)
    for a in actions:
        state.act(a)
    return state


def test_bw7_position_of_a_view_counts_players_still_in():
    # pre-flop at 6 seats the acting order is positions 2, 3, 4, 5, 0, 1: position 2 is first (early)
    assert hand_position(seat_view(_state(6), 2)) == EARLY
    # after three folds, position 5 (the button) is the first of three still in: early
    state = _state(6, [FOLD, FOLD, FOLD])
    assert state.actor == 5 and hand_position(seat_view(state, 5)) == EARLY
    assert hand_position(seat_view(state, 5), among_active=False) == MIDDLE  # index 3 of 6 dealt in


def test_bw8_bets_to_call():
    state = _state(4, [CALL, CALL])  # two limpers, the small blind to act facing the big blind only
    assert state.actor == 0 and bets_to_call(seat_view(state, 0)) == 1
    assert bets_to_call(seat_view(state, 0), round_up=False) == 0
    state.act(CALL)  # the big blind when everybody limped
    assert state.actor == 1 and bets_to_call(seat_view(state, 1)) == 0
    state.act(CALL)  # flop: position 0 bets, 1 and 2 raise; position 3 faces a bet and two raises
    for a in (RAISE, RAISE, RAISE):
        state.act(a)
    assert state.actor == 3 and bets_to_call(seat_view(state, 3)) == 3


MIXED = ["tight-passive"] * 3 + ["loose-aggressive"] * 6


def _player(**kwargs) -> EvolvingAgent:
    return EvolvingAgent(segments=("tight-passive", "loose-aggressive"), **kwargs)


def test_bw9_cycling():
    cube = Hypercube(("any",), np.random.default_rng(0).random((CELLS, 20, 7)), EvolvingConfig())
    for _ in range(40):
        cube.consulted([7], np.random.default_rng(0))
    assert cube.uses[7].tolist() == [2] * 20 and cube.pointer[7] == 0 and cube.uses[8].sum() == 0


def test_bw9_one_representative_per_population_within_a_hand():
    player = _player(seat_styles=[None] + MIXED)
    seen: dict[tuple[int, int], set[int]] = {}
    hands = [0]
    begin, representative = player.begin_hand, player.cube.representative

    def counting_begin(start):
        hands[0] += 1
        begin(start)

    def recording(p):
        seen.setdefault((hands[0], p), set()).add(int(player.cube.pointer[p]))
        return representative(p)

    player.begin_hand, player.cube.representative = counting_begin, recording
    play_match([player, *MIXED], 300, GameConfig(stack=1000), seed=3, rebuy=100)
    assert len(seen) > 300 and all(len(members) == 1 for members in seen.values())
    assert max(player.cube.uses.max(), 1) >= 1


def _decision_view(n_players: int, actions=(), seed: int = 0):
    state = _state(n_players, actions, seed)
    return seat_view(state, state.actor)


def _set_segment(player: EvolvingAgent, segment: int, genes) -> None:
    player.cube.genes[segment * CELLS : (segment + 1) * CELLS] = np.asarray(genes)


def test_bw10_tightest_suggestion_is_played():
    # four players pre-flop: position 2 acts first; opponents after it: 3 (seat A), 0 (seat B), 1 (seat A)
    player = EvolvingAgent(segments=("A", "B"), seat_styles=["A", "B", None, "A"])
    player.begin_hand(None)
    _set_segment(player, 0, ALWAYS_RAISE)
    _set_segment(player, 1, ALWAYS_CALL)
    assert player.act(_decision_view(4)) == CALL
    assert player._decisions[-1][0] // CELLS == 1  # the call came from segment B's population
    # {raise, fold} with nothing to call: the big blind after three limps checks
    _set_segment(player, 1, ALWAYS_FOLD)
    view = _decision_view(4, [CALL, CALL, CALL])
    assert view.position == 1 and view.to_call == 0
    player.begin_hand(None)
    assert player.act(view) == CALL
    player.config = EvolvingConfig(fold_when_free="fold")
    assert player.act(view) == FOLD


def test_bw11_credit_with_shared_u():
    """Each hand's credit, re-computed with the plain formulas: the representative and every member whose
    CDF maps the decision's u to the played action gain R once, however often the hand consulted them."""
    player = EvolvingAgent(start="random", init_seed=4)
    end, hands = player.end_hand, []

    def logging_end(hand_end):
        cube = player.cube
        before = cube.credit_count.copy(), cube.credit_sum.copy(), cube.pointer.copy(), cube.genes.copy()
        decisions = list(player._decisions)
        end(hand_end)
        after = cube.credit_count - before[0], cube.credit_sum - before[1]
        hands.append((decisions, before[2], before[3], hand_end.nets[hand_end.position], after))

    player.end_hand = logging_end
    play_match([player, "loose-aggressive", "tight-passive"], 80, GameConfig(stack=1000), seed=5, rebuy=100)
    assert player.cube.generation.max() == 0  # no reproduction in 80 hands: arrays stay comparable
    repeated = 0
    for decisions, pointers, genes, result, (counts, sums) in hands:
        expected = np.zeros_like(counts)
        for p, members in _expected(decisions, pointers, genes).items():
            expected[p, sorted(members)] = 1
        assert np.array_equal(counts, expected)
        assert np.allclose(sums, expected * result)
        populations = [d[0] for d in decisions]
        repeated += len(populations) != len(set(populations))
    assert sum(1 for h in hands if h[0]) > 40 and repeated >= 1


def _expected(decisions, pointers, genes) -> dict[int, set[int]]:
    expected: dict[int, set[int]] = {}
    for p, _member, x, u, action, legalise in decisions:
        members = {int(pointers[p])}
        for m in range(20):
            f, c, r = reference_responses(genes[p, m], x)
            total = f + c + r
            raw = FOLD if u < f / total else CALL if u < (f + c) / total else RAISE
            if legalise[raw] == action:
                members.add(m)
        expected.setdefault(p, set()).update(members)
    return expected


def _cube(**config) -> Hypercube:
    return Hypercube(("any",), np.random.default_rng(1).random((CELLS, 20, 7)), EvolvingConfig(**config))


def test_bw12_reproduction_after_the_500th_consulting_hand():
    cube, rng = _cube(), np.random.default_rng(0)
    for hand in range(1, 501):
        cube.credit(3, np.array([hand % 20 == 0] * 20), 1.0)
        assert cube.consulted([3], rng) == ([3] if hand == 500 else [])
        assert cube.generation[3] == (hand == 500)
    assert cube.uses[3].sum() == 0 and cube.credit_count[3].sum() == 0


def test_bw13_mutation_stays_in_bounds_and_sigma_zero_copies():
    rng = np.random.default_rng(0)
    parents = rng.choice([0.0, 0.01, 0.5, 0.99, GENE_MAX], (2000, 7))
    for sigma in (0.05, 0.25, 0.9):
        child = mutate(parents, np.full(2000, sigma), rng)
        assert child.min() >= 0.0 and child.max() <= GENE_MAX
    assert np.array_equal(mutate(parents, np.zeros(2000), rng), parents)
    logs = mutate(parents, np.full(2000, 0.25), rng, "log_eval")
    assert logs.min() >= 0.0 and logs.max() <= GENE_MAX
    # reflection: 0.98 + 0.05 lands on 0.97, 0.02 - 0.05 on 0.03 (plain arithmetic)
    fixed = np.random.default_rng(9)
    step = np.random.default_rng(9).standard_normal((1, 7)) * 0.05
    got = mutate(np.full((1, 7), 0.98), np.array([0.05]), fixed)
    want = [0.98 + s if 0.98 + s <= 1 else 2 - (0.98 + s) for s in step[0]]
    assert got[0] == pytest.approx(want, abs=1e-12)


def test_bw14_one_plus_one_selection():
    cube, rng = _cube(sigma=0.0), np.random.default_rng(0)
    first = cube.genes[0].copy()
    cube.credit(0, np.arange(20) < 10, 5.0)  # members 0-9 earn 5; 10-19 never credited
    cube.reproduce(0, rng)  # generation 0: every playing candidate becomes its slot's parent
    assert np.array_equal(cube.parent[0], first)
    assert cube.parent_fitness[0, :10].tolist() == [5.0] * 10 and np.isnan(cube.parent_fitness[0, 10:]).all()
    cube.genes[0] = np.random.default_rng(7).random((20, 7))  # children that differ from their parents
    children = cube.genes[0].copy()
    cube.credit(0, np.arange(20) < 3, 5.0)  # slots 0-2: equal fitness -> replace
    cube.credit(0, (np.arange(20) >= 3) & (np.arange(20) < 6), 4.0)  # slots 3-5: lower -> keep parent
    cube.credit(0, np.arange(20) == 10, -50.0)  # slot 10: parent never credited -> any credited child wins
    cube.reproduce(0, rng)  # slots 6-9, 11-19: children never credited -> parents stay
    assert np.array_equal(cube.parent[0, :3], children[:3])
    assert np.array_equal(cube.parent[0, 3:10], first[3:10])
    assert np.array_equal(cube.parent[0, 10], children[10])
    assert np.array_equal(cube.parent[0, 11:], first[11:])
    assert cube.parent_fitness[0, 10] == -50.0 and cube.parent_fitness[0, 3] == 5.0


def test_remeasured_parent_fitness_is_the_running_mean_of_its_measurements():
    cube, rng = _cube(sigma=0.0, parent_rule="remeasure"), np.random.default_rng(0)
    first = cube.genes[0].copy()
    cube.credit(0, np.arange(20) < 2, 30.0)  # generation 0: slots 0-1 lucky, +30
    cube.reproduce(0, rng)
    assert cube.parent_fitness[0, :2].tolist() == [30.0, 30.0] and cube.parent_evals[0, :3].tolist() == [
        1,
        1,
        0,
    ]
    assert np.array_equal(cube.genes[0], first)  # generation 1 replays the parents
    cube.credit(0, np.arange(20) == 0, -6.0)  # slot 0's replay: -6 -> running mean (30 - 6) / 2 = 12
    cube.credit(0, np.arange(20) == 2, 4.0)  # slot 2 (never measured before): 4
    cube.reproduce(0, rng)  # no comparison: slot 1's replay never credited keeps 30 from one measurement
    assert cube.parent_fitness[0, :3].tolist() == [12.0, 30.0, 4.0]
    assert cube.parent_evals[0, :3].tolist() == [2, 1, 1]
    assert np.array_equal(cube.parent[0], first)
    cube.genes[0] = np.random.default_rng(7).random((20, 7))  # generation 2: children
    children = cube.genes[0].copy()
    cube.credit(
        0, np.arange(20) == 0, 13.0
    )  # 13 >= 12: replaces the parent (the record alone, 30, would not)
    cube.credit(0, np.arange(20) == 1, 13.0)  # 13 < 30: parent kept
    cube.reproduce(0, rng)
    assert np.array_equal(cube.parent[0, 0], children[0]) and np.array_equal(cube.parent[0, 1], first[1])
    assert cube.parent_fitness[0, :2].tolist() == [13.0, 30.0] and cube.parent_evals[0, :2].tolist() == [1, 1]
    assert np.array_equal(cube.genes[0], cube.parent[0])  # generation 3 replays again


def test_faithful_parent_fitness_is_the_single_record():
    cube, rng = _cube(sigma=0.0), np.random.default_rng(0)
    cube.credit(0, np.arange(20) == 0, 30.0)
    cube.reproduce(0, rng)
    cube.credit(0, np.arange(20) == 0, 13.0)  # the child (a copy: sigma 0) earns 13 < 30: the record stays
    cube.reproduce(0, rng)
    assert cube.parent_fitness[0, 0] == 30.0


def test_player_a_n_reads_preflop_x_on_player_a_scale():
    x1 = 0.6
    assert multiway_x(x1, 3, 0, 0, "power") == pytest.approx(0.6**3)
    assert multiway_x(x1, 3, 0, 0, "single") == 0.6
    # pre-flop: x1^9 / x1^7 / x1^4 by position whatever the live 3 opponents; after the flop x1^n
    for position, n_ref in enumerate((9, 7, 4)):
        assert multiway_x(x1, 3, 0, position, "player_a_n") == pytest.approx(0.6**n_ref)
    assert multiway_x(x1, 3, 1, 0, "player_a_n") == pytest.approx(0.216)
    # player A late, no bet to call: continue threshold 0.52^4; x1 = 0.53 continues against 1 or 9 live
    # opponents alike, where "power" would fold it against 9 (0.53^9 = 0.0033 < 0.0731)
    t_c, _ = thresholds(0, 2, 0)
    assert t_c == pytest.approx(0.52**4)
    for live in (1, 9):
        assert multiway_x(0.53, live, 0, 2, "player_a_n") > t_c
    assert multiway_x(0.53, 9, 0, 2, "power") < t_c < multiway_x(0.53, 1, 0, 2, "power")


def test_one_fifth_rule_widens_after_successes_and_narrows_after_failures():
    cube, rng = _cube(one_fifth_rule=True, one_fifth_window=2), np.random.default_rng(0)
    cube.credit(0, np.ones(20, bool), 0.0)
    cube.reproduce(0, rng)  # parents recorded, no comparison yet
    for _ in range(2):
        cube.credit(0, np.arange(20) < 10, 1.0)  # slots 0-9 succeed, 10-19 fail
        cube.credit(0, np.arange(20) >= 10, -1.0)
        cube.reproduce(0, rng)
    # slots 0-9: first success 1 >= 0, then 1 >= 1 again; slots 10-19: -1 < 0 twice
    assert cube.sigma[0, :10] == pytest.approx([0.05 / 0.85] * 10)
    assert cube.sigma[0, 10:] == pytest.approx([0.05 * 0.85] * 10)


def _spec_fraction(table: int, top: float) -> float:
    """Fraction of the 1,326 holdings at or above the cut-off, counted by hand type (combinations)."""
    rates = shipped_table(table).income_rate
    cutoff = income_rate_cutoff(table, top)
    return sum(combinations_of(t) for t in STARTING_HANDS if rates[t] >= cutoff) / 1326


SPEC_IR7 = {0.03: 0.032, 0.10: 0.109, 0.20: 0.202, 0.30: 0.305, 0.35: 0.351, 0.60: 0.602}


@pytest.mark.parametrize("style", sorted(STYLES))
def test_bw15_stereotype_preflop_ranges_first_to_act_at_ten(style):
    agent = StereotypeAgent(style)
    played = raised = 0
    cards = np.arange(52)
    for hole in HOLDING_CARDS:
        rest = [int(c) for c in cards if c not in hole][:23]
        holes = rest[:4] + [int(hole[0]), int(hole[1])] + rest[4:18]
        state = HandState(GameConfig(stack=1000), holes, rest[18:23], [1000] * 10)
        action = agent.act(seat_view(state, 2))  # position 2 acts first pre-flop
        played += action != FOLD
        raised += action == RAISE
    params = STYLES[style]
    assert played / 1326 == pytest.approx(_spec_fraction(7, params.play_fraction), abs=1e-12)
    assert raised / 1326 == pytest.approx(_spec_fraction(7, params.raise_fraction), abs=1e-12)
    # the spec's fractions come from Papp's tables, ours from the shipped simulation: within 0.6 points
    assert abs(played / 1326 - SPEC_IR7[params.play_fraction]) < 0.006
    assert abs(raised / 1326 - SPEC_IR7[params.raise_fraction]) < 0.006


PLAYER_A_ROWS = [  # (stage, bets, position), t_c, t_r, genes, P at t_c, at the midpoint, at t_r
    (
        (0, 1, EARLY),
        (0.0180, 0.0311),
        (0.018, 0.997, 0.0246, 0.9935, 0.5, 0.9689, 0.9948),
        ((0.691, 0.254, 0.055), (0.081, 0.716, 0.203), (0.009, 0.266, 0.724)),
    ),
    (
        (0, 1, LATE),
        (0.0850, 0.1296),
        (0.085, 0.986, 0.1073, 0.9782, 0.5, 0.8704, 0.9789),
        ((0.669, 0.246, 0.085), (0.133, 0.639, 0.228), (0.031, 0.261, 0.709)),
    ),
    (
        (1, 0, MIDDLE),
        (0.55, 0.70),
        (0.55, 0.916, 0.625, 0.9302, 0.5, 0.30, 0.8955),
        ((0.608, 0.224, 0.168), (0.224, 0.508, 0.267), (0.125, 0.235, 0.640)),
    ),
    (
        (3, 1, LATE),
        (0.57, 0.71),
        (0.57, 0.9132, 0.64, 0.9346, 0.5, 0.29, 0.8942),
        ((0.597, 0.220, 0.183), (0.236, 0.492, 0.272), (0.143, 0.230, 0.626)),
    ),
    (
        (3, 3, EARLY),
        (0.73, 0.85),
        (0.73, 0.8915, 0.79, 0.9434, 0.5, 0.15, 0.8759),
        ((0.557, 0.205, 0.239), (0.270, 0.441, 0.289), (0.214, 0.211, 0.574)),
    ),
]


@pytest.mark.parametrize(("cell", "targets", "genes", "probs"), PLAYER_A_ROWS)
def test_bw16_player_a(cell, targets, genes, probs):
    stage, bets, position = cell
    t_c, t_r = thresholds(stage, position, bets)
    assert (t_c, t_r) == pytest.approx(targets, abs=5e-5)
    a = cell_genes(stage, position, bets)
    assert a == pytest.approx(genes, abs=5e-4)
    for x, expected in zip((t_c, (t_c + t_r) / 2, t_r), probs, strict=True):
        assert probabilities(a, x) == pytest.approx(expected, abs=1.5e-3)


# -- the agent's life: learning, freezing, files ---------------------------------------------------------


def test_the_player_learns_freezes_and_round_trips_through_a_file(tmp_path):
    small = EvolvingConfig(population_size=4, uses_per_generation=5)  # reproduction every 20 consults
    player = _player(config=small, seat_styles=[None] + MIXED, init_seed=3)
    start = player.cube.genes.copy()
    play_match([player, *MIXED], 600, GameConfig(stack=1000), seed=1, rebuy=100)
    assert player.cube.generation.max() >= 1 and not np.array_equal(player.cube.genes, start)
    path = player.save(tmp_path / "bw.npz")
    other = _player(config=small)
    other_start = other.cube.genes.copy()
    other.load(path)
    assert other.cube.segments == player.cube.segments
    assert np.array_equal(other.cube.genes, player.cube.genes)
    assert np.array_equal(other.cube.parent_fitness, player.cube.parent_fitness, equal_nan=True)
    other.tell_styles([None] + MIXED)
    other.freeze()
    genes, credits = other.cube.genes.copy(), other.cube.credit_count.copy()
    play_match([other, *MIXED], 300, GameConfig(stack=1000), seed=2, rebuy=100)
    assert np.array_equal(other.cube.genes, genes) and np.array_equal(other.cube.credit_count, credits)
    other.forget()  # back to its own starting populations
    assert np.array_equal(other.cube.genes, other_start) and other.cube.credit_count.sum() == 0


def test_one_segment_of_an_evolved_player_plays_everybody(tmp_path):
    player = _player(start="player_a")
    player.cube.genes[CELLS:] = 0.3  # the loose-aggressive segment, marked
    tight = player.cube.segment("tight-passive")
    assert tight.segments == ("tight-passive",) and np.allclose(tight.genes, player.cube.genes[:CELLS])
    loose = player.cube.segment("loose-aggressive")
    assert np.allclose(loose.genes, 0.3)
    with pytest.raises(ConfigError, match="no segment 'tight-aggressive'"):
        player.cube.segment("tight-aggressive")


def test_a_saved_player_plays_by_name_one_segment_frozen(tmp_path):
    player = _player(start="player_a")
    player.cube.genes[CELLS:] = 0.3  # the loose-aggressive segment, marked
    path = player.save(tmp_path / "evolved.npz")
    loaded = make_agent(f"bw:{path}@loose-aggressive")
    assert loaded.frozen and loaded.cube.segments == ("loose-aggressive",)
    assert np.allclose(loaded.cube.genes, 0.3)
    by_hand = _player(start="player_a")  # the same player built by hand: A^loose of this file, frozen
    by_hand.cube = player.cube.segment("loose-aggressive")
    by_hand.freeze()
    played = [play_match([p, "call", "tight-passive"], 60, seed=4) for p in (loaded, by_hand)]
    assert np.array_equal(played[0].nets, played[1].nets) and played[0].nets.any()
    assert np.allclose(loaded.cube.genes, 0.3) and loaded.cube.credit_count.sum() == 0
    tight = play_match([f"bw:{path}@tight-passive", "call"], 40, seed=4)
    assert np.array_equal(tight.nets, play_match([f"bw:{path}@tight-passive", "call"], 40, seed=4).nets)
    with pytest.raises(ConfigError, match=r"holds 2 opponent segments \(tight-passive, loose-aggressive\)"):
        make_agent(f"bw:{path}")
    with pytest.raises(ConfigError, match="no segment 'tight'"):
        make_agent(f"bw:{path}@tight")
    with pytest.raises(ConfigError, match="no agent file"):
        make_agent(f"bw:{tmp_path / 'missing.npz'}@tight-passive")


def test_bad_settings_and_files_say_what_is_wrong(tmp_path):
    with pytest.raises(ConfigError, match="multiway_x must be one of 'power', 'single'"):
        EvolvingConfig(multiway_x="product")
    with pytest.raises(ConfigError, match="sigma must be a number in"):
        EvolvingConfig(sigma=2)
    with pytest.raises(ConfigError, match="unknown start 'smart'"):
        EvolvingAgent(start="smart")
    with pytest.raises(ConfigError, match="seat 1 plays 'maniac'"):
        _player(seat_styles=[None, "maniac"])
    path = EvolvingAgent(config=EvolvingConfig(population_size=5)).save(tmp_path / "five.npz")
    with pytest.raises(CorruptData, match="populations of 20"):
        EvolvingAgent().load(path)


def test_sample_actions_follow_the_cumulative_order():
    probs = np.array([0.2, 0.5, 0.3])
    assert sample_actions(probs, np.array([0.0, 0.199, 0.2, 0.699, 0.7, 0.999])).tolist() == [
        0,
        0,
        1,
        1,
        2,
        2,
    ]
    assert math.isclose(float(probabilities(np.full(7, 0.5), 0.5).sum()), 1.0)


def test_truncation_scheme_breeds_from_the_best_quarter():
    cube, rng = _cube(es_scheme="truncation", sigma=0.0), np.random.default_rng(0)
    before = cube.genes[5].copy()
    fitness = np.arange(20, dtype=float)  # member m earns m; members 0 and 1 never credited
    for m in range(2, 20):
        cube.credit(5, np.arange(20) == m, fitness[m])
    cube.reproduce(5, rng)
    best = [19, 18, 17, 16, 15]
    assert np.array_equal(cube.genes[5], before[[best[k % 5] for k in range(20)]])
    assert cube.generation[5] == 1 and cube.credit_count[5].sum() == 0


@pytest.mark.parametrize(
    "settings",
    [
        {"multiway_x": "single"},
        {"position_rule": "dealt_order", "bets_rounding": "floor"},
        {"opponent_segments": "seat"},
        {"shared_u": False, "suggest_rule": "argmax"},
        {"credit_once_per_hand": False, "fitness": "sum"},
        {"mutate_space": "log_eval", "one_fifth_rule": True},
        {"es_scheme": "truncation", "fold_when_free": "fold"},
        {"parent_rule": "remeasure", "multiway_x": "player_a_n"},
        {"es_scheme": "paired", "mutate_space": "log_eval"},
    ],
)
def test_every_switch_plays_and_evolves(settings):
    config = EvolvingConfig(population_size=4, uses_per_generation=3, **settings)
    player = _player(config=config, seat_styles=[None] + MIXED, init_seed=2)
    start = player.cube.genes.copy()
    result = play_match([player, *MIXED], 300, GameConfig(stack=1000), seed=6, rebuy=100)
    assert result.faults[0] == 0 and player.cube.generation.max() >= 1
    assert not np.array_equal(player.cube.genes, start)
    if settings.get("opponent_segments") == "seat":
        assert len(player.cube.segments) == 10 and player.cube.generation.reshape(10, -1)[0].max() == 0


def test_argmax_rule_credits_the_members_whose_most_probable_action_was_played():
    player = EvolvingAgent(EvolvingConfig(suggest_rule="argmax"), init_seed=4)
    end, hands = player.end_hand, []

    def logging_end(hand_end):
        cube = player.cube
        before = cube.credit_count.copy(), cube.pointer.copy(), cube.genes.copy(), list(player._decisions)
        end(hand_end)
        hands.append((*before, cube.credit_count - before[0]))

    player.end_hand = logging_end
    play_match([player, "loose-aggressive", "tight-passive"], 60, GameConfig(stack=1000), seed=5, rebuy=100)
    for _, pointers, genes, decisions, counts in hands:
        expected = np.zeros_like(counts)
        for p, _member, x, _, action, legalise in decisions:
            for m in range(20):
                responses = reference_responses(genes[p, m], x)
                if legalise[int(np.argmax(responses))] == action or m == pointers[p]:
                    expected[p, m] = 1
        assert np.array_equal(counts, expected)


def test_frozen_average_play_uses_each_populations_mean_candidate():
    player = _player(config=EvolvingConfig(frozen_play="average"), seat_styles=[None] + MIXED)
    player.cube.genes[:, :10] = ALWAYS_FOLD  # half of every population folds, half raises
    player.cube.genes[:, 10:] = ALWAYS_RAISE
    player.freeze()
    average = player.cube.average()
    assert np.allclose(average, (np.array(ALWAYS_FOLD) + np.array(ALWAYS_RAISE)) / 2)
    view = _decision_view(4)
    player.tell_styles(["tight-passive", "loose-aggressive", None, "tight-passive"])
    player.begin_hand(None)
    action = player.act(view)
    p, _member, x, u, played, legalise = player._decisions[-1]
    assert played == action == legalise[int(sample_actions(probabilities(average[p], x), u))]


def test_a_file_without_parent_evals_counts_one_measurement_per_parent():
    cube, rng = _cube(), np.random.default_rng(0)
    cube.credit(0, np.arange(20) < 4, 1.0)
    cube.reproduce(0, rng)
    state = {k: v for k, v in cube.state().items() if k != "parent_evals"}  # a file of the older version
    again = Hypercube.from_state(state, cube.config)
    assert np.array_equal(again.parent_evals, cube.has_parent.astype(np.int64))
    assert again.parent_evals[0].sum() == 20


def test_paired_scheme_compares_each_parent_with_its_child_of_the_same_generation():
    cube, rng = _cube(es_scheme="paired", sigma=0.0), np.random.default_rng(0)
    before = cube.genes[7].copy()
    # pair k: parent 2k earns 10, child 2k + 1 earns 10 + (k - 5): children 5-9 tie or win; child of pair 0
    # never credited, parent of pair 9 never credited (a credited child beats it)
    for k in range(10):
        if k != 9:
            cube.credit(7, np.arange(20) == 2 * k, 10.0)
        if k != 0:
            cube.credit(7, np.arange(20) == 2 * k + 1, 10.0 + (k - 5))
    cube.reproduce(7, rng)
    winners = [2 * k + (k >= 5) for k in range(10)]
    assert np.array_equal(cube.genes[7, 0::2], before[winners])
    assert np.array_equal(cube.genes[7, 1::2], before[winners])  # sigma 0: the child copies its parent
    assert cube.generation[7] == 1 and cube.credit_count[7].sum() == 0
    cube = _cube(es_scheme="paired", sigma=0.1)
    cube.reproduce(2, rng)  # nobody credited: the parents stay, every child is a fresh mutation
    assert np.array_equal(cube.genes[2, 0::2], _cube().genes[2, 0::2])
    assert not np.array_equal(cube.genes[2, 1::2], cube.genes[2, 0::2])
    with pytest.raises(ConfigError, match="even population_size"):
        EvolvingConfig(es_scheme="paired", population_size=5)
