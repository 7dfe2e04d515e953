"""Items and crafting: Search, items gained, crafted, used, traded and dropped, and the heavy objects picked up.

Each fact type of the concept is declared here once (``FACT_TYPES``): its spec, its check and its effect; the
offers of a character's own item actions too (``search_and_carry_offers``, ``use_and_drop_offers``,
``free_craft_offers``), called from ``inputs_play`` at the places the seeded generator depends on. The table
effects that hand out or use items (``ItemGained``, a free ``ItemUsed``) stay among the table effects, whose
per-seat order they share. Decisions 0029 and 0037.

    >>> [t.spec.type for t in FACT_TYPES][:2]
    ['RoomSearched', 'ItemGained']
"""
from __future__ import annotations

from typing import Any, Callable

from service.rules.base import Consequence, Expected, Fact, Violation
from service.rules.kit.builders import consequence as C, violation as V
from service.rules.kit.facts import FactSpec, FactType, field_spec as _f
from service.rules.kit.replace import replace, replace_in
from service.rules.lockdown import combat, mechanics as M, sections as S
from service.rules.lockdown.catalog import item_ammo, items as catalogued_items
from service.rules.lockdown.components import CHARACTERS, ROOMS
from service.rules.lockdown.offers import offer
from service.rules.lockdown.state import (
    IN_BASE, Item, LockdownState, Pending, find_object, who, with_character, with_room,
)
from service.rules.lockdown.turns import action_check, action_cost, in_game
from service.rules.lockdown.unknown_values import is_unknown
from service.rules.lockdown.values import resolve_place

Legal = Callable[[LockdownState, str, "int | None", dict[str, Any]], bool]


# --- checks --------------------------------------------------------------------------------------------------

def out_of_combat(state: LockdownState, fact: Fact, what: str, section: str) -> list[Violation]:
    if state.in_combat(fact.actor):
        return [V("in-combat", f"{what} is only possible out of combat; {who(state, fact.actor)} shares the room "
                  f"with a night stalker.", section)]
    return []


def check_searched(state, fact):
    out = action_check(state, fact)
    if out:
        return out
    place = state.crew.characters[fact.actor].room
    r = state.ship.rooms[place]
    room = ROOMS[r.tile] if r.tile else None
    if r.kind == "special" or (room and room.extra.get("no_search")):
        out.append(V("no-search-here", f"{state.room_label(place)} cannot be searched (special room or Nest).",
                     S.SEARCH))
    elif not r.items:
        out.append(V("no-items-left", f"The item counter of {state.room_label(place)} is 0.", S.SEARCH))
    if fact.data["colour"] not in ("red", "yellow", "green"):
        out.append(V("search-colour", "Search draws red, yellow or green items only.", S.SEARCH, "colour"))
    elif room and room.colour in ("red", "yellow", "green") and fact.data["colour"] != room.colour:
        out.append(V("search-colour", f"{room.en} is a {room.colour} room.", S.SEARCH, "colour"))
    return out + ammo_as_printed(fact, "kept", exact=True)


def check_gained(state, fact):
    return in_game(state, fact.actor, S.SERIOUS_WOUNDS) or ammo_as_printed(fact, "item", exact=False)


def holds(state, seat, name) -> bool:
    c = state.crew.characters[seat]
    key = name.casefold()
    return any(i.name.casefold() == key for i in c.items) or any(o.split(":")[0] == key for o in c.objects)


def check_crafted(state, fact):
    if fact.data.get("free"):
        out = in_game(state, fact.actor, S.REPOSITORY_CRAFT) or out_of_combat(state, fact, "Crafting", S.CRAFT)
        c = state.crew.characters[fact.actor]
        if not out and (c.status != IN_BASE or c.room is None or state.ship.rooms[c.room].tile != "repository"):
            out.append(V("free-craft-not-in-repository", f"Only characters in the Repository share its craft; "
                         f"{who(state, fact.actor)} is not there.", S.REPOSITORY_CRAFT, "free"))
        elif not out and fact.actor not in state.clock.free_crafts:
            out.append(V("free-craft-not-due", f"A free craft follows another character's craft action in the "
                         f"Repository, once for each other character then in the room, before the next action; "
                         f"none is open for {who(state, fact.actor)}.", S.REPOSITORY_CRAFT, "free"))
    else:
        out = action_check(state, fact) or out_of_combat(state, fact, "Crafting", S.CRAFT)
    if out:
        return out
    out += ammo_as_printed(fact, "item", exact=True)
    need = 1 if state.ship.rooms[state.crew.characters[fact.actor].room].tile == "repository" else 2
    if len(fact.data["ingredients"]) != need:
        out.append(V("craft-ingredients", f"Crafting here takes {need} item card(s).", S.CRAFT, "ingredients"))
    for name in fact.data["ingredients"]:
        if not holds(state, fact.actor, name):
            out.append(V("missing-ingredient", f"{who(state, fact.actor)} holds no {name}.", S.CRAFT, "ingredients"))
    return out


