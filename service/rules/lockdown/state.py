"""The state of a Lockdown game: plain, immutable data.

Every change makes a new object with ``dataclasses.replace``; unchanged parts (the board,
other rooms, other characters) are shared between the old and the new state, so folding a
long game copies only small mappings.

    >>> from service.rules.base import Seat, Setup
    >>> s = initial_state(Setup(players=(Seat(1, "Ann"),)))
    >>> s.phase, s.round, s.time_label
    ('setup', 0, '15')
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Mapping

from service.rules.base import Setup
from service.rules.lockdown.board import Board
from service.rules.lockdown.components import COLONY, ROOMS, board as load_board

MODES = ("standard", "solo", "coop")
MIN_PLAYERS, MAX_PLAYERS = 1, 5
HAND_SIZE = 5

# phases
SETUP, PLAYER, EVENT, ENDED = "setup", "player", "event", "ended"

# steps, in order (lockdown.md §3 and §4)
BOARD, CHARACTERS, READY = "board", "characters", "ready"
FIRST_PLAYER, TURNS = "first_player", "turns"
CSS, TIME, NOISE_CLEANUP, EVENT_CARD, COLONY_STEP, ROUND_END = (
    "css_launch", "time", "noise_cleanup", "event_card", "colony", "round_end")


def frozen(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class RoomState:
    """A place on the board and what lies there."""

    place: str
    kind: str  # "I", "II" or "special"
    sector: str | None
    tile: str | None = None  # room id, once known (fixed rooms, recorded at setup, or revealed)
    explored: bool = False
    token: Mapping[str, Any] | None = None  # the exploration token revealed here
    items: int | None = None  # item counter
    fire: bool = False
    malfunction: bool = False


@dataclass(frozen=True)
class CharacterState:
    seat: int
    character: str | None = None
    room: str | None = None  # place id
    hand: int = 0
    knowledge: int = 0
    passed: bool = False
    actions: int = 0  # actions taken in the current turn
    slime: bool = False


@dataclass(frozen=True)
class Intruder:
    id: str
    kind: str
    room: str


@dataclass(frozen=True)
class Pending:
    """A sub-step the rules demand before play goes on (exploration, noise roll, encounter)."""

    kind: str  # "explore", "noise", "encounter"
    seat: int
    room: str
    reason: str = ""
    empty: bool = True  # explore: was the room empty when entered?
    careful: bool = False  # explore: entered by a careful move
    via: str | None = None  # explore: the corridor key the character came through


@dataclass(frozen=True)
class LockdownState:
    setup: Setup
    board: Board
    seats: tuple[int, ...]
    rooms: Mapping[str, RoomState]
    characters: Mapping[int, CharacterState]
    phase: str = SETUP
    step: str = BOARD
    round: int = 0
    first_player: int = 1
    turn: int | None = None
    last_turn: int | None = None  # whose turn ended last, and whether with 2 actions (for "third action")
    time: int = 0  # index into board.time_spaces (0 = "15")
    isolation_open: bool = False
    noise: frozenset[str] = frozenset()
    doors: frozenset[str] = frozenset()  # corridors with a closed door
    intruders: tuple[Intruder, ...] = ()
    intruder_serial: int = 0
    bag: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # colony bag contents
    supply: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # stalker tokens next to the board, not yet in the bag
    eggs: int = 0
    first_encounter: bool = False  # milestone: a night stalker figure has appeared
    removed_events: frozenset[str] = frozenset()
    pending: tuple[Pending, ...] = ()
    last_event_card: str | None = None
    ended: bool = False
    ending: str | None = None
    ending_note: str = ""
    facts: int = 0  # facts folded so far

    # --- reading helpers -----------------------------------------------------------

    @property
    def time_label(self) -> str:
        return self.board.time_label(self.time)

    @property
    def time_space(self) -> Any:
        return self.board.time_spaces[min(self.time, len(self.board.time_spaces) - 1)]

    def player_order(self) -> tuple[int, ...]:
        """Seats in player order: the first player, then clockwise (lockdown.md §4 step 2)."""
        i = self.seats.index(self.first_player) if self.first_player in self.seats else 0
        return self.seats[i:] + self.seats[:i]

    def left_of(self, seat: int) -> int:
        i = self.seats.index(seat) if seat in self.seats else 0
        return self.seats[(i + 1) % len(self.seats)]

    def room_of_tile(self, room_id: str) -> str | None:
        for place, r in self.rooms.items():
            if r.tile == room_id:
                return place
        return None

    def characters_in(self, place: str) -> tuple[int, ...]:
        return tuple(c.seat for c in self.characters.values() if c.room == place)

    def intruders_in(self, place: str) -> tuple[Intruder, ...]:
        return tuple(i for i in self.intruders if i.room == place)

    def in_combat(self, seat: int) -> bool:
        c = self.characters.get(seat)
        return bool(c and c.room and self.intruders_in(c.room))

    def room_label(self, place: str | None) -> str:
        if place is None:
            return "nowhere"
        r = self.rooms.get(place)
        if r is None:
            return place
        if r.tile and (r.explored or r.kind == "special"):
            return ROOMS[r.tile].en
        if r.tile:
            return f"{place} (unexplored: {ROOMS[r.tile].en})"
        return f"{place} (unexplored {r.kind})"

    def acting(self) -> int | None:
        if self.ended:
            return None
        if self.pending:
            return self.pending[0].seat
        if self.phase == PLAYER and self.step == FIRST_PLAYER:
            return self.first_player
        if self.phase == PLAYER:
            return self.turn
        if self.phase == SETUP and self.step == CHARACTERS:
            return next((s for s in self.seats if self.characters[s].character is None), None)
        return None


def initial_state(setup: Setup) -> LockdownState:
    """The state before the first fact: seats taken, board side known, nothing placed."""
    seats = tuple(sorted(p.seat for p in setup.players))
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise ValueError(f"Nemesis: Lockdown is played by {MIN_PLAYERS}–{MAX_PLAYERS} players, not {len(seats)}.")
    if len(set(seats)) != len(seats) or any(not isinstance(s, int) or s < 1 for s in seats):
        raise ValueError("Seats must be distinct numbers from 1 (clockwise).")
    if setup.mode not in MODES:
        raise ValueError(f"Unknown mode {setup.mode!r}; expected one of {', '.join(MODES)}.")
    if setup.mode == "solo" and len(seats) != 1:
        raise ValueError("Solo mode has exactly 1 player.")
    board_id = (setup.options or {}).get("board", "basic")
    try:
        b = load_board(board_id)
    except FileNotFoundError:
        raise ValueError(f"Unknown board {board_id!r}.") from None
    rooms = {
        p.id: RoomState(place=p.id, kind=p.kind, sector=p.sector, tile=p.room, explored=p.room is not None)
        for p in b.places.values()
    }
    bag = dict(COLONY["bag_at_start"])
    bag["adult"] = bag.get("adult", 0) + COLONY["adults_added_per_player"] * len(seats)
    return LockdownState(
        setup=setup,
        board=b,
        seats=seats,
        rooms=frozen(rooms),
        characters=frozen({s: CharacterState(seat=s) for s in seats}),
        first_player=seats[0],
        bag=frozen(bag),
        supply=frozen({t: n - bag.get(t, 0) for t, n in COLONY["tokens_in_box"].items()}),
        eggs=COLONY["eggs_in_nest_at_start"],
    )


def with_room(state: LockdownState, place: str, **changes: Any) -> LockdownState:
    rooms = dict(state.rooms)
    rooms[place] = replace(rooms[place], **changes)
    return replace(state, rooms=MappingProxyType(rooms))


def with_character(state: LockdownState, seat: int, **changes: Any) -> LockdownState:
    chars = dict(state.characters)
    chars[seat] = replace(chars[seat], **changes)
    return replace(state, characters=MappingProxyType(chars))


def with_characters(state: LockdownState, changes: Mapping[int, Mapping[str, Any]]) -> LockdownState:
    chars = dict(state.characters)
    for seat, ch in changes.items():
        chars[seat] = replace(chars[seat], **ch)
    return replace(state, characters=MappingProxyType(chars))
