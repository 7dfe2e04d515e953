"""What may come next in the whole game: attacks, combat, items, room and computer actions, reveals.

Candidates with fixed options are checked with ``checks.check`` before they are offered, so
every offered combination is legal.

    >>> from service.rules.lockdown.fold import new_game
    >>> g = new_game(1, mode="solo")
    >>> sorted({e.type for e in actions(g.state, 1)}) == sorted({e.type for e in actions(g.state, 1)})
    True
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from service.rules.base import Expected, Fact
from service.rules.lockdown import hidden_information, items, rooms, turns
from service.rules.lockdown.board import TECHNICAL
from service.rules.lockdown.components import ATTACK_CARDS, COLONY, EVENT_CARDS
from service.rules.lockdown.facts import (
    COMPUTER_DECK, DEATH_CAUSES, DIE_FACES, ITEM_COLOURS, OBJECT_KINDS, POWER_LOCATIONS, SCAN_SCOPES,
)
from service.rules.lockdown.offers import offer
from service.rules.lockdown.state import IN_BASE, LockdownState

BASIC_FACES = ("blank", "creeper", "adult", "hit", "double")
SEARCH_ITEMS = items.SEARCH_ITEMS  # old path (moved to items, decision 0037)


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
        it = next((i for i in state.intruders if i.id == p.intruder), None)
        values = list(dict.fromkeys(b for c in ATTACK_CARDS for b in c.blood))
        cards = 2 if it is not None and it.kind in ("breeder", "queen") else 1  # as generate._blood draws them
        blood = [[v] for v in values] if cards == 1 else [[a, b] for a in values for b in values]
        return [Expected("InjuryCheckDrawn", None, {"blood": blood},
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
    first: dict[str, Any] = {}
    for i in c.items:  # the check finds a weapon by name: its first item of that name must be the one in hand
        first.setdefault(i.name.casefold(), i)
    weapons = [i for i in first.values() if i.where == "hand" and (i.ammo is None or i.ammo > 0)]
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
    out += items.search_and_carry_offers(state, seat, _legal)  # declared with the items (decision 0037)
    out += rooms.room_action_offers(state, seat, _legal)  # declared with each room action (decision 0029)
    out.append(Expected("ActionCardPlayed", seat, {"card": None}, "play an action card (its effect follows as facts)"))
    out += items.use_and_drop_offers(state, seat)  # declared with the items (decision 0037)
    out += rooms.computer_offers(state, seat, _legal)  # the computer's options (decision 0029)
    return out


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
    out += items.free_craft_offers(state)  # optional, before the next action (decision 0037)
    return out


# step B of the final scan: the kinds of the 4 cards drawn, in the order drawn (facts.py FinalScanRecorded)
SCAN_DRAWS = [[("contamination" if n >> (3 - i) & 1 else "action") for i in range(4)] for n in range(16)]


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
                                {"infected": [True], "drawn": SCAN_DRAWS}, "final scan"))
        if c.objective in (None, "unknown") and c.objectives and "unknown" not in c.objectives:
            out.append(Expected("ObjectiveRevealed", s, {"objective": list(dict.fromkeys(c.objectives))},
                                "reveal the objective"))
    return out


# --- table effects ---------------------------------------------------------------------------------------
# Facts a card, an event or an item resolves at the table at any moment of play (checks.ANYTIME and reactions).
# They come after the regular inputs, the most frequent first; ``is_table_effect`` tells them apart.

TABLE_EFFECT = "table effect (card/event resolved at the table)"
WOUND_OPTIONS = ["light", "serious"]
KNOWLEDGE_AMOUNTS = list(range(1, 9)) + list(range(-1, -9, -1)) + [0]
DOOR_STATES_OFFERED = ["closed", "open", "destroyed"]
DEATH_CAUSES_OFFERED = ["event"] + [c for c in DEATH_CAUSES if c != "event"]
_CORNERS: dict[int, tuple[Any, dict[str, tuple[tuple[int, str], ...]]]] = {}


def is_table_effect(e: Expected) -> bool:
    """Is this offer a table effect (a card/event resolved at the table) rather than the game's next step?"""
    return e.note.startswith(TABLE_EFFECT)




