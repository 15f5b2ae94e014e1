"""The few exceptions pokerlab raises; each message names the offending value and what is allowed.

The CLI turns any `PokerlabError` into one line on stderr and exit code 2 (1 for `BotFault`: a match that
failed).
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


class SandboxUnavailable(PokerlabError, RuntimeError):
    """A layer of the sandbox for outside bots is missing and the sandbox is required."""


class BotFault(PokerlabError, RuntimeError):
    """An outside or isolated bot failed more than the match tolerates; the message names it and its fault."""
