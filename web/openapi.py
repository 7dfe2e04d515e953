"""The OpenAPI document of the JSON API, built from the same marshmallow schemas that validate it.

Every response is declared with its schema, every error with the Error schema; the test suite
runs schemathesis against this document and the running app (tests/integration/test_openapi_conformance.py).
"""
from __future__ import annotations

from functools import lru_cache

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import Schema, fields

from service import hygiene
from service.schemas import AppendSchema, GameHeaderSchema

# -- response shapes (documentation: web/api.py builds the bodies, the conformance test holds them to these) --

class ErrorSchema(Schema):
    """Every 4xx and 5xx answer under /api; the detail keys present depend on the error."""

    error = fields.String(required=True, metadata={"description": "the error's name, e.g. InvalidInput, StalePosition, "
                                                   "GameBusy, DatabaseUnavailable"})
    message = fields.String(required=True, metadata={"description": "what was wrong and where, for a person"})
    field = fields.String(allow_none=True, metadata={"description": "the field at fault as a JSON path, e.g. facts[0].data.note"})
    fields_ = fields.Dict(
        data_key="fields", keys=fields.String(), values=fields.List(fields.String()),
        metadata={"description": "field path → messages, for a request that failed schema validation"},
    )
    position = fields.Integer(metadata={"description": "the game's current position (409, 503)"})
    index = fields.Integer(metadata={"description": "which fact of the batch (0-based)"})
    seq = fields.Integer(metadata={"description": "the seq the refused fact would have had"})
    round = fields.Integer(allow_none=True)
    phase = fields.String(allow_none=True)
    violations = fields.List(fields.Dict(), metadata={"description": "each broken rule: rule, message, section, field, shape"})
    retry_after = fields.Integer(metadata={"description": "seconds to wait before retrying (503; also the Retry-After header)"})
    limit = fields.String(metadata={"description": "the write limit that was reached (429)"})


class PlayerOut(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)


class GameLinks(Schema):
    self = fields.String(required=True)
    facts = fields.String(required=True)
    state = fields.String(required=True)
    replay = fields.String(required=True)


class GameSummarySchema(Schema):
    id = fields.UUID(required=True)
    ruleset = fields.String(required=True)
    mode = fields.String(required=True)
    strict = fields.Boolean(required=True)
    players = fields.List(fields.Nested(PlayerOut), required=True)
    league = fields.String(required=True, allow_none=True)
    tags = fields.List(fields.String(), required=True)
    played_on = fields.Date(required=True, allow_none=True)
    title = fields.String(required=True, allow_none=True)
    position = fields.Integer(required=True, metadata={"description": "how many facts the game holds"})
    round = fields.Integer(required=True, allow_none=True)
    phase = fields.String(required=True, allow_none=True)
    finished = fields.Boolean(required=True)
    links = fields.Nested(GameLinks, required=True)


class GameRowSchema(Schema):
    """A game in the list (read model 'gameindex': eventually consistent)."""

    game_id = fields.UUID(required=True)
    ruleset = fields.String(required=True)
    mode = fields.String(required=True)
    title = fields.String(required=True, allow_none=True)
    league = fields.String(required=True, allow_none=True)
    tags = fields.List(fields.String(), required=True)
    played_on = fields.Date(required=True, allow_none=True)
    players = fields.Raw(required=True)
    strict = fields.Boolean(required=True)
    status = fields.String(required=True)
    round = fields.Integer(required=True, allow_none=True)
    facts = fields.Integer(required=True)
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameRowSchema), required=True)
    limit = fields.Integer(required=True)
    offset = fields.Integer(required=True)


class FlaggedSchema(Schema):
    seq = fields.Integer(required=True)
    violations = fields.List(fields.Dict(), required=True)


class AppendResultSchema(Schema):
    first_seq = fields.Integer(required=True)
    last_seq = fields.Integer(required=True)
    position = fields.Integer(required=True)
    flagged = fields.List(fields.Nested(FlaggedSchema), required=True)
    replayed = fields.Boolean(required=True, metadata={"description": "true: a retried command id, nothing stored"})
    notification_id = fields.Integer(metadata={"description": "where the last stored event is in the store's log"})


