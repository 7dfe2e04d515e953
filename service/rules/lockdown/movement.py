"""Movement and exploration: moves (plain and careful), the room explored, the noise roll, danger and the
encounter.

Each fact type of the concept is declared here once (``FACT_TYPES``): its spec, its check, its effect, and its
offers — a move's pending sub-steps (``pending_offers``), the turn's moves (``offers``) and the table effects
(a card's move, noise markers placed and removed), which ``inputs``/``inputs_play`` compose in the order the seeded
generator depends on. Decision 0029.

    >>> [t.spec.type for t in FACT_TYPES][:3]
    ['CharacterMoved', 'CharacterMovedCarefully', 'CharacterMovedByEffect']
"""
from __future__ import annotations

from functools import lru_cache
from math import ceil
from types import MappingProxyType
from typing import Any

from service.rules.base import Consequence, Expected, Fact, Violation
from service.rules.kit.builders import consequence as C, violation as V
from service.rules.kit.facts import FactSpec, FactType, field_spec as _f
from service.rules.kit.replace import replace, replace_in
from service.rules.lockdown import mechanics as M, sections as S
from service.rules.lockdown.board import PATH, TECHNICAL, is_area
from service.rules.lockdown.components import NOISE_RESULTS, ROOMS
from service.rules.lockdown.offers import TABLE_EFFECT, corridor_groups, grouped, offer
from service.rules.lockdown.state import PLAYER, LockdownState, Pending, who, with_character, with_room
from service.rules.lockdown.turns import MOVE_COST, in_game, turn_check
from service.rules.lockdown.values import MARS_CARD, noise_result, resolve_place, resolve_token

SURCHARGE_DOC = ("extra cards paid on top of the move's cost for an undressed Knee serious wound: required (≥ 1) on "
                 "the first Movement of the character's first turn in the round, refused otherwise (faq_lockdown.md 7; "
                 "the printed amount is not in the sources — the table records what it paid, e.g. 1)")

# serious wound cards whose effect the sources give (only through the FAQ); names normalised (casefold)
KNEE_WOUNDS = ("knee", "kolano")


# --- checks --------------------------------------------------------------------------------------------------

def knee_surcharge_due(state: LockdownState, seat: int) -> bool:
    """An undressed Knee wound surcharges the first Movement of the character's first turn in the round
    (faq_lockdown.md 7; the amount is printed on the card, not in the sources: the table records it)."""
    c = state.crew.characters[seat]
    knee = any(not w.dressed and w.card and " ".join(w.card.split()).casefold() in KNEE_WOUNDS for w in c.serious)
    return knee and not c.first_turn_done and c.moves == 0


def check_move(state: LockdownState, fact: Fact) -> list[Violation]:
    out = turn_check(state, fact)
    if out:
        return out
    seat = fact.actor
    c = state.crew.characters[seat]
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
        out += path_rules(state, c.room, dest, n)
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
        if key in state.ship.doors:
            out.append(V("closed-door", f"Corridor {n} into {state.room_label(dest)} has a closed door; closed doors "
                         f"block movement.", S.DOORS, "corridor"))
    elif b.corridor_key(dest,
                        n) in state.ship.doors:  # no graph: the door's key is the move's key (room entered, number)
        out.append(V("closed-door", f"Corridor {n} into {state.room_label(dest)} has a closed door; closed doors "
                     f"block movement.", S.DOORS, "corridor"))
    if fact.type == "CharacterMovedCarefully":
        if state.in_combat(seat):
            out.append(V("careful-in-combat", f"{who(state, seat)} is in combat and cannot move carefully; a normal "
                         f"move (escape) is allowed.", S.CAREFUL))
        nc = fact.data["noise_corridor"]
        key = b.corridor_key(dest, nc)
        free = [k for k in b.numbers_of(dest) if b.corridor_key(dest, k) not in state.ship.noise]
        if key is None:
            out.append(V("no-such-corridor", f"{state.room_label(dest)} has no corridor {nc}; choose one of "
                         f"{', '.join(map(str, b.numbers_of(dest)))}.", S.CAREFUL, "noise_corridor"))
        elif not free:
            out.append(V("careful-blocked", f"Every corridor into {state.room_label(dest)} already has a noise "
                         f"marker, so a careful move there is not allowed.", S.CAREFUL))
        elif key in state.ship.noise:
            out.append(V("noise-already-there", f"Corridor {nc} into {state.room_label(dest)} already has a noise "
                         f"marker (max 1 per corridor); choose one of {', '.join(map(str, free))}.", S.CAREFUL,
                         "noise_corridor"))
    return out


