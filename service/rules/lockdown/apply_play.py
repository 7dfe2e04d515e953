"""Folding the facts of the concepts not yet in a module of their own: items and cards, room actions, the
computer, the lab and the victory check (decision 0029 lists the concept modules).

The handlers here are registered into ``apply.HANDLERS``, with the concept modules' effects; like every handler they never raise
on a well-shaped fact and return a new state.

    >>> from service.rules.lockdown.fold import new_game
    >>> g = new_game(1, mode="solo")
    >>> g.push("WoundSuffered", 1, kind="serious", count=3)
    []
    >>> len(g.state.characters[1].serious), g.state.characters[1].status
    (3, 'base')
"""
from __future__ import annotations

from service.rules.kit.replace import replace
from types import MappingProxyType
from typing import Callable

from service.rules.base import Consequence, Fact
from service.rules.lockdown import combat, condition, endgame, hidden_information, mechanics as M, movement, systems
from service.rules.lockdown.combat import injuries_for, move_through  # noqa: F401 (old paths)
from service.rules.lockdown.condition import scan  # noqa: F401 (old path: apply_play.scan)
from service.rules.lockdown.catalog import item_ammo
from service.rules.lockdown.board import TECHNICAL
from service.rules.lockdown.checks import ROOM_ACTION_COST, action_cost, who
from service.rules.lockdown.components import ROOMS
from service.rules.lockdown.facts import COMPUTER_CARDS, resolve_place
from service.rules.lockdown.mechanics import C, nest_check, start_self_destruct
from service.rules.lockdown.state import (
    IN_BASE, IN_BUNKER, IN_POD, Item, find_object, LockdownState, Pending,
    with_character, with_room,
)

Handler = Callable[[LockdownState, Fact, list[Consequence]], LockdownState]


def _knowledge(state, fact, cons):
    c = state.characters[fact.actor]
    k = max(0, min(8, c.knowledge + fact.data["amount"]))
    active = c.knowledge_active or bool(fact.data.get("activate"))
    cons.append(C("knowledge", f"{who(state, fact.actor)}'s knowledge is now {k}"
                  + (" (token active)." if active and not c.knowledge_active else "."), seat=fact.actor, knowledge=k))
    return with_character(state, fact.actor, knowledge=k, knowledge_active=active)



# --- cards and items ---------------------------------------------------------------------------------------

def _card_played(state, fact, cons):
    d = fact.data
    seat = fact.actor
    cost = 1 + (d.get("cost") or 0)
    state = M.pay(state, seat, cost)
    if not d.get("reaction"):
        state = M.count_action(state, seat)
    cons.append(C("card-played", f"{who(state, seat)} plays {d['card']} ({cost} card{'s' if cost != 1 else ''})"
                  + (f": {d['note']}." if d.get("note") else "."), seat=seat, card=d["card"], cost=cost))
    if d.get("to_room") is not None:
        state = _card_move(state, fact, cons)
    return state


def _card_move(state, fact, cons):
    """Ogień osłonowy (faq_lockdown.md 28): 1 Item card discarded, then the player's own character or a consenting
    one from the same room goes to an adjacent room — no escape attack; the room entered is resolved as after a
    move (exploration, noise roll: seed 000 L3045–3050)."""
    d = fact.data
    seat = fact.actor
    if d.get("item"):
        state, _ = _drop_item(state, seat, d["item"])
        cons.append(C("item-discarded", f"{who(state, seat)} discards {d['item']} for {d['card']}.", seat=seat,
                      item=d["item"]))
    moved = d.get("character") or seat
    origin = state.characters[moved].room
    dest = resolve_place(state, d["to_room"])
    key = M.entry_key(state, origin, dest, d["corridor"])
    occupied = M.occupied(state, dest, moved)
    state = with_character(state, moved, room=dest)
    cons.append(C("card-move", f"{d['card']}: {who(state, moved)} goes from {state.room_label(origin)} to "
                  f"{state.room_label(dest)} without a night stalker attack.", seat=moved, from_room=origin,
                  to_room=dest, corridor=key))
    M.combat_notice(state, moved, dest, cons)
    return M.entered(state, moved, dest, key, occupied, cons)