class RecordedFactSchema(Schema):
    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    actor = fields.Integer(required=True, allow_none=True)
    data = fields.Dict(required=True)
    visibility = fields.String(required=True)
    round = fields.Integer(required=True, allow_none=True)
    phase = fields.String(required=True, allow_none=True)
    recorded_at = fields.String(required=True)
    recorder = fields.String(required=True, allow_none=True)
    command_id = fields.String(required=True, allow_none=True)
    flags = fields.List(fields.Dict(), required=True)
    corrected_by = fields.Raw(allow_none=True, metadata={"description": "view=corrected: the correction in force"})
    notes = fields.List(fields.String(), metadata={"description": "view=corrected: the recorders' notes on this fact "
                                                                  "(FactAnnotated facts; decision 0017)"})


class FactsSchema(Schema):
    game = fields.UUID(required=True)
    view = fields.String(required=True)
    position = fields.Integer(required=True)
    facts = fields.List(fields.Nested(RecordedFactSchema), required=True)


class StepFactSchema(Schema):
    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    actor = fields.Integer(required=True, allow_none=True)
    data = fields.Dict(required=True)
    visibility = fields.String(required=True)


class StateSchema(Schema):
    game = fields.UUID(required=True)
    view = fields.String(required=True)
    seq = fields.Integer(required=True)
    index = fields.Integer(required=True)
    steps = fields.Integer(required=True)
    fact = fields.Nested(StepFactSchema, required=True, allow_none=True)
    note = fields.String(required=True)
    notes = fields.List(fields.String(), required=True, metadata={"description": "the recorders' notes on this fact"})
    corrected_by = fields.Raw(required=True, allow_none=True)
    consequences = fields.List(fields.Dict(), required=True)
    violations = fields.List(fields.Dict(), required=True)
    position = fields.Dict(required=True)
    state = fields.Dict(required=True, metadata={"description": "the ruleset's description of the state"})
    next = fields.List(fields.Dict(), required=True, metadata={"description": "what may be recorded next, with legal options"})
    result = fields.Dict(required=True, allow_none=True)


class CorridorsSchema(Schema):
    board = fields.String(required=True)
    name = fields.String(required=True)
    synthetic = fields.Boolean(required=True)
    corridors_declared = fields.Boolean(required=True)
    proposals = fields.List(fields.Dict(), required=True)
    conflicts = fields.List(fields.Dict(), required=True)
    fragment = fields.Dict(required=True)


class PlayerRowSchema(Schema):
    player = fields.String(required=True)
    player_key = fields.String(required=True)
    played = fields.Integer(required=True)
    finished = fields.Integer(required=True)
    won = fields.Integer(required=True)
    lost = fields.Integer(required=True)
    undetermined = fields.Integer(required=True)
    incomplete = fields.Integer(required=True, metadata={
        "description": "games whose record is incomplete (decision 0018): played, but not finished, won, lost "
                       "or undetermined"})


class PlayersSchema(Schema):
    players = fields.List(fields.Nested(PlayerRowSchema), required=True)


# -- the document ----------------------------------------------------------------------------------------

ERRORS = {
    "400": "the request is malformed: a field (named in `field` or `fields`) is missing, of the wrong type, "
    "out of range, or holds text that cannot be stored (NUL, a lone surrogate, too long, nested too deeply)",
    "401": "no account: send an API token as `Authorization: Bearer TOKEN` (`nemesis-archive token issue USER`); "
    "a token unknown or revoked is refused the same way",
    "403": "signed in, but not a recorder or an admin of the game's league (outside any league: of any club)",
    "404": "no such game or board (a game of a members-only league is not found for those outside its club)",
    "405": "the method is not allowed on this path; the Allow header lists the ones that are",
    "409": "a conflict: a stale expected_position (with the current `position`), a command id reused for "
    "other facts, or a game id that already exists",
    "413": f"the request body is larger than {hygiene.MAX_BODY_BYTES:,} bytes",
    "429": "too many writes from this address to this game (see `nemesis-archive serve --write-limit`); "
    "retry after the Retry-After header's seconds",
    "422": "a fact was refused: it breaks a rule (strict game) or cannot be read at all (any game); "
    "`violations` names the rule, the rulebook section and the field, nothing of the batch is stored",
    "503": "the store is busy or unreachable; nothing was stored; retry after the Retry-After header's seconds",
}
RETRY_AFTER = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
ALLOW = {"Allow": {"description": "the methods this path allows", "schema": {"type": "string"}}}


