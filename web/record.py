"""The table recorder: start a game from a form (or a notation file) and record it by tapping what may come next.

Pages are server-rendered; ``record.js`` only posts facts to the JSON API (with a command id and the
expected position) and swaps in the ``/record/panel`` fragment afterwards, so the rules stay on the server.
"""
from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from marshmallow import ValidationError

from projections import queries
from service import i18n
from service.i18n import N_, _
from service.errors import ArchiveError, InvalidInput
from service.notation import NotationError, import_parsed, parse
from service.rules.registry import RULESETS
from service.schemas import GameHeaderSchema, flatten_errors
from web.api import _game_id
from web.replays import replay_of

record = Blueprint("record", __name__)

MAX_SEATS = 5
MODES = ("standard", "solo", "coop")
# header options the form offers (first value = the ruleset's default); see service/rules/lockdown/state.py
OPTION_CHOICES = {
    "board": (("basic", N_("Basic side")), ("mars", N_("Mars side"))),
    "characters": (("lockdown", N_("Lockdown characters")), ("nemesis", N_("+ original Nemesis characters"))),
    "intruders": (("night_stalkers", N_("Night stalkers")), ("nemesis", N_("Nemesis intruders"))),
}
RECENT = 8  # facts shown above the inputs
LONG_LIST = 12  # more legal values than this: the list gets a search box
PRESELECT_UP_TO = 4  # short lists start with their first value chosen; long ones make the recorder pick
CORRECTIONS = ("FactVoided", "FactReplaced")
# field kinds whose value is a list: listed legal values are then picked several at a time
LIST_KINDS = {"markers", "corridor_list", "seats", "names", "objectives", "draw_kinds", "tiles_list"}
INT_KINDS = {"count", "count0", "count1", "amount", "seat", "slot", "computer_option"}


def _archive():
    return current_app.config["ARCHIVE"]


# -- new game ------------------------------------------------------------------------------


def _form_defaults() -> dict[str, Any]:
    return {"ruleset": next(iter(RULESETS)), "mode": "standard", "strict": "strict", "played_on": date.today().isoformat(),
            "board": "basic", "characters": "lockdown", "intruders": "night_stalkers", "league": "", "tags": "", "title": "",
            "players": [{"name": "", "seat": str(i + 1)} for i in range(MAX_SEATS)]}


def _read_form(form) -> tuple[dict[str, Any], dict[str, Any], dict[int, int]]:
    """The submitted form (to show it again) and the header it asks for; ``rows`` maps a player's index to its row."""
    values = _form_defaults()
    for key in ("ruleset", "mode", "strict", "played_on", "board", "characters", "intruders", "league", "tags", "title"):
        values[key] = form.get(key, values[key] if key not in ("strict",) else "strict").strip()
    values["players"] = [{"name": form.get(f"player-{i}", "").strip(), "seat": form.get(f"seat-{i}", str(i + 1)).strip()}
                         for i in range(MAX_SEATS)]
    players, rows = [], {}
    for i, p in enumerate(values["players"]):
        if p["name"]:
            rows[len(players)] = i
            players.append({"seat": int(p["seat"]) if p["seat"].isdigit() else p["seat"], "name": p["name"]})
    options = {k: values[k] for k in OPTION_CHOICES if values[k] != OPTION_CHOICES[k][0][0]}
    header = {
        "ruleset": values["ruleset"], "mode": values["mode"], "strict": values["strict"] != "lenient",
        "players": players, "options": options, "league": values["league"] or None,
        "tags": [t.strip() for t in values["tags"].split(",") if t.strip()],
        "played_on": values["played_on"] or None, "title": values["title"] or None,
    }
    return values, header, rows


def _field_errors(messages: dict, rows: dict[int, int], options: dict) -> dict[str, str]:
    """marshmallow's messages keyed by the form's own field names (``player-2``, ``seat-0``, ``board``...)."""
    out: dict[str, str] = {}
    for key, texts in flatten_errors(messages).items():
        parts = key.split(".")
        if parts[0] == "players" and len(parts) == 3 and parts[1].isdigit():
            row = rows.get(int(parts[1]), int(parts[1]))
            name = f"player-{row}" if parts[2] == "name" else f"seat-{row}"
        elif parts[0] == "options":
            name = next((k for k in options if k in texts[0]), "options")
        elif parts[0] == "played_on":
            name = "played_on"
        else:
            name = parts[0]
        out.setdefault(name, texts[0])
    return out


def _new_game_page(values, errors, status=200, import_error=None):
    players = [p["player"] for p in queries.player_table(_archive().db)]
    return render_template("new_game.html", values=values, errors=errors, known_players=players, rulesets=RULESETS,
                           modes=MODES, option_choices=OPTION_CHOICES, max_seats=MAX_SEATS,
                           import_error=import_error), status


