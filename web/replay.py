"""HTML pages: the games list and the replay of one game, step by step (per-step URLs)."""
from __future__ import annotations

import hashlib
import json
from urllib.parse import urlencode

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from markupsafe import Markup
from marshmallow import ValidationError
from werkzeug.exceptions import Forbidden, NotFound

from projections import queries
from service.errors import InvalidInput
from service.i18n import _
from service.rules.registry import BOARDS
from web.api import LIST_QUERY, _game_id
from web.api import board_corridors as corridors
from web.kv import kv
from web.replays import replay_of

replay = Blueprint("replay", __name__)
replay.add_app_template_filter(kv, "kv")


def _archive():
    return current_app.config["ARCHIVE"]


@replay.get("/")
def games():
    from web.auth import hidden_games

    try:
        q = LIST_QUERY.load({k: v for k, v in request.args.items() if v})
        error = None
    except ValidationError as e:
        q, error = {}, "; ".join(f"{k}: {v[0]}" for k, v in e.messages.items())
    rows = queries.list_games(_archive().db, **q, exclude=hidden_games()) if not error else []
    return render_template("games.html", games=rows, args=request.args, error=error)


@replay.get("/players")
def players():
    from web.auth import hidden_games

    return render_template("players.html", players=queries.player_table(_archive().db, exclude=hidden_games()))


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
    return redirect(url_for("replay.game_step", game_id=_game_id(game_id), step=0, **_query()))


def _query(**changes) -> dict:
    """The query that keeps the reader's view and perspective from step to step."""
    q = {}
    if request.args.get("view") == "played":
        q["view"] = "played"
    if request.args.get("as"):
        q["as"] = request.args["as"]
    q.update(changes)
    return {k: v for k, v in q.items() if v is not None}


def _perspective(game) -> tuple[str, list[tuple[str, str]], bool]:
    """The perspective asked for (default: all-seeing once finished, public while in play), the offered ones."""
    ruleset = game.ruleset
    finished = bool(ruleset.position(game.head_state).get("finished"))
    offered = ruleset.perspectives(game.setup)
    asked = request.args.get("as") or ("all" if finished else "public")
    if asked not in {k for k, _label in offered}:
        raise InvalidInput(_("no perspective %(asked)r in this game; choose one of %(choices)s")
                           % {"asked": asked, "choices": ", ".join(k for k, _label in offered)}, field="as")
    if not finished and asked != "public":
        raise Forbidden(_("This game is still being played: only the public view is shown until it has ended "
                          "(asked for %(asked)r). Open it without ?as= or with ?as=public.") % {"asked": asked})
    return asked, (offered if finished else [o for o in offered if o[0] == "public"]), finished


def _context(game_id: str, step: int) -> dict:
    """Everything a step's page and parts show: one read of the game, then lookups in its cached replay."""
    corrected = request.args.get("view") != "played"
    archive = _archive()
    gid = _game_id(game_id)
    game = archive.games.get_game(gid)
    asked = request.args.get("as")
    if corrected and not game.head_is_folded:
        # whether the game has ended picks the perspective: the replay's fold tells it (a game loaded
        # from the store has not been folded yet), so the game is folded once, not for its head and again here
        known = {k for k, _label in game.ruleset.perspectives(game.setup)}
        replay_of(archive, gid, corrected=True, as_=asked if asked in known else "all", game=game)
    as_, offered, finished = _perspective(game)
    folded = replay_of(archive, gid, corrected=corrected, as_=as_, game=game)
    game, rp, story = folded.game, folded.replay, folded.story
    current = rp.at(step)
    index = rp.index_of(current.seq)
    seqs = folded.seqs
    ruleset = rp.ruleset
    state = current.state
    result = ruleset.score(state)
    query = _query()
    qs = ("?" + urlencode(query)) if query else ""
    step_base = url_for("replay.game_step", game_id=game.id, step=0)[:-1]  # ".../step/": one url_for, not one per link
    return {
        "game": game,
        "names": {p["seat"]: p["name"] for p in game.players},
        "replay": rp,
        "folded": folded,
        "story": story,
        "entry": story.by_seq.get(current.seq),
        "step": current,
        "state": state,
        "index": index,
        "seqs": seqs,
        "prev_seq": seqs[index - 1] if index > 0 else None,
        "next_seq": seqs[index + 1] if index + 1 < len(seqs) else None,
        "position": ruleset.position(state),
        "sidebar": ruleset.sidebar(state),
        "result": result,
        "verdicts": ruleset.verdicts(result, state) if result else [],
        "ending_story": ruleset.ending_story(state),
        "view": "played" if not corrected else "corrected",
        "query": query,
        "qs": qs,
        "step_base": step_base,
        "step_url": lambda seq, part="": f"{step_base}{seq}{part}{qs}",
        "as_": as_,
        "perspectives": offered,
        "finished": finished,
    }