def _ok(description: str, schema: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: str) -> dict:
    out = {}
    for code in ("405", "503", *codes):
        out[code] = {"description": ERRORS[code], "content": {"application/json": {"schema": "Error"}}}
        if code == "401":
            out[code]["headers"] = {"WWW-Authenticate": {"description": "Bearer", "schema": {"type": "string"}}}
        if code in ("429", "503"):
            out[code]["headers"] = RETRY_AFTER
    out["405"]["headers"] = ALLOW
    return out


def _int_query(name: str, description: str, default: int | None = None, maximum: int = hygiene.MAX_POSITION) -> dict:
    schema = {"type": "integer", "minimum": 0, "maximum": maximum}
    if default is not None:
        schema["default"] = default
    return {"name": name, "in": "query", "description": description, "schema": schema}


def _text_query(name: str, description: str, **schema) -> dict:
    return {"name": name, "in": "query", "description": description,
            "schema": {"type": "string", "maxLength": hygiene.MAX_QUERY, **schema}}


GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string", "format": "uuid"}}
VIEW = {"name": "view", "in": "query", "description": "corrected (default): corrections applied; played: as recorded",
        "schema": {"type": "string", "enum": ["corrected", "played"], "default": "corrected"}}

LIMITS = (
    f"Limits: a request body of at most {hygiene.MAX_BODY_BYTES:,} bytes (413 beyond), JSON nested at most "
    f"{hygiene.MAX_DEPTH} levels, any string in fact data or options at most {hygiene.MAX_TEXT:,} characters, "
    f"object keys at most {hygiene.MAX_KEY}, at most {hygiene.MAX_ITEMS:,} members per object or array, "
    f"numbers finite and within ±(2^53 - 1). Text must not contain NUL (\\u0000) or lone surrogates. "
    f"The field at fault is named as a JSON path, e.g. facts[0].data.note."
)


# Writes need an account (decision 0024): a per-user API token, or the sign-in session's cookie (a browser's;
# with the page's CSRF token in X-CSRF-Token).
WRITE_SECURITY = [{"token": []}, {"session": []}]
SECURITY_SCHEMES = {
    "token": {"type": "http", "scheme": "bearer",
              "description": "a per-user API token from `nemesis-archive token issue USER`, shown once"},
    "session": {"type": "apiKey", "in": "cookie", "name": "nemesis_session",
                "description": "the sign-in page's session (browsers); a write also sends X-CSRF-Token"},
}


