"""Read model "stats", generation 1: what happened in each game, counted from its facts (decision 0025).

Rows per game, per seat, per intruder killed and per room where something hurt, recomputed from the
as-corrected fold of each game (projections/statistics.py). The seat rows carry the filters the
statistics pages use (mode, player count, date, finished) so a page aggregates one table; league and
season filters join the league view's games by id. Same layout rules as 0002/0007: a tracking table
with the library's ('__migration__', 1) marker and a ``read_models`` row, so rebuilds clone every table.

Revision ID: 0009
Revises: 0008
"""
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

P = "public.stats_g1_"
TABLES = ("games", "seats", "kills", "rooms")


def upgrade() -> None:
    op.execute(f"CREATE TABLE {P}tracking (application_name text PRIMARY KEY, notification_id bigint)")
    op.execute(f"INSERT INTO {P}tracking VALUES ('__migration__', 1)")
    op.execute("INSERT INTO public.read_models (view, active) VALUES ('stats', 1)")
    op.execute(
        f"CREATE TABLE {P}games (game_id uuid PRIMARY KEY, ruleset text NOT NULL, mode text NOT NULL,"
        " players int NOT NULL, league_key text, played_on date NOT NULL, created_at timestamptz NOT NULL,"
        " finished boolean NOT NULL, ending text, plan text, rounds int NOT NULL, power_lost_round int,"
        " blackout_round int, first_death_round int, kills int NOT NULL)"
    )
    op.execute(f"CREATE INDEX stats_g1_games_filter ON {P}games (finished, mode, players)")
    op.execute(
        f"CREATE TABLE {P}seats (game_id uuid NOT NULL, seat int NOT NULL, name text NOT NULL, name_key text NOT NULL,"
        " mode text NOT NULL, players int NOT NULL, played_on date NOT NULL, finished boolean NOT NULL, plan text,"
        " character text, objective text, outcome text, survived boolean NOT NULL, route text, death_cause text,"
        " death_round int, death_room text, killer text, rounds_survived int NOT NULL, wounds int NOT NULL,"
        " kills int NOT NULL, PRIMARY KEY (game_id, seat))"
    )
    # the character page groups the finished seats by character: an index-only scan over these columns
    op.execute(f"CREATE INDEX stats_g1_seats_character ON {P}seats (finished, character)"
               " INCLUDE (mode, players, outcome, survived, rounds_survived, game_id)")
    op.execute(f"CREATE INDEX stats_g1_seats_name_key ON {P}seats (name_key, played_on)")
    op.execute(
        f"CREATE TABLE {P}kills (game_id uuid NOT NULL, seq int NOT NULL, seat int, name_key text, kind text NOT NULL,"
        " weapon text, round int NOT NULL, room text)"
    )
    op.execute(f"CREATE INDEX stats_g1_kills_game ON {P}kills (game_id)")
    op.execute(f"CREATE INDEX stats_g1_kills_name_key ON {P}kills (name_key)")
    op.execute(
        f"CREATE TABLE {P}rooms (game_id uuid NOT NULL, room text NOT NULL, attacks int NOT NULL, wounds int NOT NULL,"
        " deaths int NOT NULL, PRIMARY KEY (game_id, room))"
    )
    op.execute(
        "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'nemesis_app') THEN"
        + "".join(f" GRANT SELECT, INSERT, UPDATE, DELETE ON {P}{t} TO nemesis_app;" for t in ("tracking", *TABLES))
        + " END IF; END $$"
    )


def downgrade() -> None:
    for t in ("tracking", *TABLES):
        op.execute(f"DROP TABLE IF EXISTS {P}{t}")
    op.execute("DELETE FROM public.read_models WHERE view = 'stats'")
