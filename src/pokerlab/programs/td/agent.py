"""The TD-Hold'em player (TD-Hold'em 2005 §4, docs/learning-spec-td.md §A.5-A.6): every decision from one
network, learning by TD(λ) from the end-of-hand result while it plays, unless frozen.

A `TDLearner` is what is learned (the network, hands trained, the chip means of the class outputs, the
seed's shared chain); a `TDAgent` is one seat using it. In self-play two agents share one learner, and with
``td_chain = "shared"`` also one chain across both seats' decisions (the article's defect, §A.7 item 1).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents.base import Agent
from pokerlab.agents.policy import board_clash
from pokerlab.engine import HandEnd, HandStart, SeatView
from pokerlab.errors import ConfigError, CorruptData
from pokerlab.holdings import HOLDING_CARDS, NUM_HOLDINGS
from pokerlab.programs.td.average import AveragePolicy
from pokerlab.programs.td.config import PRESETS, TDConfig
from pokerlab.programs.td.encoding import Encoder, assemble, betting_block, card_block
from pokerlab.programs.td.network import Network, TDChain
from pokerlab.programs.td.opponent_inputs import OpponentInputs

#: Class values of the four outputs (win big, win small, lose small, lose big) in class mode (§A.5).
CLASS_VALUES = np.array([2.0, 1.0, -1.0, -2.0])
#: Initial chip means of the four classes in chip mode (§A.5).
CLASS_CHIPS = np.array([120.0, 40.0, -40.0, -120.0])


def result_class(result: float, config: TDConfig) -> int:
    """The class of a non-zero net result R: 0 win big, 1 win small, 2 lose small, 3 lose big (§A.5;
    "strict": |R| = θ is small, "inclusive": it is big)."""
    theta = config.threshold
    big = abs(result) > theta if config.class_boundary == "strict" else abs(result) >= theta
    return (0 if big else 1) if result > 0 else (3 if big else 2)


def class_target(result: float, config: TDConfig) -> np.ndarray:
    """The one-hot target z of a hand's result; a split pot (R = 0) is (0, ½, ½, 0) ("half") or all zeros."""
    if result == 0:
        return np.array([0.0, 0.5, 0.5, 0.0]) if config.split_target == "half" else np.zeros(4)
    target = np.zeros(4)
    target[result_class(result, config)] = 1.0
    return target