@lru_cache(maxsize=1)
def spec() -> dict:
    s = APISpec(
        title="Nemesis Archive", version="1", openapi_version="3.0.3", plugins=[MarshmallowPlugin()],
        info={"description": "Record, replay and score real-table games of Nemesis: Lockdown. " + LIMITS},
    )
    for name, scheme in SECURITY_SCHEMES.items():
        s.components.security_scheme(name, scheme)
    s.components.schema("GameHeader", schema=GameHeaderSchema)
    s.components.schema("Append", schema=AppendSchema)
    s.components.schema("Error", schema=ErrorSchema)
    for name, schema in (("GameSummary", GameSummarySchema), ("GameList", GameListSchema),
                         ("AppendResult", AppendResultSchema), ("Facts", FactsSchema), ("State", StateSchema),
                         ("Corridors", CorridorsSchema), ("Players", PlayersSchema)):
        s.components.schema(name, schema=schema)
    s.path(
        path="/api/games",
        operations={
            "post": {
                "summary": "Create a game",
                "description": f"Title at most {hygiene.MAX_TITLE} characters, player names at most "
                f"{hygiene.MAX_NAME}, at most {hygiene.MAX_TAGS} tags of at most {hygiene.MAX_TAG}; "
                "strict is a JSON boolean.",
                "requestBody": {"required": True, "content": {"application/json": {"schema": "GameHeader"}}},
                "security": WRITE_SECURITY,
                "responses": {
                    "201": {**_ok("the game", "GameSummary"),
                            "headers": {"Location": {"description": "the game's URL", "schema": {"type": "string"}}}},
                    **_errors("400", "401", "403", "409", "413", "429"),
                },
            },
            "get": {
                "summary": "List and search games (newest first)",
                "parameters": [
                    _text_query("player", "any part of any player's name, case-insensitively"),
                    _text_query("from", "played on or after", format="date"),
                    _text_query("to", "played on or before", format="date"),
                    _text_query("ruleset", "e.g. lockdown"),
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 500, "default": 50}},
                    _int_query("offset", "games to skip", 0),
                ],
                "responses": {"200": _ok("games", "GameList"), **_errors("400")},
            },
        },
    )
    s.path(
        path="/api/games/{game_id}",
        operations={"get": {"summary": "A game's header and position", "parameters": [GAME_ID],
                            "responses": {"200": _ok("the game", "GameSummary"), **_errors("400", "404")}}},
    )
    s.path(
        path="/api/games/{game_id}/facts",
        operations={
            "post": {
                "summary": "Append a batch of facts (all or nothing)",
                "description": "A retried command_id returns the original result and stores nothing. "
                "A stale expected_position gets 409 with the current position. A fact the ruleset refuses "
                "(strict game, or malformed in any game) gets 422 naming the rule, step and field. Without "
                "expected_position a batch is checked against whatever the head is when it lands; a writer that "
                "keeps losing the race to others gets 503 with Retry-After. " + LIMITS,
                "parameters": [GAME_ID],
                "requestBody": {"required": True, "content": {"application/json": {"schema": "Append"}}},
                "security": WRITE_SECURITY,
                "responses": {
                    "201": _ok("stored", "AppendResult"),
                    "200": _ok("a retried command: the original result", "AppendResult"),
                    **_errors("400", "401", "403", "404", "409", "413", "422", "429"),
                },
            },
            "get": {
                "summary": "Facts from a position",
                "parameters": [GAME_ID, VIEW, _int_query("from", "facts after this seq", 0)],
                "responses": {"200": _ok("facts", "Facts"), **_errors("400", "404")},
            },
        },
    )
    s.path(
        path="/api/games/{game_id}/state",
        operations={"get": {"summary": "State at step N (default: head), folded by the ruleset",
                            "parameters": [GAME_ID, VIEW, _int_query("step", "the step (a fact's seq); default: the head")],
                            "responses": {"200": _ok("state", "State"), **_errors("400", "404")}}},
    )
    s.path(
        path="/api/games/{game_id}/export",
        operations={"get": {"summary": "The game in notation (JSON Lines)", "parameters": [GAME_ID],
                            "responses": {"200": {"description": "notation (docs/notation.md)",
                                                  "content": {"application/x-ndjson": {"schema": {"type": "string"}}}},
                                          **_errors("400", "404")}}},
    )
    s.path(
        path="/api/boards/{board}/corridors",
        operations={"get": {
            "summary": "Corridors learned from recorded moves on a board side",
            "description": "Every recorded move (and intruder move naming its corridor) is an observation: from place "
            "A the figure entered place B through B's corridor n ('path' on the Mars surface). Proposals aggregate "
            "them across games (games, moves, first/last seen); conflicts list a place whose corridor n was seen "
            "entered from different places (same_to; corridor numbers belong to the room entered). 'fragment' is the proposals in the "
            "board file's corridor format, for a club to check against its physical board "
            "(docs/decisions/0005-learned-corridors.md). Eventually consistent (read model 'corridors').",
            "parameters": [{"name": "board", "in": "path", "required": True,
                            "schema": {"type": "string", "maxLength": hygiene.MAX_QUERY, "example": "basic"}}],
            "responses": {"200": _ok("proposals, conflicts and a board-file fragment", "Corridors"),
                          **_errors("400", "404")},
        }},
    )
    s.path(
        path="/api/players",
        operations={"get": {"summary": "Per-player results across games",
                            "parameters": [_text_query("player", "one player's name (case-insensitive)")],
                            "responses": {"200": _ok("players", "Players"), **_errors("400")}}},
    )
    from web.openapi_leagues import add_league_paths, add_preview_path, add_statistics_paths

    add_league_paths(s, _ok, _errors, _text_query)
    add_statistics_paths(s, _ok, _errors)
    add_preview_path(s, _ok, _errors)
    return s.to_dict()
