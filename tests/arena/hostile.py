"""Hostile bots for the sandbox tests (issue 24), loaded by path ("tests/arena/hostile.py:Class"). Each tries
one way to win that the arena must close; where it learns something, it says so in `Decision.info`. (The
bot whose import patches the arena is in patcher.py.)
"""

import ctypes
import json
import os
import pickle
import socket
import time

from pokerlab.actions import CALL, FOLD, RAISE
from pokerlab.agents import Agent, Decision

#: Where a bot's code would leave a mark if it ran in the arena's process.
PWNED = "/tmp/pokerlab-test-pwned-by-a-bot"


def _session_socket() -> socket.socket:
    """The bot's own wire to the table, found among its open file descriptors."""
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{name}").startswith("socket:"):
                return socket.socket(fileno=os.dup(int(name)))
        except OSError:
            continue
    raise RuntimeError("no socket")


class _Exploit:
    def __reduce__(self):
        return (os.system, (f"touch {PWNED}",))


class PickleSender(Agent):
    """Answers with a pickle that runs a command where it is unpickled, before its real answer."""

    name = "pickle-sender"

    def act(self, view):
        _session_socket().send(pickle.dumps(("action", 1, _Exploit())))
        return CALL


class RawAnswer(Agent):
    """Writes its answers to the table itself, each wrong in the way its ``make(question)`` is (the
    subclasses below, one per way), then lets its real answer follow."""

    name = "raw-answer"

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def act(self, view):
        self.asked += 1
        _session_socket().send(self.make(self.asked))
        time.sleep(0.05)  # the bad answer arrives first
        return CALL


def _json(make):
    return staticmethod(lambda seq: json.dumps(make(seq)).encode())


RAW_ANSWERS = {
    "RawFloatAction": _json(lambda seq: ["a", seq, 1.0, None, None, [0, []]]),
    "RawStringAction": _json(lambda seq: ["a", seq, "1", None, None, [0, []]]),
    "RawBoolAction": _json(lambda seq: ["a", seq, True, None, None, [0, []]]),
    "RawListAction": _json(lambda seq: ["a", seq, [1], None, None, [0, []]]),
    "RawTwoFields": _json(lambda seq: ["a", seq, 1]),
    "RawBadProbabilities": _json(lambda seq: ["a", seq, 1, [0.5, "x", 0.5], None, [0, []]]),
    "RawInfoList": _json(lambda seq: ["a", seq, 1, None, [1, 2], [0, []]]),
    "RawObject": _json(lambda seq: {"action": 1}),
    "RawNaN": staticmethod(lambda seq: b'["a",%d,NaN,null,null,[0,[]]]' % seq),
    "RawNotUtf8": staticmethod(lambda seq: b"\xff\xfe"),
}
for _name, _make in RAW_ANSWERS.items():
    globals()[_name] = type(_name, (RawAnswer,), {"make": _make, "name": _name.lower()})


class WrongType(Agent):
    """Returns from ``act`` its ``ANSWER``, which is not an action (the subclasses below, one per kind)."""

    name = "wrong-type"

    def act(self, view):
        return self.ANSWER