@lru_cache(maxsize=None)
def _corners(board) -> dict[str, tuple[tuple[int, str], ...]]:
    """Per place of the board: (number, key) of every corridor leading there."""
    out = {}
    for place in board.places:
        pairs = []
        for n in board.numbers_of(place):
            key = board.corridor_key(place, n)
            if key is not None:
                pairs.append((n, key))
        out[place] = tuple(pairs)
    return out


@lru_cache(maxsize=4096)
def _adjacent(board, place: str) -> list[str]:
    return list(board.adjacent(place))


def _groups(board, keep) -> dict[tuple, list[str]]:
    """The board's places grouped by the corridor numbers ``keep(key)`` accepts (so every pair is legal)."""
    groups: dict[tuple, list[str]] = {}
    for place, pairs in _corners(board).items():
        groups.setdefault(tuple(n for n, k in pairs if keep(k)), []).append(place)
    return groups


@lru_cache(maxsize=4096)
def _noise_offers(board, noise: frozenset) -> tuple[tuple[Expected, ...], tuple[Expected, ...]]:
    """NoiseMarkerPlaced (free corridors) and NoiseMarkerRemoved (corridors with a marker), by value of ``noise``."""
    placed = _grouped("NoiseMarkerPlaced", _groups(board, lambda k: k not in noise), {}, TABLE_EFFECT)
    removed = _grouped("NoiseMarkerRemoved", _groups(board, lambda k: k in noise), {}, TABLE_EFFECT) if noise else []
    return tuple(placed), tuple(removed)


@lru_cache(maxsize=1024)
def _door_offers(board, destroyed: frozenset) -> tuple[Expected, ...]:
    """DoorChanged: every corridor but the technical ones and destroyed doors."""
    return tuple(_grouped("DoorChanged", _groups(board, lambda k: k != TECHNICAL and k not in destroyed),
                          {"state": DOOR_STATES_OFFERED}, TABLE_EFFECT))


def _grouped(type_: str, groups: dict[tuple, list[str]], extra: dict[str, Any], note: str) -> list[Expected]:
    return [Expected(type_, None, {"room": rooms, "corridor": list(nums), **extra}, note)
            for nums, rooms in groups.items() if nums]


