"""ACPC game definitions, MATCHSTATE lines and the dealer log's STATE lines (ACPC protocol 2.0.0)."""

from __future__ import annotations

import io
import os
import re
import signal
import socket
import threading
import time

import numpy as np
import pytest

from pokerlab.actions import CALL, RAISE
from pokerlab.cards import format_card, parse_cards
from pokerlab.engine import FOLD, GameConfig, HandState, record_of
from pokerlab.engine.config import UNLIMITED_STACK
from pokerlab.errors import ConfigError, CorruptData, InvalidCards
from pokerlab.interfaces.acpc.channel import MAX_POLL, Channel, ConnectionClosed, LineTooLong, check_poll
from pokerlab.interfaces.acpc.gamedef import STANDARD_GAMES, gamedef_of, load_gamedef, parse_gamedef
from pokerlab.interfaces.acpc.logfile import LogFile, stop_on_signals
from pokerlab.interfaces.acpc.matchstate import (
    MAX_LINE,
    Follower,
    HandLines,
    _cards,
    matchstate_of,
    parse_matchstate,
)
from pokerlab.interfaces.acpc.statelog import (
    acpc_state_line,
    format_state_line,
    parse_acpc_state_line,
    score_line,
)

#: ACPC's heads-up limit game file as the competition ships it (comments, its own line order).
REVERSE_BLINDS = """\
# heads-up limit, reverse blinds
GAMEDEF
limit
numPlayers = 2
numRounds = 4
blind = 10 5
raiseSize = 10 10 20 20
firstPlayer = 2 1 1 1
maxRaises = 3 4 4 4
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""


@pytest.mark.parametrize("name", sorted(STANDARD_GAMES))
def test_standard_games_round_trip(name):
    game = parse_gamedef(STANDARD_GAMES[name])
    assert game.to_text() == STANDARD_GAMES[name]
    assert parse_gamedef(game.to_text()) == game
    assert gamedef_of(game.to_config(), game.players) == game


def test_the_competition_file_is_our_default_game():
    game = parse_gamedef(REVERSE_BLINDS)
    assert game.to_config() == GameConfig()
    assert game == load_gamedef("holdem.limit.2p.reverse_blinds.game")


def _raises_allowed(state: HandState) -> int:
    """Raise until the cap (everyone else calls), counting the raises made in the round."""
    made = 0
    start = state.round
    while state.round == start and not state.is_over:
        if RAISE in state.legal_actions():
            state.act(RAISE)
            made += 1
        else:
            state.act(CALL)
    return made


@pytest.mark.parametrize("players", range(2, 11))
def test_mapping_reproduces_first_player_blinds_and_caps(players):
    game = load_gamedef("holdem.limit.2p.reverse_blinds" if players == 2 else f"holdem.limit.{players}p")
    config = game.to_config()
    cards = list(range(2 * players + 5))
    state = HandState(config, cards[: 2 * players], cards[2 * players :])
    assert state.blinds == game.blinds  # who posts what, by ACPC seat = our position
    assert state.actor == game.first_player[0] - 1
    assert _raises_allowed(state) == game.max_raises[0]  # pre-flop: raises over the big blind
    for r in (1, 2, 3):
        assert state.actor == game.first_player[r] - 1
        assert state.config.bet_size(r) == game.raise_sizes[r]
        assert _raises_allowed(state) == game.max_raises[r]


@pytest.mark.parametrize(
    "change, why",
    [
        (("limit", "nolimit"), "only limit"),
        (("numSuits = 4", "numSuits = 2"), "52-card"),
        (("numRounds = 4", "numRounds = 3"), "4 rounds"),
        (("firstPlayer = 2 1 1 1", "firstPlayer = 1 1 1 1"), "firstPlayer"),
        (("maxRaises = 3 4 4 4", "maxRaises = 3 2 4 4"), "maxRaises"),
        (("raiseSize = 10 10 20 20", "raiseSize = 10 20 20 20"), "raiseSize"),
        (("numHoleCards = 2", "numHoleCards = 4"), "hole cards"),
        (("blind = 10 5", "stack = 1000 500\nblind = 10 5"), "stacks"),
        (("blind = 10 5", "blinds = 10 5"), "unknown line"),
        (("numRanks = 13", "numRanks = x"), "integers"),
        (("END GAMEDEF", ""), "END GAMEDEF"),
    ],
)
def test_unsupported_or_malformed_games_say_why(change, why):
    with pytest.raises(ConfigError, match=why):
        parse_gamedef(REVERSE_BLINDS.replace(*change)).to_config()


def test_stacks_and_uncapped_games_map():
    text = REVERSE_BLINDS.replace("blind = 10 5", "stack = 1000 1000\nblind = 10 5")
    assert parse_gamedef(text).to_config() == GameConfig(stack=1000)
    uncapped = parse_gamedef(REVERSE_BLINDS.replace("maxRaises = 3 4 4 4\n", ""))
    assert uncapped.to_config().max_raises is None
    flat = parse_gamedef(REVERSE_BLINDS.replace("maxRaises = 3 4 4 4", "maxRaises = 4 4 4 4"))
    assert flat.to_config() == GameConfig(blind_counts_as_bet=False)
    with pytest.raises(ConfigError, match="heads-up"):
        gamedef_of(GameConfig(no_cap_heads_up=True), 2)
    with pytest.raises(ConfigError, match="per-player raise limit"):
        gamedef_of(GameConfig(max_raises_per_player=3), 2)


# -- MATCHSTATE lines ------------------------------------------------------------------------------------

LINES = [
    "MATCHSTATE:0:0::TdAs|",
    "MATCHSTATE:1:30:cc/r:|9s8h/8c8d5c",
    "MATCHSTATE:0:31:rrc/rc/cr:Kh3c|/2s5hTh/Jd",
    "MATCHSTATE:1:31:rrc/rc/crc/rrc:Kh3c|QsQd/2s5hTh/Jd/2c",  # a showdown: both hands shown
    "MATCHSTATE:2:5:rcc/:||AsKd/2c3c4c",  # three players
    "MATCHSTATE:1:7:r250c/r500:|9hQd/8dAs8s",  # no-limit amounts parse
]


@pytest.mark.parametrize("line", LINES)
def test_lines_round_trip(line):
    state = parse_matchstate(line + "\r\n")
    assert state.format() == line


def test_parsed_fields_and_amounts():
    state = parse_matchstate("MATCHSTATE:2:5:rcc/:||AsKd/2c3c4c")
    assert (state.position, state.hand, state.players) == (2, 5, 3)
    assert state.holes == ((), (), tuple(parse_cards("AsKd")))
    assert state.board == (tuple(parse_cards("2c3c4c")),)
    assert parse_matchstate(LINES[-1]).actions() == [(0, 2, 250), (0, 1, None), (1, 2, 500)]
    with pytest.raises(ConfigError, match="no-limit"):
        parse_matchstate(LINES[-1]).replay(GameConfig())


@pytest.mark.parametrize(
    "line",
    [
        "MATCHSTATE:0:0:",  # truncated
        "MATCHSTATE:x:0::As2d|",
        "MATCHSTATE:3:0::As2d|",  # no such position
        "MATCHSTATE:0:0:cq:As2d|",  # unknown action letter
        "MATCHSTATE:0:0:c5:As2d|",  # an amount on a call
        "MATCHSTATE:0:0::AsAs2d|",
        "STATE:0:cc:As2d|",
        "MATCHSTATE:0:0::" + "As2d|" * 1000,  # over the protocol's line length
    ],
)
def test_bad_lines_are_refused(line):
    with pytest.raises(CorruptData):
        parse_matchstate(line)


def test_longest_line_allowed():
    line = "MATCHSTATE:0:0::As2d|" + "|" * (MAX_LINE - 21)
    assert len(line) == MAX_LINE
    assert parse_matchstate(line).players == line.count("|") + 1


@pytest.mark.parametrize(
    "line, config, ours",
    [
        ("MATCHSTATE:1:0::|9s8h", GameConfig(), True),  # heads-up: the button acts first pre-flop
        ("MATCHSTATE:0:0::9s8h|", GameConfig(), False),
        ("MATCHSTATE:0:0:c:9s8h|", GameConfig(), True),
        ("MATCHSTATE:0:0:cc/:9s8h|/8c8d5c", GameConfig(), True),  # after the flop position 0 opens
        ("MATCHSTATE:1:0:cc/:|9s8h/8c8d5c", GameConfig(), False),
        ("MATCHSTATE:0:0:rrrr:9s8h|", GameConfig(), False),  # an illegal line raises, see below
        ("MATCHSTATE:2:0::||9s8h", GameConfig(), True),  # three players: position 2 opens
        ("MATCHSTATE:1:0:cf:|9s8h|", GameConfig(), True),  # the big blind has its option
        ("MATCHSTATE:1:0:rf:|9s8h", GameConfig(), False),  # the hand is over
    ],
)
def test_whose_turn_comes_from_the_rules(line, config, ours):
    state = parse_matchstate(line)
    if "rrrr" in line:  # capped after three raises: the fourth is against the rules
        with pytest.raises(Exception, match="action 4"):
            state.is_our_turn(config)
        return
    assert state.is_our_turn(config) == ours


def test_the_dealer_shows_only_what_a_seat_may_see():
    cards = parse_cards("As Kd 2c 3c Qh Qd 7s 8s 9s Ts Js")
    state = HandState(GameConfig(), cards[:6], cards[6:])
    assert matchstate_of(state, 1, 4).format() == "MATCHSTATE:1:4::|2c3c|"
    while not state.is_over:
        state.act(CALL)
    final = matchstate_of(state, 0, 4).format()
    assert final == "MATCHSTATE:0:4:ccc/ccc/ccc/ccc:AsKd|2c3c|QhQd/7s8s9s/Ts/Js"


# -- the fast paths against their references -------------------------------------------------------------


def _random_hand_states(rng, players):
    """Every state of one hand of random legal actions (the start, after each action, the end)."""
    cards = [int(c) for c in rng.permutation(52)[: 2 * players + 5]]
    state = HandState(GameConfig(), cards[: 2 * players], cards[2 * players :])
    states = [state.copy()]
    while not state.is_over:
        state.act(int(rng.choice(state.legal_actions())))
        states.append(state.copy())
    return states


def _same_hand(a: HandState, b: HandState) -> bool:
    same = (a.actions, a.actor, a.round, a.board_seen, a.pot) == (
        b.actions,
        b.actor,
        b.round,
        b.board_seen,
        b.pot,
    )
    return same and (not a.is_over or a.nets == b.nets)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_line_writer_and_follower_equal_their_references(players):
    """The dealer's `HandLines` writes what `matchstate_of` formats (and the log's STATE line what
    `format_state_line` does); the client's `Follower` reaches the
    state `MatchState.replay` rebuilds from scratch, line after line, for every seat of 200 random hands."""
    rng = np.random.default_rng(players)
    followers = [Follower(GameConfig()) for _ in range(players)]
    text_followers = [Follower(GameConfig()) for _ in range(players)]  # `follow_line`: the text itself
    for hand in range(200):
        states = _random_hand_states(rng, players)
        lines = HandLines(hand)  # shared by the seats, as at the dealer: every seat's line after each action
        for state in states:
            texts = lines.lines(state)
            for p in range(players):
                line = texts[p]
                assert line == matchstate_of(state, p, hand).format()
                ms = parse_matchstate(line)
                followed = followers[p].follow(ms)
                reference = ms.replay(GameConfig())
                assert _same_hand(followed, reference)
                assert _same_hand(followed, state)  # the seat's view keeps the whole hand
                assert _same_hand(text_followers[p].follow_line(line), reference)
                assert text_followers[p].last == ms
        end = states[-1]  # the log's line of the hand, from the texts made for its lines
        values, names = [str(v) for v in end.nets], [f"p{p}" for p in range(players)]
        assert lines.state_line(values, names) == format_state_line(
            hand, end.betting_string(), end.holes, end.board_seen, values, names
        )


def test_follower_judges_every_line_as_the_reference_does():
    """Lines that repeat, go back, jump hands or break the rules: the follower's answer (a state or the
    error) is the full replay's."""
    rng = np.random.default_rng(7)
    lines = []
    for hand in range(40):
        for state in _random_hand_states(rng, 3):
            lines.append(matchstate_of(state, hand % 3, hand).format())
    base = "MATCHSTATE:0:0:ccc/:As2d||/Kh7c3s"  # each bad line follows this one, which it extends
    bad = [
        "MATCHSTATE:0:0:ccc/rrrrr:As2d||/Kh7c3s",  # over the cap
        "MATCHSTATE:0:0:ccc/c:As2d||/As7c3s",  # a card twice
        "MATCHSTATE:0:0:ccc/ccc:As2d||/Kh7c3s",  # the turn reached with no turn card
        "MATCHSTATE:0:0:ccc/cc/:As2d||/Kh7c3s/9d",  # a round the rules do not reach
        "MATCHSTATE:0:0:ccc/ccc/r250:As2d||/Kh7c3s/9d",  # a no-limit amount
        "MATCHSTATE:0:0:ccc/ccc/:As2d||/Kh7c3s/7c",  # a turn card dealt on the flop
        "MATCHSTATE:0:0:ccc/ccc/:As2d||/Kh7c3s/As",  # a turn card in our hand
        "MATCHSTATE:0:1::As2d||/As7c3s",  # a new hand with a card twice
    ]
    good = ["MATCHSTATE:0:0:ccc/ccc/ccc/:As2d||/Kh7c3s/9d/2c"]  # two rounds dealt at once
    river = "MATCHSTATE:0:0:ccc/ccc/ccc/cc:As2d||/Kh7c3s/9d/2c"  # the cards shown down follow this one
    bad += [
        "MATCHSTATE:0:0:ccc/ccc/ccc/ccc:As2d|KhQd|JcJd/Kh7c3s/9d/2c",  # a card shown that is on the board
        "MATCHSTATE:0:0:ccc/ccc/ccc/ccc:As2d|QhQd|QhJd/Kh7c3s/9d/2c",  # a card shown twice
        "MATCHSTATE:0:0:ccc/ccc/ccc/ccc:As2d|QhQd|/Kh7c3s/9d/2c",  # one of the players still in not shown
    ]
    shown = [
        "MATCHSTATE:0:0:ccc/ccc/ccc/ccc:As2d|QhQd|JcJd/Kh7c3s/9d/2c",  # the showdown
        "MATCHSTATE:0:0:ccc/ccc/ccc/ccc:AsJh|QhQd|JcJd/Kh7c3s/9d/2c",  # our own cards changed
        "MATCHSTATE:0:0:ccc/ccc/ccc/c:As2d|QhQd|JcJd/Kh7c3s/9d/2c",  # cards shown before the end
    ]
    shuffled = [lines[i] for i in rng.integers(0, len(lines), 200)]  # repeats, going back, jumping hands
    stream = lines + [line for b in bad[:-3] + good for line in (base, b)]
    stream += [line for b in bad[-3:] + shown for line in (river, b)] + shuffled
    follower, text_follower = Follower(GameConfig()), Follower(GameConfig())
    errors = 0
    for line in stream:
        ms = parse_matchstate(line)
        try:
            expected = ms.replay(GameConfig())
        except Exception as exc:  # noqa: BLE001 - the same error, by type and message
            with pytest.raises(type(exc), match=re.escape(str(exc))):
                follower.follow(ms)
            with pytest.raises(type(exc), match=re.escape(str(exc))):
                text_follower.follow_line(line)
            errors += 1
            continue
        assert _same_hand(follower.follow(ms), expected)
        assert _same_hand(text_follower.follow_line(line), expected)
    assert errors == len(bad)


