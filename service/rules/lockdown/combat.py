"""Combat: a stalker's attack, shooting and melee, the injury check, the retreat, and the figures a table places,
removes or injures by an effect.

Each fact type of the concept is declared here once (``FACT_TYPES``): its spec, its check (None where its shape
and its place in the game are all there is to check) and its effect, and its offers — the pending sub-steps (``pending_offers``), the turn's attacks (``offers``) and
the table effects (figures placed, injured, removed), which ``inputs``/``inputs_play`` compose in the order the
seeded generator depends on. Decision 0029.

    >>> [t.spec.type for t in FACT_TYPES][:3]
    ['IntruderAttacked', 'CharacterShot', 'MeleeAttacked']
    >>> injuries_for("double", "adult", melee=True, extra_cards=0)
    1
"""
from __future__ import annotations

from typing import Any

from service.rules.base import Consequence, Expected, Fact, Violation
from service.rules.kit.builders import consequence as C, violation as V
from service.rules.kit.facts import FactSpec, FactType, field_spec as _f
from service.rules.kit.replace import replace, replace_in
from service.rules.lockdown import mechanics as M, sections as S
from service.rules.lockdown.board import TECHNICAL
from service.rules.lockdown.components import ATTACK_CARDS, COLONY, EVENT_CARDS
from service.rules.lockdown.offers import TABLE_EFFECT
from service.rules.lockdown.state import IN_BASE, Item, LockdownState, Pending, intruder, who, with_character
from service.rules.lockdown.turns import action_check, action_cost
from service.rules.lockdown.values import resolve_card, resolve_place

DIE_FACES = ("blank", "creeper", "adult", "hit", "double", "card_for_1", "one_or_two")


# --- checks --------------------------------------------------------------------------------------------------

def check_attacked(state, fact):
    it = intruder(state, fact.data["intruder"])
    out = []
    first = state.clock.pending[0] if state.clock.pending else None
    any_order = (first is not None and first.reason == "escape"
                 and (state.setup.options or {}).get("escape_order") == "any"
                 and any(q.kind == "attack" and q.reason == "escape" and q.seat == first.seat and q.intruder == it.id
                         for q in state.clock.pending))
    if first is not None and first.kind == "attack" and first.intruder != it.id and not any_order:
        if first.reason == "escape":
            return [V("wrong-attacker", f"The escape attacks come largest first: {first.intruder} attacks before "
                      f"{it.id} (game option escape_order \"any\" lets the table choose).", S.ESCAPE, "intruder")]
        return [V("wrong-attacker", f"The attack due is by {state.clock.pending[0].intruder}, not {it.id}.", S.ATTACK,
                  "intruder")]
    target = fact.data.get("target")
    p = state.clock.pending[0] if state.clock.pending else None
    if target is not None:
        c = state.crew.characters[target]
        if p is not None and p.seat is not None and target != p.seat:
            out.append(V("attack-target", f"This attack ({p.reason}) targets {who(state, p.seat)}, not "
                         f"{who(state, target)}.", S.ATTACK, "target"))
        elif p is not None and p.seat is None and (c.room != it.room or c.status != IN_BASE):
            out.append(V("attack-target", f"{who(state, target)} is not in the stalker's room.", S.ATTACK,
                         "target"))
    if it.kind != "larva" and not fact.data.get("card"):
        out.append(V("attack-card-missing", f"A {it.kind} attacks with an attack card: record the card drawn.",
                     S.ATTACK, "card"))
    if it.kind == "larva" and fact.data.get("card"):
        out.append(V("larva-draws-no-card", "A larva draws no attack card: it infests the character.", S.ATTACK,
                     "card"))
    return out


def target_here(state, fact) -> list[Violation]:
    place = state.crew.characters[fact.actor].room
    t = fact.data["target"]
    if t == "egg":
        floor = "egg" in state.ship.objects.get(place, ())
        nest = state.ship.rooms[place].tile == "nest" and state.ship.rooms[place].explored and state.colony.eggs > 0
        if not (floor or nest):
            return [V("no-eggs-here", f"There is no unheld egg in {state.room_label(place)}.", S.EGGS, "target")]
        return []
    it = intruder(state, t)
    if it.room != place:
        return [V("target-not-here", f"The {it.kind} ({it.id}) is in {state.room_label(it.room)}, not in "
                  f"{who(state, fact.actor)}'s room.", S.COMBAT, "target")]
    return []