def table_effects(state: LockdownState) -> list[Expected]:
    """Every table effect that may legally be recorded now, with its legal options."""
    b = state.board
    note = TABLE_EFFECT
    first = state.pending[0].seat if state.pending and state.pending[0].seat is not None else state.turn
    seats = [s for s in state.seats if state.characters[s].status in ("base", "pod")]
    if first in seats:
        seats.remove(first)
        seats.insert(0, first)
    out: list[Expected] = []
    rooms = list(state.rooms)
    ids = [i.id for i in state.intruders]
    # the most frequent: wounds and contamination, noise, stalkers, fire and malfunctions
    out += [offer("WoundSuffered", s, None, lambda: Expected("WoundSuffered", s, {"kind": WOUND_OPTIONS}, note))
            for s in seats]
    out += [offer("ContaminationCardReceived", s, None, lambda: Expected("ContaminationCardReceived", s, {}, note))
            for s in seats]
    # a card's move (its own fact, not a Movement): the table names the room and the card
    out += [offer("CharacterMovedByEffect", s, len(rooms), lambda: Expected(
        "CharacterMovedByEffect", s, {"to_room": rooms, "effect": None}, note))
        for s in seats if state.characters[s].status == "base" and state.characters[s].room is not None]
    out += _noise_offers(b, state.noise)[0]
    if ids:
        if b.has_graph:
            for i in state.intruders:
                near = _adjacent(b, i.room)
                if near:
                    out.append(Expected("IntruderMoved", None, {"intruder": [i.id], "to_room": near}, note))
        else:
            out.append(Expected("IntruderMoved", None, {"intruder": ids, "to_room": rooms},
                                f"{note}; this board's corridors are unknown: any room"))
    caps = COLONY["figures"]
    on_board: dict[str, int] = {}
    for i in state.intruders:
        on_board[i.kind] = on_board.get(i.kind, 0) + 1
    kinds = [k for k in ("adult", "creeper", "larva", "breeder", "queen") if on_board.get(k, 0) < caps.get(k, 1)]
    if kinds:
        out.append(Expected("IntruderPlaced", None, {"kind": kinds, "room": rooms}, note))
    fire_free, malf_free, fires, malfs = [], [], [], []
    for p, r in state.rooms.items():
        if r.fire:
            fires.append(p)
        elif r.explored:
            fire_free.append(p)
        if r.malfunction:
            malfs.append(p)
        elif r.explored and r.tile not in ("nest", "contaminated_room"):
            malf_free.append(p)
    if fire_free:
        out.append(Expected("FirePlaced", None, {"room": fire_free}, note))
    if malf_free:
        out.append(Expected("MalfunctionPlaced", None, {"room": malf_free}, note))
    chars = state.characters
    for s in seats:  # cards and items played outside the own actions
        c = chars[s]
        if c.hand >= 1:
            out.append(offer("ActionCardPlayed", s, None, lambda: Expected(
                "ActionCardPlayed", s, {"card": None, "reaction": [True]}, f"{note}: a reaction card, played out of "
                f"turn")))
        if c.items:
            names = tuple(dict.fromkeys(i.name for i in c.items))
            out.append(offer("ItemUsed", s, names, lambda: Expected("ItemUsed", s, {"item": list(names)},
                                                                      f"{note}: a free item use (no card)")))
    out += turns.interrupt_offers(state, seats, note)  # against the action just recorded (decision 0038)
    if ids:
        out.append(Expected("IntruderInjured", None, {"intruder": ids}, note))
        out.append(Expected("IntruderRemoved", None, {"intruder": ids, "to_bag": [True, False]}, note))
    out += _door_offers(b, state.destroyed_doors)
    # character condition
    for s in seats:
        c = chars[s]
        open_ = sum(1 for w in c.serious if not w.dressed)
        if open_:
            out.append(offer("WoundDressed", s, open_, lambda: Expected(
                "WoundDressed", s, {"count": list(range(1, open_ + 1))}, note)))
        healable = (["light"] if c.light else []) + (["serious"] if any(w.dressed for w in c.serious) else [])
        if healable:
            out.append(offer("WoundHealed", s, tuple(healable), lambda: Expected(
                "WoundHealed", s, {"kind": healable}, note)))
    for s in seats:
        c = chars[s]
        n = c.contamination
        out.append(offer("ContaminationScanned", s, n, lambda: Expected(
            "ContaminationScanned", s, {"infected": list(range(n + 1)), "scope": list(SCAN_SCOPES)}, note)))
        slime = c.slime
        out.append(offer("SlimeChanged", s, slime, lambda: Expected(
            "SlimeChanged", s, {"slime": [False, True] if slime else [True]}, note)))
        out.append(offer("KnowledgeGained", s, None, lambda: Expected(
            "KnowledgeGained", s, {"amount": KNOWLEDGE_AMOUNTS}, note)))
        free_hand = c.hands_used < 2
        out.append(offer("ItemGained", s, free_hand, lambda: Expected(
            "ItemGained", s, {"item": None, "colour": list(ITEM_COLOURS),
                              "where": ["backpack", "hand"] if free_hand else ["backpack"]}, note)))
    # removals and systems
    if fires:
        out.append(Expected("FireRemoved", None, {"room": fires}, note))
    if malfs:
        out.append(Expected("MalfunctionRemoved", None, {"room": malfs}, note))
    out += _noise_offers(b, state.noise)[1]
    locations = [loc for loc in POWER_LOCATIONS if loc in state.power]
    if locations:
        out.append(Expected("PowerChanged", None, {"location": locations, "on": [False, True]}, note))
    out.append(Expected("PowerChanged", None, {"on": [True, False], "emergency": [True]},
                        f"{note}: the time token (emergency power)"))
    out += [offer("LarvaRemoved", s, None, lambda: Expected("LarvaRemoved", s, {}, note))
            for s in seats if chars[s].larva]
    slots = [i + 1 for i, up in enumerate(state.weaknesses) if not up]
    if slots:
        out.append(Expected("WeaknessRevealed", None, {"slot": slots, "object": list(OBJECT_KINDS)}, note))
    out += hidden_information.table_effects(state, seats, note)  # contingency tokens and objectives
    # rare and final
    if state.self_destruct is None:
        out.append(Expected("SelfDestructStarted", None, {}, note))
    out += [offer("CharacterDied", s, None, lambda: Expected("CharacterDied", s, {"cause": DEATH_CAUSES_OFFERED},
                                                               note)) for s in seats]
    return out


