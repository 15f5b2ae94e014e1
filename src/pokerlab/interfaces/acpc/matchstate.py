"""ACPC MATCHSTATE lines: parse, format, and replay them through the engine to see whose turn it is.

A line is ``MATCHSTATE:<position>:<hand>:<betting>:<cards>`` (ACPC protocol 2.0.0): ``betting`` holds the
actions of each round separated by '/', ``f``, ``c`` and ``r`` (no-limit games add the raise-to amount,
``r250``; read as the reference reads them, ``k`` a check or call and ``b`` a bet or raise too, in either
case: `LETTER_ACTIONS`, `read_action`); ``cards`` holds each position's hole cards separated by '|'
(empty where unseen) and then, after '/', the board cards of each round dealt. Lines
longer than `MAX_LINE` bytes are refused, as the protocol's fixed buffers do.

Whose turn it is is never read from the line: the betting is replayed by our engine with the unseen
cards unknown, so a line that breaks the rules is refused with the engine's reason. `MatchState.replay`
replays a line from the start (the reference); `Follower` keeps one engine state per hand and applies only
what each line adds to the one before, replaying in full whenever a line is anything else.

The comment our dealer sends before each hand, saying who sits where (`SEATS_COMMENT`), is read here too
(`seats_of`): the one non-protocol line both sides know.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from pokerlab.actions import LETTER_ACTIONS, RAISE
from pokerlab.cards import NUM_CARDS, format_card, parse_cards
from pokerlab.engine import ACTION_LETTERS, BOARD_SIZE, UNKNOWN, GameConfig, HandState, replay
from pokerlab.engine.showdown import exact_split_nets
from pokerlab.errors import ConfigError, CorruptData, IllegalAction, InvalidCards, PokerlabError

#: The longest line the protocol allows, in bytes (without the line end).
MAX_LINE = 4096
_TOKEN = re.compile(r"([fcrbkFCRBK])(\d*)")
_LIMIT_BETTING = frozenset(LETTER_ACTIONS) | {"/"}  # a betting string of these alone has no amounts to read
_TEXT = tuple(format_card(c) for c in range(NUM_CARDS))  # the protocol's card texts ("As") by code
_CODES = {text: c for c, text in enumerate(_TEXT)}
#: The cards of a field of no card, one card or two different cards (hole cards, turn, river), by its text
_FIELDS = {"": ()} | {a + b: (_CODES[a], _CODES[b]) for a in _CODES for b in _CODES if a != b}
_FIELDS |= {text: (c,) for text, c in _CODES.items()}
_ROUND_CARDS = ((0, 3), (3, 4), (4, 5))  # the board cards of the flop, turn and river


#: The comment our dealer sends before each hand: the lasting seat at each position.
SEATS_COMMENT = "# pokerlab seats "


@lru_cache(maxsize=16)  # a dealer sends one comment a seat rotation: each is read once
def seats_of(comment: str) -> tuple[int, ...] | None:
    """The lasting seat at each position that a `SEATS_COMMENT` line tells, or None when it is malformed.

    >>> seats_of(SEATS_COMMENT + "1|0"), seats_of(SEATS_COMMENT + "x")
    ((1, 0), None)
    """
    try:
        return tuple(int(s) for s in comment[len(SEATS_COMMENT) :].split("|"))
    except ValueError:
        return None


class MatchState(NamedTuple):
    """One MATCHSTATE line: ``holes`` per position (empty tuple: unseen), ``board`` per round after the
    pre-flop (flop, turn, river, as far as dealt), ``betting`` the ACPC betting string as sent."""

    position: int
    hand: int
    betting: str
    holes: tuple[tuple[int, ...], ...]
    board: tuple[tuple[int, ...], ...]

    @property
    def players(self) -> int:
        return len(self.holes)

    def format(self) -> str:
        """The line, without its line end."""
        return f"MATCHSTATE:{self.position}:{self.hand}:{self.betting}:{self.cards_text()}"

    def cards_text(self) -> str:
        """The line's last field: hole cards by position, then the board of each round."""
        holes = "|".join("".join(format_card(c) for c in h) for h in self.holes)
        return holes + "".join("/" + "".join(format_card(c) for c in r) for r in self.board)

    def actions(self) -> list[tuple[int, int, int | None]]:
        """(round, action, raise-to amount or None) of every action in the betting string."""
        out = []
        for r, text in enumerate(self.betting.split("/")):
            pos = 0
            while pos < len(text):
                m = _TOKEN.match(text, pos)
                if m is None:
                    raise CorruptData(f"betting {self.betting!r}: unknown action at {text[pos:]!r}")
                action = LETTER_ACTIONS[m.group(1)]
                if m.group(2) and action != RAISE:
                    raise CorruptData(f"betting {self.betting!r}: only a raise carries an amount")
                out.append((r, action, int(m.group(2)) if m.group(2) else None))
                pos = m.end()
        return out

    def replay(self, config: GameConfig) -> HandState:
        """The hand so far, played by the engine with the unseen hole cards unknown.

        Raises `ConfigError` for no-limit amounts, `IllegalAction` / `InvalidCards` for a line that breaks
        the rules (the engine's reason).
        """
        actions = self.actions()
        if any(a[2] is not None for a in actions):
            raise ConfigError(
                f"betting {self.betting!r} has no-limit amounts; only limit games are supported"
            )
        holes: list[int] = []
        for h in self.holes:
            holes += list(h) if h else [UNKNOWN, UNKNOWN]
        board = [c for r in self.board for c in r]
        state = replay(
            config,
            [config.starting_stack()] * self.players,
            holes,
            board,
            [(None, a) for _, a, _ in actions],
            finish=False,
        )
        rounds = self.betting.count("/")
        if min(state.round, 3) != rounds and not state.is_over:
            raise CorruptData(f"betting {self.betting!r} is in round {rounds}, the rules say {state.round}")
        return state

    def is_our_turn(self, config: GameConfig) -> bool:
        """Whether the rules make this line's position the one to act (False once the hand is over)."""
        state = self.replay(config)
        return not state.is_over and state.actor == self.position


