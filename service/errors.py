"""Domain errors: each says what was wrong and where, so a door can map it to a clear answer."""
from __future__ import annotations

from typing import Any


class ArchiveError(Exception):
    """Base of every error a caller can cause."""

    status = 400

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def as_dict(self) -> dict[str, Any]:
        return {"error": type(self).__name__, "message": self.message, **self.details}


class GameNotFound(ArchiveError):
    status = 404


class GameAlreadyExists(ArchiveError):
    status = 409


class StalePosition(ArchiveError):
    """The client's expected position is not the game's current one."""

    status = 409


class CommandIdReused(ArchiveError):
    """A command id came back with different facts than the first time."""

    status = 409


class FactsRefused(ArchiveError):
    """A fact in the batch broke a rule (strict game) or could not be read at all."""

    status = 422


class InvalidInput(ArchiveError):
    status = 400


class GameBusy(ArchiveError):
    """Others kept the game busy (writers landing first, or a read queue); nothing was stored. Retry later."""

    status = 503