def _add_item(state, seat, name, colour, where, ammo, cons) -> LockdownState:
    c = state.characters[seat]
    where = where or "backpack"
    if ammo is None:  # a weapon arrives loaded with its printed starting ammo (seed 000 L3632–3636)
        printed = item_ammo(name)
        ammo = printed[0] if printed else None
    if where == "hand" and c.hands_used >= 2:
        cons.append(C("hands-full", f"Both hands of {who(state, seat)} are full: {name} goes to the backpack."))
        where = "backpack"
    cons.append(C("item", f"{who(state, seat)} takes {name} ({where}).", seat=seat, item=name))
    return with_character(state, seat, items=c.items + (Item(name, colour, where, ammo),))


def _searched(state, fact, cons):
    d = fact.data
    seat = fact.actor
    place = state.characters[seat].room
    state = M.act(state, fact, 1 + (d.get("cost") or 0))
    r = state.rooms[place]
    if r.items:
        state = with_room(state, place, items=r.items - 1)
        cons.append(C("item-counter", f"Item counter of {state.room_label(place)}: {r.items - 1}.", room=place,
                      items=r.items - 1))
    state = _add_item(state, seat, d["kept"], d["colour"], d.get("where"), d.get("ammo"), cons)
    if r.tile == "contaminated_room":
        state = M.slime(state, seat, cons)
    return state


def _gained(state, fact, cons):
    d = fact.data
    return _add_item(state, fact.actor, d["item"], d.get("colour"), d.get("where"), d.get("ammo"), cons)


def _drop_item(state: LockdownState, seat: int, name: str) -> tuple[LockdownState, Item | str | None]:
    c = state.characters[seat]
    key = name.casefold()
    obj = next((o for o in c.objects if o == key or o.split(":")[0] == key), None)
    if obj is not None:
        objs = list(c.objects)
        objs.remove(obj)
        return with_character(state, seat, objects=tuple(objs)), obj
    item = next((i for i in c.items if i.name.casefold() == key), None)
    if item is not None:
        items = list(c.items)
        items.remove(item)
        return with_character(state, seat, items=tuple(items)), item
    return state, None


def _crafted(state, fact, cons):
    d = fact.data
    seat = fact.actor
    place = state.characters[seat].room
    if d.get("free"):  # the Repository's shared craft (faq_lockdown.md 15): no action, no card
        state = replace(state, free_crafts=tuple(s for s in state.free_crafts if s != seat))
    else:
        state = M.act(state, fact, action_cost(fact))
    for name in d["ingredients"]:
        state, _ = _drop_item(state, seat, name)
    cons.append(C("crafted", f"{who(state, seat)} crafts {d['item']} from {', '.join(d['ingredients'])}"
                  + (" (free: the Repository's shared craft)." if d.get("free") else "."), seat=seat, item=d["item"]))
    state = _add_item(state, seat, d["item"], "blue", d.get("where"), d.get("ammo"), cons)
    if not d.get("free") and place is not None and state.rooms[place].tile == "repository":
        others = tuple(s for s in state.characters_in(place) if s != seat)
        state = replace(state, free_crafts=others)
        if others:
            cons.append(C("repository-craft", "Everyone else in the Repository may now craft once for free, with 1 "
                          "component (record ItemCrafted with free: true) before the next action: "
                          + ", ".join(who(state, s) for s in others) + ".", seats=list(others)))
    return state


