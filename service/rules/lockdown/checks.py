"""Rule checks: is a well-shaped fact legal in this state?

Each check returns Violations that name the rule, say what was wrong and what the table
should record instead, and cite the rulebook. Shape problems come from ``facts.py``.

    >>> from service.rules.base import Fact, Seat, Setup
    >>> from service.rules.lockdown.state import initial_state
    >>> [v.rule for v in check(initial_state(Setup(players=(Seat(1, "A"),))), Fact(1, "TimeAdvanced"))]
    ['setup-not-finished']
"""
from __future__ import annotations

from typing import Callable

from service.rules.base import Fact, Violation
from service.rules.kit.builders import violation
from service.rules.lockdown import sections as S, unknowns
from service.rules.lockdown.board import TECHNICAL
from service.rules.lockdown.components import CHARACTERS, ROOMS
from service.rules.lockdown.facts import (
    AFTER_END, FACTS, MARS_CARD, noise_result, resolve_card, resolve_place, resolve_token, shape_violations,
)
from service.rules.lockdown.turns import (  # noqa: F401 (old paths: checks.ACTIONS, checks.action_cost …)
    ACTIONS, BASIC_COST, MOVE_COST, ROOM_ACTION_COST, STEP_NAMES, action_cost, turn_check,
)
from service.rules.lockdown.state import (
    BOARD, CSS, EVENT, EVENT_CARD, FIRST_PLAYER, NOISE_CLEANUP, PLAYER, READY,
    SETUP, TIME, COLONY_STEP, LockdownState, who,
)

PENDING_FACT = {"explore": "RoomExplored", "noise": "NoiseRolled", "encounter": "EncounterTokenDrawn",
                "attack": "IntruderAttacked", "injury_check": "InjuryCheckDrawn", "retreat": "IntruderRetreated"}
# facts the table may record at any moment of play (effects it resolved, corrections of hidden information)
ANYTIME = frozenset((
    "WoundSuffered", "WoundDressed", "WoundHealed", "ContaminationCardReceived", "ContaminationScanned",
    "LarvaRemoved", "SlimeChanged", "CharacterDied", "KnowledgeGained", "IntruderMoved", "IntruderPlaced",
    "IntruderRemoved", "IntruderInjured", "FirePlaced", "FireRemoved", "MalfunctionPlaced", "MalfunctionRemoved",
    "DoorChanged", "NoiseMarkerPlaced", "NoiseMarkerRemoved", "PowerChanged", "SelfDestructStarted", "ItemGained",
    "ObjectivesDealt", "ObjectiveChosen", "ObjectiveRevealed", "ContingencyTokensDealt", "ContingencyTokenPeeked",
    "ContingencyTokenTaken", "ContingencyTokenRevealed", "WeaknessRevealed", "ComputerCardRevealed", "ItemDropped",
    "RecordGap", "CharacterEscaped",  # a coarse record (docs/decisions/0018)
    "CharacterMovedByEffect",  # a card's move happens inside the card's play, any moment
))
SETUP_FACTS = frozenset(("BoardPrepared", "CharacterChosen", "SetupCompleted", "ObjectivesDealt",
                         "ContingencyTokensDealt", "ItemGained", "ComputerCardRevealed", "ContingencyTokenRevealed"))


EVENT_STEP_FACT = {CSS: "CssTokenRevealed", TIME: "TimeAdvanced", NOISE_CLEANUP: "NoiseMarkersCleared",
                   EVENT_CARD: "EventCardDrawn", COLONY_STEP: "ColonyTokenDrawn"}


V = violation  # the kit's builder, short for the many rules below


def pending_text(state: LockdownState) -> str:
    p = state.pending[0]
    if p.kind in ("attack", "injury_check", "retreat"):
        what = {"attack": "the attack of", "injury_check": "the injury check of", "retreat": "the retreat of"}[p.kind]
        return f"{what} intruder {p.intruder} in {state.room_label(p.room)} ({PENDING_FACT[p.kind]})"
    what = {"explore": "the exploration of", "noise": "the noise roll in", "encounter": "the encounter in"}[p.kind]
    return f"{what} {state.room_label(p.room)} for {who(state, p.seat)} ({PENDING_FACT[p.kind]})"


