"""The few exceptions pokerlab raises; each message names the offending value and what is allowed.

The CLI turns any `PokerlabError` into one line on stderr and exit code 2 (1 for `MatchFailed`).
"""


class PokerlabError(Exception):
    """Base class of every error pokerlab raises on purpose."""


class InvalidCards(PokerlabError, ValueError):
    """A card text or code is malformed, out of range, or repeated."""


class IllegalAction(PokerlabError, ValueError):
    """An action that the rules do not allow at this point of the hand."""


class ConfigError(PokerlabError, ValueError):
    """A configuration value outside what is allowed."""


class CorruptData(PokerlabError, ValueError):
    """A stored file or table that cannot be read back as what it claims to be."""


class MatchFailed(PokerlabError):
    """A player failed (never connected, crashed, left, timed out, broke the protocol) where faults are not
    tolerated: the match stopped. The CLI exits 1, as ACPC's reference dealer does for a failed match."""
