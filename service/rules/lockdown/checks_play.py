"""Rule checks of the concepts not yet in a module of their own: items (action cards: ``turns``), room actions, the computer, the
lab and the victory check (decision 0029 lists the concept modules).

Registered into ``checks.RULES``, with the concept modules' rules. Every refusal names its rule and cites the rulebook.

    >>> from service.rules.lockdown.fold import new_game
    >>> g = new_game(1, mode="solo")
    >>> [v.rule for v in g.check("WoundHealed", 1, kind="light")]
    ['no-light-wounds']
"""
from __future__ import annotations

from typing import Callable

from service.rules.base import Fact, Violation
from service.rules.kit.builders import violation
from service.rules.lockdown import (
    combat, condition, endgame, hidden_information, movement, rooms, sections as S, systems, turns,
)
from service.rules.lockdown.rooms import ROOM_CHECKS  # noqa: F401 (old path: checks_play.ROOM_CHECKS)
from service.rules.lockdown.components import ROOMS
from service.rules.lockdown.facts import resolve_place
from service.rules.lockdown.state import IN_BASE, IN_POD, SETUP, LockdownState, find_object, who
from service.rules.lockdown.turns import action_check, in_game


V = violation  # the kit's builder, short for the many rules below



def _out_of_combat(state: LockdownState, fact: Fact, what: str, section: str) -> list[Violation]:
    if state.in_combat(fact.actor):
        return [V("in-combat", f"{what} is only possible out of combat; {who(state, fact.actor)} shares the room "
                  f"with a night stalker.", section)]
    return []


# --- knowledge ------------------------------------------------------------------------------------

def _in_play(state, fact):
    """Facts whose only rule is that their character is still in the game."""
    return in_game(state, fact.actor, S.SERIOUS_WOUNDS)



# --- items ------------------------------------------------------------------------------

# action cards: declared in turns (decision 0029); the old paths stay
KNOWN_ACTION_CARDS, CARD_MOVES, CARD_MOVE_FIELDS = turns.KNOWN_ACTION_CARDS, turns.CARD_MOVES, turns.CARD_MOVE_FIELDS


def _searched(state, fact):
    out = action_check(state, fact)
    if out:
        return out
    place = state.characters[fact.actor].room
    r = state.rooms[place]
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
    return out + _ammo_as_printed(fact, "kept", exact=True)


def _gained(state, fact):
    return _in_play(state, fact) or _ammo_as_printed(fact, "item", exact=False)


def _holds(state, seat, name) -> bool:
    c = state.characters[seat]
    key = name.casefold()
    return any(i.name.casefold() == key for i in c.items) or any(o.split(":")[0] == key for o in c.objects)


def _crafted(state, fact):
    if fact.data.get("free"):
        out = in_game(state, fact.actor, S.REPOSITORY_CRAFT) or _out_of_combat(state, fact, "Crafting", S.CRAFT)
        c = state.characters[fact.actor]
        if not out and (c.status != IN_BASE or c.room is None or state.rooms[c.room].tile != "repository"):
            out.append(V("free-craft-not-in-repository", f"Only characters in the Repository share its craft; "
                         f"{who(state, fact.actor)} is not there.", S.REPOSITORY_CRAFT, "free"))
        elif not out and fact.actor not in state.free_crafts:
            out.append(V("free-craft-not-due", f"A free craft follows another character's craft action in the "
                         f"Repository, once for each other character then in the room, before the next action; "
                         f"none is open for {who(state, fact.actor)}.", S.REPOSITORY_CRAFT, "free"))
    else:
        out = action_check(state, fact) or _out_of_combat(state, fact, "Crafting", S.CRAFT)
    if out:
        return out
    out += _ammo_as_printed(fact, "item", exact=True)
    need = 1 if state.rooms[state.characters[fact.actor].room].tile == "repository" else 2
    if len(fact.data["ingredients"]) != need:
        out.append(V("craft-ingredients", f"Crafting here takes {need} item card(s).", S.CRAFT, "ingredients"))
    for name in fact.data["ingredients"]:
        if not _holds(state, fact.actor, name):
            out.append(V("missing-ingredient", f"{who(state, fact.actor)} holds no {name}.", S.CRAFT, "ingredients"))
    return out


def _ammo_as_printed(fact, field: str, exact: bool) -> list[Violation]:
    """A weapon arrives with its printed starting ammo and never holds more than its magazine (seed 000 L3632–3636,
    L3643; data/items.json). ``exact``: a crafted or searched weapon is new, so it holds exactly the starting
    number; an item gained by another effect may hold fewer."""
    from service.rules.lockdown.catalog import item_ammo

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


