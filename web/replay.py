"""HTML pages: the games list and the replay of one game, step by step (per-step URLs)."""
from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from markupsafe import Markup
from marshmallow import ValidationError
from werkzeug.exceptions import NotFound

from projections import queries
from service.rules.lockdown.components import BOARDS
from web.api import ListQuery, _game_id
from web.api import board_corridors as corridors
from web.replays import replay_of

replay = Blueprint("replay", __name__)


def _archive():
    return current_app.config["ARCHIVE"]


@replay.get("/")
def games():
    try:
        q = ListQuery().load({k: v for k, v in request.args.items() if v})
        error = None
    except ValidationError as e:
        q, error = {}, "; ".join(f"{k}: {v[0]}" for k, v in e.messages.items())
    rows = queries.list_games(_archive().db, **q) if not error else []
    return render_template("games.html", games=rows, args=request.args, error=error)


@replay.get("/players")
def players():
    return render_template("players.html", players=queries.player_table(_archive().db))


@replay.get("/boards/<board>/corridors")
def board_corridors(board: str):
    return render_template("corridors.html", data=corridors(board), boards=BOARDS)


@replay.get("/boards/<board>/corridors/fragment.json")
def board_corridors_fragment(board: str):
    body = json.dumps(corridors(board)["fragment"], ensure_ascii=False, indent=1) + "\n"
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="board_{board}_corridors.json"'})


@replay.get("/games/<game_id>")
def game(game_id: str):
    return redirect(url_for("replay.game_step", game_id=_game_id(game_id), step=0, **_view_args()))


def _view_args() -> dict:
    return {"view": "played"} if request.args.get("view") == "played" else {}


def _context(game_id: str, step: int) -> dict:
    corrected = request.args.get("view") != "played"
    game, rp = replay_of(_archive().games, _game_id(game_id), corrected=corrected)
    current = rp.at(step)
    index = rp.steps.index(current)
    seqs = [s.seq for s in rp.steps]
    ruleset = rp.ruleset
    result = ruleset.score(current.state)
    recorded = {r.fact.seq: r for r in game.recorded}
    return {
        "game": game,
        "names": {p["seat"]: p["name"] for p in game.players},
        "replay": rp,
        "step": current,
        "index": index,
        "seqs": seqs,
        "prev_seq": seqs[index - 1] if index > 0 else None,
        "next_seq": seqs[index + 1] if index + 1 < len(seqs) else None,
        "position": ruleset.position(current.state),
        "described": ruleset.describe(current.state),
        "result": result,
        "recorded": recorded,
        "view": "played" if not corrected else "corrected",
        "view_args": _view_args(),
        "board": _boards(rp, index),
    }


def _board(rp, index: int, narrow: bool = False, learned=None) -> str | None:
    """The ruleset's drawing of step ``index``, highlighting what its fact changed (decision 0012)."""
    before = rp.steps[index - 1].state if index > 0 else None
    return rp.ruleset.draw(rp.steps[index].state, before=before, narrow=narrow, learned=learned or _learned())


def _learned():
    """Corridors learned from recorded moves, by board (read model ``corridors``), looked up once per request."""
    db, found = _archive().db, {}

    def lookup(board: str):
        if board not in found:
            found[board] = queries.corridor_proposals(db, board)["proposals"]
        return found[board]
    return lookup


def _boards(rp, index: int) -> dict[str, Markup] | None:
    """The wide and the narrow (phone) drawing; board.css shows the one that fits the screen."""
    learned = _learned()
    wide = _board(rp, index, learned=learned)
    if wide is None:
        return None
    return {"wide": Markup(wide), "narrow": Markup(_board(rp, index, narrow=True, learned=learned) or wide)}


@replay.get("/games/<game_id>/step/<int:step>")
def game_step(game_id: str, step: int):
    return render_template("replay.html", **_context(game_id, step))


@replay.get("/games/<game_id>/step/<int:step>/panel")
def game_step_panel(game_id: str, step: int):
    return render_template("_step.html", **_context(game_id, step))


@replay.get("/games/<game_id>/step/<int:step>/board.svg")
def game_step_board(game_id: str, step: int):
    """The board of one step alone, to share (``?view=played`` as on the replay page, ``?narrow=1`` for phones)."""
    corrected = request.args.get("view") != "played"
    _, rp = replay_of(_archive().games, _game_id(game_id), corrected=corrected)
    svg = _board(rp, rp.steps.index(rp.at(step)), narrow=request.args.get("narrow") in ("1", "true", "yes"))
    if svg is None:
        raise NotFound(f"the {rp.ruleset.title} ruleset draws no board")
    return Response(svg, mimetype="image/svg+xml")