def test_card_fields_read_by_table_as_parse_cards_reads_them():
    """`_cards` (fields of up to two cards, and flops, by table) against `parse_cards` (the reference):
    the same codes, or the same error, for random fields of the protocol's cards, repeats and other text."""
    rng = np.random.default_rng(3)
    texts = [format_card(c) for c in range(52)] + ["as", "10h", "Xx", "A", "♠A"]
    fields = ["", "AsAs", "AsKdAs", "AsKdQh2c"]
    fields += ["".join(rng.choice(texts, size=k)) for k in (1, 2, 2, 3, 3) for _ in range(300)]
    for text in fields:
        try:
            expected = tuple(parse_cards(text))
        except InvalidCards as exc:
            with pytest.raises(InvalidCards, match=re.escape(str(exc))):
                _cards(text)
            continue
        assert _cards(text) == expected, text


@pytest.mark.parametrize(
    "line, holes",
    [
        ("MATCHSTATE:1:0::|Ks2d|", ((), ("Ks", "2d"), ())),  # three players, the others' fields empty
        ("MATCHSTATE:0:12:rcf/cc/r:7h7d|||||/Ts9s2c/Ah", (("7h", "7d"),) + ((),) * 5),  # six players
        ("MATCHSTATE:9:3::|||||||||AhAd", ((),) * 9 + (("Ah", "Ad"),)),  # ten players, the last position
        # a four-player showdown: the two still in show, the folded seats stay empty
        ("MATCHSTATE:0:99:fcrcc/crc/cc/rcc:|AsKd|QcJc|/2c3c4c/5d/6h", ((), ("As", "Kd"), ("Qc", "Jc"), ())),
    ],
)
def test_multi_player_card_strings(line, holes):
    state = parse_matchstate(line)
    assert state.holes == tuple(tuple(parse_cards(" ".join(h))) for h in holes)
    assert state.format() == line


