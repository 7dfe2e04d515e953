"""The OpenAPI document of the JSON API, built from the same marshmallow schemas that validate it."""
from __future__ import annotations

from functools import lru_cache

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from service.schemas import AppendSchema, GameHeaderSchema


def _error(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _json(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": {"type": "object"}}}}


GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string", "format": "uuid"}}
VIEW = {"name": "view", "in": "query", "schema": {"type": "string", "enum": ["corrected", "played"], "default": "corrected"}}


@lru_cache(maxsize=1)
def spec() -> dict:
    s = APISpec(title="Nemesis Archive", version="1", openapi_version="3.0.3", plugins=[MarshmallowPlugin()])
    s.components.schema("GameHeader", schema=GameHeaderSchema)
    s.components.schema("Append", schema=AppendSchema)
    s.components.schema(
        "Error",
        {
            "type": "object",
            "required": ["error", "message"],
            "properties": {
                "error": {"type": "string"},
                "message": {"type": "string"},
                "field": {"type": "string"},
                "fields": {"type": "object"},
                "position": {"type": "integer"},
                "violations": {"type": "array", "items": {"type": "object"}},
            },
        },
    )
    s.path(
        path="/api/games",
        operations={
            "post": {
                "summary": "Create a game",
                "requestBody": {"required": True, "content": {"application/json": {"schema": "GameHeader"}}},
                "responses": {"201": _json("the game"), "400": _error("invalid header")},
            },
            "get": {
                "summary": "List and search games (newest first)",
                "parameters": [
                    {"name": "player", "in": "query", "schema": {"type": "string"}},
                    {"name": "from", "in": "query", "schema": {"type": "string", "format": "date"}},
                    {"name": "to", "in": "query", "schema": {"type": "string", "format": "date"}},
                    {"name": "ruleset", "in": "query", "schema": {"type": "string"}},
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "default": 50}},
                    {"name": "offset", "in": "query", "schema": {"type": "integer", "default": 0}},
                ],
                "responses": {"200": _json("games"), "400": _error("invalid query")},
            },
        },
    )
    s.path(
        path="/api/games/{game_id}",
        operations={"get": {"summary": "A game's header and position", "parameters": [GAME_ID],
                            "responses": {"200": _json("the game"), "404": _error("unknown game")}}},
    )
    s.path(
        path="/api/games/{game_id}/facts",
        operations={
            "post": {
                "summary": "Append a batch of facts (all or nothing)",
                "description": "A retried command_id returns the original result and stores nothing. "
                "A stale expected_position gets 409 with the current position. A fact the ruleset refuses "
                "(strict game, or malformed in any game) gets 422 naming the rule, step and field.",
                "parameters": [GAME_ID],
                "requestBody": {"required": True, "content": {"application/json": {"schema": "Append"}}},
                "responses": {
                    "201": _json("stored"),
                    "200": _json("a retried command: the original result"),
                    "400": _error("malformed request"),
                    "404": _error("unknown game"),
                    "409": _error("stale expected_position, or a command id reused for other facts"),
                    "422": _error("a fact was refused"),
                },
            },
            "get": {
                "summary": "Facts from a position",
                "parameters": [GAME_ID, VIEW, {"name": "from", "in": "query", "schema": {"type": "integer", "default": 0}}],
                "responses": {"200": _json("facts"), "404": _error("unknown game")},
            },
        },
    )
    s.path(
        path="/api/games/{game_id}/state",
        operations={"get": {"summary": "State at step N (default: head), folded by the ruleset",
                            "parameters": [GAME_ID, VIEW, {"name": "step", "in": "query", "schema": {"type": "integer"}}],
                            "responses": {"200": _json("state"), "404": _error("unknown game")}}},
    )
    s.path(
        path="/api/games/{game_id}/export",
        operations={"get": {"summary": "The game in notation (JSON Lines)", "parameters": [GAME_ID],
                            "responses": {"200": {"description": "notation", "content": {"application/x-ndjson": {}}},
                                          "404": _error("unknown game")}}},
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
                            "schema": {"type": "string", "example": "basic"}}],
            "responses": {"200": _json("proposals, conflicts and a board-file fragment"),
                          "404": _error("unknown board")},
        }},
    )
    s.path(
        path="/api/players",
        operations={"get": {"summary": "Per-player results across games",
                            "responses": {"200": _json("players")}}},
    )
    return s.to_dict()
