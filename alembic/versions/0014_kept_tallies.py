"""Kept tallies in the league view (issue 9, decision 0035): standings and the character page read small sums.

- ``seats`` and ``games`` carry what the character page counts (mode, player count, whether the statistics
  count the game; per seat its character, objective type, plan and rounds survived), filled here from the
  "stats" view's rows of the same games;
- ``days``: per season, day, name key and seat name, the standings' counts of the shown, finished seats;
- ``season_days``: per season and day, the shown, finished games;
- ``characters``: per season (the nil id: none), mode, player count, kind (character, objective, plan, games)
  and key, the character page's counts.

The view keeps them by difference as it writes (projections/league.py ``tally``); here they are counted once
from the rows already projected. Every generation present is changed; later ones copy tables and indexes.

Revision ID: 0014
Revises: 0013
"""
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

EACH = """
DO $$ DECLARE t text; g text; st text; BEGIN
  SELECT 'stats_g' || active INTO st FROM public.read_models WHERE view = 'stats';
  FOR t IN SELECT c.relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
           AND c.relname ~ '^league_g[0-9]+_games$' ORDER BY c.relname LOOP
    g := substring(t from '^(.*_g[0-9]+)_');
    EXECUTE format('ALTER TABLE public.%I ADD COLUMN IF NOT EXISTS players int NOT NULL DEFAULT 0,'
                   ' ADD COLUMN IF NOT EXISTS counted boolean NOT NULL DEFAULT false', g || '_games');
    EXECUTE format('ALTER TABLE public.%I ADD COLUMN IF NOT EXISTS mode text, ADD COLUMN IF NOT EXISTS players int,'
                   ' ADD COLUMN IF NOT EXISTS counted boolean NOT NULL DEFAULT false, ADD COLUMN IF NOT EXISTS character text,'
                   ' ADD COLUMN IF NOT EXISTS objective_type text, ADD COLUMN IF NOT EXISTS plan text,'
                   ' ADD COLUMN IF NOT EXISTS rounds_survived int', g || '_seats');
    EXECUTE format('UPDATE public.%I g SET players = (SELECT count(*) FROM public.%I x WHERE x.game_id = g.game_id)',
                   g || '_games', g || '_seats');
    EXECUTE format('UPDATE public.%I x SET mode = g.mode, players = g.players FROM public.%I g WHERE g.game_id = x.game_id',
                   g || '_seats', g || '_games');
    IF st IS NOT NULL AND to_regclass('public.' || st || '_seats') IS NOT NULL THEN
      EXECUTE format('UPDATE public.%I g SET counted = true, players = s.players FROM public.%I s WHERE s.game_id = g.game_id',
                     g || '_games', st || '_games');
      EXECUTE format('UPDATE public.%I x SET counted = true, players = s.players, character = s.character,'
                     ' objective_type = s.objective, plan = s.plan, rounds_survived = s.rounds_survived'
                     ' FROM public.%I s WHERE s.game_id = x.game_id AND s.seat = x.seat', g || '_seats', st || '_seats');
    END IF;
    EXECUTE format('CREATE TABLE IF NOT EXISTS public.%I (season_id uuid NOT NULL, played_on date NOT NULL,'
                   ' name_key text NOT NULL, name text NOT NULL, games int NOT NULL, wins int NOT NULL,'
                   ' undetermined int NOT NULL, survived int NOT NULL, objectives int NOT NULL,'
                   ' PRIMARY KEY (season_id, played_on, name_key, name))', g || '_days');
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON public.%I (season_id) WHERE games = 0', g || '_days_empty', g || '_days');
    EXECUTE format('CREATE TABLE IF NOT EXISTS public.%I (season_id uuid NOT NULL, played_on date NOT NULL,'
                   ' games int NOT NULL, PRIMARY KEY (season_id, played_on))', g || '_season_days');
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON public.%I (season_id) WHERE games = 0', g || '_season_days_empty',
                   g || '_season_days');
    EXECUTE format('CREATE TABLE IF NOT EXISTS public.%I (season_id uuid NOT NULL, mode text NOT NULL, players int NOT NULL,'
                   ' kind text NOT NULL, key text NOT NULL, games int NOT NULL, wins int NOT NULL, survived int NOT NULL,'
                   ' rounds bigint NOT NULL, rounded int NOT NULL, PRIMARY KEY (season_id, mode, players, kind, key))',
                   g || '_characters');
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON public.%I (season_id) WHERE games = 0', g || '_characters_empty',
                   g || '_characters');
    EXECUTE format('DELETE FROM public.%I', g || '_days');
    EXECUTE format('INSERT INTO public.%I SELECT season_id, played_on, name_key, name, count(*),'
                   ' count(*) FILTER (WHERE outcome = ''won''),'
                   ' count(*) FILTER (WHERE outcome IS DISTINCT FROM ''won'' AND outcome IS DISTINCT FROM ''lost''),'
                   ' count(*) FILTER (WHERE survived), count(*) FILTER (WHERE objective)'
                   ' FROM public.%I WHERE season_id IS NOT NULL AND NOT hidden AND finished GROUP BY 1, 2, 3, 4',
                   g || '_days', g || '_seats');
    EXECUTE format('DELETE FROM public.%I', g || '_season_days');
    EXECUTE format('INSERT INTO public.%I SELECT season_id, played_on, count(*) FROM public.%I'
                   ' WHERE season_id IS NOT NULL AND NOT hidden AND finished GROUP BY 1, 2', g || '_season_days', g || '_games');
    EXECUTE format('DELETE FROM public.%I', g || '_characters');
    EXECUTE format('INSERT INTO public.%I SELECT coalesce(x.season_id, ''00000000-0000-0000-0000-000000000000''),'
                   ' x.mode, x.players, k.kind, k.key, count(*), count(*) FILTER (WHERE x.outcome = ''won''),'
                   ' count(*) FILTER (WHERE x.survived), coalesce(sum(x.rounds_survived), 0), count(x.rounds_survived)'
                   ' FROM public.%I x CROSS JOIN LATERAL (VALUES (''character'', coalesce(x.character, '''')),'
                   ' (''objective'', x.objective_type), (''plan'', x.plan)) k(kind, key)'
                   ' WHERE x.counted AND NOT x.hidden AND x.finished AND k.key IS NOT NULL GROUP BY 1, 2, 3, 4, 5',
                   g || '_characters', g || '_seats');
    EXECUTE format('INSERT INTO public.%I SELECT coalesce(season_id, ''00000000-0000-0000-0000-000000000000''),'
                   ' mode, players, ''games'', '''', count(*), 0, 0, 0, 0 FROM public.%I'
                   ' WHERE counted AND NOT hidden AND finished GROUP BY 1, 2, 3', g || '_characters', g || '_games');
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'nemesis_app') THEN
      EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON public.%I, public.%I, public.%I TO nemesis_app',
                     g || '_days', g || '_season_days', g || '_characters');
    END IF;
  END LOOP;
END $$"""

DOWN = """
DO $$ DECLARE t text; g text; BEGIN
  FOR t IN SELECT c.relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
           AND c.relname ~ '^league_g[0-9]+_games$' ORDER BY c.relname LOOP
    g := substring(t from '^(.*_g[0-9]+)_');
    EXECUTE format('DROP TABLE IF EXISTS public.%I, public.%I, public.%I', g || '_days', g || '_season_days',
                   g || '_characters');
    EXECUTE format('ALTER TABLE public.%I DROP COLUMN IF EXISTS players, DROP COLUMN IF EXISTS counted', g || '_games');
    EXECUTE format('ALTER TABLE public.%I DROP COLUMN IF EXISTS mode, DROP COLUMN IF EXISTS players,'
                   ' DROP COLUMN IF EXISTS counted, DROP COLUMN IF EXISTS character, DROP COLUMN IF EXISTS objective_type,'
                   ' DROP COLUMN IF EXISTS plan, DROP COLUMN IF EXISTS rounds_survived', g || '_seats');
  END LOOP;
END $$"""


def upgrade() -> None:
    op.execute(EACH)


def downgrade() -> None:
    op.execute(DOWN)
