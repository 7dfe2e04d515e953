"""The Games application: the only door to the event store."""
from __future__ import annotations

from typing import Any, Iterable, Mapping
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import retry

from service.errors import FactsRefused, GameAlreadyExists, GameNotFound, InvalidInput
from service.game import Game


class Games(Application[UUID]):
    name = "Games"  # pins the table names games_events / games_snapshots

    def create_game(self, header: Mapping[str, Any]) -> Game:
        """Start a game from a validated header (see service.schemas.GameHeaderSchema)."""
        game = self._new_game(header)
        try:
            self.save(game)
        except IntegrityError:
            raise GameAlreadyExists(f"game {game.id} already exists", field="id") from None
        return game

    def import_game(self, header: Mapping[str, Any], facts: list[Mapping[str, Any]]) -> Game:
        """Create a game with all its facts in one transaction: all of it is stored, or none.

        Each fact mapping holds the fact (type, actor, data, visibility) plus the stored
        recorder, recorded_at and command id. On refusal, FactsRefused.details["index"]
        names the fact.
        """
        if header.get("id") is not None and self.exists(header["id"]):
            raise GameAlreadyExists(f"game {header['id']} is already in the archive", field="id")
        game = self._new_game(header)
        for index, group in _command_groups(facts):
            try:
                game.record(
                    [_fact_part(f) for f in group],
                    command_id=group[0].get("command"),
                    recorder=group[0].get("recorder"),
                    recorded_at=[f.get("recorded_at") for f in group],
                )
            except (FactsRefused, InvalidInput) as e:
                e.details["index"] = index + e.details.get("index", 0)
                raise
        try:
            self.save(game)
        except IntegrityError:
            raise GameAlreadyExists(f"game {game.id} is already in the archive", field="id") from None
        return game

    @retry(IntegrityError, max_attempts=5, wait=0.01)
    def record(self, game_id: UUID, facts: list[Mapping[str, Any]], **kwargs: Any) -> dict[str, Any]:
        """Append a batch to a game. Two tablets racing on one game: reload and check again."""
        game = self.get_game(game_id)
        result = game.record(facts, **kwargs)
        if not result["replayed"]:
            recordings = self.save(game)
            result["notification_id"] = recordings[-1].notification.id
        return result

    def get_game(self, game_id: UUID, version: int | None = None) -> Game:
        try:
            return self.repository.get(game_id, version=version)
        except AggregateNotFoundError:
            raise GameNotFound(f"no game {game_id}", field="game_id") from None

    def exists(self, game_id: UUID) -> bool:
        return game_id in self.repository

    @staticmethod
    def _new_game(header: Mapping[str, Any]) -> Game:
        played_on = header.get("played_on")
        return Game(
            game_id=header.get("id") or uuid4(),
            ruleset=header["ruleset"],
            mode=header.get("mode", "standard"),
            players=[{"seat": p["seat"], "name": p["name"].strip()} for p in header["players"]],
            strict=bool(header.get("strict", True)),
            options=dict(header.get("options") or {}),
            league=header.get("league"),
            tags=list(header.get("tags") or []),
            played_on=played_on.isoformat() if hasattr(played_on, "isoformat") else played_on,
            title=header.get("title"),
        )


def _fact_part(f: Mapping[str, Any]) -> dict[str, Any]:
    return {k: f[k] for k in ("type", "actor", "data", "visibility") if k in f}


def _command_groups(facts: list[Mapping[str, Any]]) -> Iterable[tuple[int, list[Mapping[str, Any]]]]:
    """Consecutive facts of one command (same command id and recorder) form one batch again."""
    start = 0
    while start < len(facts):
        end = start + 1
        key = (facts[start].get("command"), facts[start].get("recorder"))
        while end < len(facts) and key[0] is not None and (facts[end].get("command"), facts[end].get("recorder")) == key:
            end += 1
        yield start, list(facts[start:end])
        start = end