def check_shot(state, fact):
    out = action_check(state, fact)
    if out:
        return out
    out += target_here(state, fact)
    c = state.crew.characters[fact.actor]
    weapon = fact.data["weapon"].casefold()
    item = next((i for i in c.items if i.name.casefold() == weapon), None)
    if item is None:
        out.append(V("no-such-weapon", f"{who(state, fact.actor)} holds no {fact.data['weapon']} (record the item "
                     f"with ItemGained/RoomSearched first).", S.SHOOT, "weapon"))
    elif item.where != "hand":
        out.append(V("weapon-not-in-hand", f"{item.name} must be held in a hand to shoot.", S.SHOOT, "weapon"))
    elif item.ammo is not None and item.ammo < 1:
        out.append(V("no-ammo", f"{item.name} has no ammo left.", S.SHOOT, "weapon"))
    if fact.data["result"] in ("card_for_1", "one_or_two") and state.powered(state.sector_of(c.room)) is False:
        out.append(V("advantage-die-unpowered", "Advantage die results are possible only in a powered sector.",
                     S.SHOOT, "result"))
    extra = fact.data.get("extra_cards") or 0
    if extra > 1 or (extra and fact.data["result"] not in ("card_for_1", "one_or_two")):
        out.append(V("extra-cards", "Only the advantage die's card results take 1 extra card.", S.SHOOT,
                     "extra_cards"))
    elif c.hand < 1 + extra:
        out.append(V("not-enough-cards", "Not enough cards for the shot and the extra card.", S.SHOOT, "extra_cards"))
    return out


def check_melee(state, fact):
    out = action_check(state, fact) or target_here(state, fact)
    if not out and fact.data["result"] in ("card_for_1", "one_or_two"):
        out.append(V("melee-advantage", "The advantage die is never used for melee.", S.MELEE, "result"))
    return out


def check_injury_check(state, fact):
    p = state.clock.pending[0]
    it = intruder(state, p.intruder)
    need = 2 if it and it.kind in ("breeder", "queen") else 1
    if len(fact.data["blood"]) != need:
        return [V("blood-count", f"A {it.kind if it else 'stalker'} injury check draws {need} attack card(s).",
                  S.INJURIES, "blood")]
    return []


def check_retreated(state, fact):
    p = state.clock.pending[0]
    if p.intruder != fact.data["intruder"]:
        return [V("wrong-intruder", f"The retreat due is by {p.intruder}.", S.RETREAT, "intruder")]
    if fact.data.get("to_room") is not None and state.board.has_graph:
        return [V("retreat-derived", "On a board with known corridors the retreat is derived from the card; leave "
                  "to_room out.", S.RETREAT, "to_room")]
    return []


def check_intruder_placed(state, fact):
    """A killed queen never comes back: her figure is off the board and her token lies beside it; a token goes back
    into the colony only when a stalker of its kind hides in the technical corridors (seed 000 L2834–2836), which a
    dead queen cannot do; no other rule places a queen (L1843–1846: the colony's queen token)."""
    kind = str(fact.data.get("kind") or "").casefold()
    if kind in ("queen", "królowa") and state.colony.queen_killed:
        return [V("queen-killed", "The queen has been killed; she cannot appear again.", S.FIGURES, "kind")]
    return []


# --- effects -------------------------------------------------------------------------------------------------

def attacked(state, fact, cons):
    iid = fact.data["intruder"]
    state, p = M.pop_pending(state, "attack", intruder=iid)
    it = M.intruder(state, iid)
    if it is None:
        return state
    target = fact.data.get("target") or (p.seat if p and p.seat is not None else M.attack_target(state, it.room))
    if target is None or state.crew.characters[target].status != IN_BASE:
        cons.append(C("attack-no-target", f"The {it.kind} ({iid}) has nobody to attack."))
        return state
    escape = bool(p and p.reason == "escape")
    corpse_room = p.room if escape else None
    if it.kind == "larva":
        return M.larva_attack(state, it, target, cons)
    card = ATTACK_CARDS.resolve(fact.data.get("card"))
    if card is None:
        cons.append(C("ignored", "No attack card recorded: the attack is not resolved."))
        return state
    dark = fact.data.get("dark")
    if dark is None:
        dark = state.dark(state.crew.characters[target].room)
    return M.attack_effect(state, it, target, card.id, bool(dark), escape, cons, corpse_room)


