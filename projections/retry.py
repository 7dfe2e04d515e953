"""Retrying parked events: project each parked game again, as the view's position says it is.

Views write whole rows recomputed from the folded game, so retrying a parked event means
writing its game as of the last of its events the view has passed (tracking), never an
older state: a later event of the game may already have been projected. The row and the
deletion of the game's parked events commit together; the tracking row is locked meanwhile
so the live worker cannot write the same game in between.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from uuid import UUID

from projections.generations import generations
from projections import parking
from projections.parking import describe, is_infrastructure
from projections.views import VIEWS, GameView
from service.archive import Games
from service.db import Database

log = logging.getLogger(__name__)


@dataclass
class RetryReport:
    view: str
    generation: int
    retried: int  # games
    fixed: int  # games whose parked events are now projected
    events_fixed: int


def retry_parked(db: Database, view: str | None = None, changed_code_only: bool = False) -> list[RetryReport]:
    """Retry the parked events of ``view`` (default: all views).

    ``changed_code_only``: only games parked by another version of the code (what the worker
    does when it starts). Parked rows of a generation that no longer exists are dropped.
    """
    from projections.runner import open_view

    if view is not None and view not in VIEWS:
        raise LookupError(f"unknown view {view!r}; known: {', '.join(VIEWS)}")
    with db.connect(autocommit=True) as conn:
        live = {(v, g) for v, (a, b) in generations(conn).items() for g in (a, b) if g is not None}
        rows = conn.execute(
            "SELECT view, generation, game_id, bool_or(code <> %s) FROM parked_events"
            " WHERE %s::text IS NULL OR view = %s GROUP BY view, generation, game_id ORDER BY 1, 2, 3",
            (parking.code_version(), view, view),
        ).fetchall()
        for v, g in {(v, g) for v, g, _, _ in rows} - live:
            conn.execute("DELETE FROM parked_events WHERE view = %s AND generation = %s", (v, g))
    todo: dict[tuple[str, int], list[UUID]] = {}
    for v, g, game_id, changed in rows:
        if (v, g) in live and (changed or not changed_code_only):
            todo.setdefault((v, g), []).append(game_id)
    if not todo:
        return []
    reports = []
    games = Games(env=db.eventsourcing_env())
    try:
        for (v, g), game_ids in todo.items():
            target = open_view(db, v, g)
            report = RetryReport(v, g, len(game_ids), 0, 0)
            try:
                for game_id in game_ids:
                    fixed = _retry_game(games, target, game_id)
                    report.fixed += fixed > 0
                    report.events_fixed += fixed
            finally:
                target.datastore.close()
            reports.append(report)
    finally:
        games.close()
    return reports


def _version_at(curs, game_id: UUID, position: int) -> int | None:
    curs.execute(
        "SELECT max(originator_version) AS v FROM public.games_events WHERE originator_id = %s AND notification_id <= %s",
        (game_id, position),
    )
    return curs.fetchone()["v"]


def _retry_game(games: Games, target: GameView, game_id: UUID) -> int:
    """Project one parked game again; return how many of its parked events that cleared."""
    for _ in range(5):
        # fold outside the transaction: the library kills a connection idle in one for 5 s
        with target.datastore.transaction() as curs:
            position = target.position(curs)
            version = _version_at(curs, game_id, position)
        try:
            game = games.get_game(game_id, version=version)
            with target.datastore.transaction(commit=True) as curs:
                now = target.position(curs, lock=True)
                if now != position and _version_at(curs, game_id, now) != version:
                    continue  # the live worker moved this game on meanwhile: fold again
                target.write(curs, game)
                curs.execute(
                    "DELETE FROM public.parked_events WHERE view = %s AND generation = %s AND game_id = %s"
                    " AND notification_id <= %s",
                    (target.view, target.generation, game_id, now),
                )
                cleared = curs.rowcount
            log.info("%s: game %s projected again; %d parked event(s) cleared", target.prefix, game_id, cleared)
            return cleared
        except Exception as error:  # noqa: BLE001 - still failing: count it and keep it parked
            if is_infrastructure(error):
                raise
            with target.datastore.transaction(commit=True) as curs:
                curs.execute(
                    "UPDATE public.parked_events SET attempts = attempts + 1, last_failed = now(), error = %s, code = %s"
                    " WHERE view = %s AND generation = %s AND game_id = %s",
                    (describe(error), parking.code_version(), target.view, target.generation, game_id),
                )
            return 0
    return 0
