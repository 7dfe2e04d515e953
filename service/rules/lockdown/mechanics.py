"""Derived consequences shared by many facts: wounds, death, contamination, stalkers, supplies, the end.

Every function takes a state and a list of consequences, appends what the rules derive and
returns the new state. None of them checks legality (``checks.py`` does); they do what the
table recorded as far as the rules allow and never raise.

    >>> from service.rules.lockdown.fold import new_game
    >>> g = new_game(1, mode="solo")
    >>> cons = []
    >>> s = wound(g.state, 1, "light", cons)
    >>> s = wound(s, 1, "light", cons); s = wound(s, 1, "light", cons)
    >>> s.characters[1].light, len(s.characters[1].serious)
    (0, 1)
"""
from __future__ import annotations

from service.rules.kit.replace import replace, replace_in
from types import MappingProxyType
from typing import Any

from service.rules.base import Consequence, Fact
from service.rules.kit.builders import consequence
from service.rules.lockdown.board import TECHNICAL, is_area
from service.rules.lockdown.catalog import item_ammo
from service.rules.lockdown.components import ATTACK_CARDS, COLONY, ROOMS
from service.rules.lockdown.state import (
    DEAD, ENDED, EVACUATED, FIRE_MARKERS, GONE, HAND_SIZE, IN_BASE, IN_BUNKER, IN_POD, LOCKED_IN, MALFUNCTION_MARKERS,
    PLAYER, SIZE_ORDER, Intruder, Item, ItemDeck, LockdownState, Pending, SeriousWound, intruder, who, with_character,
    with_room,
)

MAX_SERIOUS = 3  # a wound beyond 3 serious wounds kills (lockdown.md §8.4)
LIGHT_TRACK = 3  # the 3rd light wound becomes 1 serious wound (lockdown.md §8.3)
DEATH_CAUSES = ("wounds", "infection", "attack", "time_out", "alarm_procedure", "base_destroyed", "vent_out",
                "defense_control", "contingency", "final_scan", "event", "other")
NO_MALFUNCTION_ROOMS = ("nest", "contaminated_room")


C = consequence  # the kit's builder, short for the many effects below


# --- actions, moves and pending steps -------------------------------------------------------

def count_action(state: LockdownState, seat: int) -> LockdownState:
    """One more action in the seat's own turn (out-of-turn plays are not actions)."""
    if seat == state.clock.turn and state.clock.phase == PLAYER:
        return with_character(state, seat, actions=state.crew.characters[seat].actions + 1)
    return state


def entry_key(state: LockdownState, origin: str | None, dest: str, corridor: Any) -> str | None:
    """The corridor key of a move into ``dest`` through its numbered ``corridor`` (from ``origin``, when known)."""
    b = state.board
    return (b.entry(origin, dest, corridor) if origin else None) or b.corridor_key(dest, corridor)


def occupied(state: LockdownState, place: str, seat: int) -> bool:
    """Someone else (a character or a stalker) is in ``place``: entering it is no noise roll."""
    return bool([s for s in state.characters_in(place) if s != seat] or state.intruders_in(place))


def combat_notice(state: LockdownState, seat: int, dest: str, cons: list[Consequence]) -> None:
    if state.intruders_in(dest):
        kinds = ", ".join(f"{i.kind} ({i.id})" for i in state.intruders_in(dest))
        cons.append(C("combat", f"{who(state, seat)} is now in combat with {kinds}.", seat=seat))


def entered(state: LockdownState, seat: int, dest: str, via: str | None, was_occupied: bool,
            cons: list[Consequence], careful: bool = False, attacks: tuple[Pending, ...] = ()) -> LockdownState:
    """What entering a room demands next (lockdown.md §5.2, §5.7): exploring it, or a noise roll when it was
    empty and the move not careful; ``attacks`` (escape attacks) are queued first."""
    if not state.ship.rooms[dest].explored:
        return replace_in(state, "clock", pending=state.clock.pending + attacks + (
            Pending("explore", seat, dest, reason="entered an unexplored room", empty=not was_occupied,
                    careful=careful, via=via),))
    if not careful and not was_occupied:
        cons.append(C("noise-roll-due", f"{who(state, seat)} entered an empty room: a noise roll is due.", seat=seat))
        return replace_in(state, "clock", pending=state.clock.pending + attacks + (
            Pending("noise", seat, dest, reason="entered an empty room"),))
    return replace_in(state, "clock", pending=state.clock.pending + attacks) if attacks else state


def bag_add(state: LockdownState, token: str, n: int = 1) -> LockdownState:
    bag = state.colony.bag.copy()
    bag[token] = max(0, bag.get(token, 0) + n)
    return replace_in(state, "colony", bag=MappingProxyType(bag))