def _used(state, fact, cons):
    d = fact.data
    seat = fact.actor
    cost = d.get("cost") or 0
    state = M.pay(state, seat, cost)
    if cost:
        state = M.count_action(state, seat)
    if d.get("ammo"):
        state = combat.spend_ammo(state, seat, d["item"], d["ammo"], cons)
    if d.get("discarded"):
        state, _ = _drop_item(state, seat, d["item"])
    cons.append(C("item-used", f"{who(state, seat)} uses {d['item']}" + (f": {d['note']}." if d.get("note") else ".")
                  + (" It is discarded." if d.get("discarded") else ""), seat=seat, item=d["item"]))
    if d.get("eggs"):  # faq_lockdown.md 10: any injury-dealing item destroys 1 unheld egg per injury
        place = resolve_place(state, d["room"]) if d.get("room") is not None else state.characters[seat].room
        state = _destroy_eggs(state, place, d["eggs"], cons)
    if d.get("eggs") is not None and state.characters[seat].room is not None:
        # "after every single attempt to destroy an egg you must make a noise roll" (seed 000 L472–473), by an
        # item as by a shot or a blow (faq_lockdown.md 10); the roll is the user's, in the room it stands in
        cons.append(C("noise-roll-due", "After every attempt on the eggs: a noise roll.", seat=seat))
        state = replace(state, pending=(Pending("noise", seat, state.characters[seat].room,
                                                reason="egg attack (item)"),) + state.pending)
    if d.get("gained"):  # faq_lockdown.md 18: e.g. the Probe Arm's carcass comes from the supply
        obj = d["gained"]
        state = with_character(state, seat, objects=state.characters[seat].objects + (obj,))
        if obj == "carcass":
            state = replace(state, carcasses=state.carcasses + 1)
        cons.append(C("object-gained", f"{who(state, seat)} takes a {obj} from the supply into a free hand.",
                      seat=seat, object=obj))
    return state


def _destroy_eggs(state: LockdownState, place: str | None, n: int, cons: list[Consequence]) -> LockdownState:
    """Unheld eggs destroyed in ``place``: eggs on the floor first, then the Nest's (lockdown.md §7.12)."""
    if place is None:
        return state
    for _ in range(n):
        if "egg" in state.objects.get(place, ()):
            state = M.take_object(state, place, "egg")
            cons.append(C("egg-destroyed", f"An egg is destroyed in {state.room_label(place)}.", room=place))
        elif state.rooms[place].tile == "nest" and state.rooms[place].explored and state.eggs:
            state = replace(state, eggs=state.eggs - 1)
            cons.append(C("egg-destroyed", f"An egg in the Nest is destroyed ({state.eggs} left).", room=place))
            state = nest_check(state, cons)
    return state


def _traded(state, fact, cons):
    d = fact.data
    seat, other = fact.actor, d.get("with")
    state = M.act(state, fact, action_cost(fact))
    moves = [(seat, other, n) for n in d.get("give") or []] + [(other, seat, n) for n in d.get("take") or []] + \
            [(t["from"], t["to"], t["item"]) for t in d.get("transfers") or []]
    for giver, taker, name in moves:  # a weapon goes with its ammo (seed 000 L1991–1992)
        if giver is None or taker is None:
            continue
        state, thing = _drop_item(state, giver, name)
        if isinstance(thing, Item):
            t = state.characters[taker]
            where = thing.where if thing.where == "backpack" or t.hands_used < 2 else "backpack"
            state = with_character(state, taker, items=t.items + (replace(thing, where=where),))
        elif isinstance(thing, str):
            state = with_character(state, taker, objects=state.characters[taker].objects + (thing,))
    partners = sorted({s for g, t, _ in moves for s in (g, t) if s is not None and s != seat} | (
        {other} if other is not None else set()))
    cons.append(C("traded", f"{who(state, seat)} trades with {', '.join(who(state, s) for s in partners)}.",
                  seat=seat, other=other, seats=partners))
    return state


