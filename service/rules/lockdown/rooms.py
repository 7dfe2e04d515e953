"""Rooms and computers: the room actions (the alarm, the pods, the Bunker, the power switch, healing …), the
computer actions and their cards, knowledge and the weaknesses it reveals.

Each fact type of the concept is declared here once (``FACT_TYPES``): its spec, its check, its effect. Each room
action is declared once too, in ``ROOM_ACTION_TABLE``: where it is done and what it costs come from rooms.json
(``ROOM_ACTIONS``, ``turns.ROOM_ACTION_COST``); its own check (beyond the action's common ones), its effect, the
option sets ``next_inputs`` offers and the story's words sit together in one ``RoomAction``. Building the table
asserts that every action rooms.json names is declared, and nothing else. Decision 0029.

    >>> ROOM_ACTION_TABLE["heal"].rooms, ROOM_ACTION_TABLE["heal"].cost
    (('emergency_room',), 2)
    >>> [t.spec.type for t in FACT_TYPES]
    ['KnowledgeGained', 'RoomActionUsed', 'ComputerActionUsed', 'ComputerCardRevealed', 'WeaknessRevealed']
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable

from service.i18n import N_
from service.rules.base import Consequence, Expected, Fact, Violation
from service.rules.kit.builders import violation as V
from service.rules.kit.facts import FactSpec, FactType, field_spec as _f
from service.rules.kit.replace import replace, replace_in
from service.rules.lockdown import hidden_information, mechanics as M, sections as S, systems
from service.rules.lockdown.board import TECHNICAL
from service.rules.lockdown.components import ROOMS
from service.rules.lockdown.condition import scan
from service.rules.lockdown.mechanics import C, nest_check, start_self_destruct
from service.rules.lockdown.offers import TABLE_EFFECT, offer
from service.rules.lockdown.state import (
    IN_BASE, IN_BUNKER, IN_POD, SETUP, LockdownState, Pending, find_object, who, with_character, with_room,
)
from service.rules.lockdown.turns import ROOM_ACTION_COST, action_check, in_game
from service.rules.lockdown.values import resolve_place

HEAL_CHOICES = ("dress_all", "heal_dressed", "heal_light")


def _room_actions() -> dict[str, tuple[str, ...]]:
    """Room action → the rooms (tile ids) where it is done, from the rooms' ``actions`` in rooms.json.

    ``escape_bunker`` belongs to no tile: it is done on the exit space (001), unknown on the basic board.
    """
    out: dict[str, list[str]] = {}
    for room in ROOMS:
        for action in room.extra.get("actions", ()):
            out.setdefault(action["id"], []).append(room.id)
    out["escape_bunker"] = []
    return {action: tuple(rooms) for action, rooms in out.items()}


ROOM_ACTIONS: dict[str, tuple[str, ...]] = _room_actions()
COMPUTER_CARDS: dict[str, tuple[str, ...]] = {  # gaps_filled.md §5 (C1, card photos)
    "A": ("move_rover", "peek_css", "peek_contingency"),
    "B": ("gain_knowledge", "peek_css", "swap_power"),
    "C": ("clear_room", "swap_power", "peek_contingency"),
    "D": ("toggle_door", "peek_css", "move_rover"),
    "E": ("clear_room", "swap_power", "peek_css"),
}
COMPUTER_DECK = tuple(COMPUTER_CARDS) + ("lockdown",)


# --- checks --------------------------------------------------------------------------------------------------

def check_knowledge(state: LockdownState, fact: Fact) -> list[Violation]:
    """Its only rule: the character is still in the game."""
    return in_game(state, fact.actor, S.SERIOUS_WOUNDS)


def check_room_action(state: LockdownState, fact: Fact) -> list[Violation]:
    out = action_check(state, fact)
    if out:
        return out
    d = fact.data
    action = d["action"]
    seat = fact.actor
    c = state.crew.characters[seat]
    place = c.room
    r = state.ship.rooms[place]
    rooms = ROOM_ACTIONS[action]
    exit_space = getattr(state.board, "exit_space", None)
    if rooms and r.tile not in rooms:
        return [V("wrong-room", f"{action.replace('_', ' ')} is the action of "
                  f"{' / '.join(ROOMS[t].en for t in rooms)}; {who(state, seat)} is in {state.room_label(place)}.",
                  S.ROOM_ACTIONS, "action")]
    if action == "escape_bunker" and exit_space and place != exit_space:
        return [V("not-exit-room", "Escape to the Bunker starts in the room on the exit space (001).", S.BUNKER,
                  "action")]
    if state.in_combat(seat):
        out.append(V("room-action-in-combat", "Room actions are not possible in combat.", S.ROOM_ACTIONS))
    if r.malfunction:
        out.append(V("room-action-malfunction", f"{state.room_label(place)} has a malfunction: its room action "
                     f"cannot be used.", S.MALFUNCTION))
    if out:
        return out
    check = ROOM_ACTION_TABLE[action].check if action in ROOM_ACTION_TABLE else None
    return check(state, seat, place, d) if check else []


def _rc_archive(state, seat, place, d):
    if state.crew.characters[seat].knowledge_active:
        return [V("archive-once", "The archive is read only with an inactive knowledge token (once per character).",
                  S.KNOWLEDGE)]
    return []


def _rc_technical(state, seat, place, d):
    dest = resolve_place(state, d.get("room"))
    if dest is None:
        return [V("room-required", "Name the explored room with a technical entrance.", S.ROOM_ACTIONS, "room")]
    if not state.ship.rooms[dest].explored:
        return [V("room-unexplored", "The technical corridors lead only to explored rooms.", S.ROOM_ACTIONS, "room")]
    if state.board.has_graph and dest not in state.board.technical:
        return [V("no-technical-entrance", f"{state.room_label(dest)} has no technical-corridor entrance.",
                  S.ROOM_ACTIONS, "room")]
    return []


def _rc_sd(state, seat, place, d):
    return systems.check_self_destruct(state, None)


def _rc_heal(state, seat, place, d):
    if (d.get("choice") or "heal_light") not in HEAL_CHOICES:
        return [V("heal-choice", f"Choose one of {', '.join(HEAL_CHOICES)}.", S.ROOM_ACTIONS, "choice")]
    return []


def _rc_research(state, seat, place, d):
    obj = d.get("object")
    c = state.crew.characters[seat]
    if obj is None or (find_object(c.objects,
                                   obj) is None and find_object(state.ship.objects.get(place, ()), obj) is None):
        return [V("no-object-to-research", "Research needs a corpse, carcass or egg in the room or carried.",
                  S.WEAKNESS, "object")]
    return []


def _rc_pod(state, seat, place, d):
    letter = state.ship.rooms[place].tile[-1].upper()
    if state.time_space not in state.systems.css_at:
        return [V("pod-not-now", "Pods can be entered only while the time token is on a space with a CSS token "
                  "under it.", S.PODS)]
    if letter in state.systems.pods:
        return [V("pod-occupied", f"Pod {letter} is occupied (1 character per pod).", S.PODS)]
    return []


def _rc_egg(state, seat, place, d):
    out = []
    if state.colony.eggs <= 0:
        out.append(V("no-eggs", "No eggs are left in the Nest.", S.EGGS))
    if state.crew.characters[seat].hands_used >= 2:
        out.append(V("hands-full", "An egg needs a free hand.", S.HEAVY))
    return out


def _rc_stop(state, seat, place, d):
    if not state.systems.self_destruct or state.systems.self_destruct[0] != "yellow":
        return [V("no-yellow-self-destruct", "Only a yellow self-destruct token can be stopped.", S.SELF_DESTRUCT)]
    return []


def _rc_toggle(state, seat, place, d):
    if state.sector_of(place) is None:
        return [V("sector-unknown", "This room's sector is unknown: record PowerChanged instead.", S.POWER)]
    return []


def _rc_check(state, seat, place, d):
    other = d.get("seat")
    if other is None or not state.crew.characters[other].signal or other == seat:
        return [V("no-signal", "Choose another player who has sent a signal.", S.ROOM_ACTIONS, "seat")]
    return []


def _rc_schedule(state, seat, place, d):
    b = state.board
    labels = [b.time_label(i) for i in range(len(b.time_spaces))]
    src = str(d.get("space") or "").zfill(2)
    dst = str(d.get("to") or "").zfill(2)
    if src not in labels or b.time_spaces[labels.index(src)] not in state.systems.css_at:
        return [V("no-css-token", f"There is no CSS token under space {src}.", S.ROOM_ACTIONS, "space")]
    if labels.index(src) == state.clock.time:
        return [V("css-under-time-token", "The CSS token under the time token cannot be moved.", S.ROOM_ACTIONS,
                  "space")]
    if dst not in labels or abs(labels.index(dst) - labels.index(src)) != 1:
        return [V("css-move-one", "A CSS token moves exactly 1 space.", S.ROOM_ACTIONS, "to")]
    if b.time_spaces[labels.index(dst)] in state.systems.css_at:
        return [V("css-destination-taken", "Another CSS token is already under that space.", S.ROOM_ACTIONS, "to")]
    return []


def _rc_threat(state, seat, place, d):
    target = resolve_place(state, d.get("room"))
    if target is None or state.ship.rooms[target].malfunction or not state.intruders_in(target):
        return [V("threat-target", "Choose a room without a malfunction that holds a night stalker.", S.ROOM_ACTIONS,
                  "room")]
    if d.get("choice") not in ("counter", "malfunction"):
        return [V("threat-choice", "Pay with the item counter ('counter') or a malfunction ('malfunction').",
                  S.ROOM_ACTIONS, "choice")]
    if d["choice"] == "counter" and not state.ship.rooms[place].items:
        return [V("no-items-left", "The item counter is 0.", S.ROOM_ACTIONS, "choice")]
    return []


def _rc_take_item(state, seat, place, d):
    out = []
    if not state.ship.rooms[place].items:
        out.append(V("no-items-left", "The item counter is 0.", S.ROOM_ACTIONS))
    if d.get("choice") not in ("taser", "enviro_suit"):
        out.append(V("guard-room-choice", "Take 'taser' or 'enviro_suit'.", S.ROOM_ACTIONS, "choice"))
    return out


def _rc_neutralizer(state, seat, place, d):
    if state.crew.characters[seat].knowledge < 4:
        return [V("knowledge-too-low", "The Testing Lab needs knowledge 4.", S.ROOM_ACTIONS)]
    return []


def _rc_vent(state, seat, place, d):
    target = resolve_place(state, d.get("room"))
    b = state.board
    if target is None:
        return [V("room-required", "Name the room to vent.", S.ROOM_ACTIONS, "room")]
    if b.has_graph and target not in b.technical:
        return [V("no-technical-entrance", "Only a room with a technical-corridor entrance can be vented.",
                  S.ROOM_ACTIONS, "room")]
    if any(k in state.ship.destroyed_doors for k in (b.corridors_of(target) or ())):
        return [V("vent-destroyed-door", "A corridor of that room has a destroyed door.", S.ROOM_ACTIONS, "room")]
    return []


def _rc_alarm(state, seat, place, d):
    if state.systems.alarm is not None:
        return [V("alarm-active", "The alarm procedure is already active.", S.ALARM)]
    return []


def _rc_gather(state, seat, place, d):
    if not state.secrets.pool:
        return [V("pool-empty", "The neutral pool is empty.", S.CONTINGENCY)]
    return []


def _rc_elevator(state, seat, place, d):
    if state.powered("elevator") is False:
        return [V("elevator-unpowered", "The elevator has no power.", S.ELEVATOR)]
    if d["action"] == "use_elevator":
        sector = state.sector_of(place)
        if state.ship.elevator != sector:
            return [V("elevator-not-here", "The elevator token is not at this shaft (call it first).", S.ELEVATOR)]
        if d.get("to") not in ("S-01", "S-02", "S-03") or d.get("to") == sector:
            return [V("elevator-destination", "Ride to the elevator shaft of another sector (S-01/S-02/S-03).",
                      S.ELEVATOR, "to")]
        for s in d.get("with") or []:
            if state.crew.characters[s].room != place or s == seat:
                return [V("elevator-rider", f"{who(state, s)} is not in this room.", S.ELEVATOR, "with")]
    return []


def _rc_lock_in(state, seat, place, d):
    if not state.ship.isolation_open:
        return [V("isolation-closed", "The Isolation Room opens at space 08 or with the alarm procedure.",
                  S.ISOLATION)]
    return []


def _rc_bunker(state, seat, place, d):
    out = []
    if not state.systems.gate_open:
        out.append(V("gate-closed", "The main gate is closed.", S.BUNKER))
    suit = any("suit" in i.name.casefold() for i in state.crew.characters[seat].items)
    if d.get("choice") == "suit" and not suit:
        out.append(V("no-space-suit", "An escape on foot needs a space suit.", S.BUNKER, "choice"))
    elif state.systems.rover != "exit" and not suit:
        out.append(V("no-rover-or-suit", "The rover is not at the exit and there is no space suit.", S.BUNKER))
    return out


def check_computer(state: LockdownState, fact: Fact) -> list[Violation]:
    out = action_check(state, fact)
    if out:
        return out
    place = state.crew.characters[fact.actor].room
    r = state.ship.rooms[place]
    room = ROOMS[r.tile] if r.tile else None
    if room is None or room.computer is False or (room.computer is None and state.board.synthetic):
        out.append(V("no-computer", f"{state.room_label(place)} has no computer.", S.COMPUTER))
    if r.malfunction:
        out.append(V("computer-malfunction", "A malfunction disables the computer.", S.MALFUNCTION))
    if state.powered(state.sector_of(place)) is False:
        out.append(V("computer-unpowered", "Computer actions need a powered sector.", S.COMPUTER))
    if state.research.computer_card not in COMPUTER_CARDS:
        out.append(V("no-computer-card", "No computer action card is face up (record ComputerCardRevealed).",
                     S.COMPUTER))
    return out


def check_computer_revealed(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.research.computer_card is not None:
        return [V("computer-card-face-up", f"Computer card {state.research.computer_card} is still face up.",
                  S.COMPUTER,
                  "card")]
    return []


def check_weakness(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.research.weaknesses[fact.data["slot"] - 1] and not fact.data.get("card"):
        return [V("weakness-revealed-twice", f"Weakness {fact.data['slot']} is already face up.", S.WEAKNESS, "slot")]
    card = str(fact.data.get("card") or "").strip().casefold().replace(" ", "_")
    if card and state.nemesis_intruders:
        from service.rules.lockdown.catalog import data
        for w in data("intruders")["nemesis_intruders"]["removed_weaknesses"]:
            if card in {w["id"], w["en"].casefold().replace(" ", "_"), w["pl"].casefold().replace(" ", "_")}:
                return [V("weakness-removed", f"{w['en']} ({w['pl']}) is removed from the game with Nemesis "
                          f"intruders.", S.NEMESIS, "card")]
    return []


# --- effects -------------------------------------------------------------------------------------------------

def knowledge(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    c = state.crew.characters[fact.actor]
    k = max(0, min(8, c.knowledge + fact.data["amount"]))
    active = c.knowledge_active or bool(fact.data.get("activate"))
    cons.append(C("knowledge", f"{who(state, fact.actor)}'s knowledge is now {k}"
                  + (" (token active)." if active and not c.knowledge_active else "."), seat=fact.actor, knowledge=k))
    return with_character(state, fact.actor, knowledge=k, knowledge_active=active)


def room_action(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    d = fact.data
    seat = fact.actor
    action = d["action"]
    place = state.crew.characters[seat].room
    state = M.act(state, fact, ROOM_ACTION_COST.get(action, 2))
    cons.append(C("room-action", f"{who(state, seat)}: room action {action.replace('_', ' ')}.", seat=seat,
                  action=action))
    effect = ROOM_ACTION_TABLE[action].effect if action in ROOM_ACTION_TABLE else None
    return effect(state, seat, place, d, cons) if effect else state


def _ra_archive(state, seat, place, d, cons):
    c = state.crew.characters[seat]
    k = min(8, c.knowledge + 2)
    cons.append(C("knowledge", f"{who(state, seat)} reads the archive: knowledge {k}, token active; then peeks at "
                  f"a contingency token (ContingencyTokenPeeked).", seat=seat, knowledge=k))
    return with_character(state, seat, knowledge=k, knowledge_active=True)


def _ra_technical(state, seat, place, d, cons):
    dest = resolve_place(state, d.get("room"))
    if dest is None:
        return state
    state = with_character(state, seat, room=dest)
    cons.append(C("moved", f"{who(state, seat)} crawls through the technical corridors to {state.room_label(dest)}; "
                  f"then an adult attacks in darkness (record IntruderAttacked… via the table: WoundSuffered etc.).",
                  seat=seat, to_room=dest))
    return state


def _ra_start_sd(state, seat, place, d, cons):
    return start_self_destruct(state, cons)


def _ra_decon(state, seat, place, d, cons):
    state = scan(state, seat, d.get("infected") or 0, d.get("clean") or 0, "hand", True, cons)
    if state.crew.characters[seat].slime:
        state = with_character(state, seat, slime=False)
        cons.append(C("slime-removed", "Slime marker discarded.", seat=seat))
    return state


def _ra_heal(state, seat, place, d, cons):
    c = state.crew.characters[seat]
    choice = d.get("choice") or "heal_light"
    if choice == "dress_all":
        cons.append(C("dressed", "All serious wounds are dressed.", seat=seat))
        return with_character(state, seat, serious=tuple(replace(w, dressed=True) for w in c.serious))
    if choice == "heal_dressed":
        wounds = list(c.serious)
        i = next((k for k, w in enumerate(wounds) if w.dressed), None)
        if i is not None:
            del wounds[i]
            cons.append(C("healed", "A dressed serious wound is healed.", seat=seat))
        return with_character(state, seat, serious=tuple(wounds))
    cons.append(C("healed", "All light wounds are healed.", seat=seat))
    return with_character(state, seat, light=0)


def _ra_research(state, seat, place, d, cons):
    obj = d.get("object")
    c = state.crew.characters[seat]
    carried = find_object(c.objects, obj)
    if carried is not None:
        objs = list(c.objects)
        objs.remove(carried)
        state = with_character(state, seat, objects=tuple(objs))
    else:
        state = M.take_object(state, place, obj)
    k = min(8, state.crew.characters[seat].knowledge + 3)
    state = with_character(state, seat, knowledge=k)
    cons.append(C("knowledge", f"{who(state, seat)} researches the {obj}: knowledge {k}.", seat=seat, knowledge=k))
    if obj in state.research.researched or all(state.research.weaknesses):
        cons.append(C("object-discarded", f"A {obj} already revealed a weakness: the object is discarded."))
        return state
    slot = state.research.weaknesses.index(False)
    return reveal_weakness(state, slot, d.get("card"), obj, cons)


def reveal_weakness(state: LockdownState, slot: int, card: str | None, obj: str | None,
                    cons: list[Consequence]) -> LockdownState:
    revealed = list(state.research.weaknesses)
    names = list(state.research.weakness_names)
    revealed[slot] = True
    if card:
        names[slot] = card
    cons.append(C("weakness", f"Weakness {slot + 1} (knowledge {(3, 5, 8)[slot]}) is revealed"
                  + (f": {card}." if card else "."), slot=slot + 1, card=card))
    return replace_in(state, "research", weaknesses=tuple(revealed), weakness_names=tuple(names),
                      researched=state.research.researched + ((obj,) if obj else ()))


def _ra_pod(state, seat, place, d, cons):
    tile = state.ship.rooms[place].tile if place in state.ship.rooms else None
    # a lenient game may record the pod action where no evacuation tile is known (flagged by check):
    # the character is in a pod all the same, which one is not known
    letter = ROOMS[tile].id[-1].upper() if tile in ROOMS else None
    c = state.crew.characters[seat]
    cons.append(C("pod-entered", f"{who(state, seat)} discards all cards, passes and enters "
                  + (f"pod {letter}." if letter else "a pod (which one is not known: no evacuation tile recorded here)."),
                  seat=seat, pod=letter))
    state = with_character(state, seat, status=IN_POD, pod=letter, room=None, passed=True, hand=0,
                           discard=c.discard + c.hand)
    if letter is None:
        return M.check_base_empty(state, cons)
    pods = state.systems.pods.copy()
    pods[letter] = seat
    return M.check_base_empty(replace_in(state, "systems", pods=MappingProxyType(pods)), cons)


def _ra_egg(state, seat, place, d, cons):
    if state.colony.eggs:
        state = replace_in(state, "colony", eggs=state.colony.eggs - 1)
        state = with_character(state, seat, objects=state.crew.characters[seat].objects + ("egg",))
        cons.append(C("egg-taken",
                      f"{who(state, seat)} takes an egg ({state.colony.eggs} left in the Nest); a noise roll "
                      f"follows.", seat=seat, eggs=state.colony.eggs))
        state = nest_check(state, cons)
    return replace_in(state, "clock",
                      pending=(Pending("noise", seat, place, reason="took an egg"),) + state.clock.pending)


def _ra_stop_sd(state, seat, place, d, cons):
    cons.append(C("self-destruct-stopped", "The yellow self-destruct token is discarded."))
    return replace_in(state, "systems", self_destruct=None)


def _ra_toggle_power(state, seat, place, d, cons):
    loc = state.sector_of(place) or "S-01"
    if loc not in state.ship.power:
        return state
    n, on = state.ship.power[loc]
    power = state.ship.power.copy()
    power[loc] = (n, not on)
    cons.append(C("power", f"Power in {loc} turns {'off' if on else 'on'}.", location=loc, on=not on))
    return replace_in(state, "ship", power=MappingProxyType(power))


def _ra_signal(state, seat, place, d, cons):
    cons.append(C("signal", f"{who(state, seat)} sends a signal.", seat=seat))
    return with_character(state, seat, signal=True)


def _ra_check_objective(state, seat, place, d, cons):
    cons.append(C("objective-shown", f"{who(state, d.get('seat'))} secretly shows their objective to "
                  f"{who(state, seat)}.", seat=seat, other=d.get("seat")))
    return state


def _ra_schedule(state, seat, place, d, cons):
    labels = [state.board.time_label(i) for i in range(len(state.board.time_spaces))]
    src = state.board.time_spaces[labels.index(str(d["space"]).zfill(2))]
    dst_label = str(d.get("to")).zfill(2)
    if dst_label not in labels:
        return state
    dst = state.board.time_spaces[labels.index(dst_label)]
    cons.append(C("css-moved", f"The CSS token under {labels[state.board.time_spaces.index(src)]} moves to "
                  f"{dst_label}.", space=dst_label))
    return replace_in(state, "systems", css_at=(state.systems.css_at - {src}) | {dst})


def _ra_threat(state, seat, place, d, cons):
    if d.get("choice") == "malfunction":
        state = M.place_malfunction(state, place, cons)
    else:
        r = state.ship.rooms[place]
        state = with_room(state, place, items=max(0, (r.items or 0) - 1))
    if state.end.ended:
        return state
    target = resolve_place(state, d.get("room"))
    if target is None:
        return state
    state = M.place_malfunction(state, target, cons)
    for it in state.intruders_in(target):
        state = M.injure(state, it.id, 1, cons, seat)
    for s in state.characters_in(target):
        state = M.wound(state, s, "serious", cons, cause="defense_control")
    return state


def _ra_take_item(state, seat, place, d, cons):
    r = state.ship.rooms[place]
    state = with_room(state, place, items=max(0, (r.items or 0) - 1))
    name = {"taser": "Taser", "enviro_suit": "Enviro-Suit"}.get(d.get("choice"), "Taser")
    return M.add_item(state, seat, name, "blue", "backpack", None, cons)


def _ra_surgery(state, seat, place, d, cons):
    state = scan(state, seat, d.get("infected") or 0, d.get("clean") or 0, "all", True, cons)
    state = M.wound(state, seat, "light", cons)
    if state.crew.characters[seat].status != IN_BASE:
        return state
    state = M.reshuffle_all(state, seat)
    cons.append(C("surgery", f"{who(state, seat)} passes automatically; all action cards form a new deck.",
                  seat=seat))
    return with_character(state, seat, passed=True)


def _ra_neutralizer(state, seat, place, d, cons):
    return M.add_item(state, seat, "Neutralizer", "blue", "backpack", None, cons)


def _ra_vent(state, seat, place, d, cons):
    target = resolve_place(state, d.get("room"))
    if target is None:
        return state
    keys = [k for k in (state.board.corridors_of(target) or ()) if k != TECHNICAL]
    state = replace_in(state, "ship", doors=state.ship.doors | set(keys), ventilation=target)
    if state.ship.rooms[target].fire:
        state = with_room(state, target, fire=False)
    cons.append(C("vent", f"Doors close around {state.room_label(target)}; the ventilation token goes there. "
                  f"Whoever is still there when the player phase ends dies.", room=target))
    return state


def _ra_alarm(state, seat, place, d, cons):
    b = state.board
    space = b.time_spaces[state.clock.time]
    half = space // 2 if isinstance(space, int) else 0
    idx = b.time_spaces.index(half) if half in b.time_spaces else len(b.time_spaces) - 1
    cons.append(C("alarm", f"Alarm procedure: the token goes on {b.time_label(idx)}; the Isolation Room opens.",
                  space=b.time_label(idx)))
    return replace_in(replace_in(state, "systems", alarm=idx), "ship", isolation_open=True)


def _ra_restore(state, seat, place, d, cons):
    power = state.ship.power.copy()
    if sum(1 for _, on in power.values() if on) < 3:
        for loc, (n, _) in list(power.items()):
            power[loc] = (n, n <= 2)
    arrangement = d.get("arrangement")
    if arrangement:
        by_token = {n: on for n, on in power.values()}
        power = {loc: (n, by_token[n]) for loc, n in arrangement.items()}
    cons.append(C("power-restored", "Power reset and arranged; emergency power is active (time token blue).",
                  power={k: v[1] for k, v in power.items()}))
    return replace_in(state, "ship", power=MappingProxyType(power), emergency_power=True)


def _ra_call(state, seat, place, d, cons):
    sector = state.sector_of(place)
    cons.append(C("elevator", f"The elevator comes to {sector}.", sector=sector))
    return replace_in(state, "ship", elevator=sector)


def _ra_use(state, seat, place, d, cons):
    to = d.get("to")
    dest = state.board.fixed_rooms.get(f"elevator_room_{str(to).lower().replace('-', '')}")
    if dest is None:
        return state
    riders = [seat] + [s for s in d.get("with") or [] if state.crew.characters[s].room == place]
    for s in riders:
        state = with_character(state, s, room=dest)
    cons.append(C("elevator", f"{', '.join(who(state, s) for s in riders)} ride the elevator to "
                  f"{state.room_label(dest)} (no noise roll).", to_room=dest, seats=riders))
    return replace_in(state, "ship", elevator=to)


def _ra_lock_in(state, seat, place, d, cons):
    cons.append(C("lock-in", f"{who(state, seat)} tries to lock in: a noise roll; if a stalker appears the attempt "
                  f"fails.", seat=seat))
    return replace_in(state, "clock", pending=(Pending("noise", seat, place, reason="lock-in attempt"),
                                   Pending("finish", seat, place, reason="lock_in")) + state.clock.pending)


def _ra_bunker(state, seat, place, d, cons):
    if state.systems.rover == "exit" and d.get("choice") != "suit":
        cons.append(C("bunker", f"{who(state, seat)} drives the rover to the Bunker.", seat=seat))
        state = with_character(state, seat, status=IN_BUNKER, room=None, passed=True, bunker_via="rover")
        return M.check_base_empty(replace_in(state, "systems", rover="bunker"), cons)
    cons.append(C("bunker-attempt", f"{who(state, seat)} walks out in the space suit: a noise roll; if a stalker "
                  f"appears the escape fails.", seat=seat))
    return replace_in(state, "clock", pending=(Pending("noise", seat, place, reason="space-suit escape"),
                                   Pending("finish", seat, place, reason="bunker_suit")) + state.clock.pending)


def computer(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    d = fact.data
    seat = fact.actor
    card = state.research.computer_card
    option = COMPUTER_CARDS.get(card or "", ("?", "?", "?"))[d["option"] - 1]
    state = M.act(state, fact, 1)
    cons.append(C("computer", f"{who(state, seat)} uses computer card {card}, option {d['option']} "
                  f"({option.replace('_', ' ')}); the card goes under the deck.", seat=seat, option=option))
    if option == "gain_knowledge":
        k = min(8, state.crew.characters[seat].knowledge + 1)
        state = with_character(state, seat, knowledge=k)
    elif option == "move_rover":
        state = replace_in(state, "systems", rover=d.get("to") or ("away" if state.systems.rover == "exit" else "exit"))
    elif option == "swap_power" and d.get("locations"):
        a, b = d["locations"]
        power = state.ship.power.copy()
        power[a], power[b] = power[b], power[a]
        state = replace_in(state, "ship", power=MappingProxyType(power))
    elif option == "clear_room" and d.get("room"):
        target = resolve_place(state, d["room"])
        state = with_room(state, target, fire=False)
        for it in state.intruders_in(target):
            state = replace_in(state, "clock", pending=(Pending("retreat", seat, target, reason="computer",
                                                    intruder=it.id),) + state.clock.pending)
    elif option == "toggle_door" and d.get("room"):
        target = resolve_place(state, d["room"])
        key = state.board.corridor_key(target, d.get("corridor") or 1)
        if key and key != TECHNICAL and key not in state.ship.destroyed_doors:
            state = replace_in(state, "ship", doors=state.ship.doors ^ {key})
    elif option == "peek_css" and d.get("space") is not None and d.get("token"):
        known = state.systems.css_known.copy()
        known[str(d["space"])] = d["token"]
        state = replace_in(state, "systems", css_known=MappingProxyType(known))
    return replace_in(state, "research", computer_card=None)


def computer_revealed(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    card = fact.data["card"]
    if card == "lockdown":
        seat = fact.data.get("seat")
        place = state.crew.characters[seat].room if seat else None
        cons.append(C("lockdown-card", "Lock-Down! A malfunction in the revealing player's room; the computer deck "
                      "is reshuffled (reveal the next card).", room=place))
        if place and state.clock.phase != "setup":
            state = M.place_malfunction(state, place, cons)
        return replace_in(state, "research", computer_card=None)
    cons.append(C("computer-card", f"Computer action card {card} is face up.", card=card))
    return replace_in(state, "research", computer_card=card)


def weakness(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    return reveal_weakness(state, fact.data["slot"] - 1, fact.data.get("card"), fact.data.get("object"), cons)


# --- what each room action offers (the option sets next_inputs proposes, in this order) -------------------------

def _opt_technical_move(state: LockdownState, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    c = state.crew.characters[seat]
    dests = [p for p in state.board.technical if state.ship.rooms[p].explored and p != c.room]
    return [dict(base, room=p) for p in dests[:2]]


def _opt_heal(state: LockdownState, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(base, choice=ch) for ch in ("dress_all", "heal_dressed", "heal_light")]


def _opt_research(state: LockdownState, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    c = state.crew.characters[seat]
    objs = {o.split(":")[0] for o in c.objects} | {o.split(":")[0] for o in state.ship.objects.get(c.room, ())}
    return [dict(base, object=o) for o in sorted(objs)]


def _opt_check_objective(state: LockdownState, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(base, seat=s) for s in state.seats if s != seat and state.crew.characters[s].signal][:1]


def _opt_eliminate_threat(state: LockdownState, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(base, room=i.room, choice="malfunction") for i in state.colony.intruders][:1]


def _opt_take_item(state: LockdownState, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(base, choice="enviro_suit"), dict(base, choice="taser")]


def _opt_scan(state: LockdownState, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    n = state.crew.characters[seat].contamination  # decontamination and surgery: what the scan found
    return [dict(base, infected=0, clean=n)] + ([dict(base, infected=1, clean=n - 1)] if n else [])


def _opt_vent(state: LockdownState, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(base, room=p) for p in list(state.board.technical)[:1]]


def _opt_use_elevator(state: LockdownState, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(base, to=s) for s in ("S-01", "S-02", "S-03")]


def _opt_escape_bunker(state: LockdownState, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    return [base, dict(base, choice="suit")]


def _opt_schedule_css(state: LockdownState, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    b = state.board
    out = []
    for space in sorted(state.systems.css_at, key=lambda v: b.time_spaces.index(v)):
        i = b.time_spaces.index(space)
        for j in (i - 1, i + 1):
            if 0 <= j < len(b.time_spaces):
                out.append(dict(base, space=b.time_label(i), to=b.time_label(j)))
    return out[:2]


def _computer_options(state: LockdownState, seat: int, option: str, n: int) -> dict[str, Any] | None:
    data: dict[str, Any] = {"option": n}
    if option == "swap_power":
        data["locations"] = ["S-01", "elevator"]
    elif option == "clear_room":
        data["room"] = state.crew.characters[seat].room
    elif option == "toggle_door":
        exits = state.board.exits(state.crew.characters[seat].room) if state.board.has_graph else ()
        if not exits:
            return None
        data["room"] = state.crew.characters[seat].room
        data["corridor"] = state.board.number_at(exits[0][0], state.crew.characters[seat].room)
    elif option == "peek_contingency":
        others = [s for s in state.seats if s != seat and state.crew.characters[s].contingency]
        if not others:
            return None
        data["seat"] = others[0]
    return data


# --- the room actions, each declared once -------------------------------------------------------------------

RoomCheck = Callable[[LockdownState, int, str, Any], list[Violation]]
RoomEffect = Callable[[LockdownState, int, str, Any, list[Consequence]], LockdownState]
RoomOptions = Callable[[LockdownState, int, dict[str, Any]], list[dict[str, Any]]]


def _one(state: LockdownState, seat: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    return [base]  # the action needs no option


@dataclass(frozen=True)
class RoomAction:
    """One room action: its own check (None: the common ones only), its effect, the option sets offered by
    ``next_inputs`` (from ``{"action": id}``) and what the story says the character does."""

    id: str
    check: RoomCheck | None
    effect: RoomEffect
    options: RoomOptions
    words: str

    @property
    def rooms(self) -> tuple[str, ...]:
        """The room tiles where it is done (rooms.json); () for the Bunker escape, done on the exit space."""
        return ROOM_ACTIONS[self.id]

    @property
    def cost(self) -> int:
        return ROOM_ACTION_COST.get(self.id, 2)


def _build_table(*actions: RoomAction) -> dict[str, RoomAction]:
    declared = {a.id: a for a in actions}
    missing, unknown = sorted(set(ROOM_ACTIONS) - set(declared)), sorted(set(declared) - set(ROOM_ACTIONS))
    if missing or unknown or len(declared) != len(actions):
        raise AssertionError(f"Lockdown's room actions are incomplete — not declared: {missing}; not in rooms.json: "
                             f"{unknown}; declared twice: {len(actions) - len(declared)}")
    return {a: declared[a] for a in ROOM_ACTIONS}  # in rooms.json's order: the order next_inputs offers them


ROOM_ACTION_TABLE: dict[str, RoomAction] = _build_table(
    RoomAction("read_archive", _rc_archive, _ra_archive, _one, N_("reads the archive")),
    RoomAction("technical_move", _rc_technical, _ra_technical, _opt_technical_move,
               N_("crawls through the technical corridors")),
    RoomAction("start_self_destruct", _rc_sd, _ra_start_sd, _one, N_("starts the self-destruct sequence")),
    RoomAction("decontaminate", None, _ra_decon, _opt_scan, N_("goes through decontamination")),
    RoomAction("heal", _rc_heal, _ra_heal, _opt_heal, N_("is treated")),
    RoomAction("research", _rc_research, _ra_research, _opt_research, N_("researches")),
    RoomAction("enter_pod", _rc_pod, _ra_pod, _one, N_("climbs into an escape pod")),
    RoomAction("take_egg", _rc_egg, _ra_egg, _one, N_("takes an egg")),
    RoomAction("stop_self_destruct", _rc_stop, _ra_stop_sd, _one, N_("stops the self-destruct sequence")),
    RoomAction("toggle_power", _rc_toggle, _ra_toggle_power, _one, N_("switches the power")),
    RoomAction("send_signal", None, _ra_signal, _one, N_("sends the signal")),
    RoomAction("check_objective", _rc_check, _ra_check_objective, _opt_check_objective, N_("checks an objective")),
    RoomAction("schedule_css", _rc_schedule, _ra_schedule, _opt_schedule_css, N_("reschedules a CSS launch")),
    RoomAction("eliminate_threat", _rc_threat, _ra_threat, _opt_eliminate_threat, N_("eliminates a threat")),
    RoomAction("take_item", _rc_take_item, _ra_take_item, _opt_take_item, N_("takes an item")),
    RoomAction("surgery", None, _ra_surgery, _opt_scan, N_("undergoes surgery")),
    RoomAction("take_neutralizer", _rc_neutralizer, _ra_neutralizer, _one, N_("takes the neutralizer")),
    RoomAction("vent", _rc_vent, _ra_vent, _opt_vent, N_("vents a room")),
    RoomAction("lock_in", _rc_lock_in, _ra_lock_in, _one, N_("tries to lock in the Isolation Room")),
    RoomAction("restore_power", None, _ra_restore, _one, N_("restores power")),
    RoomAction("alarm", _rc_alarm, _ra_alarm, _one, N_("sounds the alarm")),
    RoomAction("gather_information", _rc_gather, hidden_information.gather, _one, N_("gathers information")),
    RoomAction("call_elevator", _rc_elevator, _ra_call, _one, N_("calls the elevator")),
    RoomAction("use_elevator", _rc_elevator, _ra_use, _opt_use_elevator, N_("rides the elevator")),
    RoomAction("escape_bunker", _rc_bunker, _ra_bunker, _opt_escape_bunker, N_("makes for the Bunker")),
)
#: old names: the per-action checks and effects (checks_play.ROOM_CHECKS, apply_play.ROOM_HANDLERS)
ROOM_CHECKS = {a.id: a.check for a in ROOM_ACTION_TABLE.values() if a.check is not None}
ROOM_HANDLERS = {a.id: a.effect for a in ROOM_ACTION_TABLE.values()}


# --- offers ------------------------------------------------------------------------------------------------

Legal = Callable[[LockdownState, str, "int | None", dict[str, Any]], bool]


def room_action_offers(state: LockdownState, seat: int, legal: Legal) -> list[Expected]:
    """The room actions ``seat`` may take where it stands, each with the option sets its declaration offers
    (only the legal ones: ``legal`` is the rules' check, passed in by ``next_inputs``)."""
    place = state.crew.characters[seat].room
    r = state.ship.rooms[place]
    out = []
    for action, rooms in ROOM_ACTIONS.items():
        if rooms and r.tile not in rooms:
            continue
        if not rooms and state.board.exit_space and place != state.board.exit_space:
            continue
        for data in ROOM_ACTION_TABLE[action].options(state, seat, {"action": action}):
            if legal(state, "RoomActionUsed", seat, data):
                out.append(Expected("RoomActionUsed", seat, {k: [v] for k, v in data.items()},
                                    f"room action: {action.replace('_', ' ')}"))
    return out


def computer_offers(state: LockdownState, seat: int, legal: Legal) -> list[Expected]:
    """The options of the face-up computer card ``seat`` may use (only the legal ones)."""
    out = []
    if state.research.computer_card in COMPUTER_CARDS:
        for option in (1, 2, 3):
            data = _computer_options(state, seat, COMPUTER_CARDS[state.research.computer_card][option - 1], option)
            if data is not None and legal(state, "ComputerActionUsed", seat, data):
                out.append(Expected("ComputerActionUsed", seat, {k: [v] for k, v in data.items()},
                                    f"computer action {state.research.computer_card}{option}"))
    return out


KNOWLEDGE_AMOUNTS = list(range(1, 9)) + list(range(-1, -9, -1)) + [0]
OBJECT_KINDS = ("corpse", "carcass", "egg")  # the objects research studies and a weakness card names


def computer_card_offers(state: LockdownState) -> list[Expected]:
    """The computer action card to reveal: the first at setup (Lock-Down is shuffled back then), the next after
    every use."""
    if state.research.computer_card is not None:
        return []
    note = ("the first computer action card (Lock-Down is shuffled back at setup)" if state.clock.phase == SETUP
            else "reveal the next computer action card")
    return [Expected("ComputerCardRevealed", None, {"card": list(COMPUTER_DECK[:-1])}, note)]


def knowledge_offers(state: LockdownState, seat: int) -> list[Expected]:
    """Table effect for one seat: knowledge gained or lost by a card or an item."""
    return [offer("KnowledgeGained", seat, None, lambda: Expected(
        "KnowledgeGained", seat, {"amount": KNOWLEDGE_AMOUNTS}, TABLE_EFFECT))]


def weakness_offers(state: LockdownState) -> list[Expected]:
    """Table effect: a weakness card revealed (by research or an item) in a slot still face down."""
    slots = [i + 1 for i, up in enumerate(state.research.weaknesses) if not up]
    return [Expected("WeaknessRevealed", None, {"slot": slots, "object": list(OBJECT_KINDS)}, TABLE_EFFECT)
            ] if slots else []


# --- the declarations --------------------------------------------------------------------------------------

_SPECS = (
    FactSpec("KnowledgeGained", "seat",
             "The character's knowledge changed by an effect not derived here (card, item); capped 0–8.",
             (_f("amount", "amount", "change of knowledge (e.g. 3 for Research Tools)"),
              _f("activate", "bool", "the knowledge token was flipped to its active side", False)),
             {"amount": 1}, S.KNOWLEDGE),
    FactSpec("RoomActionUsed", "seat",
             "A room action (cost 2; elevator 1; not in combat, not with a malfunction). Its effect is derived; "
             "options as the action needs them.",
             (_f("action", "room_action", ", ".join(ROOM_ACTIONS)),
              _f("room", "room", "target room (technical_move, eliminate_threat, vent)", False),
              _f("seat", "seat", "target seat (check_objective)", False),
              _f("object", "object", "research: the object researched", False),
              _f("choice", "heal_choice", "heal: dress_all / heal_dressed / heal_light; eliminate_threat: counter / "
                 "malfunction; take_item: taser / enviro_suit; escape_bunker: rover / suit", False),
              _f("to", "text", "schedule_css: space moved to; use_elevator: sector", False),
              _f("space", "space", "schedule_css: the space of the CSS token", False),
              _f("with", "seats", "use_elevator: characters taken along", False),
              _f("infected", "count0", "decontaminate/surgery: infected cards found", False),
              _f("clean", "count0", "decontaminate/surgery: clean cards found", False),
              _f("card", "text", "research: the weakness card revealed, if named", False),
              _f("token", "plan", "gather_information / schedule_css: the token seen", False),
              _f("arrangement", "arrangement", "restore_power: location → power token", False)),
             {"action": "send_signal"}, S.ROOM_ACTIONS),
    FactSpec("ComputerActionUsed", "seat",
             "A computer action (cost 1, powered sector, computer room without malfunction): option 1–3 of the "
             "face-up card; the card goes under the deck (record ComputerCardRevealed next).",
             (_f("option", "computer_option", "1, 2 or 3 on the face-up card"),
              _f("room", "room", "target room (clear_room, toggle_door)", False),
              _f("corridor", "corridor", "toggle_door: corridor number", False),
              _f("seat", "seat", "peek_contingency: the other player", False),
              _f("space", "space", "peek_css: the space of the token", False),
              _f("token", "text", "the token seen (peek_css / peek_contingency)", False),
              _f("locations", "power_pair", "swap_power: the 2 locations", False),
              _f("to", "text", "move_rover: exit / away", False)),
             {"option": 1}, S.COMPUTER),
    FactSpec("ComputerCardRevealed", "table",
             "The next computer action card was revealed (at setup and after every use). Lock-Down: a malfunction "
             "in the revealing player's room and the deck is reshuffled (derived).",
             (_f("card", "computer_card", "A, B, C, D, E or lockdown"),
              _f("seat", "seat", "Lock-Down: the revealing player", False)),
             {"card": "B"}, S.COMPUTER),
    FactSpec("WeaknessRevealed", "table", "A weakness card was revealed (by research or an item) or named.",
             (_f("slot", "slot", "slot 1–3 (knowledge 3, 5, 8)"),
              _f("card", "text", "the weakness card, if named", False),
              _f("object", "object", "the object type that revealed it", False)),
             {"slot": 2, "object": "egg"}, S.WEAKNESS),
)
_CHECKS = (check_knowledge, check_room_action, check_computer, check_computer_revealed, check_weakness)
_EFFECTS = (knowledge, room_action, computer, computer_revealed, weakness)
FACT_TYPES: tuple[FactType, ...] = tuple(FactType(*t) for t in zip(_SPECS, _CHECKS, _EFFECTS))
SPECS = tuple(t.spec for t in FACT_TYPES)
RULES = {t.spec.type: t.check for t in FACT_TYPES}
EFFECTS = {t.spec.type: t.effect for t in FACT_TYPES}
