"""Folding: a fact and a state give a new state and the consequences the rules derive.

``apply`` never raises on a well-shaped fact, even an illegal one (lenient games store
those): it does what the table recorded as far as it can. It never mutates its input.

    >>> from service.rules.base import Fact, Seat, Setup
    >>> from service.rules.lockdown.state import initial_state
    >>> s, cons = apply(initial_state(Setup(players=(Seat(1, "A"),))), Fact(1, "BoardPrepared", {"board": "basic"}))
    >>> s.step, cons[0].type
    ('characters', 'board-prepared')
"""
from __future__ import annotations

from service.rules.kit.replace import replace
from types import MappingProxyType
from typing import Callable

from service.rules.base import Consequence, Fact
from service.rules.lockdown.board import TECHNICAL
from service.rules.lockdown.checks import ACTIONS, who
from service.rules.lockdown.components import CHARACTERS, ROOMS
from service.rules.lockdown.facts import AFTER_END, resolve_card, resolve_place, resolve_token, shape_violations
from service.rules.lockdown import mechanics as M
from service.rules.lockdown.mechanics import add_noise, nest_check, start_self_destruct  # noqa: F401 (old path)
from service.rules.lockdown.mechanics import C, push_front, supply_to_bag
from service.rules.lockdown import movement
from service.rules.lockdown.movement import corridor_unverified  # noqa: F401 (old path: apply.corridor_unverified)
from service.rules.lockdown.unknowns import (
    INCOMPLETE, apply_escape, apply_gap, apply_nowhere, apply_unknown, room_unknown, unknown_fields,
)
from service.rules.lockdown.state import (
    ATTACKS, CHARACTERS as CHARACTERS_STEP, COLONY_STEP, CSS, DEAD, ENDED, EVACUATED, EVENT, EVENT_CARD,
    FIRST_PLAYER, HAND_SIZE, IN_BASE, IN_BUNKER, LOCKED_IN, NOISE_CLEANUP, PLAYER, READY, ROUND_END, TIME,
    TURNS, Intruder, LockdownState, Pending, SeriousWound, with_character, with_characters, with_room,
)

Result = tuple[LockdownState, list[Consequence]]


def apply(state: LockdownState, fact: Fact) -> Result:
    handler = HANDLERS.get(fact.type)
    cons: list[Consequence] = []
    shape = shape_violations(state, fact)
    if shape:  # cannot be applied at all; stores refuse such facts in every game
        cons.append(C("fact-ignored", f"{fact.type} was not applied: {shape[0].message}"))
        return replace(state, facts=state.facts + 1), cons
    if fact.type in ACTIONS and _off_board(state, fact.actor):
        # only a lenient game stores it (check(): character-out-of-play, flagged): an action needs a room to act in
        cons.append(C("fact-ignored", f"{fact.type} was not applied: {who(state, fact.actor)} is not on the board."))
        return replace(state, facts=state.facts + 1), cons
    if handler is not None and (not state.ended or fact.type in AFTER_END):
        if state.free_crafts and fact.type in ACTIONS and not (fact.type == "ItemCrafted" and fact.data.get("free")):
            state = replace(state, free_crafts=())  # the Repository's shared craft ends with the next action
        unknown = unknown_fields(fact)
        if unknown:  # docs/decisions/0018: apply what does not depend on the unknown value
            state = apply_unknown(state, fact, unknown, cons, HANDLERS)
        elif room_unknown(state, fact):  # the actor's room was recorded as unknown: nothing derived there
            state = apply_nowhere(state, fact, cons)
        else:
            state = handler(state, fact, cons)
        if not state.ended:
            state = _settle(state, cons)
    return replace(state, facts=state.facts + 1), cons


# --- small helpers ---------------------------------------------------------------------------

def _off_board(state: LockdownState, seat: int | None) -> bool:
    c = state.characters.get(seat) if seat is not None else None
    # a character in the base whose room was recorded as unknown is on the board, somewhere (decision 0018)
    return c is not None and c.room is None and not (c.status == IN_BASE and c.character)

def _hand_target(state: LockdownState, seat: int) -> int:
    c = state.characters[seat]
    room = state.rooms.get(c.room) if c.room else None
    if room is not None and room.tile == "isolation_room" and not room.malfunction:
        return HAND_SIZE + 1
    return HAND_SIZE