def _dropped(state, fact, cons):
    seat = fact.actor
    place = state.characters[seat].room
    state, thing = _drop_item(state, seat, fact.data["item"])
    if isinstance(thing, str) and place:
        state = M.add_objects(state, place, (thing,))
        cons.append(C("object-dropped", f"{who(state, seat)} drops the {thing.split(':')[0]} in "
                      f"{state.room_label(place)}.", seat=seat, object=thing))
    elif thing is not None:
        cons.append(C("item-dropped", f"{who(state, seat)} drops {fact.data['item']}: it leaves the game.",
                      seat=seat))
    return state


def _picked(state, fact, cons):
    seat = fact.actor
    place = state.characters[seat].room
    obj = fact.data["object"]
    state = M.act(state, fact, action_cost(fact))
    found = find_object(state.objects.get(place, ()), obj)
    if found is None:
        return state
    state = M.take_object(state, place, found)
    cons.append(C("object-picked", f"{who(state, seat)} picks up the {obj}.", seat=seat, object=found))
    return with_character(state, seat, objects=state.characters[seat].objects + (found,))



# --- room actions -------------------------------------------------------------------------------------------

def _room_action(state, fact, cons):
    d = fact.data
    seat = fact.actor
    action = d["action"]
    place = state.characters[seat].room
    state = M.act(state, fact, ROOM_ACTION_COST.get(action, 2))
    cons.append(C("room-action", f"{who(state, seat)}: room action {action.replace('_', ' ')}.", seat=seat,
                  action=action))
    return ROOM_HANDLERS.get(action, lambda s, *a: s)(state, seat, place, d, cons)


def _ra_archive(state, seat, place, d, cons):
    c = state.characters[seat]
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
    if state.characters[seat].slime:
        state = with_character(state, seat, slime=False)
        cons.append(C("slime-removed", "Slime marker discarded.", seat=seat))
    return state


def _ra_heal(state, seat, place, d, cons):
    c = state.characters[seat]
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
    c = state.characters[seat]
    carried = find_object(c.objects, obj)
    if carried is not None:
        objs = list(c.objects)
        objs.remove(carried)
        state = with_character(state, seat, objects=tuple(objs))
    else:
        state = M.take_object(state, place, obj)
    k = min(8, state.characters[seat].knowledge + 3)
    state = with_character(state, seat, knowledge=k)
    cons.append(C("knowledge", f"{who(state, seat)} researches the {obj}: knowledge {k}.", seat=seat, knowledge=k))
    if obj in state.researched or all(state.weaknesses):
        cons.append(C("object-discarded", f"A {obj} already revealed a weakness: the object is discarded."))
        return state
    slot = state.weaknesses.index(False)
    return reveal_weakness(state, slot, d.get("card"), obj, cons)


def reveal_weakness(state: LockdownState, slot: int, card: str | None, obj: str | None,
                    cons: list[Consequence]) -> LockdownState:
    revealed = list(state.weaknesses)
    names = list(state.weakness_names)
    revealed[slot] = True
    if card:
        names[slot] = card
    cons.append(C("weakness", f"Weakness {slot + 1} (knowledge {(3, 5, 8)[slot]}) is revealed"
                  + (f": {card}." if card else "."), slot=slot + 1, card=card))
    return replace(state, weaknesses=tuple(revealed), weakness_names=tuple(names),
                   researched=state.researched + ((obj,) if obj else ()))


def _ra_pod(state, seat, place, d, cons):
    tile = state.rooms[place].tile if place in state.rooms else None
    # a lenient game may record the pod action where no evacuation tile is known (flagged by check):
    # the character is in a pod all the same, which one is not known
    letter = ROOMS[tile].id[-1].upper() if tile in ROOMS else None
    c = state.characters[seat]
    cons.append(C("pod-entered", f"{who(state, seat)} discards all cards, passes and enters "
                  + (f"pod {letter}." if letter else "a pod (which one is not known: no evacuation tile recorded here)."),
                  seat=seat, pod=letter))
    state = with_character(state, seat, status=IN_POD, pod=letter, room=None, passed=True, hand=0,
                           discard=c.discard + c.hand)
    if letter is None:
        return M.check_base_empty(state, cons)
    pods = dict(state.pods)
    pods[letter] = seat
    return M.check_base_empty(replace(state, pods=MappingProxyType(pods)), cons)