DIE_INJURIES = {  # (result) → (injuries, types it hits) ; None = any type (lockdown.md §7.10)
    "blank": (0, ()),
    "creeper": (1, ("larva", "creeper")),
    "adult": (1, ("larva", "creeper", "adult")),
    "hit": (1, None),
    "double": (2, None),
}


def injuries_for(result: str, kind: str, melee: bool, extra_cards: int) -> int:
    if result == "card_for_1":
        return 1 if extra_cards >= 1 else 0
    if result == "one_or_two":
        return 2 if extra_cards >= 1 else 1
    n, types = DIE_INJURIES[result]
    if types is not None and kind not in types:
        return 0
    return min(n, 1) if melee else n


def combat(state: LockdownState, fact: Fact, cons: list[Consequence], melee: bool) -> LockdownState:
    seat = fact.actor
    d = fact.data
    c = state.crew.characters[seat]
    place = c.room
    extra = d.get("extra_cards") or 0
    state = M.act(state, fact, action_cost(fact))
    if not melee:
        state = spend_ammo(state, seat, d["weapon"], 1, cons)
        state = M.pay(state, seat, extra)
    if d["target"] == "egg":
        n = injuries_for(d["result"], "larva", melee, extra)
        if n and "egg" in state.ship.objects.get(place, ()):
            for _ in range(n):
                state = M.take_object(state, place, "egg")
            cons.append(C("egg-destroyed", f"{n} egg(s) destroyed in {state.room_label(place)}.", room=place))
        elif n and state.ship.rooms[place].tile == "nest" and state.colony.eggs:
            state = replace_in(state, "colony", eggs=max(0, state.colony.eggs - n))
            cons.append(C("egg-destroyed", f"{n} egg(s) destroyed in the Nest ({state.colony.eggs} left).", room=place))
            state = M.nest_check(state, cons)
        else:
            cons.append(C("missed", "The eggs are missed."))
        cons.append(C("noise-roll-due", "After every attempt on the eggs: a noise roll.", seat=seat))
        return replace_in(state, "clock",
                          pending=(Pending("noise", seat, place, reason="egg attack"),) + state.clock.pending)
    it = M.intruder(state, d["target"])
    if melee:
        state = M.contaminate(state, seat, cons)
    if it is None:
        return state
    n = injuries_for(d["result"], it.kind, melee, extra)
    if n == 0:
        cons.append(C("missed", f"{'Melee' if melee else 'Shot'} misses the {it.kind} ({it.id})."))
        if melee:
            state = M.wound(state, seat, "serious", cons)
        return state
    cons.append(C("hit", f"{'Melee' if melee else 'Shot'}: {n} injur{'y' if n == 1 else 'ies'} to the {it.kind} "
                  f"({it.id}).", intruder=it.id, injuries=n))
    if not melee and weapon(state, seat, d["weapon"]) and assault_rifle(d["weapon"]):
        n += 1
        cons.append(C("weapon-bonus", "Assault rifle: +1 injury.", intruder=it.id))
    return M.injure(state, it.id, n, cons, seat)


def assault_rifle(name: str) -> bool:
    """The Survivor's Assault Rifle (Karabin szturmowy): +1 injury when at least 1 is dealt (seed 000 L2973–2976)."""
    key = " ".join(name.replace("_", " ").split()).casefold()
    return "rifle" in key or key == "karabin szturmowy"


def weapon(state: LockdownState, seat: int, name: str) -> Item | None:
    key = name.casefold()
    return next((i for i in state.crew.characters[seat].items if i.name.casefold() == key), None)


def spend_ammo(state: LockdownState, seat: int, name: str, n: int, cons: list[Consequence]) -> LockdownState:
    item = weapon(state, seat, name)
    if item is None or item.ammo is None:
        return state
    items = tuple(replace(i, ammo=max(0,
                                      (i.ammo or 0) - n)) if i is item else i for i in state.crew.characters[seat].items)
    return with_character(state, seat, items=items)