@record.get("/games/new")
def new_game():
    return _new_game_page(_form_defaults(), {})


@record.post("/games/new")
def create_game():
    values, header, rows = _read_form(request.form)
    try:
        loaded = GameHeaderSchema().load(header)
    except ValidationError as e:
        return _new_game_page(values, _field_errors(e.messages, rows, header["options"]), 400)
    try:
        game = _archive().games.create_game(loaded)
    except InvalidInput as e:  # the aggregate's text hygiene (NUL, lone surrogates, lengths): shown at the field
        return _new_game_page(values, {_form_field(e.details.get("field"), rows): e.message}, 400)
    return redirect(url_for("record.recorder", game_id=game.id), 303)


def _form_field(path: str | None, rows: dict[int, int]) -> str:
    """The form field of a header path such as ``players[1].name`` or ``tags[0]``."""
    m = re.fullmatch(r"players\[(\d+)\]\.(name|seat)", path or "")
    if m:
        row = rows.get(int(m.group(1)), int(m.group(1)))
        return f"{'player' if m.group(2) == 'name' else 'seat'}-{row}"
    return re.split(r"[.\[]", path or "form", maxsplit=1)[0]


@record.post("/games/import")
def import_game():
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _new_game_page(_form_defaults(), {}, 400, import_error=_("choose a notation file (.jsonl) to import"))
    name = upload.filename
    raw = upload.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return _new_game_page(_form_defaults(), {}, 400, import_error=_("%(file)s:1: not UTF-8 text (%(reason)s)") % {"file": name, "reason": e.reason})
    try:
        game, _created = import_parsed(_archive().games, parse(text, name))
    except NotationError as e:  # refused whole, naming the line (as `nemesis-archive import` does)
        return _new_game_page(_form_defaults(), {}, 400, import_error=e.message)
    return redirect(url_for("record.recorder", game_id=game.id), 303)


# -- recording -----------------------------------------------------------------------------


def _fact_kinds(ruleset_name: str) -> dict[str, dict[str, Any]]:
    """Field kinds and required flags per fact type, from the ruleset's fact vocabulary (if it has one)."""
    import importlib

    try:
        facts = importlib.import_module(f"service.rules.{ruleset_name}.facts").FACTS
    except (ImportError, AttributeError):
        return {}
    return {t: {f.name: f for f in spec.fields} for t, spec in facts.items()}


# field kinds whose values are ids of a component catalogue: buttons show the printed name
CATALOGUES = {"character": "CHARACTERS", "tile": "ROOMS", "event_card": "EVENT_CARDS", "attack_card": "ATTACK_CARDS"}


class Labels:
    """Display names for values: catalogue names, rooms as the state knows them, seats as players.

    Names are in the page's language (decision 0019); :meth:`aliases` gives every language's name
    so the recorder's search finds a value by either.
    """

    def __init__(self, ruleset_name: str, state: Any, names: dict[int, str]) -> None:
        import importlib

        try:
            self.components = importlib.import_module(f"service.rules.{ruleset_name}.components")
        except ImportError:
            self.components = None
        self.ruleset = RULESETS.get(ruleset_name)
        self.state, self.names = state, names

    def _room_name(self, tile: Any) -> str:
        return self.ruleset.display_name("room", tile.id, i18n.current()) or tile.en

    def aliases(self, kind: str | None, value: Any) -> str:
        """Every name ``value`` goes by, for the search box (``data-aliases``)."""
        if self.ruleset is None or not isinstance(value, str):
            return ""
        found = list(self.ruleset.names(kind or "", value))
        if kind == "room" and hasattr(self.state, "rooms") and value in self.state.rooms:
            tile = getattr(self.state.rooms[value], "tile", None)
            found += list(self.ruleset.names("room", tile)) if tile else []
        return " · ".join(dict.fromkeys(found))

    def __call__(self, kind: str | None, value: Any) -> str:
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            if kind in CATALOGUES and self.components is not None:
                found = getattr(self.components, CATALOGUES[kind]).resolve(value)
                if found is not None:
                    shown = self.ruleset.display_name(kind, found.id, i18n.current()) if self.ruleset else None
                    return shown or found.en
            if self.ruleset is not None and isinstance(value, str) and i18n.current() != i18n.DEFAULT:
                named = self.ruleset.display_name(kind or "", value, i18n.current())
                if named:  # table words (noise results, colony tokens, stalker kinds) as the Polish edition prints them
                    return named
            if kind == "room" and hasattr(self.state, "room_label"):
                shown = self.state.room_label(value, name=self._room_name) if self.ruleset else self.state.room_label(value)
                return shown if shown == value else f"{shown} · {value}"
            if kind == "seat" and value in self.names:
                return f"{self.names[value]} ({value})"
        return _label(value)