class Follower:
    """The engine state of the hand a seat's lines describe, carried from line to line.

    A line of the same position and hand whose betting and cards extend the previous line's (what a
    dealer sends after each action) costs only its new actions; any other line, and any line the fast
    path cannot take, is replayed in full by `MatchState.replay` (the reference, which also names what is
    wrong with a bad line). `follow_line` takes the text itself and skips parsing a line whose head
    (position, hand) and cards field are the last line's, so that only its betting is new (a dealer's
    lines within a round). The state returned is the one kept, changed in place by the next line;
    ``last`` is the last line followed.
    """

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.last: MatchState | None = None
        self.state: HandState | None = None
        self.head = ""  # the last line's text up to its betting, and its cards field
        self.cards = ""

    def follow(self, ms: MatchState) -> HandState:
        """The hand after line `ms`; raises as `MatchState.replay` does."""
        last, state = self.last, self.state
        self.last = self.state = None  # a line that raises leaves nothing to extend
        if last is None or not _extends(ms, last) or not _advance(state, ms, last):
            state = _start(ms, self.config) if not ms.betting else None
            if state is None:
                state = ms.replay(self.config)
        self.last, self.state = ms, state
        return state

    def follow_line(self, line: str) -> HandState:
        """The hand after the text `line` (no line end): what ``follow(parse_matchstate(line))`` gives,
        raising as it does."""
        last = self.last
        if last is not None and line.startswith(self.head) and len(line) <= MAX_LINE // 4:
            betting, _, cards = line[len(self.head) :].partition(":")
            holes, dealt = last[3], ()
            if cards != self.cards:
                dealt = _dealt(cards, self.cards, self.state, len(last.board))
                if dealt is None:  # not board cards: perhaps cards shown down
                    holes = _shown(cards, self.cards, self.state, holes)
                    dealt = None if holes is None else ()
            if dealt is not None and betting.startswith(last.betting):
                state = self.state
                self.last = self.state = None
                if dealt:
                    state.runout = state.runout + [c for r in dealt for c in r]
                if holes is not last[3]:
                    state.holes = [c for h in holes for c in (h or (UNKNOWN, UNKNOWN))]
                if _act_letters(state, betting, len(last.betting)):
                    self.last = MatchState._make((last[0], last[1], betting, holes, last[4] + dealt))
                    self.state = state
                    self.cards = cards
                    return state
        ms = parse_matchstate(line)
        state = self.follow(ms)
        self.head, self.cards = f"MATCHSTATE:{ms.position}:{ms.hand}:", line.rpartition(":")[2]
        return state