def _refill_hands(state: LockdownState, cons: list[Consequence]) -> LockdownState:
    state = _revive(state, cons)
    for seat in state.player_order():
        c = state.characters[seat]
        if c.status != IN_BASE:
            state = with_character(state, seat, passed=True, actions=0, fire_hurt=False)
            continue
        target = _hand_target(state, seat)
        state = M.draw(state, seat, max(0, target - c.hand), cons)
        hand = state.characters[seat].hand
        state = with_character(state, seat, passed=False, actions=0, fire_hurt=False, first_turn_done=False, moves=0)
        extra = " (Isolation Room)" if target > HAND_SIZE else ""
        cons.append(C("cards-drawn", f"{who(state, seat)} draws {hand - c.hand} card{'s' if hand - c.hand != 1 else ''}"
                      f" up to {target}{extra}" + ("" if hand >= target else f" (only {hand}: deck and discard "
                                                   f"are empty)") + ".", seat=seat, drawn=hand - c.hand, hand=hand))
    return state


def _revive(state: LockdownState, cons: list[Consequence]) -> LockdownState:
    """Co-op AutoDoc: a corpse in a working Emergency Room revives at the start of a round (lockdown.md §12.3)."""
    if state.setup.mode != "coop" or state.round <= 1:
        return state
    er = state.room_of_tile("emergency_room")
    if er is None or not state.rooms[er].explored or state.rooms[er].malfunction or state.intruders_in(er):
        return state
    for seat in state.seats:
        c = state.characters[seat]
        corpse = f"corpse:{seat}"
        if c.status != DEAD:
            continue
        carrier = next((s for s in state.characters_in(er) if corpse in state.characters[s].objects), None)
        if corpse in state.objects.get(er, ()):
            state = M.take_object(state, er, corpse)
        elif carrier is not None:
            objs = list(state.characters[carrier].objects)
            objs.remove(corpse)
            state = with_character(state, carrier, objects=tuple(objs))
        else:
            continue
        state = with_character(state, seat, status=IN_BASE, room=er, cause=None, was=None, light=0,
                               serious=tuple(SeriousWound(w.card, True) for w in c.serious))
        cons.append(C("revived", f"AutoDoc: {who(state, seat)} is revived in the Emergency Room (light wounds "
                      f"removed, serious wounds dressed).", seat=seat, room=er))
    return state


def _place_intruder(state: LockdownState, kind: str, place: str,
                    cons: list[Consequence]) -> tuple[LockdownState, str | None]:
    return M.place_intruder(state, kind, place, cons)


# --- setup ------------------------------------------------------------------------------------

