"""The table recorder: start a game from a form (or a notation file) and record it by tapping what may come next.

Pages are server-rendered; ``record.js`` only posts facts to the JSON API (with a command id and the
expected position) and swaps in the ``/record/panel`` fragment afterwards, so the rules stay on the server.
"""
from __future__ import annotations

import json
import re
from datetime import date
from functools import lru_cache
from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from markupsafe import Markup
from marshmallow import ValidationError

from projections import queries
from service import hygiene
from service import i18n
from service.i18n import N_, _
from service.errors import ArchiveError, InvalidInput, StalePosition
from service.notation import NotationError, import_parsed, parse
from service.rules.kit.facts import CAUSE_FIELD
from service.rules.registry import RULESETS
from service.schemas import GameHeaderSchema, flatten_errors
from web.api import _game_id
from web.replays import replay_of

record = Blueprint("record", __name__)

RECENT = 8  # facts shown above the inputs
LONG_LIST = 12  # more legal values than this: the list gets a search box
PRESELECT_UP_TO = 4  # short lists start with their first value chosen; long ones make the recorder pick
CORRECTIONS = ("FactVoided", "FactReplaced")  # Commented and FactAnnotated are remarks (decision 0017)
# field kinds whose value is a list: listed legal values are then picked several at a time
LIST_KINDS = {"markers", "corridor_list", "seats", "names", "objectives", "draw_kinds", "tiles_list"}
INT_KINDS = {"count", "count0", "count1", "amount", "seat", "slot", "computer_option"}


def _archive():
    return current_app.config["ARCHIVE"]


# -- new game ------------------------------------------------------------------------------


def _form_of(ruleset_name: str | None) -> tuple[str, dict[str, Any]]:
    """The ruleset the form is for (the first registered when the name is unknown) and what it asks
    (``Ruleset.setup_form``): seats and options come from the ruleset, not from this page."""
    name = ruleset_name if ruleset_name in RULESETS else next(iter(RULESETS))
    return name, RULESETS[name].setup_form()


def _form_defaults(ruleset_name: str | None = None) -> dict[str, Any]:
    name, form = _form_of(ruleset_name)
    ruleset = RULESETS[name]
    return {"ruleset": name, "mode": ruleset.modes[0], "strict": "strict", "played_on": date.today().isoformat(),
            **{key: option["choices"][0][0] for key, option in form["options"].items()},
            "league": "", "tags": "", "title": "", "after_the_fact": "",
            "players": [{"name": "", "seat": str(i + 1)} for i in range(form["max_players"])]}