def _shown(
    cards: str, last: str, state: HandState, holes: tuple[tuple[int, ...], ...]
) -> tuple[tuple[int, ...], ...] | None:
    """The hole cards of the cards field `cards` where it is the last line's `last` (whose holes were
    `holes`) with the two cards of positions unseen until now added (cards shown down), or None where it
    is anything else, or the cards are bad or already known (the full path judges it)."""
    field, _, board = cards.partition("/")
    old, _, old_board = last.partition("/")
    texts, old_texts = field.split("|"), old.split("|")
    if board != old_board or ("/" in cards) != ("/" in last) or len(texts) != len(old_texts):
        return None
    new, added = list(holes), []
    for p, text in enumerate(texts):
        if text != old_texts[p]:
            codes = _FIELDS.get(text)
            if old_texts[p] or codes is None or len(codes) != 2:
                return None
            new[p] = codes
            added += codes
    if not added or len(set(added)) != len(added):
        return None
    if any(c in state.holes or c in state.runout for c in added):
        return None
    return tuple(new)


def _dealt(cards: str, last: str, state: HandState, rounds_dealt: int) -> tuple[tuple[int, ...], ...] | None:
    """The board rounds the cards field `cards` adds to the last line's `last` (which held `rounds_dealt`
    rounds; nothing else changed), or None where it is anything else, or its cards are bad or already
    dealt (the full path judges it)."""
    if len(cards) <= len(last) or not cards.startswith(last) or cards[len(last)] != "/":
        return None
    added = cards[len(last) + 1 :]
    try:
        if "/" in added:
            rounds = tuple([_cards(r) for r in added.split("/")])
            new = [c for r in rounds for c in r]
        else:  # one round, what a dealer sends
            new = _cards(added)
            rounds = (new,)
    except InvalidCards:
        return None
    if len(rounds) + rounds_dealt > 3 or len(set(new)) != len(new):
        return None
    holes, runout = state.holes, state.runout
    for c in new:
        if c in holes or c in runout:
            return None
    return rounds


def _engine_cards(ms: MatchState) -> tuple[list[int], list[int]] | None:
    """The engine's hole cards (`UNKNOWN` where unseen) and board of line `ms`; None for a card repeated."""
    holes: list[int] = []
    for h in ms.holes:
        holes += h if h else (UNKNOWN, UNKNOWN)
    board = [c for r in ms.board for c in r]
    known = [c for c in holes + board if c != UNKNOWN]
    return (holes, board) if len(set(known)) == len(known) else None


def _start(ms: MatchState, config: GameConfig) -> HandState | None:
    """The hand of a line with no betting yet (a hand's first line), dealt as `MatchState.replay` deals it
    but without replaying; None where only the replay can judge the line (cards repeated, a game the
    engine refuses, a round the rules do not reach)."""
    cards = _engine_cards(ms)
    if cards is None:
        return None
    holes, board = cards
    try:
        state = HandState(config, holes, board, [config.starting_stack()] * len(ms.holes))
    except PokerlabError:
        return None
    return state if state.is_over or state.round == 0 else None


def _extends(ms: MatchState, last: MatchState) -> bool:
    """Whether `ms` is `last` with more actions, board cards or cards shown (never fewer or others)."""
    if ms.hand != last.hand or ms.position != last.position or not ms.betting.startswith(last.betting):
        return False
    if ms.holes != last.holes and (
        len(ms.holes) != len(last.holes)
        or any(old and new != old for new, old in zip(ms.holes, last.holes, strict=True))
    ):
        return False
    return ms.board[: len(last.board)] == last.board


def _advance(state: HandState, ms: MatchState, last: MatchState) -> bool:
    """Apply what `ms` adds to `last` to `state` (the hand after `last`); False where only the full replay
    can judge the line (cards repeated, an illegal or unknown action, a round the rules do not reach)."""
    if ms.holes != last.holes or ms.board != last.board:
        cards = _engine_cards(ms)
        if cards is None:
            return False
        state.holes, state.runout = cards
    return _act_letters(state, ms.betting, len(last.betting))


def _act_letters(state: HandState, betting: str, start: int) -> bool:
    """Apply the actions of ``betting[start:]`` to `state`; False where only the full replay can judge
    them (an illegal or unknown action, a round the rules do not reach or whose cards are not dealt)."""
    cards = len(state.runout)
    for letter in betting[start:]:
        if letter == "/":
            continue
        action = LETTER_ACTIONS.get(letter, -1)
        if action < 0 or state.actor < 0:  # an unknown letter, or an action after the end
            return False
        try:
            state.act(action)
        except (IllegalAction, InvalidCards):
            return False
        if cards < BOARD_SIZE[state.round] and state.actor >= 0:  # a round whose cards are not dealt
            return False
    return state.actor < 0 or min(state.round, 3) == betting.count("/")