def ammo_as_printed(fact, field: str, exact: bool) -> list[Violation]:
    """A weapon arrives with its printed starting ammo and never holds more than its magazine (seed 000 L3632–3636,
    L3643; data/items.json). ``exact``: a crafted or searched weapon is new, so it holds exactly the starting
    number; an item gained by another effect may hold fewer."""
    ammo = fact.data.get("ammo")
    printed = item_ammo(fact.data.get(field))
    if ammo is None or printed is None:
        return []
    start, cap = printed
    if ammo > cap:
        return [V("ammo-over-capacity", f"{fact.data[field]} holds at most {cap} ammo, not {ammo}.", S.ITEMS, "ammo")]
    if exact and ammo != start:
        return [V("ammo-not-as-printed", f"A new {fact.data[field]} is loaded with {start} ammo (AMMO {start}/{cap}), "
                  f"not {ammo}.", S.ITEMS, "ammo")]
    return []


# items whose text lets them affect another character (faq_lockdown.md 2: "1 chosen Character (including yourself)")
ITEMS_ON_OTHERS = ("scalpel", "skalpel")


def check_used(state, fact):
    d = fact.data
    out = action_check(state, fact) if d.get("cost") else in_game(state, fact.actor, S.ITEMS)
    if not out and not holds(state, fact.actor, d["item"]):
        out.append(V("no-such-item", f"{who(state, fact.actor)} holds no {d['item']}.", S.ITEMS, "item"))
    if out:
        return out
    target = d.get("target")
    if target is not None and target != fact.actor and d["item"].strip().casefold() not in ITEMS_ON_OTHERS:
        out.append(V("item-on-other-character", f"{d['item']} works only on its user ({who(state, fact.actor)}); "
                     f"trade it to {who(state, target)} first (faq_lockdown.md 2).", S.ITEMS, "target"))
    place = resolve_place(state, d["room"]) if d.get("room") is not None else state.crew.characters[fact.actor].room
    if d.get("eggs"):
        floor = state.ship.objects.get(place, ()).count("egg")
        r = state.ship.rooms[place]
        nest = state.colony.eggs if r.tile == "nest" and r.explored else 0
        if d["eggs"] > floor + nest:
            out.append(V("no-eggs-here", f"There are only {floor + nest} unheld egg(s) in {state.room_label(place)}.",
                         S.EGGS, "eggs"))
    if d.get("gained") and state.crew.characters[fact.actor].hands_used >= 2:
        out.append(V("hands-full", f"A {d['gained']} needs a free hand.", S.HEAVY, "gained"))
    return out


def check_traded(state, fact):
    out = action_check(state, fact) or out_of_combat(state, fact, "Trade", S.TRADE)
    if out:
        return out
    other = fact.data.get("with")
    transfers = fact.data.get("transfers") or []
    room = state.crew.characters[fact.actor].room

    def together(seat):
        return state.crew.characters[seat].room == room and state.crew.characters[seat].status == IN_BASE

    if other is None and not transfers:
        return [V("trade-with-nobody", "A trade names a partner (with) or hand-overs (transfers).", S.TRADE, "with")]
    if other is not None and (other == fact.actor or not together(other)):
        return [V("trade-not-together", f"{who(state, other)} is not in {who(state, fact.actor)}'s room.", S.TRADE,
                  "with")]
    for t in transfers:  # everyone in the room, passed or not, may hand things to everyone (seed 000 L1985–1992)
        if t["from"] == t["to"] or not together(t["from"]) or not together(t["to"]):
            return [V("trade-not-together", f"A hand-over from seat {t['from']} to seat {t['to']}: both must be "
                      f"different characters in {who(state, fact.actor)}'s room.", S.TRADE, "transfers")]
    held = {s: [i.name.casefold() for i in state.crew.characters[s].items]
            + [o.split(":")[0] for o in state.crew.characters[s].objects] for s in state.seats}
    moves = [(fact.actor, other, n, "give") for n in fact.data.get("give") or []] + \
            [(other, fact.actor, n, "take") for n in fact.data.get("take") or []] + \
            [(t["from"], t["to"], t["item"], "transfers") for t in transfers]
    for giver, taker, name, field in moves:  # in order: a thing received may be handed on
        if name.casefold() not in held[giver]:
            out.append(V("no-such-item", f"{who(state, giver)} holds no {name}.", S.TRADE, field))
            continue
        held[giver].remove(name.casefold())
        held[taker].append(name.casefold())
    return out


