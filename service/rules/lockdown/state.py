"""The state of a Lockdown game: plain, immutable data.

Every change makes a new object with ``replace`` (service/rules/kit/replace.py); unchanged parts (the board,
other rooms, other characters) are shared between the old and the new state, so folding a
long game copies only small mappings.

    >>> from service.rules.base import Seat, Setup
    >>> s = initial_state(Setup(players=(Seat(1, "Ann"),)))
    >>> s.phase, s.round, s.time_label
    ('setup', 0, '15')
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter

from service.rules.kit.replace import copied, entry_changed, fast_init, replace, replace_in
from service.rules.kit.snapshot import SubState
from types import MappingProxyType
from typing import Any, Callable, Mapping

from service.i18n import N_, _ as _t
from service.rules.base import Setup
from service.rules.lockdown.board import Board
from service.rules.lockdown.components import CHARACTERS as CHARACTER_CARDS, COLONY, ROOMS, board as load_board

MODES = ("standard", "solo", "coop")
MIN_PLAYERS, MAX_PLAYERS = 1, 5
# setup options of the variants (first value = default): characters of the original Nemesis may join
# (lockdown.md §12.4; seed 000 L4554–4602); Nemesis intruders replace the night stalkers
# (§12.6; L4752–4796); the order of the attacks on an escaping character (seed 000 L3038–3039 says only
# "separately"; lockdown_cz.md L867 "in any order"): largest stalker first, or as the table chooses
# (docs/rules-gaps.md)
VARIANTS = {"characters": ("lockdown", "nemesis"), "intruders": ("night_stalkers", "nemesis"),
            "escape_order": ("largest_first", "any"),
            # a fact the rules do not derive must be warranted or name its cause (warrants.py; decision 0039)
            "warrants": ("required", "unchecked")}
# the options a new game's form offers (Ruleset.setup_form): title, then (value, label), the default first;
# the board side (the alternative Mars side: lockdown.md §12.5, seed 000 L4603) and the two variants above
SETUP_FORM_OPTIONS = {
    "board": (N_("Board side"), (("basic", N_("Basic side")), ("mars", N_("Mars side")))),
    "characters": (N_("Characters"), (("lockdown", N_("Lockdown characters")),
                                       ("nemesis", N_("+ original Nemesis characters")))),
    "intruders": (N_("Intruder figures"), (("night_stalkers", N_("Night stalkers")),
                                           ("nemesis", N_("Nemesis intruders")))),
}
# stalker kinds from the largest (queen) to the smallest (larva): the escape attack order (lockdown.md §1.6)
SIZE_ORDER = ("queen", "breeder", "adult", "creeper", "larva")
HAND_SIZE = 5

# phases
SETUP, PLAYER, EVENT, ENDED = "setup", "player", "event", "ended"

# steps, in order (lockdown.md §3 and §4)
BOARD, CHARACTERS, READY = "board", "characters", "ready"
FIRST_PLAYER, TURNS = "first_player", "turns"
CSS, TIME, NOISE_CLEANUP, ATTACKS, EVENT_CARD, COLONY_STEP, ROUND_END = (
    "css_launch", "time", "noise_cleanup", "attacks", "event_card", "colony", "round_end")

# where a character is (CharacterState.status)
IN_BASE, IN_POD, LOCKED_IN, IN_BUNKER, EVACUATED, DEAD = "base", "pod", "isolation", "bunker", "evacuated", "dead"
GONE = (LOCKED_IN, IN_BUNKER, EVACUATED, DEAD)  # no longer playing
DECK_SIZE = 10  # own action deck (lockdown.md §8.2)
FIRE_MARKERS, MALFUNCTION_MARKERS, DOOR_TOKENS, EGG_TOKENS = 12, 10, 11, 8  # lockdown.md §1.3
POWER_LOCATIONS = ("S-01", "S-02", "S-03", "elevator")


TABLE_PENDING = ("attack", "injury_check", "retreat")  # sub-steps the table records (actor None)


def frozen(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(mapping))




def _english(tile: Any) -> str:
    """A room tile's English name: the rules' own messages name rooms so (:meth:`LockdownState.room_label`)."""
    return tile.en

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


@fast_init  # made at many facts: its dict set at once (kit/replace.py; decision 0049)
@dataclass(frozen=True)
class Item:
    """An item card a character holds: in a hand (heavy items) or in the backpack."""

    name: str
    colour: str | None = None  # red, yellow, green, blue (crafted), starting, quest
    where: str = "backpack"  # "hand" or "backpack"
    ammo: int | None = None  # ammo or use markers on it, if any


@fast_init  # made at many facts: its dict set at once (kit/replace.py; decision 0049)
@dataclass(frozen=True)
class ItemDeck:
    """A red, yellow or green item deck as far as the table knows it (seed 000 L3591–3595, L3686–3687, L3849–3852).

    The deck is shuffled at setup, so only the cards put on its bottom since (the card not kept on Search, items
    lost or discarded for another reason than their use) are known, in order. ``bottom`` lists them from the
    top-most to the bottom card, ``None`` for a card put there unnamed; the ``cards - len(bottom)`` cards above
    them are unknown. ``discard`` is the face-up discard pile (items discarded after their use), oldest first."""

    cards: int = 30  # gaps_filled.md §9: red, yellow and green decks of 30 cards
    bottom: tuple[str | None, ...] = ()
    discard: tuple[str | None, ...] = ()
    reshuffles: int = 0


@fast_init  # made at many facts: its dict set at once (kit/replace.py; decision 0049)
@dataclass(frozen=True)
class SeriousWound:
    card: str | None = None  # the serious wound card, if the table named it
    dressed: bool = False


@dataclass(frozen=True)
class CharacterState:
    seat: int
    character: str | None = None
    room: str | None = None  # place id (None unless status is "base")
    hand: int = 0  # cards in hand (action and contamination cards)
    knowledge: int = 0
    passed: bool = False
    actions: int = 0  # actions taken in the current turn
    slime: bool = False
    status: str = IN_BASE  # base, pod, isolation, bunker, evacuated, dead
    pod: str | None = None  # A, B or C while sitting in a pod
    cause: str | None = None  # death cause
    player_number: int | None = None  # the help card's number (seed 000 L1052–1058), when recorded
    light: int = 0  # light wounds on the track (0–2)
    serious: tuple[SeriousWound, ...] = ()
    deck: int = DECK_SIZE
    discard: int = 0
    contamination: int = 0  # contamination cards owned (deck, hand or discard)
    infected: int = 0  # of them, scanned and known INFECTED (kept)
    clean: int = 0  # of them, scanned and known clean
    larva: bool = False
    signal: bool = False
    knowledge_active: bool = False
    items: tuple[Item, ...] = ()
    objects: tuple[str, ...] = ()  # heavy objects carried in hands: egg, carcass, corpse:<seat>
    objectives: tuple[str, ...] = ()  # dealt objective cards (names, or "unknown")
    objective: str | None = None  # the objective kept at the first encounter
    contingency: tuple[str, ...] = ()  # contingency tokens held ("unknown" until revealed)
    fire_hurt: bool = False  # took its fire wound for passing this round
    first_turn_done: bool = False  # the character's first turn of this round is over (faq_lockdown.md 7)
    moves: int = 0  # Movement actions (move / careful move) taken this round
    was: str | None = None  # where the character was when it died (base, pod, isolation)
    scan_infected: bool | None = None  # final scan step A
    final_draw: tuple[str, ...] | None = None  # final scan step B
    bunker_via: str | None = None

    @property
    def in_play(self) -> bool:
        return self.status == IN_BASE and self.room is not None

    @property
    def hands_used(self) -> int:
        return len(self.objects) + sum(1 for i in self.items if i.where == "hand")


@fast_init  # made at many facts: its dict set at once (kit/replace.py; decision 0049)
@dataclass(frozen=True)
class Intruder:
    id: str
    kind: str
    room: str
    injuries: int = 0


@fast_init  # made at many facts: its dict set at once (kit/replace.py; decision 0049)
@dataclass(frozen=True)
class Pending:
    """A sub-step the rules demand before play goes on (exploration, noise roll, encounter)."""

    kind: str  # "explore", "noise", "encounter", "attack", "injury_check", "retreat", "finish"
    seat: int | None
    room: str
    reason: str = ""
    empty: bool = True  # explore: was the room empty when entered?
    careful: bool = False  # explore: entered by a careful move
    via: str | None = None  # explore: the corridor key the character came through
    intruder: str | None = None  # attack / injury_check / retreat: the intruder concerned


# --- the state in named sub-states (decision 0042) ----------------------------------------------------------
# Each group of fields belongs mostly to one concept module; a change replaces the sub-state and the state
# (``replace_in(state, "clock", round=2)``: inside ``apply`` both are private drafts, copied once and then changed
# in place). The snapshot (kit/snapshot.py) merges a sub-state's fields into the state's, so the fixed corpus's
# digests do not see the grouping.


@dataclass(frozen=True)
class Clock(SubState):
    """Whose turn it is and where the round stands (turns.py; the time track: event_phase.py; the sub-steps
    still to record: movement.py and combat.py)."""

    phase: str = SETUP
    step: str = BOARD
    round: int = 0
    first_player: int = 1
    turn: int | None = None
    last_turn: int | None = None  # whose turn ended last, and whether with 2 actions (for "third action")
    time: int = 0  # index into board.time_spaces (0 = "15")
    pending: tuple[Pending, ...] = ()
    last_actor: int | None = None  # who recorded the last action (for reactions)
    # seats that may still make their one free craft after another character's Repository craft action
    # (faq_lockdown.md 15); cleared by the next action
    free_crafts: tuple[int, ...] = ()


@dataclass(frozen=True)
class Ship(SubState):
    """The base as a place: rooms (with their fire and malfunction markers), noise, doors, power, what lies on
    the floor (movement.py, systems.py)."""

    rooms: Mapping[str, RoomState]
    noise: frozenset[str] = frozenset()
    doors: frozenset[str] = frozenset()  # corridors with a closed door
    destroyed_doors: frozenset[str] = frozenset()
    objects: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))  # heavy objects on the floor
    power: Mapping[str, tuple[int, bool]] = field(default_factory=lambda: MappingProxyType({}))  # location → (token, on)
    emergency_power: bool = False  # time token side: blue (active) / red (inactive)
    elevator: str | None = None  # sector the elevator token is next to (None: next to the board)
    isolation_open: bool = False
    ventilation: str | None = None


@dataclass(frozen=True)
class Crew(SubState):
    """The characters (condition.py, and every concept that changes one)."""

    characters: Mapping[int, CharacterState]
    first_death: bool = False


@dataclass(frozen=True)
class Colony(SubState):
    """The night stalkers: figures on the board, the colony bag and the tokens beside it, the nest (combat.py,
    event_phase.py)."""

    intruders: tuple[Intruder, ...] = ()
    intruder_serial: int = 0
    bag: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # colony bag contents
    supply: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # stalker tokens next to the board, not yet in the bag
    eggs: int = 0
    first_encounter: bool = False  # milestone: a night stalker figure has appeared
    carcasses: int = 0  # carcass tokens on the board or carried
    queen_killed: bool = False
    nest_destroyed: bool = False


@dataclass(frozen=True)
class Systems(SubState):
    """The base's systems: self-destruct, alarm, escape pods and CSS tokens, the gate, the rover (systems.py,
    rooms.py, event_phase.py)."""

    self_destruct: tuple[str, int] | None = None  # ("yellow"|"red", time index)
    alarm: int | None = None  # time index of the alarm procedure token
    pods: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # pod letter → seat
    css_at: frozenset[Any] = frozenset()  # time spaces with a CSS token under them
    css_known: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))  # time index → peeked face
    launches: tuple[str, ...] = ()  # CSS tokens revealed, in order
    gate_open: bool = False
    gate_reason: str | None = None
    rover: str = "exit"  # exit, bunker or away


@dataclass(frozen=True)
class Research(SubState):
    """What the crew learnt: the intruders' weaknesses and the computer's card (rooms.py)."""

    weaknesses: tuple[bool, bool, bool] = (True, False, False)  # revealed per slot (knowledge 3 / 5 / 8)
    weakness_names: tuple[str | None, str | None, str | None] = (None, None, None)
    researched: tuple[str, ...] = ()  # object types that revealed a weakness
    computer_card: str | None = None


@dataclass(frozen=True)
class Decks(SubState):
    """The decks the table draws from: events and the red, yellow and green items (event_phase.py, items.py)."""

    removed_events: frozenset[str] = frozenset()
    last_event_card: str | None = None
    # the red, yellow and green item decks and their discard piles (ItemDeck); a colour not listed is untouched
    item_decks: Mapping[str, ItemDeck] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Secrets(SubState):
    """The neutral contingency tokens (hidden_information.py; objectives are the characters')."""

    active_contingency: str = "unknown"
    pool: tuple[str, ...] = ()  # the neutral pool of contingency tokens ("unknown" until revealed)
    revealed_pool: tuple[str, ...] = ()  # co-op: neutral tokens revealed to all


@dataclass(frozen=True)
class End(SubState):
    """How the game ended (endgame.py)."""

    ended: bool = False
    ending: str | None = None
    ending_note: str = ""
    end_effects: str | None = None  # the end-of-game effects applied (time_out, alarm_procedure, base_destroyed)


@dataclass(frozen=True)
class Record(SubState):
    """What was not recorded (docs/decisions/0018; unknowns.py, coarse_record.py): table values recorded as
    "unknown" ("round 2: NoiseRolled.result (seat 1)") and gaps of a coarse record (round the gap began, round
    recorded next, time label given or None)."""

    unknowns: tuple[str, ...] = ()
    gaps: tuple[tuple[int, int, str | None], ...] = ()


SUB_STATES = {"clock": Clock, "ship": Ship, "crew": Crew, "colony": Colony, "systems": Systems,
              "research": Research, "decks": Decks, "secrets": Secrets, "end": End, "record": Record}


@dataclass(frozen=True)
class LockdownState:
    """The whole state: what set-up fixed (setup, board, seats) and the named sub-states.

    *Compatibility form* (decision 0042): every field of a sub-state can still be read under its old flat name
    (``state.round`` is ``state.clock.round``, ``state.characters`` is ``state.crew.characters``), and
    ``kit.replace(state, round=2)`` still replaces it (routed to its sub-state). Rules code reads and writes
    through the sub-states."""

    setup: Setup
    board: Board
    seats: tuple[int, ...]
    ship: Ship
    crew: Crew
    facts: int = 0  # facts folded so far
    # the action just recorded, which an Interruption may still cancel (turns.Undo: the fact and the state before
    # it); None after any other fact (decision 0038)
    interruptible: Any = None
    clock: Clock = Clock()
    colony: Colony = Colony()
    systems: Systems = Systems()
    research: Research = Research()
    decks: Decks = Decks()
    secrets: Secrets = Secrets()
    end: End = End()
    record: Record = Record()

    # --- reading helpers -----------------------------------------------------------

    @property
    def time_label(self) -> str:
        return self.board.time_label(self.clock.time)

    @property
    def time_space(self) -> Any:
        return self.board.time_spaces[min(self.clock.time, len(self.board.time_spaces) - 1)]

    def player_order(self) -> tuple[int, ...]:
        """Seats in player order: the first player, then clockwise (lockdown.md §4 step 2)."""
        i = self.seats.index(self.clock.first_player) if self.clock.first_player in self.seats else 0
        return self.seats[i:] + self.seats[:i]

    def left_of(self, seat: int) -> int:
        i = self.seats.index(seat) if seat in self.seats else 0
        return self.seats[(i + 1) % len(self.seats)]

    def next_first_player(self) -> int:
        """Who receives the first player token: the next seat on the left whose character is still in the base.

        Observers (dead, locked in, evacuated, in the Bunker, sitting in a pod) take no further part in the
        game (seed 000 L1682-1686), so the token skips them (docs/rules-gaps.md); with nobody left in the base
        it goes to the plain left neighbour.
        """
        i = self.seats.index(self.clock.first_player) if self.clock.first_player in self.seats else 0
        for k in range(1, len(self.seats) + 1):
            s = self.seats[(i + k) % len(self.seats)]
            if self.crew.characters[s].status == "base":
                return s
        return self.left_of(self.clock.first_player)

    def room_of_tile(self, room_id: str) -> str | None:
        for place, r in self.ship.rooms.items():
            if r.tile == room_id:
                return place
        return None

    def characters_in(self, place: str) -> tuple[int, ...]:
        return tuple([c.seat for c in self.crew.characters.values() if c.room == place and c.status == IN_BASE])

    def in_base(self) -> tuple[int, ...]:
        """Seats whose character is still in the base (rooms or unlaunched pods)."""
        return tuple(s for s in self.seats if self.crew.characters[s].character and
                     self.crew.characters[s].status in (IN_BASE, IN_POD))

    def fires(self) -> int:
        return sum(1 for r in self.ship.rooms.values() if r.fire)

    def malfunctions(self) -> int:
        return sum(1 for r in self.ship.rooms.values() if r.malfunction)

    def sector_of(self, place: str | None) -> str | None:
        """The sector of a room space: the board file's, or the one the table recorded (BoardPrepared.sectors)."""
        r = self.ship.rooms.get(place) if place else None
        if r is not None and r.sector:
            return r.sector
        p = self.board.places.get(place) if place else None
        return p.sector if p else None

    def powered(self, location: str | None) -> bool | None:
        """Is the sector (or "elevator") powered? None when the sector is unknown."""
        if location is None or location not in self.ship.power:
            return None
        return self.ship.power[location][1]

    def dark(self, place: str | None) -> bool:
        """In darkness: an unpowered sector or an emergency staircase (lockdown.md §9.3, §2.4)."""
        if place is None:
            return False
        r = self.ship.rooms.get(place)
        if r is not None and r.tile and ROOMS[r.tile].extra.get("always_dark"):
            return True
        return self.powered(self.sector_of(place)) is False

    def hands_of(self, seat: int) -> int:
        return self.crew.characters[seat].hands_used

    def intruders_in(self, place: str) -> tuple[Intruder, ...]:
        return tuple([i for i in self.colony.intruders if i.room == place])

    def in_combat(self, seat: int) -> bool:
        c = self.crew.characters.get(seat)
        return bool(c and c.room and self.intruders_in(c.room))

    def room_label(self, place: str | None, name: Callable[[Any], str] | None = None) -> str:
        """The room on ``place`` as the table calls it. English by default: the rules' own messages and
        consequences use it, and a fold must not depend on a reader's language (decision 0019); pages
        pass ``name=names.local``, and then the words around the name are in the page's language too."""
        if name is None:  # the rules' own English label: kept per what it depends on (decision 0049)
            r = self.ship.rooms.get(place) if place is not None else None
            if r is None:
                return "nowhere" if place is None else place
            key = (place, r.tile, r.explored, r.kind)
            label = _LABELS.get(key)
            if label is None:
                label = _LABELS[key] = self._room_label(place, r, None)
            return label
        if place is None:
            return _t("nowhere")
        r = self.ship.rooms.get(place)
        if r is None:
            return place
        return self._room_label(place, r, name)

    def _room_label(self, place: str, r: RoomState, name: Callable[[Any], str] | None) -> str:
        words = (lambda text: text) if name is None else _t
        name = name or _english
        if r.tile and (r.explored or r.kind == "special"):
            return name(ROOMS[r.tile])
        if r.tile:
            return words("%(place)s (unexplored: %(room)s)") % {"place": place, "room": name(ROOMS[r.tile])}
        if r.kind == "crossroad":
            return place if r.explored else words("%(place)s (unexplored)") % {"place": place}
        if r.kind == "any":
            return words("%(place)s (unexplored room)") % {"place": place}
        return words("%(place)s (unexplored %(kind)s)") % {"place": place, "kind": r.kind}

    @property
    def nemesis_characters(self) -> bool:
        """Characters of the original Nemesis / Aftermath may be chosen (lockdown.md §12.4)."""
        return (self.setup.options or {}).get("characters") == "nemesis"

    @property
    def nemesis_intruders(self) -> bool:
        """Intruders of the original Nemesis replace the night stalkers (lockdown.md §12.6)."""
        return (self.setup.options or {}).get("intruders") == "nemesis"

    def acting(self) -> int | None:
        if self.end.ended:
            return None
        if self.clock.pending:
            return self.clock.pending[0].seat if self.clock.pending[0].kind not in TABLE_PENDING else None
        if self.clock.phase == PLAYER and self.clock.step == FIRST_PLAYER:
            return self.clock.first_player
        if self.clock.phase == PLAYER:
            return self.clock.turn
        if self.clock.phase == SETUP and self.clock.step == CHARACTERS:
            return next((s for s in self.seats if self.crew.characters[s].character is None), None)
        return None

# room_label's English labels by (place, tile, explored, kind): a few hundred at most (the boards' places and tiles)
_LABELS: dict[tuple[Any, ...], str] = {}

# the compatibility form: each sub-state field readable under its old flat name, and kit.replace's routing of it
FLAT_NAMES: Mapping[str, str] = MappingProxyType({f.name: sub for sub, cls in SUB_STATES.items()
                                                  for f in fields(cls)})
LockdownState.__replace_flat__ = FLAT_NAMES  # type: ignore[attr-defined]
for _name, _sub in FLAT_NAMES.items():
    setattr(LockdownState, _name, property(attrgetter(f"{_sub}.{_name}"),
                                           doc=f"The compatibility form of ``{_sub}.{_name}`` (decision 0042)."))
del _name, _sub
_dataclass_init = LockdownState.__init__


def _init(self: LockdownState, *args: Any, **changes: Any) -> None:
    """The dataclass's ``__init__``, which also takes the old flat names (the compatibility form, so that
    ``LockdownState(..., rooms=…, characters=…)`` and ``dataclasses.replace(state, round=2)`` still work)."""
    groups: dict[str, dict[str, Any]] = {}
    for name in [k for k in changes if k in FLAT_NAMES]:
        groups.setdefault(FLAT_NAMES[name], {})[name] = changes.pop(name)
    for sub, group in groups.items():
        changes[sub] = copied(changes[sub], **group) if sub in changes else SUB_STATES[sub](**group)
    _dataclass_init(self, *args, **changes)


LockdownState.__init__ = _init  # type: ignore[method-assign]


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
    opts = setup.options or {}
    from service.rules.lockdown.scoring import settings_from
    settings_from(opts)  # a bad scoring setting is refused with the game, not at its end
    for key, allowed in VARIANTS.items():
        if opts.get(key, allowed[0]) not in allowed:
            raise ValueError(f"Unknown {key} option {opts[key]!r}; expected one of {', '.join(allowed)}.")
    if not isinstance(opts.get("after_the_fact", False), bool):  # decision 0018
        raise ValueError(f"Option after_the_fact must be true or false, not {opts['after_the_fact']!r}.")
    board_id = opts.get("board", "basic")
    try:
        b = load_board(board_id)
    except FileNotFoundError:
        raise ValueError(f"Unknown board {board_id!r}.") from None
    # copied(): objects with a dict of their own, as every later version has (kit/replace.py; decision 0042)
    rooms = {
        p.id: copied(RoomState(place=p.id, kind=p.kind, sector=p.sector, tile=p.room, explored=p.room is not None))
        for p in b.places.values()
    }
    bag = dict(COLONY["bag_at_start"])
    bag["adult"] = bag.get("adult", 0) + COLONY["adults_added_per_player"] * len(seats)
    state = LockdownState(
        setup=setup,
        board=b,
        seats=seats,
        ship=Ship(rooms=frozen(rooms),
                  power=frozen({loc: (n, n <= 2) for n, loc in enumerate(POWER_LOCATIONS, start=1)})),
        crew=Crew(characters=frozen({s: CharacterState(seat=s) for s in seats})),
        clock=Clock(first_player=seats[0]),
        colony=Colony(bag=frozen(bag), supply=frozen({t: n - bag.get(t, 0) for t, n in COLONY["tokens_in_box"].items()}),
                      eggs=COLONY["eggs_in_nest_at_start"]),
        systems=Systems(css_at=frozenset(b.css_spaces)),
        # Nemesis intruders: "3 losowe zakryte karty słabości" — the first one is face down too (seed 000 L4777, L4794–4795)
        research=Research(weaknesses=(False, False, False) if opts.get("intruders") == "nemesis" else (True, False, False)),
    )
    return copied(state, **{sub: copied(getattr(state, sub)) for sub in SUB_STATES})

def who(state: LockdownState, seat: int | None) -> str:
    """A seat as messages name it: ``seat 2 (Ann, Scientist)``; None is the table."""
    if seat is None:
        return "the table"
    c = state.crew.characters.get(seat)
    names, labels = _seat_names(state.setup)
    key = (seat, c.character if c is not None else None)
    try:
        return labels[key]
    except (KeyError, TypeError):  # not asked yet (TypeError: a value that is no key; answered, not kept)
        pass
    name = names.get(seat, "")
    char = f", {CHARACTER_CARDS[c.character].en}" if c and c.character in CHARACTER_CARDS else ""
    label = f"seat {seat} ({name}{char})" if name else f"seat {seat}{char}"
    try:
        labels[key] = label
    except TypeError:
        pass
    return label


_last_names: tuple[Any, Mapping[int, str], dict] = (None, {}, {})  # the last setup asked about, its seats' names, labels


def _seat_names(setup: Setup) -> tuple[Mapping[int, str], dict]:
    """The seats' names of ``setup`` and ``who``'s labels so far, by (seat, character); the last setup's are kept (a
    fold asks about one game many times), as one tuple so that threads folding other games at the same time never
    see one game's setup with another's names."""
    global _last_names
    last = _last_names
    if last[0] is setup:
        return last[1], last[2]
    names: dict[int, str] = {}
    for p in setup.players:
        names.setdefault(p.seat, p.name)  # the first player of a seat, as a search in seat order finds
    labels: dict = {}
    _last_names = (setup, names, labels)
    return names, labels


def find_object(objects: tuple[str, ...], kind: Any) -> str | None:
    """The first heavy object of that kind (``corpse`` matches ``corpse:<seat>``) among ``objects``."""
    return next((o for o in objects if o.split(":")[0] == kind), None)


def intruder(state: LockdownState, iid: str | None) -> Intruder | None:
    return next((i for i in state.colony.intruders if i.id == iid), None)


def with_room(state: LockdownState, place: str, **changes: Any) -> LockdownState:
    """The state with the room on ``place`` changed. Inside ``apply``'s draft the room and the rooms mapping are
    copied at their first change and changed in place after it (kit ``replace_entry``; decision 0049): a room read
    before the change is that room after it if it was already changed in the same ``apply``."""
    return entry_changed(state, "ship", "rooms", place, changes)


def with_character(state: LockdownState, seat: int, **changes: Any) -> LockdownState:
    """The state with the character of ``seat`` changed; inside ``apply``'s draft, changed in place after its first
    change (as ``with_room``; decision 0049)."""
    return entry_changed(state, "crew", "characters", seat, changes)


def with_characters(state: LockdownState, changes: Mapping[int, Mapping[str, Any]]) -> LockdownState:
    for seat, ch in changes.items():
        state = entry_changed(state, "crew", "characters", seat, dict(ch))
    return state
