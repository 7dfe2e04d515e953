"""Accounts for the people who record: password hashes, sign-in sessions, API tokens (decision 0024).

Plain tables, not events: a password hash, a session and a token are secrets that must be
replaceable and revocable, and an event store keeps everything forever (and in every export).
Roles stay facts (``Club.RoleGranted``/``RoleRevoked``, decision 0020) and name a registry
player; an account names the player it acts as. Sessions and tokens are stored as SHA-256 of
a 256-bit random value (the value itself is shown once and never stored).

Created as the owner role (alembic/env.py), so migration 0005's default privileges give the
app role read and write; the explicit grant below says so for a reader.

Revision ID: 0008
Revises: 0007
"""
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

TABLES = ("accounts", "account_sessions", "api_tokens")


def upgrade() -> None:
    op.execute(
        "CREATE TABLE public.accounts (account_id uuid PRIMARY KEY, username text NOT NULL,"
        " username_key text NOT NULL UNIQUE, password_hash text, player_id uuid,"
        " site_admin boolean NOT NULL DEFAULT false, created_at timestamptz NOT NULL DEFAULT now(),"
        " disabled_at timestamptz)"
    )
    op.execute(
        "CREATE TABLE public.account_sessions (token_hash text PRIMARY KEY,"
        " account_id uuid NOT NULL REFERENCES public.accounts ON DELETE CASCADE,"
        " created_at timestamptz NOT NULL DEFAULT now(), expires_at timestamptz NOT NULL)"
    )
    op.execute("CREATE INDEX account_sessions_account ON public.account_sessions (account_id)")
    op.execute(
        "CREATE TABLE public.api_tokens (token_id uuid PRIMARY KEY, token_hash text NOT NULL UNIQUE,"
        " account_id uuid NOT NULL REFERENCES public.accounts ON DELETE CASCADE, label text NOT NULL,"
        " created_at timestamptz NOT NULL DEFAULT now(), revoked_at timestamptz, last_used_at timestamptz)"
    )
    op.execute("CREATE INDEX api_tokens_account ON public.api_tokens (account_id)")
    op.execute(
        "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'nemesis_app') THEN"
        + "".join(f" GRANT SELECT, INSERT, UPDATE, DELETE ON public.{t} TO nemesis_app;" for t in TABLES)
        + " END IF; END $$"
    )


def downgrade() -> None:
    for t in reversed(TABLES):
        op.execute(f"DROP TABLE IF EXISTS public.{t}")
