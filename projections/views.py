"""The materialised views: each a PostgresTrackingRecorder whose rows are derived from Game.

Every view writes one row (or one row per seat) per game, recomputed from the folded
game, so applying a page of events only writes the last state of each game it touched.
Tracking and rows commit in one transaction: exactly once.
"""
from __future__ import annotations

import json
from typing import Iterable

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from psycopg import sql

from service.game import Game


class GameView(PostgresTrackingRecorder):
    """Base: table names follow the tracking table's prefix, so generations coexist."""

    view = ""
    tables: tuple[str, ...] = ()

    def __init__(self, datastore, *, tracking_table_name: str, **kwargs) -> None:
        super().__init__(datastore, tracking_table_name=tracking_table_name, **kwargs)
        self.prefix = tracking_table_name.removesuffix("_tracking")

    def table(self, name: str) -> sql.Identifier:
        return sql.Identifier(self.datastore.schema or "public", f"{self.prefix}_{name}")

    def process(self, games: Iterable[Game], tracking: Tracking) -> None:
        """Write the rows of ``games`` and advance tracking, atomically."""
        latest = {g.id: g for g in games}
        with self.datastore.transaction(commit=True) as curs:
            self._insert_tracking(curs, tracking)
            for game in latest.values():
                self.write(curs, game)

    def write(self, curs, game: Game) -> None:
        raise NotImplementedError


def _summary(game: Game) -> dict:
    return game.ruleset.position(game.head_state)


class GameIndexView(GameView):
    view = "gameindex"

    def write(self, curs, game: Game) -> None:
        pos = _summary(game)
        curs.execute(
            sql.SQL(
                "INSERT INTO {} (game_id, ruleset, mode, title, league, tags, played_on, players, player_search,"
                " strict, status, round, facts, created_at, updated_at)"
                " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
                " ON CONFLICT (game_id) DO UPDATE SET status = EXCLUDED.status, round = EXCLUDED.round,"
                " facts = EXCLUDED.facts, updated_at = EXCLUDED.updated_at"
            ).format(self.table("games")),
            (
                game.id,
                game.ruleset_name,
                game.mode,
                game.title,
                game.league,
                game.tags,
                game.played_on,
                json.dumps(game.players),
                " ".join(p["name"].casefold() for p in game.players),
                game.strict,
                "finished" if pos.get("finished") else "in progress",
                pos.get("round"),
                game.position,
                game.created_on,
                game.modified_on,
            ),
            prepare=True,
        )


class GameStateView(GameView):
    view = "gamestate"

    def write(self, curs, game: Game) -> None:
        ruleset, state = game.ruleset, game.head_state
        pos = ruleset.position(state)
        result = ruleset.score(state)
        curs.execute(
            sql.SQL(
                "INSERT INTO {} (game_id, position, round, phase, acting, finished, ending, flagged, state, result,"
                " updated_at) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
                " ON CONFLICT (game_id) DO UPDATE SET position = EXCLUDED.position, round = EXCLUDED.round,"
                " phase = EXCLUDED.phase, acting = EXCLUDED.acting, finished = EXCLUDED.finished,"
                " ending = EXCLUDED.ending, flagged = EXCLUDED.flagged, state = EXCLUDED.state,"
                " result = EXCLUDED.result, updated_at = EXCLUDED.updated_at"
            ).format(self.table("states")),
            (
                game.id,
                game.position,
                pos.get("round"),
                pos.get("phase"),
                pos.get("acting"),
                bool(pos.get("finished")),
                result.ending if result else None,
                sum(1 for r in game.recorded if r.flags),
                json.dumps(ruleset.describe(state)),
                json.dumps(result.as_dict()) if result else None,
                game.modified_on,
            ),
            prepare=True,
        )


class PlayerResultsView(GameView):
    view = "playerresults"

    def write(self, curs, game: Game) -> None:
        ruleset, state = game.ruleset, game.head_state
        finished = bool(ruleset.position(state).get("finished"))
        result = ruleset.score(state) if finished else None
        verdicts = {p.seat: p for p in result.players} if result else {}
        for player in game.players:
            v = verdicts.get(player["seat"])
            curs.execute(
                sql.SQL(
                    "INSERT INTO {} (game_id, seat, player, player_key, ruleset, mode, played_on, finished, outcome,"
                    " survival, death_cause, objective) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
                    " ON CONFLICT (game_id, seat) DO UPDATE SET finished = EXCLUDED.finished,"
                    " outcome = EXCLUDED.outcome, survival = EXCLUDED.survival,"
                    " death_cause = EXCLUDED.death_cause, objective = EXCLUDED.objective"
                ).format(self.table("results")),
                (
                    game.id,
                    player["seat"],
                    player["name"],
                    player["name"].casefold(),
                    game.ruleset_name,
                    game.mode,
                    game.played_on,
                    finished,
                    v.outcome if v else None,
                    v.survival if v else None,
                    v.death_cause if v else None,
                    v.objective if v else None,
                ),
                prepare=True,
            )


VIEWS: dict[str, type[GameView]] = {v.view: v for v in (GameIndexView, GameStateView, PlayerResultsView)}