def supply_to_bag(state: LockdownState, token: str, cons: list[Consequence]) -> LockdownState:
    if state.colony.supply.get(token, 0) <= 0:
        cons.append(C("colony-supply-empty", f"No {token} token is left next to the board; nothing is added.",
                      token=token))
        return state
    supply = state.colony.supply.copy()
    supply[token] -= 1
    state = replace_in(state, "colony", supply=MappingProxyType(supply))
    cons.append(C("colony-token-added", f"1 {token} token is added to the colony bag.", token=token))
    return bag_add(state, token)


def push_front(state: LockdownState, *items: Pending) -> LockdownState:
    return replace_in(state, "clock", pending=tuple(items) + state.clock.pending)


def pop_pending(state: LockdownState, kind: str, seat: int | None = None,
                intruder: str | None = None) -> tuple[LockdownState, Pending | None]:
    """Take the first pending sub-step of ``kind`` (for that seat / intruder, when given) off the queue."""
    for i, p in enumerate(state.clock.pending):
        if p.kind == kind and (seat is None or p.seat == seat) and (intruder is None or p.intruder == intruder):
            return replace_in(state, "clock", pending=state.clock.pending[:i] + state.clock.pending[i + 1:]), p
    return state, None


# --- cards ---------------------------------------------------------------------------------------

def pay(state: LockdownState, seat: int, n: int) -> LockdownState:
    """Discard ``n`` cards from hand to the own discard pile (a cost)."""
    c = state.crew.characters[seat]
    n = max(0, min(n, c.hand))
    if not n:
        return state
    hand, discard = c.hand - n, c.discard + n
    del c  # not held across the change: the draft may change the character in place (decision 0049)
    return with_character(state, seat, hand=hand, discard=discard)


def draw(state: LockdownState, seat: int, n: int, cons: list[Consequence] | None = None) -> LockdownState:
    """Draw ``n`` cards from the own deck; an empty deck is reshuffled from the discard pile (§4 step 1)."""
    c = state.crew.characters[seat]
    hand, deck, discard = c.hand, c.deck, c.discard
    for _ in range(max(0, n)):
        if deck == 0 and discard:
            deck, discard = discard, 0
            if cons is not None:
                cons.append(C("deck-reshuffled", f"{who(state, seat)} shuffles the discard pile into a new deck.",
                              seat=seat))
        if deck == 0:
            break
        deck -= 1
        hand += 1
    del c  # as in pay
    return with_character(state, seat, hand=hand, deck=deck, discard=discard)


def reshuffle_all(state: LockdownState, seat: int) -> LockdownState:
    """Hand and discard shuffled into a new deck (Surgery, Neutralizer)."""
    c = state.crew.characters[seat]
    return with_character(state, seat, deck=c.deck + c.hand + c.discard, hand=0, discard=0)


# --- wounds and death ----------------------------------------------------------------------------

def wound(state: LockdownState, seat: int, kind: str, cons: list[Consequence], card: str | None = None,
          count: int = 1, cause: str = "wounds", corpse_room: str | None = None) -> LockdownState:
    """Light or serious wounds, one by one (lockdown.md §8.3–8.4)."""
    for _ in range(max(1, count)):
        c = state.crew.characters[seat]
        if c.status not in (IN_BASE, IN_POD):
            return state
        if len(c.serious) >= MAX_SERIOUS:
            cons.append(C("fatal-wound", f"{who(state, seat)} already has 3 serious wounds: this {kind} wound kills.",
                          seat=seat))
            return die(state, seat, cause, cons, room=corpse_room)
        if kind == "light":
            light = c.light + 1
            serious = c.serious
            del c  # as in pay
            if light >= LIGHT_TRACK:
                cons.append(C("light-to-serious", f"{who(state, seat)}'s 3rd light wound becomes a serious wound "
                              f"(the light-wound track is cleared).", seat=seat))
                state = with_character(state, seat, light=0, serious=serious + (SeriousWound(card),))
            else:
                state = with_character(state, seat, light=light)
                cons.append(C("light-wound", f"{who(state, seat)} suffers a light wound ({light} on the track).",
                              seat=seat, light=light))
        else:
            serious = c.serious + (SeriousWound(card),)
            del c  # as in pay
            state = with_character(state, seat, serious=serious)
            cons.append(C("serious-wound", f"{who(state, seat)} suffers a serious wound"
                          + (f" ({card})" if card else "") + f" — {len(serious)} of 3.", seat=seat,
                          serious=len(serious)))
    return state


