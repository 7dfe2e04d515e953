"""Per-game fold snapshots on the read side (issue 11 item 4, decision 0032).

``fold_snapshots``: one row per game, what the views read of it at one version (its header, the
rules' position, score and description of its last state, its corridor observations and its
statistics tally) as JSON, with the fingerprint of the code that folded it. A rebuild writes a
game's row from it instead of folding the game again when the game has no newer event and the
fingerprint is the running code's; anything else is folded from the events as before.

Derived data, like the views: not backed up (service/backup.py), and deleting every row only
makes the next rebuild fold again. Created as the owner role, so migration 0005's default
privileges give the app role its rights; the grant below says so.

Revision ID: 0013
Revises: 0010
"""
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "CREATE TABLE public.fold_snapshots ("
        " game_id uuid PRIMARY KEY, version int NOT NULL, fingerprint text NOT NULL, summary json NOT NULL,"
        " written_at timestamptz NOT NULL DEFAULT now())"
    )
    op.execute(
        "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'nemesis_app') THEN"
        " GRANT SELECT, INSERT, UPDATE, DELETE ON public.fold_snapshots TO nemesis_app; END IF; END $$"
    )


def downgrade() -> None:
    op.execute("DROP TABLE IF EXISTS public.fold_snapshots")
