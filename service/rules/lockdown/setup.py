"""Setup: the board laid out, the characters chosen, setup completed (round 1 begins).

Each fact type of the concept is declared here once (``FACT_TYPES``): its spec, its check, its effect. And its
offers (``offers``: the setup step to record now), which ``inputs.next_inputs`` composes with the optional setup
records of the other concepts (objectives, contingency tokens, starting items, the first computer card).
Decision 0029.

    >>> [t.spec.type for t in FACT_TYPES]
    ['BoardPrepared', 'CharacterChosen', 'SetupCompleted']
"""
from __future__ import annotations

from types import MappingProxyType

from service.rules.base import Consequence, Expected, Fact, Violation
from service.rules.kit.builders import consequence as C, violation as V
from service.rules.kit.facts import FactSpec, FactType, field_spec as _f
from service.rules.kit.replace import replace, replace_in
from service.rules.lockdown import mechanics as M, sections as S
from service.rules.lockdown.components import CHARACTERS, ROOMS
from service.rules.lockdown.state import (
    BOARD, CHARACTERS as CHARACTERS_STEP, PLAYER, READY, SETUP, TURNS, LockdownState, who, with_character,
)


# --- checks --------------------------------------------------------------------------------------------------

def check_board_prepared(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.clock.phase != SETUP or state.clock.step != BOARD:
        return [V("setup-order", "The board has already been prepared for this game.", S.SETUP_BOARD)]
    out = []
    if fact.data["board"] != state.board.id:
        out.append(V("board-mismatch", f"This game is set up for the {state.board.id!r} board, not "
                     f"{fact.data['board']!r}.", S.SETUP_BOARD, "board"))
    seen: dict[str, str] = {}
    for place, tile in (fact.data.get("tiles") or {}).items():
        if tile is None:
            continue
        room = ROOMS.resolve(tile)
        kind = state.board.places[place].kind
        if kind != "any" and room.kind != kind:
            out.append(V("tile-kind", f"{room.en} is a {room.kind!r} tile; slot {place} takes a {kind!r} tile.",
                         S.SETUP_BOARD, "tiles"))
        if room.id in seen:
            out.append(V("tile-twice", f"{room.en} cannot lie in both {seen[room.id]} and {place}.",
                         S.SETUP_BOARD, "tiles"))
        seen[room.id] = place
    for place, sector in (fact.data.get("sectors") or {}).items():
        printed = state.board.places[place].sector
        if printed is not None and printed != sector:
            out.append(V("sector-fixed", f"{place} lies in {printed} on this board, not {sector}.", S.SETUP_BOARD,
                         "sectors"))
    return out


def check_character_chosen(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.clock.phase != SETUP:
        return [V("setup-order", "Setup is over; characters can no longer be chosen.", S.SETUP_CHARACTERS)]
    if state.clock.step == BOARD:
        return [V("setup-order", "Characters are chosen after the board is prepared (record BoardPrepared first).",
                  S.SETUP_CHARACTERS)]
    seat = fact.actor
    char = CHARACTERS.resolve(fact.data["character"])
    if state.crew.characters[seat].character is not None:
        return [V("already-chosen", f"{who(state, seat)} has already chosen a character.", S.SETUP_CHARACTERS)]
    taken = {c.character: c.seat for c in state.crew.characters.values() if c.character}
    if char.id in taken:
        return [V("character-taken", f"{char.en} was already chosen by seat {taken[char.id]}; choose another "
                  f"character.", S.SETUP_CHARACTERS, "character")]
    if char.extra.get("origin") != "lockdown" and not state.nemesis_characters:
        return [V("nemesis-character-not-in-play", f"{char.en} is a character of the original Nemesis"
                  f"{' / Aftermath' if char.extra.get('origin') == 'aftermath' else ''}; set the option "
                  f"characters = nemesis to play with them.", S.NEMESIS, "character")]
    number = fact.data.get("player")
    if number is not None:  # help cards 1..n are dealt, 1 each; player 1 chooses first, then 2, … (L1052–1058, L1106–1110)
        if number > len(state.seats):
            return [V("no-such-help-card", f"A {len(state.seats)}-player game uses help cards 1–{len(state.seats)}, "
                      f"not {number}.", S.SETUP_CHARACTERS, "player")]
        holder = next((c.seat for c in state.crew.characters.values() if c.player_number == number), None)
        if holder is not None:
            return [V("help-card-taken", f"Seat {holder} holds help card {number}.", S.SETUP_CHARACTERS, "player")]
        later = [c for c in state.crew.characters.values() if c.player_number and c.player_number > number]
        if later:
            return [V("choice-order", f"Player {number} chooses before player {later[0].player_number} (seat "
                      f"{later[0].seat}), in help-card order.", S.SETUP_CHARACTERS, "player")]
    colour = char.extra.get("colour")
    same = next((c for c in state.crew.characters.values() if c.character in CHARACTERS and colour
                 and CHARACTERS[c.character].extra.get("colour") == colour), None)
    if same is not None:  # each player keeps the selection card of their colour (seed 000 L4569–4572)
        return [V("character-colour-taken", f"{CHARACTERS[same.character].en} (seat {same.seat}) already plays "
                  f"the {colour} character; only 1 character per colour.", S.NEMESIS, "character")]
    return []


def check_setup_completed(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.clock.phase != SETUP:
        return [V("setup-order", "Setup was already completed.", S.SETUP_FIRST_PLAYER)]
    if state.clock.step != READY:
        missing = [str(s) for s in state.seats if state.crew.characters[s].character is None]
        if state.clock.step == BOARD:
            return [V("setup-order", "Setup is not complete: record BoardPrepared first.", S.SETUP_BOARD)]
        return [V("setup-order", f"Setup is not complete: seats {', '.join(missing)} have not chosen a character.",
                  S.SETUP_CHARACTERS)]
    one = next((s for s in state.seats if state.crew.characters[s].player_number == 1), None)
    first = fact.data.get("first_player")
    if one is not None and first is not None and first != one:
        return [V("first-player-is-player-1", f"Player 1 (seat {one}, help card 1) takes the first player token, "
                  f"not seat {first}.", S.SETUP_FIRST_PLAYER, "first_player")]
    return []

# --- effects -------------------------------------------------------------------------------------------------

def board_prepared(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    rooms = state.ship.rooms.copy()
    placed = []
    for place, tile in (fact.data.get("tiles") or {}).items():
        room = ROOMS.resolve(tile) if tile is not None else None
        if place in rooms and room is not None:
            rooms[place] = replace(rooms[place], tile=room.id)
            placed.append(place)
    for place, sector in (fact.data.get("sectors") or {}).items():  # the table reads the board (rules-gaps.md)
        if place in rooms and rooms[place].sector is None:
            rooms[place] = replace(rooms[place], sector=sector)
    b = state.board
    label = b.en + (" — synthetic, not the real board" if b.synthetic else "")
    cons.append(C("board-prepared", f"Board prepared: {label}; {len(placed)} room tiles recorded, the rest face "
                  f"down and unknown.", board=b.id, synthetic=b.synthetic, recorded=placed))
    step = state.clock.step
    if state.clock.phase == "setup" and step == "board":
        step = READY if all(c.character for c in state.crew.characters.values()) else CHARACTERS_STEP
    return replace_in(replace_in(state, "ship", rooms=MappingProxyType(rooms)), "clock", step=step)


def character_chosen(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    seat = fact.actor
    char = CHARACTERS.resolve(fact.data["character"])
    start = state.board.fixed_rooms.get(char.start_room)
    state = with_character(state, seat, character=char.id, room=start, knowledge=char.knowledge,
                           player_number=fact.data.get("player"))
    cons.append(C("character-placed", f"{who(state, seat)} starts in {state.room_label(start)} with knowledge "
                  f"{char.knowledge}.", seat=seat, room=start))
    if state.clock.phase == "setup" and state.clock.step != "board" and all(c.character for c in state.crew.characters.values()):
        state = replace_in(state, "clock", step=READY)
    return state


def setup_completed(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    if state.clock.phase != "setup":
        cons.append(C("ignored", "Setup was already completed; nothing changes."))
        return state
    first = fact.data.get("first_player") or next(  # "player 1 takes the first player token" (seed 000 L1155)
        (s for s in state.seats if state.crew.characters[s].player_number == 1), state.seats[0])
    held = sum(len(state.crew.characters[s].contingency) for s in state.seats)
    pool = ("unknown",) * max(0, 7 - 1 - held)
    state = replace_in(replace_in(state, "clock", phase=PLAYER, step=TURNS, round=1, first_player=first, turn=first,
                                  last_turn=None), "secrets", pool=pool)
    cons.append(C("round-started", f"Round 1 begins; {who(state, first)} has the first player token.", round=1))
    return M.refill_hands(state, cons)

# --- offers (what next_inputs proposes at setup; inputs composes them with the other concepts' setup records) --

def offers(state: LockdownState) -> list[Expected]:
    """The setup step to record now: the board, each seat's character (of a colour nobody holds), setup
    completed (after the optional records of the other concepts, ``inputs``)."""
    if state.clock.phase != SETUP:
        return []
    if state.clock.step == BOARD:
        return [Expected("BoardPrepared", None, {"board": [state.board.id], "tiles": None},
                         "lay out the board; record the room tiles per slot if the table knows them")]
    if state.clock.step == CHARACTERS_STEP:
        taken = {c.character for c in state.crew.characters.values() if c.character in CHARACTERS}
        colours = {CHARACTERS[t].extra.get("colour") for t in taken}
        free = [c.id for c in CHARACTERS if c.id not in taken and c.extra.get("colour") not in colours
                and (c.extra.get("origin") == "lockdown" or state.nemesis_characters)]
        return [Expected("CharacterChosen", s, {"character": free}, f"{who(state, s)} chooses a character")
                for s in state.seats if state.crew.characters[s].character is None]
    if state.clock.step == READY:
        return [Expected("SetupCompleted", None, {"first_player": list(state.seats)},
                         "setup done; the first player is the seat holding help card 1")]
    return []


# --- the declarations --------------------------------------------------------------------------------------

_SPECS = (
    FactSpec("BoardPrepared", "table",
             "The main board is laid out: which board and, if the table knows them, the room tiles in the slots.",
             (_f("board", "board", "board file id: 'basic' (the real board), 'mars' (its alternative side, "
                  "lockdown.md §12.5) or 'synthetic' (test board only)"),
              _f("tiles", "tiles", "optional map slot → room tile (id or name) or null when face down and unknown", False),
              _f("sectors", "sectors", "optional map room space → sector (S-01, S-02, S-03) where the board file does "
                 "not know it (the basic side's random slots): darkness and power are then derived there", False)),
             {"board": "basic", "tiles": {"slot-04": "archive", "slot-05": None}}, S.SETUP_BOARD),
    FactSpec("CharacterChosen", "seat",
             "A player chose their character; the figure goes to its start room.",
             (_f("character", "character", "character id or name"),
              _f("player", "player_number", "the number on the player's help card (player 1, 2, …), which sets the "
                 "choice order and names 'player X' on objective cards (seed 000 L1052–1058)", False)),
             {"character": "survivor"}, S.SETUP_CHARACTERS),
    FactSpec("SetupCompleted", "table",
             "Setup is over; round 1 begins and every player draws up to 5 (6 in the Isolation Room).",
             (_f("first_player", "seat", "the seat holding the first player token (player 1); default: lowest seat", False),),
             {}, S.SETUP_FIRST_PLAYER),
)
_CHECKS = (check_board_prepared, check_character_chosen, check_setup_completed)
_EFFECTS = (board_prepared, character_chosen, setup_completed)
FACT_TYPES: tuple[FactType, ...] = tuple(FactType(*t) for t in zip(_SPECS, _CHECKS, _EFFECTS))
SPECS = tuple(t.spec for t in FACT_TYPES)
RULES = {t.spec.type: t.check for t in FACT_TYPES}
EFFECTS = {t.spec.type: t.effect for t in FACT_TYPES}