def path_rules(state: LockdownState, origin: str, dest: str, n: object, field: str = "corridor") -> list[Violation]:
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


def check_noise_rolled(state: LockdownState, fact: Fact) -> list[Violation]:
    if noise_result(fact.data["result"]) != MARS_CARD:
        return []
    b = state.board
    if not b.surface:
        return [V("mars-die-not-here", f"The Mars surface symbol is on the Mars die, used only on the alternative "
                  f"board side; the {b.id!r} board uses the noise die (1–4, silence, danger).", S.MARS_DIE, "result")]
    place = state.clock.pending[0].room if state.clock.pending else state.crew.characters[fact.actor].room
    zone = b.places[place].zone if place in b.places else None
    if zone == "underground":
        return [V("mars-die-not-here", f"{state.room_label(place)} is underground, where the standard noise die is "
                  f"rolled; the Mars die is used only on crossroads and in buildings.", S.MARS_DIE, "result")]
    return []


def check_room_explored(state: LockdownState, fact: Fact) -> list[Violation]:
    p = state.clock.pending[0]
    crossroad = state.board.is_crossroad(p.room)
    if crossroad or fact.data["room"] == "crossroad":
        if crossroad and fact.data["room"] == "crossroad":
            return []
        what = (f"{p.room} is a crossroad: record room 'crossroad' with its surface exploration token"
                if crossroad else f"{p.room} is not a crossroad; name the room tile revealed")
        return [V("crossroad-tile", what + ".", S.MARS_EXPLORE, "room")]
    room = ROOMS.resolve(fact.data["room"])
    slot = state.ship.rooms[p.room]
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


def colony_draw(state: LockdownState, fact: Fact, field: str = "token") -> list[Violation]:
    token = resolve_token(fact.data[field])
    if state.colony.bag.get(token, 0) <= 0:
        inside = ", ".join(f"{n} {t}" for t, n in state.colony.bag.items() if n) or "nothing"
        return [V("token-not-in-bag", f"The colony bag holds no {token} token (it holds {inside}).", S.COLONY, field)]
    return []


def check_encounter(state: LockdownState, fact: Fact) -> list[Violation]:
    return colony_draw(state, fact)


def check_moved_by_effect(state, fact):
    out = in_game(state, fact.actor, S.MOVE)
    if not out and state.crew.characters[fact.actor].room is None:
        out.append(V("moved-from-nowhere", f"{who(state, fact.actor)} is not in a room of the base.", S.MOVE))
    return out


def check_noise_placed(state, fact):
    place = resolve_place(state, fact.data["room"])
    key = state.board.corridor_key(place, fact.data["corridor"])
    if key is None:
        return [V("no-such-corridor", "No such corridor.", S.NOISE, "corridor")]
    if key in state.ship.noise:
        return [V("noise-already-there", "That corridor already has a noise marker (max 1).", S.NOISE, "corridor")]
    return []


def check_noise_removed(state, fact):
    place = resolve_place(state, fact.data["room"])
    key = state.board.corridor_key(place, fact.data["corridor"])
    return [] if key in state.ship.noise else [V("no-such-marker", "There is no noise marker there.", S.NOISE)]


# --- effects -------------------------------------------------------------------------------------------------

def danger(state: LockdownState, seat: int, place: str, cons: list[Consequence]) -> LockdownState:
    """Danger: adjacent stalkers not in combat come in, else noise in every empty corridor (§5.7)."""
    b = state.board
    if b.is_crossroad(place):
        return surface_danger(state, place, cons)
    if not b.has_graph:
        cons.append(C("danger", f"Danger in {state.room_label(place)}: the corridor graph of this board is unknown, so "
                      f"the table resolves it (move adjacent stalkers in with IntruderMoved, or place noise markers "
                      f"in every corridor without one).", room=place, resolved=False))
        return state
    movers = []
    for key, _, other in b.exits(place):
        if state.characters_in(other):
            continue  # stalkers there are in combat
        for intruder in state.intruders_in(other):
            movers.append((intruder, key, other))
    if movers:
        intruders = list(state.colony.intruders)
        doors = set(state.ship.doors)
        for intruder, key, other in movers:
            if key in doors:
                doors.discard(key)
                cons.append(C("door-destroyed", f"The {intruder.kind} ({intruder.id}) destroys the closed door "
                              f"instead of moving.", intruder=intruder.id, corridor=key))
                continue
            intruders[intruders.index(intruder)] = replace(intruder, room=place)
            cons.append(C("intruder-moved", f"Danger: the {intruder.kind} ({intruder.id}) moves from "
                          f"{state.room_label(other)} into {state.room_label(place)}.", intruder=intruder.id,
                          to_room=place))
        return replace_in(replace_in(state, "colony", intruders=tuple(intruders)), "ship", doors=frozenset(doors))
    cons.append(C("danger", f"Danger in {state.room_label(place)}: no stalker nearby, noise markers go in every "
                  f"corridor without one.", room=place, resolved=True))
    for key in b.corridors_of(place) or ():
        if key not in state.ship.noise:
            state = M.add_noise(state, key, place, cons)
    return state


