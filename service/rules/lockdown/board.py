"""A main-board side: its places (room spaces), sectors, corridors and time track.

    >>> from service.rules.lockdown.components import board
    >>> board("basic").has_graph, board("synthetic").has_graph
    (False, True)

A corridor is known by a *key*. When the board file declares corridors, the key is the
corridor's id (``"c07"``) or ``"technical"`` for the single technical-corridor space, and
one corridor is shared by the two rooms it joins. When the board has no corridor graph
(the real basic side: its corridors are unknown), the key is ``"<place>:<number>"`` — the
corridor with that number *as seen from that room*; two rooms never share such a key.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

TECHNICAL = "technical"
CORRIDOR_NUMBERS = (1, 2, 3, 4)


@dataclass(frozen=True)
class Place:
    """A space for a room on the board: a random-tile slot ("I"/"II") or a fixed room."""

    id: str
    kind: str
    sector: str | None
    room: str | None  # the room id for fixed places, None for random slots


@dataclass(frozen=True)
class Corridor:
    id: str
    ends: tuple[tuple[str, int], ...]  # (place id, corridor number at that place)


class Board:
    def __init__(self, data: Mapping[str, Any]):
        self.id: str = data["id"]
        self.en: str = data["en"]
        self.synthetic: bool = bool(data.get("synthetic", False))
        self.side: str = data.get("side", "basic")
        self.about: str = data.get("about", "")
        self.sectors: tuple[str, ...] = tuple(data.get("sectors", ()))
        self.exit_space: str | None = data.get("exit_space")  # the place on space 001 (None: unknown)
        self.places: Mapping[str, Place] = MappingProxyType({
            p["id"]: Place(id=p["id"], kind=p["kind"], sector=p.get("sector"), room=p.get("room"))
            for p in data["places"]
        })
        self.fixed_rooms: Mapping[str, str] = MappingProxyType(
            {p.room: p.id for p in self.places.values() if p.room}
        )
        self.slots: Mapping[str, tuple[str, ...]] = MappingProxyType({
            kind: tuple(p.id for p in self.places.values() if p.kind == kind) for kind in ("I", "II")
        })
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

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "Board":
        return cls(data)

    # --- corridors -------------------------------------------------------------------

    def corridor_key(self, place: str, number: int | str) -> str | None:
        """The corridor numbered ``number`` leading to ``place``; None if the board says there is none."""
        if not self.has_graph:
            return f"{place}:{number}"
        return self._at.get(place, {}).get(number)  # type: ignore[arg-type]

    def corridors_of(self, place: str) -> tuple[str, ...] | None:
        """Every corridor leading to ``place`` (technical included); None when unknown."""
        if not self.has_graph:
            return None
        return tuple(dict.fromkeys(self._at.get(place, {}).values()))

    def numbers_of(self, place: str) -> tuple[int, ...]:
        """Corridor numbers leading to ``place`` (all of 1–4 when the graph is unknown)."""
        if not self.has_graph:
            return CORRIDOR_NUMBERS
        return tuple(sorted(self._at.get(place, {})))

    def local_keys(self, place: str) -> tuple[str, ...]:
        """Keys that may hold a noise marker touching ``place`` (for clearing on an encounter)."""
        if not self.has_graph:
            return tuple(f"{place}:{n}" for n in CORRIDOR_NUMBERS)
        return self.corridors_of(place) or ()

    def number_at(self, key: str, place: str) -> int | None:
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
        out = []
        for number, key in sorted(self._at.get(place, {}).items()):
            if key == TECHNICAL:
                continue
            other = self.other_end(key, place)
            if other is not None:
                out.append((key, self.number_at(key, other) or number, other))
        return tuple(out)

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
