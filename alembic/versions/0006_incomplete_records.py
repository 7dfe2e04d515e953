"""Player results mark games whose record is incomplete (decision 0018).

A coarse record may stop before the game's end (``GameEnded`` ``ending: incomplete``). Its
known deaths and escapes stay in the result, but statistics must not count it as a complete
game: ``playerresults`` gets ``incomplete`` (false for every row written before, since the
ending did not exist then). Every generation table present is altered (the active one and a
rebuild in progress); later generations copy the column (``CREATE TABLE ... LIKE``).

Revision ID: 0006
Revises: 0005
"""
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

EACH_RESULTS_TABLE = """
DO $$ DECLARE t text; BEGIN
  FOR t IN SELECT c.relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
           AND c.relname ~ '^playerresults_g[0-9]+_results$' LOOP
    EXECUTE format('ALTER TABLE public.%I {action}', t);
  END LOOP;
END $$"""


def upgrade() -> None:
    op.execute(EACH_RESULTS_TABLE.replace("{action}", "ADD COLUMN IF NOT EXISTS incomplete boolean NOT NULL DEFAULT false"))


def downgrade() -> None:
    op.execute(EACH_RESULTS_TABLE.replace("{action}", "DROP COLUMN IF EXISTS incomplete"))