def shot(state, fact, cons):
    return combat(state, fact, cons, melee=False)


def melee(state, fact, cons):
    return combat(state, fact, cons, melee=True)


def injury_check(state, fact, cons):
    state, p = M.pop_pending(state, "injury_check")
    if p is None:
        return state
    it = M.intruder(state, p.intruder)
    if it is None:
        return state
    blood = fact.data["blood"]
    retreat = "retreat" in blood
    total = sum(b for b in blood if b != "retreat")
    if not retreat and total <= it.injuries:
        cons.append(C("killed", f"Blood {total} ≤ {it.injuries} injuries: the {it.kind} ({it.id}) dies.",
                      intruder=it.id))
        return M.kill(state, it.id, cons)
    if retreat:
        cons.append(C("retreat", f"Retreat symbol: the {it.kind} ({it.id}) flees (draw an event card: "
                      f"IntruderRetreated).", intruder=it.id))
        return replace_in(state, "clock", pending=(Pending("retreat", p.seat, it.room, reason="injury check",
                                               intruder=it.id),) + state.clock.pending)
    cons.append(C("survives", f"Blood {total} > {it.injuries} injuries: the {it.kind} ({it.id}) lives on.",
                  intruder=it.id))
    return state


def move_through(state: LockdownState, iid: str, corridors: tuple[int, ...], cons: list[Consequence]) -> LockdownState:
    """Move one stalker through the numbered corridors (retreat; lockdown.md §4 step 9A, §7.14)."""
    b = state.board
    it = M.intruder(state, iid)
    room = it.room
    for n in corridors:
        key = b.corridor_key(room, n)
        if key is None:
            break
        if key == TECHNICAL:
            return M.remove_intruder(state, iid, cons, to_bag=True, why="gone into the technical corridors")
        if key in state.ship.doors:
            cons.append(C("door-destroyed", f"The {it.kind} ({iid}) destroys the closed door instead of moving.",
                          intruder=iid, corridor=key))
            return replace_in(state, "ship", doors=state.ship.doors - {key},
                              destroyed_doors=state.ship.destroyed_doors | {key})
        room = b.other_end(key, room) or room
        break  # a retreat uses the first number only (assumption: rules-gaps.md)
    cons.append(C("intruder-moved", f"The {it.kind} ({iid}) retreats to {state.room_label(room)}.", intruder=iid,
                  to_room=room))
    return replace_in(state, "colony",
                      intruders=tuple(replace(i, room=room) if i.id == iid else i for i in state.colony.intruders))


def retreated(state, fact, cons):
    iid = fact.data["intruder"]
    state, _ = M.pop_pending(state, "retreat", intruder=iid)
    card = resolve_card(fact.data["card"])
    if M.intruder(state, iid) is None:
        return state
    if fact.data.get("to_room") is not None:
        dest = resolve_place(state, fact.data["to_room"])
        cons.append(C("intruder-moved", f"Intruder {iid} retreats to {state.room_label(dest)}.", intruder=iid,
                      to_room=dest))
        return replace_in(state, "colony",
                          intruders=tuple(replace(i, room=dest) if i.id == iid else i for i in state.colony.intruders))
    if not state.board.has_graph:
        cons.append(C("table-resolves", f"{card.en} shows corridor {card.corridors[0]}; this board's corridors are "
                      f"unknown, so give to_room.", intruder=iid))
        return state
    return move_through(state, iid, card.corridors, cons)


def placed(state, fact, cons):
    place = resolve_place(state, fact.data["room"])
    return M.place_intruder(state, fact.data["kind"], place, cons, from_bag=bool(fact.data.get("from_bag")))[0]


def removed(state, fact, cons):
    to_bag = fact.data.get("to_bag")
    return M.remove_intruder(state, fact.data["intruder"], cons, to_bag=True if to_bag is None else to_bag)


def injured(state, fact, cons):
    return M.injure(state, fact.data["intruder"], fact.data.get("count") or 1, cons)


# --- offers (what next_inputs proposes; inputs/inputs_play compose them in the seeded generator's order) -------

BASIC_FACES = ("blank", "creeper", "adult", "hit", "double")  # the die without power (and in melee)


