"""The one action vocabulary of pokerlab: fold, check/call, bet/raise, as the ints 0, 1, 2.

Every layer (engine, modelling, agents, interfaces) uses these names; the ACPC letters f, c, r are only a
spelling for files and protocols.
"""

from __future__ import annotations

from enum import IntEnum

FOLD, CALL, RAISE = 0, 1, 2
#: ACPC letters of the actions: fold, call (or check), raise (or bet).
ACTION_LETTERS = "fcr"
#: The action of each letter the ACPC reference server reads (its ``charToAction``), what we read too:
#: ``f`` fold, ``c`` or ``k`` check or call, ``r`` or ``b`` bet or raise, in either case (we write only
#: `ACTION_LETTERS`).
LETTER_ACTIONS = {
    letter: action
    for letters, action in (("fF", FOLD), ("cCkK", CALL), ("rRbB", RAISE))
    for letter in letters
}


def check_or_fold(to_call: int) -> int:
    """What a player who does not answer does: check when checking is free (nothing owed), else fold.

    >>> check_or_fold(0), check_or_fold(10)
    (1, 0)
    """
    return CALL if to_call == 0 else FOLD


class Action(IntEnum):
    """The three fixed-limit actions; plain ints 0, 1, 2 work everywhere an Action does.

    >>> Action.RAISE.letter, Action(1).name
    ('r', 'CALL')
    """

    FOLD = FOLD
    CALL = CALL  # check when nothing is owed
    RAISE = RAISE  # bet when nothing is owed

    @property
    def letter(self) -> str:
        """The ACPC letter: f, c or r."""
        return ACTION_LETTERS[self]