def test_no_limit_amounts_over_several_rounds():
    state = parse_matchstate("MATCHSTATE:0:21:r300c/cr600r1200c/r2400:9hQd|/8dAs8s/4c")
    raise_, call = 2, 1
    assert state.actions() == [
        (0, raise_, 300), (0, call, None),
        (1, call, None), (1, raise_, 600), (1, raise_, 1200), (1, call, None),
        (2, raise_, 2400),
    ]  # fmt: skip
    assert state.format().endswith(":r300c/cr600r1200c/r2400:9hQd|/8dAs8s/4c")


@pytest.mark.parametrize("comment", ["# a comment", ";another", "#", ""])
def test_comment_and_empty_lines_are_no_states(comment):
    with pytest.raises(CorruptData, match="not a MATCHSTATE line"):
        parse_matchstate(comment)  # the client skips them before parsing; a parser never takes them


@pytest.mark.parametrize("end", [b"\n", b"\r\n"])
def test_channel_takes_lines_up_to_the_limit_and_skips_longer_ones(end):
    """Through a real socket: 4,096 bytes are a line, 4,097 and a megabyte are skipped (LineTooLong) without
    keeping more than a line's worth, and the lines after them read normally."""
    longest = b"MATCHSTATE:0:0::As2d|" + b"|" * (MAX_LINE - 21)
    server = socket.create_server(("127.0.0.1", 0))
    b = socket.create_connection(server.getsockname(), timeout=5)
    channel = Channel(server.accept()[0])
    server.close()
    for data in (longest + end, longest + b"|" + end, b"x" * 1_000_000 + end, b"MATCHSTATE:0:1::As2d|" + end):
        sender = threading.Thread(target=b.sendall, args=(data,))
        sender.start()
        if len(data) - len(end) <= MAX_LINE:
            assert channel.readline(5).encode() == data[: -len(end)]
        else:
            with pytest.raises(LineTooLong):
                channel.readline(5)
        kept = len(channel.partial) + sum(len(line or b"") for line in channel.lines)
        assert kept <= 2 * 65536  # never more than a read beyond a line
        sender.join(5)
    b.close()
    with pytest.raises(ConnectionClosed):
        channel.readline(5)
    channel.close()