# --- table effects recorded with one tap (Ruleset.effect_groups) -------------------------------------------
# Printed effects that give one character two things at once: one tap records both facts, in one command.
PAIRED_EFFECTS = (
    # "Cut" (Draśnięcie): 1 light wound + 1 contamination card (data/attack_cards.json; gaps_filled.md §7)
    (("WoundSuffered", {"kind": "light"}), ("ContaminationCardReceived", {})),
    # "Piercing the Heart": 1 serious wound + 1 contamination card (data/attack_cards.json; gaps_filled.md §7)
    (("WoundSuffered", {"kind": "serious"}), ("ContaminationCardReceived", {})),
    # "Blood Chase" (Węszenie): 1 light wound + a slime marker (lockdown.md §7, seed 000 L2993–2998)
    (("WoundSuffered", {"kind": "light"}), ("SlimeChanged", {"slime": True})),
    # "Radioactive Dust" (Radioaktywny pył): 1 contamination card + slime (lockdown.md, Mars surface cards);
    # the two commute: recorded marker first, as the other slime pairs
    (("SlimeChanged", {"slime": True}), ("ContaminationCardReceived", {})),
)
# a short choice among this many outcomes gets one button per outcome (more: the offer's own list)
OUTCOME_BUTTONS_UP_TO = 4
GROUP_NOTE = "table effect: printed together, one tap records both"
OUTCOME_NOTE = "table effect: one tap records it"


def _chain_legal(state: LockdownState, facts: tuple[Fact, ...]) -> bool:
    """Is each fact legal where it stands, after the ones before it?"""
    from service.rules.lockdown.apply import apply
    from service.rules.lockdown.checks import check
    for i, f in enumerate(facts):
        if check(state, f):
            return False
        if i + 1 < len(facts):
            state, _ = apply(state, f)
    return True


def effect_groups(state: LockdownState) -> list:
    """Table effects one tap records (``Ruleset.effect_groups``): each seat's printed pairs (a wound with a
    contamination card or a slime marker, …) and the outcomes of a short choice the regular offer would
    make the recorder change in a form (a serious wound; which of 2–4 fires or malfunctions is removed)."""
    from service.rules.base import Group
    if state.ended or state.phase == "setup":
        return []
    out: list[Group] = []
    seats = [s for s in state.seats if state.characters[s].status in ("base", "pod")]
    for s in seats:
        serious = (Fact(0, "WoundSuffered", {"kind": "serious"}, s),)
        if _chain_legal(state, serious):  # the offer preselects a light wound: a serious one is its own button
            out.append(Group(serious, OUTCOME_NOTE))
        for pair in PAIRED_EFFECTS:
            facts = tuple(Fact(0, t, dict(d), s) for t, d in pair)
            if _chain_legal(state, facts):
                out.append(Group(facts, GROUP_NOTE))
    for type_, flag in (("FireRemoved", "fire"), ("MalfunctionRemoved", "malfunction")):
        rooms = [p for p, r in state.rooms.items() if getattr(r, flag)]
        if 2 <= len(rooms) <= OUTCOME_BUTTONS_UP_TO:
            out += [Group((Fact(0, type_, {"room": p}, None),), OUTCOME_NOTE) for p in rooms]
    return out