class TDLearner:
    """What a TD player learns: the network (weights uniform in ±init_scale from `rng`; with
    ``opponent_networks`` one per identity slot, `network_index`), the number of training hands (for the
    decaying α and ε), the chip means of the classes, and the shared chain."""

    def __init__(self, config: TDConfig, rng: np.random.Generator) -> None:
        self.config = config
        self.networks = [
            Network(
                config.input_size,
                config.hidden,
                config.outputs,
                config.head != "class",
                rng,
                config.init_scale,
            )
            for _ in range(config.networks)
        ]
        self.hands = 0
        self.scale = config.value_scale  # value targets are R / scale (§A.5, §A.6.5)
        self.class_sums = np.zeros(4)
        self.class_counts = np.zeros(4)
        self.shared_chain = self.new_chain() if config.td_chain == "shared" else None
        self.last_visitor = -1
        self.average = None
        if config.average_policy:
            self.average = AveragePolicy(
                config.input_size, config.hidden, config.average_capacity, config.average_alpha, rng
            )
        self.record_average = True  # the trainer keeps it off in stage 1
        self.opponent_models = OpponentInputs(rng) if config.opponent_model_inputs else None

    @property
    def network(self) -> Network:
        """The network (the first of several with ``opponent_networks``)."""
        return self.networks[0]

    @network.setter
    def network(self, network: Network) -> None:
        self.networks[0] = network

    def network_index(self, opponent_id: int | None) -> int:
        """Which network plays an opponent of identity slot `opponent_id`: the only one, or with
        ``opponent_networks`` that slot's, the last (the self-play slot) for an unlabelled opponent."""
        if len(self.networks) == 1:
            return 0
        return len(self.networks) - 1 if opponent_id is None else opponent_id

    def new_chain(self, network: Network | None = None) -> TDChain:
        """A trace chain on `network` (default: the first) with the config's λ and update timing."""
        return TDChain(network or self.network, self.config.lam, online=self.config.update == "online")

    @property
    def alpha(self) -> float:
        """The current step size (§A.8.2 decay over training hands)."""
        return self.config.alpha_at(self.hands)

    @property
    def epsilon(self) -> float:
        """The current exploration rate."""
        return self.config.epsilon_at(self.hands)

    def class_means(self) -> np.ndarray:
        """m_k of the class outputs: (2, 1, −1, −2) in class mode; in chip mode the running mean of R per
        class, starting from (120, 40, −40, −120) counted as one outcome [OUR CHOICE of that weight]."""
        if self.config.equity == "class":
            return CLASS_VALUES
        return (CLASS_CHIPS + self.class_sums) / (1 + self.class_counts)

    def record_result(self, result: float) -> None:
        """Count a training outcome in its class's chip mean."""
        if result != 0:
            k = result_class(result, self.config)
            self.class_sums[k] += result
            self.class_counts[k] += 1

    def state(self) -> dict[str, np.ndarray]:
        """Everything learned, as arrays (the config as JSON bytes)."""
        return {
            "config": np.frombuffer(json.dumps(self.config.to_json()).encode(), dtype=np.uint8),
            "theta": np.stack([n.theta for n in self.networks])
            if len(self.networks) > 1
            else self.network.theta.copy(),
            "hands": np.array(self.hands),
            "class_sums": self.class_sums.copy(),
            "class_counts": self.class_counts.copy(),
            **({"average_theta": self.average.network.theta.copy()} if self.average else {}),
            **(self.opponent_models.state() if self.opponent_models else {}),
        }

    @classmethod
    def from_state(cls, state: dict[str, np.ndarray]) -> TDLearner:
        """The learner `state` describes; `CorruptData` if it does not fit."""
        try:
            config = TDConfig.from_json(json.loads(bytes(state["config"]).decode()))
            learner = cls(config, np.random.default_rng(0))
            theta = np.asarray(state["theta"], dtype=float)
            shape = learner.network.theta.shape
            if len(learner.networks) > 1:
                shape = (len(learner.networks), *shape)
            if theta.shape != shape:
                raise CorruptData(f"weights of {theta.shape}, the config needs {shape}")
            for network, weights in zip(
                learner.networks, theta.reshape(len(learner.networks), -1), strict=True
            ):
                network.theta[:] = weights
            learner.hands = int(state["hands"])
            learner.class_sums[:] = state["class_sums"]
            learner.class_counts[:] = state["class_counts"]
            if learner.average is not None:
                learner.average.network.theta[:] = state["average_theta"]
            if learner.opponent_models is not None:
                learner.opponent_models.load(state)
        except (KeyError, ValueError, ConfigError) as exc:
            raise CorruptData(f"not a TD player's learned state ({exc})") from None
        return learner