def check_dropped(state, fact):
    out = in_game(state, fact.actor, S.DROP)
    if out:
        return out
    if state.clock.phase != "player" or state.clock.turn != fact.actor:
        out.append(V("drop-out-of-turn", "Items and objects are dropped only during the own turn.", S.DROP))
    if not holds(state, fact.actor, fact.data["item"]):
        out.append(V("no-such-item", f"{who(state, fact.actor)} holds no {fact.data['item']}.", S.DROP, "item"))
    return out


def check_picked(state, fact):
    out = action_check(state, fact) or out_of_combat(state, fact, "Picking up a heavy object", S.HEAVY)
    if out:
        return out
    place = state.crew.characters[fact.actor].room
    if find_object(state.ship.objects.get(place, ()), fact.data["object"]) is None:
        out.append(V("no-object-here", f"There is no {fact.data['object']} in {state.room_label(place)}.", S.HEAVY,
                     "object"))
    if state.crew.characters[fact.actor].hands_used >= 2:
        out.append(V("hands-full", "Both hands are full: drop something first.", S.HEAVY))
    return out


# --- the item decks ------------------------------------------------------------------------------------------
# Search draws 2 cards from the deck of the room's colour — a white room: both from the one deck the player names —
# keeps 1 and puts the other face down on the bottom of that deck (seed 000 L2087–2091, L3849–3852, L3874–3875).
# An item discarded after its use goes face up to the discard pile (L3591–3593, L3668–3669); one discarded for any
# other reason (the card not kept, crafting's components) goes face down to the bottom of its deck (L3593–3595),
# and so does an item dropped: it is lost (L3686–3687). The seeds do not say what happens when a deck runs out:
# its discard pile is shuffled into a new deck, as for the event, attack and action decks (docs/rules-gaps.md).

DECK_COLOURS, item_deck, _with_deck = M.DECK_COLOURS, M.item_deck, M.with_deck  # shared: mechanics


def next_known(state: LockdownState, colour: str, n: int) -> list[str] | None:
    """The names of the next ``n`` cards of ``colour``'s deck, when the table named every one of them."""
    d = item_deck(state, colour)
    if d.cards < n or len(d.bottom) < d.cards:  # unknown cards lie above the known ones
        return None
    names = list(d.bottom[:n])
    return names if all(names) else None


def draw(state: LockdownState, colour: str, n: int, cons: list[Consequence]) -> tuple[LockdownState, list]:
    """``n`` cards drawn from the top of ``colour``'s deck: the known ones by name, the others ``None``. An empty
    deck is first formed anew from its discard pile, shuffled (docs/rules-gaps.md)."""
    if colour not in DECK_COLOURS:
        return state, []
    d = item_deck(state, colour)
    drawn: list[str | None] = []
    for _ in range(n):
        if d.cards <= 0:
            if not d.discard:
                cons.append(C("item-deck-empty", f"The {colour} item deck and its discard pile are empty.",
                              colour=colour))
                break
            d = replace(d, cards=len(d.discard), bottom=(), discard=(), reshuffles=d.reshuffles + 1)
            cons.append(C("item-deck-reshuffled", f"The {colour} item deck ran out: its discard pile is shuffled "
                          f"into a new deck ({d.cards} cards).", colour=colour, cards=d.cards))
        if len(d.bottom) >= d.cards:  # every card left is known: the top one is the first put on the bottom
            drawn.append(d.bottom[0])
            d = replace(d, bottom=d.bottom[1:], cards=d.cards - 1)
        else:
            drawn.append(None)
            d = replace(d, cards=d.cards - 1)
    return _with_deck(state, colour, d), drawn


