"""A main-board side: its places (room spaces), sectors, corridors and time track.

    >>> from service.rules.lockdown.components import board
    >>> board("basic").has_graph, board("synthetic").has_graph
    (False, True)

A corridor is known by a *key*. When the board file declares corridors, the key is the
corridor's id (``"c07"``) or ``"technical"`` for the single technical-corridor space, and
one corridor is shared by the two rooms it joins. When the board has no corridor graph
(the real basic side: its corridors are unknown), the key is ``"<place>:<number>"`` — the
corridor with that number *as seen from that room*; two rooms never share such a key.

The alternative side (``mars``, lockdown.md §12.5) adds *areas*: special technical corridors
keyed ``"area-<n>"``. Every crossroad is connected to every area, and a building's area to
every room of that building (seed 000 L4664–4672, L4808–4811). Crossroads are joined by
unnumbered *paths* (never a noise marker, never a door): a move along one records the
corridor ``"path"`` and has no corridor key.

    >>> mars = board("mars")
    >>> mars.surface, mars.has_graph, mars.corridor_key("crossroad-1", 3), mars.corridor_key("crossroad-1", "path")
    (True, False, 'area-3', None)
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

TECHNICAL = "technical"
CORRIDOR_NUMBERS = (1, 2, 3, 4)
PATH = "path"  # an unnumbered path between crossroads / a crossroad and an exit space (lockdown.md §12.5)
CROSSROAD = "crossroad"
AREA_PREFIX = "area-"


def area_key(number: int) -> str:
    return f"{AREA_PREFIX}{number}"


def is_area(key: str | None) -> bool:
    return isinstance(key, str) and key.startswith(AREA_PREFIX)


@dataclass(frozen=True)
class Place:
    """A space for a room on the board: a random-tile slot ("I"/"II") or a fixed room."""

    id: str
    kind: str
    sector: str | None
    room: str | None  # the room id for fixed places, None for random slots
    zone: str | None = None  # mars side: "surface" (crossroads), "underground", "building-<n>"; None = unknown


@dataclass(frozen=True)
class Corridor:
    id: str
    ends: tuple[tuple[str, int], ...]  # (place id, corridor number at that place)


class Board:
    def __init__(self, data: Mapping[str, Any]):
        self.id: str = data["id"]
        self.en: str = data["en"]
        self.pl: str = data.get("pl", "")  # the Polish edition's name, where the data gives it
        self.synthetic: bool = bool(data.get("synthetic", False))
        self.side: str = data.get("side", "basic")
        self.about: str = data.get("about", "")
        self.sectors: tuple[str, ...] = tuple(data.get("sectors", ()))
        self.exit_space: str | None = data.get("exit_space")  # the place on space 001 (None: unknown)
        # what else the board shows (pods, gate, Bunker, rover, technical space ...): data with sources
        self.elements: Mapping[str, Any] = MappingProxyType(dict(data.get("elements") or {}))
        self.places: Mapping[str, Place] = MappingProxyType({
            p["id"]: Place(id=p["id"], kind=p["kind"], sector=p.get("sector"), room=p.get("room"), zone=p.get("zone"))
            for p in data["places"]
        })
        self.fixed_rooms: Mapping[str, str] = MappingProxyType(
            {p.room: p.id for p in self.places.values() if p.room}
        )
        self.slots: Mapping[str, tuple[str, ...]] = MappingProxyType({
            kind: tuple(p.id for p in self.places.values() if p.kind == kind) for kind in ("I", "II", "any")
        })
        # the alternative side (lockdown.md §12.5): areas, buildings, crossroads, exit spaces
        self.areas: Mapping[int, str | None] = MappingProxyType(
            {int(a["number"]): a.get("building") for a in data.get("areas") or ()})
        self.surface: bool = bool(self.areas)
        self.crossroads: tuple[str, ...] = tuple(p.id for p in self.places.values() if p.kind == CROSSROAD)
        self.exit_spaces: tuple[str, ...] | None = (
            tuple(data["exit_spaces"]) if data.get("exit_spaces") is not None
            else ((self.exit_space,) if self.exit_space else None))
        tokens = data.get("surface_exploration_tokens") or {}
        self.surface_effects: tuple[str, ...] = tuple(tokens.get("effects", ()))
        self.noise_results: tuple = tuple((data.get("mars_die") or {}).get("results", ()))
        track = data["time_track"]
        self.time_spaces: tuple[Any, ...] = tuple(track["spaces_in_order"])
        self.isolation_opens_at: int = track["isolation_opens_at"]
        self.css_spaces: frozenset[Any] = frozenset(track["css_slots_under_spaces"])
        self.power_thresholds: Mapping[str, Any] = MappingProxyType(dict(track.get("power_thresholds_crossed_when_entering_space", {})))

        corridors = data.get("corridors")
        self.has_graph: bool = corridors is not None
        self.corridors: Mapping[str, Corridor] = MappingProxyType({
            c["id"]: Corridor(id=c["id"], ends=tuple((e[0], int(e[1])) for e in c["ends"])) for c in (corridors or ())
        })
        self.technical: Mapping[str, int] = MappingProxyType(dict(data.get("technical_entrances") or {}))
        at: dict[str, dict[int, str]] = {pid: {} for pid in self.places}
        for c in self.corridors.values():
            for place, number in c.ends:
                at[place][number] = c.id
        for place, number in self.technical.items():
            at[place][number] = TECHNICAL
        self._at: Mapping[str, Mapping[int, str]] = MappingProxyType({k: MappingProxyType(v) for k, v in at.items()})
        self._exits: dict[str, tuple[tuple[str, int, str], ...]] = {}  # place -> exits(place), worked out once

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "Board":
        return cls(data)

    def __snapshot__(self) -> str:
        """A board is its data file's, so its id stands for it in a state's snapshot (service.rules.kit.snapshot)."""
        return self.id

    # --- the surface (mars side) ------------------------------------------------------

    def is_crossroad(self, place: str | None) -> bool:
        p = self.places.get(place) if place else None
        return p is not None and p.kind == CROSSROAD

    def area_of(self, place: str | None) -> int | None:
        """The area number around the building ``place`` stands in (None: not in a known building)."""
        p = self.places.get(place) if place else None
        if p is None or not p.zone:
            return None
        return next((n for n, b in self.areas.items() if b and b == p.zone), None)

    def area_keys(self) -> tuple[str, ...]:
        return tuple(area_key(n) for n in sorted(self.areas))

    # --- corridors -------------------------------------------------------------------

    def corridor_key(self, place: str, number: int | str) -> str | None:
        """The corridor numbered ``number`` leading to ``place``; None if the board says there is none."""
        if number == PATH:
            return None  # paths are unnumbered: no key, no noise marker, no door
        if self.is_crossroad(place):  # every crossroad is connected to every area (§12.5)
            return area_key(number) if number in self.areas else None  # type: ignore[operator]
        if self.surface and self.area_of(place) == number:
            return area_key(number)  # a building's own area number (seed 000 L4845–4848)
        if not self.has_graph:
            return f"{place}:{number}"
        return self._at.get(place, {}).get(number)  # type: ignore[arg-type]

    def corridors_of(self, place: str) -> tuple[str, ...] | None:
        """Every corridor leading to ``place`` (technical included); None when unknown."""
        if self.is_crossroad(place):
            return self.area_keys()
        if not self.has_graph:
            return None
        return tuple(dict.fromkeys(self._at.get(place, {}).values()))

    def numbers_of(self, place: str) -> tuple[int, ...]:
        """Corridor numbers leading to ``place`` (all of 1–4 when the graph is unknown)."""
        if self.is_crossroad(place):
            return tuple(sorted(self.areas))
        if not self.has_graph:
            return CORRIDOR_NUMBERS
        return tuple(sorted(self._at.get(place, {})))

    def local_keys(self, place: str) -> tuple[str, ...]:
        """Keys that may hold a noise marker touching ``place`` (for clearing on an encounter)."""
        if self.is_crossroad(place):
            return self.area_keys()
        if self.surface and self.area_of(place) is not None:
            n = self.area_of(place)
            return tuple(area_key(n) if i == n else f"{place}:{i}" for i in CORRIDOR_NUMBERS)
        if not self.has_graph:
            return tuple(f"{place}:{n}" for n in CORRIDOR_NUMBERS)
        return self.corridors_of(place) or ()

    def number_at(self, key: str, place: str) -> int | None:
        if is_area(key):
            n = int(key[len(AREA_PREFIX):])
            return n if self.is_crossroad(place) or self.area_of(place) == n else None
        if not self.has_graph:
            prefix, _, number = key.rpartition(":")
            return int(number) if prefix == place and number.isdigit() else None
        for n, k in self._at.get(place, {}).items():
            if k == key:
                return n
        return None

    def rooms_of(self, key: str) -> tuple[str, ...]:
        """The places a corridor leads to."""
        if key == TECHNICAL:
            return tuple(self.technical)
        if is_area(key):
            n = int(key[len(AREA_PREFIX):])
            return self.crossroads + tuple(p for p in self.places if self.area_of(p) == n)
        if not self.has_graph:
            return (key.rpartition(":")[0],)
        corridor = self.corridors.get(key)
        return tuple(p for p, _ in corridor.ends) if corridor else ()

    def other_end(self, key: str, place: str) -> str | None:
        corridor = self.corridors.get(key)
        if corridor is None:
            return None
        for p, _ in corridor.ends:
            if p != place:
                return p
        return None

    def exits(self, place: str) -> tuple[tuple[str, int, str], ...]:
        """Walkable corridors at ``place``: (corridor key, number at the *other* room, other room)."""
        known = self._exits.get(place)
        if known is not None:  # a board never changes: its exits are worked out once per place
            return known
        out = []
        for number, key in sorted(self._at.get(place, {}).items()):
            if key == TECHNICAL:
                continue
            other = self.other_end(key, place)
            if other is not None:
                out.append((key, self.number_at(key, other) or number, other))
        known = self._exits[place] = tuple(out)
        return known

    def entry(self, from_place: str, to_place: str, number: int) -> str | None:
        """The corridor numbered ``number`` (at ``to_place``) joining the two places, if any."""
        key = self.corridor_key(to_place, number)
        if key is None or key == TECHNICAL:
            return None
        if self.has_graph and self.other_end(key, to_place) != from_place:
            return None
        return key

    def adjacent(self, place: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(other for _, _, other in self.exits(place)))

    # --- time track ------------------------------------------------------------------

    def time_label(self, index: int) -> str:
        space = self.time_spaces[min(index, len(self.time_spaces) - 1)]
        return f"{space:02d}" if isinstance(space, int) else str(space)
