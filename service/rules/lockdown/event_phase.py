"""The event phase: the CSS pods' launch, the time track (self-destruct, alarm, power thresholds, time out), the
noise markers cleared, the stalkers' attacks and the fire, the event card and the intruders it moves, and the
colony draw.

Each fact type of the concept is declared here once (``FACT_TYPES``): its spec, its check, its effect. And its
offers: the step to record now (``event_offers``), the intruders a card moves (a table effect that
``inputs_play.table_effects`` composes with the others, in the order the seeded generator depends on), and the
phase's walk for the guided recorder (``round_procedure``). Decision 0029.

    >>> [t.spec.type for t in FACT_TYPES][:2]
    ['CssTokenRevealed', 'TimeAdvanced']
"""
from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType

from service.rules.base import Consequence, Expected, Fact, Violation
from service.rules.kit.builders import consequence as C, violation as V
from service.rules.kit.facts import FactSpec, FactType, field_spec as _f
from service.rules.kit.replace import replace, replace_in
from service.rules.lockdown import mechanics as M, sections as S
from service.rules.lockdown.board import TECHNICAL
from service.rules.lockdown.components import EVENT_CARDS, ROOMS
from service.rules.lockdown.movement import bag_tokens, colony_draw, corridor_unverified, path_rules
from service.rules.lockdown.offers import TABLE_EFFECT
from service.rules.lockdown.state import (
    ATTACKS, COLONY_STEP, CSS, EVACUATED, EVENT, EVENT_CARD, FIRST_PLAYER, IN_BASE, NOISE_CLEANUP, PLAYER, ROUND_END,
    TIME, LockdownState, Pending, who, with_character,
)
from service.rules.lockdown.turns import STEP_NAMES
from service.rules.lockdown.values import resolve_card, resolve_place, resolve_token


# --- checks --------------------------------------------------------------------------------------------------

EVENT_STEP_FACT = {CSS: "CssTokenRevealed", TIME: "TimeAdvanced", NOISE_CLEANUP: "NoiseMarkersCleared",
                   EVENT_CARD: "EventCardDrawn", COLONY_STEP: "ColonyTokenDrawn"}


