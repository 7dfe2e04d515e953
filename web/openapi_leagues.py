"""The league part of the OpenAPI document (web/league.py): declared with the same helpers as the rest."""
from __future__ import annotations

from marshmallow import Schema, fields

from service import hygiene


class PointsSchema(Schema):
    played = fields.Integer(required=True)
    win = fields.Integer(required=True)
    survived = fields.Integer(required=True)
    objective = fields.Integer(required=True)


class SeasonOut(Schema):
    id = fields.UUID(required=True)
    slug = fields.String(required=True)
    name = fields.String(required=True)
    starts_on = fields.Date(required=True, allow_none=True)
    ends_on = fields.Date(required=True, allow_none=True)
    games = fields.Integer(metadata={"description": "games counted in the season (hidden ones left out)"})


class LeagueOut(Schema):
    id = fields.UUID(required=True)
    slug = fields.String(required=True)
    name = fields.String(required=True)
    points = fields.Nested(PointsSchema, required=True, metadata={"description": "points per finished game"})
    rate_solo = fields.Boolean(required=True, metadata={"description": "whether solo games move ratings"})
    seasons = fields.List(fields.Nested(SeasonOut), required=True)


class ClubOut(Schema):
    id = fields.UUID(required=True)
    slug = fields.String(required=True)
    name = fields.String(required=True)
    leagues = fields.List(fields.Nested(LeagueOut), required=True)


class ClubsSchema(Schema):
    clubs = fields.List(fields.Nested(ClubOut), required=True)


class NamedSlug(Schema):
    slug = fields.String(required=True)
    name = fields.String(required=True)


class LeagueRef(NamedSlug):
    points = fields.Nested(PointsSchema, required=True)
    rate_solo = fields.Boolean(required=True)


class SeasonRef(Schema):
    id = fields.UUID(required=True)
    slug = fields.String(required=True)
    name = fields.String(required=True)
    starts_on = fields.Date(required=True, allow_none=True)
    ends_on = fields.Date(required=True, allow_none=True)


class RatingOut(Schema):
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    ordinal = fields.Float(required=True, metadata={"description": "μ − 3σ, what the table ranks by"})
    rated_games = fields.Integer(required=True)


class StandingRow(Schema):
    rank = fields.Integer(required=True)
    player_id = fields.UUID(required=True, metadata={"description": "a registered player, or one derived from an unregistered name"})
    name = fields.String(required=True)
    registered = fields.Boolean(required=True)
    games = fields.Integer(required=True, metadata={"description": "finished games"})
    wins = fields.Integer(required=True)
    survived = fields.Integer(required=True)
    objectives = fields.Integer(required=True)
    undetermined = fields.Integer(required=True)
    win_rate = fields.Float(required=True, allow_none=True)
    survival_rate = fields.Float(required=True, allow_none=True)
    objective_rate = fields.Float(required=True, allow_none=True)
    points = fields.Integer(required=True)
    rating = fields.Nested(RatingOut, required=True, allow_none=True)
    last_played = fields.Date(required=True, allow_none=True)


class StandingsSchema(Schema):
    club = fields.Nested(NamedSlug, required=True)
    league = fields.Nested(LeagueRef, required=True)
    season = fields.Nested(SeasonRef, required=True)
    as_of = fields.Date(required=True, allow_none=True)
    games = fields.Integer(required=True)
    standings = fields.List(fields.Nested(StandingRow), required=True)
    the_game = fields.Nested(RatingOut, required=True, allow_none=True,
                             metadata={"description": "the rating of the game itself (co-op and rated solo games)"})


class RatingChange(Schema):
    game_id = fields.UUID(required=True)
    played_on = fields.Date(required=True)
    player_id = fields.UUID(required=True)
    name = fields.String(required=True)
    outcome = fields.String(required=True, allow_none=True)
    mu_before = fields.Float(required=True)
    sigma_before = fields.Float(required=True)
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    ordinal = fields.Float(required=True)


class RatingHistorySchema(Schema):
    club = fields.Nested(NamedSlug, required=True)
    league = fields.Nested(LeagueRef, required=True)
    season = fields.Nested(SeasonRef, required=True)
    history = fields.List(fields.Nested(RatingChange), required=True)


class RegistryPlayer(Schema):
    id = fields.UUID(required=True)
    name = fields.String(required=True)
    aliases = fields.List(fields.String(), required=True)
    merged_into = fields.UUID(required=True, allow_none=True)


class RegistrySchema(Schema):
    players = fields.List(fields.Nested(RegistryPlayer), required=True)


