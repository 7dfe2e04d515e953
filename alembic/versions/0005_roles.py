"""Least privilege: an owner role for the schema, an app role that may only append events.

``nemesis_owner`` (NOLOGIN) owns every object of the schema; migrations run as it (alembic/env.py
switches to it once it exists). ``nemesis_app`` is what the service logs in as: it may SELECT
and INSERT stored events (through ``es_insert_events_uuid``), read and write the read models,
and make or switch read-model generations only through two SECURITY DEFINER functions. It
cannot UPDATE, DELETE, TRUNCATE, ALTER or DROP the events table, nor disable its triggers.

Roles are cluster-wide and many databases may migrate at once on one server, so they are
created only when missing and a concurrent creator's win is not an error. Objects made before
this migration by the migrating login are handed to ``nemesis_owner``; ``ALTER DEFAULT
PRIVILEGES`` covers tables later migrations and rebuilds create. ``hash_chain_start`` records
the last event stored before hash chains began (service/verify.py, decision 0009).

This revision only names tables of 0001-0003 and sweeps whatever else the schema holds.

Revision ID: 0005
Revises: 0003
"""
from alembic import op

revision = "0005"
down_revision = "0003"
branch_labels = None
depends_on = None

OWNER = "nemesis_owner"
APP = "nemesis_app"

CREATE_ROLES = f"""
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{OWNER}') THEN
    BEGIN CREATE ROLE {OWNER} NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;  -- another database's migration won
    END;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{APP}') THEN
    BEGIN CREATE ROLE {APP} LOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
  END IF;
END $$"""

# Hand every object of schema public to the owner role. Sequences owned by a column follow
# their table; array types follow their element type; indexes follow their table.
REOWN = f"""
DO $$ DECLARE r record; BEGIN
  FOR r IN SELECT c.oid::regclass AS name, c.relkind FROM pg_class c
           WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
             AND c.relowner <> '{OWNER}'::regrole LOOP
    EXECUTE format('ALTER %s %s OWNER TO {OWNER}',
                   CASE r.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                                  WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, r.name);
  END LOOP;
  FOR r IN SELECT c.oid::regclass AS name FROM pg_class c
           WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'S' AND c.relowner <> '{OWNER}'::regrole LOOP
    EXECUTE format('ALTER SEQUENCE %s OWNER TO {OWNER}', r.name);
  END LOOP;
  FOR r IN SELECT p.oid::regprocedure AS name FROM pg_proc p
           WHERE p.pronamespace = 'public'::regnamespace AND p.proowner <> '{OWNER}'::regrole LOOP
    EXECUTE format('ALTER ROUTINE %s OWNER TO {OWNER}', r.name);
  END LOOP;
  FOR r IN SELECT t.oid::regtype AS name, t.typtype FROM pg_type t LEFT JOIN pg_class c ON c.oid = t.typrelid
           WHERE t.typnamespace = 'public'::regnamespace AND t.typowner <> '{OWNER}'::regrole
             AND t.typtype IN ('c', 'e', 'd', 'r') AND (t.typtype <> 'c' OR c.relkind = 'c') LOOP
    EXECUTE format('ALTER %s %s OWNER TO {OWNER}', CASE r.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, r.name);
  END LOOP;
END $$"""

# Blue/green rebuilds (projections/generations.py) create and drop read-model tables. The app
# may not run DDL itself: these functions do exactly that one job as the owner, on tables named
# {view}_g{N}_{table} of a view listed in read_models, never on anything else.
START_BUILDING = r"""
CREATE FUNCTION public.nemesis_start_building(view_name text, tables text[]) RETURNS int
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $BODY$
DECLARE act int; bld int; t text;
BEGIN
  SELECT active, building INTO act, bld FROM public.read_models WHERE view = view_name FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'unknown view %', view_name USING ERRCODE = 'undefined_object';
  END IF;
  IF bld IS NOT NULL THEN
    RETURN bld;  -- an interrupted rebuild resumes where its tracking says
  END IF;
  bld := act + 1;
  FOREACH t IN ARRAY tables LOOP
    IF t !~ '^[a-z][a-z0-9_]*$' THEN
      RAISE EXCEPTION 'not a read-model table name: %', t USING ERRCODE = 'invalid_name';
    END IF;
    IF to_regclass(format('public.%I', view_name || '_g' || act || '_' || t)) IS NULL THEN
      RAISE EXCEPTION 'view % has no table %', view_name, view_name || '_g' || act || '_' || t
        USING ERRCODE = 'undefined_table';
    END IF;
    EXECUTE format('DROP TABLE IF EXISTS public.%I', view_name || '_g' || bld || '_' || t);
    EXECUTE format('CREATE TABLE public.%I (LIKE public.%I INCLUDING ALL)',
                   view_name || '_g' || bld || '_' || t, view_name || '_g' || act || '_' || t);
  END LOOP;
  EXECUTE format('INSERT INTO public.%I VALUES (''__migration__'', 1)', view_name || '_g' || bld || '_tracking');
  UPDATE public.read_models SET building = bld, building_started = now() WHERE view = view_name;
  RETURN bld;
END;$BODY$"""

