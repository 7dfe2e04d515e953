"""Games folded as their events arrive, so a view never re-reads a game's history per event."""
from __future__ import annotations

from collections import OrderedDict
from typing import Callable
from uuid import UUID

from service.archive import Games
from service.game import Game


class GameFolder:
    """Keeps the latest folded Game per id; falls back to the event store on a gap."""

    def __init__(self, games: Callable[[], Games], maxsize: int = 256) -> None:
        self._games = games
        self._cache: "OrderedDict[UUID, Game]" = OrderedDict()
        self._maxsize = maxsize

    def advance(self, event) -> Game:
        """The game as of ``event`` (its version), reusing the previous fold when it is one behind."""
        gid = event.originator_id
        game = self._cache.pop(gid, None)
        if isinstance(event, Game.Created):
            game = event.mutate(None)
        elif game is not None and game.version == event.originator_version - 1:
            game = event.mutate(game)
        else:
            game = self._games().get_game(gid, version=event.originator_version)
        self._cache[gid] = game
        if len(self._cache) > self._maxsize:
            self._cache.popitem(last=False)
        return game