def check(state: LockdownState, fact: Fact) -> list[Violation]:
    shape = shape_violations(state, fact)
    if shape:
        return shape
    if state.ended:
        if fact.type in AFTER_END and unknowns.unknown_fields(fact):
            return unknowns.violations(state, fact, unknowns.unknown_fields(fact))
        if fact.type in AFTER_END:
            return RULES.get(fact.type, lambda s, f: [])(state, fact)
        return [V("game-over", f"The game has already ended ({state.ending}); nothing more can be recorded.", S.END)]
    if fact.type == "GameEnded":
        return []
    unknown = unknowns.unknown_fields(fact)
    out = _order(state, fact)
    if unknown:  # its place in the game is checked; what depends on the unknown value cannot be
        coarse = unknowns.COARSE_RULES.get(fact.type)  # a coarse fact's own flag does not depend on the value
        return out + unknowns.violations(state, fact, unknown) + (coarse(state, fact) if coarse else [])
    if out:
        return out
    return RULES.get(fact.type, lambda s, f: [])(state, fact)


# --- where in the game are we? -----------------------------------------------------------

def _order(state: LockdownState, fact: Fact) -> list[Violation]:
    t = fact.type
    if state.phase == SETUP and t not in SETUP_FACTS:
        return [V("setup-not-finished", f"{t} cannot be recorded during setup; finish setup first "
                  f"(BoardPrepared, a CharacterChosen per seat, then SetupCompleted).", S.SETUP_BOARD)]
    # a free item use (cost 0: not an action) may come in the middle of a sub-step, e.g. the Flashlight during an
    # encounter in darkness (seed 000 L3546–3552; example_of_play.md B10)
    free_item = t == "ItemUsed" and not fact.data.get("cost")
    if t in ANYTIME or (t == "ActionCardPlayed" and fact.data.get("reaction")) or free_item or state.phase == SETUP:
        return []
    if state.pending:
        p = state.pending[0]
        seat_ok = fact.actor == p.seat if FACTS[t].actor == "seat" else True
        if t != PENDING_FACT[p.kind] or not seat_ok:
            if t in PENDING_FACT.values() and t != PENDING_FACT[p.kind] and not any(
                    PENDING_FACT.get(q.kind) == t for q in state.pending):
                return [_not_due(state, fact)]
            return [V("pending-step", f"First record {pending_text(state)}; {t} by {who(state, fact.actor)} "
                      f"has to wait until then.", _pending_section(p.kind))]
        return []
    if t in PENDING_FACT.values():
        return [_not_due(state, fact)]
    return []


def _pending_section(kind: str) -> str:
    return {"explore": S.EXPLORE, "noise": S.NOISE, "encounter": S.ENCOUNTER, "attack": S.ATTACK,
            "injury_check": S.INJURIES, "retreat": S.RETREAT}.get(kind, S.TURNS)


def _not_due(state: LockdownState, fact: Fact) -> Violation:
    rule, what, section = {
        "RoomExplored": ("exploration-not-due", "no character has just entered an unexplored room", S.EXPLORE),
        "NoiseRolled": ("noise-roll-not-due", "no noise roll is due (one follows a move into an empty room, "
                        "or an adult/breeder colony draw)", S.NOISE),
        "EncounterTokenDrawn": ("encounter-not-due", "no encounter is due (one follows a noise result on a "
                                "corridor that already had a noise marker)", S.ENCOUNTER),
        "IntruderAttacked": ("attack-not-due", "no night stalker attack is due (surprise attack, event step 7 or an "
                             "escape; effects use the table's facts)", S.ATTACK),
        "InjuryCheckDrawn": ("injury-check-not-due", "no injured stalker awaits its injury check", S.INJURIES),
        "IntruderRetreated": ("retreat-not-due", "no stalker is retreating", S.RETREAT),
    }[fact.type]
    now = f" Pending: {pending_text(state)}." if state.pending else ""
    return V(rule, f"{fact.type} by {who(state, fact.actor)} was not expected: {what}.{now}", section)