def _ra_egg(state, seat, place, d, cons):
    if state.eggs:
        state = replace(state, eggs=state.eggs - 1)
        state = with_character(state, seat, objects=state.characters[seat].objects + ("egg",))
        cons.append(C("egg-taken", f"{who(state, seat)} takes an egg ({state.eggs} left in the Nest); a noise roll "
                      f"follows.", seat=seat, eggs=state.eggs))
        state = nest_check(state, cons)
    return replace(state, pending=(Pending("noise", seat, place, reason="took an egg"),) + state.pending)


def _ra_stop_sd(state, seat, place, d, cons):
    cons.append(C("self-destruct-stopped", "The yellow self-destruct token is discarded."))
    return replace(state, self_destruct=None)


def _ra_toggle_power(state, seat, place, d, cons):
    loc = state.sector_of(place) or "S-01"
    if loc not in state.power:
        return state
    n, on = state.power[loc]
    power = dict(state.power)
    power[loc] = (n, not on)
    cons.append(C("power", f"Power in {loc} turns {'off' if on else 'on'}.", location=loc, on=not on))
    return replace(state, power=MappingProxyType(power))


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
    return replace(state, css_at=(state.css_at - {src}) | {dst})


def _ra_threat(state, seat, place, d, cons):
    if d.get("choice") == "malfunction":
        state = M.place_malfunction(state, place, cons)
    else:
        r = state.rooms[place]
        state = with_room(state, place, items=max(0, (r.items or 0) - 1))
    if state.ended:
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
    r = state.rooms[place]
    state = with_room(state, place, items=max(0, (r.items or 0) - 1))
    name = {"taser": "Taser", "enviro_suit": "Enviro-Suit"}.get(d.get("choice"), "Taser")
    return _add_item(state, seat, name, "blue", "backpack", None, cons)


def _ra_surgery(state, seat, place, d, cons):
    state = scan(state, seat, d.get("infected") or 0, d.get("clean") or 0, "all", True, cons)
    state = M.wound(state, seat, "light", cons)
    if state.characters[seat].status != IN_BASE:
        return state
    state = M.reshuffle_all(state, seat)
    cons.append(C("surgery", f"{who(state, seat)} passes automatically; all action cards form a new deck.",
                  seat=seat))
    return with_character(state, seat, passed=True)


def _ra_neutralizer(state, seat, place, d, cons):
    return _add_item(state, seat, "Neutralizer", "blue", "backpack", None, cons)


def _ra_vent(state, seat, place, d, cons):
    target = resolve_place(state, d.get("room"))
    if target is None:
        return state
    keys = [k for k in (state.board.corridors_of(target) or ()) if k != TECHNICAL]
    state = replace(state, doors=state.doors | set(keys), ventilation=target)
    if state.rooms[target].fire:
        state = with_room(state, target, fire=False)
    cons.append(C("vent", f"Doors close around {state.room_label(target)}; the ventilation token goes there. "
                  f"Whoever is still there when the player phase ends dies.", room=target))
    return state


def _ra_alarm(state, seat, place, d, cons):
    b = state.board
    space = b.time_spaces[state.time]
    half = space // 2 if isinstance(space, int) else 0
    idx = b.time_spaces.index(half) if half in b.time_spaces else len(b.time_spaces) - 1
    cons.append(C("alarm", f"Alarm procedure: the token goes on {b.time_label(idx)}; the Isolation Room opens.",
                  space=b.time_label(idx)))
    return replace(state, alarm=idx, isolation_open=True)


