"""Read-only catalogue of Lockdown components and scoring data (``data/*.json``).

Every value in those files cites its source (lockdown.md §, seed line, gaps_filled.md §);
values no source gives are listed in docs/rules-gaps.md ("Scoring and components").
Loaders are cached and return read-only mappings (``MappingProxyType``) and tuples.

    >>> plan_copies()["signal"]
    2
    >>> objective_type("knowledge_at_least")["params"]
    ('knowledge',)
    >>> supply("fire")
    12
"""
from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping

from service.rules.kit.catalogue import freeze
from service.rules.lockdown.components import DATA, load  # noqa: F401  (DATA: the data folder, for callers)


@lru_cache(maxsize=None)
def data(name: str) -> Mapping[str, Any]:
    """The whole of ``data/<name>.json``, frozen (dicts → read-only mappings, lists → tuples)."""
    return freeze(load(name))


# --- objectives and contingency plans (scoring) -------------------------------------------


@lru_cache(maxsize=None)
def objective_types() -> Mapping[str, Mapping[str, Any]]:
    """Objective types by id (data/objectives.json)."""
    return MappingProxyType({t["id"]: t for t in data("objectives")["types"]})


def objective_type(type_id: str) -> Mapping[str, Any]:
    return objective_types()[type_id]


def parse_objective(text: str) -> tuple[str, tuple[Any, ...]]:
    """``"knowledge_at_least:5"`` → ``("knowledge_at_least", (5,))``; integers are converted."""
    kind, _, rest = str(text).strip().partition(":")
    args: list[Any] = []
    for a in (rest.split(",") if rest else []):
        a = a.strip()
        args.append(int(a) if a.lstrip("-").isdigit() else a)
    return kind.strip(), tuple(args)


@lru_cache(maxsize=None)
def plans() -> Mapping[str, Mapping[str, Any]]:
    """Contingency plans by id (data/contingency.json)."""
    return MappingProxyType({p["id"]: p for p in data("contingency")["plans"]})


@lru_cache(maxsize=None)
def plan_copies() -> Mapping[str, int]:
    """How many tokens of each plan the box holds (7 in all)."""
    return MappingProxyType({p["id"]: p["copies"] for p in data("contingency")["plans"]})


@lru_cache(maxsize=None)
def _plan_aliases() -> Mapping[str, str]:
    out: dict[str, str] = {}
    for p in data("contingency")["plans"]:
        out[p["id"]] = p["id"]
        out[p["colour"]] = p["id"]
    return MappingProxyType(out)


def resolve_plan(name: str | None) -> str | None:
    """Plan id from an id or a colour (``"grey"`` → ``"pods"``); None for None; KeyError if unknown."""
    if name is None:
        return None
    key = str(name).strip().casefold().replace(" ", "_").replace("-", "_")
    if key == "gray":
        key = "grey"
    return _plan_aliases()[key]


# --- characters -----------------------------------------------------------------------------


@lru_cache(maxsize=None)
def characters() -> Mapping[str, Mapping[str, Any]]:
    """Every playable character by id: the six of the box (data/characters.json, owned by the
    mechanics, enriched by data/characters_extra.json) plus the Nemesis / Aftermath characters and
    the Medic, all of them Nemesis survivors (characters_extra.json)."""
    raw = load("characters")
    extra = data("characters_extra")
    box = {c["id"]: c for c in extra["box"]}
    out: dict[str, Any] = {}
    for c in raw["characters"]:
        merged = {**c, **box.get(c["id"], {})}
        group = extra["groups"][merged["group"]]
        merged.setdefault("start_room", group["start_room"])
        merged.setdefault("knowledge", group["knowledge"])
        out[c["id"]] = freeze(merged) if isinstance(merged, dict) else merged
    for c in extra["nemesis_characters"]:
        group = extra["groups"][c["group"]]
        out.setdefault(c["id"], MappingProxyType({**c, "start_room": group["start_room"], "knowledge": group["knowledge"]}))
    return MappingProxyType(out)


def character_group(character: str) -> str | None:
    """``survivor`` (a Nemesis survivor: starts in the Isolation Room) or ``staff``; None if unknown."""
    key = str(character).strip().casefold().replace(" ", "_").replace("-", "_")
    for c in characters().values():
        names = {c["id"], str(c.get("en", "")).casefold().replace(" ", "_"), str(c.get("pl", "")).casefold().replace(" ", "_"),
                 *(str(a).casefold().replace(" ", "_") for a in c.get("aliases", ()))}
        if key in names:
            return c.get("group")
    return None


