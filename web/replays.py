"""Folded replays kept per (game, version, view, perspective), so stepping through a game folds it once.

Each entry also keeps what every step of that replay shares: the story (sentences, moments,
rounds), the seq → index map and the rendered log, so a step costs a lookup and a render of
its own panel — never a re-fold. The story and the rendered parts are kept per language
(decision 0019): the fold is the same in every language, the sentences are not.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from uuid import UUID

from service import i18n
from service.archive import Games
from service.rules.replay import Replay, fold
from service.rules.story import Story, tell

_lock = threading.Lock()
_cache: "OrderedDict[tuple[UUID, int, bool, str], Folded]" = OrderedDict()
MAXSIZE = 64


@dataclass
class Folded:
    game: object
    replay: Replay
    _stories: dict[str, Story] = field(default_factory=dict)  # by language
    seqs: list[int] = field(default_factory=list)
    index: dict[int, int] = field(default_factory=dict)
    _data: dict | None = None
    _log_html: dict[str, str] = field(default_factory=dict)  # rendered once per language by the web layer
    _marks_html: dict[str, str] = field(default_factory=dict)

    @property
    def log_html(self) -> str | None:
        return self._log_html.get(i18n.current())

    @log_html.setter
    def log_html(self, html: str) -> None:
        self._log_html[i18n.current()] = html

    @property
    def marks_html(self) -> str | None:
        return self._marks_html.get(i18n.current())

    @marks_html.setter
    def marks_html(self, html: str) -> None:
        self._marks_html[i18n.current()] = html

    @property
    def data(self) -> dict[str, str]:
        """The replay's step, moment and round lists as the page's data attributes (joined once)."""
        if self._data is None:
            st = self.story
            self._data = {"seqs": ",".join(map(str, self.seqs)),
                          "moments": ",".join(str(seq) for seq, _ in st.moments),
                          "rounds": ",".join(f"{r}:{seq}" for r, seq in st.rounds)}
        return self._data

    def __iter__(self):  # ``game, replay = replay_of(...)``, as before the story was kept here
        return iter((self.game, self.replay))

    @property
    def story(self) -> Story:
        """Told on first use in each language (the JSON API never needs it); two racing readers only tell it twice."""
        lang = i18n.current()
        story = self._stories.get(lang)
        if story is None:
            story = self._stories[lang] = tell(self.replay)
        return story


def replay_of(games: Games, game_id: UUID, corrected: bool = True, as_: str = "all", game=None) -> Folded:
    """The folded replay of a game at its head, as ``as_`` saw it (``game``: already read by the caller)."""
    game = game if game is not None else games.get_game(game_id)
    key = (game.id, game.version, corrected, as_)
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    rp = fold(game.ruleset, game.setup, game.facts, corrected, as_=as_)
    seqs = [s.seq for s in rp.steps]
    value = Folded(game, rp, {}, seqs, {s: i for i, s in enumerate(seqs)})
    with _lock:
        _cache[key] = value
        while len(_cache) > MAXSIZE:
            _cache.popitem(last=False)
    return value