def event_step_check(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.clock.phase != EVENT:
        waiting = [str(s) for s in state.player_order() if not state.crew.characters[s].passed]
        return [V("event-phase-not-started", f"{fact.type} belongs to the event phase, but the player phase is "
                  f"still on (seats {', '.join(waiting) or '—'} have not passed).", S.EVENT_PHASE)]
    if EVENT_STEP_FACT.get(state.clock.step) != fact.type:
        return [V("event-step-order", f"{fact.type} is out of order: the event phase is at "
                  f"{STEP_NAMES.get(state.clock.step, state.clock.step)}.", S.EVENT_PHASE)]
    return []


def check_css(state: LockdownState, fact: Fact) -> list[Violation]:
    out = event_step_check(state, fact)
    return out


def check_cleared(state: LockdownState, fact: Fact) -> list[Violation]:
    out = event_step_check(state, fact)
    if out:
        return out
    b = state.board
    for m in fact.data["removed"]:
        place = resolve_place(state, m["room"])
        key = b.corridor_key(place, m["corridor"])
        label = f"corridor {m['corridor']} of {state.room_label(place)}"
        if key is None or key not in state.ship.noise:
            out.append(V("no-such-marker", f"There is no noise marker in {label}.", S.NOISE_CLEANUP, "removed"))
        elif key == TECHNICAL:
            out.append(V("technical-marker-stays", f"The noise marker on the technical corridors space ({label}) is "
                         f"never removed in this step.", S.NOISE_CLEANUP, "removed"))
        elif any(state.characters_in(r) for r in b.rooms_of(key)):
            out.append(V("marker-next-to-character", f"The noise marker in {label} leads to a room with a character "
                         f"and stays.", S.NOISE_CLEANUP, "removed"))
    return out


def check_event_card(state: LockdownState, fact: Fact) -> list[Violation]:
    out = event_step_check(state, fact)
    if out:
        return out
    card = resolve_card(fact.data["card"], fact.data.get("corridors"))
    if card.id in state.decks.removed_events:
        out.append(V("event-card-removed", f"{card.label} was removed from the game earlier and cannot be drawn "
                     f"again.", S.EVENT_CARD, "card"))
    given = fact.data.get("corridors")
    if given is not None and list(card.corridors) != given:
        out.append(V("event-card-corridors", f"{card.label} shows corridor {' then '.join(map(str, card.corridors))}, "
                     f"not {' then '.join(map(str, given))}.", S.EVENT_CARD, "corridors"))
    return out


def check_colony(state: LockdownState, fact: Fact) -> list[Violation]:
    return event_step_check(state, fact) or colony_draw(state, fact)


def check_intruder_moved(state: LockdownState, fact: Fact) -> list[Violation]:
    b = state.board
    intruder = next(i for i in state.colony.intruders if i.id == fact.data["intruder"])
    dest = resolve_place(state, fact.data["to_room"])
    if b.has_graph and dest not in b.adjacent(intruder.room) and dest != intruder.room:
        return [V("not-adjacent", f"{state.room_label(dest)} is not adjacent to {state.room_label(intruder.room)}.",
                  S.EVENT_CARD, "to_room")]
    if b.surface and fact.data.get("corridor") is not None and dest != intruder.room:
        return path_rules(state, intruder.room, dest, fact.data["corridor"])
    return []


# --- effects -------------------------------------------------------------------------------------------------

def css(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    """Pod launch (lockdown.md §11.6): a letter launches that pod, ALL every pod, NONE nobody."""
    token = fact.data["token"]
    state = replace_in(state, "systems", launches=state.systems.launches + (token,),
                       css_at=state.systems.css_at - {state.time_space})
    if not state.systems.pods:
        cons.append(C("css-launch", f"CSS token {token} revealed; nobody is in a pod.", token=token))
    occupied = sorted(state.systems.pods.items())
    state = replace_in(state, "systems", pods=MappingProxyType({}))
    for letter, seat in occupied:
        if token == "ALL" or token == letter:
            cons.append(C("pod-launched", f"Pod {letter} launches: {who(state, seat)} is evacuated.", seat=seat,
                          pod=letter))
            state = with_character(state, seat, status=EVACUATED, pod=letter, room=None, passed=True)
        else:
            back = state.room_of_tile(f"css_{letter.lower()}")
            cons.append(C("pod-failed", f"Pod {letter} does not launch: {who(state, seat)} returns to "
                          f"{state.room_label(back)} with a serious wound.", seat=seat, pod=letter))
            state = with_character(state, seat, status=IN_BASE, pod=None, room=back)
            state = M.wound(state, seat, "serious", cons)
        if state.end.ended:
            return state
    state = M.check_base_empty(state, cons)
    if state.end.ended:
        return state
    return replace_in(state, "clock", step=TIME) if state.clock.phase == EVENT else state


def time_advanced(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    b = state.board
    before = state.clock.time
    t = min(state.clock.time + 1, len(b.time_spaces) - 1)
    state = replace_in(state, "clock", time=t, step=NOISE_CLEANUP if state.clock.phase == EVENT else state.clock.step)
    space = b.time_spaces[t]
    cons.append(C("time", f"The time token moves to {state.time_label}.", space=state.time_label))
    last = len(b.time_spaces) - 1
    if state.systems.self_destruct is not None:  # step 5A (lockdown.md §6.9)
        colour, at = state.systems.self_destruct
        if colour == "yellow" and t >= at:
            red = min(at + 3, last)
            state = replace_in(state, "systems", self_destruct=("red", red))
            cons.append(C("self-destruct-red", f"The time token reaches the yellow self-destruct token: it moves to "
                          f"{b.time_label(red)} and turns red — self-destruct can no longer be stopped.",
                          milestone="self_destruct_red", space=b.time_label(red)))
            state = M.open_gate(state, "self-destruct turned red", cons)
        elif colour == "red" and ((before >= at and t != before) or (at == last and t >= last)):
            # PL erratum (faq_lockdown.md 31; EN rulebook p.10, p.12; seed L1615–1617): the base is destroyed
            # when the time token LEAVES the red token's space, not when it arrives (seed L1390–1392 misprint).
            # A red token on the last space cannot be left: it is resolved with the end conditions (L1394–1396).
            cons.append(C("self-destruct", f"The time token leaves the red self-destruct token's space "
                          f"({b.time_label(at)}): the base is destroyed.", space=b.time_label(at)))
            return M.end_game(state, "base_destroyed", cons)
    if state.systems.alarm is not None and before == state.systems.alarm and t != before:
        cons.append(C("alarm-end", "The time token leaves the alarm procedure space: the rapid response team "
                      "arrives.", space=b.time_label(before)))
        return M.end_game(state, "alarm_procedure", cons)
    if space == b.isolation_opens_at and not state.ship.isolation_open:
        state = replace_in(state, "ship", isolation_open=True)
        cons.append(C("milestone-isolation", "First white space: the Isolation Room opens (characters may lock "
                      "themselves in).", milestone="isolation_open"))
    thresholds = b.power_thresholds
    if space in thresholds.get("blue_drop_always", ()):
        state = _power_drop(state, "blue", cons)
    elif space in thresholds.get("red_drop_only_if_backup_power_inactive", ()):
        if state.ship.emergency_power:
            cons.append(C("power-kept", "Red power threshold, but emergency power is active: no drop.",
                          threshold="red"))
        else:
            state = _power_drop(state, "red", cons)
    if t == last:
        cons.append(C("time-out", "Time is up: the time token reaches the last space.", space=state.time_label))
        return M.end_game(state, "time_out", cons)
    return state


def _power_drop(state: LockdownState, colour: str, cons: list[Consequence]) -> LockdownState:
    """A power drop flips the active power token with the highest number (lockdown.md §9.4)."""
    on = [(n, loc) for loc, (n, lit) in state.ship.power.items() if lit]
    if not on:
        cons.append(C("power-drop", f"{colour.capitalize()} power threshold: no power token is active.",
                      threshold=colour))
        return state
    n, loc = max(on)
    power = state.ship.power.copy()
    power[loc] = (n, False)
    cons.append(C("power-drop", f"{colour.capitalize()} power threshold: power token {n} ({loc}) turns off.",
                  threshold=colour, location=loc, token=n))
    return replace_in(state, "ship", power=MappingProxyType(power))


def cleared(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    removed = set()
    for m in fact.data["removed"]:
        place = resolve_place(state, m["room"])
        key = state.board.corridor_key(place, m["corridor"]) if place else None
        if key in state.ship.noise:
            removed.add(key)
    cons.append(C("noise-cleared", f"{len(removed)} noise marker{'s' if len(removed) != 1 else ''} removed.",
                  removed=sorted(removed)))
    state = replace_in(state, "ship", noise=state.ship.noise - removed)
    if state.clock.phase != EVENT:
        return state
    attacks = []
    for it in state.colony.intruders:  # step 7: every stalker in a room with a character attacks
        if state.characters_in(it.room):
            attacks.append(Pending("attack", None, it.room, reason="event phase", intruder=it.id))
    if attacks:
        cons.append(C("stalker-attacks", f"Night stalker attacks: {len(attacks)} stalker(s) in combat attack "
                      f"(record IntruderAttacked for each).", intruders=[p.intruder for p in attacks]))
    return replace_in(state, "clock", step=ATTACKS, pending=state.clock.pending + tuple(attacks))


def fire_step(state: LockdownState, cons: list[Consequence]) -> LockdownState:
    """Event step 8: stalkers in burning rooms suffer 1 injury; 1 unheld egg there burns (lockdown.md §4)."""
    for it in list(state.colony.intruders):
        if state.ship.rooms[it.room].fire and M.intruder(state, it.id):
            cons.append(C("fire-injury", f"The {it.kind} ({it.id}) burns: 1 injury.", intruder=it.id))
            state = M.injure(state, it.id, 1, cons)
    for place, objs in list(state.ship.objects.items()):
        if state.ship.rooms[place].fire and "egg" in objs:
            state = M.take_object(state, place, "egg")
            cons.append(C("egg-burned", f"An egg burns in {state.room_label(place)}.", room=place))
    nest = state.room_of_tile("nest")
    if nest and state.ship.rooms[nest].fire and state.ship.rooms[nest].explored and state.colony.eggs:
        state = replace_in(state, "colony", eggs=state.colony.eggs - 1)
        cons.append(C("egg-burned", f"An egg in the burning Nest is destroyed ({state.colony.eggs} left).", room=nest))
        state = M.nest_check(state, cons)
    return state


def _move_intruders(state: LockdownState, card, cons: list[Consequence]) -> LockdownState:
    b = state.board
    kinds = set(card.moves)
    if not b.has_graph:
        if any(i.kind in kinds for i in state.colony.intruders):
            cons.append(C("table-resolves", f"Stalkers ({', '.join(card.moves)}) not in combat move through corridor "
                          f"{' then '.join(map(str, card.corridors))}; this board's corridors are unknown, so record "
                          f"each move with IntruderMoved.", kinds=list(card.moves)))
        return state
    intruders = list(state.colony.intruders)
    doors = set(state.ship.doors)
    for idx, intruder in enumerate(list(intruders)):
        if intruder.kind not in kinds or state.characters_in(intruder.room):
            continue
        room = intruder.room
        for step, n in enumerate(card.corridors):
            key = b.corridor_key(room, n)
            if key is None:
                break
            if key == TECHNICAL:
                intruders[idx] = None  # type: ignore[call-overload]
                state = M.return_tokens(state, intruder.kind, 1, cons)
                cons.append(C("intruder-vanished", f"The {intruder.kind} ({intruder.id}) disappears into the "
                              f"technical corridors; its token returns to the bag.", intruder=intruder.id))
                break
            if key in doors:
                doors.discard(key)
                cons.append(C("door-destroyed", f"The {intruder.kind} ({intruder.id}) destroys the closed door in "
                              f"corridor {n} instead of moving.", intruder=intruder.id, corridor=key))
                break
            room = b.other_end(key, room) or room
            cons.append(C("intruder-moved", f"The {intruder.kind} ({intruder.id}) moves through corridor {n} to "
                          f"{state.room_label(room)}.", intruder=intruder.id, to_room=room))
            if state.characters_in(room):
                break
        if intruders[idx] is not None:
            intruders[idx] = replace(intruder, room=room)
    return replace_in(replace_in(state, "colony", intruders=tuple(i for i in intruders if i is not None)), "ship",
                      doors=frozenset(doors))


def _coolant_leak(state: LockdownState, cons: list[Consequence]) -> LockdownState:
    """Coolant Leak (Wyciek chłodziwa, seed 000 L1865–1897): a malfunction in the Cooling System starts the
    self-destruct countdown, otherwise a malfunction is placed there (after the stalkers moved)."""
    place = state.room_of_tile("cooling_system")
    if place is None or not state.ship.rooms[place].explored:
        cons.append(C("event-effect", "Coolant Leak: the Cooling System is not explored, so no malfunction marker "
                      "can be placed there; nothing happens.", card="coolant_leak"))
        return state
    if state.ship.rooms[place].malfunction:
        if state.systems.self_destruct is not None:
            cons.append(C("event-effect", "Coolant Leak: the Cooling System has a malfunction, but the self-destruct "
                          "countdown is already running.", card="coolant_leak"))
            return state
        cons.append(C("event-effect", "Coolant Leak: the Cooling System has a malfunction — the self-destruct "
                      "countdown starts.", card="coolant_leak"))
        return M.start_self_destruct(state, cons)
    cons.append(C("event-effect", "Coolant Leak: a malfunction marker goes into the Cooling System.",
                  card="coolant_leak"))
    return M.place_malfunction(state, place, cons)


def _dark_in(state: LockdownState, place: str | None) -> bool:
    return bool(place) and state.dark(place)


def _tile_places(state: LockdownState, card, tiles, what: str, cons: list[Consequence]) -> list[str]:
    """The spaces holding ``tiles``; a tile not yet placed is named for the table to resolve."""
    places, missing = [], []
    for t in tiles:
        p = state.room_of_tile(t)
        (places if p is not None else missing).append(p if p is not None else ROOMS[t].en)
    if missing:
        cons.append(C("event-effect", f"{card.en}: where {', '.join(missing)} lies is not recorded — place the "
                      f"{what} there at the table (FirePlaced / MalfunctionPlaced).", card=card.id))
    return places


def _kickstopper(state: LockdownState, card, cons: list[Consequence]) -> LockdownState:
    """Kickstopper: the elevator's power token turns inactive; a malfunction in every Elevator Room."""
    n, _on = state.ship.power.get("elevator", (4, False))
    power = state.ship.power.copy()
    power["elevator"] = (n, False)
    state = replace_in(state, "ship", power=MappingProxyType(power))
    cons.append(C("event-effect", f"{card.en}: the elevator's power token turns inactive; a malfunction marker goes "
                  f"into every Elevator Room.", card=card.id))
    for place in _tile_places(state, card, ("elevator_room_s01", "elevator_room_s02", "elevator_room_s03"),
                              "malfunction marker", cons):
        state = M.place_malfunction(state, place, cons)
        if state.end.ended:
            break
    return state


def _thats_hot(state: LockdownState, card, cons: list[Consequence]) -> LockdownState:
    """That's Hot: fire in the Backup Power Supply and the Power Generator."""
    cons.append(C("event-effect", f"{card.en}: fire in the Backup Power Supply and the Power Generator.",
                  card=card.id))
    for place in _tile_places(state, card, ("backup_power_supply", "power_generator"), "fire marker", cons):
        state = M.place_fire(state, place, cons)
        if state.end.ended:
            break
    return state


def _fire_in_the_hole(state: LockdownState, card, cons: list[Consequence]) -> LockdownState:
    """Fire in the Hole: fire in the CSS rooms A, B and C; every character there without action cards in hand
    takes 1 serious wound."""
    cons.append(C("event-effect", f"{card.en}: fire in the CSS rooms A, B and C; a character there with no action "
                  f"card in hand takes a serious wound.", card=card.id))
    for place in _tile_places(state, card, ("css_a", "css_b", "css_c"), "fire marker", cons):
        state = M.place_fire(state, place, cons)
        if state.end.ended:
            return state
        for seat in state.characters_in(place):
            if state.crew.characters[seat].hand == 0:
                state = M.wound(state, seat, "serious", cons)
    return state


def _damage(state: LockdownState, card, cons: list[Consequence]) -> LockdownState:
    """Damage: a malfunction in every room with an adult, breeder or queen; in darkness also in every room with a
    character."""
    rooms = {i.room for i in state.colony.intruders if i.kind in ("adult", "breeder", "queen") and i.room}
    dark = {c.room for c in state.crew.characters.values() if c.status == IN_BASE and _dark_in(state, c.room)}
    cons.append(C("event-effect", f"{card.en}: a malfunction marker in every room with an adult, breeder or queen"
                  + (", and (darkness) in every dark room with a character." if dark else "."), card=card.id))
    for place in sorted(rooms | dark):
        state = M.place_malfunction(state, place, cons)
        if state.end.ended:
            break
    return state


def _power_surge(state: LockdownState, card, cons: list[Consequence]) -> LockdownState:
    """Power Surge (Przepięcie): the time token turns to its inactive side (emergency power off)."""
    cons.append(C("event-effect", f"{card.en}: the time token turns to its inactive side (emergency power off).",
                  card=card.id))
    return replace_in(state, "ship", emergency_power=False)


def _bulkheads_open(state: LockdownState, card, cons: list[Consequence]) -> LockdownState:
    """Bulkheads Open: every door that is not destroyed opens (the darkness box needs the corridor map)."""
    cons.append(C("event-effect", f"{card.en}: every closed door opens ({len(state.ship.doors)})."
                  + ("" if state.board.has_graph else " Darkness box: the table places the noise markers in the "
                     "empty corridors touching a dark room with a character."), card=card.id))
    return replace_in(state, "ship", doors=frozenset())


# That's Hot is written (_thats_hot) but not derived yet: the demo game "club three players" drew it and recorded
# no fire, and deriving it changes that game's event steps (docs/rules-gaps.md, Event cards)
EVENT_EFFECTS = {"kickstopper": _kickstopper, "fire_in_the_hole": _fire_in_the_hole,
                 "damage": _damage, "power_surge": _power_surge, "bulkheads_open": _bulkheads_open}


def event_card(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    card = resolve_card(fact.data["card"], fact.data.get("corridors"))
    cons.append(C("event-card", f"Event: {card.label} (stalkers {', '.join(card.moves)}, corridor "
                  f"{' then '.join(map(str, card.corridors))}).", card=card.id))
    state = _move_intruders(state, card, cons)
    if card.id == "coolant_leak":
        state = _coolant_leak(state, cons)
        if state.end.ended:
            return state
    elif card.id in EVENT_EFFECTS:
        state = EVENT_EFFECTS[card.id](state, card, cons)
        if state.end.ended:
            return state
    else:
        cons.append(C("event-effect", f"Resolve the effect of {card.en} at the table (event effects are not "
                      f"modelled yet).", card=card.id))
    if card.removed:
        cons.append(C("event-removed", f"{card.label} is removed from the game.", card=card.id))
        state = replace_in(state, "decks", removed_events=state.decks.removed_events | {card.id})
    state = replace_in(state, "decks", last_event_card=card.id)
    return replace_in(state, "clock", step=COLONY_STEP) if state.clock.phase == EVENT else state


def colony(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    token = resolve_token(fact.data["token"])
    cons.append(C("colony-draw", f"Colony: a {token} token is drawn.", token=token))
    if token in ("larva", "creeper"):
        state = M.set_aside(state, token)  # "put the removed token beside the board" (seed 000 L1825)
        cons.append(C("colony-token-removed", f"The {token} token is set aside next to the board.", token=token))
        state = M.supply_to_bag(state, "adult" if token == "larva" else "breeder", cons)
    elif token in ("adult", "breeder"):
        rollers = [s for s in state.player_order()
                   if state.crew.characters[s].room is not None and not state.in_combat(s)]
        cons.append(C("colony-noise", "The token returns to the bag; every player not in combat makes a noise roll, "
                      "in player order: " + (", ".join(f"seat {s}" for s in rollers) or "nobody") + ".",
                      seats=rollers))
        state = replace_in(state, "clock", pending=state.clock.pending + tuple(
            Pending("noise", s, state.crew.characters[s].room, reason=f"colony: {token} drawn") for s in rollers))
    elif token == "queen":
        nest = state.room_of_tile("nest")
        inside = state.characters_in(nest) if nest and state.ship.rooms[nest].explored else ()
        if inside:
            state = M.set_aside(state, "queen")  # the drawn token places the queen (seed 000 L1843–1846)
            cleared = [k for k in state.board.local_keys(nest) if k in state.ship.noise]
            state = replace_in(state, "ship", noise=state.ship.noise - set(cleared))
            state, iid = M.place_intruder(state, "queen", nest, cons)
            cons.append(C("queen-encounter", f"The queen appears in the Nest: encounter with "
                          f"{', '.join(who(state, s) for s in inside)}. The surprise-attack target is unclear in the "
                          f"rules: the character with the fewest cards is assumed (4 on the token).",
                          seats=list(inside)))
            target = M.attack_target(state, nest)
            if iid and target is not None and state.crew.characters[target].hand < 4:
                state = M.push_front(state, Pending("attack", target, nest, reason="surprise attack", intruder=iid))
        else:
            state = replace_in(state, "colony", eggs=state.colony.eggs + 1)
            cons.append(C("egg-added", f"Nobody is in the Nest: the token returns and 1 egg is added (now "
                          f"{state.colony.eggs}).", eggs=state.colony.eggs))
    elif token == "blank":
        state = M.supply_to_bag(state, "adult", cons)
    return replace_in(state, "clock", step=ROUND_END) if state.clock.phase == EVENT else state


def intruder_moved(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    dest = resolve_place(state, fact.data["to_room"])
    intruders = tuple(replace(i, room=dest) if i.id == fact.data["intruder"] else i for i in state.colony.intruders)
    origin = next((i.room for i in state.colony.intruders if i.id == fact.data["intruder"]), None)
    cons.append(C("intruder-moved", f"Intruder {fact.data['intruder']} moves to {state.room_label(dest)}.",
                  intruder=fact.data["intruder"], to_room=dest))
    if origin and origin != dest and not state.board.has_graph:
        cons.append(corridor_unverified(state, origin, dest, fact.data.get("corridor"),
                                        f"intruder {fact.data['intruder']}:"))
    return replace_in(state, "colony", intruders=intruders)


# --- offers (what next_inputs proposes; inputs/inputs_play compose them in the seeded generator's order) -------

CSS_TOKENS = ("A", "B", "C", "ALL", "NONE")


def event_offers(state: LockdownState) -> list[Expected]:
    """The event phase's step to record now (the CSS token, the time token, the noise markers cleared, the event
    card, the colony draw); nothing at a derived step."""
    step = state.clock.step
    if step == CSS:
        return [Expected("CssTokenRevealed", None, {"token": list(CSS_TOKENS)},
                         f"a CSS token lies under space {state.time_label}: flip it")]
    if step == TIME:
        return [Expected("TimeAdvanced", None, {}, "move the time token 1 space right")]
    if step == NOISE_CLEANUP:
        b = state.board
        removable, powered = [], []
        for key in sorted(state.ship.noise):
            if key == TECHNICAL:
                continue
            rooms = b.rooms_of(key)
            if any(state.characters_in(r) for r in rooms) or not rooms:
                continue
            marker = {"room": rooms[0], "corridor": b.number_at(key, rooms[0])}
            removable.append(marker)
            # the rule removes them all (lockdown.md §4 step 6): that is the default; the sector power of a
            # corridor is left to the table, as the offer always did (docs/rules-gaps.md)
            powered.append(marker)
        return [Expected("NoiseMarkersCleared", None, {"removed": removable},
                         "list the markers removed (any of these, in powered sectors); the list may be empty",
                         {"removed": powered})]
    if step == EVENT_CARD:
        cards = [c.id for c in EVENT_CARDS if c.id not in state.decks.removed_events]
        return [Expected("EventCardDrawn", None, {"card": cards, "corridors": None},
                         "draw an event card; 'corridors' are the numbers printed on it")]
    if step == COLONY_STEP:
        return [Expected("ColonyTokenDrawn", None, {"token": bag_tokens(state)}, "draw a token from the colony bag")]
    return []


@lru_cache(maxsize=4096)
def _adjacent(board, place: str) -> list[str]:
    return list(board.adjacent(place))


def intruder_moved_offers(state: LockdownState) -> list[Expected]:
    """Table effect: an intruder moved by a card or an event (to an adjacent room; any room on a board whose
    corridors are unknown)."""
    if not state.colony.intruders:
        return []
    b = state.board
    if not b.has_graph:
        return [Expected("IntruderMoved", None, {"intruder": [i.id for i in state.colony.intruders],
                                                  "to_room": list(state.ship.rooms)},
                         f"{TABLE_EFFECT}; this board's corridors are unknown: any room")]
    out = []
    for i in state.colony.intruders:
        near = _adjacent(b, i.room)
        if near:
            out.append(Expected("IntruderMoved", None, {"intruder": [i.id], "to_room": near}, TABLE_EFFECT))
    return out


# The event phase in rulebook order (lockdown.md §4 steps 4-10, then step 2 of the next round): what the
# guided recorder walks through. ``fact`` is what the step records (None: derived, nothing to record).
ROUND_PROCEDURE = (
    (CSS, "CssTokenRevealed", "CSS pod launch (only under a CSS token)"),
    (TIME, "TimeAdvanced", "time token 1 space right"),
    (NOISE_CLEANUP, "NoiseMarkersCleared", "noise markers cleaned up"),
    (ATTACKS, "IntruderAttacked", "night stalker attacks, fire damage"),
    (EVENT_CARD, "EventCardDrawn", "event card"),
    (COLONY_STEP, "ColonyTokenDrawn", "colony bag token"),
    (FIRST_PLAYER, "FirstPlayerPassed", "first player token passes left (observers skipped)"),
)


def round_procedure(state: LockdownState) -> list[dict]:
    """The event phase's steps in rulebook order, each ``done`` (or not due), ``now`` or ``next``. Empty
    outside the event phase and the round's first step."""
    if state.end.ended or not (state.clock.phase == EVENT or (state.clock.phase == PLAYER and state.clock.step == FIRST_PLAYER)):
        return []
    order = [step for step, _, _ in ROUND_PROCEDURE]
    now = state.clock.step if state.clock.step in order else None
    at = order.index(now) if now else -1
    out = []
    for i, (step, fact, label) in enumerate(ROUND_PROCEDURE):
        status = "done" if i < at else "now" if i == at else "next"
        out.append({"step": step, "fact": fact, "label": label, "status": status})
    return out


# --- the declarations --------------------------------------------------------------------------------------

_SPECS = (
    FactSpec("CssTokenRevealed", "table",
             "Event step 4: the CSS token under the time token was flipped.",
             (_f("token", "css_token", "A, B, C, ALL or NONE"),),
             {"token": "NONE"}, S.CSS),
    FactSpec("TimeAdvanced", "table",
             "Event step 5: the time token moved 1 space right.",
             (), {}, S.TIME),
    FactSpec("NoiseMarkersCleared", "table",
             "Event step 6: the noise markers the table removed (powered sectors, corridors not leading to a character).",
             (_f("removed", "markers", "list of {room, corridor}; may be empty"),),
             {"removed": [{"room": "archive", "corridor": 2}]}, S.NOISE_CLEANUP),
    FactSpec("EventCardDrawn", "table",
             "Event step 9: an event card was drawn and resolved.",
             (_f("card", "event_card", "event card id or name"),
              _f("corridors", "corridor_list", "the corridor number(s) printed on the card (checked against the card)", False)),
             {"card": "lurking", "corridors": [2]}, S.EVENT_CARD),
    FactSpec("IntruderMoved", "table",
             "An intruder moved as the table resolved it (for boards whose corridor graph is unknown).",
             (_f("intruder", "intruder", "the intruder's id (e.g. 'i3')"),
              _f("to_room", "room", "the room it moved to"),
              _f("corridor", "move_corridor", "the corridor it used, as numbered at the room entered ('path' "
                 "along a path), when the table knows it", False)),
             {"intruder": "i1", "to_room": "slot-03", "corridor": 2}, S.EVENT_CARD),
    FactSpec("ColonyTokenDrawn", "table",
             "Event step 10: a token was drawn from the colony bag (bag development).",
             (_f("token", "colony_token", "larva, creeper, adult, breeder, queen or blank"),),
             {"token": "larva"}, S.COLONY),
)
_CHECKS = (check_css, event_step_check, check_cleared, check_event_card, check_intruder_moved, check_colony)
_EFFECTS = (css, time_advanced, cleared, event_card, intruder_moved, colony)
FACT_TYPES: tuple[FactType, ...] = tuple(FactType(*t) for t in zip(_SPECS, _CHECKS, _EFFECTS))
SPECS = tuple(t.spec for t in FACT_TYPES)
RULES = {t.spec.type: t.check for t in FACT_TYPES}
EFFECTS = {t.spec.type: t.effect for t in FACT_TYPES}
