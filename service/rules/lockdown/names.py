"""Component names in English and as printed in the Polish edition, by kind and id.

    >>> display_name("room", "nest", "pl"), display_name("character", "janitor", "en")
    ('Gniazdo', 'Janitor')

The Polish names come from the components' own data files (their ``pl`` fields) and from
``data/names_pl.json`` for the kinds whose files have none; each cites its seed lines. Where the
seeds print no Polish name, the English one is shown (docs/rules-gaps.md, "Polish names").
:func:`local` names a component in the language in force (:mod:`service.i18n`).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from service import i18n
from service.rules.lockdown.components import ACTION_CARDS, ATTACK_CARDS, CHARACTERS, EVENT_CARDS, ROOMS, load

# the recorder's field kinds and the replay's words for the same catalogues
KIND_ALIASES = {"tile": "room", "room_tile": "room", "card": "event_card", "intruder_kind": "intruder",
                "stalker": "intruder", "plan": "contingency", "objective_type": "objective", "objectives": "objective",
                "noise_result": "noise", "colony_token": "token", "kind": "intruder"}


def _cap(text: str) -> str:
    """Printed rulebook nouns are lower case mid-sentence; a label starts with a capital."""
    return text[:1].upper() + text[1:] if text else text


@lru_cache(maxsize=None)
def table() -> Mapping[str, Mapping[str, tuple[str, str]]]:
    """``kind -> id -> (English, Polish or "")`` for every named component."""
    out: dict[str, dict[str, tuple[str, str]]] = {}
    out["room"] = {r.id: (r.en, r.pl) for r in ROOMS}
    out["character"] = {c.id: (c.en, c.pl) for c in CHARACTERS}
    out["event_card"] = {c.id: (c.en, c.pl) for c in EVENT_CARDS}
    out["attack_card"] = {c.id: (c.en, c.pl) for c in ATTACK_CARDS}
    out["action_card"] = {c.id: (c.en, c.pl) for c in ACTION_CARDS}
    out["intruder"] = {t["id"]: (t["en"], _cap(t.get("pl") or "")) for t in load("intruders")["types"]}
    items = load("items")
    out["item"] = {i["id"]: (i["en"], i.get("pl") or "") for key in ("named", "starting", "quest", "crafted")
                   for i in items[key] if i.get("id") and i.get("en")}
    out["item_deck"] = {d["id"]: (d["en"], _cap(d.get("pl") or "")) for d in items["decks"]}
    objectives = load("objectives")["types"]
    rows = objectives.items() if isinstance(objectives, dict) else ((o["id"], o) for o in objectives)
    out["objective"] = {k: (t.get("en", k), t.get("pl") or "") for k, t in rows}
    out["contingency"] = {p["id"]: (p["en"], "") for p in load("contingency")["plans"]}
    out["supply"] = {t["id"]: (t.get("en", t["id"]), _cap(t.get("pl") or "")) for t in load("supplies")["tokens"]}
    out["board"] = {b: (load(f"board_{b}")["en"], load(f"board_{b}").get("pl", "")) for b in ("basic", "mars")}
    english = {"noise": {"silence": "silence", "danger": "danger"},
               "exploration": {e: e for e in load("exploration")["effects"]},
               "token": {t: t for t in load("colony")["token_types"]},
               "object": {"corpse": "corpse", "carcass": "carcass", "egg": "egg"}}
    out["fact"] = {t: (en, pl) for t, (en, pl) in load("fact_titles")["titles"].items()}  # the recorder's labels
    # the recorder's words (decision 0023): field labels in both languages; a Polish hint per field, a Polish note
    # per fact type and a Polish sentence per violation code, whose English is the rules' own text (so "" here)
    words = load("recorder_words")
    out["field"] = {k: (en, pl) for k, (en, pl) in words["fields"].items()}
    out["field_doc"] = {k: ("", pl) for k, pl in words["field_docs"].items()}
    out["fact_note"] = {k: ("", pl) for k, pl in words["notes"].items()}
    out["violation"] = {k: ("", pl) for k, pl in words["violations"].items()}
    out["procedure_step"] = {k: ("", pl) for k, pl in words["procedure"].items()}
    out["consequence"] = {k: ("", pl) for k, pl in words["consequences"].items()}  # decision 0028
    for kind, block in load("names_pl")["kinds"].items():
        known = out.setdefault(kind, {})
        for key, pl in block["names"].items():
            en = known[key][0] if key in known else english.get(kind, {}).get(key, key)
            known[key] = (en, _cap(pl))
    return out


def _key(kind: str, value: Any) -> tuple[str, str] | None:
    kind = KIND_ALIASES.get(kind, kind)
    names = table().get(kind)
    if names is None or not isinstance(value, str):
        return None
    if value in names:
        return names[value]
    if kind == "item":  # items are recorded by their printed name ("Flashlight", "Latarka"), not by id
        folded = " ".join(value.split()).casefold()
        return next((pair for pair in names.values() if folded in (pair[0].casefold(), pair[1].casefold())), None)
    catalogue = {"room": ROOMS, "character": CHARACTERS, "event_card": EVENT_CARDS, "attack_card": ATTACK_CARDS,
                 "action_card": ACTION_CARDS}.get(kind)
    found = catalogue.resolve(value) if catalogue is not None else None
    return names.get(found.id) if found is not None else None


def display_name(kind: str, value: Any, locale: str = "en") -> str | None:
    """The printed name of component ``value`` (an id or any known name) in ``locale``; None if unknown.

    Polish falls back to English where the seeds print no Polish name. For the recorder's prose kinds
    (``field_doc``, ``fact_note``, ``violation``, ``procedure_step``,
    ``consequence``) there is only Polish: in English, and for
    an unknown code, the answer is None and the caller shows the rules' own text.
    """
    if KIND_ALIASES.get(kind, kind) in ("objective", "objectives") and isinstance(value, str) and ":" in value:
        # an objective card as recorded: its type's printed name with the values the table read on it
        kind_, _, args = value.partition(":")
        named = display_name("objective", kind_, locale)
        return f"{named} [{args.replace(',', ', ')}]" if named else None
    found = _key(kind, value)
    if found is None:
        return None
    en, pl = found
    return (pl if locale == "pl" and pl else en) or None


def names(kind: str, value: Any) -> tuple[str, ...]:
    """Every name ``value`` goes by (English, Polish), for a search that accepts either language."""
    found = _key(kind, value)
    return tuple(n for n in dict.fromkeys(found or ()) if n)


def local(component: Any) -> str:
    """A catalogue entry (room, character, card …) named in the language in force."""
    if i18n.current() == "pl":
        return getattr(component, "pl", "") or component.en
    return component.en


def shown(kind: str, value: Any, default: str | None = None) -> str:
    """``value``'s name in the language in force; ``default`` (or ``value`` itself) when it has none."""
    return display_name(kind, value, i18n.current()) or (default if default is not None else str(value))
