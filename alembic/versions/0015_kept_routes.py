"""Kept counts of the escapes page (issue 9, decision 0040): the league view's seats carry each character's escape
route (from the "stats" view's rows of the same games), and its ``characters`` counts gain the kind ``route``
(per season, mode, player count and route: characters who tried it, of them won and survived), counted here once
from the rows already projected; the view keeps them by difference as it writes (projections/league.py).
Every generation present is changed; later ones copy tables and indexes.

Revision ID: 0015
Revises: 0014
"""
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

EACH = """
DO $$ DECLARE t text; g text; st text; BEGIN
  SELECT 'stats_g' || active INTO st FROM public.read_models WHERE view = 'stats';
  FOR t IN SELECT c.relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
           AND c.relname ~ '^league_g[0-9]+_games$' ORDER BY c.relname LOOP
    g := substring(t from '^(.*_g[0-9]+)_');
    EXECUTE format('ALTER TABLE public.%I ADD COLUMN IF NOT EXISTS route text', g || '_seats');
    IF st IS NOT NULL AND to_regclass('public.' || st || '_seats') IS NOT NULL THEN
      EXECUTE format('UPDATE public.%I x SET route = s.route FROM public.%I s'
                     ' WHERE s.game_id = x.game_id AND s.seat = x.seat AND x.counted', g || '_seats', st || '_seats');
    END IF;
    EXECUTE format('DELETE FROM public.%I WHERE kind = ''route''', g || '_characters');
    EXECUTE format('INSERT INTO public.%I SELECT coalesce(x.season_id, ''00000000-0000-0000-0000-000000000000''),'
                   ' x.mode, x.players, ''route'', x.route, count(*), count(*) FILTER (WHERE x.outcome = ''won''),'
                   ' count(*) FILTER (WHERE x.survived), 0, 0 FROM public.%I x'
                   ' WHERE x.counted AND NOT x.hidden AND x.finished AND x.route IS NOT NULL GROUP BY 1, 2, 3, 4, 5',
                   g || '_characters', g || '_seats');
  END LOOP;
END $$"""

DOWN = """
DO $$ DECLARE t text; g text; BEGIN
  FOR t IN SELECT c.relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
           AND c.relname ~ '^league_g[0-9]+_games$' ORDER BY c.relname LOOP
    g := substring(t from '^(.*_g[0-9]+)_');
    EXECUTE format('DELETE FROM public.%I WHERE kind = ''route''', g || '_characters');
    EXECUTE format('ALTER TABLE public.%I DROP COLUMN IF EXISTS route', g || '_seats');
  END LOOP;
END $$"""


def upgrade() -> None:
    op.execute(EACH)


def downgrade() -> None:
    op.execute(DOWN)