def _read_form(form) -> tuple[dict[str, Any], dict[str, Any], dict[int, int]]:
    """The submitted form (to show it again) and the header it asks for; ``rows`` maps a player's index to its row."""
    values = _form_defaults(form.get("ruleset", "").strip())
    choices = _form_of(values["ruleset"])[1]["options"]
    for key in ("ruleset", "mode", "strict", "played_on", *choices, "league", "tags", "title"):
        values[key] = form.get(key, values[key] if key not in ("strict",) else "strict").strip()
    values["players"] = [{"name": form.get(f"player-{i}", "").strip(), "seat": form.get(f"seat-{i}", str(i + 1)).strip()}
                         for i in range(len(values["players"]))]
    players, rows = [], {}
    for i, p in enumerate(values["players"]):
        if p["name"]:
            rows[len(players)] = i
            players.append({"seat": int(p["seat"]) if p["seat"].isdigit() else p["seat"], "name": p["name"]})
    options = {k: values[k] for k, option in choices.items() if values[k] != option["choices"][0][0]}
    # a game known from memory or a report: lenient, so unknown values and gaps can be recorded (decision 0018)
    values["after_the_fact"] = "yes" if form.get("after_the_fact") == "yes" else ""
    if values["after_the_fact"]:
        options["after_the_fact"] = True
        values["strict"] = "lenient"
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
    from web.auth import hidden_games

    players = [p["player"] for p in queries.player_table(_archive().db, exclude=hidden_games())]
    form = _form_of(values["ruleset"])[1]
    return render_template("new_game.html", values=values, errors=errors, known_players=players, rulesets=RULESETS,
                           modes=RULESETS[values["ruleset"]].modes, option_choices=form["options"],
                           max_seats=form["max_players"],
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


@lru_cache(maxsize=None)
def _fact_kinds(ruleset_name: str) -> dict[str, dict[str, Any]]:
    """Field kinds and required flags per fact type, from the ruleset's fact vocabulary (if it has one)."""
    import importlib

    try:
        facts = importlib.import_module(f"service.rules.{ruleset_name}.facts").FACTS
    except (ImportError, AttributeError):
        return {}
    # ``by`` is optional on every fact type (decision 0039)
    return {t: {CAUSE_FIELD.name: CAUSE_FIELD, **{f.name: f for f in spec.fields}} for t, spec in facts.items()}


# field kinds whose values are ids of a component catalogue: buttons show the printed name
NAMED_KINDS = {"objective", "objectives"}  # values named by the ruleset even in English (type ids with values)
CATALOGUES = {"character": "CHARACTERS", "tile": "ROOMS", "event_card": "EVENT_CARDS", "attack_card": "ATTACK_CARDS",
              "action_card": "ACTION_CARDS"}
# field kinds whose listed values a catalogue names under another kind: items by their printed names
# (RoomSearched.kept, ItemUsed.item …), item colours by their deck ("Przedmioty czerwone (militarne)")
TEXT_KINDS = {"text": "item", "colour": "item_deck"}
# free fields whose catalogue is offered as a list to pick from (decision 0023): the field stays free text, because
# the sources name only some of the cards
SUGGESTED = {"action_card": "ACTION_CARDS"}
# the kinds of named cause a fact's ``by`` picks from (decision 0045), as the picker names them
CAUSE_TITLES = {"event": N_("event card"), "attack": N_("attack card"), "room": N_("room"), "item": N_("item")}
# free fields naming a card of the deck another field of the same fact names: Search's card put back (decision 0037)
DECK_FIELDS = {("RoomSearched", "returned"): "colour"}


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
        self._causes: dict[str, Any] | None = None

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

    def _local(self, kind: str, key: str) -> str | None:
        return self.ruleset.display_name(kind, key, i18n.current()) if self.ruleset is not None else None

    def field(self, name: str) -> str:
        """A fact field as the recorder names it (``to room``, ``do pomieszczenia``)."""
        return self._local("field", name) or name.replace("_", " ")

    def field_doc(self, name: str, doc: str) -> str:
        """A field's hint: the fact vocabulary's English doc, or the ruleset's Polish hint in Polish (none: no hint)."""
        if i18n.current() == i18n.DEFAULT:
            return doc
        return self._local("field_doc", name) or ""

    def note(self, type_: str, note: str) -> str:
        """An offer's note: the rules' own English note (with its names and numbers), or the Polish note per fact type."""
        if i18n.current() == i18n.DEFAULT or not note:
            return note
        return self._local("fact_note", type_) or ""

    def procedure(self, step: str, label: str) -> str:
        """A step of the event phase's procedure: the rules' English label, or the ruleset's Polish one."""
        if i18n.current() == i18n.DEFAULT:
            return label
        return self._local("procedure_step", step) or label

    def suggestions(self, kind: str, actor: Any = None) -> list[dict[str, str]]:
        """Listed values for a field the rules leave free (``action_card``: the cards the sources name), the acting
        character's own first; each value is the name the notation records (the English name)."""
        catalogue = getattr(self.components, SUGGESTED.get(kind, ""), None) if self.components is not None else None
        if catalogue is None:
            return []
        character = None
        if actor is not None and hasattr(self.state, "characters") and actor in self.state.characters:
            character = getattr(self.state.characters[actor], "character", None)
        cards = sorted(catalogue, key=lambda c: 0 if character in c.owners else 1 if not c.owners else 2)
        return [{"json": json.dumps(c.en, ensure_ascii=False), "label": self(kind, c.en), "aliases": self.aliases(kind, c.en)}
                for c in cards]

    def causes(self) -> dict[str, Any] | None:
        """The picker of a fact's named cause (``by``, decision 0045): its kinds (event card, attack card, room,
        item) from the ruleset's catalogues, each with its known names as pick buttons whose value is the string
        ``by`` stores (``"event:Coolant Leak"``); ``kind``: the kind shown first."""
        if self.ruleset is None or not self.ruleset.causes():
            return None
        if self._causes is not None:  # one list per page, however many forms ask (a fix draws all)
            return self._causes
        kinds, picks = [], []
        for prefix, kind, names in self.ruleset.causes():
            kind = "tile" if kind == "room" else kind  # a room's card by its printed name, not as a space of the board
            kinds.append({"prefix": prefix, "title": _(CAUSE_TITLES.get(prefix, prefix))})
            picks += sorted(({"json": json.dumps(f"{prefix}:{n}", ensure_ascii=False), "label": self(kind, n),
                              "aliases": self.aliases(kind, n), "kind": prefix} for n in names),
                            key=lambda p: p["label"].casefold())  # by name as shown: a long list is scanned
        self._causes = {"kinds": kinds, "kind": kinds[0]["prefix"], "picks": picks}
        return self._causes

    def deck_picks(self, decks: list[Any]) -> list[dict[str, str]]:
        """The cards known in the decks named (a Search's colour): the card put back is picked among them."""
        if self.ruleset is None:
            return []
        names = dict.fromkeys(n for d in decks if isinstance(d, str) for n in self.ruleset.deck_cards(d))
        return [{"json": json.dumps(n, ensure_ascii=False), "label": self("item", n), "aliases": self.aliases("item", n)}
                for n in names]

    def fact(self, type_: str) -> str:
        """A fact type as the recorder's buttons name it (``Move``, ``Ruch``); the id where the ruleset has none."""
        named = self.ruleset.display_name("fact", type_, i18n.current()) if self.ruleset is not None else None
        return named or type_

    def __call__(self, kind: str | None, value: Any) -> str:
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            if kind in CATALOGUES and self.components is not None:
                found = getattr(self.components, CATALOGUES[kind]).resolve(value)
                if found is not None:
                    shown = self.ruleset.display_name(kind, found.id, i18n.current()) if self.ruleset else None
                    return shown or found.en
            if self.ruleset is not None and isinstance(value, str) and kind in NAMED_KINDS:
                named = self.ruleset.display_name(kind, value, i18n.current())
                if named:  # an objective card by its printed name, in any language
                    return named
            if self.ruleset is not None and isinstance(value, str) and i18n.current() != i18n.DEFAULT:
                named = self.ruleset.display_name(TEXT_KINDS.get(kind or "", kind or ""), value, i18n.current())
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


# "unknown" as a lenient game's Unknown button (decision 0018); a legal value spelled "unknown" (a contingency token
# dealt face down) is a value like any other: only this one is marked, so a multi-pick still sends a list
UNKNOWN_VALUE = {"json": json.dumps("unknown"), "label": N_("Unknown"), "unknown": True}


# what the table drew, rolled or turned over: never preselected from habit (a hurried tap would record it wrong)
RANDOM_KINDS = {"attack_card", "blood", "colony_token", "computer_card", "css_token", "die_face", "event_card",
                "exploration_token", "noise_result", "tile", "draw_kinds", "character", "objective", "objectives",
                "plan", "ending", "cause",
                "pod"}  # which pod an escape took: known only from the table ("if known", decision 0018), never invented
NO_DEFAULT = object()
# a player's choice, but not a habit: a move's room recorded before is not where the next move goes (on the basic
# side every room is listed, and a habit-preselected room turned a move's one tap into ✎, room, Record)
NO_HABIT_KINDS = {"room"}
COUNT_KINDS = {"count0", "count1"}  # surcharges, extra cards, wounds: the smallest is the usual
PRESELECT_FIRST = {("Passed", "discarded")}  # a pass discards nothing unless the player says so


class Habits:
    """What this game recorded before, per fact type and field (the same actor's values first): ranks the
    values a recorder is likely to pick again (decision 0016). Built from the facts the page already read."""

    def __init__(self, recorded) -> None:
        from collections import Counter

        self.by_actor: dict[tuple, Counter] = {}
        self.any: dict[tuple, Counter] = {}
        for r in recorded:
            f = r.fact
            if f.type in CORRECTIONS:
                continue
            for k, v in f.data.items():
                key = json.dumps(v, ensure_ascii=False, sort_keys=True)
                self.any.setdefault((f.type, k), Counter())[key] += 1
                self.by_actor.setdefault((f.type, f.actor, k), Counter())[key] += 1

    def ranked(self, type_: str, actor: int | None, name: str) -> list[str]:
        """JSON values of this field, most often recorded first (this actor's, then anyone's)."""
        own = self.by_actor.get((type_, actor, name))
        anyone = self.any.get((type_, name))
        out = [v for v, _ in own.most_common()] if own else []
        return out + [v for v, _ in anyone.most_common() if v not in out] if anyone else out


PLACE_KINDS = {"room"}  # field kinds whose value is a place on the board picture: tapping a room there picks it


def _field(name: str, legal: Any, spec: Any, label=None, default: Any = NO_DEFAULT, ranked: list[str] | None = None,
           type_: str = "", unknowns: frozenset[str] = frozenset(), actor: Any = None,
           light: bool = False) -> dict[str, Any]:
    """A field of an offer's form. ``light``: only what the offer's button needs (its input, the values' JSON and
    what is chosen), no names, hints or suggestions — for an offer whose form is fetched when it is opened."""
    field = _field_of(name, legal, spec, label, default, ranked, type_, unknowns, light)
    field["kind"] = getattr(spec, "kind", "text")
    field["place"] = field["kind"] in PLACE_KINDS
    if light:
        return field
    # named in the page's language (decision 0023): the ruleset's field names and hints, not the notation's ids
    field["label"] = label.field(name) if hasattr(label, "field") else name.replace("_", " ")
    if hasattr(label, "field_doc"):
        field["doc"] = label.field_doc(name, field.get("doc") or "")
    if field["input"] == "free" and field["kind"] == CAUSE_FIELD.kind and hasattr(label, "causes"):
        causes = label.causes()  # the kind first, then the card: typing filters that kind's names (decision 0045)
        if causes:
            field["causes"], field["picks"], field["searchable"] = causes, causes["picks"], True
            field["doc"] = _("the card or room that caused this fact: choose its kind, then type to find it; anything "
                             "else (an action card, a token): “other”, typed")
            field["seen"] = []  # a cause named before in this game is in the picker already
    elif field["input"] == "free" and hasattr(label, "suggestions"):
        picks = label.suggestions(field["kind"], actor)
        if picks:  # a list of the real cards to pick from; typing a name the list lacks still works
            field["picks"] = picks
            field["searchable"] = len(picks) > LONG_LIST
    return field


def _deck_picks(field: dict[str, Any], type_: str, options: dict[str, Any], label) -> dict[str, Any]:
    """A free field naming a card of the deck the offer's other field names (Search's card put back): the cards
    the catalogue knows in that deck to pick from; typing one the list lacks still works (the decks' contents are
    only partly known)."""
    deck_field = DECK_FIELDS.get((type_, field["name"]))
    decks = options.get(deck_field) if deck_field else None
    if field["input"] != "free" or field.get("picks") or not isinstance(decks, list) or not hasattr(label, "deck_picks"):
        return field
    picks = label.deck_picks(decks)
    if picks:
        field = {**field, "picks": picks, "searchable": len(picks) > LONG_LIST, "seen": []}
    return field


def _field_of(name: str, legal: Any, spec: Any, label, default: Any, ranked: list[str] | None, type_: str,
              unknowns: frozenset[str], light: bool = False) -> dict[str, Any]:
    kind = getattr(spec, "kind", "text")
    required = getattr(spec, "required", True)
    doc = getattr(spec, "doc", "")
    habitual = kind not in RANDOM_KINDS
    if kind in NO_HABIT_KINDS:
        ranked = None  # where a figure goes changes every time: the room chosen before is no likelier
    # lenient games: a table value nobody saw is recorded as unknown, never invented (decision 0018)
    unknown = UNKNOWN_VALUE if kind in unknowns else None
    if legal is None:
        if kind == "bool":
            legal = [True, False]
        else:
            parse = ("int" if kind in INT_KINDS else "list" if kind in LIST_KINDS or kind.endswith("_list")
                     else "json" if kind in ("tiles",) else "scalar")
            seen = [json.loads(v) for v in (ranked or [])][:6] if habitual and parse in ("scalar", "int") and not light else []
            return {"name": name, "input": "free", "parse": parse, "required": required, "doc": doc, "kind": kind,
                    "unknown": unknown,
                    "seen": [{"json": json.dumps(v, ensure_ascii=False), "label": label(kind, v) if label else _label(v)}
                             for v in seen]}
    if light:  # the button's shape only: the form (with every value's name) is drawn when it is opened
        values = [{"raw": v} for v in legal]
    else:
        show = (lambda v: label(kind, v)) if label else _label
        alias = (lambda v: label.aliases(kind, v)) if hasattr(label, "aliases") else (lambda v: "")
        values = [{"json": json.dumps(v, ensure_ascii=False), "label": show(v), "aliases": alias(v)} for v in legal]
    ruleset = getattr(label, "ruleset", None)
    if ruleset is not None and not light:  # what a chosen value decides by itself (an event card's printed corridors)
        for v, raw in zip(values, legal):
            implied = ruleset.implied(kind, raw)
            if implied:
                v["also"] = json.dumps(implied, ensure_ascii=False)
    multi = (kind in LIST_KINDS or kind.endswith("_list")) and not any(isinstance(v, list) for v in legal)
    if len(values) == 1 and not multi:
        return {"name": name, "input": "fixed", "value": values[0], "required": required, "doc": doc}
    ruled = default is not NO_DEFAULT
    # the values compared by their canonical JSON (only when a default or a habit is to be found among them)
    keys = [json.dumps(v, ensure_ascii=False, sort_keys=True) for v in legal] if ruled or (ranked and not multi) else []
    chosen: list[int] = []
    if ruled:  # the rules' own default (e.g. the markers the clean-up removes)
        wanted = {json.dumps(v, ensure_ascii=False, sort_keys=True) for v in (default if multi else [default])}
        chosen = [i for i, k in enumerate(keys) if k in wanted]
    elif not multi and habitual:
        # the value this game chose most often here, else (short lists) the first: the rules list it first
        top = next((keys.index(v) for v in (ranked or []) if v in keys), None)
        if top is not None:
            chosen = [top]
        elif len(values) <= PRESELECT_UP_TO or kind in COUNT_KINDS or (type_, name) in PRESELECT_FIRST:
            chosen = [0]  # short lists and counts (discard 0 cards, 0 extra): the first value the rules list
    preselect = chosen[0] if chosen and not multi else None
    if unknown is not None and (multi or len(values) > 1):  # one legal value: the rules know it, nothing to ask
        values = values + [unknown]  # last, never preselected (in a multi-pick: alone, it replaces the list)
    return {"name": name, "input": "multi" if multi else "choice", "choices": values, "required": required,
            "searchable": len(values) > LONG_LIST, "preselect": preselect, "chosen": chosen if multi else
            ([preselect] if preselect is not None else []), "ruled": ruled, "doc": doc}


def _offers(ruleset_name: str, expected, label=None, habits: Habits | None = None,
            lenient: bool = False, coarse=(), lazy: bool = False, opened: int | None = None) -> list[dict[str, Any]]:
    """The offers as buttons and forms. ``lazy``: the table effects' forms (most of a panel: ~90 offers at every
    step of a 4-player game) are not drawn with the panel but fetched when one is opened (``/record/form/<i>``,
    decision 0034); ``opened``: the one offer whose form is wanted in full."""
    kinds = _fact_kinds(ruleset_name)
    ruleset = RULESETS.get(ruleset_name)
    unknowns = ruleset.unknown_kinds() if lenient and ruleset is not None else frozenset()
    out = []
    for i, e in enumerate(list(expected) + list(coarse)):
        specs = kinds.get(e.type, {})
        defaults = getattr(e, "default", {}) or {}
        is_coarse = i >= len(expected)
        effect = not is_coarse and (e.note.startswith("table effect") or e.type == "GameEnded")
        light = lazy and effect and i != opened
        fields = [_tiles_field(name, specs.get(name), label) if _is_tile_map(name, legal, specs.get(name), label) else
                  _field(name, legal, specs.get(name), label, defaults.get(name, NO_DEFAULT),
                         habits.ranked(e.type, e.actor, name) if habits else None, e.type, unknowns, e.actor, light)
                  for name, legal in e.options.items()]
        if not light:
            fields = [_deck_picks(f, e.type, e.options, label) for f in fields]
        # one button is the whole fact when nothing is left to choose or type
        direct = all(f["input"] == "fixed" or (f["input"] in ("free", "tiles") and not f["required"]) for f in fields)
        # ...or when every choice left has a value already chosen (the button records those; ✎ changes them)
        chosen = all(f["input"] == "fixed" or (f["input"] in ("free", "tiles") and not f["required"])
                     or (f["input"] in ("choice", "multi") and (f["chosen"] or f["ruled"])) for f in fields)
        # derived: the rules decide every field (one legal value or the rules' default): recorded without asking
        # (an optional free field, such as the board's tile map, means the table may have more to say: asked)
        derived = all(f["input"] == "fixed" or f.get("ruled") for f in fields)
        # one tap on a value records the fact: no list to tick several of, no typing required
        quick = all(f["input"] in ("fixed", "choice") or (f["input"] in ("free", "tiles") and not f["required"])
                    for f in fields)
        # the places this offer names (a fixed room, or its room choices): a tap on the board finds it
        places = [] if light else [v["json"] for f in fields if f.get("place")
                                   for v in ([f["value"]] if f["input"] == "fixed" else f.get("choices", []))]
        fact = json.dumps({"type": e.type, "actor": e.actor, "data": data}, ensure_ascii=False) \
            if (direct or chosen) and (data := _preset(fields)) is not None else None
        out.append({"index": i, "type": e.type, "fact": fact, "label": label.fact(e.type) if hasattr(label, "fact") else e.type,
                    "actor": e.actor, "note": label.note(e.type, e.note) if hasattr(label, "note") else e.note,
                    "fields": fields, "direct": direct or chosen,
                    "edit": chosen and not direct, "derived": derived, "quick": quick,
                    "effect": effect, "lazy": light,
                    "coarse": is_coarse, "title": COARSE_TITLES.get(e.type) if is_coarse else None,
                    "places": "[" + ",".join(places) + "]"})
    return out


def _caption(offer: dict[str, Any], names: dict[int, str]) -> None:
    """An offer button's two lines (``shown``: what it records; ``line``: who, and the rules' note), written here
    once rather than by the template for each of a panel's ~90 buttons."""
    offer["shown"] = _(offer["title"]) if offer.get("title") else (offer.get("label") or offer["type"])
    actor, note = offer["actor"], offer.get("note") or ""
    who = ""
    if actor is not None and names.get(actor, "?") not in note:
        who = names.get(actor) or _("seat %(n)s") % {"n": actor}
    if len(note) > 90:  # as Jinja's truncate(90): whole words, "..."
        note = note[:87].rsplit(" ", 1)[0] + "..."
    offer["line"] = f"{who} · {note}" if who else note


def _preset(fields: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The data a direct offer's button records: the fixed values and the ones chosen for the recorder (what
    record.js would collect from its untouched form); None when a list has nothing chosen."""
    def value(v: dict[str, Any]) -> Any:
        return v["raw"] if "raw" in v else json.loads(v["json"])  # a light field keeps the rules' own value

    data: dict[str, Any] = {}
    for f in fields:
        if f["input"] == "fixed":
            data[f["name"]] = value(f["value"])
        elif f["input"] == "choice":
            if not f["chosen"]:
                return None
            data[f["name"]] = value(f["choices"][f["chosen"][0]])
        elif f["input"] == "multi":
            data[f["name"]] = [value(f["choices"][i]) for i in f["chosen"]]
    return data


COARSE_TITLES = {"RecordGap": N_("Skip ahead: rounds not recorded"), "CharacterEscaped": N_("Escaped"),
                 "GameEnded": N_("End: record incomplete")}


def _is_tile_map(name: str, legal: Any, spec: Any, label) -> bool:
    return (legal is None and getattr(spec, "kind", "") == "tiles" and label is not None
            and hasattr(getattr(label, "state", None), "rooms") and label.components is not None)


def _tiles_field(name: str, spec: Any, label) -> dict[str, Any]:
    """The setup's room tiles as one picker per random room space (the tiles its kind allows), not typed JSON."""
    rooms = label.components.ROOMS
    slots = []
    for place, slot in label.state.rooms.items():
        if slot.tile is not None or slot.kind not in ("I", "II", "any"):
            continue
        kinds = ("I", "II") if slot.kind == "any" else (slot.kind,)
        slots.append({"slot": place, "tiles": [{"id": r.id, "label": label("tile", r.id)} for r in rooms if r.kind in kinds]})
    return {"name": name, "label": label.field(name), "input": "tiles", "required": getattr(spec, "required", False),
            "slots": slots, "doc": label.field_doc(name, getattr(spec, "doc", "")), "kind": "tiles"}


def _fact_line(fact, names: dict[int, str], label: "Labels | None" = None) -> str:
    """A recorded fact in one line. In English it reads as the notation (``BoardPrepared — board basic``); in
    another language, with ``label``, its type, fields and values are named in that language (decision 0023)."""
    seat = _("seat %(n)s") % {"n": fact.actor}
    who = f"{names.get(fact.actor, seat)}: " if fact.actor is not None else ""
    if fact.type == "Commented":
        return f"{who}💬 {fact.data.get('text', '')}"
    if fact.type == "FactAnnotated":
        return _("Note on #%(n)s: %(note)s") % {"n": fact.data.get("seq"), "note": fact.data.get("note", "")}
    if label is None or i18n.current() == i18n.DEFAULT:  # English: the notation's own words, as before
        data = " · ".join(f"{k} {_label(v)}" for k, v in fact.data.items() if v not in (None, [], {}))
        return f"{who}{fact.type}" + (f" — {data}" if data else "")
    specs = _fact_kinds(label.ruleset.name).get(fact.type, {}) if label.ruleset is not None else {}
    data = " · ".join(f"{label.field(k)} {_value_line(label, getattr(specs.get(k), 'kind', None), v, k)}"
                      for k, v in fact.data.items() if v not in (None, [], {}))
    return f"{who}{label.fact(fact.type)}" + (f" — {data}" if data else "")


# (kind, field) whose generic kind hides the catalogue its values name: the contingency tokens dealt
LINE_KINDS = {("names", "tokens"): "contingency"}


def _value_line(label: "Labels", kind: str | None, value: Any, name: str = "") -> str:
    kind = LINE_KINDS.get((kind, name), kind)
    if isinstance(value, list):
        return ", ".join(_value_line(label, kind, v) for v in value)
    if isinstance(value, (dict, list, bool)):
        return _label(value)
    return label(kind, value)


def _voided(recorded) -> set[int]:
    voided: set[int] = set()
    for r in recorded:
        f = r.fact
        if f.type == "FactVoided":
            voided.update(s for s in f.data.get("seqs", []) if isinstance(s, int))
        elif f.type == "FactReplaced":
            voided.discard(f.data.get("seq"))
    return voided


def _undo_seqs(recorded) -> list[int]:
    """What Undo voids: the latest fact still standing (not a correction, not voided), with the note sent with it.

    A note recorded in the same command as its fact (the note field of a fact's form) goes back with the
    fact; a note added later is taken back alone.
    """
    voided = _voided(recorded)
    by_seq = {r.fact.seq: r for r in recorded}
    for r in reversed(recorded):
        if r.fact.type in CORRECTIONS or r.fact.seq in voided:
            continue
        target = by_seq.get(r.fact.data.get("seq")) if r.fact.type == "FactAnnotated" else None
        if (target is not None and target.command_id is not None and target.command_id == r.command_id
                and target.fact.seq not in voided):
            return [target.fact.seq, r.fact.seq]
        return [r.fact.seq]
    return []


REMARKS = ("Commented", "FactAnnotated")


def _note_target(recorded) -> int | None:
    """The fact a note from the Note button goes on: the latest table fact still standing (a note on a comment,
    a note or a correction is refused: decision 0017)."""
    voided = _voided(recorded)
    for r in reversed(recorded):
        if r.fact.type not in CORRECTIONS + REMARKS and r.fact.seq not in voided:
            return r.fact.seq
    return None


def _standing(game_id: str, queued: list | None = None, expected: Any = None):
    """(game, replay, state, names, staged): the game as stored, and the state after the facts queued on the
    device (not stored yet; checked as an append would), if any."""
    game, rp = replay_of(_archive(), _game_id(game_id), corrected=True)
    state = rp.head.state
    names = {p["seat"]: p["name"] for p in game.players}
    staged: list = []
    if queued and isinstance(expected, int) and 0 <= expected < game.position:
        queued = queued[game.position - expected:]  # the first ones were stored meanwhile (their answer in flight)
    if queued:  # facts queued on the device, not stored yet: the offers after them
        staged = game._stage(queued)
        state = staged[-1][3]
    return game, rp, state, names, staged


def _panel_context(game_id: str, fix: int | None = None, queued: list | None = None,
                   expected: Any = None) -> dict[str, Any]:
    game, rp, state, names, staged = _standing(game_id, queued, expected)
    ruleset = rp.ruleset
    preview = [_fact_line(f, names, Labels(game.ruleset_name, state, names)) for f, *_ in staged]
    voided = _voided(game.recorded)
    labels = Labels(game.ruleset_name, state, names)
    recent = [{"seq": r.fact.seq, "line": _fact_line(r.fact, names, labels), "voided": r.fact.seq in voided,
               "flagged": bool(r.flags), "correction": r.fact.type in CORRECTIONS}
              for r in game.recorded[-RECENT:]][::-1]
    undo_seqs = _undo_seqs(game.recorded)
    undo = undo_seqs[0] if undo_seqs else None
    ctx = {
        "game": game,
        "names": names,
        "position": ruleset.position(state),
        "recent": recent,
        "after_the_fact": bool((game.options or {}).get("after_the_fact")),
        "preview": preview[::-1],
        "procedure": [{**s, "label": labels.procedure(s.get("step"), s.get("label", ""))}
                      for s in ruleset.round_procedure(state)],
        "sole": None,
        "groups": [],
        "undo_seq": undo,
        "undo_seqs": json.dumps(undo_seqs),
        "undo_line": next((_fact_line(r.fact, names, labels) for r in game.recorded if r.fact.seq == undo), None),
        "comment": _comment_offer(names),
        "note_seq": _note_target(game.recorded),
        "max_note": hygiene.MAX_NOTE,
        "fix": None,
    }
    ctx["note_line"] = next((_fact_line(r.fact, names, labels) for r in game.recorded if r.fact.seq == ctx["note_seq"]), None)
    if fix is not None:
        return {**ctx, **_fix_context(game, rp, fix, names)}
    offers = _offers(game.ruleset_name, ruleset.next_inputs(state), labels,
                     Habits(game.recorded), lenient=not game.strict,
                     coarse=() if game.strict else ruleset.coarse_inputs(state), lazy=True)
    for o in offers:
        _caption(o, names)
    main = [o for o in offers if not o["effect"] and not o["coarse"]]
    ctx["offers"] = offers
    ctx["groups"] = _groups(game.ruleset_name, ruleset.effect_groups(state),
                            Labels(game.ruleset_name, state, names), names)
    # the game's own next step, when there is only one: asked at once, or recorded for you when derived
    ctx["sole"] = main[0] if len(main) == 1 else None
    ctx["drawing"] = _drawing(rp, state)
    return ctx


def _groups(ruleset_name: str, groups, label, names: dict[int, str]) -> list[dict[str, Any]]:
    """The ruleset's one-tap table effects (``Ruleset.effect_groups``) as buttons: each records its facts, in
    order, in one command; the label names every fact and value ("Wound · serious + Contamination card")."""
    kinds = _fact_kinds(ruleset_name)
    out = []
    for i, g in enumerate(groups):
        parts = []
        for f in g.facts:
            specs = kinds.get(f.type, {})
            values = " ".join(label(getattr(specs.get(k), "kind", None), v) for k, v in f.data.items()
                              if v is not True)  # "slime: yes" says nothing the fact's name does not
            parts.append(label.fact(f.type) + (f" · {values}" if values else ""))
        actors = list(dict.fromkeys(f.actor for f in g.facts))
        who = names.get(actors[0], f"seat {actors[0]}") if len(actors) == 1 and actors[0] is not None else None
        facts = [{"type": f.type, "actor": f.actor, "data": dict(f.data)} for f in g.facts]
        out.append({"index": i, "label": " + ".join(parts), "who": who, "note": g.note,
                    "facts": json.dumps(facts, ensure_ascii=False, sort_keys=True)})
    return out


def _drawing(rp, state) -> dict[str, Markup] | None:
    """The board picture, wide and narrow (board.css shows the one that fits); its rooms carry ``data-place``."""
    wide = rp.ruleset.draw(state)
    if not wide:
        return None
    return {"wide": Markup(wide), "narrow": Markup(rp.ruleset.draw(state, narrow=True) or wide)}


def _comment_offer(names: dict[int, str]) -> dict[str, Any]:
    """The comment: always offered, whatever the rules expect (a generic fact, decision 0017).

    ``about`` is not data: record.js sends it as the fact's actor (the seat the comment is about, or the table).
    """
    text = {"name": "text", "label": _("text"), "input": "free", "parse": "text", "required": True, "kind": "comment",
            "place": False, "doc": _("free text, at most %(n)s characters") % {"n": hygiene.MAX_COMMENT},
            "max": hygiene.MAX_COMMENT}
    about = {"name": "about", "label": _("about"), "input": "choice", "required": False, "kind": "seat", "place": False,
             "doc": "", "searchable": False, "preselect": 0, "chosen": [0],  # the table, preselected
             "choices": [{"json": "null", "label": _("the table")}]
             + [{"json": json.dumps(seat), "label": f"{name} ({seat})"} for seat, name in sorted(names.items())]}
    return {"index": "comment", "type": "Commented", "actor": None, "note": _("A comment at this point of the game: "
            "what the table said, why a fact was odd, a break."), "fields": [text, about], "direct": False,
            "effect": False, "places": "[]"}


def _prefill(field: dict[str, Any], value: Any) -> dict[str, Any]:
    """``field`` showing ``value`` (a recorded fact's), so the fix form starts from what was recorded."""
    field = dict(field)
    if field["input"] == "free" and field.get("picks") and value is not None:
        if field.get("causes"):  # the picker opens on the kind the recorded cause names
            field["causes"] = {**field["causes"], "kind": _cause_kind(field["causes"], value)}
        wanted = json.dumps(value, ensure_ascii=False)
        if any(p["json"] == wanted for p in field["picks"]):  # a listed card: chosen, as a tap would have
            field["picks"] = [{**p, "chosen": p["json"] == wanted} for p in field["picks"]]
            return field
    if field["input"] == "free":
        if value is None:
            return field
        if field.get("parse") == "json":
            field["prefill"] = json.dumps(value, ensure_ascii=False)
        elif isinstance(value, list):
            field["prefill"] = ", ".join(str(v) for v in value)
        else:
            field["prefill"] = str(value)
        return field
    if field["input"] == "fixed":  # one legal value: still a picker, so a value recorded otherwise shows and stays
        field = {**field, "input": "choice", "choices": [field["value"]], "searchable": False, "ruled": False}
    if field["input"] == "tiles":  # the setup's tile map: each room space's picker shows the tile recorded there
        picked = value if isinstance(value, dict) else {}
        field["slots"] = [{**sl, "picked": picked.get(sl["slot"])} for sl in field["slots"]]
        return field
    wanted = [value] if field["input"] == "choice" else (value if isinstance(value, list) else [value])
    wanted_json = {json.dumps(v, ensure_ascii=False) for v in wanted if v is not None}
    choices = list(field["choices"])
    for w in wanted_json - {c["json"] for c in choices}:  # recorded outside the legal list (a lenient game)
        choices.insert(0, {"json": w, "label": _("%(value)s (as recorded)") % {"value": _label(json.loads(w))}})
    field["choices"] = choices
    field["chosen"] = [i for i, c in enumerate(choices) if c["json"] in wanted_json]
    field["preselect"] = None
    return field


def _cause_kind(causes: dict[str, Any], value: Any) -> str:
    """The picker's kind for a recorded ``by``: its prefix when it names a listed card, else "" (other, typed)."""
    listed = {p["json"]: p["kind"] for p in causes["picks"]}
    return listed.get(json.dumps(value, ensure_ascii=False), "")


def _merged(expected, fact) -> list:
    """``expected`` with the offers of ``fact``'s type and actor made one (in the place of the first): the rules
    offer a move once per destination (one room, one corridor each), but a fix must let every field change, so
    each field lists every value any of them allows (the rules check the combination when the fix is sent)."""
    from dataclasses import replace

    same = [e for e in expected if e.type == fact.type and e.actor == fact.actor]
    if len(same) < 2:
        return list(expected)
    options: dict[str, Any] = {}
    for e in same:
        for name, legal in e.options.items():
            if legal is None or options.get(name, []) is None:
                options[name] = None  # free in one of them: free
                continue
            known = options.setdefault(name, [])
            keys = {json.dumps(v, sort_keys=True) for v in known}
            known.extend(v for v in legal if json.dumps(v, sort_keys=True) not in keys)
    one = replace(same[0], options=options, default={})
    out, placed = [], False
    for e in expected:
        if e in same:
            if not placed:
                out.append(one)
                placed = True
            continue
        out.append(e)
    return out


def _fix_context(game, rp, seq: int, names: dict[int, str]) -> dict[str, Any]:
    """The recorder's form for fact ``seq`` as the table stood before it, prefilled with the fact as it now stands."""
    from werkzeug.exceptions import NotFound

    by_seq = {r.fact.seq: r.fact for r in game.recorded}
    original = by_seq.get(seq)
    if original is None:
        raise NotFound(f"this game has no fact #{seq} to fix (it holds #1–#{game.position})")
    if original.type in CORRECTIONS or original.type == "FactAnnotated":
        raise InvalidInput(f"#{seq} is a {original.type}: fix the fact it is about, not the correction or note",
                           field="fix")
    step = next((s for s in rp.steps if s.seq == seq and s.fact is not None), None)
    fact = step.fact if step is not None else original  # as corrected; a voided fact is brought back as recorded
    before = rp.at(seq - 1).state
    ruleset = rp.ruleset
    if fact.type == "Commented":
        offer = _comment_offer(names)
        offers = [offer]
    else:
        labels = Labels(game.ruleset_name, before, names)
        offers = _offers(game.ruleset_name, _merged(ruleset.next_inputs(before), fact), labels, lenient=not game.strict)
        offer = next((o for o in offers if o["type"] == fact.type and o["actor"] == fact.actor), None)
        if offer is None:  # not offered there (a lenient game, a table effect): the fact's own fields, free
            specs = _fact_kinds(game.ruleset_name).get(fact.type, {})
            names_ = list(specs) or list(fact.data)
            offer = {"index": len(offers), "type": fact.type, "label": labels.fact(fact.type), "actor": fact.actor,
                     "note": _("as recorded (the rules do not offer it here; the replacement is checked when sent)"),
                     "fields": [_field(n, None, specs.get(n), labels, actor=fact.actor) for n in names_],
                     "direct": False, "effect": True}
            offers.append(offer)
    offer["fields"] = [(f if fact.actor is None else _prefill(f, fact.actor))  # "the table" is preselected
                       if (fact.type, f["name"]) == ("Commented", "about") else _prefill(f, fact.data.get(f["name"]))
                       for f in offer["fields"]]
    for o in offers:
        # a fix is confirmed in its form, never sent by an offer's tap alone nor by the tap that completes a form
        o["direct"] = o["edit"] = o["quick"] = False
        _caption(o, names)
    return {
        "offers": offers,
        "drawing": _drawing(rp, before),
        "fix": {"seq": seq, "line": _fact_line(fact, names, Labels(game.ruleset_name, before, names)), "offer": offer["index"], "voided": step is None,
                "original": json.dumps({"type": fact.type, "actor": fact.actor, "data": fact.data}, ensure_ascii=False),
                "notes": step.notes if step is not None else (),
                "back": url_for("replay.game_step", game_id=game.id, step=seq)},
    }


@record.get("/games/<game_id>/record")
def recorder(game_id: str):
    ctx = _panel_context(game_id, _fix_arg())
    return render_template("record.html", rule_texts=_rule_texts(ctx["game"].ruleset_name),
                           fact_titles=_fact_titles(ctx["game"].ruleset_name), **ctx)


def _fact_titles(ruleset_name: str) -> dict[str, str]:
    """Every fact type with its title in the page's language (``Move``, ``Ruch``), for record.js to name a fact
    it holds (a queued one) as the buttons do, not by its type id."""
    ruleset = RULESETS.get(ruleset_name)
    if ruleset is None:
        return {}
    return {t: title for t in _fact_kinds(ruleset_name)
            if (title := ruleset.display_name("fact", t, i18n.current()))}


def _rule_texts(ruleset_name: str) -> dict[str, str]:
    """The ruleset's violation codes with their sentence in the page's language, for record.js to show a refusal
    in it (the API answers in English); empty in English, where the rules' own messages (with details) are shown."""
    if i18n.current() == i18n.DEFAULT:
        return {}
    import importlib

    try:
        codes = importlib.import_module(f"service.rules.{ruleset_name}.names").table().get("violation", {})
    except (ImportError, AttributeError):
        return {}
    ruleset = RULESETS.get(ruleset_name)
    return {code: text for code in codes
            if (text := ruleset.display_name("violation", code, i18n.current()) if ruleset else None)}


@record.app_template_global()
def violation_text(violation: Any, game: Any = None) -> str:
    """A violation as the page's language tells it: the ruleset's sentence for its code, else the rules' message."""
    ruleset = getattr(game, "ruleset", None)
    rule = getattr(violation, "rule", None) or (violation.get("rule") if isinstance(violation, dict) else None)
    message = getattr(violation, "message", None) or (violation.get("message") if isinstance(violation, dict) else "")
    named = ruleset.display_name("violation", rule, i18n.current()) if rule and hasattr(ruleset, "display_name") else None
    return named or message


def _fix_arg() -> int | None:
    fix = request.args.get("fix")
    if fix is None:
        return None
    if not (fix.isdigit() and 0 < int(fix) <= hygiene.MAX_POSITION):
        raise InvalidInput(f"fix={fix[:40]!r}: give the number of the fact to fix (e.g. ?fix=12)", field="fix")
    return int(fix)


@record.get("/games/<game_id>/record/panel")
def panel(game_id: str):
    return render_template("_record_panel.html", **_panel_context(game_id, _fix_arg()))


def _queued_body(what: str) -> tuple[list, Any]:
    """The facts queued on the device (``{"facts": [...], "expected_position": n}``, 1 to 50 facts)."""
    body = request.get_json(silent=True)
    facts = body.get("facts") if isinstance(body, dict) else None
    if not isinstance(facts, list) or not 1 <= len(facts) <= 50:
        raise InvalidInput(f"{what} needs a JSON body {{\"facts\": [...]}} with 1 to 50 facts", field="facts")
    return facts, body.get("expected_position")


@record.post("/games/<game_id>/record/preview")
def preview(game_id: str):
    """The panel after facts queued on the device but not stored yet (``{"facts": [...]}``, up to 50): the
    recorder can go on while they are sent. Nothing is stored; a queued fact the rules refuse is a 422
    naming it, as the append would answer."""
    facts, expected = _queued_body("preview")
    return render_template("_record_panel.html", **_panel_context(game_id, queued=facts, expected=expected))


@record.route("/games/<game_id>/record/form/<int:index>", methods=["GET", "POST"])
def offer_form(game_id: str, index: int):
    """One offer's form, drawn when it is opened (a table effect's: the panel draws only their buttons, decision
    0034). ``?type=&actor=`` name the offer the page shows; when the game has moved on and offer ``index`` is
    another one now, the answer is a 409 and the page fetches the panel again. A POST carries the facts queued
    on the device, as the preview does: the form is the one after them."""
    queued, expected = _queued_body("a form after queued facts") if request.method == "POST" else (None, None)
    game, rp, state, names, _staged = _standing(game_id, queued, expected)
    ruleset = rp.ruleset
    expected_inputs = ruleset.next_inputs(state)
    coarse = () if game.strict else ruleset.coarse_inputs(state)
    everything = list(expected_inputs) + list(coarse)
    wanted_type, wanted_actor = request.args.get("type"), request.args.get("actor", "")
    offer = everything[index] if index < len(everything) else None
    if offer is None or (wanted_type and (offer.type != wanted_type
                                          or ("" if offer.actor is None else str(offer.actor)) != wanted_actor)):
        raise StalePosition(f"game {game.id}: offer {index} is not {wanted_type or 'there'} any more "
                            f"(the game is at fact {game.position}): fetch the panel again", field="index")
    labels = Labels(game.ruleset_name, state, names)
    offers = _offers(game.ruleset_name, expected_inputs, labels, Habits(game.recorded), lenient=not game.strict,
                     coarse=coarse, lazy=True, opened=index)
    return render_template("_record_form.html", o=offers[index], names=names, fix=None, max_note=hygiene.MAX_NOTE)


__all__ = ["record", "ArchiveError"]