def die(state: LockdownState, seat: int, cause: str, cons: list[Consequence], room: str | None = None,
        end_effect: bool = False) -> LockdownState:
    """A character dies: corpse, dropped heavy objects, lost items, tokens to the pool (lockdown.md §8.6)."""
    c = state.crew.characters[seat]
    if c.status in GONE and not (end_effect and c.status == LOCKED_IN):
        return state
    place = room or c.room
    was = {IN_BASE: "base", IN_POD: "pod", LOCKED_IN: "isolation"}.get(c.status, c.status)
    cons.append(C("character-died", f"{who(state, seat)} dies ({cause.replace('_', ' ')})"
                  + (f" in {state.room_label(place)}." if place else "."), seat=seat, cause=cause, room=place))
    state = with_character(state, seat, status=DEAD, room=None, pod=None, cause=cause, objects=(), items=(),
                           contingency=(), was=was, passed=True)
    if c.pod:
        pods = state.systems.pods.copy()
        pods.pop(c.pod, None)
        state = replace_in(state, "systems", pods=MappingProxyType(pods))
    if end_effect:
        return state
    if place is not None and place in state.ship.rooms:
        state = add_objects(state, place, (f"corpse:{seat}",) + c.objects)
        if c.objects:
            cons.append(C("objects-dropped", f"Heavy objects dropped in {state.room_label(place)}: "
                          f"{', '.join(c.objects)}.", room=place, objects=list(c.objects)))
    if c.items:
        cons.append(C("items-lost", f"{len(c.items)} item(s) of {who(state, seat)} leave the game.", seat=seat))
    if c.contingency:
        state = replace_in(state, "secrets", pool=state.secrets.pool + c.contingency)
        cons.append(C("contingency-to-pool", f"{len(c.contingency)} contingency token(s) go to the neutral pool.",
                      seat=seat))
    state = replace_in(state, "clock", pending=tuple(p for p in state.clock.pending if p.seat != seat or p.kind in
                                         ("injury_check", "retreat")))
    if not state.crew.first_death:
        state = replace_in(state, "crew", first_death=True)
        cons.append(C("milestone-first-death", "First character death: the computer opens the main gate.",
                      milestone="first_death"))
        state = open_gate(state, "first death", cons)
    return check_base_empty(state, cons)


def open_gate(state: LockdownState, why: str, cons: list[Consequence]) -> LockdownState:
    if state.systems.gate_open:
        return state
    cons.append(C("gate-opened", f"The main gate opens ({why}).", reason=why))
    return replace_in(state, "systems", gate_open=True, gate_reason=why)


def add_objects(state: LockdownState, place: str, objects: tuple[str, ...]) -> LockdownState:
    if not objects:
        return state
    floor = state.ship.objects.copy()
    floor[place] = floor.get(place, ()) + tuple(objects)
    return replace_in(state, "ship", objects=MappingProxyType(floor))


def take_object(state: LockdownState, place: str, obj: str) -> LockdownState:
    floor = state.ship.objects.copy()
    here = list(floor.get(place, ()))
    match = next((o for o in here if o == obj or o.split(":")[0] == obj), None)
    if match is None:
        return state
    here.remove(match)
    floor[place] = tuple(here)
    if not here:
        del floor[place]
    return replace_in(state, "ship", objects=MappingProxyType(floor))


# --- contamination ---------------------------------------------------------------------------------

def contaminate(state: LockdownState, seat: int, cons: list[Consequence], n: int = 1) -> LockdownState:
    c = state.crew.characters[seat]
    if c.status not in (IN_BASE, IN_POD):
        return state
    cons.append(C("contamination", f"{who(state, seat)} receives {n} contamination card{'s' if n != 1 else ''} "
                  f"(onto the discard pile).", seat=seat, count=n))
    contamination, discard = c.contamination + n, c.discard + n
    del c  # as in pay
    return with_character(state, seat, contamination=contamination, discard=discard)


def infest(state: LockdownState, seat: int, cons: list[Consequence], creeper_room: str | None = None,
           why: str = "an infected card") -> LockdownState:
    """A larva goes on the board; with a larva already there the character dies and a creeper appears."""
    c = state.crew.characters[seat]
    if c.status not in (IN_BASE, IN_POD):
        return state
    if c.larva:
        cons.append(C("infection-kills", f"{who(state, seat)} already carries a larva: {why} kills; a creeper "
                      f"bursts out.", seat=seat))
        room = c.room
        state = die(state, seat, "infection", cons)
        if room and not state.end.ended:
            state = place_intruder(state, "creeper", room, cons, from_bag=False)[0]
        return state
    cons.append(C("larva", f"{who(state, seat)} is infested: a larva goes on the character board.", seat=seat))
    return with_character(state, seat, larva=True)


def remove_contamination(state: LockdownState, seat: int, n: int, scope: str) -> LockdownState:
    """Remove ``n`` (infected) contamination cards from the character's cards."""
    c = state.crew.characters[seat]
    n = min(n, c.contamination)
    hand, discard, deck = c.hand, c.discard, c.deck
    left = n
    for pile in ("hand",) if scope == "hand" else ("discard", "deck", "hand"):
        take = min(left, {"hand": hand, "discard": discard, "deck": deck}[pile])
        left -= take
        if pile == "hand":
            hand -= take
        elif pile == "discard":
            discard -= take
        else:
            deck -= take
    removed = n - left
    return with_character(state, seat, contamination=c.contamination - removed, hand=hand, discard=discard,
                          deck=deck, infected=max(0, c.infected - removed))