def pending_offers(state: LockdownState) -> list[Expected] | None:
    """The pending combat sub-step (an attack, an injury check, a retreat), or None when the pending step is
    another concept's (``movement.pending_offers``)."""
    p = state.clock.pending[0]
    if p.kind == "attack":
        it = next((i for i in state.colony.intruders if i.id == p.intruder), None)
        opts: dict[str, Any] = {"intruder": [p.intruder]}
        if it is not None and it.kind != "larva":
            opts["card"] = [c.id for c in ATTACK_CARDS]
        return [Expected("IntruderAttacked", None, opts, f"{p.reason}: intruder {p.intruder} attacks; record the "
                         f"attack card drawn")]
    if p.kind == "injury_check":
        it = next((i for i in state.colony.intruders if i.id == p.intruder), None)
        values = list(dict.fromkeys(b for c in ATTACK_CARDS for b in c.blood))
        cards = 2 if it is not None and it.kind in ("breeder", "queen") else 1  # as generate._blood draws them
        blood = [[v] for v in values] if cards == 1 else [[a, b] for a in values for b in values]
        return [Expected("InjuryCheckDrawn", None, {"blood": blood},
                         f"injury check of {p.intruder}: the blood values of the attack card(s) drawn")]
    if p.kind == "retreat":
        opts = {"intruder": [p.intruder], "card": [c.id for c in EVENT_CARDS]}
        if not state.board.has_graph:
            opts["to_room"] = list(state.ship.rooms)
        return [Expected("IntruderRetreated", None, opts, f"{p.intruder} retreats: draw an event card")]
    return None


def offers(state: LockdownState, seat: int) -> list[Expected]:
    """The attacks ``seat`` may make in its turn: a shot with each loaded weapon in hand and melee, at every
    intruder in its room and at the eggs there."""
    c = state.crew.characters[seat]
    if c.status != IN_BASE or c.room is None or c.hand < 1:
        return []
    place = c.room
    r = state.ship.rooms[place]
    out: list[Expected] = []
    first: dict[str, Any] = {}
    for i in c.items:  # the check finds a weapon by name: its first item of that name must be the one in hand
        first.setdefault(i.name.casefold(), i)
    weapons = [i for i in first.values() if i.where == "hand" and (i.ammo is None or i.ammo > 0)]
    powered = state.powered(state.sector_of(place)) is not False
    faces = list(DIE_FACES) if powered else list(BASIC_FACES)
    targets = [i.id for i in state.intruders_in(place)]
    eggs = "egg" in state.ship.objects.get(place, ()) or (r.tile == "nest" and r.explored and state.colony.eggs > 0)
    if eggs:
        targets.append("egg")
    for t in targets:
        for w in weapons:
            out.append(Expected("CharacterShot", seat, {"target": [t], "weapon": [w.name], "result": faces},
                                f"shoot at {t} with {w.name}"))
        out.append(Expected("MeleeAttacked", seat, {"target": [t], "result": list(BASIC_FACES)}, f"melee {t}"))
    return out


def placed_offers(state: LockdownState) -> list[Expected]:
    """Table effect: an intruder placed by an effect, of a kind whose figures are not all on the board."""
    caps = COLONY["figures"]
    on_board: dict[str, int] = {}
    for i in state.colony.intruders:
        on_board[i.kind] = on_board.get(i.kind, 0) + 1
    kinds = [k for k in ("adult", "creeper", "larva", "breeder", "queen") if on_board.get(k, 0) < caps.get(k, 1)]
    return [Expected("IntruderPlaced", None, {"kind": kinds, "room": list(state.ship.rooms)},
                     TABLE_EFFECT)] if kinds else []


def injured_removed_offers(state: LockdownState) -> list[Expected]:
    """Table effects: an intruder injured, or removed (to the bag or not), by an effect."""
    ids = [i.id for i in state.colony.intruders]
    if not ids:
        return []
    return [Expected("IntruderInjured", None, {"intruder": ids}, TABLE_EFFECT),
            Expected("IntruderRemoved", None, {"intruder": ids, "to_bag": [True, False]}, TABLE_EFFECT)]


# --- the declarations --------------------------------------------------------------------------------------