# --- intruders, items, decks, supplies --------------------------------------------------------


def _by_id(rows: Any) -> Mapping[str, Mapping[str, Any]]:
    return MappingProxyType({r["id"]: r for r in rows})


@lru_cache(maxsize=None)
def intruder_types() -> Mapping[str, Mapping[str, Any]]:
    """Night stalker types by id: figures, tokens, how they die (data/intruders.json)."""
    return _by_id(data("intruders")["types"])


@lru_cache(maxsize=None)
def colony_bag_at_start(players: int) -> Mapping[str, int]:
    """The colony bag at setup for ``players`` players (lockdown.md §3.1 step 10)."""
    bag = {k: v for k, v in data("intruders")["colony_bag_at_start"].items() if isinstance(v, int) and k != "adult_per_player"}
    bag["adult"] = bag.get("adult", 0) + data("intruders")["colony_bag_at_start"]["adult_per_player"] * players
    return MappingProxyType(bag)


@lru_cache(maxsize=None)
def item_decks() -> Mapping[str, Mapping[str, Any]]:
    """Item decks by colour (red, yellow, green, blue, starting, quest) with their card counts."""
    return _by_id(data("items")["decks"])


@lru_cache(maxsize=None)
def items() -> Mapping[str, Mapping[str, Any]]:
    """Every named item (crafted, searchable, starting, quest, heavy objects) by id, with a ``kind``."""
    d = data("items")
    out: dict[str, Any] = {}
    for kind in ("crafted", "named", "starting", "quest", "heavy_objects"):
        for it in d[kind]:
            out[it["id"]] = MappingProxyType({**it, "kind": kind})
    return MappingProxyType(out)


@lru_cache(maxsize=None)
def decks() -> Mapping[str, Mapping[str, Any]]:
    """Card decks by id with their counts (data/decks.json)."""
    return _by_id(data("decks")["decks"])


def deck_size(deck_id: str) -> int:
    return decks()[deck_id]["cards"]


@lru_cache(maxsize=None)
def token_sets() -> Mapping[str, Mapping[str, Any]]:
    """Token sets with faces (contingency, SWC) by id."""
    return _by_id(data("decks")["token_sets"])


@lru_cache(maxsize=None)
def supplies() -> Mapping[str, Mapping[str, Any]]:
    """Token supplies by id (data/supplies.json)."""
    return _by_id(data("supplies")["tokens"])


def supply(token_id: str) -> int:
    """How many tokens of that kind the box holds (``fire`` → 12)."""
    return supplies()[token_id]["count"]


@lru_cache(maxsize=None)
def figure_caps() -> Mapping[str, int]:
    """Plastic figures per type: the cap on the board (``adult`` → 8)."""
    return MappingProxyType({f["id"]: f["count"] for f in data("supplies")["figures"]})


def item_ammo(name: Any) -> tuple[int, int] | None:
    """The ammo printed on an item card, (starting markers, magazine capacity), for an item id or its English or
    Polish name; None when the card prints none or the item is not catalogued. "Every weapon a player gets during the
    game is loaded with" the first number; the second is never exceeded (seed 000 L3632–3636, L3643).

    >>> item_ammo("Miotacz ognia"), item_ammo("pistol"), item_ammo("Medkit")
    ((4, 4), (3, 3), None)
    """
    return _ammo_by_name().get(_ammo_key(str(name or "")))


def _ammo_key(name: str) -> str:
    return " ".join(name.replace("_", " ").replace("-", " ").split()).casefold()


@lru_cache(maxsize=None)
def _ammo_by_name() -> Mapping[str, tuple[int, int] | None]:
    """Every item's names (id, English, Polish) as ``item_ammo`` compares them → its ammo; the first item to bear
    a name keeps it."""
    out: dict[str, tuple[int, int] | None] = {}
    for it in items().values():
        ammo = it.get("ammo")
        for n in (it["id"], it.get("en") or "", it.get("pl") or ""):
            if n:
                out.setdefault(_ammo_key(n), (int(ammo[0]), int(ammo[1])) if ammo else None)
    return MappingProxyType(out)
