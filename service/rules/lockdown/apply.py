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

from service.rules.kit.replace import copied, draft, release, released, replace, replace_in
from types import MappingProxyType
from typing import Callable

from service.rules.base import Consequence, Fact
from service.rules.lockdown.checks import ACTIONS, who
from service.rules.lockdown.components import CHARACTERS, ROOMS
from service.rules.lockdown.facts import AFTER_END, shape_and_unknowns, shape_violations  # noqa: F401
from service.rules.lockdown import mechanics as M
from service.rules.lockdown.mechanics import add_noise, nest_check, start_self_destruct  # noqa: F401 (old path)
from service.rules.lockdown.mechanics import C
from service.rules.lockdown import coarse_record, endgame, event_phase, movement, setup, turns
from service.rules.lockdown.turns import INTERRUPTIBLE
from service.rules.lockdown.mechanics import revive as _revive  # noqa: F401 (old path: apply._revive)
from service.rules.lockdown.movement import corridor_unverified  # noqa: F401 (old path: apply.corridor_unverified)
from service.rules.lockdown.unknowns import (
    ACTS_IN_ROOM, apply_nowhere, apply_unknown, room_unknown, unknown_fields,
)
from service.rules.lockdown.state import (
    ATTACKS, CSS, EVENT, EVENT_CARD, FIRST_PLAYER, IN_BASE, IN_BUNKER, LOCKED_IN, PLAYER, ROUND_END, TIME,
    TURNS, Intruder, LockdownState, Pending, with_character, with_characters, with_room,
)

Result = tuple[LockdownState, list[Consequence]]


def apply(state: LockdownState, fact: Fact) -> Result:
    shape, unknown = shape_and_unknowns(state, fact)  # the unknown fields from the same pass (decision 0046)
    if shape:  # cannot be applied at all; stores refuse such facts in every game
        ignored = C("fact-ignored", f"{fact.type} was not applied: {shape[0].message}")
        return replace(state, facts=state.facts + 1), [ignored]
    return apply_shaped(state, fact, unknown)


_ACTIONS = frozenset(ACTIONS)  # a set: ``in`` is one lookup, not a scan of the tuple (decision 0048)


def apply_shaped(state: LockdownState, fact: Fact, unknown: list[str] | None) -> Result:
    """``apply`` of a fact already found well shaped; ``unknown``: its unknown fields when already worked out
    (``unknowns.unknown_fields``), None to work them out here."""
    t = fact.type
    handler = HANDLERS.get(t)
    cons: list[Consequence] = []
    action = t in _ACTIONS
    if action and _off_board(state, fact.actor):
        # only a lenient game stores it (check(): character-out-of-play, flagged): an action needs a room to act in
        cons.append(C("fact-ignored", f"{t} was not applied: {who(state, fact.actor)} is not on the board."))
        return copied(state, facts=state.facts + 1, interruptible=None), cons
    if handler is None or (state.end.ended and t not in AFTER_END):
        return copied(state, facts=state.facts + 1, interruptible=None), cons
    # an action an Interruption may cancel next (decision 0038); nothing to work out for most fact types
    undo = turns.undo_of(state, fact) if t in INTERRUPTIBLE else None
    # the effect works on a private draft of the state (kit/replace.py): every replace() of it until release()
    # changes it in place, and only the last version leaves this function
    state, token = draft(state)
    try:
        if action and state.clock.free_crafts and not (t == "ItemCrafted" and fact.data.get("free")):
            state = replace_in(state, "clock",
                               free_crafts=())  # the Repository's shared craft ends with the next action
        if unknown is None:
            unknown = unknown_fields(fact)
        if unknown:  # docs/decisions/0018: apply what does not depend on the unknown value
            state = apply_unknown(state, fact, unknown, cons, HANDLERS)
        elif t in ACTS_IN_ROOM and room_unknown(state, fact):  # the actor's room was recorded as unknown
            state = apply_nowhere(state, fact, cons)  # nothing derived there
        else:
            state = handler(state, fact, cons)
        pending = state.clock.pending
        # a sub-step due (most facts of a move, an attack, an exploration): _settle has nothing to advance, told
        # here without its call (decision 0051)
        if not (pending and pending[0].kind != "finish") and not state.end.ended:
            state = _settle(state, cons)
    except BaseException:
        release(token)
        raise
    # the draft's last version leaves it with the fact counted, in one call (decision 0051)
    return released(token, state, {"facts": state.facts + 1, "interruptible": undo}), cons


# --- small helpers ---------------------------------------------------------------------------

def _off_board(state: LockdownState, seat: int | None) -> bool:
    c = state.crew.characters.get(seat) if seat is not None else None
    # a character in the base whose room was recorded as unknown is on the board, somewhere (decision 0018)
    return c is not None and c.room is None and not (c.status == IN_BASE and c.character)

def _place_intruder(state: LockdownState, kind: str, place: str,
                    cons: list[Consequence]) -> tuple[LockdownState, str | None]:
    return M.place_intruder(state, kind, place, cons)


# --- what follows by itself -------------------------------------------------------------------

