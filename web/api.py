"""JSON API: create games, append facts, read facts and states, list and search games."""
from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from marshmallow import Schema, ValidationError, fields, validate

from projections import queries
from service import hygiene
from service.errors import InvalidInput
from service.notation import write_game
from service.rules import get_ruleset
from service.rules.replay import Step
from service.schemas import AppendSchema, GameHeaderSchema
from web.replays import replay_of

api = Blueprint("api", __name__)


class ListQuery(Schema):
    player = fields.String(load_default=None)
    played_from = fields.Date(load_default=None, data_key="from")
    played_to = fields.Date(load_default=None, data_key="to")
    ruleset = fields.String(load_default=None)
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=hygiene.MAX_POSITION))


class ViewQuery(Schema):
    view = fields.String(load_default="corrected", validate=validate.OneOf(["corrected", "played"]))
    step = fields.Integer(load_default=None, validate=validate.Range(min=0, max=hygiene.MAX_POSITION))
    since = fields.Integer(load_default=0, validate=validate.Range(min=0, max=hygiene.MAX_POSITION), data_key="from")


# One instance of each schema, made once: making one builds its fields and nested schemas, two thirds of a
# load's cost (300 µs against 94 µs for an append's body); loading keeps no state on the instance (decision 0052).
LIST_QUERY, VIEW_QUERY, APPEND, HEADER = ListQuery(), ViewQuery(), AppendSchema(), GameHeaderSchema()


def archive():
    return current_app.config["ARCHIVE"]


def _body() -> Any:
    """The JSON object of the request, checked by service.hygiene (text, depth, sizes)."""
    if not request.is_json:
        raise InvalidInput("the request body must be a JSON object (Content-Type: application/json)", field="body")
    body = hygiene.loads(request.get_data(cache=True))  # over MAX_CONTENT_LENGTH: 413 before reading
    if not isinstance(body, dict):
        raise InvalidInput("the request body must be a JSON object", field="body")
    return body


def _game_id(value: str) -> UUID:
    try:
        return UUID(value)
    except ValueError:
        raise InvalidInput(f"{value!r} is not a game id (a UUID)", field="game_id") from None


def game_summary(game) -> dict[str, Any]:
    pos = game.ruleset.position(game.head_state)
    return {
        "id": str(game.id),
        "ruleset": game.ruleset_name,
        "mode": game.mode,
        "strict": game.strict,
        "players": game.players,
        "league": game.league,
        "tags": game.tags,
        "played_on": game.played_on,
        "title": game.title,
        "position": game.position,
        "round": pos.get("round"),
        "phase": pos.get("phase"),
        "finished": bool(pos.get("finished")),
        "links": {
            "self": url_for("api.get_game", game_id=game.id),
            "facts": url_for("api.get_facts", game_id=game.id),
            "state": url_for("api.get_state", game_id=game.id),
            "replay": url_for("replay.game_step", game_id=game.id, step=game.position),
        },
    }


def fact_dict(recorded) -> dict[str, Any]:
    f = recorded.fact
    return {
        "seq": f.seq,
        "type": f.type,
        "actor": f.actor,
        "data": dict(f.data),
        "visibility": f.visibility,
        "round": recorded.round,
        "phase": recorded.phase,
        "recorded_at": recorded.recorded_at,
        "recorder": recorded.recorder,
        "command_id": recorded.command_id,
        "flags": list(recorded.flags),
    }


def step_dict(ruleset, step: Step, index: int, steps: int) -> dict[str, Any]:
    """Step ``index`` of a replay of ``steps`` steps, as the API shows it."""
    fact = step.fact
    result = ruleset.score(step.state)
    return {
        "seq": step.seq,
        "index": index,
        "steps": steps,
        "fact": None
        if fact is None
        else {"seq": fact.seq, "type": fact.type, "actor": fact.actor, "data": dict(fact.data), "visibility": fact.visibility},
        "note": step.note,
        "notes": list(step.notes),
        "corrected_by": step.corrected_by,
        "consequences": [c.as_dict() for c in step.consequences],
        "violations": [v.as_dict() for v in step.violations],
        "position": ruleset.position(step.state),
        "state": ruleset.describe(step.state),
        "next": [e.as_dict() for e in ruleset.next_inputs(step.state)],
        "result": result.as_dict() if result else None,
    }


@api.post("/games")
def create_game():
    header = HEADER.load(_body())
    game = archive().games.create_game(header)
    return jsonify(game_summary(game)), 201, {"Location": url_for("api.get_game", game_id=game.id)}


