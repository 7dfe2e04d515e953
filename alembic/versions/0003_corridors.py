"""Read model "corridors", generation 1: corridor observations learned from recorded moves.

One row per (game, board, from place, to place, corridor as the table named it) with the
number of moves and when they were recorded; readers aggregate across games
(docs/decisions/0005-learned-corridors.md). Same layout rules as 0002: a tracking table
with the library's ('__migration__', 1) marker and a ``read_models`` row, so rebuilds clone it.

Revision ID: 0003
Revises: 0002
"""
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "CREATE TABLE public.corridors_g1_tracking (application_name text PRIMARY KEY, notification_id bigint)"
    )
    op.execute("INSERT INTO public.corridors_g1_tracking VALUES ('__migration__', 1)")
    op.execute("INSERT INTO public.read_models (view, active) VALUES ('corridors', 1)")
    op.execute(
        "CREATE TABLE public.corridors_g1_observations ("
        " game_id uuid NOT NULL, board text NOT NULL, from_place text NOT NULL, to_place text NOT NULL,"
        " corridor text NOT NULL, moves int NOT NULL, character_moves int NOT NULL, intruder_moves int NOT NULL,"
        " first_seen timestamptz, last_seen timestamptz,"
        " PRIMARY KEY (game_id, board, from_place, to_place, corridor))"
    )
    op.execute("CREATE INDEX corridors_g1_observations_board ON public.corridors_g1_observations (board)")


def downgrade() -> None:
    op.execute("DROP TABLE IF EXISTS public.corridors_g1_observations")
    op.execute("DROP TABLE IF EXISTS public.corridors_g1_tracking")
    op.execute("DELETE FROM public.read_models WHERE view = 'corridors'")