# --- night stalkers ----------------------------------------------------------------------------------

def figures_on_board(state: LockdownState, kind: str) -> int:
    return sum(1 for i in state.colony.intruders if i.kind == kind)


_SIZE_RANK = {k: n for n, k in enumerate(SIZE_ORDER)}


def escape_attackers(state: LockdownState, origin: str | None) -> tuple:
    """The stalkers that attack a character escaping from ``origin``, each separately (seed 000 L3038–3039), the
    largest first (queen, breeder, adult, creeper, larva; the order of placing among equals). The game option
    ``escape_order: "any"`` lets the table take them in any order (the check); the offer stays largest first."""
    if not origin:
        return ()
    found = state.intruders_in(origin)
    if len(found) < 2:
        return found
    return tuple(sorted(found, key=lambda i: _SIZE_RANK.get(i.kind, len(_SIZE_RANK))))


def set_aside(state: LockdownState, kind: str) -> LockdownState:
    """A token drawn from the colony bag is put aside next to the board, with the tokens not in the bag (seed 000
    L1006–1007): a drawn token that placed a figure (L2834–2836), and a larva or creeper drawn in the colony step
    (L1821–1828). The tokens of the stalkers killed later stay there. Nothing moves if the bag holds none."""
    if state.colony.bag.get(kind, 0) <= 0:
        return state
    bag, supply = state.colony.bag.copy(), state.colony.supply.copy()
    bag[kind] -= 1
    supply[kind] = supply.get(kind, 0) + 1
    return replace_in(state, "colony", bag=MappingProxyType(bag), supply=MappingProxyType(supply))


def return_tokens(state: LockdownState, kind: str, n: int, cons: list[Consequence]) -> LockdownState:
    """Tokens of ``kind`` go back into the colony from beside the board (a stalker gone into the technical
    corridors, L2834–2836; the adult retreat, "if possible", lockdown.md §7.9). Only tokens that lie there can."""
    have = state.colony.supply.get(kind, 0)
    k = min(n, have)
    if k < n:
        cons.append(C("colony-supply-empty", f"No {kind} token is left next to the board: {n - k} cannot go back "
                      f"into the bag.", token=kind))
    if k <= 0:
        return state
    bag, supply = state.colony.bag.copy(), state.colony.supply.copy()
    bag[kind] = bag.get(kind, 0) + k
    supply[kind] = have - k
    return replace_in(state, "colony", bag=MappingProxyType(bag), supply=MappingProxyType(supply))


def place_intruder(state: LockdownState, kind: str, place: str, cons: list[Consequence],
                   from_bag: bool = False) -> tuple[LockdownState, str | None]:
    """A figure appears (figure caps and the adult retreat rule, lockdown.md §1.6, §7.9)."""
    cap = COLONY["figures"].get(kind, 1)
    if figures_on_board(state, kind) >= cap:
        if kind == "adult":
            leaving = [i for i in state.colony.intruders if i.kind == "adult" and not state.characters_in(i.room)]
            cons.append(C("adult-cap", f"All 8 adult figures are on the board: {len(leaving)} adult(s) not in "
                          f"combat retreat into the colony.", removed=[i.id for i in leaving]))
            state = replace_in(state, "colony", intruders=tuple(i for i in state.colony.intruders if i not in leaving))
            state = return_tokens(state, "adult", len(leaving), cons)
        if figures_on_board(state, kind) >= cap:
            cons.append(C("figure-cap", f"No {kind} figure is left (cap {cap}): nothing is placed.", kind=kind))
            return state, None
    if from_bag:
        state = set_aside(state, kind)
    serial = state.colony.intruder_serial + 1
    iid = f"i{serial}"
    cons.append(C("intruder-placed", f"A {kind} ({iid}) appears in {state.room_label(place)}.", intruder=iid,
                  kind=kind, room=place))
    state = replace_in(state, "colony", intruders=state.colony.intruders + (Intruder(iid, kind, place),),
                       intruder_serial=serial)
    if not state.colony.first_encounter:
        cons.append(C("milestone-first-encounter", "First encounter: every player keeps 1 of their 2 objectives "
                      "and discards the other (record ObjectiveChosen).", milestone="first_encounter"))
        state = replace_in(state, "colony", first_encounter=True)
    return state, iid


def remove_intruder(state: LockdownState, iid: str, cons: list[Consequence], to_bag: bool = False,
                    why: str = "removed", killed: bool = False) -> LockdownState:
    it = intruder(state, iid)
    if it is None:
        return state
    state = replace_in(replace_in(state, "colony", intruders=tuple(i for i in state.colony.intruders if i.id != iid)),
                       "clock", pending=tuple(p for p in state.clock.pending if p.intruder != iid))
    if to_bag:
        state = return_tokens(state, it.kind, 1, cons)
    cons.append(C("intruder-removed", f"The {it.kind} ({iid}) is {why}" + ("; its token goes back into the bag."
                                                                           if to_bag else "."),
                  intruder=iid, to_bag=to_bag, **({"killed": True} if killed else {})))
    return state


