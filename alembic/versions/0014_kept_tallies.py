"""Kept tallies in the league view (issue 9, decision 0035): standings and the character page read small sums.

- ``seats`` and ``games`` carry what the character and deaths pages count (mode, player count, whether the
  statistics count the game, the rounds of its first death, first power loss and blackout; per seat its
  character, objective type, plan, rounds survived, cause and round of death), filled here from the "stats"
  view's rows of the same games;
- ``days``: per season, day, name key and seat name, the standings' counts of the shown, finished seats;
- ``season_days``: per season and day, the shown, finished games;
- ``characters``: per season (the nil id: none), mode, player count, kind (character, objective, plan, games,
  death cause, rounds survived and of them died, first death, power lost, blackout) and key, the character and
  deaths pages' counts.

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

# What the league view counts per seat and per game (projections/league.py SEAT_KINDS and GAME_KINDS at 0014)
SEAT_KINDS = (
    "(VALUES ('character', coalesce(x.character, ''), x.rounds_survived),"
    " ('objective', x.objective_type, x.rounds_survived), ('plan', x.plan, x.rounds_survived),"
    " ('death_cause', x.died_of, x.death_round), ('rounds_survived', coalesce(x.rounds_survived::text, ''), NULL::int),"
    " ('rounds_died', CASE WHEN x.died_of IS NOT NULL THEN coalesce(x.rounds_survived::text, '') END, NULL::int))"
    " k(kind, key, value)")
GAME_KINDS = (
    "(VALUES ('games', ''), ('first_death', coalesce(g.first_death_round::text, '')),"
    " ('power_lost', coalesce(g.power_lost_round::text, '')), ('blackout', coalesce(g.blackout_round::text, '')))"
    " k(kind, key)")

EACH = """
DO $$ DECLARE t text; g text; st text; BEGIN
  SELECT 'stats_g' || active INTO st FROM public.read_models WHERE view = 'stats';
  FOR t IN SELECT c.relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
           AND c.relname ~ '^league_g[0-9]+_games$' ORDER BY c.relname LOOP
    g := substring(t from '^(.*_g[0-9]+)_');
    EXECUTE format('ALTER TABLE public.%I ADD COLUMN IF NOT EXISTS players int NOT NULL DEFAULT 0,'
                   ' ADD COLUMN IF NOT EXISTS counted boolean NOT NULL DEFAULT false,'
                   ' ADD COLUMN IF NOT EXISTS first_death_round int, ADD COLUMN IF NOT EXISTS power_lost_round int,'
                   ' ADD COLUMN IF NOT EXISTS blackout_round int', g || '_games');
    EXECUTE format('ALTER TABLE public.%I ADD COLUMN IF NOT EXISTS mode text, ADD COLUMN IF NOT EXISTS players int,'
                   ' ADD COLUMN IF NOT EXISTS counted boolean NOT NULL DEFAULT false, ADD COLUMN IF NOT EXISTS character text,'
                   ' ADD COLUMN IF NOT EXISTS objective_type text, ADD COLUMN IF NOT EXISTS plan text,'
                   ' ADD COLUMN IF NOT EXISTS rounds_survived int, ADD COLUMN IF NOT EXISTS died_of text,'
                   ' ADD COLUMN IF NOT EXISTS death_round int', g || '_seats');
    EXECUTE format('UPDATE public.%I g SET players = (SELECT count(*) FROM public.%I x WHERE x.game_id = g.game_id)',
                   g || '_games', g || '_seats');
    EXECUTE format('UPDATE public.%I x SET mode = g.mode, players = g.players FROM public.%I g WHERE g.game_id = x.game_id',
                   g || '_seats', g || '_games');
    IF st IS NOT NULL AND to_regclass('public.' || st || '_seats') IS NOT NULL THEN
      EXECUTE format('UPDATE public.%I g SET counted = true, players = s.players, first_death_round = s.first_death_round,'
                     ' power_lost_round = s.power_lost_round, blackout_round = s.blackout_round'
                     ' FROM public.%I s WHERE s.game_id = g.game_id', g || '_games', st || '_games');
      EXECUTE format('UPDATE public.%I x SET counted = true, players = s.players, character = s.character,'
                     ' objective_type = s.objective, plan = s.plan, rounds_survived = s.rounds_survived,'
                     ' died_of = s.death_cause, death_round = s.death_round'
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
                   ' count(*) FILTER (WHERE x.survived), coalesce(sum(k.value), 0), count(k.value)'
                   ' FROM public.%I x CROSS JOIN LATERAL {seat_kinds}'
                   ' WHERE x.counted AND NOT x.hidden AND x.finished AND k.key IS NOT NULL GROUP BY 1, 2, 3, 4, 5',
                   g || '_characters', g || '_seats');
    EXECUTE format('INSERT INTO public.%I SELECT coalesce(g.season_id, ''00000000-0000-0000-0000-000000000000''),'
                   ' g.mode, g.players, k.kind, k.key, count(*), 0, 0, 0, 0 FROM public.%I g CROSS JOIN LATERAL {game_kinds}'
                   ' WHERE g.counted AND NOT g.hidden AND g.finished GROUP BY 1, 2, 3, 4, 5', g || '_characters', g || '_games');
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
    EXECUTE format('ALTER TABLE public.%I DROP COLUMN IF EXISTS players, DROP COLUMN IF EXISTS counted,'
                   ' DROP COLUMN IF EXISTS first_death_round, DROP COLUMN IF EXISTS power_lost_round,'
                   ' DROP COLUMN IF EXISTS blackout_round', g || '_games');
    EXECUTE format('ALTER TABLE public.%I DROP COLUMN IF EXISTS mode, DROP COLUMN IF EXISTS players,'
                   ' DROP COLUMN IF EXISTS counted, DROP COLUMN IF EXISTS character, DROP COLUMN IF EXISTS objective_type,'
                   ' DROP COLUMN IF EXISTS plan, DROP COLUMN IF EXISTS rounds_survived, DROP COLUMN IF EXISTS died_of,'
                   ' DROP COLUMN IF EXISTS death_round', g || '_seats');
  END LOOP;
END $$"""


def upgrade() -> None:
    op.execute(EACH.replace("{seat_kinds}", SEAT_KINDS.replace("'", "''")).replace(
        "{game_kinds}", GAME_KINDS.replace("'", "''")))


def downgrade() -> None:
    op.execute(DOWN)
