"""The hypercube of Barone & While 2000 §3.3: one population of candidates per (opponent segment, stage,
position, bets to call), each evolved by a (1+1) evolution strategy (docs/barone-while.md §5-8).

Arrays, population index first (``index(segment, stage, position, bets)``), member second:

* ``genes``: the playing candidates (P, M, 7); ``parent`` / ``parent_fitness`` / ``has_parent``: each
  slot's parent and the fitness it earned (NaN: never credited); ``parent_evals``: how many
  measurements that fitness averages;
* ``credit_sum`` / ``credit_count``: feedback R credited since the last reproduction; ``uses``: hands in
  which the member was the representative of a consulted population (``uses_rule = "per_hand"``),
  consultations that it answered (``"per_consultation"``) or hands it was credited on (``"per_credit"``);
  ``pointer``: the representative;
* ``sigma`` / ``successes`` / ``comparisons``: each slot's mutation step and its one-fifth-rule tally;
  ``generation``: reproductions per population.

A population reproduces when each member has been used ``uses_per_generation`` times (every 500
consulting hands with 20 members and 25 uses, §8): per slot, the playing candidate replaces the parent if
the slot has none yet or its fitness is at least the parent's (a parent never credited counts as -inf; a
child never credited never replaces), then a child is made from the parent by Gaussian mutation, reflected
into [0, 1 - 1e-9]. With ``parent_rule = "remeasure"`` [OUR CHOICE, a repair] the generations alternate:
after a comparison the slots replay their parents, whose fitness becomes the running mean of all their
measurements (``parent_evals``), so one lucky record no longer blocks every child.
The alternative ``es_scheme = "truncation"`` [OUR CHOICE] is a (mu, lambda)-ES over the whole
population: the best quarter of the playing candidates by fitness (never credited: last) become the
parents, each of the next generation's members a mutated copy of one of them, in rank order.
``es_scheme = "paired"`` [OUR CHOICE, a repair] keeps the (1+1)-ES but plays each parent (member 2k) beside
its child (member 2k + 1) in the same generation: both are measured on the same hands, credited alike
whenever they suggest the same action, so their difference is no longer buried in the luck of two
different sets of hands (docs/barone-while.md §14).
"""

from __future__ import annotations

import numpy as np

from pokerlab.errors import ConfigError, CorruptData
from pokerlab.programs.barone_while.candidate import GENE_MAX, GENES, gene_eval, gene_from_eval
from pokerlab.programs.barone_while.config import EvolvingConfig
from pokerlab.programs.barone_while.situation import MAX_BETS_TO_CALL, POSITIONS, STAGES

CELL_SHAPE = (len(STAGES), len(POSITIONS), MAX_BETS_TO_CALL + 1)  # stage, position, bets to call
CELLS = int(np.prod(CELL_SHAPE))  # 48 populations per opponent segment
#: One-fifth rule factor (Rechenberg; docs/barone-while.md §8).
ONE_FIFTH_FACTOR = 0.85
_ARRAYS = (
    "genes",
    "parent",
    "parent_fitness",
    "has_parent",
    "credit_sum",
    "credit_count",
    "uses",
    "pointer",
    "sigma",
    "successes",
    "comparisons",
    "generation",
    "parent_evals",
)
#: Arrays a file of an older version may lack, and how to rebuild them from the others.
_OPTIONAL = {"parent_evals": lambda state: np.asarray(state["has_parent"], dtype=np.int64)}


def mutate(parent: np.ndarray, sigma, rng: np.random.Generator, space: str = "genes") -> np.ndarray:
    """A child of `parent` (..., 7): every gene plus N(0, sigma^2), reflected at 0 and 1 and clamped to
    [0, 1 - 1e-9] (``space = "genes"``), or ln eval(gene) plus N(0, (4 sigma)^2) (``"log_eval"``)
    (docs/barone-while.md §8). `sigma` broadcasts against parent[..., 0]."""
    step = rng.standard_normal(parent.shape) * np.asarray(sigma)[..., None]
    if space == "log_eval":
        inner = np.clip(parent, 1e-9, GENE_MAX)
        return np.clip(gene_from_eval(np.exp(np.log(gene_eval(inner)) + 4.0 * step)), 0.0, GENE_MAX)
    child = np.mod(parent + step, 2.0)  # reflect at 0 and 1: fold onto [0, 2), mirror (1, 2) back
    child = np.where(child > 1.0, 2.0 - child, child)
    return np.clip(child, 0.0, GENE_MAX)


