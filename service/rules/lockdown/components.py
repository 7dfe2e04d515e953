"""The game's components, read once from the JSON files in ``data/``.

    >>> ROOMS["nest"].en, ROOMS.resolve("Gniazdo").id
    ('Nest', 'nest')

Lookups accept an id, the English or Polish name, or an alias, case-insensitively,
so a recorder may type what is printed on the tile.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from service.rules.kit.catalogue import Catalogue, load_json

DATA = Path(__file__).parent / "data"


def load(name: str) -> dict[str, Any]:
    """The parsed JSON data file ``data/<name>.json``."""
    return load_json(DATA, name)


@dataclass(frozen=True)
class Room:
    id: str
    kind: str  # "I", "II" or "special"
    en: str
    pl: str
    aliases: tuple[str, ...] = ()
    colour: str | None = None
    computer: bool | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.en} ({self.pl})"

    @property
    def has_item_counter(self) -> bool:
        return self.kind != "special" and not self.extra.get("no_item_counter", False)


@dataclass(frozen=True)
class Character:
    id: str
    en: str
    pl: str
    group: str  # "survivor" or "staff"
    start_room: str
    knowledge: int
    aliases: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.en} ({self.pl})"


@dataclass(frozen=True)
class EventCard:
    id: str
    en: str
    moves: tuple[str, ...]
    corridors: tuple[int, ...]
    removed: bool
    copy: int | None = None
    pl: str = ""  # the Polish name, where the sources give it (e.g. Wyciek chłodziwa, seed 000 L1865–1897)

    @property
    def label(self) -> str:
        return f"{self.en} (copy {self.copy})" if self.copy else self.en


@dataclass(frozen=True)
class AttackCard:
    id: str
    en: str
    types: tuple[str, ...]
    blood: tuple[Any, ...]
    effect: str
    pl: str = ""


@dataclass(frozen=True)
class ActionCard:
    """A character's action card, as far as the sources name it (data/action_cards.json)."""

    id: str
    en: str
    pl: str = ""
    owners: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()


def _rooms() -> Catalogue[Room]:
    rooms = []
    for r in load("rooms")["rooms"]:
        known = {"id", "kind", "en", "pl", "aliases", "colour", "computer"}
        rooms.append(Room(
            id=r["id"], kind=r["kind"], en=r["en"], pl=r["pl"], aliases=tuple(r.get("aliases", ())),
            colour=r.get("colour"), computer=r.get("computer"),
            extra=MappingProxyType({k: v for k, v in r.items() if k not in known}),
        ))
    return Catalogue(rooms)


def _character(c: Mapping[str, Any], groups: Mapping[str, Any], defaults: Mapping[str, Any]) -> Character:
    """One character row; keys beyond the named fields go to ``extra``, over ``defaults``."""
    group = groups[c["group"]]
    return Character(
        id=c["id"], en=c["en"], pl=c["pl"], group=c["group"], start_room=group["start_room"],
        knowledge=group["knowledge"], aliases=tuple(c.get("aliases", ())),
        extra=MappingProxyType({**defaults, **{k: v for k, v in c.items()
                                               if k not in ("id", "en", "pl", "group", "aliases")}}),
    )


def _characters() -> Catalogue[Character]:
    data = load("characters")
    out = [_character(c, data["groups"], {"origin": "lockdown"}) for c in data["characters"]]
    # playing with Nemesis characters (lockdown.md §12.4; seed 000 L4554–4602): the Nemesis and
    # Aftermath characters of characters_extra.json, all Nemesis survivors, no starting item;
    # the Medic is a stretch-goal character, not part of this variant
    extra = load("characters_extra")
    out += [_character(c, extra["groups"], {"starting_item": None}) for c in extra["nemesis_characters"]
            if c.get("origin") in ("nemesis", "aftermath")]
    return Catalogue(out)


def box_characters() -> list[Character]:
    """The six characters of the Lockdown box (data/characters.json)."""
    return [c for c in CHARACTERS if c.extra.get("origin") == "lockdown"]


def _events() -> Catalogue[EventCard]:
    return Catalogue([
        EventCard(id=c["id"], en=c["en"], moves=tuple(c["moves"]), corridors=tuple(c["corridors"]),
                  removed=c["removed"], copy=c.get("copy"), pl=c.get("pl", ""))
        for c in load("events")["cards"]
    ])


ROOMS: Catalogue[Room] = _rooms()
CHARACTERS: Catalogue[Character] = _characters()
EVENT_CARDS: Catalogue[EventCard] = _events()
ATTACK_CARDS: Catalogue[AttackCard] = Catalogue([
    AttackCard(id=c["id"], en=c["en"], types=tuple(c["types"]), blood=tuple(c["blood"]), effect=c["effect"],
               pl=c.get("pl", ""))
    for c in load("attack_cards")["cards"]
])
ACTION_CARDS: Catalogue[ActionCard] = Catalogue([
    ActionCard(id=c["id"], en=c["en"], pl=c.get("pl", ""), owners=tuple(c.get("owners", ())),
               aliases=tuple(c.get("aliases", ())))
    for c in load("action_cards")["cards"]
])
COLONY: Mapping[str, Any] = MappingProxyType(load("colony"))
EXPLORATION: Mapping[str, Any] = MappingProxyType(load("exploration"))
NOISE_DIE: Mapping[str, Any] = MappingProxyType(load("noise_die"))

TOKEN_TYPES: tuple[str, ...] = tuple(COLONY["token_types"])
NOISE_RESULTS: tuple[Any, ...] = tuple(NOISE_DIE["results"])
EXPLORATION_EFFECTS: tuple[str, ...] = tuple(EXPLORATION["effects"])


@lru_cache(maxsize=None)
def board(board_id: str) -> "Board":
    from service.rules.lockdown.board import Board

    return Board.from_data(load(f"board_{board_id}"))


BOARDS: tuple[str, ...] = tuple(sorted(p.stem[len("board_"):] for p in DATA.glob("board_*.json")))