def _board_prepared(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    rooms = dict(state.rooms)
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
    step = state.step
    if state.phase == "setup" and step == "board":
        step = READY if all(c.character for c in state.characters.values()) else CHARACTERS_STEP
    return replace(state, rooms=MappingProxyType(rooms), step=step)


def _character_chosen(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    seat = fact.actor
    char = CHARACTERS.resolve(fact.data["character"])
    start = state.board.fixed_rooms.get(char.start_room)
    state = with_character(state, seat, character=char.id, room=start, knowledge=char.knowledge,
                           player_number=fact.data.get("player"))
    cons.append(C("character-placed", f"{who(state, seat)} starts in {state.room_label(start)} with knowledge "
                  f"{char.knowledge}.", seat=seat, room=start))
    if state.phase == "setup" and state.step != "board" and all(c.character for c in state.characters.values()):
        state = replace(state, step=READY)
    return state


def _setup_completed(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    if state.phase != "setup":
        cons.append(C("ignored", "Setup was already completed; nothing changes."))
        return state
    first = fact.data.get("first_player") or next(  # "player 1 takes the first player token" (seed 000 L1155)
        (s for s in state.seats if state.characters[s].player_number == 1), state.seats[0])
    held = sum(len(state.characters[s].contingency) for s in state.seats)
    pool = ("unknown",) * max(0, 7 - 1 - held)
    state = replace(state, phase=PLAYER, step=TURNS, round=1, first_player=first, turn=first, last_turn=None,
                    pool=pool)
    cons.append(C("round-started", f"Round 1 begins; {who(state, first)} has the first player token.", round=1))
    return _refill_hands(state, cons)


# --- player phase -----------------------------------------------------------------------------

def _first_player_passed(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    to = fact.data.get("to") or state.next_first_player()
    cons.append(C("first-player", f"The first player token passes to {who(state, to)}, who starts.", seat=to))
    return replace(state, first_player=to, turn=to, step=TURNS, last_turn=None)


def _passed(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    seat = fact.actor
    c = state.characters[seat]
    d = fact.data.get("discarded", 0) or 0
    state = M.count_action(state, seat)
    state = M.pay(state, seat, d)
    state = with_character(state, seat, passed=True)
    cons.append(C("passed", f"{who(state, seat)} passes" + (f" and discards {d} card{'s' if d != 1 else ''}."
                                                              if d else "."), seat=seat, discarded=d))
    return state


# --- sub-steps --------------------------------------------------------------------------------

# --- event phase ------------------------------------------------------------------------------

def _css(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    """Pod launch (lockdown.md §11.6): a letter launches that pod, ALL every pod, NONE nobody."""
    token = fact.data["token"]
    state = replace(state, launches=state.launches + (token,), css_at=state.css_at - {state.time_space})
    if not state.pods:
        cons.append(C("css-launch", f"CSS token {token} revealed; nobody is in a pod.", token=token))
    occupied = sorted(state.pods.items())
    state = replace(state, pods=MappingProxyType({}))
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
        if state.ended:
            return state
    state = M.check_base_empty(state, cons)
    if state.ended:
        return state
    return replace(state, step=TIME) if state.phase == EVENT else state


def _time(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    b = state.board
    before = state.time
    t = min(state.time + 1, len(b.time_spaces) - 1)
    state = replace(state, time=t, step=NOISE_CLEANUP if state.phase == EVENT else state.step)
    space = b.time_spaces[t]
    cons.append(C("time", f"The time token moves to {state.time_label}.", space=state.time_label))
    last = len(b.time_spaces) - 1
    if state.self_destruct is not None:  # step 5A (lockdown.md §6.9)
        colour, at = state.self_destruct
        if colour == "yellow" and t >= at:
            red = min(at + 3, last)
            state = replace(state, self_destruct=("red", red))
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
    if state.alarm is not None and before == state.alarm and t != before:
        cons.append(C("alarm-end", "The time token leaves the alarm procedure space: the rapid response team "
                      "arrives.", space=b.time_label(before)))
        return M.end_game(state, "alarm_procedure", cons)
    if space == b.isolation_opens_at and not state.isolation_open:
        state = replace(state, isolation_open=True)
        cons.append(C("milestone-isolation", "First white space: the Isolation Room opens (characters may lock "
                      "themselves in).", milestone="isolation_open"))
    thresholds = b.power_thresholds
    if space in thresholds.get("blue_drop_always", ()):
        state = _power_drop(state, "blue", cons)
    elif space in thresholds.get("red_drop_only_if_backup_power_inactive", ()):
        if state.emergency_power:
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
    on = [(n, loc) for loc, (n, lit) in state.power.items() if lit]
    if not on:
        cons.append(C("power-drop", f"{colour.capitalize()} power threshold: no power token is active.",
                      threshold=colour))
        return state
    n, loc = max(on)
    power = dict(state.power)
    power[loc] = (n, False)
    cons.append(C("power-drop", f"{colour.capitalize()} power threshold: power token {n} ({loc}) turns off.",
                  threshold=colour, location=loc, token=n))
    return replace(state, power=MappingProxyType(power))


def _cleared(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    removed = set()
    for m in fact.data["removed"]:
        place = resolve_place(state, m["room"])
        key = state.board.corridor_key(place, m["corridor"]) if place else None
        if key in state.noise:
            removed.add(key)
    cons.append(C("noise-cleared", f"{len(removed)} noise marker{'s' if len(removed) != 1 else ''} removed.",
                  removed=sorted(removed)))
    state = replace(state, noise=state.noise - removed)
    if state.phase != EVENT:
        return state
    attacks = []
    for it in state.intruders:  # step 7: every stalker in a room with a character attacks
        if state.characters_in(it.room):
            attacks.append(Pending("attack", None, it.room, reason="event phase", intruder=it.id))
    if attacks:
        cons.append(C("stalker-attacks", f"Night stalker attacks: {len(attacks)} stalker(s) in combat attack "
                      f"(record IntruderAttacked for each).", intruders=[p.intruder for p in attacks]))
    return replace(state, step=ATTACKS, pending=state.pending + tuple(attacks))


def _fire_step(state: LockdownState, cons: list[Consequence]) -> LockdownState:
    """Event step 8: stalkers in burning rooms suffer 1 injury; 1 unheld egg there burns (lockdown.md §4)."""
    for it in list(state.intruders):
        if state.rooms[it.room].fire and M.intruder(state, it.id):
            cons.append(C("fire-injury", f"The {it.kind} ({it.id}) burns: 1 injury.", intruder=it.id))
            state = M.injure(state, it.id, 1, cons)
    for place, objs in list(state.objects.items()):
        if state.rooms[place].fire and "egg" in objs:
            state = M.take_object(state, place, "egg")
            cons.append(C("egg-burned", f"An egg burns in {state.room_label(place)}.", room=place))
    nest = state.room_of_tile("nest")
    if nest and state.rooms[nest].fire and state.rooms[nest].explored and state.eggs:
        state = replace(state, eggs=state.eggs - 1)
        cons.append(C("egg-burned", f"An egg in the burning Nest is destroyed ({state.eggs} left).", room=nest))
        state = nest_check(state, cons)
    return state


def _move_intruders(state: LockdownState, card, cons: list[Consequence]) -> LockdownState:
    b = state.board
    kinds = set(card.moves)
    if not b.has_graph:
        if any(i.kind in kinds for i in state.intruders):
            cons.append(C("table-resolves", f"Stalkers ({', '.join(card.moves)}) not in combat move through corridor "
                          f"{' then '.join(map(str, card.corridors))}; this board's corridors are unknown, so record "
                          f"each move with IntruderMoved.", kinds=list(card.moves)))
        return state
    intruders = list(state.intruders)
    doors = set(state.doors)
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
    return replace(state, intruders=tuple(i for i in intruders if i is not None), doors=frozenset(doors))


def _coolant_leak(state: LockdownState, cons: list[Consequence]) -> LockdownState:
    """Coolant Leak (Wyciek chłodziwa, seed 000 L1865–1897): a malfunction in the Cooling System starts the
    self-destruct countdown, otherwise a malfunction is placed there (after the stalkers moved)."""
    place = state.room_of_tile("cooling_system")
    if place is None or not state.rooms[place].explored:
        cons.append(C("event-effect", "Coolant Leak: the Cooling System is not explored, so no malfunction marker "
                      "can be placed there; nothing happens.", card="coolant_leak"))
        return state
    if state.rooms[place].malfunction:
        if state.self_destruct is not None:
            cons.append(C("event-effect", "Coolant Leak: the Cooling System has a malfunction, but the self-destruct "
                          "countdown is already running.", card="coolant_leak"))
            return state
        cons.append(C("event-effect", "Coolant Leak: the Cooling System has a malfunction — the self-destruct "
                      "countdown starts.", card="coolant_leak"))
        return start_self_destruct(state, cons)
    cons.append(C("event-effect", "Coolant Leak: a malfunction marker goes into the Cooling System.",
                  card="coolant_leak"))
    return M.place_malfunction(state, place, cons)


# --- event card effects the digests give (gaps_filled.md §6) that the state can derive -------------------------

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
    n, _on = state.power.get("elevator", (4, False))
    state = replace(state, power=MappingProxyType({**state.power, "elevator": (n, False)}))
    cons.append(C("event-effect", f"{card.en}: the elevator's power token turns inactive; a malfunction marker goes "
                  f"into every Elevator Room.", card=card.id))
    for place in _tile_places(state, card, ("elevator_room_s01", "elevator_room_s02", "elevator_room_s03"),
                              "malfunction marker", cons):
        state = M.place_malfunction(state, place, cons)
        if state.ended:
            break
    return state


def _thats_hot(state: LockdownState, card, cons: list[Consequence]) -> LockdownState:
    """That's Hot: fire in the Backup Power Supply and the Power Generator."""
    cons.append(C("event-effect", f"{card.en}: fire in the Backup Power Supply and the Power Generator.",
                  card=card.id))
    for place in _tile_places(state, card, ("backup_power_supply", "power_generator"), "fire marker", cons):
        state = M.place_fire(state, place, cons)
        if state.ended:
            break
    return state


def _fire_in_the_hole(state: LockdownState, card, cons: list[Consequence]) -> LockdownState:
    """Fire in the Hole: fire in the CSS rooms A, B and C; every character there without action cards in hand
    takes 1 serious wound."""
    cons.append(C("event-effect", f"{card.en}: fire in the CSS rooms A, B and C; a character there with no action "
                  f"card in hand takes a serious wound.", card=card.id))
    for place in _tile_places(state, card, ("css_a", "css_b", "css_c"), "fire marker", cons):
        state = M.place_fire(state, place, cons)
        if state.ended:
            return state
        for seat in state.characters_in(place):
            if state.characters[seat].hand == 0:
                state = M.wound(state, seat, "serious", cons)
    return state


def _damage(state: LockdownState, card, cons: list[Consequence]) -> LockdownState:
    """Damage: a malfunction in every room with an adult, breeder or queen; in darkness also in every room with a
    character."""
    rooms = {i.room for i in state.intruders if i.kind in ("adult", "breeder", "queen") and i.room}
    dark = {c.room for c in state.characters.values() if c.status == IN_BASE and _dark_in(state, c.room)}
    cons.append(C("event-effect", f"{card.en}: a malfunction marker in every room with an adult, breeder or queen"
                  + (", and (darkness) in every dark room with a character." if dark else "."), card=card.id))
    for place in sorted(rooms | dark):
        state = M.place_malfunction(state, place, cons)
        if state.ended:
            break
    return state


def _power_surge(state: LockdownState, card, cons: list[Consequence]) -> LockdownState:
    """Power Surge (Przepięcie): the time token turns to its inactive side (emergency power off)."""
    cons.append(C("event-effect", f"{card.en}: the time token turns to its inactive side (emergency power off).",
                  card=card.id))
    return replace(state, emergency_power=False)


def _bulkheads_open(state: LockdownState, card, cons: list[Consequence]) -> LockdownState:
    """Bulkheads Open: every door that is not destroyed opens (the darkness box needs the corridor map)."""
    cons.append(C("event-effect", f"{card.en}: every closed door opens ({len(state.doors)})."
                  + ("" if state.board.has_graph else " Darkness box: the table places the noise markers in the "
                     "empty corridors touching a dark room with a character."), card=card.id))
    return replace(state, doors=frozenset())


# That's Hot is written (_thats_hot) but not derived yet: the demo game "club three players" drew it and recorded
# no fire, and deriving it changes that game's event steps (docs/rules-gaps.md, Event cards)
EVENT_EFFECTS = {"kickstopper": _kickstopper, "fire_in_the_hole": _fire_in_the_hole,
                 "damage": _damage, "power_surge": _power_surge, "bulkheads_open": _bulkheads_open}


def _event_card(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    card = resolve_card(fact.data["card"], fact.data.get("corridors"))
    cons.append(C("event-card", f"Event: {card.label} (stalkers {', '.join(card.moves)}, corridor "
                  f"{' then '.join(map(str, card.corridors))}).", card=card.id))
    state = _move_intruders(state, card, cons)
    if card.id == "coolant_leak":
        state = _coolant_leak(state, cons)
        if state.ended:
            return state
    elif card.id in EVENT_EFFECTS:
        state = EVENT_EFFECTS[card.id](state, card, cons)
        if state.ended:
            return state
    else:
        cons.append(C("event-effect", f"Resolve the effect of {card.en} at the table (event effects are not "
                      f"modelled yet).", card=card.id))
    if card.removed:
        cons.append(C("event-removed", f"{card.label} is removed from the game.", card=card.id))
        state = replace(state, removed_events=state.removed_events | {card.id})
    state = replace(state, last_event_card=card.id)
    return replace(state, step=COLONY_STEP) if state.phase == EVENT else state


def _colony(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    token = resolve_token(fact.data["token"])
    cons.append(C("colony-draw", f"Colony: a {token} token is drawn.", token=token))
    if token in ("larva", "creeper"):
        state = M.set_aside(state, token)  # "put the removed token beside the board" (seed 000 L1825)
        cons.append(C("colony-token-removed", f"The {token} token is set aside next to the board.", token=token))
        state = supply_to_bag(state, "adult" if token == "larva" else "breeder", cons)
    elif token in ("adult", "breeder"):
        rollers = [s for s in state.player_order()
                   if state.characters[s].room is not None and not state.in_combat(s)]
        cons.append(C("colony-noise", "The token returns to the bag; every player not in combat makes a noise roll, "
                      "in player order: " + (", ".join(f"seat {s}" for s in rollers) or "nobody") + ".",
                      seats=rollers))
        state = replace(state, pending=state.pending + tuple(
            Pending("noise", s, state.characters[s].room, reason=f"colony: {token} drawn") for s in rollers))
    elif token == "queen":
        nest = state.room_of_tile("nest")
        inside = state.characters_in(nest) if nest and state.rooms[nest].explored else ()
        if inside:
            state = M.set_aside(state, "queen")  # the drawn token places the queen (seed 000 L1843–1846)
            cleared = [k for k in state.board.local_keys(nest) if k in state.noise]
            state = replace(state, noise=state.noise - set(cleared))
            state, iid = _place_intruder(state, "queen", nest, cons)
            cons.append(C("queen-encounter", f"The queen appears in the Nest: encounter with "
                          f"{', '.join(who(state, s) for s in inside)}. The surprise-attack target is unclear in the "
                          f"rules: the character with the fewest cards is assumed (4 on the token).",
                          seats=list(inside)))
            target = M.attack_target(state, nest)
            if iid and target is not None and state.characters[target].hand < 4:
                state = push_front(state, Pending("attack", target, nest, reason="surprise attack", intruder=iid))
        else:
            state = replace(state, eggs=state.eggs + 1)
            cons.append(C("egg-added", f"Nobody is in the Nest: the token returns and 1 egg is added (now "
                          f"{state.eggs}).", eggs=state.eggs))
    elif token == "blank":
        state = supply_to_bag(state, "adult", cons)
    return replace(state, step=ROUND_END) if state.phase == EVENT else state


def _intruder_moved(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    dest = resolve_place(state, fact.data["to_room"])
    intruders = tuple(replace(i, room=dest) if i.id == fact.data["intruder"] else i for i in state.intruders)
    origin = next((i.room for i in state.intruders if i.id == fact.data["intruder"]), None)
    cons.append(C("intruder-moved", f"Intruder {fact.data['intruder']} moves to {state.room_label(dest)}.",
                  intruder=fact.data["intruder"], to_room=dest))
    if origin and origin != dest and not state.board.has_graph:
        cons.append(corridor_unverified(state, origin, dest, fact.data.get("corridor"),
                                        f"intruder {fact.data['intruder']}:"))
    return replace(state, intruders=intruders)


def _game_ended(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    ending = fact.data["ending"]
    if ending not in ("abandoned", INCOMPLETE) and state.phase in (PLAYER, EVENT):
        state = M.end_game(state, ending, cons)
        return replace(state, ending_note=fact.data.get("note") or "")
    cons.append(C("game-ended", f"The game ends ({ending.replace('_', ' ')})."
                  + (f" {fact.data['note']}" if fact.data.get("note") else ""), ending=ending))
    return replace(state, ended=True, phase=ENDED, ending=ending, ending_note=fact.data.get("note") or "",
                   pending=(), turn=None)


# --- what follows by itself -------------------------------------------------------------------

def _finish(state: LockdownState, p: Pending, cons: list[Consequence]) -> LockdownState:
    """A sub-step that follows a noise roll: did a stalker appear? (lock-in, suit escape)"""
    seat = p.seat
    c = state.characters[seat]
    if c.status != IN_BASE or c.room != p.room:
        return state
    if state.intruders_in(p.room):
        cons.append(C("attempt-failed", f"A night stalker is in {state.room_label(p.room)}: "
                      f"{who(state, seat)}'s attempt ({p.reason.replace('_', ' ')}) fails.", seat=seat))
        return state
    if p.reason == "lock_in":
        cons.append(C("locked-in", f"{who(state, seat)} is locked in the Isolation Room and leaves play.", seat=seat))
        state = with_character(state, seat, status=LOCKED_IN, room=None, passed=True)
    elif p.reason == "bunker_suit":
        cons.append(C("bunker", f"{who(state, seat)} escapes to the Bunker in the space suit.", seat=seat))
        state = with_character(state, seat, status=IN_BUNKER, room=None, passed=True, bunker_via="space_suit")
    return M.check_base_empty(state, cons)


def _end_of_turn(state: LockdownState, seat: int, cons: list[Consequence]) -> LockdownState:
    """Fire: a character ending its turn in a burning room suffers 1 light wound (lockdown.md §6.3)."""
    c = state.characters[seat]
    if c.status == IN_BASE and c.room and state.rooms[c.room].fire and not c.fire_hurt:
        cons.append(C("fire-wound", f"{who(state, seat)} ends the turn in a burning room: 1 light wound.",
                      seat=seat))
        state = with_character(state, seat, fire_hurt=c.passed)
        state = M.wound(state, seat, "light", cons, cause="wounds")
    return state


def _vent_out(state: LockdownState, cons: list[Consequence]) -> LockdownState:
    """Vent Control: whoever is in the vented room when the player phase ends dies (lockdown.md §2.6.2)."""
    place = state.ventilation
    if place is None:
        return state
    state = replace(state, ventilation=None)
    for it in state.intruders_in(place):
        state = M.remove_intruder(state, it.id, cons, why="killed by the vent-out", killed=True)
    for seat in state.characters_in(place):
        state = M.die(state, seat, "vent_out", cons)
        if state.ended:
            return state
    cons.append(C("vented", f"{state.room_label(place)} is vented; the ventilation token is removed.", room=place))
    return state


def _settle(state: LockdownState, cons: list[Consequence]) -> LockdownState:
    """Advance turns, phases and rounds once no sub-step is pending."""
    while state.pending and state.pending[0].kind == "finish" and not state.ended:
        p = state.pending[0]
        state = replace(state, pending=state.pending[1:])
        state = _finish(state, p, cons)
    if state.pending or state.ended:
        return state
    if state.phase == EVENT and state.step == ATTACKS:
        state = replace(state, step=EVENT_CARD)
        state = _fire_step(state, cons)
        return state
    if state.phase == PLAYER and state.step == TURNS:
        t = state.turn
        c = state.characters.get(t) if t is not None else None
        if c is not None and not c.passed and c.actions < 2:
            return state
        if c is not None and c.status == IN_BASE and not c.fire_hurt:
            state = _end_of_turn(state, t, cons)
            if state.ended:
                return state
            c = state.characters[t]
        order = state.seats
        start = order.index(t) + 1 if t in order else 0
        nxt = next((s for s in order[start:] + order[:start] if not state.characters[s].passed), None)
        changes = {s: {"actions": 0} for s in order if state.characters[s].actions}
        if t is not None and t in state.characters:  # its turn is over (faq_lockdown.md 7: "your first turn")
            changes.setdefault(t, {})["first_turn_done"] = True
        state = with_characters(state, changes) if changes else state
        if nxt is None:
            state = _vent_out(state, cons)
            if state.ended:
                return state
            step = CSS if state.time_space in state.css_at else TIME
            cons.append(C("event-phase", "Everyone has passed: the event phase begins.", round=state.round))
            return replace(state, phase=EVENT, step=step, turn=None, last_turn=None)
        two = c is not None and not c.passed and c.actions >= 2
        cons.append(C("turn", f"The turn passes to {who(state, nxt)}.", seat=nxt))
        return replace(state, turn=nxt, last_turn=t if two else None)
    if state.phase == EVENT and state.step == ROUND_END:
        cons.append(C("round-ended", f"Round {state.round} ends.", round=state.round))
        state = replace(state, phase=PLAYER, step=FIRST_PLAYER, round=state.round + 1, turn=None, last_turn=None)
        cons.append(C("round-started", f"Round {state.round} begins.", round=state.round))
        return _refill_hands(state, cons)
    return state


HANDLERS: dict[str, Callable[[LockdownState, Fact, list[Consequence]], LockdownState]] = {
    "BoardPrepared": _board_prepared,
    "CharacterChosen": _character_chosen,
    "SetupCompleted": _setup_completed,
    "FirstPlayerPassed": _first_player_passed,
    "CharacterMoved": movement.moved,
    "CharacterMovedCarefully": movement.moved,
    "Passed": _passed,
    "RoomExplored": movement.room_explored,
    "NoiseRolled": movement.noise_rolled,
    "EncounterTokenDrawn": movement.encounter_drawn,
    "CssTokenRevealed": _css,
    "TimeAdvanced": _time,
    "NoiseMarkersCleared": _cleared,
    "EventCardDrawn": _event_card,
    "ColonyTokenDrawn": _colony,
    "IntruderMoved": _intruder_moved,
    "GameEnded": _game_ended,
    "RecordGap": apply_gap,
    "CharacterEscaped": apply_escape,
}


from service.rules.lockdown.apply_play import HANDLERS as _PLAY_HANDLERS  # noqa: E402

HANDLERS.update(_PLAY_HANDLERS)
