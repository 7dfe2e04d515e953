"""A replay as the pages show it: the fold from the archive's replay cache (service/replay_cache.py,
decision 0031: extended fact by fact, never refolded for a new fact) plus what every step of that
fold shares: the story (sentences, moments, rounds), the seq → index map and the rendered log, so a
step costs a lookup and a render of its own panel. The story and the rendered parts are kept per
language (decision 0019): the fold is the same in every language, the sentences are not.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from uuid import UUID

from service import i18n
from service.rules.replay import Replay
from service.rules.story import Story, tell


@dataclass
class Folded:
    game: object
    replay: Replay
    _stories: dict[str, Story] = field(default_factory=dict)  # by language
    _index: dict[int, int] | None = None
    _data: dict | None = None
    _log_html: dict[str, str] = field(default_factory=dict)  # rendered once per language by the web layer
    _marks_html: dict[str, str] = field(default_factory=dict)

    @property
    def seqs(self) -> list[int]:
        return self.replay.seqs

    @property
    def index(self) -> dict[int, int]:
        """seq → step index (built when a page first needs it, not for every fold)."""
        if self._index is None:
            self._index = {s: i for i, s in enumerate(self.seqs)}
        return self._index

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


def replay_of(archive, game_id: UUID, corrected: bool = True, as_: str = "all", game=None) -> Folded:
    """The folded replay of a game at its head, as ``as_`` saw it (``game``: already read by the caller)."""
    game = game if game is not None else archive.games.get_game(game_id)
    entry = archive.replays.entry(game, corrected, as_)
    found = entry.extras.get("web")
    if found is None:
        found = entry.extras.setdefault("web", Folded(game, entry.folding.replay))
    return found