def _used(state, fact):
    d = fact.data
    out = action_check(state, fact) if d.get("cost") else in_game(state, fact.actor, S.ITEMS)
    if not out and not _holds(state, fact.actor, d["item"]):
        out.append(V("no-such-item", f"{who(state, fact.actor)} holds no {d['item']}.", S.ITEMS, "item"))
    if out:
        return out
    target = d.get("target")
    if target is not None and target != fact.actor and d["item"].strip().casefold() not in ITEMS_ON_OTHERS:
        out.append(V("item-on-other-character", f"{d['item']} works only on its user ({who(state, fact.actor)}); "
                     f"trade it to {who(state, target)} first (faq_lockdown.md 2).", S.ITEMS, "target"))
    place = resolve_place(state, d["room"]) if d.get("room") is not None else state.characters[fact.actor].room
    if d.get("eggs"):
        floor = state.objects.get(place, ()).count("egg")
        r = state.rooms[place]
        nest = state.eggs if r.tile == "nest" and r.explored else 0
        if d["eggs"] > floor + nest:
            out.append(V("no-eggs-here", f"There are only {floor + nest} unheld egg(s) in {state.room_label(place)}.",
                         S.EGGS, "eggs"))
    if d.get("gained") and state.characters[fact.actor].hands_used >= 2:
        out.append(V("hands-full", f"A {d['gained']} needs a free hand.", S.HEAVY, "gained"))
    return out


def _traded(state, fact):
    out = action_check(state, fact) or _out_of_combat(state, fact, "Trade", S.TRADE)
    if out:
        return out
    other = fact.data.get("with")
    transfers = fact.data.get("transfers") or []
    room = state.characters[fact.actor].room

    def together(seat):
        return state.characters[seat].room == room and state.characters[seat].status == IN_BASE

    if other is None and not transfers:
        return [V("trade-with-nobody", "A trade names a partner (with) or hand-overs (transfers).", S.TRADE, "with")]
    if other is not None and (other == fact.actor or not together(other)):
        return [V("trade-not-together", f"{who(state, other)} is not in {who(state, fact.actor)}'s room.", S.TRADE,
                  "with")]
    for t in transfers:  # everyone in the room, passed or not, may hand things to everyone (seed 000 L1985–1992)
        if t["from"] == t["to"] or not together(t["from"]) or not together(t["to"]):
            return [V("trade-not-together", f"A hand-over from seat {t['from']} to seat {t['to']}: both must be "
                      f"different characters in {who(state, fact.actor)}'s room.", S.TRADE, "transfers")]
    held = {s: [i.name.casefold() for i in state.characters[s].items]
            + [o.split(":")[0] for o in state.characters[s].objects] for s in state.seats}
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


def _dropped(state, fact):
    out = in_game(state, fact.actor, S.DROP)
    if out:
        return out
    if state.phase != "player" or state.turn != fact.actor:
        out.append(V("drop-out-of-turn", "Items and objects are dropped only during the own turn.", S.DROP))
    if not _holds(state, fact.actor, fact.data["item"]):
        out.append(V("no-such-item", f"{who(state, fact.actor)} holds no {fact.data['item']}.", S.DROP, "item"))
    return out


def _picked(state, fact):
    out = action_check(state, fact) or _out_of_combat(state, fact, "Picking up a heavy object", S.HEAVY)
    if out:
        return out
    place = state.characters[fact.actor].room
    if find_object(state.objects.get(place, ()), fact.data["object"]) is None:
        out.append(V("no-object-here", f"There is no {fact.data['object']} in {state.room_label(place)}.", S.HEAVY,
                     "object"))
    if state.characters[fact.actor].hands_used >= 2:
        out.append(V("hands-full", "Both hands are full: drop something first.", S.HEAVY))
    return out



# --- objectives, contingency, lab ------------------------------------------------------------------

RULES: dict[str, Callable[[LockdownState, Fact], list[Violation]]] = {
    **condition.RULES,  # wounds, contamination, slime, death (decision 0029)
    "IntruderPlaced": combat.check_intruder_placed,
    "CharacterMovedByEffect": movement.check_moved_by_effect,
    "IntruderAttacked": combat.check_attacked, "CharacterShot": combat.check_shot, "MeleeAttacked": combat.check_melee,
    "InjuryCheckDrawn": combat.check_injury_check, "IntruderRetreated": combat.check_retreated,
    "ActionCardPlayed": turns.check_card_played, "RoomSearched": _searched, "ItemGained": _gained, "ItemCrafted": _crafted,
    "ItemUsed": _used, "ItemsTraded": _traded, "ItemDropped": _dropped, "HeavyObjectPickedUp": _picked,
    "FireRemoved": systems.check_fire_removed, "MalfunctionPlaced": systems.check_malfunction,
    "MalfunctionRemoved": systems.check_malfunction_removed, "DoorChanged": systems.check_door,
    "NoiseMarkerPlaced": movement.check_noise_placed, "NoiseMarkerRemoved": movement.check_noise_removed,
    "SelfDestructStarted": systems.check_self_destruct,
    **hidden_information.RULES,  # objectives and contingency tokens (decision 0029)
    **endgame.RULES,  # the final scan (decision 0029)
    **rooms.RULES,  # room and computer actions, knowledge, weaknesses (decision 0029)
}