def test_a_polling_channel_reads_what_comes_within_and_after_its_poll_and_keeps_deadlines():
    """`poll_for`: a line already there, one that comes while the channel polls, and one that comes after
    the poll (the read then sleeps) are all read; a deadline shorter than the poll ends the read on time; a
    peer that closes while the channel polls is `ConnectionClosed`."""
    server = socket.create_server(("127.0.0.1", 0))
    b = socket.create_connection(server.getsockname(), timeout=5)
    channel = Channel(server.accept()[0])
    server.close()
    channel.poll_for = 0.05
    b.sendall(b"MATCHSTATE:0:0::As2d|\r\n")
    assert channel.readline(5) == "MATCHSTATE:0:0::As2d|"
    for delay in (0.01, 0.2):  # within the poll, and after it
        timer = threading.Timer(delay, b.sendall, args=(f"late {delay}\r\n".encode(),))
        timer.start()
        assert channel.readline(5) == f"late {delay}"
        timer.join()
    began = time.monotonic()
    assert channel.readline(0.01) is None  # nothing comes: the deadline, not the poll, ends the read
    assert time.monotonic() - began < 0.04
    threading.Timer(0.01, b.close).start()
    with pytest.raises(ConnectionClosed):
        channel.readline(5)
    channel.close()


@pytest.mark.parametrize("seconds", [-1e-6, MAX_POLL * 1.01, float("nan"), "200"])
def test_bad_polling_times_are_refused(seconds):
    with pytest.raises(ConfigError, match="polls 0 to"):
        check_poll(seconds)


