"""What may come next in the whole game: attacks, combat, items, room and computer actions, reveals.

Candidates with fixed options are checked with ``checks.check`` before they are offered, so
every offered combination is legal.

    >>> from service.rules.lockdown.fold import new_game
    >>> g = new_game(1, mode="solo")
    >>> sorted({e.type for e in actions(g.state, 1)}) == sorted({e.type for e in actions(g.state, 1)})
    True
"""
from __future__ import annotations

from typing import Any

from service.rules.base import Expected, Fact
from service.rules.lockdown.components import ATTACK_CARDS, EVENT_CARDS, ROOMS
from service.rules.lockdown.facts import COMPUTER_CARDS, COMPUTER_DECK, DIE_FACES, ROOM_ACTIONS
from service.rules.lockdown.state import IN_BASE, LockdownState

BASIC_FACES = ("blank", "creeper", "adult", "hit", "double")
SEARCH_ITEMS = {  # example item names per colour for guided recording (the decks are not catalogued here)
    "red": ["Glowstick", "Weapon Battery", "Grenade"],
    "yellow": ["Flashlight", "Toolbelt", "Duct Tape"],
    "green": ["Medkit", "Clothes", "Scalpel"],
}


def _legal(state: LockdownState, type_: str, actor: int | None, data: dict[str, Any]) -> bool:
    from service.rules.lockdown.checks import check
    return not check(state, Fact(0, type_, data, actor))


def pending(state: LockdownState) -> list[Expected] | None:
    p = state.pending[0]
    if p.kind == "attack":
        it = next((i for i in state.intruders if i.id == p.intruder), None)
        opts: dict[str, Any] = {"intruder": [p.intruder]}
        if it is not None and it.kind != "larva":
            opts["card"] = [c.id for c in ATTACK_CARDS]
        return [Expected("IntruderAttacked", None, opts, f"{p.reason}: intruder {p.intruder} attacks; record the "
                         f"attack card drawn")]
    if p.kind == "injury_check":
        return [Expected("InjuryCheckDrawn", None, {"blood": None},
                         f"injury check of {p.intruder}: the blood values of the attack card(s) drawn")]
    if p.kind == "retreat":
        opts = {"intruder": [p.intruder], "card": [c.id for c in EVENT_CARDS]}
        if not state.board.has_graph:
            opts["to_room"] = list(state.rooms)
        return [Expected("IntruderRetreated", None, opts, f"{p.intruder} retreats: draw an event card")]
    return None


def actions(state: LockdownState, seat: int) -> list[Expected]:
    """Actions besides moving and passing that are legal now for ``seat``."""
    c = state.characters[seat]
    if c.status != IN_BASE or c.room is None or c.hand < 1:
        return []
    place = c.room
    r = state.rooms[place]
    out: list[Expected] = []
    here = state.intruders_in(place)
    weapons = [i for i in c.items if i.where == "hand" and (i.ammo is None or i.ammo > 0)]
    powered = state.powered(state.sector_of(place)) is not False
    faces = list(DIE_FACES) if powered else list(BASIC_FACES)
    targets = [i.id for i in here]
    eggs = "egg" in state.objects.get(place, ()) or (r.tile == "nest" and r.explored and state.eggs > 0)
    if eggs:
        targets.append("egg")
    for t in targets:
        for w in weapons:
            out.append(Expected("CharacterShot", seat, {"target": [t], "weapon": [w.name], "result": faces},
                                f"shoot at {t} with {w.name}"))
        out.append(Expected("MeleeAttacked", seat, {"target": [t], "result": list(BASIC_FACES)}, f"melee {t}"))
    room = ROOMS[r.tile] if r.tile else None
    if r.items and room and r.kind != "special" and not room.extra.get("no_search"):
        colours = [room.colour] if room.colour in SEARCH_ITEMS else list(SEARCH_ITEMS)
        for colour in colours:
            out.append(Expected("RoomSearched", seat, {"kept": SEARCH_ITEMS[colour], "colour": [colour]},
                                "play Search: 2 items drawn, 1 kept"))
    if not here:
        for obj in sorted({o.split(":")[0] for o in state.objects.get(place, ())}):
            if c.hands_used < 2:
                out.append(Expected("HeavyObjectPickedUp", seat, {"object": [obj]}, f"pick up the {obj}"))
        if len(c.items) >= 2:
            data = {"item": "Flamethrower", "ingredients": [c.items[0].name, c.items[1].name], "where": "backpack",
                    "ammo": 4}
            if r.tile == "repository":
                data["ingredients"] = [c.items[0].name]
            if _legal(state, "ItemCrafted", seat, data):
                out.append(Expected("ItemCrafted", seat, {k: [v] for k, v in data.items()}, "craft an item"))
        others = [s for s in state.characters_in(place) if s != seat]
        if others and c.items:
            out.append(Expected("ItemsTraded", seat, {"with": others, "give": [[c.items[-1].name]]}, "trade"))
    for action, rooms in ROOM_ACTIONS.items():
        if rooms and r.tile not in rooms:
            continue
        if not rooms and state.board.exit_space and place != state.board.exit_space:
            continue
        for data in _room_options(state, seat, action):
            if _legal(state, "RoomActionUsed", seat, data):
                out.append(Expected("RoomActionUsed", seat, {k: [v] for k, v in data.items()},
                                    f"room action: {action.replace('_', ' ')}"))
    if state.computer_card in COMPUTER_CARDS:
        for option in (1, 2, 3):
            data = _computer_options(state, seat, COMPUTER_CARDS[state.computer_card][option - 1], option)
            if data is not None and _legal(state, "ComputerActionUsed", seat, data):
                out.append(Expected("ComputerActionUsed", seat, {k: [v] for k, v in data.items()},
                                    f"computer action {state.computer_card}{option}"))
    return out