def _event_step(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.phase != EVENT:
        waiting = [str(s) for s in state.player_order() if not state.characters[s].passed]
        return [V("event-phase-not-started", f"{fact.type} belongs to the event phase, but the player phase is "
                  f"still on (seats {', '.join(waiting) or '—'} have not passed).", S.EVENT_PHASE)]
    if EVENT_STEP_FACT.get(state.step) != fact.type:
        return [V("event-step-order", f"{fact.type} is out of order: the event phase is at "
                  f"{STEP_NAMES.get(state.step, state.step)}.", S.EVENT_PHASE)]
    return []


# --- setup ------------------------------------------------------------------------------

def _board_prepared(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.phase != SETUP or state.step != BOARD:
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


def _character_chosen(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.phase != SETUP:
        return [V("setup-order", "Setup is over; characters can no longer be chosen.", S.SETUP_CHARACTERS)]
    if state.step == BOARD:
        return [V("setup-order", "Characters are chosen after the board is prepared (record BoardPrepared first).",
                  S.SETUP_CHARACTERS)]
    seat = fact.actor
    char = CHARACTERS.resolve(fact.data["character"])
    if state.characters[seat].character is not None:
        return [V("already-chosen", f"{who(state, seat)} has already chosen a character.", S.SETUP_CHARACTERS)]
    taken = {c.character: c.seat for c in state.characters.values() if c.character}
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
        holder = next((c.seat for c in state.characters.values() if c.player_number == number), None)
        if holder is not None:
            return [V("help-card-taken", f"Seat {holder} holds help card {number}.", S.SETUP_CHARACTERS, "player")]
        later = [c for c in state.characters.values() if c.player_number and c.player_number > number]
        if later:
            return [V("choice-order", f"Player {number} chooses before player {later[0].player_number} (seat "
                      f"{later[0].seat}), in help-card order.", S.SETUP_CHARACTERS, "player")]
    colour = char.extra.get("colour")
    same = next((c for c in state.characters.values() if c.character in CHARACTERS and colour
                 and CHARACTERS[c.character].extra.get("colour") == colour), None)
    if same is not None:  # each player keeps the selection card of their colour (seed 000 L4569–4572)
        return [V("character-colour-taken", f"{CHARACTERS[same.character].en} (seat {same.seat}) already plays "
                  f"the {colour} character; only 1 character per colour.", S.NEMESIS, "character")]
    return []


def _setup_completed(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.phase != SETUP:
        return [V("setup-order", "Setup was already completed.", S.SETUP_FIRST_PLAYER)]
    if state.step != READY:
        missing = [str(s) for s in state.seats if state.characters[s].character is None]
        if state.step == BOARD:
            return [V("setup-order", "Setup is not complete: record BoardPrepared first.", S.SETUP_BOARD)]
        return [V("setup-order", f"Setup is not complete: seats {', '.join(missing)} have not chosen a character.",
                  S.SETUP_CHARACTERS)]
    one = next((s for s in state.seats if state.characters[s].player_number == 1), None)
    first = fact.data.get("first_player")
    if one is not None and first is not None and first != one:
        return [V("first-player-is-player-1", f"Player 1 (seat {one}, help card 1) takes the first player token, "
                  f"not seat {first}.", S.SETUP_FIRST_PLAYER, "first_player")]
    return []


# --- player phase -----------------------------------------------------------------------

def _first_player_passed(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.phase == PLAYER and state.round == 1:
        return [V("first-player-round-1", "The first player token does not move in round 1; start with the first "
                  "player's turn instead.", S.FIRST_PLAYER)]
    if state.phase != PLAYER or state.step != FIRST_PLAYER:
        return [V("first-player-not-now", "The first player token passes only at the start of a round, after the "
                  "cards are drawn.", S.FIRST_PLAYER)]
    out = []
    if fact.actor != state.first_player:
        out.append(V("not-first-player", f"Only seat {state.first_player}, who holds the first player token, passes "
                     f"it on (not seat {fact.actor}).", S.FIRST_PLAYER, "actor"))
    to = fact.data.get("to")
    left = state.next_first_player()
    # the plain left neighbour stays accepted: facts stored before observers were skipped named it
    if to is not None and to not in (left, state.left_of(state.first_player)):
        out.append(V("first-player-wrong-seat", f"The token goes to the next player on the left still in the "
                     f"game: seat {left}, not seat {to}.", S.FIRST_PLAYER, "to"))
    return out


# serious wound cards whose effect the sources give (only through the FAQ); names normalised (casefold)
KNEE_WOUNDS = ("knee", "kolano")


def knee_surcharge_due(state: LockdownState, seat: int) -> bool:
    """An undressed Knee wound surcharges the first Movement of the character's first turn in the round
    (faq_lockdown.md 7; the amount is printed on the card, not in the sources: the table records it)."""
    c = state.characters[seat]
    knee = any(not w.dressed and w.card and " ".join(w.card.split()).casefold() in KNEE_WOUNDS for w in c.serious)
    return knee and not c.first_turn_done and c.moves == 0


def _move(state: LockdownState, fact: Fact) -> list[Violation]:
    out = turn_check(state, fact)
    if out:
        return out
    seat = fact.actor
    c = state.characters[seat]
    b = state.board
    surcharge = fact.data.get("surcharge") or 0
    cost = MOVE_COST[fact.type] + surcharge
    if c.room is None:
        return [V("not-on-board", f"{who(state, seat)} has no figure on the board.", S.MOVE)]
    if knee_surcharge_due(state, seat) and surcharge < 1:
        out.append(V("knee-surcharge", f"{who(state, seat)} has an undressed Knee wound: the first Movement of "
                     f"their first turn this round costs more (at least {MOVE_COST[fact.type] + 1} cards). Record "
                     f"the extra cards as 'surcharge'.", S.KNEE, "surcharge"))
    elif surcharge and not knee_surcharge_due(state, seat):
        out.append(V("surcharge-not-due", f"No movement surcharge applies to {who(state, seat)}: only an undressed "
                     f"Knee wound surcharges, and only the first Movement of the first turn in the round.", S.KNEE,
                     "surcharge"))
    if c.hand < cost:
        out.append(V("not-enough-cards", f"{fact.type} costs {cost} action card{'s' if cost > 1 else ''}, but "
                     f"{who(state, seat)} has {c.hand} in hand. Pass instead, or record the cards drawn.", S.COSTS))
    dest = resolve_place(state, fact.data["to_room"])
    n = fact.data["corridor"]
    if dest == c.room:
        return out + [V("same-room", f"{who(state, seat)} is already in {state.room_label(dest)}; a move goes to an "
                        f"adjacent room.", S.MOVE, "to_room")]
    if b.surface:
        out += _path_rules(state, c.room, dest, n)
    if b.has_graph:
        if dest not in b.adjacent(c.room):
            near = ", ".join(f"{state.room_label(o)} (corridor {k})" for _, k, o in b.exits(c.room))
            return out + [V("not-adjacent", f"{state.room_label(dest)} is not adjacent to {state.room_label(c.room)}. "
                            f"Reachable: {near or 'nothing'}.", S.MOVE, "to_room")]
        key = b.entry(c.room, dest, n)
        if key is None:
            ok = [k for key_, k, o in b.exits(c.room) if o == dest]
            return out + [V("wrong-corridor", f"No corridor {n} leads from {state.room_label(c.room)} to "
                            f"{state.room_label(dest)}; use corridor {' or '.join(map(str, ok))}.", S.MOVE,
                            "corridor")]
        if key in state.doors:
            out.append(V("closed-door", f"Corridor {n} into {state.room_label(dest)} has a closed door; closed doors "
                         f"block movement.", S.DOORS, "corridor"))
    elif b.corridor_key(dest, n) in state.doors:  # no graph: the door's key is the move's key (room entered, number)
        out.append(V("closed-door", f"Corridor {n} into {state.room_label(dest)} has a closed door; closed doors "
                     f"block movement.", S.DOORS, "corridor"))
    if fact.type == "CharacterMovedCarefully":
        if state.in_combat(seat):
            out.append(V("careful-in-combat", f"{who(state, seat)} is in combat and cannot move carefully; a normal "
                         f"move (escape) is allowed.", S.CAREFUL))
        nc = fact.data["noise_corridor"]
        key = b.corridor_key(dest, nc)
        free = [k for k in b.numbers_of(dest) if b.corridor_key(dest, k) not in state.noise]
        if key is None:
            out.append(V("no-such-corridor", f"{state.room_label(dest)} has no corridor {nc}; choose one of "
                         f"{', '.join(map(str, b.numbers_of(dest)))}.", S.CAREFUL, "noise_corridor"))
        elif not free:
            out.append(V("careful-blocked", f"Every corridor into {state.room_label(dest)} already has a noise "
                         f"marker, so a careful move there is not allowed.", S.CAREFUL))
        elif key in state.noise:
            out.append(V("noise-already-there", f"Corridor {nc} into {state.room_label(dest)} already has a noise "
                         f"marker (max 1 per corridor); choose one of {', '.join(map(str, free))}.", S.CAREFUL,
                         "noise_corridor"))
    return out


def _path_rules(state: LockdownState, origin: str, dest: str, n: object, field: str = "corridor") -> list[Violation]:
    """Mars side: a move to or from a crossroad goes along an unnumbered path, any other move through a corridor."""
    b = state.board
    if b.is_crossroad(origin) or b.is_crossroad(dest):
        if n != "path":
            return [V("path-move", f"Between {state.room_label(origin)} and {state.room_label(dest)} the way is a "
                      f"path, which has no number: record corridor 'path', not {n!r}.", S.MARS_PATHS, field)]
    elif n == "path":
        return [V("no-path-here", f"Paths join crossroads (and a crossroad to an exit space); neither "
                  f"{state.room_label(origin)} nor {state.room_label(dest)} is a crossroad, so record the corridor "
                  f"number printed at the room entered.", S.MARS_PATHS, field)]
    return []


def _noise_rolled(state: LockdownState, fact: Fact) -> list[Violation]:
    if noise_result(fact.data["result"]) != MARS_CARD:
        return []
    b = state.board
    if not b.surface:
        return [V("mars-die-not-here", f"The Mars surface symbol is on the Mars die, used only on the alternative "
                  f"board side; the {b.id!r} board uses the noise die (1–4, silence, danger).", S.MARS_DIE, "result")]
    place = state.pending[0].room if state.pending else state.characters[fact.actor].room
    zone = b.places[place].zone if place in b.places else None
    if zone == "underground":
        return [V("mars-die-not-here", f"{state.room_label(place)} is underground, where the standard noise die is "
                  f"rolled; the Mars die is used only on crossroads and in buildings.", S.MARS_DIE, "result")]
    return []


def _passed(state: LockdownState, fact: Fact) -> list[Violation]:
    out = turn_check(state, fact)
    d = fact.data.get("discarded") or 0  # null means not given, like an absent field
    if not out and d > state.characters[fact.actor].hand:
        out.append(V("discard-too-many", f"{who(state, fact.actor)} has only {state.characters[fact.actor].hand} "
                     f"cards in hand and cannot discard {d}.", S.PASS, "discarded"))
    return out


# --- sub-steps ----------------------------------------------------------------------------

def _room_explored(state: LockdownState, fact: Fact) -> list[Violation]:
    p = state.pending[0]
    crossroad = state.board.is_crossroad(p.room)
    if crossroad or fact.data["room"] == "crossroad":
        if crossroad and fact.data["room"] == "crossroad":
            return []
        what = (f"{p.room} is a crossroad: record room 'crossroad' with its surface exploration token"
                if crossroad else f"{p.room} is not a crossroad; name the room tile revealed")
        return [V("crossroad-tile", what + ".", S.MARS_EXPLORE, "room")]
    room = ROOMS.resolve(fact.data["room"])
    slot = state.rooms[p.room]
    out = []
    if slot.kind != "any" and room.kind != slot.kind:
        out.append(V("tile-kind", f"{room.en} is a {room.kind!r} tile but {p.room} is a {slot.kind!r} slot.",
                     S.EXPLORE, "room"))
    if slot.tile is not None and slot.tile != room.id:
        out.append(V("tile-mismatch", f"Setup recorded {ROOMS[slot.tile].en} in {p.room}, not {room.en}.",
                     S.EXPLORE, "room"))
    elsewhere = state.room_of_tile(room.id)
    if elsewhere is not None and elsewhere != p.room:
        out.append(V("tile-elsewhere", f"{room.en} is already on the board at {elsewhere}.", S.EXPLORE, "room"))
    return out


def _colony_draw(state: LockdownState, fact: Fact, field: str = "token") -> list[Violation]:
    token = resolve_token(fact.data[field])
    if state.bag.get(token, 0) <= 0:
        inside = ", ".join(f"{n} {t}" for t, n in state.bag.items() if n) or "nothing"
        return [V("token-not-in-bag", f"The colony bag holds no {token} token (it holds {inside}).", S.COLONY, field)]
    return []


def _encounter(state: LockdownState, fact: Fact) -> list[Violation]:
    return _colony_draw(state, fact)


def _css(state: LockdownState, fact: Fact) -> list[Violation]:
    out = _event_step(state, fact)
    return out


def _cleared(state: LockdownState, fact: Fact) -> list[Violation]:
    out = _event_step(state, fact)
    if out:
        return out
    b = state.board
    for m in fact.data["removed"]:
        place = resolve_place(state, m["room"])
        key = b.corridor_key(place, m["corridor"])
        label = f"corridor {m['corridor']} of {state.room_label(place)}"
        if key is None or key not in state.noise:
            out.append(V("no-such-marker", f"There is no noise marker in {label}.", S.NOISE_CLEANUP, "removed"))
        elif key == TECHNICAL:
            out.append(V("technical-marker-stays", f"The noise marker on the technical corridors space ({label}) is "
                         f"never removed in this step.", S.NOISE_CLEANUP, "removed"))
        elif any(state.characters_in(r) for r in b.rooms_of(key)):
            out.append(V("marker-next-to-character", f"The noise marker in {label} leads to a room with a character "
                         f"and stays.", S.NOISE_CLEANUP, "removed"))
    return out


def _event_card(state: LockdownState, fact: Fact) -> list[Violation]:
    out = _event_step(state, fact)
    if out:
        return out
    card = resolve_card(fact.data["card"], fact.data.get("corridors"))
    if card.id in state.removed_events:
        out.append(V("event-card-removed", f"{card.label} was removed from the game earlier and cannot be drawn "
                     f"again.", S.EVENT_CARD, "card"))
    given = fact.data.get("corridors")
    if given is not None and list(card.corridors) != given:
        out.append(V("event-card-corridors", f"{card.label} shows corridor {' then '.join(map(str, card.corridors))}, "
                     f"not {' then '.join(map(str, given))}.", S.EVENT_CARD, "corridors"))
    return out


def _colony(state: LockdownState, fact: Fact) -> list[Violation]:
    return _event_step(state, fact) or _colony_draw(state, fact)


def _intruder_moved(state: LockdownState, fact: Fact) -> list[Violation]:
    b = state.board
    intruder = next(i for i in state.intruders if i.id == fact.data["intruder"])
    dest = resolve_place(state, fact.data["to_room"])
    if b.has_graph and dest not in b.adjacent(intruder.room) and dest != intruder.room:
        return [V("not-adjacent", f"{state.room_label(dest)} is not adjacent to {state.room_label(intruder.room)}.",
                  S.EVENT_CARD, "to_room")]
    if b.surface and fact.data.get("corridor") is not None and dest != intruder.room:
        return _path_rules(state, intruder.room, dest, fact.data["corridor"])
    return []


RULES: dict[str, Callable[[LockdownState, Fact], list[Violation]]] = {
    "BoardPrepared": _board_prepared,
    "CharacterChosen": _character_chosen,
    "SetupCompleted": _setup_completed,
    "FirstPlayerPassed": _first_player_passed,
    "CharacterMoved": _move,
    "CharacterMovedCarefully": _move,
    "Passed": _passed,
    "RoomExplored": _room_explored,
    "EncounterTokenDrawn": _encounter,
    "CssTokenRevealed": _css,
    "TimeAdvanced": _event_step,
    "NoiseMarkersCleared": _cleared,
    "EventCardDrawn": _event_card,
    "ColonyTokenDrawn": _colony,
    "IntruderMoved": _intruder_moved,
    "NoiseRolled": _noise_rolled,
}


from service.rules.lockdown.checks_play import RULES as _PLAY_RULES  # noqa: E402

RULES.update(_PLAY_RULES)
RULES.update(unknowns.COARSE_RULES)
