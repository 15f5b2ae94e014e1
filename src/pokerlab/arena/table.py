"""A table: seats players (local or isolated), and plays hands one action at a time.

`Table.start_hand` deals a `HandState` and tells each player its `HandStart`; `Table.step` asks the player to
act (`ask`, with a deadline), applies the action (`apply`) and tells every listening player the
`ActionRecord` (`tell_observers`); `Table.finish_hand` tells each player its `HandEnd`. `play_hand` does the
three. Every table of the project plays through it: matches and trainers (`play_hand`), the ACPC dealer (a
`Table` whose players are protocol clients) and the web tables, which interleave hands with other work:
they call the steps themselves, and a seat a person holds for a hand (``people`` in `start_hand`) is never
asked nor told; the front end applies that person's action.

Each seat gets its own copy of the game config, made once, so what an agent does to its copy changes
nothing for the table. The rules for players who do not answer properly:

* an exception in the agent's own code (its hooks' too), a timeout, a disconnected player or, from an
  isolated agent, an answer that does not parse or is not legal: a fault. The table checks for the player
  when that is free, else folds, logs it (the first few times per seat) and counts it; a disconnected
  player is checked or folded for the rest of the session;
* faults are loud where the front end asks (``tolerate_faults=False``: matches by default, see
  `arena.match`): a seat's fault in the session's first hand, or its fault number ``max_faults + 1`` in a
  session, stops the table with `BotFault`, one line naming the agent and its first fault (the whole
  traceback in the exception's ``details``). A table made without saying tolerates them (the check-or-fold
  rule of competitions), as the ACPC dealer and the web table do until they choose;
* a strict table (``strict``: trainers and studies, whose agents are our own code changing from hand to
  hand, `seat_agents`) raises every error of an agent as it is: a learner's bug never passes as a fault;
* an illegal action: from an isolated agent, a fault as above; from a local agent (trusted code), a bug
  that stops the match with `IllegalAction`, unless the table tolerates faults (a web table: the bot's
  answer is checked or folded, counted and logged like any other fault).
"""

from __future__ import annotations

import copy
import logging
import re
import traceback
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pokerlab.actions import CALL, check_or_fold
from pokerlab.agents.base import split_decision
from pokerlab.agents.policy import blind_view, holdings_policy_refusal
from pokerlab.arena.players import AgentFailure, AgentSpec, Disconnected, IsolatedPlayer, LocalPlayer, Timeout
from pokerlab.engine import GameConfig, HandState, SeatView, hand_end, hand_start, seat_view
from pokerlab.errors import BotFault, IllegalAction

log = logging.getLogger(__name__)


def seconds_rounded(text: str) -> str:
    """`text` with every duration in seconds of more than three decimals shown to three significant
    digits ("no answer within 0.4999988479999047 s" reads "... within 0.5 s")."""
    return re.sub(r"\d+\.\d{4,}(?= s\b)", lambda m: f"{float(m.group()):.3g}", text)