_SPECS = (
    FactSpec("IntruderAttacked", "table",
             "A night stalker attacked (surprise attack, event step 7, escape, or an effect): the attack card "
             "drawn. Hit or miss and the card's effect are derived (larvae draw no card: they infest).",
             (_f("intruder", "intruder", "the attacking intruder's id"),
              _f("card", "attack_card", "the attack card drawn (not for a larva)", False),
              _f("target", "seat", "the character attacked (default: the rules' target)", False),
              _f("dark", "bool", "the target is in darkness (default: derived from power)", False)),
             {"intruder": "i1", "card": "cut"}, S.ATTACK),
    FactSpec("CharacterShot", "seat",
             "Shoot action (cost 1, in combat; eggs also out of combat): 1 ammo spent, the die result recorded. "
             "Injuries are derived.",
             (_f("target", "target", "the intruder id, or 'egg' for an unheld egg in the room"),
              _f("weapon", "text", "the weapon used (an item in hand)"),
              _f("result", "die_face", f"the die result: {', '.join(DIE_FACES)}"),
              _f("extra_cards", "count0", "action cards discarded for the advantage die's card results", False)),
             {"target": "i1", "weapon": "SMG", "result": "hit"}, S.SHOOT),
    FactSpec("MeleeAttacked", "seat",
             "Melee action (cost 1): a contamination card first, then the die; a miss costs a serious wound "
             "(not against eggs). All derived from the result.",
             (_f("target", "target", "the intruder id, or 'egg'"),
              _f("result", "die_face", "the combat die result")),
             {"target": "i2", "result": "adult"}, S.MELEE),
    FactSpec("InjuryCheckDrawn", "table",
             "Attack cards drawn for the injury check of a creeper/adult (1 card) or breeder/queen (2): their "
             "blood values. Killed (carcass) when the sum ≤ injuries; a retreat symbol makes it flee (derived).",
             (_f("blood", "blood", "the blood values, or 'retreat'"),),
             {"blood": [3]}, S.INJURIES),
    FactSpec("IntruderRetreated", "table",
             "A retreating stalker fled: the event card drawn for its direction (moves derived on a known graph).",
             (_f("intruder", "intruder", "the intruder retreating"),
              _f("card", "event_card", "the event card drawn for the direction"),
              _f("to_room", "room", "where it went, when the board's corridors are unknown", False)),
             {"intruder": "i2", "card": "lurking"}, S.RETREAT),
    FactSpec("IntruderPlaced", "table",
             "A stalker figure was placed by an effect (event card, item). Figure caps are derived.",
             (_f("kind", "kind", "larva, creeper, adult, breeder or queen"),
              _f("room", "room", "where"),
              _f("from_bag", "bool", "its token came out of the colony bag (default false)", False)),
             {"kind": "adult", "room": "slot-04"}, S.FIGURES),
    FactSpec("IntruderRemoved", "table",
             "A stalker left the board by an effect (e.g. Lurking), its token back into the bag or not.",
             (_f("intruder", "intruder", "the intruder"),
              _f("to_bag", "bool", "its token goes back into the colony bag (default true)", False)),
             {"intruder": "i3", "to_bag": True}, S.FIGURES),
    FactSpec("IntruderInjured", "table",
             "A stalker suffered injuries from an effect (item, room action, fire); the injury check follows.",
             (_f("intruder", "intruder", "the intruder"),
              _f("count", "count1", "injuries (default 1)", False)),
             {"intruder": "i1", "count": 1}, S.INJURIES),
)
_CHECKS = (check_attacked, check_shot, check_melee, check_injury_check, check_retreated, check_intruder_placed,
           None, None)  # IntruderRemoved, IntruderInjured: shape only (fact_types.SHAPE_ONLY)
_EFFECTS = (attacked, shot, melee, injury_check, retreated, placed, removed, injured)
FACT_TYPES: tuple[FactType, ...] = tuple(FactType(*t) for t in zip(_SPECS, _CHECKS, _EFFECTS))
SPECS = tuple(t.spec for t in FACT_TYPES)
RULES = {t.spec.type: t.check for t in FACT_TYPES if t.check is not None}
EFFECTS = {t.spec.type: t.effect for t in FACT_TYPES}