def test_acpc_state_line_round_trip():
    """A finished hand as the dealer log's STATE line, and the line replayed back into the same record."""
    holes, board = parse_cards("As Ad Kh Kd"), parse_cards("2c 7d 9h Jd Kc")
    s = HandState(GameConfig(), holes, board)
    for action in [RAISE, CALL, CALL, RAISE, CALL, CALL, CALL, RAISE, FOLD]:
        s.act(action)
    record = record_of(s, [UNLIMITED_STACK] * 2, ["alice", "bob"])
    line = acpc_state_line(record, 7)
    assert line == "STATE:7:rc/crc/cc/rf:AsAd|KhKd/2c7d9h/Jd/Kc:30|-30:alice|bob"
    assert parse_acpc_state_line(line, GameConfig()) == record
    assert score_line([30.0, -30.0], ["alice", "bob"]) == "SCORE:30|-30:alice|bob"
    with pytest.raises(CorruptData, match="differ from the replayed nets"):
        parse_acpc_state_line(line.replace("30|-30", "40|-40"), GameConfig())


# -- the dealer's log file ----------------------------------------------------------------------------


class _SignalledFile(io.StringIO):
    """A file that receives SIGTERM while it is being written; ``written``: what was written to it."""

    written = ""

    def write(self, text: str) -> int:
        os.kill(os.getpid(), signal.SIGTERM)
        self.written += text
        return len(text)


def test_a_log_file_writes_whole_batches_and_a_stop_signal_waits_for_the_write():
    """Lines are written together once the time has passed (checked at a hand's end) and at close; a
    SIGTERM that comes in the middle of a write stops the dealer (`SystemExit` 143) once the batch is
    written, so the close that follows writes no line twice."""
    file = io.StringIO()
    log = LogFile(file, every=0.2)
    log.write("a\n")
    log.hand_done()
    assert file.getvalue() == ""  # not yet due
    time.sleep(0.25)
    log.write("b\n")
    log.hand_done()
    assert file.getvalue() == "a\nb\n"  # one write of both
    before = signal.getsignal(signal.SIGTERM)
    signalled = _SignalledFile()
    with stop_on_signals():
        log = LogFile(signalled, every=3600)
        log.write("STATE:0\n")
        log.write("STATE:1\n")
        with pytest.raises(SystemExit) as stopped:
            log.close()
    assert stopped.value.code == 128 + signal.SIGTERM
    assert signalled.written == "STATE:0\nSTATE:1\n" and signalled.closed
    assert signal.getsignal(signal.SIGTERM) == before  # put back