def _ra_restore(state, seat, place, d, cons):
    power = dict(state.power)
    if sum(1 for _, on in power.values() if on) < 3:
        for loc, (n, _) in list(power.items()):
            power[loc] = (n, n <= 2)
    arrangement = d.get("arrangement")
    if arrangement:
        by_token = {n: on for n, on in power.values()}
        power = {loc: (n, by_token[n]) for loc, n in arrangement.items()}
    cons.append(C("power-restored", "Power reset and arranged; emergency power is active (time token blue).",
                  power={k: v[1] for k, v in power.items()}))
    return replace(state, power=MappingProxyType(power), emergency_power=True)


def _ra_call(state, seat, place, d, cons):
    sector = state.sector_of(place)
    cons.append(C("elevator", f"The elevator comes to {sector}.", sector=sector))
    return replace(state, elevator=sector)


def _ra_use(state, seat, place, d, cons):
    to = d.get("to")
    dest = state.board.fixed_rooms.get(f"elevator_room_{str(to).lower().replace('-', '')}")
    if dest is None:
        return state
    riders = [seat] + [s for s in d.get("with") or [] if state.characters[s].room == place]
    for s in riders:
        state = with_character(state, s, room=dest)
    cons.append(C("elevator", f"{', '.join(who(state, s) for s in riders)} ride the elevator to "
                  f"{state.room_label(dest)} (no noise roll).", to_room=dest, seats=riders))
    return replace(state, elevator=to)


def _ra_lock_in(state, seat, place, d, cons):
    cons.append(C("lock-in", f"{who(state, seat)} tries to lock in: a noise roll; if a stalker appears the attempt "
                  f"fails.", seat=seat))
    return replace(state, pending=(Pending("noise", seat, place, reason="lock-in attempt"),
                                   Pending("finish", seat, place, reason="lock_in")) + state.pending)


def _ra_bunker(state, seat, place, d, cons):
    if state.rover == "exit" and d.get("choice") != "suit":
        cons.append(C("bunker", f"{who(state, seat)} drives the rover to the Bunker.", seat=seat))
        state = with_character(state, seat, status=IN_BUNKER, room=None, passed=True, bunker_via="rover")
        return M.check_base_empty(replace(state, rover="bunker"), cons)
    cons.append(C("bunker-attempt", f"{who(state, seat)} walks out in the space suit: a noise roll; if a stalker "
                  f"appears the escape fails.", seat=seat))
    return replace(state, pending=(Pending("noise", seat, place, reason="space-suit escape"),
                                   Pending("finish", seat, place, reason="bunker_suit")) + state.pending)


ROOM_HANDLERS = {
    "read_archive": _ra_archive, "technical_move": _ra_technical, "start_self_destruct": _ra_start_sd,
    "decontaminate": _ra_decon, "heal": _ra_heal, "research": _ra_research, "enter_pod": _ra_pod,
    "take_egg": _ra_egg, "stop_self_destruct": _ra_stop_sd, "toggle_power": _ra_toggle_power,
    "send_signal": _ra_signal, "check_objective": _ra_check_objective, "schedule_css": _ra_schedule,
    "eliminate_threat": _ra_threat, "take_item": _ra_take_item, "surgery": _ra_surgery,
    "take_neutralizer": _ra_neutralizer, "vent": _ra_vent, "alarm": _ra_alarm, "gather_information": hidden_information.gather,
    "restore_power": _ra_restore, "call_elevator": _ra_call, "use_elevator": _ra_use, "lock_in": _ra_lock_in,
    "escape_bunker": _ra_bunker,
}


# --- computer --------------------------------------------------------------------------------------------------