def kill(state: LockdownState, iid: str, cons: list[Consequence]) -> LockdownState:
    it = intruder(state, iid)
    if it is None:
        return state
    state = remove_intruder(state, iid, cons, why="killed", killed=True)
    if it.kind != "larva":
        state = add_objects(state, it.room, ("carcass",))
        state = replace_in(state, "colony", carcasses=state.colony.carcasses + 1)
        cons.append(C("carcass", f"A carcass token is placed in {state.room_label(it.room)}.", room=it.room))
    if it.kind == "queen":
        state = replace_in(state, "colony", queen_killed=True)
        cons.append(C("queen-killed", "The queen is dead.", milestone="queen_killed"))
    return state


def injure(state: LockdownState, iid: str, n: int, cons: list[Consequence], seat: int | None = None) -> LockdownState:
    """Injuries to a stalker: a larva dies at once; others need an injury check (lockdown.md §7.13)."""
    it = intruder(state, iid)
    if it is None or n <= 0:
        return state
    if it.kind == "larva":
        cons.append(C("larva-killed", f"The larva ({iid}) dies from {n} injury.", intruder=iid))
        return kill(state, iid, cons)
    total = it.injuries + n
    state = replace_in(state, "colony", intruders=tuple(replace(i, injuries=total) if i.id == iid else i
                                           for i in state.colony.intruders))
    cards = 2 if it.kind in ("breeder", "queen") else 1
    cons.append(C("injured", f"The {it.kind} ({iid}) has {total} injur{'y' if total == 1 else 'ies'}: draw "
                  f"{cards} attack card{'s' if cards > 1 else ''} for the injury check (InjuryCheckDrawn).",
                  intruder=iid, injuries=total))
    already = any(p.kind == "injury_check" and p.intruder == iid for p in state.clock.pending)
    if already:
        return state
    return replace_in(state, "clock", pending=(Pending("injury_check", seat, it.room, reason=f"{it.kind} injured",
                                           intruder=iid),) + state.clock.pending)


def attack_effect(state: LockdownState, it: Intruder, seat: int, card_id: str, dark: bool, escape: bool,
                  cons: list[Consequence], corpse_room: str | None) -> LockdownState:
    """The effect of one attack card on its target (gaps_filled.md §7)."""
    card = ATTACK_CARDS[card_id]
    if it.kind not in card.types:
        cons.append(C("attack-missed", f"{card.en} does not show the {it.kind} symbol: the attack misses.",
                      card=card.id))
        return state
    cons.append(C("attack-hit", f"{card.en}: {card.effect}" + (" (in darkness)." if dark else "."), card=card.id,
                  seat=seat, dark=dark))
    c = state.crew.characters[seat]
    w = dict(cause="attack", corpse_room=corpse_room)
    if card.id == "blood_chase":
        state = wound(state, seat, "light", cons, **w)
        state = slime(state, seat, cons)
        c2 = state.crew.characters[seat]
        if escape and c2.status == IN_BASE and any(not s.dressed for s in c2.serious) and intruder(state, it.id):
            state = replace_in(state, "colony", intruders=tuple(replace(i, room=c2.room) if i.id == it.id else i
                                                   for i in state.colony.intruders))
            cons.append(C("intruder-follows", f"The {it.kind} ({it.id}) follows into "
                          f"{state.room_label(c2.room)}.", intruder=it.id, to_room=c2.room))
    elif card.id == "blood_rage":
        if len(c.serious) == 2:
            state = die(state, seat, "attack", cons, room=corpse_room)
        else:
            n = 2 if any(not s.dressed for s in c.serious) else 1
            state = wound(state, seat, "serious", cons, count=n, **w)
    elif card.id == "cut":
        state = wound(state, seat, "light", cons, count=2 if dark else 1, **w)
        state = contaminate(state, seat, cons)
    elif card.id == "evolve":
        room = it.room
        if figures_on_board(state, "breeder") < COLONY["figures"]["breeder"]:
            state = remove_intruder(state, it.id, cons, why="replaced by a breeder")
            state, new = place_intruder(state, "breeder", room, cons)
            if dark and new:
                state = replace_in(state, "clock", pending=(Pending("attack", seat, room, reason="evolve (darkness)",
                                                        intruder=new),) + state.clock.pending)
        else:
            cons.append(C("no-breeder", "No breeder figure is available: nothing happens."))
    elif card.id == "infecting_the_host":
        state = slime(state, seat, cons)
        if dark:
            state = infest(state, seat, cons, why="Infecting the Host")
    elif card.id == "perched_in_the_dark":
        state = wound(state, seat, "serious", cons, **w)
        c2 = state.crew.characters[seat]
        if dark and c2.status == IN_BASE and len(c2.serious) >= 3:
            state = die(state, seat, "attack", cons, room=corpse_room)
    elif card.id == "piercing_the_heart":
        state = wound(state, seat, "serious", cons, **w)
        state = contaminate(state, seat, cons)
        c2 = state.crew.characters[seat]
        if dark and c2.status == IN_BASE and len(c2.serious) >= 2:
            state = die(state, seat, "attack", cons, room=corpse_room)
    return state


