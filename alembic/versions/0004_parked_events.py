"""Parked events, worker heartbeats, and an insert function that takes the table lock.

- ``parked_events``: an event a view cannot process is parked here (in the same transaction
  that advances the view's tracking) and the view goes on past it; ``nemesis-archive
  retry-parked`` retries it after a fix.
- ``projection_heartbeats``: the worker writes, per view, when it last ran and its last
  error, so ``nemesis-archive status`` and ``/healthz`` can tell a live worker from a dead one.
- ``es_insert_events_uuid`` is replaced by one that takes ``LOCK TABLE ... IN EXCLUSIVE MODE``
  before inserting, as the library's non-function insert path does. Without it, a transaction
  that commits after a later one leaves a notification id behind a view's tracking position
  and the live worker skips that fact for good. The function is SECURITY DEFINER (owned by
  the events table's owner, fixed search_path) so a role with only INSERT and SELECT on the
  events table can take the lock; it refuses a caller whose login role may not INSERT there.
  See docs/decisions/0008-parking-locking-resilience.md.

Revision ID: 0004
Revises: 0003
"""
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

SIGNATURE = "public.es_insert_events_uuid(events public.stored_event_uuid[])"


def upgrade() -> None:
    op.execute(
        "CREATE TABLE public.parked_events ("
        " view text NOT NULL, generation int NOT NULL, notification_id bigint NOT NULL, game_id uuid NOT NULL,"
        " version bigint NOT NULL,"
        " error text NOT NULL, code text NOT NULL, first_failed timestamptz NOT NULL DEFAULT now(),"
        " last_failed timestamptz NOT NULL DEFAULT now(), attempts int NOT NULL DEFAULT 1,"
        " PRIMARY KEY (view, generation, notification_id))"
    )
    op.execute("CREATE INDEX parked_events_game ON public.parked_events (view, generation, game_id)")
    op.execute(
        "CREATE TABLE public.projection_heartbeats ("
        " view text PRIMARY KEY, generation int NOT NULL, worker text NOT NULL, started_at timestamptz NOT NULL,"
        " beat_at timestamptz NOT NULL, last_error text, last_error_at timestamptz)"
    )
    op.execute(
        f"CREATE OR REPLACE FUNCTION {SIGNATURE}"
        " RETURNS SETOF bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
        " AS $BODY$BEGIN"
        # The definer may lock; the caller must be allowed to insert (no privilege is widened).
        " IF NOT has_table_privilege(session_user, 'public.games_events', 'INSERT') THEN"
        "   RAISE EXCEPTION 'permission denied for table games_events' USING ERRCODE = 'insufficient_privilege';"
        " END IF;"
        " SET LOCAL lock_timeout = '5s';"
        # Serialize writers so notification ids become visible in commit order (readers never skip one).
        " LOCK TABLE public.games_events IN EXCLUSIVE MODE;"
        ' NOTIFY "games_events";'
        " RETURN QUERY INSERT INTO public.games_events AS t"
        " (originator_id, originator_version, topic, state)"
        " SELECT e.originator_id, e.originator_version, e.topic, e.state FROM unnest(events) AS e"
        " RETURNING t.notification_id; END;$BODY$"
    )


def downgrade() -> None:
    op.execute(
        f"CREATE OR REPLACE FUNCTION {SIGNATURE}"
        " RETURNS SETOF bigint LANGUAGE plpgsql SECURITY INVOKER AS $BODY$BEGIN"
        " SET LOCAL lock_timeout = '5s';"
        ' NOTIFY "games_events";'
        " RETURN QUERY INSERT INTO public.games_events AS t"
        " (originator_id, originator_version, topic, state)"
        " SELECT originator_id, originator_version, topic, state FROM unnest(events)"
        " RETURNING notification_id; END;$BODY$"
    )
    op.execute(f"ALTER FUNCTION {SIGNATURE} RESET ALL")
    op.execute("DROP TABLE public.projection_heartbeats")
    op.execute("DROP TABLE public.parked_events")
