"""Read model "league", generation 1: players, clubs, leagues, seasons, placements, standings' rows, ratings.

One view (decision 0020) because its parts feed each other: a season's rating history depends on
the games placed in it, their seats' players (names resolved through the registry, merges
followed) and the league's scheme. Same layout rules as 0002/0003: a tracking table with the
library's ('__migration__', 1) marker and a ``read_models`` row, so rebuilds clone every table.
Created as the owner role (alembic/env.py), so migration 0005's default privileges give the app
role read and write on them; the explicit grant below says so for a reader.

Revision ID: 0007
Revises: 0006
"""
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

P = "public.league_g1_"
TABLES = ("games", "seats", "players", "names", "clubs", "leagues", "seasons", "roles", "placements", "ratings")


def upgrade() -> None:
    op.execute(f"CREATE TABLE {P}tracking (application_name text PRIMARY KEY, notification_id bigint)")
    op.execute(f"INSERT INTO {P}tracking VALUES ('__migration__', 1)")
    op.execute("INSERT INTO public.read_models (view, active) VALUES ('league', 1)")
    # one row per game: what standings and ratings need, and the season it counts in
    op.execute(
        f"CREATE TABLE {P}games (game_id uuid PRIMARY KEY, ruleset text NOT NULL, mode text NOT NULL, title text,"
        " league_key text, played_on date NOT NULL, created_at timestamptz NOT NULL, finished boolean NOT NULL,"
        " decided boolean NOT NULL, ending text, season_id uuid, hidden boolean NOT NULL DEFAULT false,"
        " signature text NOT NULL)"
    )
    op.execute(f"CREATE INDEX league_g1_games_season ON {P}games (season_id, played_on)")
    op.execute(f"CREATE INDEX league_g1_games_league_key ON {P}games (league_key)")
    op.execute(
        f"CREATE TABLE {P}seats (game_id uuid NOT NULL, seat int NOT NULL, name text NOT NULL, name_key text NOT NULL,"
        " outcome text, survived boolean NOT NULL, objective boolean NOT NULL, death_cause text,"
        " PRIMARY KEY (game_id, seat))"
    )
    op.execute(f"CREATE INDEX league_g1_seats_name_key ON {P}seats (name_key)")
    op.execute(
        f"CREATE TABLE {P}players (player_id uuid PRIMARY KEY, name text NOT NULL, merged_into uuid,"
        " registered bigint NOT NULL)"
    )
    op.execute(f"CREATE TABLE {P}names (name_key text PRIMARY KEY, player_id uuid NOT NULL, name text NOT NULL, kind text NOT NULL)")
    op.execute(f"CREATE TABLE {P}clubs (club_id uuid PRIMARY KEY, slug text NOT NULL UNIQUE, name text NOT NULL)")
    op.execute(
        f"CREATE TABLE {P}leagues (league_id uuid PRIMARY KEY, club_id uuid NOT NULL, slug text NOT NULL,"
        " name text NOT NULL, name_key text NOT NULL, points jsonb NOT NULL, rate_solo boolean NOT NULL,"
        " opened bigint NOT NULL, UNIQUE (club_id, slug))"
    )
    op.execute(f"CREATE INDEX league_g1_leagues_name_key ON {P}leagues (name_key, opened)")
    op.execute(
        f"CREATE TABLE {P}seasons (season_id uuid PRIMARY KEY, league_id uuid NOT NULL, slug text NOT NULL,"
        " name text NOT NULL, starts_on date, ends_on date, opened bigint NOT NULL, UNIQUE (league_id, slug))"
    )
    op.execute(
        f"CREATE TABLE {P}roles (club_id uuid NOT NULL, player_id uuid NOT NULL, role text NOT NULL,"
        " PRIMARY KEY (club_id, player_id, role))"
    )
    op.execute(
        f"CREATE TABLE {P}placements (game_id uuid PRIMARY KEY, placed boolean NOT NULL, season_id uuid,"
        " hidden boolean NOT NULL, reason text)"
    )
    # the rating history: one row per (season, rated game, player), ordered by the game's date
    op.execute(
        f"CREATE TABLE {P}ratings (season_id uuid NOT NULL, game_id uuid NOT NULL, played_on date NOT NULL,"
        " created_at timestamptz NOT NULL, player_id uuid NOT NULL, name text NOT NULL, outcome text,"
        " mu_before double precision NOT NULL, sigma_before double precision NOT NULL,"
        " mu double precision NOT NULL, sigma double precision NOT NULL,"
        " rated int NOT NULL,"  # the player's rated games in the season up to and including this one
        " PRIMARY KEY (season_id, game_id, player_id))"
    )
    op.execute(f"CREATE INDEX league_g1_ratings_when ON {P}ratings (season_id, played_on, created_at, game_id)")
    # a player's rating as of a date: one index probe per player (the latest row on or before it)
    op.execute(f"CREATE INDEX league_g1_ratings_player ON {P}ratings"
               " (season_id, player_id, played_on DESC, created_at DESC, game_id DESC)")
    op.execute(
        "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'nemesis_app') THEN"
        + "".join(f" GRANT SELECT, INSERT, UPDATE, DELETE ON {P}{t} TO nemesis_app;" for t in ("tracking", *TABLES))
        + " END IF; END $$"
    )


def downgrade() -> None:
    for t in ("tracking", *TABLES):
        op.execute(f"DROP TABLE IF EXISTS {P}{t}")
    op.execute("DELETE FROM public.read_models WHERE view = 'league'")