def _label(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(str(v) for v in value.values())
    if isinstance(value, list):
        return ", ".join(_label(v) for v in value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def _field(name: str, legal: Any, spec: Any, label=None) -> dict[str, Any]:
    kind = getattr(spec, "kind", "text")
    required = getattr(spec, "required", True)
    doc = getattr(spec, "doc", "")
    if legal is None:
        if kind == "bool":
            legal = [True, False]
        else:
            parse = ("int" if kind in INT_KINDS else "list" if kind in LIST_KINDS or kind.endswith("_list")
                     else "json" if kind in ("tiles",) else "scalar")
            return {"name": name, "input": "free", "parse": parse, "required": required, "doc": doc, "kind": kind}
    show = (lambda v: label(kind, v)) if label else _label
    alias = (lambda v: label.aliases(kind, v)) if hasattr(label, "aliases") else (lambda v: "")
    values = [{"json": json.dumps(v, ensure_ascii=False), "label": show(v), "aliases": alias(v)} for v in legal]
    multi = (kind in LIST_KINDS or kind.endswith("_list")) and not any(isinstance(v, list) for v in legal)
    if len(values) == 1 and not multi:
        return {"name": name, "input": "fixed", "value": values[0], "required": required, "doc": doc}
    preselect = 0 if (not multi and len(values) <= PRESELECT_UP_TO) else None
    return {"name": name, "input": "multi" if multi else "choice", "choices": values, "required": required,
            "searchable": len(values) > LONG_LIST, "preselect": preselect, "doc": doc}


def _offers(ruleset_name: str, expected, label=None) -> list[dict[str, Any]]:
    kinds = _fact_kinds(ruleset_name)
    out = []
    for i, e in enumerate(expected):
        specs = kinds.get(e.type, {})
        fields = [_field(name, legal, specs.get(name), label) for name, legal in e.options.items()]
        # one button is the whole fact when nothing is left to choose or type
        direct = all(f["input"] == "fixed" or (f["input"] == "free" and not f["required"]) for f in fields)
        out.append({"index": i, "type": e.type, "actor": e.actor, "note": e.note, "fields": fields, "direct": direct,
                    "effect": e.note.startswith("table effect") or e.type == "GameEnded"})
    return out


def _fact_line(fact, names: dict[int, str]) -> str:
    who = f"{names.get(fact.actor, f'seat {fact.actor}')}: " if fact.actor is not None else ""
    data = " · ".join(f"{k} {_label(v)}" for k, v in fact.data.items() if v not in (None, [], {}))
    return f"{who}{fact.type}" + (f" — {data}" if data else "")


def _undo_target(recorded) -> int | None:
    """The latest fact still standing (not a correction, not voided): what Undo voids."""
    voided: set[int] = set()
    for r in recorded:
        f = r.fact
        if f.type == "FactVoided":
            voided.update(s for s in f.data.get("seqs", []) if isinstance(s, int))
        elif f.type == "FactReplaced":
            voided.discard(f.data.get("seq"))
    for r in reversed(recorded):
        if r.fact.type not in CORRECTIONS and r.fact.seq not in voided:
            return r.fact.seq
    return None


def _panel_context(game_id: str) -> dict[str, Any]:
    game, rp = replay_of(_archive().games, _game_id(game_id), corrected=True)
    ruleset = rp.ruleset
    state = rp.head.state
    names = {p["seat"]: p["name"] for p in game.players}
    voided: set[int] = set()
    for r in game.recorded:
        if r.fact.type == "FactVoided":
            voided.update(r.fact.data.get("seqs", []))
        elif r.fact.type == "FactReplaced":
            voided.discard(r.fact.data.get("seq"))
    recent = [{"seq": r.fact.seq, "line": _fact_line(r.fact, names), "voided": r.fact.seq in voided,
               "flagged": bool(r.flags), "correction": r.fact.type in CORRECTIONS}
              for r in game.recorded[-RECENT:]][::-1]
    undo = _undo_target(game.recorded)
    return {
        "game": game,
        "names": names,
        "position": ruleset.position(state),
        "recent": recent,
        "offers": _offers(game.ruleset_name, ruleset.next_inputs(state), Labels(game.ruleset_name, state, names)),
        "undo_seq": undo,
        "undo_line": next((_fact_line(r.fact, names) for r in game.recorded if r.fact.seq == undo), None),
    }


@record.get("/games/<game_id>/record")
def recorder(game_id: str):
    return render_template("record.html", **_panel_context(game_id))


@record.get("/games/<game_id>/record/panel")
def panel(game_id: str):
    return render_template("_record_panel.html", **_panel_context(game_id))


__all__ = ["record", "ArchiveError"]