@api.get("/games")
def list_games():
    q = LIST_QUERY.load(request.args)
    from web.auth import hidden_games

    rows = queries.list_games(archive().db, **q, exclude=hidden_games())
    for r in rows:
        r["game_id"] = str(r["game_id"])
        r["played_on"] = r["played_on"].isoformat() if r["played_on"] else None
        r["created_at"] = r["created_at"].isoformat()
        r["updated_at"] = r["updated_at"].isoformat()
    return jsonify({"games": rows, "limit": q["limit"], "offset": q["offset"]})


@api.get("/games/<game_id>")
def get_game(game_id: str):
    return jsonify(game_summary(archive().games.get_game(_game_id(game_id))))


@api.post("/games/<game_id>/facts")
def append_facts(game_id: str):
    gid = _game_id(game_id)
    body = APPEND.load(_body())
    result = archive().games.record(
        gid,
        body["facts"],
        expected_position=body["expected_position"],
        command_id=body["command_id"],
        recorder=body["recorder"],
    )
    return jsonify(result), 200 if result["replayed"] else 201


@api.get("/games/<game_id>/facts")
def get_facts(game_id: str):
    q = VIEW_QUERY.load(request.args)
    game = archive().games.get_game(_game_id(game_id))
    if q["view"] == "played":
        facts = [fact_dict(r) for r in game.recorded if r.fact.seq > q["since"]]
    else:
        game, replay = replay_of(archive(), game.id, corrected=True)
        by_seq = {r.fact.seq: r for r in game.recorded}
        facts = []
        for step in replay.steps[1:]:
            if step.seq <= q["since"]:
                continue
            d = fact_dict(by_seq[step.seq])
            d.update(type=step.fact.type, actor=step.fact.actor, data=dict(step.fact.data), corrected_by=step.corrected_by,
                     notes=list(step.notes))
            facts.append(d)
    return jsonify({"game": str(game.id), "view": q["view"], "position": game.position, "facts": facts})


@api.get("/games/<game_id>/state")
def get_state(game_id: str):
    q = VIEW_QUERY.load(request.args)
    gid = _game_id(game_id)
    corrected = q["view"] == "corrected"
    if q["step"] is not None:
        # a step of a replay nobody has in memory: the nearest snapshot row and the facts after it, read as
        # rows in one query, without loading the game (decision 0041); None: load it as below
        cold = archive().replays.cold_step(archive().games, gid, q["step"], corrected=corrected)
        if cold is not None:
            step, index, steps, header = cold
            return jsonify({"game": str(header.id), "view": q["view"],
                            **step_dict(get_ruleset(header.ruleset_name), step, index, steps)})
    game = archive().games.get_game(gid)
    # one step: from the replay in memory, else folded from the nearest snapshot (decision 0031)
    step, index, steps = archive().replays.step(game, game.position if q["step"] is None else q["step"],
                                                corrected=corrected)
    return jsonify({"game": str(game.id), "view": q["view"], **step_dict(game.ruleset, step, index, steps)})


@api.get("/games/<game_id>/export")
def export_game(game_id: str):
    game = archive().games.get_game(_game_id(game_id))
    return Response(write_game(game), mimetype="application/x-ndjson")


@api.get("/players")
def players():
    from web.auth import hidden_games

    return jsonify({"players": queries.player_table(archive().db, request.args.get("player"), exclude=hidden_games())})


def board_corridors(board: str) -> dict[str, Any]:
    """What recorded moves say about ``board``'s corridors (decision 0005): proposals, conflicts, a fragment."""
    from werkzeug.exceptions import NotFound

    from service.rules.registry import BOARDS, board_ruleset

    ruleset = board_ruleset(board)
    if ruleset is None:
        raise NotFound(f"unknown board {board!r}; known boards: {', '.join(BOARDS)}")
    from web.auth import hidden_games

    about = ruleset.board_about(board)
    found = queries.corridor_proposals(archive().db, board, exclude=hidden_games())
    ranked = sorted(found["proposals"], key=lambda p: (-p["moves"], -p["games"]))
    return {
        "board": board,
        "name": about["name"],
        "synthetic": about["synthetic"],
        "corridors_declared": about["corridors_declared"],
        "proposals": found["proposals"],
        "conflicts": found["conflicts"],
        "fragment": ruleset.corridor_fragment(board, ranked),
    }


@api.get("/boards/<board>/corridors")
def get_board_corridors(board: str):
    return jsonify(board_corridors(board))


@api.get("/openapi.json")
def openapi():
    from web.openapi import spec

    return jsonify(spec())


__all__ = ["api", "ValidationError"]
