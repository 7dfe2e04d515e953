"""Read models, generation 1: game index, game state at head, per-player results.

Each view lives in tables named ``{view}_g{N}_*`` with its own tracking table, and
``read_models`` says which generation serves readers. A rebuild clones the active
generation's tables (CREATE TABLE ... LIKE), catches up, then switches (blue/green), so
a later migration only has to change the active generation's tables.

Revision ID: 0002
Revises: 0001
"""
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TRACKING = (
    "CREATE TABLE public.{view}_g1_tracking (application_name text PRIMARY KEY, notification_id bigint)"
)


def upgrade() -> None:
    op.execute(
        "CREATE TABLE public.read_models (view text PRIMARY KEY, active int NOT NULL,"
        " building int, building_started timestamptz, rebuilt_at timestamptz)"
    )
    for view in ("gameindex", "gamestate", "playerresults"):
        op.execute(TRACKING.format(view=view))
        # the library's single-row tracking layout marker (see research note, pitfall 5)
        op.execute(f"INSERT INTO public.{view}_g1_tracking VALUES ('__migration__', 1)")
        op.execute(f"INSERT INTO public.read_models (view, active) VALUES ('{view}', 1)")
    op.execute(
        "CREATE TABLE public.gameindex_g1_games ("
        " game_id uuid PRIMARY KEY, ruleset text NOT NULL, mode text NOT NULL, title text, league text,"
        " tags text[] NOT NULL DEFAULT '{}', played_on date, players jsonb NOT NULL, player_search text NOT NULL,"
        " strict boolean NOT NULL, status text NOT NULL, round int, facts int NOT NULL,"
        " created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)"
    )
    op.execute("CREATE INDEX gameindex_g1_games_played_on ON public.gameindex_g1_games (played_on DESC, created_at DESC)")
    op.execute(
        "CREATE TABLE public.gamestate_g1_states ("
        " game_id uuid PRIMARY KEY, position int NOT NULL, round int, phase text, acting int,"
        " finished boolean NOT NULL, ending text, flagged int NOT NULL, state jsonb NOT NULL, result jsonb,"
        " updated_at timestamptz NOT NULL)"
    )
    op.execute(
        "CREATE TABLE public.playerresults_g1_results ("
        " game_id uuid NOT NULL, seat int NOT NULL, player text NOT NULL, player_key text NOT NULL,"
        " ruleset text NOT NULL, mode text NOT NULL, played_on date, finished boolean NOT NULL, outcome text,"
        " survival text, death_cause text, objective text, PRIMARY KEY (game_id, seat))"
    )
    op.execute("CREATE INDEX playerresults_g1_results_player ON public.playerresults_g1_results (player_key)")


def downgrade() -> None:
    for view in ("gameindex", "gamestate", "playerresults"):
        op.execute(f"DROP TABLE IF EXISTS public.{view}_g1_tracking")
    op.execute("DROP TABLE public.gameindex_g1_games")
    op.execute("DROP TABLE public.gamestate_g1_states")
    op.execute("DROP TABLE public.playerresults_g1_results")
    op.execute("DROP TABLE public.read_models")