def larva_attack(state: LockdownState, it: Intruder, seat: int, cons: list[Consequence]) -> LockdownState:
    """A larva attacks without a card: it leaves the board and infests (lockdown.md §7.6, L3192–3200)."""
    cons.append(C("larva-attack", f"The larva ({it.id}) crawls onto {who(state, seat)}.", seat=seat))
    state = remove_intruder(state, it.id, cons, why="gone from the board")
    if not state.crew.characters[seat].larva:
        state = with_character(state, seat, larva=True)
        cons.append(C("larva", f"{who(state, seat)} is infested: a larva goes on the character board.", seat=seat))
    return contaminate(state, seat, cons)


def attack_target(state: LockdownState, place: str) -> int | None:
    """The character attacked in ``place``: fewest cards in hand, ties by player order (lockdown.md §7.6)."""
    chars, order = state.crew.characters, state.player_order()
    here = [s for s in order if chars[s].room == place and chars[s].status == IN_BASE]
    if not here:
        return None
    return min(here, key=lambda s: (chars[s].hand, order.index(s)))


def slime(state: LockdownState, seat: int, cons: list[Consequence]) -> LockdownState:
    if state.crew.characters[seat].slime:
        return state
    cons.append(C("slime", f"{who(state, seat)} gets a slime marker.", seat=seat))
    return with_character(state, seat, slime=True)


# --- supplies -------------------------------------------------------------------------------------------

def place_fire(state: LockdownState, place: str, cons: list[Consequence]) -> LockdownState:
    r = state.ship.rooms[place]
    if state.board.is_crossroad(place):  # lockdown.md §12.5 (seed 000 L4654–4655)
        cons.append(C("no-fire", f"No fire marker is ever placed on a crossroad ({state.room_label(place)}).",
                      room=place))
        return state
    if r.fire:
        cons.append(C("fire-already", f"{state.room_label(place)} already burns (max 1 fire marker)."))
        return state
    if state.fires() >= FIRE_MARKERS:
        cons.append(C("fire-supply-empty", "A 13th fire marker is needed but all 12 are on the board: the base "
                      "explodes.", room=place))
        return end_game(state, "base_destroyed", cons)
    cons.append(C("fire", f"Fire marker placed in {state.room_label(place)} ({FIRE_MARKERS - state.fires() - 1} "
                  f"left).", room=place))
    return with_room(state, place, fire=True)


def place_malfunction(state: LockdownState, place: str, cons: list[Consequence]) -> LockdownState:
    r = state.ship.rooms[place]
    if state.board.is_crossroad(place):  # lockdown.md §12.5 (seed 000 L4642–4643, L4654–4655)
        cons.append(C("no-malfunction", f"No malfunction marker is ever placed on a crossroad "
                      f"({state.room_label(place)}): nothing happens.", room=place))
        return state
    if r.tile in NO_MALFUNCTION_ROOMS and r.explored:
        cons.append(C("no-malfunction", f"No malfunction marker is ever placed in {ROOMS[r.tile].en}.", room=place))
        return state
    if not r.explored:
        cons.append(C("no-malfunction", f"{state.room_label(place)} is unexplored: no malfunction marker.",
                      room=place))
        return state
    if r.malfunction:
        cons.append(C("malfunction-already", f"{state.room_label(place)} already has a malfunction (max 1)."))
        return state
    if state.malfunctions() >= MALFUNCTION_MARKERS:
        cons.append(C("malfunction-supply-empty", "An 11th malfunction marker is needed but all 10 are on the "
                      "board: the base is destroyed.", room=place))
        return end_game(state, "base_destroyed", cons)
    cons.append(C("malfunction", f"Malfunction marker placed in {state.room_label(place)} "
                  f"({MALFUNCTION_MARKERS - state.malfunctions() - 1} left).", room=place))
    return with_room(state, place, malfunction=True)


# --- the end --------------------------------------------------------------------------------------------

def check_base_empty(state: LockdownState, cons: list[Consequence]) -> LockdownState:
    """Nobody left in the base: the time token jumps and the game ends (lockdown.md §11.5 item 3, L1627–1640)."""
    if state.end.ended or state.clock.phase not in ("player", "event") or state.in_base():
        return state
    if not any(state.crew.characters[s].character for s in state.seats):
        return state
    if state.systems.self_destruct is not None:
        target, ending = state.systems.self_destruct[1], "base_destroyed"
    elif state.systems.alarm is not None:
        target, ending = state.systems.alarm, "alarm_procedure"
    else:
        target, ending = len(state.board.time_spaces) - 1, "time_out"
    cons.append(C("nobody-left", "Nobody is left in the base: the time token jumps to "
                  f"{state.board.time_label(target)} and the game ends ({ending.replace('_', ' ')}).",
                  ending=ending, to=state.board.time_label(target)))
    state = replace_in(state, "clock", time=max(state.clock.time, target))
    return end_game(state, ending, cons, reason="no_characters_left")