def surface_danger(state: LockdownState, place: str, cons: list[Consequence]) -> LockdownState:
    """Danger on a crossroad: every stalker on the surface (crossroads; not in a building, not in combat) moves
    to it along the paths; if none can, a noise marker goes on every area without one (lockdown.md §12.5)."""
    b = state.board
    movers = [i for i in state.colony.intruders if i.room != place and b.is_crossroad(i.room) and not state.characters_in(i.room)]
    if movers:
        ids = {i.id for i in movers}
        for i in movers:
            cons.append(C("intruder-moved", f"Danger: the {i.kind} ({i.id}) moves along the paths from "
                          f"{state.room_label(i.room)} to {state.room_label(place)}.", intruder=i.id, to_room=place))
        return replace_in(state, "colony",
                          intruders=tuple(replace(i, room=place) if i.id in ids else i for i in state.colony.intruders))
    cons.append(C("danger", f"Danger on {state.room_label(place)}: no stalker on the surface can come, noise markers "
                  f"go on every area without one.", room=place, resolved=True))
    for key in b.area_keys():
        if key not in state.ship.noise:
            state = M.add_noise(state, key, place, cons)
    return state


def encounter_due(state: LockdownState, seat: int, place: str, cons: list[Consequence]) -> LockdownState:
    """Encounter: clear the room's noise markers, then a token is drawn (the next fact) (§7.4)."""
    cleared = [k for k in state.board.local_keys(place) if k in state.ship.noise]
    cons.append(C("encounter", f"Encounter in {state.room_label(place)} for {who(state, seat)}: the noise markers "
                  f"of all its corridors are removed and a token is drawn from the colony bag.",
                  room=place, seat=seat, cleared=cleared))
    state = replace_in(state, "ship", noise=state.ship.noise - set(cleared))
    return M.push_front(state, Pending("encounter", seat, place, reason="noise in a marked corridor"))


def noise(state: LockdownState, seat: int, place: str, result: Any, cons: list[Consequence]) -> LockdownState:
    c = state.crew.characters[seat]
    if result == "silence" and c.slime:
        cons.append(C("silence-as-danger", f"Silence, but {who(state, seat)} has slime: resolved as danger.",
                      seat=seat))
        result = "danger"
    if result == "silence":
        cons.append(C("silence", "Silence: nothing happens.", seat=seat))
        return state
    if result == "danger":
        return danger(state, seat, place, cons)
    if result == MARS_CARD:
        cons.append(C("mars-card", f"Mars die: {who(state, seat)} draws and resolves 1 Mars surface card (top part on "
                      f"the surface, bottom part with a space suit or in a building); the table records its effects.",
                      seat=seat, room=place))
        return state
    key = state.board.corridor_key(place, result)
    if key is None:
        cons.append(C("no-corridor", f"{state.room_label(place)} has no corridor {result}: nothing happens.",
                      room=place, number=result))
        return state
    if key in state.ship.noise:
        return encounter_due(state, seat, place, cons)
    return M.add_noise(state, key, place, cons)


