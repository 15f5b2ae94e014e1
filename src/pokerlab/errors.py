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


class StorageError(PokerlabError, OSError):
    """A file or database could not be written (a full disk, a folder gone): what was written before stays
    readable."""


class SandboxUnavailable(PokerlabError, RuntimeError):
    """A layer of the sandbox for outside bots is missing and the sandbox is required."""


class BotFault(PokerlabError, RuntimeError):
    """A bot failed (to start, or more than the match tolerates): one line naming it and its first fault;
    ``details`` holds the whole story (a traceback) for the results folder's faults.log."""

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(message, details)
        self.details = details or message

    def __str__(self) -> str:
        return self.args[0]
