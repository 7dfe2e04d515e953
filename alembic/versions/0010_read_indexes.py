"""Read side at scale (issues 9 and 11, decision 0026): indexes that match the list queries,
per-player statistics kept in a table, each season's current ratings kept in a row per player.

- ``gameindex``: the games list sorts ``played_on DESC NULLS LAST, created_at DESC``; the index of
  0002 is ``played_on DESC`` (NULLS FIRST), which PostgreSQL cannot walk for that order, so every
  page sorted the whole table. It is replaced by one in the list's own order.
- ``playerresults``: a table ``players`` (one row per player name key) with the counts the players
  page shows, kept by the view as each game is written, instead of a GROUP BY over every seat of
  every game; filled here from the rows already projected. Name search finds names in it.
- ``league``: seats carry their game's season, date, hidden and finished (an index counts a season's
  seats without joining every game); a table ``current`` (one row per season and player: the latest rating), kept by the
  view when it rates; a late game's re-rating starts from it, and today's standings read it.

Every generation present is changed (the active one and a rebuild in progress); later generations
copy tables and indexes (``CREATE TABLE … LIKE … INCLUDING ALL``). Created as the owner role, so
migration 0005's default privileges give the app role its rights; the grant below says so.

Revision ID: 0010
Revises: 0009
"""
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

EACH = """
DO $$ DECLARE t text; g text; BEGIN
  FOR t IN SELECT c.relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
           AND c.relname ~ '^{pattern}$' ORDER BY c.relname LOOP
    g := substring(t from '^(.*_g[0-9]+)_');
    {body}
  END LOOP;
END $$"""

GAMES_ORDER = """
    FOR g IN SELECT i.indexname FROM pg_indexes i WHERE i.schemaname = 'public' AND i.tablename = t
             AND i.indexdef LIKE '%(played_on DESC, created_at DESC)' LOOP
      EXECUTE format('DROP INDEX public.%I', g);
    END LOOP;
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON public.%I (played_on DESC NULLS LAST, created_at DESC)',
                   t || '_recent', t);"""

PLAYERS = """
    EXECUTE format('CREATE TABLE IF NOT EXISTS public.%I (player_key text PRIMARY KEY, player text NOT NULL,'
                   ' played int NOT NULL, finished int NOT NULL, won int NOT NULL, lost int NOT NULL,'
                   ' undetermined int NOT NULL, incomplete int NOT NULL)', g || '_players');
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON public.%I (won DESC, played DESC, player_key)',
                   g || '_players_rank', g || '_players');
    EXECUTE format('INSERT INTO public.%I SELECT player_key, min(player), count(*),'
                   ' count(*) FILTER (WHERE finished AND NOT incomplete),'
                   ' count(*) FILTER (WHERE outcome = ''won'' AND NOT incomplete),'
                   ' count(*) FILTER (WHERE outcome = ''lost'' AND NOT incomplete),'
                   ' count(*) FILTER (WHERE finished AND NOT incomplete AND outcome = ''undetermined''),'
                   ' count(*) FILTER (WHERE incomplete)'
                   ' FROM public.%I GROUP BY player_key ON CONFLICT DO NOTHING', g || '_players', t);
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'nemesis_app') THEN
      EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON public.%I TO nemesis_app', g || '_players');
    END IF;"""

CURRENT = """
    EXECUTE format('CREATE TABLE IF NOT EXISTS public.%I (season_id uuid NOT NULL, player_id uuid NOT NULL,'
                   ' mu double precision NOT NULL, sigma double precision NOT NULL, rated int NOT NULL,'
                   ' PRIMARY KEY (season_id, player_id))', g || '_current');
    EXECUTE format('INSERT INTO public.%I SELECT DISTINCT ON (season_id, player_id) season_id, player_id, mu, sigma, rated'
                   ' FROM public.%I ORDER BY season_id, player_id, played_on DESC, created_at DESC, game_id DESC'
                   ' ON CONFLICT DO NOTHING', g || '_current', t);
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'nemesis_app') THEN
      EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON public.%I TO nemesis_app', g || '_current');
    END IF;"""

# the standings count a season's finished seats per name: each seat carries its game's season, date
# and state, so the count is one range of one index (no join of every game of the season to its seats)
SEATS = """
    EXECUTE format('ALTER TABLE public.%I ADD COLUMN IF NOT EXISTS season_id uuid,'
                   ' ADD COLUMN IF NOT EXISTS played_on date, ADD COLUMN IF NOT EXISTS hidden boolean,'
                   ' ADD COLUMN IF NOT EXISTS finished boolean', t);
    EXECUTE format('UPDATE public.%I x SET season_id = g.season_id, played_on = g.played_on, hidden = g.hidden,'
                   ' finished = g.finished FROM public.%I g WHERE g.game_id = x.game_id', t, g || '_games');
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON public.%I (season_id, played_on)'
                   ' INCLUDE (name_key, name, outcome, survived, objective, hidden, finished)', t || '_season', t);"""

SEASON_GAMES = """
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON public.%I (season_id, played_on DESC, created_at DESC)'
                   ' INCLUDE (hidden, finished)', t || '_listed', t);"""


def upgrade() -> None:
    op.execute(EACH.format(pattern="gameindex_g[0-9]+_games", body=GAMES_ORDER))
    op.execute(EACH.format(pattern="playerresults_g[0-9]+_results", body=PLAYERS))
    op.execute(EACH.format(pattern="league_g[0-9]+_ratings", body=CURRENT))
    op.execute(EACH.format(pattern="league_g[0-9]+_games", body=SEASON_GAMES))
    op.execute(EACH.format(pattern="league_g[0-9]+_seats", body=SEATS))


def downgrade() -> None:
    op.execute(EACH.format(pattern="gameindex_g[0-9]+_games", body="""
    EXECUTE format('DROP INDEX IF EXISTS public.%I', t || '_recent');
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON public.%I (played_on DESC, created_at DESC)', t || '_played_on', t);"""))
    op.execute(EACH.format(pattern="playerresults_g[0-9]+_results",
                           body="EXECUTE format('DROP TABLE IF EXISTS public.%I', g || '_players');"))
    op.execute(EACH.format(pattern="league_g[0-9]+_ratings",
                           body="EXECUTE format('DROP TABLE IF EXISTS public.%I', g || '_current');"))
    op.execute(EACH.format(pattern="league_g[0-9]+_games",
                           body="EXECUTE format('DROP INDEX IF EXISTS public.%I', t || '_listed');"))
    op.execute(EACH.format(pattern="league_g[0-9]+_seats", body=(
        "EXECUTE format('DROP INDEX IF EXISTS public.%I', t || '_season');"
        " EXECUTE format('ALTER TABLE public.%I DROP COLUMN IF EXISTS season_id, DROP COLUMN IF EXISTS played_on,"
        " DROP COLUMN IF EXISTS hidden, DROP COLUMN IF EXISTS finished', t);")))