def moved(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    seat = fact.actor
    c = state.crew.characters[seat]
    dest = resolve_place(state, fact.data["to_room"])
    b = state.board
    n = fact.data["corridor"]
    origin = c.room
    key = M.entry_key(state, origin, dest, n) if n is not None else None  # None: not recorded (decision 0018)
    surcharge = fact.data.get("surcharge") or 0
    cost = MOVE_COST[fact.type] + surcharge
    careful = fact.type == "CharacterMovedCarefully"
    occupied = M.occupied(state, dest, seat)
    escape_from = M.escape_attackers(state, origin)
    if escape_from:
        cons.append(C("escape", f"{who(state, seat)} escapes from combat: each stalker in "
                      f"{state.room_label(origin)} attacks first, the largest first (record IntruderAttacked for "
                      f"each).", seat=seat,
                      intruders=[i.id for i in escape_from]))
    # M.pay, the move and M.count_action in one change of the character (decision 0049)
    paid = max(0, min(cost, c.hand))
    changes = {"hand": c.hand - paid, "discard": c.discard + paid} if paid else {}
    changes["room"], changes["moves"] = dest, c.moves + 1
    if seat == state.clock.turn and state.clock.phase == PLAYER:
        changes["actions"] = c.actions + 1
    del c  # nothing reads it after the change: the draft may change the character in place (decision 0049)
    state = with_character(state, seat, **changes)
    cons.append(C("moved", f"{who(state, seat)} {'carefully ' if careful else ''}moves from "
                  f"{state.room_label(origin)} to {state.room_label(dest)} "
                  f"{'along a path' if n == PATH else f'through corridor {n}' if n is not None else 'through a corridor not recorded'} ({cost} "
                  f"card{'s' if cost > 1 else ''}"
                  f"{f', {surcharge} for the Knee wound' if surcharge else ''}).", seat=seat, from_room=origin, to_room=dest, corridor=key))
    if origin and not b.has_graph:
        cons.append(corridor_unverified(state, origin, dest, n))
    M.combat_notice(state, seat, dest, cons)
    if careful:
        nkey = b.corridor_key(dest, fact.data["noise_corridor"])
        if nkey is not None and nkey not in state.ship.noise:
            state = M.add_noise(state, nkey, dest, cons)
    attacks = tuple(Pending("attack", seat, origin, reason="escape", intruder=i.id) for i in escape_from)
    return M.entered(state, seat, dest, key, occupied, cons, careful=careful, attacks=attacks)


def corridor_unverified(state: LockdownState, origin: str, dest: str, n: Any, mover: str = "") -> Consequence:
    """The warning of a move on a board without declared corridors: recorded, never refused (decision 0005)."""
    b = state.board
    way = "a path" if n == PATH else f"corridor {n}" if n is not None else "a corridor the table did not name"
    return C("corridor-unverified", f"Adjacency not checked: the {b.id} board file declares no corridors, so "
             f"{mover + ' ' if mover else ''}{state.room_label(origin)} → {state.room_label(dest)} through {way} is "
             f"recorded as the table named it.", board=b.id, from_room=origin, to_room=dest, corridor=n)


def room_explored(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    seat = fact.actor
    state, p = M.pop_pending(state, "explore", seat)
    if p is None:  # not due: best effort on the actor's room, if it is unexplored
        place = state.crew.characters[seat].room
        if place is None or state.ship.rooms[place].explored:
            cons.append(C("ignored", "No unexplored room to reveal here; nothing changes."))
            return state
        p = Pending("explore", seat, place, empty=False, careful=True)
    token = dict(fact.data["token"])
    effect = token["effect"]
    crossroad = state.board.is_crossroad(p.room)
    room = ROOMS.resolve(fact.data["room"]) if not crossroad else None
    if room is None:  # a crossroad (lockdown.md §12.5): no tile, only the surface exploration token
        state = with_room(state, p.room, explored=True, token=MappingProxyType(token), items=None)
        cons.append(C("room-revealed", f"{state.room_label(p.room)}: surface exploration token {effect}.",
                      room=p.room, tile=None, effect=effect, items=None))
    else:
        items = token.get("items")
        if not room.has_item_counter:
            items = None
        elif items is not None and state.setup.mode == "solo":
            items = ceil(items / 2)  # solo halves item counters, rounding up (lockdown.md §3.3)
        state = with_room(state, p.room, tile=room.id, explored=True, token=MappingProxyType(token), items=items)
        cons.append(C("room-revealed", f"{state.room_label(p.room)} is explored: token {effect}"
                      + (f", item counter {items}." if items is not None else "."), room=p.room, tile=room.id,
                      effect=effect, items=items))
    if room is not None and room.extra.get("discovery_knowledge"):
        k = min(8, state.crew.characters[seat].knowledge + room.extra["discovery_knowledge"])  # capped 0–8
        state = with_character(state, seat, knowledge=k)
        cons.append(C("knowledge", f"{who(state, seat)} discovers the Nest: knowledge +1 (now {k}).", seat=seat))
    roll = p.empty and not p.careful
    if effect == "silence":
        if state.crew.characters[seat].slime:
            cons.append(C("silence-as-danger", "Silence token, but the character has slime: resolved as danger.",
                          seat=seat))
            return danger(state, seat, p.room, cons)
        cons.append(C("no-noise-roll", "Silence: no noise roll after this move.", seat=seat))
        return state
    if effect == "danger":
        return danger(state, seat, p.room, cons)
    if effect == "slime":
        state = with_character(state, seat, slime=True)
        cons.append(C("slime", f"{who(state, seat)} gets a slime marker.", seat=seat))
    elif effect == "fire":
        state = M.place_fire(state, p.room, cons)
        if state.end.ended:
            return state
    elif effect == "malfunction":
        state = M.place_malfunction(state, p.room, cons)
        if state.end.ended:
            return state
    elif effect == "door" and state.board.surface and (crossroad or p.via is None or is_area(p.via)):
        cons.append(C("no-door", "Door token, but the character came along a path (or the way is unknown): paths "
                      "never hold doors, nothing is placed.", corridor=p.via))
    elif effect == "door":
        if p.via and p.via != TECHNICAL and p.via not in state.ship.destroyed_doors:
            state = replace_in(state, "ship", doors=state.ship.doors | {p.via})
        cons.append(C("door", "A closed door is placed in the corridor the character came through.",
                      corridor=p.via))
    elif effect in ("red_item", "yellow_item", "green_item"):
        colour = effect.split("_")[0]
        cons.append(C("draw-item", f"{who(state, seat)} draws 1 card from the {colour} item deck (record "
                      f"ItemGained).", seat=seat, colour=colour))
    elif effect == MARS_CARD:
        cons.append(C("mars-card", f"{who(state, seat)} draws and resolves 1 Mars surface card, then the noise roll "
                      f"follows as usual; the table records the card's effects.", seat=seat, room=p.room))
    if roll:
        cons.append(C("noise-roll-due", f"{who(state, seat)} entered an empty room: a noise roll is due.", seat=seat))
        state = M.push_front(state, Pending("noise", seat, p.room, reason="entered an empty room"))
    return state


def due_room(state: LockdownState, kind: str, seat: int) -> tuple[LockdownState, str | None]:
    """Take the seat's pending ``kind`` step off the queue: its room, or the seat's own room when none was due."""
    state, p = M.pop_pending(state, kind, seat)
    return state, (p.room if p else state.crew.characters[seat].room)


def noise_rolled(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    seat = fact.actor
    state, place = due_room(state, "noise", seat)
    if place is None:
        return state
    return noise(state, seat, place, noise_result(fact.data["result"]), cons)


def encounter_drawn(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    seat = fact.actor
    state, place = due_room(state, "encounter", seat)
    if place is None:
        return state
    token = resolve_token(fact.data["token"])
    if token == "blank":
        cons.append(C("blank", "Blank token: noise markers go in every corridor of the room; the token returns to "
                      "the bag.", room=place))
        keys = state.board.corridors_of(place)
        if keys is None:
            cons.append(C("table-resolves", "This board's corridors are unknown: the table places those noise "
                          "markers.", room=place))
        for key in keys or ():
            if key not in state.ship.noise:
                state = M.add_noise(state, key, place, cons)
        if sum(state.colony.bag.values()) <= state.colony.bag.get("blank", 0):
            state = M.supply_to_bag(state, "adult", cons)
        return state
    state = M.set_aside(state, token)  # the drawn token is put aside (seed 000 L2834–2836)
    state, iid = M.place_intruder(state, token, place, cons)
    number = fact.data.get("number")
    hand = state.crew.characters[seat].hand
    if number is not None and hand < number and iid is not None:
        cons.append(C("surprise-attack", f"Surprise attack: {who(state, seat)} holds {hand} card(s), fewer than "
                      f"{number}: the {token} attacks (record IntruderAttacked).", seat=seat, intruder=iid))
        state = M.push_front(state, Pending("attack", seat, place, reason="surprise attack", intruder=iid))
    elif number is not None:
        cons.append(C("no-surprise-attack", f"No surprise attack ({hand} card(s) in hand, token {number}).",
                      seat=seat))
    return state


def moved_by_effect(state, fact, cons):
    """A move made by a card or effect (its own fact, not a Movement action): no cost, no escape attack; the room
    entered is resolved as after a move unless the fact says otherwise (assumption, as for Ogień osłonowy)."""
    d = fact.data
    seat = fact.actor
    origin = state.crew.characters[seat].room
    dest = resolve_place(state, d["to_room"])
    key = M.entry_key(state, origin, dest, d["corridor"]) if d.get("corridor") is not None else None
    occupied = M.occupied(state, dest, seat)
    state = with_character(state, seat, room=dest)
    cons.append(C("card-move", f"{d['effect']}: {who(state, seat)} goes from {state.room_label(origin)} to "
                  f"{state.room_label(dest)} (no action, no stalker attack).", seat=seat, from_room=origin,
                  to_room=dest, corridor=key, effect=d["effect"]))
    M.combat_notice(state, seat, dest, cons)
    if d.get("resolve") is False:
        return state
    return M.entered(state, seat, dest, key, occupied, cons)


def noise_placed(state, fact, cons):
    place = resolve_place(state, fact.data["room"])
    key = state.board.corridor_key(place, fact.data["corridor"])
    if key is None or key in state.ship.noise:
        return state
    return M.add_noise(state, key, place, cons)


def noise_removed(state, fact, cons):
    place = resolve_place(state, fact.data["room"])
    key = state.board.corridor_key(place, fact.data["corridor"])
    cons.append(C("noise-removed", "Noise marker removed.", corridor=key))
    return replace_in(state, "ship", noise=state.ship.noise - {key})


# --- offers (what next_inputs proposes; inputs/inputs_play compose them in the seeded generator's order) -------

TOKEN_NUMBERS = range(0, 5)  # the numbers printed on the colony tokens' backs (data/colony.json: 0-4)


def bag_tokens(state: LockdownState) -> list[str]:
    """The colony tokens still in the bag (what a draw may show)."""
    return [t for t, n in state.colony.bag.items() if n > 0]


def _exploration_tokens(state: LockdownState, place: str) -> list[dict] | None:
    """The underground exploration tokens as effect x item number (data/exploration.json); the surface's
    tokens and boards without the data stay free values."""
    from service.rules.lockdown import catalog
    if state.board.surface and state.board.places[place].zone != "underground":
        return None
    data = catalog.data("exploration")
    low, high = data["items_range"]
    return [{"effect": e, "items": n} for e in data["effects"] for n in range(low, high + 1)]


def pending_offers(state: LockdownState) -> list[Expected]:
    """The pending sub-step of a move (the room explored, the noise roll, the encounter token) — any pending step
    the other concepts left (``combat.pending_offers`` comes first) is an encounter."""
    p = state.clock.pending[0]
    if p.kind == "explore":
        slot = state.ship.rooms[p.room]
        if slot.tile is not None:
            tiles = [slot.tile]
        else:
            used = {r.tile for r in state.ship.rooms.values() if r.tile}
            tiles = [r.id for r in ROOMS if r.kind in ((slot.kind,) if slot.kind != "any" else ("I", "II"))
                     and r.id not in used]
        if state.board.is_crossroad(p.room):
            tiles = ["crossroad"]  # mars side: no tile, only the surface exploration token (lockdown.md §12.5)
        return [Expected("RoomExplored", p.seat, {"room": tiles, "token": _exploration_tokens(state, p.room)},
                         f"{who(state, p.seat)} entered unexplored {p.room}: record the tile and the exploration "
                         f"token revealed")]
    if p.kind == "noise":
        extra = [MARS_CARD] if state.board.surface and state.board.places[p.room].zone != "underground" else []
        return [Expected("NoiseRolled", p.seat, {"result": list(NOISE_RESULTS) + extra},
                         f"noise roll for {who(state, p.seat)} in {state.room_label(p.room)} ({p.reason})")]
    return [Expected("EncounterTokenDrawn", p.seat, {"token": bag_tokens(state), "number": list(TOKEN_NUMBERS)},
                     f"encounter in {state.room_label(p.room)}: record the token drawn from the colony bag")]


def offers(state: LockdownState, seat: int) -> list[Expected]:
    """The moves ``seat`` may make in its turn (plain, then careful), with the Knee wound's surcharge when due."""
    c = state.crew.characters[seat]
    b = state.board
    out: list[Expected] = []
    who_ = who(state, seat)
    if c.status != "base":
        return []
    if c.room is not None and c.hand >= MOVE_COST["CharacterMoved"]:
        if b.has_graph:
            for key, number, other in b.exits(c.room):
                if key in state.ship.doors:
                    continue
                out.append(Expected("CharacterMoved", seat, {"to_room": [other], "corridor": [number]},
                                    f"{who_} moves to {state.room_label(other)}"))
        else:
            for rooms, numbers, _ in _open_groups(state, c.room, False):
                out.append(Expected("CharacterMoved", seat, {"to_room": rooms, "corridor": numbers},
                                    f"{who_} moves; this board's corridors are unknown, so any room and corridor "
                                    f"number is accepted (but not through a closed door)"))
    if c.room is not None and c.hand >= MOVE_COST["CharacterMovedCarefully"] and not state.in_combat(seat):
        if b.has_graph:
            for key, number, other in b.exits(c.room):
                if key in state.ship.doors:
                    continue
                free = [n for n in b.numbers_of(other) if b.corridor_key(other, n) not in state.ship.noise]
                if free:
                    out.append(Expected("CharacterMovedCarefully", seat,
                                        {"to_room": [other], "corridor": [number], "noise_corridor": free},
                                        f"{who_} moves carefully to {state.room_label(other)}"))
        else:
            for rooms, numbers, free in _open_groups(state, c.room, True):
                if free:
                    out.append(Expected("CharacterMovedCarefully", seat,
                                        {"to_room": rooms, "corridor": numbers, "noise_corridor": free},
                                        f"{who_} moves carefully; the noise corridor must not already hold a "
                                        f"marker"))
    if out and knee_surcharge_due(state, seat):  # faq_lockdown.md 7: the amount is the table's (card not in sources)
        out = [Expected(e.type, seat, {**e.options, "surcharge": list(range(1, c.hand - MOVE_COST[e.type] + 1))},
                        f"{e.note} (+ the Knee wound's surcharge, recorded as 'surcharge')")
               for e in out if c.hand > MOVE_COST[e.type]]
    return out


def _open_groups(state: LockdownState, here: str, careful: bool) -> list[tuple[list[str], list, list[int]]]:
    """Board without a corridor graph: the rooms a move may enter, grouped so that every listed corridor is open
    (no closed door: lockdown.md §2.8) and, for a careful move, every listed noise corridor is free."""
    b = state.board
    numbers: list = [1, 2, 3, 4] + (["path"] if b.surface else [])
    rooms = [p for p in state.ship.rooms if p != here]
    doors, noise = state.ship.doors, state.ship.noise if careful else frozenset()
    if not doors and not noise:
        return [(rooms, numbers, [1, 2, 3, 4])]
    groups: dict[tuple, list[str]] = {}
    for p in rooms:
        open_ = tuple(n for n in numbers if b.corridor_key(p, n) not in doors) if doors else tuple(numbers)
        free = tuple(n for n in (1, 2, 3, 4) if b.corridor_key(p, n) not in noise) if noise else (1, 2, 3, 4)
        groups.setdefault((open_, free), []).append(p)
    return [(rs, list(o), list(f)) for (o, f), rs in groups.items() if o]


def moved_by_effect_offers(state: LockdownState, seats: list[int]) -> list[Expected]:
    """Table effect: a card's move (its own fact, not a Movement) — the table names the room and the card."""
    rooms = list(state.ship.rooms)
    return [offer("CharacterMovedByEffect", s, len(rooms), lambda: Expected(
        "CharacterMovedByEffect", s, {"to_room": rooms, "effect": None}, TABLE_EFFECT))
        for s in seats if state.crew.characters[s].status == "base" and state.crew.characters[s].room is not None]


@lru_cache(maxsize=4096)
def _noise_offers(board, noise: frozenset) -> tuple[tuple[Expected, ...], tuple[Expected, ...]]:
    """NoiseMarkerPlaced (free corridors) and NoiseMarkerRemoved (corridors with a marker), by value of ``noise``."""
    placed = grouped("NoiseMarkerPlaced", corridor_groups(board, lambda k: k not in noise), {}, TABLE_EFFECT)
    removed = (grouped("NoiseMarkerRemoved", corridor_groups(board, lambda k: k in noise), {}, TABLE_EFFECT)
               if noise else [])
    return tuple(placed), tuple(removed)


def noise_placed_offers(state: LockdownState) -> tuple[Expected, ...]:
    """Table effect: a noise marker placed in a free corridor."""
    return _noise_offers(state.board, state.ship.noise)[0]


def noise_removed_offers(state: LockdownState) -> tuple[Expected, ...]:
    """Table effect: a noise marker removed from a corridor holding one."""
    return _noise_offers(state.board, state.ship.noise)[1]


# --- the declarations --------------------------------------------------------------------------------------

_SPECS = (
    FactSpec("CharacterMoved", "seat",
             "Move action (costs 1 card): the character entered an adjacent room through the numbered corridor.",
             (_f("to_room", "room", "the room entered: slot id (e.g. slot-07) or the room's id/name if known"),
              _f("corridor", "move_corridor", "the number (1–4) of the corridor used, as printed at the room entered; "
                 "'path' for a path to or from a crossroad (mars side)"),
              _f("surcharge", "count0", SURCHARGE_DOC, False)),
             {"to_room": "slot-07", "corridor": 2}, S.MOVE),
    FactSpec("CharacterMovedCarefully", "seat",
             "Careful Move action (costs 2 cards, out of combat): as a move, but a noise marker is placed instead of a noise roll.",
             (_f("to_room", "room", "the room entered"),
              _f("corridor", "move_corridor", "the number of the corridor used ('path' to or from a crossroad)"),
              _f("noise_corridor", "corridor", "the number of the corridor (leading to the room entered) that gets the noise marker"),
              _f("surcharge", "count0", SURCHARGE_DOC, False)),
             {"to_room": "archive", "corridor": 1, "noise_corridor": 3}, S.CAREFUL),
    FactSpec("CharacterMovedByEffect", "seat",
             "A card or effect moved the character (e.g. through the vents): not a Movement action — no card paid, "
             "no action counted, no escape attack; the room entered is resolved as after a move (exploration, or a "
             "noise roll when empty) unless `resolve` is false.",
             (_f("to_room", "room", "the room the character was put in"),
              _f("effect", "text", "the card or effect that moved it (e.g. 'Przewody wentylacyjne')"),
              _f("corridor", "move_corridor", "the corridor used, if the effect names one", False),
              _f("resolve", "bool", "the room entered is resolved as after a move (default true)", False)),
             {"to_room": "slot-07", "effect": "vents"}, S.MOVE),
    FactSpec("RoomExplored", "seat",
             "The room just entered was unexplored: its tile and exploration token were revealed.",
             (_f("room", "tile", "the room tile revealed (id or name)"),
              _f("token", "exploration_token", "the exploration token: {effect, items}")),
             {"room": "archive", "token": {"effect": "fire", "items": 3}}, S.EXPLORE),
    FactSpec("NoiseRolled", "seat",
             "A noise roll due for this character: 1–4, 'danger' or 'silence'.",
             (_f("result", "noise_result", "1, 2, 3, 4, 'danger' or 'silence'"),),
             {"result": 3}, S.NOISE),
    FactSpec("EncounterTokenDrawn", "seat",
             "An encounter: a token was drawn from the colony bag for the character's room.",
             (_f("token", "colony_token", "larva, creeper, adult, breeder, queen or blank"),
              _f("number", "count", "the number on the token's back that applied (lit/dark), for the surprise-attack check", False)),
             {"token": "adult", "number": 2}, S.ENCOUNTER),
    FactSpec("NoiseMarkerPlaced", "table", "A noise marker was placed by an effect (card, event).",
             (_f("room", "room", "the room"), _f("corridor", "corridor", "its corridor number")),
             {"room": "slot-04", "corridor": 1}, S.NOISE),
    FactSpec("NoiseMarkerRemoved", "table", "A noise marker was removed by an effect.",
             (_f("room", "room", "the room"), _f("corridor", "corridor", "its corridor number")),
             {"room": "slot-04", "corridor": 1}, S.NOISE),
)
_CHECKS = (check_move, check_move, check_moved_by_effect, check_room_explored, check_noise_rolled, check_encounter,
           check_noise_placed, check_noise_removed)
_EFFECTS = (moved, moved, moved_by_effect, room_explored, noise_rolled, encounter_drawn, noise_placed, noise_removed)
FACT_TYPES: tuple[FactType, ...] = tuple(FactType(*t) for t in zip(_SPECS, _CHECKS, _EFFECTS))
SPECS = tuple(t.spec for t in FACT_TYPES)
RULES = {t.spec.type: t.check for t in FACT_TYPES}
EFFECTS = {t.spec.type: t.effect for t in FACT_TYPES}