_NAME_BREAKERS = re.compile(r"[:|\s\x00-\x1f\x7f]+")


def protocol_name(name: str) -> str:
    """`name` as a player's name in the protocol's STATE and SCORE lines: each run of what would break
    their fields (':' between fields, '|' between players, whitespace, which log readers split on, and
    control characters) becomes one '_' (an empty name is '_').

    >>> protocol_name('cmd:"./mybot --flag"'), protocol_name("a|b"), protocol_name("loki1")
    ('cmd_"./mybot_--flag"', 'a_b', 'loki1')
    """
    return _NAME_BREAKERS.sub("_", name) or "_"


def read_action(answer: str) -> int | None:
    """The action of an answer's text after the state and its ':' as the reference reads it: the first
    character is the action (`LETTER_ACTIONS`: ``f``, ``c``/``k``, ``r``/``b``, either case), anything after
    it in a limit game ignored; None for an empty answer or an unknown letter.

    >>> read_action("b"), read_action("K"), read_action("c thinking"), read_action("x")
    (2, 1, 1, None)
    """
    return LETTER_ACTIONS.get(answer[:1])


def parse_matchstate(line: str) -> MatchState:
    """Read a MATCHSTATE line (its line end optional); `CorruptData` names what is wrong."""
    text = line.rstrip("\r\n")
    if len(text) > MAX_LINE // 4 and len(text.encode()) > MAX_LINE:  # a character is 1 to 4 bytes
        raise CorruptData(f"a protocol line is at most {MAX_LINE} bytes, got {len(text.encode())}")
    parts = text.split(":")
    if len(parts) != 5 or parts[0] != "MATCHSTATE":
        raise CorruptData(f"not a MATCHSTATE line: {_short(text)}")
    try:
        position, hand = int(parts[1]), int(parts[2])
    except ValueError:
        raise CorruptData(f"position and hand must be numbers: {_short(text)}") from None
    try:
        holes, board = _cards_field(parts[4])
    except InvalidCards as exc:
        raise CorruptData(f"bad cards in {_short(text)}: {exc}") from None
    if not 0 <= position < len(holes) or hand < 0:
        raise CorruptData(f"position {position} outside the {len(holes)} players: {_short(text)}")
    state = MatchState(position, hand, parts[3], holes, board)
    if not _LIMIT_BETTING.issuperset(parts[3]):
        state.actions()  # raises on unknown action letters
    return state


def _cards_field(text: str) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """The holes and board of a line's cards field; `InvalidCards` says what is wrong."""
    hole_text, *board_text = text.split("/")
    holes = tuple([_cards(h) for h in hole_text.split("|")])
    board = tuple([_cards(b) for b in board_text])
    if any(len(h) not in (0, 2) for h in holes) or len(board) > 3:
        raise InvalidCards("a hold'em seat holds 2 cards and the board 3 rounds")
    return holes, board


def _cards(text: str) -> tuple[int, ...]:
    """The cards of one field: the protocol's two-character cards read by table (a field of up to two
    different cards at once, a flop in two), anything else (and every error) by `parse_cards`."""
    codes = _FIELDS.get(text)
    if codes is not None:
        return codes
    if len(text) == 6:  # a flop: a card and two others
        first, others = _FIELDS.get(text[:2]), _FIELDS.get(text[2:])
        if first is not None and others is not None and first[0] not in others:
            return first + others
    try:
        codes = tuple([_CODES[text[i : i + 2]] for i in range(0, len(text), 2)])
    except KeyError:
        return tuple(parse_cards(text))
    if len(set(codes)) != len(codes):
        parse_cards(text)  # raises, naming the repeated card
    return codes


def matchstate_of(state: HandState, position: int, hand: int) -> MatchState:
    """The line the dealer sends `position` in `state`: its own cards, the cards shown down at the end of
    a showdown, the board dealt so far."""
    shown = state.shown() if state.is_over and state.showdown else [False] * state.n
    holes = tuple(
        (state.holes[2 * p], state.holes[2 * p + 1]) if p == position or shown[p] else ()
        for p in range(state.n)
    )
    board = state.board_seen
    rounds = tuple(tuple(board[a:b]) for a, b in _ROUND_CARDS if len(board) >= b)
    return MatchState(position, hand, state.betting_string(), holes, rounds)