def _raise_if_interrupted(exc: BaseException) -> None:
    """KeyboardInterrupt if `exc` was caused by one: Ctrl-C that lands inside compiled code (a numba
    dispatcher turns it into a `SystemError` with the interrupt as its cause) stops the match as Ctrl-C, and
    is never counted as the bot's fault."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__


#: Faults logged per seat and session before the table only counts them.
LOGGED_FAULTS = 3
#: Faults a seat may make in a session (after its first hand) before the table stops, unless tolerated.
MAX_FAULTS = 3


@dataclass(frozen=True, slots=True)
class DecisionLog:
    """One decision for the decision log: which agent (seat), at which action index of the hand, what it
    did, and where it gave them its probabilities (fold, call, raise) and free-form info."""

    seat: int
    index: int
    action: int
    probabilities: tuple[float, float, float] | None
    info: dict | None


class Table:
    """Players in seats 0..n-1 (lasting seats; positions rotate), a game config and an action deadline."""

    def __init__(
        self,
        players: Sequence[LocalPlayer | IsolatedPlayer],
        config: GameConfig,
        labels: Sequence[str],
        action_timeout: float | None = None,
        log_decisions: bool = False,
        max_faults: int = MAX_FAULTS,
        tolerate_faults: bool = True,
        strict: bool = False,
        log_policies: bool = False,
    ) -> None:
        self.players = list(players)
        self.strict = strict
        self.max_faults = max_faults
        self.tolerate_faults = tolerate_faults and not strict
        self.config = config
        self.labels = list(labels)
        self.action_timeout = action_timeout
        self.log_decisions = log_decisions
        self.log_policies = log_policies
        self.seat_configs = [copy.copy(config) for _ in self.players]
        self._fresh_seats()
        self.state: HandState | None = None
        self.decisions: list[DecisionLog] = []
        #: with ``log_policies``: (action index, float[1326, 3]) of the hand's decisions whose agent
        #: answered the all-holdings policy query (`pokerlab.arena.policy_record`)
        self.policies: list[tuple[int, np.ndarray]] = []
        self.people: frozenset[int] = frozenset()

    def new_session(self, entropies: Sequence[list[int]], agents=None) -> None:
        """Fresh agents in every seat (or the given ones), each seeded from its entropy."""
        for j, player in enumerate(self.players):
            player.new_session(entropies[j], None if agents is None else agents[j])
        self._fresh_seats()
        self._listeners()

    def _fresh_seats(self) -> None:
        """No fault, nobody gone, no hand played: a session's start."""
        n = len(self.players)
        self.faults = [0] * n
        self.first_faults: list[tuple[str, str] | None] = [None] * n
        self.last_faults: list[str | None] = [None] * n  # each seat's latest fault, in one line
        self.gone = [False] * n
        self.hand_number = 0

    def seat_agents(self, agents: Sequence) -> None:
        """Seat these agents (in this process, trusted) as they are, with no copy and no new seed, in
        seats 0..n-1 of a table of `LocalPlayer`s: for trainers, whose agents change from hand to hand."""
        for player, agent in zip(self.players, agents, strict=True):
            player.seat(agent)
        self._listeners()

    def end_session(self) -> None:
        """Tell every player the session is over (an isolated bot reports its last hooks' errors)."""
        for j, player in enumerate(self.players):
            if hasattr(player, "end_session"):  # players of other front ends may have no such hook
                player.end_session()
                self._hook_faults(j)

    def _listeners(self) -> None:
        players = self.players
        self.begin_listeners = [j for j, p in enumerate(players) if p.wants_begin]
        self.observers = [j for j, p in enumerate(players) if p.wants_observe]
        self.end_listeners = [j for j, p in enumerate(players) if p.wants_end]
        # local agents without a deadline are asked directly (the fast path of research runs)
        self.direct = [
            p.agent.act if isinstance(p, LocalPlayer) and self.action_timeout is None else None
            for p in players
        ]
        self.all_direct = None not in self.direct
        # with log_policies, the in-process agents that answer the all-holdings query (isolated ones are
        # never asked: their code does not run here)
        self.queries = [
            p.agent.policy_for_holdings
            if self.log_policies and isinstance(p, LocalPlayer) and holdings_policy_refusal(p.agent) is None
            else None
            for p in players
        ]

    def _fault(self, j: int, what: str, action: int | None, details: str = "") -> None:
        """Count a fault of seat j (`what`: one line; `details`: its traceback); stop unless tolerated."""
        self.faults[j] += 1
        self.last_faults[j] = what
        if self.first_faults[j] is None:
            self.first_faults[j] = (what, details or what)
        if not self.tolerate_faults and (self.hand_number == 0 or self.faults[j] > self.max_faults):
            first, first_details = self.first_faults[j]
            when = "in its first hand" if self.hand_number == 0 else f"{self.faults[j]} faults in the session"
            raise BotFault(
                f"agent {self.labels[j]} {first} ({when}; --tolerate-faults checks or folds for it)",
                f"agent {self.labels[j]}, hand {self.hand_number} of the session:\n{first_details}",
            )
        if self.faults[j] <= LOGGED_FAULTS:
            log.warning(
                "agent %s %s; %s%s",
                self.labels[j],
                what,
                {CALL: "recorded as a check", None: "counted"}.get(action, "recorded as a fold"),
                "" if self.faults[j] < LOGGED_FAULTS else " (further faults of this agent are only counted)",
            )

    def _hook_faults(self, j: int) -> None:
        """A fault for each error an isolated agent's hooks reported."""
        errors = getattr(self.players[j], "hook_errors", ())  # only isolated players report them
        while errors:
            self._fault(j, f"raised in {errors.pop(0)}", None)

    def _tell(self, j: int, method: str, message) -> None:
        """Deliver a notification; a player that fails on it is counted, one that is gone is left out."""
        if self.gone[j]:
            return
        try:
            getattr(self.players[j], method)(message)
        except Disconnected as exc:
            self.gone[j] = True
            self._fault(j, f"left the table ({exc})", CALL)
        except Exception as exc:  # noqa: BLE001 - the agent's own hook failed
            _raise_if_interrupted(exc)
            if self.strict:
                raise
            self._fault(j, f"raised {exc!r} in {method}", None, traceback.format_exc())

    def start_hand(
        self, state: HandState, seats: Sequence[int], people: frozenset[int] = frozenset()
    ) -> None:
        """Seat a new hand: ``seats[position]`` is the lasting seat (player index) at each position;
        ``people``: seats a person plays in this hand (their players are neither asked nor told)."""
        self.state = state
        self.seats = seats = tuple(seats)
        self.people = people
        self.decisions = []
        self.policies = []
        self.hand_observers = [j for j in self.observers if j in seats and j not in people]
        # the fast path of `play_on`: every player to ask is a local agent, asked directly; nobody listens in
        self.asked_directly = not (self.hand_observers or self.log_decisions or self.log_policies) and (
            self.all_direct or None not in [self.direct[j] for j in seats if j not in people]
        )
        for j in self.begin_listeners:
            if j in seats and j not in people:
                start = hand_start(state, seats.index(j), seats, self.seat_configs[j], self.hand_number)
                self._tell(j, "begin_hand", start)

    def step(self) -> None:
        """Ask the player to act, apply the action and tell the observers."""
        view = self.view()
        j = self.seats[view.position]
        decision = self.ask(j, view)
        if self.log_policies and self.queries[j] is not None:
            # asked once it has acted, on the same view: a learner counts the opponents' latest actions
            # as it acts, so its answer then is the policy it played (asked before, it can lag)
            self.policies.append((len(self.state.actions), self.queries[j](blind_view(view))))
        self.apply(*decision)
        if self.hand_observers:
            self.tell_observers()

    def view(self) -> SeatView:
        """The view of the player to act (its lasting seat is ``seats[state.actor]``)."""
        p = self.state.actor
        j = self.seats[p]
        return seat_view(self.state, p, self.seats, self.seat_configs[j])

    def ask(self, j: int, view: SeatView) -> tuple[int, tuple | None, dict | None]:
        """(action, probabilities, info) of seat j's player on `view`: the one way the project asks a
        player (in process, isolated or remote), under the rules of the module doc: the action is legal."""
        act = self.direct[j]
        if act is not None:
            try:
                choice = act(view)
            except Exception as exc:  # noqa: BLE001 - any failure of the agent's own code
                choice = self._failed(j, view, exc)
        elif self.gone[j]:
            choice = check_or_fold(view.to_call)
        else:
            try:
                choice = self.players[j].act(view, self.action_timeout)
            except (AgentFailure, Timeout, Disconnected) as exc:
                choice = self._failed(j, view, exc)
            self._hook_faults(j)
        return self._checked(j, view, choice)

    def apply(self, action: int, probabilities: tuple | None = None, info: dict | None = None) -> None:
        """Apply the legal `action` of the player to act (logged with its probabilities and info)."""
        state = self.state
        if self.log_decisions:
            j = self.seats[state.actor]
            self.decisions.append(DecisionLog(j, len(state.actions), action, probabilities, info))
        state.act(action)

    def tell_observers(self) -> None:
        """Tell every player who observes the hand its last action."""
        record = self.state.actions[-1]
        for k in self.hand_observers:
            self._tell(k, "observe", record)

    def _checked(self, j: int, view, choice) -> tuple[int, tuple | None, dict | None]:
        """(action, probabilities, info) of what an agent answered, the action legal (see the module doc)."""
        action, probabilities, info = split_decision(choice)
        if action not in view.legal_actions:
            legal = ", ".join(("FOLD", "CALL", "RAISE")[a] for a in view.legal_actions)
            if not self.tolerate_faults and not isinstance(self.players[j], IsolatedPlayer):
                raise IllegalAction(f"agent {self.labels[j]}: {action!r} is not legal here; legal: {legal}")
            bad, action = action, check_or_fold(view.to_call)
            probabilities = info = None
            self._fault(j, f"answered {bad!r}, not one of {legal}", action)
        return action, probabilities, info

    def _failed(self, j: int, view, exc: Exception) -> int:
        """Check or fold for a player that failed to answer, and count the fault."""
        _raise_if_interrupted(exc)
        if self.strict:
            raise exc.__cause__ if isinstance(exc, AgentFailure) and exc.__cause__ else exc
        action = check_or_fold(view.to_call)
        if isinstance(exc, Disconnected):
            self.gone[j] = True
            self._fault(j, f"left the table ({exc})", action)
        elif isinstance(exc, Timeout):
            self._fault(j, f"timed out ({seconds_rounded(str(exc))})", action)
        elif isinstance(exc, AgentFailure):  # its cause (in process) or its message (isolated) tells
            cause = exc.__cause__
            text = "".join(traceback.format_exception(cause)) if cause else str(exc).strip()
            self._fault(j, f"failed: {text.splitlines()[-1] if text else 'no message'}", action, text)
        else:
            self._fault(j, f"raised {exc!r}", action, "".join(traceback.format_exception(exc)))
        return action

    def finish_hand(self) -> HandState:
        """Tell every listening player how the hand ended; returns the finished state."""
        state, seats = self.state, self.seats
        people = self.people
        for j in self.end_listeners:
            if j in seats and j not in people:
                self._tell(j, "end_hand", hand_end(state, seats.index(j)))
        self.hand_number += 1
        return state

    def play_hand(self, state: HandState, seats: Sequence[int]) -> HandState:
        """Play `state` to its end with ``seats[position]`` acting at each position."""
        self.start_hand(state, seats)
        self.play_on()
        return self.finish_hand()

    def play_on(self) -> None:
        """Ask the players in turn until the hand is over or a person's seat (``people`` in `start_hand`)
        is to act: one `step` at a time, or the direct loop where every player to ask is a local agent with
        no deadline and nobody listens in (`play_hand` and the RL environments play through it)."""
        state, seats, people, direct = self.state, self.seats, self.people, self.direct
        if not self.asked_directly:
            step = self.step
            while state.actor >= 0 and seats[state.actor] not in people:
                step()
            return
        # the research fast path: local agents asked directly, no deadline, nobody listening in
        configs = self.seat_configs
        while state.actor >= 0:
            p = state.actor
            j = seats[p]
            if j in people:
                return
            view = seat_view(state, p, seats, configs[j])
            try:
                choice = direct[j](view)
            except Exception as exc:  # noqa: BLE001 - any failure of the agent's own code
                choice = self._failed(j, view, exc)
            if type(choice) is not int or choice not in view.legal_actions:
                choice = self._checked(j, view, choice)[0]
            state.act(choice)

    def close(self) -> None:
        """Stop every player (isolated processes end, side by side)."""
        for player in self.players:
            if hasattr(player, "hang_up"):
                player.hang_up()
        for player in self.players:
            player.close()


def strict_table(players: int, config: GameConfig) -> Table:
    """A `strict` table of `players` seats in this process for agents seated hand by hand (`seat_agents`):
    the table of trainers and studies."""
    spec = AgentSpec("trainer", b"")
    return Table(
        [LocalPlayer(spec) for _ in range(players)],
        config,
        [f"seat {j}" for j in range(players)],
        strict=True,
    )