def _room_options(state: LockdownState, seat: int, action: str) -> list[dict[str, Any]]:
    c = state.characters[seat]
    base = {"action": action}
    if action == "technical_move":
        dests = [p for p in state.board.technical if state.rooms[p].explored and p != c.room]
        return [dict(base, room=p) for p in dests[:2]]
    if action == "heal":
        return [dict(base, choice=ch) for ch in ("dress_all", "heal_dressed", "heal_light")]
    if action == "research":
        objs = {o.split(":")[0] for o in c.objects} | {o.split(":")[0] for o in state.objects.get(c.room, ())}
        return [dict(base, object=o) for o in sorted(objs)]
    if action == "check_objective":
        return [dict(base, seat=s) for s in state.seats if s != seat and state.characters[s].signal][:1]
    if action == "eliminate_threat":
        return [dict(base, room=i.room, choice="malfunction") for i in state.intruders][:1]
    if action == "take_item":
        return [dict(base, choice="enviro_suit"), dict(base, choice="taser")]
    if action in ("decontaminate", "surgery"):
        n = c.contamination
        return [dict(base, infected=0, clean=n)] + ([dict(base, infected=1, clean=n - 1)] if n else [])
    if action == "vent":
        return [dict(base, room=p) for p in list(state.board.technical)[:1]]
    if action == "use_elevator":
        return [dict(base, to=s) for s in ("S-01", "S-02", "S-03")]
    if action == "escape_bunker":
        return [base, dict(base, choice="suit")]
    if action == "schedule_css":
        b = state.board
        out = []
        for space in sorted(state.css_at, key=lambda v: b.time_spaces.index(v)):
            i = b.time_spaces.index(space)
            for j in (i - 1, i + 1):
                if 0 <= j < len(b.time_spaces):
                    out.append(dict(base, space=b.time_label(i), to=b.time_label(j)))
        return out[:2]
    return [base]


def _computer_options(state: LockdownState, seat: int, option: str, n: int) -> dict[str, Any] | None:
    data: dict[str, Any] = {"option": n}
    if option == "swap_power":
        data["locations"] = ["S-01", "elevator"]
    elif option == "clear_room":
        data["room"] = state.characters[seat].room
    elif option == "toggle_door":
        exits = state.board.exits(state.characters[seat].room) if state.board.has_graph else ()
        if not exits:
            return None
        data["room"] = state.characters[seat].room
        data["corridor"] = state.board.number_at(exits[0][0], state.characters[seat].room)
    elif option == "peek_contingency":
        others = [s for s in state.seats if s != seat and state.characters[s].contingency]
        if not others:
            return None
        data["seat"] = others[0]
    return data


def due(state: LockdownState) -> list[Expected]:
    """Facts that became due outside the pending queue: objective choice, the next computer card,
    and the optional free crafts of the Repository."""
    out = []
    if state.first_encounter and state.setup.mode != "coop":
        for s in state.seats:
            c = state.characters[s]
            if c.objectives and c.objective is None and c.status in ("base", "pod"):
                out.append(Expected("ObjectiveChosen", s, {"objective": list(dict.fromkeys(c.objectives))},
                                    "first encounter: keep 1 of the 2 objectives"))
    if state.computer_card is None and state.phase != "setup":
        out.append(Expected("ComputerCardRevealed", None, {"card": list(COMPUTER_DECK[:-1])},
                            "reveal the next computer action card"))
    for s in state.free_crafts:  # optional, before the next action (faq_lockdown.md 15)
        items = [i.name for i in state.characters[s].items]
        if items:
            out.append(Expected("ItemCrafted", s, {"free": [True], "ingredients": [[i] for i in items], "item": None,
                                                   "where": ["hand", "backpack"]},
                                "may craft once for free in the Repository before the next action"))
    return out


def after_end(state: LockdownState) -> list[Expected]:
    """Hidden information revealed at the victory check."""
    if state.ending == "abandoned":
        return []
    out = []
    if state.active_contingency == "unknown":
        out.append(Expected("ContingencyTokenRevealed", None,
                            {"owner": ["active"], "token": ["signal", "knowledge", "pods", "isolation", "save_all"]},
                            "reveal the active contingency plan"))
    for s in state.seats:
        c = state.characters[s]
        if c.status in ("isolation", "bunker", "evacuated") and c.scan_infected is None:
            out.append(Expected("FinalScanRecorded", s, {"infected": [False]} if not c.larva and not c.infected else
                                {"infected": [True], "drawn": None}, "final scan"))
        if c.objective in (None, "unknown") and c.objectives and "unknown" not in c.objectives:
            out.append(Expected("ObjectiveRevealed", s, {"objective": list(dict.fromkeys(c.objectives))},
                                "reveal the objective"))
    return out