class HandLines:
    """The lines a dealer sends the positions of one hand, ``lines(state)[position]`` equal to
    ``matchstate_of(state, position, hand).format()`` (the reference) but made from the last state's: the
    betting string grows by each new action's letter and a '/' for each round opened, the board text by
    the cards of each round dealt, and both are made once for every position, whose lines differ only in
    their head and their own hole cards. The hand's last line (the cards shown down) is made the same way.
    """

    def __init__(self, hand: int) -> None:
        self.hand = hand
        self.heads: list[str] = []
        self.cards: list[str] = []  # each position's hole cards as text
        self.owns: list[str] = []  # ":" and the hole-cards field of each position, only its own cards
        self.tails: list[tuple[str, str]] = []  # each position's head, and its own cards and the board
        self.count = 0  # actions in the betting string
        self.round = 0  # rounds opened in the betting string
        self.betting = ""
        self.dealt = 0  # board cards in the board text
        self.board = ""

    def lines(self, state: HandState) -> list[str]:
        """Every position's line in `state`, a state of this hand (made after the last one asked for)."""
        if not self.heads:
            n, holes = state.n, state.holes
            self.cards = cards = [_TEXT[holes[2 * p]] + _TEXT[holes[2 * p + 1]] for p in range(n)]
            self.heads = [f"MATCHSTATE:{p}:{self.hand}:" for p in range(n)]
            fields = [""] * n
            for p in range(n):
                fields[p] = cards[p]
                self.owns.append(":" + "|".join(fields))
                fields[p] = ""
            self.tails = list(zip(self.heads, self.owns, strict=True))
        actions = state.actions
        if len(actions) != self.count:
            betting, opened = self.betting, self.round
            for record in actions[self.count :]:
                if record.round != opened:
                    betting += "/" * (record.round - opened)
                    opened = record.round
                betting += ACTION_LETTERS[record.action]
            last = state.round if state.round < 3 else 3
            if last > opened:
                betting += "/" * (last - opened)
                opened = last
            self.betting, self.count, self.round = betting, len(actions), opened
        board = state.board_seen
        if len(board) != self.dealt:
            text = self.board
            for a, b in _ROUND_CARDS:  # the rounds dealt since the last line, each after a '/'
                if self.dealt <= a and len(board) >= b:
                    text += "/" + "".join([_TEXT[c] for c in board[a:b]])
            self.board, self.dealt = text, len(board)
            self.tails = [(head, own + text) for head, own in zip(self.heads, self.owns, strict=True)]
        betting, board = self.betting, self.board
        if not (state.is_over and state.showdown):  # not a showdown's end: only the own cards
            return [head + betting + tail for head, tail in self.tails]
        cards, shown = self.cards, state.shown()
        seen = [c if s else "" for c, s in zip(cards, shown, strict=True)]
        common = ":" + "|".join(seen)  # the field of a position that showed: every card shown
        out = []
        for p, head in enumerate(self.heads):
            if shown[p]:
                out.append(head + betting + common + board)
            else:  # a position that folded sees its own cards too
                seen[p] = cards[p]
                out.append(head + betting + ":" + "|".join(seen) + board)
                seen[p] = ""
        return out

    def state_line(self, values: list[str], names: list[str]) -> str:
        """The log's STATE line of the finished hand whose last state `lines` was given: every position's
        hole cards and the board as far as the hand went, its ``values`` and ``names`` by position; equal to
        `statelog.format_state_line` (the reference) but made from the texts already made."""
        return (
            f"STATE:{self.hand}:{self.betting}:{'|'.join(self.cards)}{self.board}:"
            f"{'|'.join(values)}:{'|'.join(names)}"
        )


def _short(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:77] + "...")


def reference_values(state: HandState) -> list[float]:
    """What each position won or lost in the finished hand `state` as the reference counts it (its
    ``valueOfState``, ACPC protocol 2.0.0 reference server): a pot, or a side pot, tied by k winners is
    split in k equal parts, fractions of a chip included (`exact_split_nets`: 2.5 each where our engine
    gives the odd chip to the first winner left of the button), so a client's totals agree with the
    reference dealer's. Chips.
    """
    if not state.showdown:  # uncontested: the winner takes what the others put in, as in our engine
        return [float(net) for net in state.nets]
    ranks, committed = state.ranks, state.committed
    best = max(ranks)
    if ranks.count(best) == 1 and committed[ranks.index(best)] == max(committed):
        return [float(net) for net in state.nets]  # one winner of every pot: nothing to split
    return exact_split_nets(committed, ranks)