to_bottom, to_discard = M.to_bottom, M.to_discard  # shared with the action cards paid with an item


def _search_deck(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    """Search's 2 cards from one deck; the one not kept to its bottom (named in ``returned``, or unnamed)."""
    d = fact.data
    colour = d["colour"]
    kept = None if is_unknown(d["kept"]) else d["kept"]
    given = d.get("returned")
    given = None if given is None or is_unknown(given) else given
    state, drawn = draw(state, colour, 2, cons)
    named = [x for x in drawn if x is not None]
    if len(named) == len(drawn) == 2:
        recorded = sorted(n.casefold() for n in (kept, given) if n is not None)
        expected = sorted(n.casefold() for n in named)
        if any(n not in expected for n in recorded) or (len(recorded) == 2 and recorded != expected):
            cons.append(C("item-deck-order", f"The {colour} deck's next cards were {' and '.join(named)} (put on its "
                          f"bottom earlier); the Search records {d['kept']}"
                          + (f" and {given}" if given else "") + ".", colour=colour, expected=named))
    returned = given
    if returned is None and len(named) == 2 and kept in named:  # the known pair: the other one went back
        returned = named[1 - named.index(kept)]
    if len(drawn) == 2 or d.get("returned") is not None:
        state = to_bottom(state, colour, returned, cons, "not kept on Search")
    return state


# --- effects -------------------------------------------------------------------------------------------------

def searched(state, fact, cons):
    d = fact.data
    seat = fact.actor
    place = state.crew.characters[seat].room
    state = M.act(state, fact, 1 + (d.get("cost") or 0))
    r = state.ship.rooms[place]
    if r.items:
        state = with_room(state, place, items=r.items - 1)
        cons.append(C("item-counter", f"Item counter of {state.room_label(place)}: {r.items - 1}.", room=place,
                      items=r.items - 1))
    state = _search_deck(state, fact, cons)
    state = M.add_item(state, seat, d["kept"], d["colour"], d.get("where"), d.get("ammo"), cons)
    if r.tile == "contaminated_room":
        state = M.slime(state, seat, cons)
    return state


def gained(state, fact, cons):
    d = fact.data
    if d.get("colour") in DECK_COLOURS and state.clock.phase != "setup":  # e.g. an exploration token's item: drawn
        state, _ = draw(state, d["colour"], 1, cons)
    return M.add_item(state, fact.actor, d["item"], d.get("colour"), d.get("where"), d.get("ammo"), cons)


drop_item = M.drop_item  # one definition, in mechanics: the action cards that discard an item share it


def crafted(state, fact, cons):
    d = fact.data
    seat = fact.actor
    place = state.crew.characters[seat].room
    if d.get("free"):  # the Repository's shared craft (faq_lockdown.md 15): no action, no card
        state = replace_in(state, "clock", free_crafts=tuple(s for s in state.clock.free_crafts if s != seat))
    else:
        state = M.act(state, fact, action_cost(fact))
    for name in d["ingredients"]:  # components are discarded, not used: to the bottom of their decks (L3593–3595)
        state, thing = drop_item(state, seat, name)
        if isinstance(thing, Item):
            state = to_bottom(state, thing.colour, thing.name, cons, "a crafting component")
    cons.append(C("crafted", f"{who(state, seat)} crafts {d['item']} from {', '.join(d['ingredients'])}"
                  + (" (free: the Repository's shared craft)." if d.get("free") else "."), seat=seat, item=d["item"]))
    state = M.add_item(state, seat, d["item"], "blue", d.get("where"), d.get("ammo"), cons)
    if not d.get("free") and place is not None and state.ship.rooms[place].tile == "repository":
        others = tuple(s for s in state.characters_in(place) if s != seat)
        state = replace_in(state, "clock", free_crafts=others)
        if others:
            cons.append(C("repository-craft", "Everyone else in the Repository may now craft once for free, with 1 "
                          "component (record ItemCrafted with free: true) before the next action: "
                          + ", ".join(who(state, s) for s in others) + ".", seats=list(others)))
    return state


def used(state, fact, cons):
    d = fact.data
    seat = fact.actor
    cost = d.get("cost") or 0
    state = M.pay(state, seat, cost)
    if cost:
        state = M.count_action(state, seat)
    if d.get("ammo"):
        state = combat.spend_ammo(state, seat, d["item"], d["ammo"], cons)
    if d.get("discarded"):
        state, thing = drop_item(state, seat, d["item"])
        if isinstance(thing, Item):
            state = to_discard(state, thing.colour, thing.name, cons)
    cons.append(C("item-used", f"{who(state, seat)} uses {d['item']}" + (f": {d['note']}." if d.get("note") else ".")
                  + (" It is discarded." if d.get("discarded") else ""), seat=seat, item=d["item"]))
    if d.get("eggs"):  # faq_lockdown.md 10: any injury-dealing item destroys 1 unheld egg per injury
        place = resolve_place(state, d["room"]) if d.get("room") is not None else state.crew.characters[seat].room
        state = destroy_eggs(state, place, d["eggs"], cons)
    if d.get("eggs") is not None and state.crew.characters[seat].room is not None:
        # "after every single attempt to destroy an egg you must make a noise roll" (seed 000 L472–473), by an
        # item as by a shot or a blow (faq_lockdown.md 10); the roll is the user's, in the room it stands in
        cons.append(C("noise-roll-due", "After every attempt on the eggs: a noise roll.", seat=seat))
        state = replace_in(state, "clock", pending=(Pending("noise", seat, state.crew.characters[seat].room,
                                                reason="egg attack (item)"),) + state.clock.pending)
    if d.get("gained"):  # faq_lockdown.md 18: e.g. the Probe Arm's carcass comes from the supply
        obj = d["gained"]
        state = with_character(state, seat, objects=state.crew.characters[seat].objects + (obj,))
        if obj == "carcass":
            state = replace_in(state, "colony", carcasses=state.colony.carcasses + 1)
        cons.append(C("object-gained", f"{who(state, seat)} takes a {obj} from the supply into a free hand.",
                      seat=seat, object=obj))
    return state


def destroy_eggs(state: LockdownState, place: str | None, n: int, cons: list[Consequence]) -> LockdownState:
    """Unheld eggs destroyed in ``place``: eggs on the floor first, then the Nest's (lockdown.md §7.12)."""
    if place is None:
        return state
    for _ in range(n):
        if "egg" in state.ship.objects.get(place, ()):
            state = M.take_object(state, place, "egg")
            cons.append(C("egg-destroyed", f"An egg is destroyed in {state.room_label(place)}.", room=place))
        elif state.ship.rooms[place].tile == "nest" and state.ship.rooms[place].explored and state.colony.eggs:
            state = replace_in(state, "colony", eggs=state.colony.eggs - 1)
            cons.append(C("egg-destroyed", f"An egg in the Nest is destroyed ({state.colony.eggs} left).", room=place))
            state = M.nest_check(state, cons)
    return state


def traded(state, fact, cons):
    d = fact.data
    seat, other = fact.actor, d.get("with")
    state = M.act(state, fact, action_cost(fact))
    moves = [(seat, other, n) for n in d.get("give") or []] + [(other, seat, n) for n in d.get("take") or []] + \
            [(t["from"], t["to"], t["item"]) for t in d.get("transfers") or []]
    for giver, taker, name in moves:  # a weapon goes with its ammo (seed 000 L1991–1992)
        if giver is None or taker is None:
            continue
        state, thing = drop_item(state, giver, name)
        if isinstance(thing, Item):
            t = state.crew.characters[taker]
            where = thing.where if thing.where == "backpack" or t.hands_used < 2 else "backpack"
            state = with_character(state, taker, items=t.items + (replace(thing, where=where),))
        elif isinstance(thing, str):
            state = with_character(state, taker, objects=state.crew.characters[taker].objects + (thing,))
    partners = sorted({s for g, t, _ in moves for s in (g, t) if s is not None and s != seat} | (
        {other} if other is not None else set()))
    cons.append(C("traded", f"{who(state, seat)} trades with {', '.join(who(state, s) for s in partners)}.",
                  seat=seat, other=other, seats=partners))
    return state


def dropped(state, fact, cons):
    seat = fact.actor
    place = state.crew.characters[seat].room
    state, thing = drop_item(state, seat, fact.data["item"])
    if isinstance(thing, str) and place:
        state = M.add_objects(state, place, (thing,))
        cons.append(C("object-dropped", f"{who(state, seat)} drops the {thing.split(':')[0]} in "
                      f"{state.room_label(place)}.", seat=seat, object=thing))
    elif thing is not None:
        cons.append(C("item-dropped", f"{who(state, seat)} drops {fact.data['item']}: it is lost.",
                      seat=seat))
        state = to_bottom(state, thing.colour, thing.name, cons, "lost")
    return state


def picked(state, fact, cons):
    seat = fact.actor
    place = state.crew.characters[seat].room
    obj = fact.data["object"]
    state = M.act(state, fact, action_cost(fact))
    found = find_object(state.ship.objects.get(place, ()), obj)
    if found is None:
        return state
    state = M.take_object(state, place, found)
    cons.append(C("object-picked", f"{who(state, seat)} picks up the {obj}.", seat=seat, object=found))
    return with_character(state, seat, objects=state.crew.characters[seat].objects + (found,))


# --- offers --------------------------------------------------------------------------------------------------

SEARCH_ITEMS = {  # example item names per colour for guided recording (the decks are not catalogued here)
    "red": ["Glowstick", "Weapon Battery", "Grenade"],
    "yellow": ["Flashlight", "Toolbelt", "Duct Tape"],
    "green": ["Medkit", "Clothes", "Scalpel"],
}


ITEM_COLOURS = ("red", "yellow", "green", "blue", "starting", "quest")  # the colours an item card may have


def deck_cards(deck: str) -> tuple[str, ...]:
    """The cards a Search in deck ``deck`` may put back, for a recorder's list (decision 0045): the items the catalogue
    colours so, then the sources' Search examples for it, then the items whose colour no source gives (the 30-card
    decks' contents are unknown: gaps_filled.md §9); empty for a deck that is not searched."""
    if deck not in SEARCH_ITEMS:
        return ()
    named = [i for i in catalogued_items().values() if i["kind"] == "named"]
    known = [i["en"] for i in named if i.get("colour") == deck]
    unknown = [i["en"] for i in named if not i.get("colour")]
    return tuple(dict.fromkeys(known + SEARCH_ITEMS[deck] + unknown))


def search_and_carry_offers(state: LockdownState, seat: int, legal: Legal) -> list[Expected]:
    """Search where the room has items; out of combat, picking up a heavy object, crafting and trading."""
    c = state.crew.characters[seat]
    place = c.room
    r = state.ship.rooms[place]
    here = state.intruders_in(place)
    out: list[Expected] = []
    room = ROOMS[r.tile] if r.tile else None
    if r.items and room and r.kind != "special" and not room.extra.get("no_search"):
        colours = [room.colour] if room.colour in SEARCH_ITEMS else list(SEARCH_ITEMS)
        note = "play Search: 2 items drawn from one deck, 1 kept, the other to its bottom"
        for colour in colours:  # a white room: the player names the one deck both cards come from
            known = next_known(state, colour, 2)
            if known:  # the next 2 cards are known: keep one, the other goes back (each pairing its own offer)
                for kept, back in dict.fromkeys(((known[0], known[1]), (known[1], known[0]))):
                    out.append(Expected("RoomSearched", seat, {"kept": [kept], "colour": [colour],
                                                               "returned": [back]}, note))
            else:
                # the card not kept: free, typed if the table names it (a guess offered would be preselected)
                out.append(Expected("RoomSearched", seat, {"kept": SEARCH_ITEMS[colour], "colour": [colour],
                                                           "returned": None}, note))
    if not here:
        for obj in sorted({o.split(":")[0] for o in state.ship.objects.get(place, ())}):
            if c.hands_used < 2:
                out.append(Expected("HeavyObjectPickedUp", seat, {"object": [obj]}, f"pick up the {obj}"))
        if len(c.items) >= 2:
            data = {"item": "Flamethrower", "ingredients": [c.items[0].name, c.items[1].name], "where": "backpack",
                    "ammo": 4}
            if r.tile == "repository":
                data["ingredients"] = [c.items[0].name]
            if legal(state, "ItemCrafted", seat, data):
                out.append(Expected("ItemCrafted", seat, {k: [v] for k, v in data.items()}, "craft an item"))
        others = [s for s in state.characters_in(place) if s != seat]
        if others and c.items:
            out.append(Expected("ItemsTraded", seat, {"with": others, "give": [[c.items[-1].name]]}, "trade"))
    return out


def use_and_drop_offers(state: LockdownState, seat: int) -> list[Expected]:
    """An item's action (1 card) and dropping an item or a heavy object (free)."""
    c = state.crew.characters[seat]
    out: list[Expected] = []
    if c.items:
        out.append(Expected("ItemUsed", seat, {"item": list(dict.fromkeys(i.name for i in c.items)), "cost": [1]},
                            "use an item's action (1 card; its effect follows as facts)"))
    held = list(dict.fromkeys([i.name for i in c.items] + [o.split(":")[0] for o in c.objects]))
    if held:
        out.append(Expected("ItemDropped", seat, {"item": held}, "drop an item or a heavy object (free)"))
    return out


def free_craft_offers(state: LockdownState) -> list[Expected]:
    """The optional free crafts of the Repository, before the next action (faq_lockdown.md 15)."""
    out = []
    for s in state.clock.free_crafts:
        items = [i.name for i in state.crew.characters[s].items]
        if items:
            out.append(Expected("ItemCrafted", s, {"free": [True], "ingredients": [[i] for i in items], "item": None,
                                                   "where": ["hand", "backpack"]},
                                "may craft once for free in the Repository before the next action"))
    return out


def starting_item_offers(state: LockdownState, seat: int) -> list[Expected]:
    """At setup: the character's starting item, in a hand unless the catalogue says it is not heavy (e.g. the
    Probe Arm lies beside the board, in no hand slot: faq_lockdown.md 17)."""
    c = state.crew.characters[seat]
    start = CHARACTERS[c.character].extra.get("starting_item") if c.character in CHARACTERS else None
    if not start or c.items:
        return []
    if _heavy(start):
        return [Expected("ItemGained", seat, {"item": [start], "colour": ["starting"], "where": ["hand"], "ammo": [3]},
                         "the starting item")]
    return [Expected("ItemGained", seat, {"item": [start], "colour": ["starting"], "where": ["backpack"]},
                     "the starting item (not heavy)")]


def _heavy(name: str) -> bool:
    """Is a starting item heavy (held in a hand)? Only items marked ``heavy: false`` are not (data/items.json)."""
    return next((bool(i.get("heavy", True)) for i in catalogued_items().values() if i.get("en") == name), True)


def free_use_offers(state: LockdownState, seat: int, note: str) -> list[Expected]:
    """A table effect: a free use of one of the character's items (no card), at any moment."""
    c = state.crew.characters[seat]
    if not c.items:
        return []
    names = tuple(dict.fromkeys(i.name for i in c.items))
    return [offer("ItemUsed", seat, names, lambda: Expected("ItemUsed", seat, {"item": list(names)},
                                                             f"{note}: a free item use (no card)"))]


def gained_offers(state: LockdownState, seat: int, note: str) -> list[Expected]:
    """A table effect: an item card that comes to the character outside Search and Craft."""
    free_hand = state.crew.characters[seat].hands_used < 2
    return [offer("ItemGained", seat, free_hand, lambda: Expected(
        "ItemGained", seat, {"item": None, "colour": list(ITEM_COLOURS),
                             "where": ["backpack", "hand"] if free_hand else ["backpack"]}, note))]


# --- the declarations --------------------------------------------------------------------------------------

_SPECS = (
    FactSpec("RoomSearched", "seat",
             "Search action card played in a room with items: the item counter goes down 1; 2 cards of the room's "
             "colour were drawn (a white room: both from the one deck the player chose, `colour`) and 1 kept, the "
             "other put on the bottom of that deck (Contaminated Room: + slime, derived).",
             (_f("kept", "text", "the item kept"),
              _f("colour", "colour", "red, yellow or green"),
              _f("where", "item_place", "hand (heavy) or backpack (default)", False),
              _f("ammo", "count0", "ammo/use markers on it", False),
              _f("cost", "count0", "cards paid besides the Search card (default 0)", False),
              _f("returned", "text", "the card not kept, put face down on the bottom of the same deck (omit when "
                 "unseen)", False)),
             {"kept": "Flashlight", "colour": "yellow", "returned": "Duct Tape"}, S.SEARCH),
    FactSpec("ItemGained", "seat",
             "An item card came to the character outside Search/Craft: starting item, activated quest item, room "
             "action (Guard Room, Testing Lab), trade from a dead character's… (no action). A red, yellow or green "
             "item gained in play (e.g. an exploration token's) is drawn from that deck.",
             (_f("item", "text", "the item"),
              _f("colour", "colour", "red, yellow, green, blue, starting or quest", False),
              _f("where", "item_place", "hand or backpack", False),
              _f("ammo", "count0", "ammo/use markers", False)),
             {"item": "SMG", "colour": "starting", "where": "hand", "ammo": 3}, S.ITEMS),
    FactSpec("ItemCrafted", "seat",
             "Craft action (cost 1, out of combat): 2 items (1 in the Repository) discarded — to the bottom of their "
             "decks — for a crafted item. A "
             "craft in the Repository lets every other character then in the room craft once for free "
             "(faq_lockdown.md 15).",
             (_f("item", "text", "the crafted (blue) item"),
              _f("ingredients", "names", "the items discarded"),
              _f("where", "item_place", "hand or backpack", False),
              _f("ammo", "count0", "ammo on it", False),
              _f("free", "bool", "the one free craft of a character in the Repository right after another "
                 "character's craft action there (faq_lockdown.md 15): not an action, no card, may be out of turn; "
                 "1 component; before the next action", False)),
             {"item": "Flamethrower", "ingredients": ["Reagent", "Lighter"], "where": "hand", "ammo": 4}, S.CRAFT),
    FactSpec("ItemUsed", "seat",
             "An item's action was used: its cost in cards, ammo/use markers spent, single-use items discarded (to "
             "the discard pile of their deck). The effect is recorded by the facts that follow.",
             (_f("item", "text", "the item"),
              _f("cost", "count0", "cards paid (0 = free use, not an action)", False),
              _f("ammo", "count0", "ammo/use markers spent", False),
              _f("discarded", "bool", "the item is discarded (single use)", False),
              _f("note", "text", "the effect (free text)", False),
              _f("target", "seat", "the character the item is used on, when not the user — only items whose text "
                 "says so (Scalpel; faq_lockdown.md 2)", False),
              _f("room", "room", "the room the item is used on (e.g. a Thermite Charge thrown into the Nest)", False),
              _f("eggs", "count0", "unheld eggs destroyed there by the item's injuries, 1 per injury "
                 "(faq_lockdown.md 10); 0 = an attempt that destroyed none; a noise roll follows (seed 000 "
                 "L472–473)", False),
              _f("gained", "object", "a heavy object the item gives from the supply (Probe Arm: a carcass; "
                 "faq_lockdown.md 18)", False)),
             {"item": "Medkit", "cost": 1, "discarded": True, "note": "dressed 1 serious wound"}, S.ITEMS),
    FactSpec("ItemsTraded", "seat",
             "Trade action (cost 1, out of combat): every character in the room, passed or not, may hand items and "
             "objects to every other (seed 000 L1985–1992). `with`/`give`/`take` record an exchange with one "
             "partner; `transfers` any others, between any two characters in the room.",
             (_f("with", "seat", "the other character's seat (required unless transfers are given)", False),
              _f("give", "names", "items/objects given", False),
              _f("take", "names", "items/objects taken", False),
              _f("transfers", "transfers", "further hand-overs in the same trade: a list of {from, to, item} "
                 "between any characters in the room", False)),
             {"with": 2, "give": ["Flashlight"], "take": []}, S.TRADE),
    FactSpec("ItemDropped", "seat",
             "An item or a heavy object was dropped (free, in the own turn): objects stay in the room, items are "
             "lost (their cards to the bottom of their decks).",
             (_f("item", "text", "the item, or corpse / carcass / egg"),),
             {"item": "egg"}, S.DROP),
    FactSpec("HeavyObjectPickedUp", "seat",
             "Pick up a heavy object (cost 1, out of combat): a corpse, carcass or egg from the room into a hand.",
             (_f("object", "object", "corpse, carcass or egg"),),
             {"object": "carcass"}, S.HEAVY),
)
_CHECKS = (check_searched, check_gained, check_crafted, check_used, check_traded, check_dropped, check_picked)
_EFFECTS = (searched, gained, crafted, used, traded, dropped, picked)
FACT_TYPES: tuple[FactType, ...] = tuple(FactType(*t) for t in zip(_SPECS, _CHECKS, _EFFECTS))
SPECS = tuple(t.spec for t in FACT_TYPES)
RULES = {t.spec.type: t.check for t in FACT_TYPES if t.check is not None}
EFFECTS = {t.spec.type: t.effect for t in FACT_TYPES}