def add_league_paths(s, ok, errors, text_query) -> None:
    """Add the league operations to the spec ``s`` (``ok``/``errors``/``text_query``: web/openapi.py's helpers)."""
    for name, schema in (("Clubs", ClubsSchema), ("Standings", StandingsSchema),
                         ("RatingHistory", RatingHistorySchema), ("PlayerRegistry", RegistrySchema)):
        s.components.schema(name, schema=schema)
    slug = {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$", "maxLength": 60}
    season_path = [{"name": n, "in": "path", "required": True, "schema": slug} for n in ("club", "league", "season")]
    as_of = text_query("as_of", "standings and ratings as they stood at the end of this day (default: now)", format="date")
    eventual = " Eventually consistent (read model 'league', decision 0020)."
    s.path(path="/api/clubs", operations={"get": {
        "summary": "Clubs, their leagues (points scheme) and seasons",
        "description": "Read-only: clubs, leagues and seasons are made with `nemesis-archive league`." + eventual,
        "parameters": [{"name": "club", "in": "query", "description": "only this club (its slug)", "schema": slug}],
        "responses": {"200": ok("clubs", "Clubs"), **errors("400")}}})
    s.path(path="/api/clubs/{club}/leagues/{league}/seasons/{season}/standings", operations={"get": {
        "summary": "A season's standings as of a date",
        "description": "Per player over the season's finished games (hidden games left out): games, wins, survival "
        "and objective counts and rates, points under the league's scheme, and the OpenSkill rating (Weng-Lin, "
        "Plackett-Luce; ordinal μ − 3σ) after the player's last rated game on or before `as_of`." + eventual,
        "parameters": [*season_path, as_of],
        "responses": {"200": ok("standings", "Standings"), **errors("400", "404")}}})
    s.path(path="/api/clubs/{club}/leagues/{league}/seasons/{season}/ratings", operations={"get": {
        "summary": "A season's rating history (every change, in game order)",
        "description": "One row per rated game and player, keyed by the game's date; `player` (an id, a name or an "
        "alias) keeps one player's." + eventual,
        "parameters": [*season_path, as_of, text_query("player", "a player's id, name or alias", maxLength=hygiene.MAX_NAME)],
        "responses": {"200": ok("rating history", "RatingHistory"), **errors("400", "404")}}})
    s.path(path="/api/player-registry", operations={"get": {
        "summary": "Registered players: names, aliases, merges",
        "description": "Seats link to players by name or alias; a name nobody registered counts as a player of its own. "
                       "A name seen only in games of a members-only league the asker is not a member of is left out "
                       "(an alias), and so is a player known only by such names." + eventual,
        "parameters": [text_query("name", "any part of a name or alias, case-insensitively", maxLength=hygiene.MAX_NAME)],
        "responses": {"200": ok("players", "PlayerRegistry"), **errors("400")}}})


# -- statistics (web/stats.py; decision 0025) ---------------------------------------------------------


class StatisticsSchema(Schema):
    section = fields.String(required=True)
    scope = fields.Dict(required=True, metadata={"description": "the club, league and season named (empty: every game)"})
    games = fields.Integer(required=True, metadata={"description": "finished games counted"})
    tables = fields.Dict(keys=fields.String(), values=fields.List(fields.Dict()), required=True, metadata={
        "description": "per table, its rows: `key` (a character, objective, plan, death cause, round, route, intruder "
        "type, weapon or room id; null: none or never) and its counts and rates"})


class ProfileRatingPoint(Schema):
    game_id = fields.UUID(required=True)
    played_on = fields.Date(required=True)
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    ordinal = fields.Float(required=True)


class ProfileSeason(Schema):
    season_id = fields.UUID(required=True)
    league = fields.String(required=True)
    season = fields.String(required=True)
    points = fields.List(fields.Nested(ProfileRatingPoint), required=True)


class ProfileSchema(Schema):
    player_id = fields.UUID(required=True)
    name = fields.String(required=True)
    games = fields.List(fields.Dict(), required=True, metadata={"description": "every game of the player, newest first"})
    finished = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    survived = fields.Integer(required=True)
    characters = fields.List(fields.Dict(), required=True)
    killers = fields.List(fields.Dict(), required=True, metadata={"description": "deaths by the attacking intruder's type"})
    nemesis = fields.List(fields.String(), required=True,
                          metadata={"description": "the intruder type(s) that killed the player most"})
    ratings = fields.List(fields.Nested(ProfileSeason), required=True, metadata={"description": "per season, in game order"})


def add_statistics_paths(s, ok, errors) -> None:
    from projections.statistics_queries import MODES, SECTIONS

    s.components.schema("Statistics", schema=StatisticsSchema)
    s.components.schema("Profile", schema=ProfileSchema)
    slug = {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$", "maxLength": 60}
    section = {"name": "section", "in": "path", "required": True, "schema": {"type": "string", "enum": list(SECTIONS)},
               "description": "; ".join(f"{k}: {', '.join(v)}" for k, v in SECTIONS.items())}
    filters = [
        {"name": "mode", "in": "query", "schema": {"type": "string", "enum": list(MODES)}, "description": "only this mode"},
        {"name": "players", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 5},
         "description": "only games of this many players"},
    ]
    eventual = " Eventually consistent (read model 'stats', decision 0025)."
    s.path(path="/api/statistics/{section}", operations={"get": {
        "summary": "Statistics of every finished game (hidden games left out)",
        "description": "Counted from the games' facts: win and survival by character, objective and plan; death causes; "
        "rounds survived; first death; power lost; escape routes; kills by intruder type and weapon; rooms." + eventual,
        "parameters": [section, *filters],
        "responses": {"200": ok("statistics", "Statistics"), **errors("400", "404")}}})
    s.path(path="/api/clubs/{club}/leagues/{league}/statistics/{section}", operations={"get": {
        "summary": "Statistics of a league's finished games, or of one season",
        "description": "As /api/statistics/{section}, over the games counted in the league's seasons." + eventual,
        "parameters": [*({"name": n, "in": "path", "required": True, "schema": slug} for n in ("club", "league")), section,
                       {"name": "season", "in": "query", "schema": slug, "description": "only this season (its slug)"},
                       *filters],
        "responses": {"200": ok("statistics", "Statistics"), **errors("400", "404")}}})
    s.path(path="/api/players/{player_id}/profile", operations={"get": {
        "summary": "A player's games, characters, ratings over time and nemesis",
        "description": "`player_id`: a registered player's id (see /api/player-registry) or the id standings give a "
        "name nobody registered." + eventual,
        "parameters": [{"name": "player_id", "in": "path", "required": True, "schema": {"type": "string", "format": "uuid"}}],
        "responses": {"200": ok("profile", "Profile"), **errors("400", "404")}}})


class PreviewRow(Schema):
    player_id = fields.UUID(required=True)
    name = fields.String(required=True)
    rank = fields.Integer(required=True)
    rank_before = fields.Integer(required=True, allow_none=True)
    points = fields.Integer(required=True)
    points_before = fields.Integer(required=True, allow_none=True)
    rating = fields.Float(required=True, allow_none=True, metadata={"description": "μ − 3σ"})
    rating_before = fields.Float(required=True, allow_none=True)
    mu = fields.Float(required=True, allow_none=True, metadata={"description": "μ after the game and every later one"})
    sigma = fields.Float(required=True, allow_none=True)
    in_game = fields.Boolean(required=True)


class RerateRow(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    rating = fields.Float(required=True, metadata={"description": "μ − 3σ after this game, were the pending game counted"})
    rating_before = fields.Float(required=True, allow_none=True, metadata={"description": "μ − 3σ after this game now"})
    moves = fields.Boolean(required=True, metadata={"description": "the rating changes (to one decimal)"})


class Rerated(Schema):
    game_id = fields.String(required=True)
    title = fields.String(required=True, allow_none=True)
    played_on = fields.String(required=True)
    ratings = fields.List(fields.Nested(RerateRow), required=True)


class PreviewSchema(Schema):
    club = fields.Dict(required=True)
    league = fields.Dict(required=True)
    season = fields.Dict(required=True)
    game = fields.Dict(required=True)
    counted = fields.Boolean(required=True, metadata={"description": "the game already counts in this season"})
    rated = fields.Boolean(required=True, metadata={"description": "counting it would move ratings"})
    earlier_than_counted = fields.Boolean(required=True)
    seats = fields.List(fields.Dict(), required=True, metadata={"description": "each seat's result as previewed and why "
                                                                 "(verdict, chosen, as it stands)"})
    standings = fields.List(fields.Nested(PreviewRow), required=True)
    rerated = fields.List(fields.Nested(Rerated), required=True, metadata={
        "description": "the season's later rated games, rated again after the pending one (the first 100)"})
    rerated_total = fields.Integer(required=True, metadata={"description": "how many later games would be rated again"})
    defaults = fields.Dict(required=True)


def add_preview_path(s, ok, errors) -> None:
    s.components.schema("Preview", schema=PreviewSchema)
    slug = {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$", "maxLength": 60}
    s.path(path="/api/clubs/{club}/leagues/{league}/seasons/{season}/preview/{game_id}", operations={"get": {
        "summary": "What a pending game would change in a season's standings and ratings",
        "description": "A game in progress (each seat as it stands: dead loses, alive wins; or `seatN=won|lost`), hidden, "
        "or counted elsewhere, added to the season's current table in memory and rated where its date puts it, every "
        "later game of the season rated again after it (decision 0033). Nothing is written.",
        "parameters": [*({"name": n, "in": "path", "required": True, "schema": slug} for n in ("club", "league", "season")),
                       {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string", "format": "uuid"}}],
        "responses": {"200": ok("preview", "Preview"), **errors("400", "404")}}})
