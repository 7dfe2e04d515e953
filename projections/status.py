"""How the read side is doing, per view: what ``nemesis-archive status``, /healthz and /admin/status show."""
from __future__ import annotations

import time
from datetime import datetime, timezone
from typing import Any

import psycopg
from psycopg import sql
from psycopg.rows import dict_row

from projections.generations import prefix
from service.db import Database

LAG_CAP = 100_000  # counting further would make a health check slow; more is reported as "at least"
ALIVE_WITHIN = 10.0  # seconds: a worker beats every 2 s (longer while it backs off from an outage)


class DatabaseUnavailable(RuntimeError):
    pass


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def projection_status(db: Database, worker=None, timeout: float = 4.0) -> dict[str, Any]:
    """Per view: active generation, tracking position, head, lag, parked count, last error, worker.

    Raises DatabaseUnavailable when the database does not answer within about ``timeout``
    seconds (2 s to connect, then five statements of at most 1 s each, while time is left).
    ``worker``: the in-process Worker, if any (its thread's liveness is added).
    """
    deadline = time.monotonic() + timeout
    try:
        conn = db.connect(
            autocommit=True, row_factory=dict_row, connect_timeout=2, options="-c statement_timeout=1000"
        )
    except psycopg.Error as e:
        raise DatabaseUnavailable(f"the database does not answer: {' '.join(str(e).split())}") from e

    def query(statement, params=()):
        if time.monotonic() > deadline:
            raise DatabaseUnavailable(f"the database did not answer within {timeout:.0f} s")
        return conn.execute(statement, params).fetchall()

    try:
        with conn:
            head = query("SELECT coalesce(max(notification_id), 0) AS head FROM public.games_events")[0]["head"]
            gens = query("SELECT view, active, building FROM public.read_models ORDER BY view")
            parked = {
                (r["view"], r["generation"]): r
                for r in query(
                    "SELECT DISTINCT ON (view, generation) view, generation, count(*) OVER w AS n, error, last_failed"
                    " FROM public.parked_events WINDOW w AS (PARTITION BY view, generation)"
                    " ORDER BY view, generation, last_failed DESC"
                )
            }
            beats = {
                r["view"]: r
                for r in query("SELECT *, extract(epoch FROM now() - beat_at)::float AS age FROM public.projection_heartbeats")
            }
            positions = {
                r["view"]: r
                for r in query(
                    sql.SQL(
                        "SELECT v.view, v.position, (SELECT count(*) FROM (SELECT 1 FROM public.games_events e"
                        " WHERE e.notification_id > v.position LIMIT {cap}) s) AS lag FROM ({views}) v"
                    ).format(
                        cap=sql.Literal(LAG_CAP),
                        views=sql.SQL(" UNION ALL ").join(
                            sql.SQL(
                                "SELECT {name} AS view, coalesce((SELECT notification_id FROM {tracking}"
                                " WHERE application_name = 'Games'), 0) AS position"
                            ).format(name=sql.Literal(g["view"]), tracking=sql.Identifier(f"{prefix(g['view'], g['active'])}_tracking"))
                            for g in gens
                        ),
                    )
                )
            } if gens else {}
    except psycopg.OperationalError as e:  # lost, or a statement cancelled by its timeout
        raise DatabaseUnavailable(f"the database does not answer: {' '.join(str(e).split())}") from e
    views = {}
    for g in gens:
        view, active = g["view"], g["active"]
        position, lag = positions[view]["position"], positions[view]["lag"]
        p = parked.get((view, active))
        beat = beats.get(view)
        errors = [e for e in (
            (p["last_failed"], f"parked event: {p['error']}") if p else None,
            (beat["last_error_at"], beat["last_error"]) if beat and beat["last_error"] else None,
        ) if e]
        last = max(errors, key=lambda e: e[0]) if errors else None
        views[view] = {
            "generation": active,
            "building": g["building"],
            "position": position,
            "lag": lag,
            "lag_at_least": lag >= LAG_CAP,
            "parked": p["n"] if p else 0,
            "parked_while_building": (parked.get((view, g["building"])) or {}).get("n", 0) if g["building"] else 0,
            "last_error": {"at": _iso(last[0]), "error": last[1]} if last else None,
            "worker": {
                "alive": bool(beat) and beat["age"] <= ALIVE_WITHIN and beat["generation"] == active,
                "id": beat["worker"] if beat else None,
                "heartbeat_at": _iso(beat["beat_at"]) if beat else None,
                "seconds_since_heartbeat": round(beat["age"], 1) if beat else None,
            },
        }
    out: dict[str, Any] = {
        "database": "ok",
        "checked_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "head": head,
        "views": views,
    }
    if worker is not None:
        out["in_process_worker"] = {
            "alive": worker.alive(),
            "seconds_since_beat": round(time.monotonic() - worker.beat, 1) if worker.beat else None,
            "restarts": worker.restarts,
            "errors": worker.errors,
        }
    healthy = all(v["parked"] == 0 and v["worker"]["alive"] for v in views.values())
    out["status"] = "ok" if healthy else "degraded"
    return out


def parked_events(db: Database, view: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
    """The parked events of the active generations (newest failure first)."""
    with db.connect(row_factory=dict_row) as conn:
        return conn.execute(
            "SELECT p.view, p.generation, p.notification_id, p.game_id, p.version, p.error, p.first_failed, p.last_failed,"
            " p.attempts FROM public.parked_events p JOIN public.read_models r"
            " ON r.view = p.view AND r.active = p.generation"
            " WHERE %s::text IS NULL OR p.view = %s ORDER BY p.last_failed DESC, p.notification_id LIMIT %s",
            (view, view, limit),
        ).fetchall()