class TDAgent(Agent):
    """TD-Hold'em (2005): one network evaluates every decision, trained by TD(λ) while it plays.

    With the class or value head it scores each action by the network's value of the situation just after
    it (after-states, §A.5); with action values it reads Q(s, call), Q(s, raise) before acting (§A.6.5).
    Folding is valued exactly and never by the network. Greedy, ties to the less aggressive action; ε-greedy
    while learning. ``opponent_id`` sets the opponent-identity input (§A.8.3) when the config has one. With
    the average policy (stage 3) a frozen player acts from it (``play_average``), a learning one records its
    greedy decisions for it. A frozen player mixes in a uniformly random action with probability
    ``play_epsilon`` (0: greedy; the ε-mixed version of §A.9 item 6), and with ``models_learn_frozen`` its
    opponent models (§A.10) go on learning while the network stays fixed.
    """

    name = "td"
    learns = True

    def __init__(self, config: TDConfig | None = None, learner: TDLearner | None = None) -> None:
        super().__init__()
        if learner is None:
            learner = TDLearner(config or PRESETS["repaired"], np.random.default_rng(0))
        self.learner = learner
        self.config = learner.config
        self.encoder = Encoder(self.config)
        self.chain = learner.shared_chain or learner.new_chain()
        self._chains = {0: self.chain}  # with opponent_networks, one per network used so far
        self.opponent_id: int | None = None
        self.position = 0
        self.hole: tuple[int, int] = (0, 0)
        self.game = self.config.game()
        self.play_average = learner.average is not None
        self.play_epsilon = 0.0
        self.models_learn_frozen = False
        self._holding_cards: tuple = (None, np.zeros(0))  # (board, card block of every holding) of the query

    def forget(self) -> None:
        self.__init__(self.config)

    def begin_hand(self, start: HandStart) -> None:
        if start.players != 2:
            raise ConfigError(f"the TD player plays heads-up only; this table has {start.players} players")
        self.position, self.hole, self.game = start.position, start.hole, start.config
        if len(self.learner.networks) > 1:
            k = self.learner.network_index(self.opponent_id)
            if k not in self._chains:
                self._chains[k] = self.learner.new_chain(self.learner.networks[k])
            self.chain = self._chains[k]
        self.chain.reset()

    def fold_value(self, committed: int) -> float:
        """The known value of folding with `committed` chips in (§A.5), in the head's units."""
        result = -committed
        if self.config.head == "class":
            return float(self.learner.class_means()[result_class(result, self.config)]) if result else 0.0
        return result / self.learner.scale

    def features(self, view: SeatView, extra: int | None = None) -> np.ndarray:
        """The network's input vector of `view` (of the after-state of `extra` when given): the encoding,
        then, when switched on, the opponent model's predictions (§A.10): for the call and raise
        continuations with action values, for `extra`'s continuation on after-states (zeros without one)."""
        x = self.encoder(view, extra, self.opponent_id)
        models = self.learner.opponent_models
        if models is None:
            return x
        if self.config.head == "action_value":
            block = models.inputs(view, (CALL, RAISE), self.opponent_id)
        else:
            block = models.inputs(view, (extra,), self.opponent_id) if extra is not None else np.zeros(3)
        return np.concatenate([x, block])

    def action_values(self, view: SeatView, options: tuple[int, ...]) -> tuple[dict[int, float], dict]:
        """(value of each option, the input vector a non-fold option is learned from)."""
        config, net = self.config, self.learner.networks[self.learner.network_index(self.opponent_id)]
        values: dict[int, float] = {}
        inputs: dict[int, np.ndarray] = {}
        if FOLD in options:
            values[FOLD] = self.fold_value(view.committed[view.position])
        if config.head == "action_value":
            x = self.features(view)
            q = net(x)
            for a in options:
                if a != FOLD:
                    values[a], inputs[a] = float(q[a - 1]), x
            return values, inputs
        means = self.learner.class_means() if config.head == "class" else None
        for a in options:
            if a == FOLD:
                continue
            x = self.features(view, a)
            y = net(x)
            values[a] = float(y[0]) if means is None else float(y @ means / y.sum())
            inputs[a] = x
        return values, inputs

    def options(self, view: SeatView) -> tuple[int, ...]:
        """The actions it weighs on `view`: the legal ones, less folding a free check unless
        ``fold_when_free``."""
        legal = view.legal_actions
        return legal if view.to_call or self.config.fold_when_free else tuple(a for a in legal if a != FOLD)

    def greedy(self, view: SeatView) -> tuple[int, tuple[int, ...], dict]:
        """(the greedy action, the options, each non-fold option's input vector): the best value among the
        legal actions (folding a free check only with ``fold_when_free``), ties to the less aggressive."""
        options = self.options(view)
        values, inputs = self.action_values(view, options)
        action = options[0]
        for a in options[1:]:
            if values[a] > values[action]:
                action = a
        return action, options, inputs

    def act(self, view: SeatView) -> int:
        action, options, inputs = self.greedy(view)
        learning = not self.frozen
        average = self.learner.average
        if average is not None and (learning and self.learner.record_average or self.play_average):
            x = self.features(view)
            if learning:
                average.remember(x, action, self.rng)
            elif self.rng.random() >= self.config.average_mix:  # else the greedy TD action
                p = average.probabilities(x, options)
                return int(self.rng.choice(3, p=p))
        epsilon = self.learner.epsilon if learning else self.play_epsilon
        if epsilon > 0 and self.rng.random() < epsilon:
            action = options[int(self.rng.integers(len(options)))]
        if learning and action != FOLD:
            outputs = (action - 1,) if self.config.head == "action_value" else range(self.config.outputs)
            self.chain.visit(inputs[action], outputs, self.learner.alpha)
            self.learner.last_visitor = self.position
        return action

    def action_probabilities(self, view: SeatView) -> tuple[float, float, float]:
        """(fold, call, raise) that `act` plays on `view` (its hole): the greedy action (ties to the less
        aggressive), ε-mixed with a uniform choice among the options, and for a frozen player acting from the
        average policy, that policy with probability 1 - ``average_mix``; draws and learns nothing."""
        greedy, options, _ = self.greedy(view)
        epsilon = self.play_epsilon if self.frozen else self.learner.epsilon
        out = np.zeros(3)
        out[list(options)] = epsilon / len(options)
        out[greedy] += 1.0 - epsilon
        average = self.learner.average
        if self.frozen and average is not None and self.play_average:
            mix = self.config.average_mix
            out = (1.0 - mix) * average.probabilities(self.features(view), options) + mix * out
        return float(out[FOLD]), float(out[CALL]), float(out[RAISE])

    def policy_for_holdings(self, view: SeatView) -> np.ndarray:
        """The all-holdings policy query (`pokerlab.agents.policy`): `action_probabilities` of every holding
        that misses the board, batched. Only the card inputs depend on the holding (the betting, identity and
        opponent-model inputs read the public view, §A.3.1, §A.10), so each option's input vector is built
        once, with a stand-in holding, its card columns replaced by every holding's card block (kept per
        board), and the network evaluated on the 1,326-row matrix in one pass. The view's hole is never
        read; `policy_by_substitution(self.action_probabilities, view)` is the plain loop it equals."""
        out = np.zeros((NUM_HOLDINGS, 3))
        live = np.flatnonzero(~board_clash(view.board))
        stand_in = view._replace(hole=(int(HOLDING_CARDS[live[0], 0]), int(HOLDING_CARDS[live[0], 1])))
        cards = self.holding_cards(view.board)[live]
        columns = self.card_columns(view)
        options = self.options(view)
        config, net = self.config, self.learner.networks[self.learner.network_index(self.opponent_id)]

        def rows(extra: int | None) -> np.ndarray:
            x = np.tile(self.features(stand_in, extra), (len(live), 1))
            x[:, columns] = cards
            return x

        values = np.empty((len(live), len(options)))
        if config.head == "action_value":
            q = net.outputs_of_rows(rows(None))
        means = self.learner.class_means() if config.head == "class" else None
        for k, a in enumerate(options):
            if a == FOLD:
                values[:, k] = self.fold_value(view.committed[view.position])
            elif config.head == "action_value":
                values[:, k] = q[:, a - 1]
            else:
                y = net.outputs_of_rows(rows(a))
                values[:, k] = y[:, 0] if means is None else y @ means / y.sum(axis=1)
        # the first maximum: ties go to the less aggressive action, as in `greedy`
        greedy = np.asarray(options)[np.argmax(values, axis=1)]
        epsilon = self.play_epsilon if self.frozen else self.learner.epsilon
        policy = np.zeros((len(live), 3))
        policy[:, list(options)] = epsilon / len(options)
        policy[np.arange(len(live)), greedy] += 1.0 - epsilon
        average = self.learner.average
        if self.frozen and average is not None and self.play_average:
            mix = self.config.average_mix
            z = average.network.outputs_of_rows(rows(None))
            p = np.exp(z - z.max(axis=1, keepdims=True))
            mask = np.zeros(3)
            mask[list(options)] = 1.0
            p *= mask
            policy = (1.0 - mix) * p / p.sum(axis=1, keepdims=True) + mix * policy
        out[live] = policy
        return out

    def holding_cards(self, board: tuple[int, ...]) -> np.ndarray:
        """The card block (inputs 0-49 and the strength inputs) of every holding on `board`, one row per
        holding (zeros for those that share a card with it), kept for the last board asked."""
        board = tuple(board)
        if self._holding_cards[0] != board:
            clash = board_clash(board)
            rows = {
                i: card_block(HOLDING_CARDS[i].tolist(), board, self.config) for i in np.flatnonzero(~clash)
            }
            block = np.zeros((NUM_HOLDINGS, len(next(iter(rows.values())))))
            block[list(rows)] = list(rows.values())
            self._holding_cards = (board, block)
        return self._holding_cards[1]

    def card_columns(self, view: SeatView) -> np.ndarray:
        """bool[input size]: which inputs are the card block's (`assemble` with the card block all ones)."""
        cards = np.ones(self.holding_cards(view.board).shape[1])
        marked = assemble(cards, 0 * betting_block(view, self.config), None, self.config)
        return np.concatenate([marked, np.zeros(self.config.input_size - len(marked))]) == 1.0

    def end_hand(self, end: HandEnd) -> None:
        learner = self.learner
        if learner.opponent_models is not None and (not self.frozen or self.models_learn_frozen):
            learner.opponent_models.learn(self.game, self.position, self.hole, end, self.opponent_id)
        if self.frozen:
            return
        result = end.nets[self.position]
        if self.config.head == "class":
            target = class_target(result, self.config)
            learner.record_result(result)
        else:
            target = np.array([result / learner.scale])
        if self.chain is learner.shared_chain and learner.last_visitor != self.position:
            return  # the article's shared chain ends once, with the result of whoever decided last
        self.chain.finish(target, learner.alpha)

    def learned_state(self) -> dict[str, np.ndarray]:
        return self.learner.state()

    def load_learned_state(self, state: dict[str, np.ndarray]) -> None:
        frozen, rng = self.frozen, self.rng
        self.__init__(learner=TDLearner.from_state(state))
        self.frozen, self.rng = frozen, rng


def checkpoint_path(where: str | Path) -> Path:
    """The agent file named by `where`: a file, the same with ".npz" added, or a folder's checkpoint.npz."""
    path = Path(where)
    named = [path.with_name(path.name + ".npz")] if path.name else []  # ".", "/" have no name to extend
    for candidate in (path, *named, path / "checkpoint.npz"):
        if candidate.is_file():
            return candidate
    beside = sorted(f.stem for f in path.parent.glob("*.npz")) if path.parent.is_dir() else []
    there = f"; {path.parent} holds {', '.join(beside)}" if beside else ""
    raise ConfigError(f"no TD checkpoint at {str(where)!r} (give a .npz file or a training folder{there})")


def load_td_agent(where: str) -> TDAgent:
    """A frozen TD player from a checkpoint ("td:DIR/checkpoint" in a lineup)."""
    agent = TDAgent()
    agent.load(checkpoint_path(where))
    agent.freeze()
    return agent