def _computer(state, fact, cons):
    d = fact.data
    seat = fact.actor
    card = state.computer_card
    option = COMPUTER_CARDS.get(card or "", ("?", "?", "?"))[d["option"] - 1]
    state = M.act(state, fact, 1)
    cons.append(C("computer", f"{who(state, seat)} uses computer card {card}, option {d['option']} "
                  f"({option.replace('_', ' ')}); the card goes under the deck.", seat=seat, option=option))
    if option == "gain_knowledge":
        k = min(8, state.characters[seat].knowledge + 1)
        state = with_character(state, seat, knowledge=k)
    elif option == "move_rover":
        state = replace(state, rover=d.get("to") or ("away" if state.rover == "exit" else "exit"))
    elif option == "swap_power" and d.get("locations"):
        a, b = d["locations"]
        power = dict(state.power)
        power[a], power[b] = power[b], power[a]
        state = replace(state, power=MappingProxyType(power))
    elif option == "clear_room" and d.get("room"):
        target = resolve_place(state, d["room"])
        state = with_room(state, target, fire=False)
        for it in state.intruders_in(target):
            state = replace(state, pending=(Pending("retreat", seat, target, reason="computer",
                                                    intruder=it.id),) + state.pending)
    elif option == "toggle_door" and d.get("room"):
        target = resolve_place(state, d["room"])
        key = state.board.corridor_key(target, d.get("corridor") or 1)
        if key and key != TECHNICAL and key not in state.destroyed_doors:
            state = replace(state, doors=state.doors ^ {key})
    elif option == "peek_css" and d.get("space") is not None and d.get("token"):
        known = dict(state.css_known)
        known[str(d["space"])] = d["token"]
        state = replace(state, css_known=MappingProxyType(known))
    return replace(state, computer_card=None)


def _computer_revealed(state, fact, cons):
    card = fact.data["card"]
    if card == "lockdown":
        seat = fact.data.get("seat")
        place = state.characters[seat].room if seat else None
        cons.append(C("lockdown-card", "Lock-Down! A malfunction in the revealing player's room; the computer deck "
                      "is reshuffled (reveal the next card).", room=place))
        if place and state.phase != "setup":
            state = M.place_malfunction(state, place, cons)
        return replace(state, computer_card=None)
    cons.append(C("computer-card", f"Computer action card {card} is face up.", card=card))
    return replace(state, computer_card=card)


# --- objectives, contingency, lab, victory check ------------------------------------------------------------------

def _weakness(state, fact, cons):
    return reveal_weakness(state, fact.data["slot"] - 1, fact.data.get("card"), fact.data.get("object"), cons)


HANDLERS: dict[str, Handler] = {
    **condition.EFFECTS,  # wounds, contamination, slime, death (decision 0029)
    "KnowledgeGained": _knowledge,
    "CharacterMovedByEffect": movement.moved_by_effect,
    "IntruderAttacked": combat.attacked, "CharacterShot": combat.shot, "MeleeAttacked": combat.melee,
    "InjuryCheckDrawn": combat.injury_check, "IntruderRetreated": combat.retreated, "IntruderPlaced": combat.placed,
    "IntruderRemoved": combat.removed, "IntruderInjured": combat.injured,
    "ActionCardPlayed": _card_played, "RoomSearched": _searched, "ItemGained": _gained, "ItemCrafted": _crafted,
    "ItemUsed": _used, "ItemsTraded": _traded, "ItemDropped": _dropped, "HeavyObjectPickedUp": _picked,
    "FirePlaced": systems.fire_placed, "FireRemoved": systems.fire_removed,
    "MalfunctionPlaced": systems.malfunction_placed, "MalfunctionRemoved": systems.malfunction_removed,
    "DoorChanged": systems.door_changed, "NoiseMarkerPlaced": movement.noise_placed,
    "NoiseMarkerRemoved": movement.noise_removed, "PowerChanged": systems.power_changed,
    "SelfDestructStarted": systems.self_destruct_started,
    "RoomActionUsed": _room_action, "ComputerActionUsed": _computer, "ComputerCardRevealed": _computer_revealed,
    "WeaknessRevealed": _weakness,
    **hidden_information.EFFECTS,  # objectives and contingency tokens (decision 0029)
    **endgame.EFFECTS,  # the final scan (decision 0029)
}