def end_game(state: LockdownState, ending: str, cons: list[Consequence], reason: str | None = None) -> LockdownState:
    """End-of-game effects (lockdown.md §11.5; FAQ: an alarm end with self-destruct active destroys the base)."""
    if state.end.ended:
        return state
    if ending in ("alarm_procedure", "time_out") and state.systems.self_destruct is not None and \
            state.systems.self_destruct[0] == "red" and ending == "alarm_procedure":
        ending = "base_destroyed"
    destroyed = ending == "base_destroyed"
    for seat in state.seats:
        c = state.crew.characters[seat]
        if not c.character:
            continue
        if c.status in (IN_BASE, IN_POD) or (destroyed and c.status == LOCKED_IN):
            why = "the base explodes" if destroyed else "the rapid response team purges the base"
            cons.append(C("end-death", f"{who(state, seat)} dies at the end: {why}.", seat=seat))
            state = die(state, seat, ending, cons, end_effect=True)
    if destroyed:
        if state.colony.intruders:
            cons.append(C("stalkers-die", f"All {len(state.colony.intruders)} night stalkers on the board die.",
                          count=len(state.colony.intruders)))
        state = replace_in(state, "colony", intruders=(), queen_killed=True)
    final = reason or ending
    cons.append(C("game-ended", f"The game ends ({final.replace('_', ' ')}).", ending=final, effects=ending))
    return replace_in(replace_in(state, "end", ended=True, ending=final, end_effects=ending), "clock", phase=ENDED,
                      pending=(), turn=None)


def survivors(state: LockdownState) -> tuple[int, ...]:
    return tuple(s for s in state.seats if state.crew.characters[s].status in (LOCKED_IN, IN_BUNKER, EVACUATED))


# --- small effects several concepts share ---------------------------------------------------------------

def add_noise(state: LockdownState, key: str, place: str, cons: list[Consequence]) -> LockdownState:
    n = state.board.number_at(key, place)
    where = ("the technical corridors space" if key == TECHNICAL else f"area {key.rpartition('-')[2]}" if is_area(key)
             else f"corridor {n} of {state.room_label(place)}")
    cons.append(C("noise-placed", f"Noise marker placed in {where}.", corridor=key, room=place, number=n))
    return replace_in(state, "ship", noise=state.ship.noise | {key})


def nest_check(state: LockdownState, cons: list[Consequence]) -> LockdownState:
    if state.colony.eggs == 0 and not state.colony.nest_destroyed:
        cons.append(C("nest-destroyed", "No eggs are left in the Nest: the Nest is destroyed.",
                      milestone="nest_destroyed"))
        return replace_in(state, "colony", nest_destroyed=True)
    return state


def start_self_destruct(state: LockdownState, cons: list[Consequence]) -> LockdownState:
    at = min(state.clock.time + 3, len(state.board.time_spaces) - 1)
    cons.append(C("self-destruct", f"Self-destruct countdown: the yellow token goes on "
                  f"{state.board.time_label(at)}.", space=state.board.time_label(at)))
    return replace_in(state, "systems", self_destruct=("yellow", at))


# --- the item decks (decision 0037): shared by items and the action cards paid with an item -------------

DECK_COLOURS = ("red", "yellow", "green")


def item_deck(state: LockdownState, colour: str) -> ItemDeck:
    """The table's knowledge of ``colour``'s item deck (empty until the deck is touched; decision 0037)."""
    return state.decks.item_decks.get(colour) or ItemDeck()


def with_deck(state: LockdownState, colour: str, deck: ItemDeck) -> LockdownState:
    decks = state.decks.item_decks.copy()  # a read-only view's copy(): 5-10x dict() or {**…} (decision 0049)
    decks[colour] = deck
    return replace_in(state, "decks", item_decks=MappingProxyType(decks))


def to_bottom(state: LockdownState, colour: str | None, name: str | None, cons: list[Consequence],
              why: str) -> LockdownState:
    """A card goes face down to the bottom of its deck (seed 000 L3593–3595, L3686–3687)."""
    if colour not in DECK_COLOURS:
        return state  # crafted (blue), starting and quest items: no deck tracked
    d = item_deck(state, colour)
    shown = name if name is not None else "a card"
    cons.append(C("item-to-deck-bottom", f"{shown} ({why}) goes to the bottom of the {colour} item deck.",
                  colour=colour, item=name))
    return with_deck(state, colour, replace(d, cards=d.cards + 1, bottom=d.bottom + (name,)))


