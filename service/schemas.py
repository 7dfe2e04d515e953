"""Shapes of what callers send: a game header and a batch of facts (marshmallow).

Shared by the JSON API and the notation reader so both refuse the same things the same way.
"""
from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from service import hygiene as limits
from service.rules.base import Seat, Setup
from service.rules.registry import RULESETS


class StrictBoolean(fields.Boolean):
    """true or false only: 0, 1, "yes" and "false" are not booleans in JSON."""

    default_error_messages = {"invalid": "must be true or false (a JSON boolean)"}

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


NOT_BLANK = validate.Regexp(r"\S", error="must not be blank")


class PlayerSchema(Schema):
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=8))
    name = fields.String(required=True, validate=[validate.Length(min=1, max=limits.MAX_NAME), NOT_BLANK])


class GameHeaderSchema(Schema):
    """What a game is before any fact: ruleset, mode, players and bookkeeping."""

    id = fields.UUID(load_default=None)
    ruleset = fields.String(required=True, validate=validate.OneOf(sorted(RULESETS)))
    mode = fields.String(load_default="standard")
    players = fields.List(fields.Nested(PlayerSchema), required=True, validate=validate.Length(min=1, max=5))
    strict = StrictBoolean(load_default=True)
    options = fields.Dict(keys=fields.String(), load_default=dict)
    league = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=limits.MAX_LEAGUE))
    tags = fields.List(
        fields.String(validate=[validate.Length(min=1, max=limits.MAX_TAG), NOT_BLANK]),
        load_default=list,
        validate=validate.Length(max=limits.MAX_TAGS),
    )
    played_on = fields.Date(load_default=None, allow_none=True)
    title = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=limits.MAX_TITLE))

    @validates_schema
    def _check(self, data, **kwargs):
        seats = [p["seat"] for p in data.get("players", [])]
        if len(set(seats)) != len(seats):
            raise ValidationError("each player needs a different seat number", "players")
        names = [p["name"].strip().casefold() for p in data.get("players", [])]
        if len(set(names)) != len(names):
            raise ValidationError("each player needs a different name", "players")
        ruleset = RULESETS.get(data.get("ruleset"))
        if ruleset and data.get("mode") not in ruleset.modes:
            raise ValidationError(f"mode must be one of {', '.join(ruleset.modes)}", "mode")
        if ruleset and data.get("players"):
            setup = Setup(
                players=tuple(Seat(p["seat"], p["name"]) for p in data["players"]),
                mode=data.get("mode", "standard"),
                options=data.get("options") or {},
            )
            try:  # the ruleset has the last word on players, mode and options (board side, figures, scoring)
                ruleset.initial_state(setup)
            except ValueError as e:
                raise ValidationError(str(e), "options" if data.get("options") else "players") from None


class FactSchema(Schema):
    type = fields.String(required=True, validate=validate.Length(min=1, max=80))
    actor = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(min=1, max=8))
    data = fields.Dict(keys=fields.String(), load_default=dict)
    visibility = fields.String(load_default="public", validate=validate.OneOf(["public", "private", "hidden"]))


class AppendSchema(Schema):
    """A batch of facts for one game, stored all or nothing."""

    facts = fields.List(fields.Nested(FactSchema), required=True, validate=validate.Length(min=1, max=500))
    expected_position = fields.Integer(
        load_default=None, allow_none=True, strict=True, validate=validate.Range(min=0, max=limits.MAX_POSITION)
    )
    command_id = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=100))
    recorder = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=80))


def flatten_errors(messages, prefix: str = "") -> dict[str, list[str]]:
    """marshmallow's nested messages as ``{"players.1.seat": ["..."]}``."""
    out: dict[str, list[str]] = {}
    if isinstance(messages, dict):
        for key, value in messages.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            out.update(flatten_errors(value, name))
    elif isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        out[prefix or "_schema"] = list(messages)
    else:
        out[prefix or "_schema"] = [str(messages)]
    return out
