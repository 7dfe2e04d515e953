"""Folded replays kept per (game, version, view), so stepping through a game folds it once."""
from __future__ import annotations

import threading
from collections import OrderedDict
from uuid import UUID

from service.archive import Games
from service.rules.replay import Replay

_lock = threading.Lock()
_cache: "OrderedDict[tuple[UUID, int, bool], tuple[object, Replay]]" = OrderedDict()
MAXSIZE = 64


def replay_of(games: Games, game_id: UUID, corrected: bool = True):
    """``(game, replay)`` at the game's head."""
    game = games.get_game(game_id)
    key = (game.id, game.version, corrected)
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    value = (game, game.replay(corrected))
    with _lock:
        _cache[key] = value
        while len(_cache) > MAXSIZE:
            _cache.popitem(last=False)
    return value