def to_discard(state: LockdownState, colour: str | None, name: str | None, cons: list[Consequence]) -> LockdownState:
    """A card used up goes face up to its discard pile (seed 000 L3591–3593, L3668–3669)."""
    if colour not in DECK_COLOURS:
        return state
    d = item_deck(state, colour)
    cons.append(C("item-to-discard-pile", f"{name} goes to the {colour} discard pile.", colour=colour, item=name))
    return with_deck(state, colour, replace(d, discard=d.discard + (name,)))


def drop_item(state: LockdownState, seat: int, name: str) -> tuple[LockdownState, Item | str | None]:
    """The seat's item or heavy object named ``name`` leaves its hands or backpack: (new state, what left, or None
    when it held no such thing). Items and the action cards that discard an item share it."""
    c = state.crew.characters[seat]
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


def act(state: LockdownState, fact: Fact, cost: int) -> LockdownState:
    """An action: pay its cost and count it (lockdown.md §5.1)."""
    return count_action(pay(state, fact.actor, cost), fact.actor)


# --- a round begins (after setup and after every event phase) ------------------------------------

def hand_target(state: LockdownState, seat: int) -> int:
    c = state.crew.characters[seat]
    room = state.ship.rooms.get(c.room) if c.room else None
    if room is not None and room.tile == "isolation_room" and not room.malfunction:
        return HAND_SIZE + 1
    return HAND_SIZE


def refill_hands(state: LockdownState, cons: list[Consequence]) -> LockdownState:
    """Every character in the base draws up to its hand size; passing, actions and moves start afresh (a round
    begins: after setup and after every event phase)."""
    state = revive(state, cons)
    for seat in state.player_order():
        c = state.crew.characters[seat]
        if c.status != IN_BASE:
            state = with_character(state, seat, passed=True, actions=0, fire_hurt=False)
            continue
        target = hand_target(state, seat)
        state = draw(state, seat, max(0, target - c.hand), cons)
        hand = state.crew.characters[seat].hand
        state = with_character(state, seat, passed=False, actions=0, fire_hurt=False, first_turn_done=False, moves=0)
        extra = " (Isolation Room)" if target > HAND_SIZE else ""
        cons.append(C("cards-drawn", f"{who(state, seat)} draws {hand - c.hand} card{'s' if hand - c.hand != 1 else ''}"
                      f" up to {target}{extra}" + ("" if hand >= target else f" (only {hand}: deck and discard "
                                                   f"are empty)") + ".", seat=seat, drawn=hand - c.hand, hand=hand))
    return state


def revive(state: LockdownState, cons: list[Consequence]) -> LockdownState:
    """Co-op AutoDoc: a corpse in a working Emergency Room revives at the start of a round (lockdown.md §12.3)."""
    if state.setup.mode != "coop" or state.clock.round <= 1:
        return state
    er = state.room_of_tile("emergency_room")
    if er is None or not state.ship.rooms[er].explored or state.ship.rooms[er].malfunction or state.intruders_in(er):
        return state
    for seat in state.seats:
        c = state.crew.characters[seat]
        corpse = f"corpse:{seat}"
        if c.status != DEAD:
            continue
        carrier = next((s for s in state.characters_in(er) if corpse in state.crew.characters[s].objects), None)
        if corpse in state.ship.objects.get(er, ()):
            state = take_object(state, er, corpse)
        elif carrier is not None:
            objs = list(state.crew.characters[carrier].objects)
            objs.remove(corpse)
            state = with_character(state, carrier, objects=tuple(objs))
        else:
            continue
        state = with_character(state, seat, status=IN_BASE, room=er, cause=None, was=None, light=0,
                               serious=tuple(SeriousWound(w.card, True) for w in c.serious))
        cons.append(C("revived", f"AutoDoc: {who(state, seat)} is revived in the Emergency Room (light wounds "
                      f"removed, serious wounds dressed).", seat=seat, room=er))
    return state


# --- an item comes to a character (items and the rooms that hand out items) ------------------------------

def add_item(state: LockdownState, seat: int, name: str, colour: str, where: str | None, ammo: int | None,
             cons: list[Consequence]) -> LockdownState:
    """``name`` comes to ``seat``'s hand (if one is free) or backpack, loaded as printed unless ``ammo`` says."""
    c = state.crew.characters[seat]
    where = where or "backpack"
    if ammo is None:  # a weapon arrives loaded with its printed starting ammo (seed 000 L3632–3636)
        printed = item_ammo(name)
        ammo = printed[0] if printed else None
    if where == "hand" and c.hands_used >= 2:
        cons.append(C("hands-full", f"Both hands of {who(state, seat)} are full: {name} goes to the backpack."))
        where = "backpack"
    cons.append(C("item", f"{who(state, seat)} takes {name} ({where}).", seat=seat, item=name))
    items = c.items + (Item(name, colour, where, ammo),)
    del c  # as in pay
    return with_character(state, seat, items=items)