def _board(rp, index: int, narrow: bool = False, learned=None, styled: bool = True) -> str | None:
    """The ruleset's drawing of step ``index``, highlighting what its fact changed (decision 0012)."""
    before = rp.steps[index - 1].state if index > 0 else None
    return rp.ruleset.draw(rp.steps[index].state, before=before, narrow=narrow, learned=learned or _learned(),
                           styled=styled)


def _learned():
    """Corridors learned from recorded moves, by board (read model ``corridors``), looked up once per request."""
    from web.auth import hidden_games

    db, found = _archive().db, {}

    def lookup(board: str):
        if board not in found:
            found[board] = queries.corridor_proposals(db, board, exclude=hidden_games())["proposals"]
        return found[board]
    return lookup


FITS = ("wide", "narrow")
FIT_COOKIE = "board_fit"


def _fit() -> str | None:
    """The board layout the reader's screen wants (decision 0015): ``?fit=`` (replay.js asks for its
    panels with it), else the cookie replay.js keeps; None until replay.js has run once in this browser."""
    fit = request.args.get("fit") or request.cookies.get(FIT_COOKIE)
    return fit if fit in FITS else None


def _boards(rp, index: int, fit: str | None) -> dict[str, Markup] | None:
    """The one drawing that fits the reader's screen, or (screen not known yet) the wide and the narrow
    one, of which board.css shows the one that fits. Unstyled: the page links the drawing's stylesheet
    once (``drawing_css``) rather than parsing it again with every drawing swapped in."""
    learned = _learned()
    if fit is not None:
        drawn = _board(rp, index, narrow=fit == "narrow", learned=learned, styled=False)
        return None if drawn is None else {"fit": fit, "svg": Markup(drawn)}
    wide = _board(rp, index, learned=learned, styled=False)
    if wide is None:
        return None
    return {"wide": Markup(wide), "narrow": Markup(_board(rp, index, narrow=True, learned=learned, styled=False) or wide)}


@replay.get("/rulesets/<name>/drawing.css")
def drawing_css(name: str):
    """The stylesheet of a ruleset's board drawings, for pages that show them inline (long-cached: the
    page links it with a digest of its text)."""
    from service.rules.registry import RULESETS

    ruleset = RULESETS.get(name)
    if ruleset is None or not ruleset.drawing_styles:
        raise NotFound(f"no board drawing stylesheet for a ruleset named {name!r}")
    response = Response("\n".join(ruleset.drawing_styles), mimetype="text/css")
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


def _drawing_css_url(ruleset) -> str | None:
    if not ruleset.drawing_styles:
        return None
    digest = hashlib.sha256("\n".join(ruleset.drawing_styles).encode()).hexdigest()[:12]
    return url_for("replay.drawing_css", name=ruleset.name, v=digest)


@replay.get("/games/<game_id>/step/<int:step>")
def game_step(game_id: str, step: int):
    ctx = _context(game_id, step)
    ctx["drawing"] = _boards(ctx["replay"], ctx["index"], _fit())
    ctx["drawing_css"] = _drawing_css_url(ctx["replay"].ruleset)
    folded = ctx["folded"]
    if folded.log_html is None:  # the log and the timeline are the same at every step: render them once
        folded.marks_html = Markup(render_template("_marks.html", **ctx))
        folded.log_html = render_template("_log.html", **ctx)
    ctx["log"] = Markup(mark_current(folded.log_html, ctx["step"].seq))
    ctx["marks"] = folded.marks_html
    response = Response(render_template("replay.html", **ctx))
    response.vary.add("Cookie")  # the board drawn depends on the screen replay.js remembered
    return response


@replay.get("/games/<game_id>/step/<int:step>/panel")
def game_step_panel(game_id: str, step: int):
    ctx = _context(game_id, step)
    response = Response(render_template("_panel.html", drawing=_boards(ctx["replay"], ctx["index"], _fit()), **ctx))
    response.vary.add("Cookie")
    return response


@replay.get("/games/<game_id>/step/<int:step>/board.svg")
def game_step_board(game_id: str, step: int):
    """The board of one step alone, to share (``?view=played`` and ``?as=`` as on the replay page, ``?narrow=1`` for phones)."""
    ctx = _context(game_id, step)
    svg = _board(ctx["replay"], ctx["index"], narrow=request.args.get("narrow") in ("1", "true", "yes"))
    if svg is None:
        raise NotFound(_("the %(ruleset)s ruleset draws no board") % {"ruleset": ctx["replay"].ruleset.title})
    return Response(svg, mimetype="image/svg+xml")


@replay.get("/games/<game_id>/step/<int:step>/details")
def game_step_details(game_id: str, step: int):
    """Everything on the board at a step (the collapsible details, fetched when opened)."""
    ctx = _context(game_id, step)
    body = kv(ctx["replay"].ruleset.describe(ctx["state"]))
    if request.headers.get("X-Requested-With") == "fetch":
        return body
    return render_template("details.html", described=body, **ctx)


def mark_current(log_html: str, seq: int) -> str:
    """The cached log with the current step's line marked (one string replace, not a re-render)."""
    return log_html.replace(f'<li id="s{seq}" class="', f'<li id="s{seq}" aria-current="step" class="current ', 1)