SWITCH = r"""
CREATE FUNCTION public.nemesis_switch_generation(view_name text, new_generation int, tables text[]) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $BODY$
DECLARE act int; bld int; t text;
BEGIN
  SELECT active, building INTO act, bld FROM public.read_models WHERE view = view_name FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'unknown view %', view_name USING ERRCODE = 'undefined_object';
  END IF;
  IF bld IS DISTINCT FROM new_generation THEN
    RAISE EXCEPTION 'view % is building generation %, not %', view_name, bld, new_generation
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  UPDATE public.read_models SET active = new_generation, building = NULL, building_started = NULL, rebuilt_at = now()
   WHERE view = view_name;
  FOREACH t IN ARRAY tables LOOP
    IF t !~ '^[a-z][a-z0-9_]*$' THEN
      RAISE EXCEPTION 'not a read-model table name: %', t USING ERRCODE = 'invalid_name';
    END IF;
    EXECUTE format('DROP TABLE IF EXISTS public.%I', view_name || '_g' || act || '_' || t);
  END LOOP;
END;$BODY$"""

# When chains began: kept (and immutable) across a downgrade, since re-dating it would let
# events stored in between pass for legacy ones.
HASH_CHAIN_START = """
DO $$ BEGIN
  IF to_regclass('public.hash_chain_start') IS NULL THEN
    CREATE TABLE public.hash_chain_start (last_unchained bigint NOT NULL);
    INSERT INTO public.hash_chain_start SELECT coalesce(max(notification_id), 0) FROM public.games_events;
    CREATE TRIGGER hash_chain_start_immutable BEFORE UPDATE OR DELETE ON public.hash_chain_start
      FOR EACH ROW EXECUTE FUNCTION public.nemesis_refuse_history_change();
    CREATE TRIGGER hash_chain_start_no_truncate BEFORE TRUNCATE ON public.hash_chain_start
      FOR EACH STATEMENT EXECUTE FUNCTION public.nemesis_refuse_history_change();
  END IF;
END $$"""

APPEND_ONLY = ("public.games_events", "public.games_snapshots")


def upgrade() -> None:
    # Objects made before the owner role existed belong to the login: re-own them as the login.
    op.execute("RESET ROLE")
    op.execute(CREATE_ROLES)
    op.execute(f"GRANT USAGE, CREATE ON SCHEMA public TO {OWNER}")
    op.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")  # already so from PostgreSQL 15 on
    op.execute(f"GRANT USAGE ON SCHEMA public TO {APP}")

    op.execute(HASH_CHAIN_START)
    op.execute(START_BUILDING)
    op.execute(SWITCH)
    op.execute(REOWN)

    # What the app may do today...
    op.execute(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC, {APP}")
    op.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {APP}")
    op.execute(f"REVOKE UPDATE, DELETE ON {', '.join(APPEND_ONLY)} FROM {APP}")
    op.execute(f"REVOKE INSERT, UPDATE, DELETE ON public.read_models, public.alembic_version, public.hash_chain_start FROM {APP}")
    op.execute(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {APP}")
    op.execute("REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC")
    op.execute(
        "DO $$ DECLARE f regprocedure; BEGIN"
        "  FOR f IN SELECT p.oid::regprocedure FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace"
        "    AND p.proname ~ '^es_insert_events_' LOOP"
        f"    EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO {APP}', f);"
        "  END LOOP; END $$"
    )
    op.execute(
        f"GRANT EXECUTE ON FUNCTION public.nemesis_start_building(text, text[]),"
        f" public.nemesis_switch_generation(text, int, text[]) TO {APP}"
    )
    # ...and on what later migrations and rebuilds create as the owner. Functions stay explicit:
    # one may be SECURITY DEFINER, so each gets its own grant.
    op.execute(
        f"ALTER DEFAULT PRIVILEGES FOR ROLE {OWNER} IN SCHEMA public"
        f" GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {APP}"
    )
    op.execute(f"ALTER DEFAULT PRIVILEGES FOR ROLE {OWNER} IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO {APP}")
    op.execute(f"ALTER DEFAULT PRIVILEGES FOR ROLE {OWNER} REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC")


def downgrade() -> None:
    op.execute("RESET ROLE")
    op.execute(f"ALTER DEFAULT PRIVILEGES FOR ROLE {OWNER} GRANT EXECUTE ON FUNCTIONS TO PUBLIC")
    op.execute(f"ALTER DEFAULT PRIVILEGES FOR ROLE {OWNER} IN SCHEMA public REVOKE ALL ON SEQUENCES FROM {APP}")
    op.execute(f"ALTER DEFAULT PRIVILEGES FOR ROLE {OWNER} IN SCHEMA public REVOKE ALL ON TABLES FROM {APP}")
    op.execute("DROP FUNCTION public.nemesis_switch_generation(text, int, text[])")
    op.execute("DROP FUNCTION public.nemesis_start_building(text, text[])")
    op.execute("GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO PUBLIC")
    op.execute(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {APP}")
    op.execute(f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {APP}")
    op.execute(f"REVOKE ALL ON SCHEMA public FROM {APP}")
    # hash_chain_start is history too (when chains began): dropping it would make every chained
    # game look like a legacy one, so a downgrade leaves it, and the roles (other databases use them).