class IntSubclass(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


WRONG_ANSWERS = {
    "TwoTuple": (1, None),
    "FourTuple": (1, None, None, None),
    "IntSub": IntSubclass(1),
    "FloatAnswer": 2.0,
    "BoolAnswer": True,
    "ListAnswer": [1, None, None],
    "SetInfo": Decision(1, None, {"seen": {1, 2}}),
    "NoneAnswer": None,
}
for _name, _answer in WRONG_ANSWERS.items():
    globals()[_name] = type(_name, (WrongType,), {"ANSWER": _answer, "name": _name.lower()})


class Snoop(Agent):
    """Reads everything it can reach for the match seed and cards: every visible process's command line
    and environment, its parent's memory, and every file in and below its own folder (where a careless
    user may keep the results folder). Reports what it read as ``info["text"]`` (and calls)."""

    name = "snoop"

    def act(self, view):
        if view.actions[-1:] and len(view.actions) > 1:
            return CALL
        text = []
        for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
            for what in ("cmdline", "environ"):
                try:
                    with open(f"/proc/{pid}/{what}", "rb") as file:
                        text.append(file.read().replace(b"\0", b" ").decode(errors="replace"))
                except OSError:
                    pass
        try:
            with open(f"/proc/{os.getppid()}/mem", "rb") as mem:
                text.append(mem.read(1 << 16).decode(errors="replace"))
        except OSError:
            pass
        text.append(repr(sorted(os.environ.items())))
        here = os.path.dirname(os.path.abspath(__file__))
        for folder, _, files in os.walk(here):
            for name in files:
                text.append(os.path.join(folder, name))
                try:
                    with open(os.path.join(folder, name), "rb") as file:
                        text.append(file.read(1 << 16).decode(errors="replace"))
                except OSError:
                    pass
        return Decision(
            CALL,
            None,
            {"text": "\n".join(text)[: 1 << 18], "pids": sum(p.isdigit() for p in os.listdir("/proc"))},
        )


class _Remembers(Agent):
    """Like `cheaters.Memory`, but keeps what it saw outside its object (where is up to subclasses): it
    bets the house on a deal it has seen win, folds one it has seen lose; ``info["hits"]`` counts the deals
    it recognised."""

    def __init__(self) -> None:
        super().__init__()
        self.hits = 0

    def end_hand(self, end):
        memory = self.load()
        for p, cards in end.shown.items():
            memory[repr(sorted(cards) + sorted(end.board[:3]))] = end.nets[p] > 0
        self.save(memory)

    def act(self, view):
        known = self.load().get(repr(sorted(view.hole) + sorted(view.board[:3]))) if view.board else None
        if known is not None:
            self.hits += 1
        if known is True:
            action = RAISE if RAISE in view.legal_actions else CALL
        elif known is False and view.to_call:
            action = FOLD
        else:
            action = CALL
        return Decision(action, None, {"hits": self.hits})


_MEMORY: dict = {}


class ModuleMemory(_Remembers):
    """Remembers in a module-level dict (which one process serving every seat rotation would keep)."""

    name = "module-memory"

    def load(self):
        return _MEMORY

    def save(self, memory):
        pass


class DiskMemory(_Remembers):
    """Remembers in a file of the temporary folder."""

    name = "disk-memory"
    FILE = "/tmp/disk-memory.json"

    def load(self):
        try:
            with open(self.FILE) as file:
                return json.load(file)
        except OSError:
            return {}

    def save(self, memory):
        with open(self.FILE, "w") as file:
            json.dump(memory, file)


class Silent(Agent):
    """Never answers."""

    name = "silent"

    def act(self, view):
        time.sleep(3600)


class Forker(Agent):
    """Leaves a child behind (in a new session, renamed ``pokerlab-escapee``) that would live for an hour."""

    name = "forker"

    def act(self, view):
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                ctypes.CDLL(None).prctl(15, b"pokerlab-escapee", 0, 0, 0)  # PR_SET_NAME
                time.sleep(3600)
            os._exit(0)
        return CALL


class Hungry(Agent):
    """Takes 2 GB of memory at its first decision, and says whether it got them."""

    name = "hungry"

    def act(self, view):
        try:
            block = bytearray(2 << 30)
            got = len(block) > 0
        except MemoryError:
            got = False
        return Decision(CALL, None, {"got": got})


class Dialer(Agent):
    """Tries to reach the network: a public address and this machine's loopback."""

    name = "dialer"

    def act(self, view):
        reached = []
        for address in (("1.1.1.1", 53), ("8.8.8.8", 443), ("127.0.0.1", 22)):
            try:
                socket.create_connection(address, timeout=1).close()
                reached.append(address[0])
            except OSError:
                pass
        return Decision(CALL, None, {"reached": reached})


class BadHooks(Agent):
    """Calls, but its end_hand raises."""

    name = "bad-hooks"

    def end_hand(self, end):
        raise ValueError("end_hand broke")

    def act(self, view):
        return CALL


class Unbuildable(Agent):
    """Cannot be built."""

    name = "unbuildable"

    def __init__(self) -> None:
        raise RuntimeError("no config file here")