def _finish(state: LockdownState, p: Pending, cons: list[Consequence]) -> LockdownState:
    """A sub-step that follows a noise roll: did a stalker appear? (lock-in, suit escape)"""
    seat = p.seat
    c = state.crew.characters[seat]
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
    c = state.crew.characters[seat]
    if c.status == IN_BASE and c.room and state.ship.rooms[c.room].fire and not c.fire_hurt:
        cons.append(C("fire-wound", f"{who(state, seat)} ends the turn in a burning room: 1 light wound.",
                      seat=seat))
        state = with_character(state, seat, fire_hurt=c.passed)
        state = M.wound(state, seat, "light", cons, cause="wounds")
    return state


def _vent_out(state: LockdownState, cons: list[Consequence]) -> LockdownState:
    """Vent Control: whoever is in the vented room when the player phase ends dies (lockdown.md §2.6.2)."""
    place = state.ship.ventilation
    if place is None:
        return state
    state = replace_in(state, "ship", ventilation=None)
    for it in state.intruders_in(place):
        state = M.remove_intruder(state, it.id, cons, why="killed by the vent-out", killed=True)
    for seat in state.characters_in(place):
        state = M.die(state, seat, "vent_out", cons)
        if state.end.ended:
            return state
    cons.append(C("vented", f"{state.room_label(place)} is vented; the ventilation token is removed.", room=place))
    return state


def _settle(state: LockdownState, cons: list[Consequence]) -> LockdownState:
    """Advance turns, phases and rounds once no sub-step is pending."""
    pending = state.clock.pending
    if pending:
        if pending[0].kind != "finish":  # the usual case: a sub-step is due, nothing to advance (decision 0049)
            return state
        while state.clock.pending and state.clock.pending[0].kind == "finish" and not state.end.ended:
            p = state.clock.pending[0]
            state = replace_in(state, "clock", pending=state.clock.pending[1:])
            state = _finish(state, p, cons)
        if state.clock.pending or state.end.ended:
            return state
    clock = state.clock
    phase, step = clock.phase, clock.step
    if phase == EVENT and step == ATTACKS:
        state = replace_in(state, "clock", step=EVENT_CARD)
        state = event_phase.fire_step(state, cons)
        return state
    if phase == PLAYER and step == TURNS:
        t = clock.turn
        c = state.crew.characters.get(t) if t is not None else None
        if c is not None and not c.passed and c.actions < 2:
            return state
        if c is not None and c.status == IN_BASE and not c.fire_hurt:
            state = _end_of_turn(state, t, cons)
            if state.end.ended:
                return state
            c = state.crew.characters[t]
        two = c is not None and not c.passed and c.actions >= 2  # read before the changes below (decision 0049)
        del c
        chars = state.crew.characters
        order = state.seats
        start = order.index(t) + 1 if t in order else 0
        nxt = next((s for s in order[start:] + order[:start] if not chars[s].passed), None)
        reset = [s for s in order if chars[s].actions]
        done = t if t is not None and t in chars else None  # its turn is over (faq_lockdown.md 7: "your first turn")
        del chars  # held, the mapping would be copied at each change below (decision 0049)
        for s in reset:
            state = (with_character(state, s, actions=0, first_turn_done=True) if s == done
                     else with_character(state, s, actions=0))
        if done is not None and done not in reset:
            state = with_character(state, done, first_turn_done=True)
        if nxt is None:
            state = _vent_out(state, cons)
            if state.end.ended:
                return state
            step = CSS if state.time_space in state.systems.css_at else TIME
            cons.append(C("event-phase", "Everyone has passed: the event phase begins.", round=state.clock.round))
            return replace_in(state, "clock", phase=EVENT, step=step, turn=None, last_turn=None)
        cons.append(C("turn", f"The turn passes to {who(state, nxt)}.", seat=nxt))
        return replace_in(state, "clock", turn=nxt, last_turn=t if two else None)
    if phase == EVENT and step == ROUND_END:
        cons.append(C("round-ended", f"Round {state.clock.round} ends.", round=state.clock.round))
        state = replace_in(state, "clock", phase=PLAYER, step=FIRST_PLAYER, round=state.clock.round + 1, turn=None,
                           last_turn=None)
        cons.append(C("round-started", f"Round {state.clock.round} begins.", round=state.clock.round))
        return M.refill_hands(state, cons)
    return state


HANDLERS: dict[str, Callable[[LockdownState, Fact, list[Consequence]], LockdownState]] = {
    **setup.EFFECTS,  # declared in setup (decision 0029)
    "FirstPlayerPassed": turns.first_player_passed,  # declared in turns (decision 0029)
    "CharacterMoved": movement.moved,
    "CharacterMovedCarefully": movement.moved,
    "Passed": turns.passed,
    "ActionInterrupted": turns.interrupted,  # decision 0038
    "RoomExplored": movement.room_explored,
    "NoiseRolled": movement.noise_rolled,
    "EncounterTokenDrawn": movement.encounter_drawn,
    "CssTokenRevealed": event_phase.css,
    "TimeAdvanced": event_phase.time_advanced,
    "NoiseMarkersCleared": event_phase.cleared,
    "EventCardDrawn": event_phase.event_card,
    "ColonyTokenDrawn": event_phase.colony,
    "IntruderMoved": event_phase.intruder_moved,
    "GameEnded": endgame.game_ended,  # declared in endgame (decision 0029)
    **coarse_record.EFFECTS,  # declared in coarse_record (decision 0029)
}


from service.rules.lockdown.apply_play import HANDLERS as _PLAY_HANDLERS  # noqa: E402

HANDLERS.update(_PLAY_HANDLERS)
