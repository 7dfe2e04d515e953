"""Replay snapshots (issue 11 item 5, decision 0031): the folded state every K steps of a replay, so a
cold step is folded from the nearest one before it (at most K facts applied) instead of from the setup.

A cache, not a view: rows are written by whoever folds a replay (the web process), read back only
when they still match (the rules' fingerprint, and no correction recorded since that touches the
step), and may be deleted at any time. One row per game, rules fingerprint, view, perspective and
step; ``position`` is how many facts the game had when the row was folded.

Created as the owner role, so migration 0005's default privileges give the app role its rights; the
grant below says so.

Revision ID: 0012
Revises: 0010
"""
from alembic import op

revision = "0012"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "CREATE TABLE public.replay_snapshots (game_id uuid NOT NULL, rules text NOT NULL, corrected boolean NOT NULL,"
        " perspective text NOT NULL, step_index integer NOT NULL, seq integer NOT NULL, position integer NOT NULL,"
        " state bytea NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),"
        " PRIMARY KEY (game_id, rules, corrected, perspective, step_index))"
    )
    op.execute(
        "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'nemesis_app') THEN"
        " GRANT SELECT, INSERT, UPDATE, DELETE ON public.replay_snapshots TO nemesis_app; END IF; END $$"
    )


def downgrade() -> None:
    op.execute("DROP TABLE IF EXISTS public.replay_snapshots")
