"""Event store: the eventsourcing library's tables for application "Games", made immutable.

The DDL is the library's own (eventsourcing 9.5.6, Postgres module, DB functions on,
POSTGRES_LOCK_TIMEOUT=5), so the service runs with CREATE_TABLE=n. Triggers refuse UPDATE,
DELETE and TRUNCATE of stored events for every connection: a mistake is fixed by an
appended correction, never by editing history. The downgrade refuses: no migration drops
the stored events.

Revision ID: 0001
Revises:
"""
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

AUTOVACUUM = (
    "WITH (autovacuum_enabled = true, autovacuum_vacuum_threshold = 100000000,"
    " autovacuum_vacuum_scale_factor = 0.5, autovacuum_analyze_threshold = 1000,"
    " autovacuum_analyze_scale_factor = 0.01)"
)


def upgrade() -> None:
    op.execute(
        "CREATE TABLE public.games_events (originator_id uuid NOT NULL, originator_version bigint NOT NULL,"
        " topic text, state bytea, notification_id bigserial,"
        f" PRIMARY KEY (originator_id, originator_version)) {AUTOVACUUM}"
    )
    op.execute("CREATE UNIQUE INDEX games_events_notification_id_idx ON public.games_events (notification_id ASC)")
    op.execute(
        "CREATE TABLE public.games_snapshots (originator_id uuid NOT NULL, originator_version bigint NOT NULL,"
        f" topic text, state bytea, PRIMARY KEY (originator_id, originator_version)) {AUTOVACUUM}"
    )
    op.execute(
        "CREATE TYPE public.stored_event_uuid AS"
        " (originator_id uuid, originator_version bigint, topic text, state bytea)"
    )
    op.execute(
        "CREATE OR REPLACE FUNCTION public.es_insert_events_uuid(events public.stored_event_uuid[])"
        " RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$BEGIN"
        " SET LOCAL lock_timeout = '5s';"
        ' NOTIFY "games_events";'
        " RETURN QUERY INSERT INTO public.games_events AS t"
        " (originator_id, originator_version, topic, state)"
        " SELECT originator_id, originator_version, topic, state FROM unnest(events)"
        " RETURNING notification_id; END;$BODY$"
    )
    op.execute(
        "CREATE FUNCTION public.nemesis_refuse_history_change() RETURNS trigger LANGUAGE plpgsql AS $BODY$"
        "BEGIN RAISE EXCEPTION 'stored events are immutable: % on % refused', TG_OP, TG_TABLE_NAME"
        " USING ERRCODE = 'insufficient_privilege',"
        " HINT = 'append a correction fact (FactVoided / FactReplaced) instead'; END;$BODY$"
    )
    op.execute(
        "CREATE TRIGGER games_events_immutable BEFORE UPDATE OR DELETE ON public.games_events"
        " FOR EACH ROW EXECUTE FUNCTION public.nemesis_refuse_history_change()"
    )
    op.execute(
        "CREATE TRIGGER games_events_no_truncate BEFORE TRUNCATE ON public.games_events"
        " FOR EACH STATEMENT EXECUTE FUNCTION public.nemesis_refuse_history_change()"
    )


def downgrade() -> None:
    # Stored events are the only copy of what happened at the tables; no migration drops them.
    raise RuntimeError(
        "refusing to downgrade below 0001: it would drop games_events, the stored events of every game."
        " Stored events are never deleted; export the games (nemesis-archive export) and drop the"
        " database by hand if that is really meant."
    )