class Hypercube:
    """The populations of one evolving player: ``segments`` name the opponent segments (stereotype labels,
    or seats); every population starts as `start` (segments x 48 cells x members x 7, or broadcastable)."""

    def __init__(self, segments: tuple[str, ...], start: np.ndarray, config: EvolvingConfig) -> None:
        if not segments:
            raise ConfigError("a hypercube needs at least one opponent segment")
        self.segments = tuple(segments)
        self.config = config
        m = config.population_size
        count = len(self.segments) * CELLS
        genes = np.broadcast_to(np.asarray(start, dtype=np.float64), (len(self.segments), CELLS, m, 7))
        self.genes = np.clip(genes.reshape(count, m, 7), 0.0, GENE_MAX).copy()
        self.parent = self.genes.copy()
        self.parent_fitness = np.full((count, m), np.nan)
        self.has_parent = np.zeros((count, m), dtype=bool)
        self.credit_sum = np.zeros((count, m))
        self.credit_count = np.zeros((count, m), dtype=np.int64)
        self.uses = np.zeros((count, m), dtype=np.int64)
        self.pointer = np.zeros(count, dtype=np.int64)
        self.sigma = np.full((count, m), float(config.sigma))
        self.successes = np.zeros((count, m), dtype=np.int64)
        self.comparisons = np.zeros((count, m), dtype=np.int64)
        self.generation = np.zeros(count, dtype=np.int64)
        self.parent_evals = np.zeros((count, m), dtype=np.int64)

    def index(self, segment: int, stage: int, position: int, bets: int) -> int:
        """The population of a segment and cell (stage 0-3, position 0-2, bets to call 0-3)."""
        return ((segment * CELL_SHAPE[0] + stage) * CELL_SHAPE[1] + position) * CELL_SHAPE[2] + bets

    def representative(self, population: int) -> np.ndarray:
        """The member the population's cycling pointer names (docs/barone-while.md §6)."""
        return self.genes[population, self.pointer[population]]

    def average(self) -> np.ndarray:
        """Each population's average candidate (P, 7): what Figs. 2-3 of the paper draw."""
        return self.genes.mean(axis=1)

    # -- feedback and reproduction (docs/barone-while.md §7-8) -----------------------------------------

    def credit(self, population: int, members: np.ndarray, result: float) -> None:
        """Credit the hand's result (chips) to the members (bool mask or indices) of a population; with
        ``uses_rule = "per_credit"`` each credit is also a use of the member."""
        self.credit_sum[population, members] += result
        self.credit_count[population, members] += 1
        if self.config.uses_rule == "per_credit":
            self.uses[population, members] += 1

    def use(self, population: int) -> None:
        """Move the population's pointer to the next member, counting a use of the representative (but
        with ``uses_rule = "per_credit"``, where credits are the uses)."""
        if self.config.uses_rule != "per_credit":
            self.uses[population, self.pointer[population]] += 1
        self.pointer[population] = (self.pointer[population] + 1) % self.config.population_size

    def due(self, population: int) -> bool:
        """Whether the population has been used enough to reproduce: every member ``uses_per_generation``
        times, or with ``uses_rule = "per_credit"`` that many credits a member on average."""
        config = self.config
        if config.uses_rule == "per_credit":
            return bool(self.uses[population].sum() >= config.uses_per_generation * config.population_size)
        return bool(self.uses[population].min() >= config.uses_per_generation)

    def consulted(self, populations, rng: np.random.Generator, evolve: bool = True) -> list[int]:
        """End of a hand: with ``uses_rule = "per_hand"`` each consulted population counts a use of its
        representative and moves its pointer (with ``"per_consultation"`` the player did so at every
        consultation); with `evolve`, those whose members have all been used enough reproduce. Returns the
        populations that reproduced."""
        done = []
        per_hand = self.config.uses_rule == "per_hand"
        for p in populations:
            if per_hand:
                self.use(p)
            if evolve and self.due(p):
                self.reproduce(p, rng)
                done.append(p)
        return done

    def fitness(self, population: int) -> np.ndarray:
        """Each member's fitness since the last reproduction: mean (or sum) of its credited results; NaN for
        a member never credited."""
        count = self.credit_count[population]
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.config.fitness == "mean":
                return np.where(count > 0, self.credit_sum[population] / count, np.nan)
            return np.where(count > 0, self.credit_sum[population], np.nan)

    def reproduce(self, population: int, rng: np.random.Generator) -> None:
        """One (1+1)-ES step in every slot of a population (docs/barone-while.md §8), or one truncation
        step."""
        if self.config.es_scheme == "truncation":
            self._truncate(population, rng)
        elif self.config.es_scheme == "paired":
            self._paired(population, rng)
        else:
            self._one_plus_one(population, rng)
        self.credit_sum[population] = 0.0
        self.credit_count[population] = 0
        self.uses[population] = 0
        self.pointer[population] = 0
        self.generation[population] += 1

    def _truncate(self, p: int, rng: np.random.Generator) -> None:
        fitness = self.fitness(p)
        members = len(fitness)
        ranked = np.argsort(np.where(np.isnan(fitness), np.inf, -fitness), kind="stable")
        best = ranked[: max(1, members // 4)]
        self.parent[p] = self.genes[p, best[np.arange(members) % len(best)]]
        self.parent_fitness[p] = fitness[best[np.arange(members) % len(best)]]
        self.has_parent[p] = True
        self.genes[p] = mutate(self.parent[p], self.sigma[p], rng, self.config.mutate_space)

    def _paired(self, p: int, rng: np.random.Generator) -> None:
        """``es_scheme = "paired"``: in each pair (parent 2k, child 2k + 1), measured in the same generation,
        the child becomes the parent if it was credited and its fitness is at least the parent's (a parent
        never credited loses to a credited child); the new child is a mutation of the pair's parent."""
        fitness = self.fitness(p)
        parent_f, child_f = fitness[0::2], fitness[1::2]
        better = ~np.isnan(child_f) & (child_f >= np.nan_to_num(parent_f, nan=-np.inf))
        winner = np.where(better, np.arange(1, len(fitness), 2), np.arange(0, len(fitness), 2))
        parents = self.genes[p, winner]
        self.parent[p] = np.repeat(parents, 2, axis=0)
        self.parent_fitness[p] = np.repeat(fitness[winner], 2)
        self.has_parent[p] = True
        self.genes[p, 0::2] = parents
        self.genes[p, 1::2] = mutate(parents, self.sigma[p, 1::2], rng, self.config.mutate_space)

    def _remeasured(self, p: int) -> bool:
        """``parent_rule = "remeasure"`` [OUR CHOICE, a repair]: True after a generation in which the slots
        replayed their parents (odd generations); each credited replay's fitness joins its parent's running
        mean (parent_evals measurements so far), with no comparison."""
        if self.config.parent_rule != "remeasure" or self.generation[p] % 2 == 0:
            return False
        fitness = self.fitness(p)
        measured = ~np.isnan(fitness) & self.has_parent[p]
        n = self.parent_evals[p]
        old = np.where(np.isnan(self.parent_fitness[p]), 0.0, self.parent_fitness[p])
        mean = (old * n + np.where(measured, fitness, 0.0)) / np.maximum(n + 1, 1)
        self.parent_fitness[p] = np.where(measured, mean, self.parent_fitness[p])
        self.parent_evals[p] += measured
        return True

    def _one_plus_one(self, p: int, rng: np.random.Generator) -> None:
        config = self.config
        if self._remeasured(p):
            self.genes[p] = mutate(self.parent[p], self.sigma[p], rng, config.mutate_space)
            return
        child_fitness = self.fitness(p)
        parent_fitness = np.where(np.isnan(self.parent_fitness[p]), -np.inf, self.parent_fitness[p])
        credited = ~np.isnan(child_fitness)
        better = credited & (child_fitness >= parent_fitness)
        replace = ~self.has_parent[p] | better
        self.parent[p, replace] = self.genes[p, replace]
        self.parent_fitness[p, replace] = child_fitness[replace]
        self.parent_evals[p, replace] = credited[replace]
        compared = self.has_parent[p] & credited  # a real comparison of a child with a parent
        self.has_parent[p] = True
        if config.one_fifth_rule:
            self.successes[p] += compared & better
            self.comparisons[p] += compared
            full = self.comparisons[p] >= config.one_fifth_window
            rate = self.successes[p] / np.maximum(self.comparisons[p], 1)
            factor = np.where(rate > 0.2, 1.0 / ONE_FIFTH_FACTOR, np.where(rate < 0.2, ONE_FIFTH_FACTOR, 1.0))
            self.sigma[p] = np.where(
                full, np.clip(self.sigma[p] * factor, config.sigma_min, config.sigma_max), self.sigma[p]
            )
            self.successes[p] = np.where(full, 0, self.successes[p])
            self.comparisons[p] = np.where(full, 0, self.comparisons[p])
        if config.parent_rule == "remeasure":  # the next generation replays the parents
            self.genes[p] = self.parent[p]
        else:
            self.genes[p] = mutate(self.parent[p], self.sigma[p], rng, config.mutate_space)

    # -- what was learned ---------------------------------------------------------------------------

    def state(self) -> dict[str, np.ndarray]:
        """Every array, shaped segments x stage x position x bets x ..., and the segment names."""
        shape = (len(self.segments), *CELL_SHAPE)
        out = {name: getattr(self, name).reshape(shape + getattr(self, name).shape[1:]) for name in _ARRAYS}
        out["segments"] = np.array(self.segments, dtype=np.str_)
        out["gene_names"] = np.array(GENES, dtype=np.str_)
        return out

    @classmethod
    def from_state(cls, state: dict[str, np.ndarray], config: EvolvingConfig) -> Hypercube:
        """The hypercube `state` describes; `CorruptData` naming what does not fit."""
        state = {
            **{k: f(state) for k, f in _OPTIONAL.items() if k not in state and "has_parent" in state},
            **state,
        }
        missing = sorted((set(_ARRAYS) | {"segments"}) - set(state))
        if missing:
            raise CorruptData(f"an evolving player's file lacks {missing}")
        segments = tuple(str(s) for s in np.atleast_1d(state["segments"]))
        m = config.population_size
        cube = cls(segments, np.zeros(7), config)
        for name in _ARRAYS:
            target = getattr(cube, name)
            value = np.asarray(state[name])
            expected = (len(segments), *CELL_SHAPE) + target.shape[1:]
            if value.shape != expected:
                raise CorruptData(
                    f"evolving player's {name!r} has shape {value.shape}, expected {expected} "
                    f"({len(segments)} segments, populations of {m})"
                )
            setattr(cube, name, value.reshape(target.shape).astype(target.dtype))
        return cube

    def segment(self, name: str) -> Hypercube:
        """A one-segment hypercube holding this one's populations for segment `name` (e.g. A^tight, the
        populations evolved against tight-passive players, Barone & While 2000 §4.4)."""
        if name not in self.segments:
            raise ConfigError(f"no segment {name!r}; this player has {', '.join(self.segments)}")
        s = self.segments.index(name)
        state = {k: v[s : s + 1] for k, v in self.state().items() if k in _ARRAYS}
        return Hypercube.from_state({**state, "segments": np.array([name])}, self.config)
