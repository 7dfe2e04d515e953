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

from service.rules.kit.replace import copied, draft, release, replace
from types import MappingProxyType
from typing import Callable

from service.rules.base import Consequence, Fact
from service.rules.lockdown.checks import ACTIONS, who
from service.rules.lockdown.components import CHARACTERS, ROOMS
from service.rules.lockdown.facts import AFTER_END, shape_violations
from service.rules.lockdown import mechanics as M
from service.rules.lockdown.mechanics import add_noise, nest_check, start_self_destruct  # noqa: F401 (old path)
from service.rules.lockdown.mechanics import C
from service.rules.lockdown import event_phase, movement
from service.rules.lockdown.movement import corridor_unverified  # noqa: F401 (old path: apply.corridor_unverified)
from service.rules.lockdown.unknowns import (
    INCOMPLETE, apply_escape, apply_gap, apply_nowhere, apply_unknown, room_unknown, unknown_fields,
)
from service.rules.lockdown.state import (
    ATTACKS, CHARACTERS as CHARACTERS_STEP, CSS, DEAD, ENDED, EVENT, EVENT_CARD,
    FIRST_PLAYER, HAND_SIZE, IN_BASE, IN_BUNKER, LOCKED_IN, PLAYER, READY, ROUND_END, TIME,
    TURNS, Intruder, LockdownState, Pending, SeriousWound, with_character, with_characters, with_room,
)

Result = tuple[LockdownState, list[Consequence]]


def apply(state: LockdownState, fact: Fact) -> Result:
    shape = shape_violations(state, fact)
    if shape:  # cannot be applied at all; stores refuse such facts in every game
        return replace(state, facts=state.facts + 1), [C("fact-ignored", f"{fact.type} was not applied: {shape[0].message}")]
    return apply_shaped(state, fact, None)


def apply_shaped(state: LockdownState, fact: Fact, unknown: list[str] | None) -> Result:
    """``apply`` of a fact already found well shaped; ``unknown``: its unknown fields when already worked out
    (``unknowns.unknown_fields``), None to work them out here."""
    handler = HANDLERS.get(fact.type)
    cons: list[Consequence] = []
    if fact.type in ACTIONS and _off_board(state, fact.actor):
        # only a lenient game stores it (check(): character-out-of-play, flagged): an action needs a room to act in
        cons.append(C("fact-ignored", f"{fact.type} was not applied: {who(state, fact.actor)} is not on the board."))
        return copied(state, facts=state.facts + 1), cons
    if handler is None or (state.ended and fact.type not in AFTER_END):
        return copied(state, facts=state.facts + 1), cons
    # the effect works on a private draft of the state (kit/replace.py): every replace() of it until release()
    # changes it in place, and only the last version leaves this function
    state, token = draft(state)
    try:
        if state.free_crafts and fact.type in ACTIONS and not (fact.type == "ItemCrafted" and fact.data.get("free")):
            state = replace(state, free_crafts=())  # the Repository's shared craft ends with the next action
        if unknown is None:
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
    finally:
        release(token)


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


# --- the table ending the game (event phase: event_phase.py; moves and sub-steps: movement.py) -----------

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
        state = event_phase.fire_step(state, cons)
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
    "CssTokenRevealed": event_phase.css,
    "TimeAdvanced": event_phase.time_advanced,
    "NoiseMarkersCleared": event_phase.cleared,
    "EventCardDrawn": event_phase.event_card,
    "ColonyTokenDrawn": event_phase.colony,
    "IntruderMoved": event_phase.intruder_moved,
    "GameEnded": _game_ended,
    "RecordGap": apply_gap,
    "CharacterEscaped": apply_escape,
}


from service.rules.lockdown.apply_play import HANDLERS as _PLAY_HANDLERS  # noqa: E402

HANDLERS.update(_PLAY_HANDLERS)
