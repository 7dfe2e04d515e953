"""Turns and actions: what an action is, what it costs, whether it is this character's turn to take one, and
whether the character is still in the game at all; and the concept's fact types — the first player token passed
on, a pass, an action card played, another character's action interrupted —, each declared here once (``FACT_TYPES``): its spec, its check, its effect.
Their offers are still listed with the turn's and the table effects' (``inputs``, ``inputs_play``), in the order
the seeded generator depends on. Decision 0029.

    >>> from service.rules.base import Fact
    >>> action_cost(Fact(1, "CharacterMovedCarefully", {}, 1)), "Passed" in ACTIONS
    (2, True)
    >>> [t.spec.type for t in FACT_TYPES]
    ['FirstPlayerPassed', 'Passed', 'ActionCardPlayed', 'ActionInterrupted']
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.rules.base import Consequence, Expected, Fact, Violation
from service.rules.kit.builders import consequence as C, violation as V
from service.rules.kit.facts import FactSpec, FactType, field_spec as _f
from service.rules.kit.replace import copied, replace, replace_in
from service.rules.lockdown import mechanics as M, sections as S
from service.rules.lockdown.components import ACTION_CARDS, ROOMS
from service.rules.lockdown.offers import offer
from service.rules.lockdown.state import (
    COLONY_STEP, CSS, EVENT, EVENT_CARD, FIRST_PLAYER, IN_BASE, IN_POD, NOISE_CLEANUP, PLAYER, SETUP, TIME, TURNS,
    Item, LockdownState, who, with_character,
)
from service.rules.lockdown.values import resolve_place

ACTIONS = ("CharacterMoved", "CharacterMovedCarefully", "Passed", "CharacterShot", "MeleeAttacked",
           "ActionCardPlayed", "RoomSearched", "ItemCrafted", "ItemUsed", "ItemsTraded", "HeavyObjectPickedUp",
           "RoomActionUsed", "ComputerActionUsed")
MOVE_COST = {"CharacterMoved": 1, "CharacterMovedCarefully": 2}  # gaps_filled.md §2
BASIC_COST = {"CharacterShot": 1, "MeleeAttacked": 1, "ItemCrafted": 1, "ItemsTraded": 1, "HeavyObjectPickedUp": 1,
              "ComputerActionUsed": 1}  # gaps_filled.md §2
# action cards paid per room action, from rooms.json (gaps_filled.md §2: 2, the elevator 1)
ROOM_ACTION_COST = {a["id"]: a["cost"] for room in ROOMS for a in room.extra.get("actions", ())}
# an action as messages name it
ACTION_WORDS = {"CharacterMoved": "move", "CharacterMovedCarefully": "careful move", "Passed": "pass",
                "CharacterShot": "shot", "MeleeAttacked": "melee attack", "ActionCardPlayed": "action card",
                "RoomSearched": "search", "ItemCrafted": "craft", "ItemUsed": "item use", "ItemsTraded": "trade",
                "HeavyObjectPickedUp": "pick-up", "RoomActionUsed": "room action",
                "ComputerActionUsed": "computer action"}
# the event phase's steps as messages name them
STEP_NAMES = {CSS: "the CSS pod launch (CssTokenRevealed)", TIME: "the time track (TimeAdvanced)",
              NOISE_CLEANUP: "noise marker removal (NoiseMarkersCleared)",
              EVENT_CARD: "the event card (EventCardDrawn)", COLONY_STEP: "the colony draw (ColonyTokenDrawn)"}


def action_cost(fact: Fact) -> int:
    """Cards an action costs (lockdown.md §5.1; gaps_filled.md §2)."""
    t = fact.type
    if t in MOVE_COST:
        return MOVE_COST[t]
    if t in BASIC_COST:
        return BASIC_COST[t]
    if t == "RoomActionUsed":
        return ROOM_ACTION_COST.get(fact.data.get("action"), 2)
    if t in ("ActionCardPlayed", "RoomSearched"):
        return 1 + (fact.data.get("cost") or 0)
    if t == "ItemUsed":
        return fact.data.get("cost") or 0
    return 0


def turn_check(state: LockdownState, fact: Fact) -> list[Violation]:
    seat = fact.actor
    verb = {"Passed": "pass", "CharacterMoved": "move", "CharacterMovedCarefully": "move carefully"}.get(
        fact.type, "act")
    if state.clock.phase == EVENT:
        return [V("wrong-phase", f"{who(state, seat)} cannot {verb} during the event phase: actions are taken only "
                  f"in the player phase. The event phase is at {STEP_NAMES.get(state.clock.step, state.clock.step)}.",
                  S.EVENT_PHASE)]
    if state.clock.step == FIRST_PLAYER:
        return [V("first-player-pending", f"The round has just begun: record FirstPlayerPassed (seat "
                  f"{state.clock.first_player} passes the token to seat {state.next_first_player()}) before any "
                  f"action.", S.FIRST_PLAYER)]
    c = state.crew.characters[seat]
    placeless = fact.type in MOVE_COST or fact.type == "Passed"  # need no room to act in
    if c.status == "base" and c.room is None and c.character and not placeless:
        # decision 0018: its room was recorded as unknown; a move to a known room puts it back on the board
        return [V("room-unknown", f"{who(state, seat)}'s room is not recorded: the action counts, but what it does "
                  f"there cannot be derived (record a move to a known room first).", S.TURNS)]
    if c.status != "base" or (c.room is None and not (c.character and placeless)):
        where = {"dead": "is dead", "pod": "sits in a CSS pod", "isolation": "is locked in the Isolation Room",
                 "bunker": "escaped to the Bunker", "evacuated": "was evacuated"}.get(c.status, "is not on the board")
        return [V("character-out-of-play", f"{who(state, seat)} {where} and takes no more actions.", S.DEATH)]
    if c.passed:
        return [V("acting-after-passing", f"{who(state, seat)} has already passed this round and cannot take more "
                  f"actions until the next round.", S.PASS)]
    if seat != state.clock.turn:
        prev = state.clock.last_turn
        if prev == seat and state.clock.turn is not None and state.crew.characters[state.clock.turn].actions == 0:
            return [V("third-action", f"{who(state, seat)} already took 2 actions this turn; it is now "
                      f"{who(state, state.clock.turn)}'s turn.", S.TURNS)]
        return [V("out-of-turn", f"It is {who(state, state.clock.turn)}'s turn, not {who(state, seat)}'s.", S.TURNS)]
    if c.actions >= 2:
        return [V("third-action", f"{who(state, seat)} already took 2 actions this turn; a turn has at most 2 "
                  f"actions (the second may be a pass).", S.TURNS)]
    return []


def in_game(state: LockdownState, seat: int, section: str = S.DEATH) -> list[Violation]:
    """A violation unless ``seat``'s character is still in the game (in the base, or sitting in a pod)."""
    c = state.crew.characters[seat]
    if state.clock.phase == SETUP:
        return []
    if c.status not in (IN_BASE, IN_POD):
        return [V("character-out-of-play", f"{who(state, seat)} is no longer in the game ({c.status}).", section)]
    return []


def action_check(state: LockdownState, fact: Fact) -> list[Violation]:
    """An action in its turn that the actor can pay for (lockdown.md §5.1)."""
    out = turn_check(state, fact)
    if out:
        return out
    c = state.crew.characters[fact.actor]
    cost = action_cost(fact)
    if c.hand < cost:
        out.append(V("not-enough-cards", f"{fact.type} costs {cost} card{'s' if cost != 1 else ''}, but "
                     f"{who(state, fact.actor)} holds {c.hand}.", S.ACTION_CARDS))
    return out


# --- the first player token and the pass -------------------------------------------------------------------

def check_first_player_passed(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.clock.phase == PLAYER and state.clock.round == 1:
        return [V("first-player-round-1", "The first player token does not move in round 1; start with the first "
                  "player's turn instead.", S.FIRST_PLAYER)]
    if state.clock.phase != PLAYER or state.clock.step != FIRST_PLAYER:
        return [V("first-player-not-now", "The first player token passes only at the start of a round, after the "
                  "cards are drawn.", S.FIRST_PLAYER)]
    out = []
    if fact.actor != state.clock.first_player:
        out.append(V("not-first-player",
                     f"Only seat {state.clock.first_player}, who holds the first player token, passes "
                     f"it on (not seat {fact.actor}).", S.FIRST_PLAYER, "actor"))
    to = fact.data.get("to")
    left = state.next_first_player()
    # the plain left neighbour stays accepted: facts stored before observers were skipped named it
    if to is not None and to not in (left, state.left_of(state.clock.first_player)):
        out.append(V("first-player-wrong-seat", f"The token goes to the next player on the left still in the "
                     f"game: seat {left}, not seat {to}.", S.FIRST_PLAYER, "to"))
    return out


def check_passed(state: LockdownState, fact: Fact) -> list[Violation]:
    out = turn_check(state, fact)
    d = fact.data.get("discarded") or 0  # null means not given, like an absent field
    if not out and d > state.crew.characters[fact.actor].hand:
        out.append(V("discard-too-many", f"{who(state, fact.actor)} has only {state.crew.characters[fact.actor].hand} "
                     f"cards in hand and cannot discard {d}.", S.PASS, "discarded"))
    return out


def first_player_passed(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    to = fact.data.get("to") or state.next_first_player()
    cons.append(C("first-player", f"The first player token passes to {who(state, to)}, who starts.", seat=to))
    return replace_in(state, "clock", first_player=to, turn=to, step=TURNS, last_turn=None)


def passed(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    seat = fact.actor
    d = fact.data.get("discarded", 0) or 0
    # M.count_action, M.pay and the pass in one change of the character (decision 0049)
    c = state.crew.characters[seat]
    paid = max(0, min(d, c.hand))
    changes = {"hand": c.hand - paid, "discard": c.discard + paid} if paid else {}
    if seat == state.clock.turn and state.clock.phase == PLAYER:
        changes["actions"] = c.actions + 1
    changes["passed"] = True
    del c
    state = with_character(state, seat, **changes)
    cons.append(C("passed", f"{who(state, seat)} passes" + (f" and discards {d} card{'s' if d != 1 else ''}."
                                                                if d else "."), seat=seat, discarded=d))
    return state


# --- action cards ------------------------------------------------------------------------------------------

# Action cards whose printed symbols the sources give (lockdown.md §5.3). Others are not checked.
KNOWN_ACTION_CARDS = {  # normalised name → (out of combat only, printed cost or None, needs a computer room)
    "thorough cleaning": (True, 0, False),  # Janitor, "Gruntowne sprzątanie" (seed 000 L2022–2056)
    "gruntowne sprzątanie": (True, 0, False),
    # Sentry: a room with a computer (no malfunction), power NOT needed (faq_lockdown.md 9); cost not in the sources
    "quarantine": (False, None, True),
    "kwarantanna": (False, None, True),
}
# Action cards that move a character (faq_lockdown.md 28, PL erratum of the Survivor's card): discard 1 Item card;
# move yourself, or a chosen character from your room who agrees, to 1 adjacent room without a night stalker
# attack. "Covering Fire" is only a literal translation (the EN name is not in the sources).
CARD_MOVES = {"ogień osłonowy": "survivor", "covering fire": "survivor"}  # normalised name → the card's owner
CARD_MOVE_FIELDS = ("item", "character", "to_room", "corridor", "agreed")


def card_keys(value) -> list[str]:
    """The normalised names a recorded card goes by: as typed, then every name of the listed card it names
    (id, English, Polish, aliases: data/action_cards.json), so the picker's value and a typed name check alike."""
    def norm(text):
        return " ".join(str(text).replace("_", " ").split()).casefold()
    card = ACTION_CARDS.resolve(value)
    names = [value] + ([card.id, card.en, card.pl, *card.aliases] if card is not None else [])
    return list(dict.fromkeys(norm(n) for n in names if n))


def _known_card(state, fact) -> list[Violation]:
    rule = next((KNOWN_ACTION_CARDS[k] for k in card_keys(fact.data["card"]) if k in KNOWN_ACTION_CARDS), None)
    if rule is None:
        return []
    out_of_combat, cost, computer = rule
    out = []
    if out_of_combat and state.in_combat(fact.actor):
        out.append(V("card-out-of-combat", f"{fact.data['card']} shows the 'out of combat only' symbol; "
                     f"{who(state, fact.actor)} is in combat.", S.ACTION_CARDS, "card"))
    if cost is not None and (fact.data.get("cost") or 0) != cost:
        out.append(V("card-cost", f"{fact.data['card']} costs {cost} card(s) besides itself.", S.ACTION_CARDS,
                     "cost"))
    if computer:
        r = state.ship.rooms[state.crew.characters[fact.actor].room]
        room = ROOMS[r.tile] if r.tile else None
        if room is None or room.computer is False or (room.computer is None and state.board.synthetic):
            out.append(V("card-needs-computer", f"{fact.data['card']} is played in a room with a computer.",
                         S.COMPUTER, "card"))
        elif r.malfunction:
            out.append(V("computer-malfunction", "A malfunction disables the room's computer (it counts as absent).",
                         S.MALFUNCTION, "card"))
    return out


def check_card_played(state: LockdownState, fact: Fact) -> list[Violation]:
    if fact.data.get("reaction"):
        out = in_game(state, fact.actor, S.ACTION_CARDS)
        if not out and state.crew.characters[fact.actor].hand < 1 + (fact.data.get("cost") or 0):
            out.append(V("not-enough-cards", "Not enough cards for this card and its cost.", S.ACTION_CARDS))
        return out or _known_card(state, fact) or _check_card_move(state, fact)
    return action_check(state, fact) or _known_card(state, fact) or _check_card_move(state, fact)


def _check_card_move(state, fact) -> list[Violation]:
    d = fact.data
    key = next((k for k in card_keys(d["card"]) if k in CARD_MOVES), None)
    if key is None:
        extra = [f for f in CARD_MOVE_FIELDS if d.get(f) is not None]
        if extra:
            return [V("card-move-not-modelled", f"{d['card']} is not a card known to move a character; record its "
                      f"effect with the facts that follow (fields {', '.join(extra)} are only for Ogień osłonowy).",
                      S.CARD_MOVE, extra[0])]
        return []
    out = []
    seat = fact.actor
    c = state.crew.characters[seat]
    if c.character != CARD_MOVES[key]:
        out.append(V("card-of-another-character", f"{d['card']} is the Survivor's action card.", S.CARD_MOVE, "card"))
    if not d.get("item"):
        out.append(V("card-item-cost", f"{d['card']} costs 1 of your Item cards: name it in 'item'.", S.CARD_MOVE,
                     "item"))
    elif not any(i.name.casefold() == d["item"].casefold() for i in c.items):
        out.append(V("missing-item", f"{who(state, seat)} holds no Item card {d['item']} to discard.", S.CARD_MOVE,
                     "item"))
    if d.get("to_room") is None or d.get("corridor") is None:
        return out + [V("card-move-missing", f"{d['card']} moves a character: record 'to_room' and 'corridor'.",
                        S.CARD_MOVE, "to_room")]
    moved = d.get("character") or seat
    m = state.crew.characters[moved]
    if m.status != IN_BASE or m.room != c.room:
        return out + [V("card-move-not-here", f"{who(state, moved)} is not in {who(state, seat)}'s room.",
                        S.CARD_MOVE, "character")]
    if moved != seat and not d.get("agreed"):
        out.append(V("card-move-consent", f"{who(state, moved)} must agree to be moved by {d['card']} "
                     f"(record agreed: true).", S.CARD_MOVE, "agreed"))
    dest = resolve_place(state, d["to_room"])
    b = state.board
    if dest == c.room:
        out.append(V("same-room", "The card moves the character to an adjacent room.", S.CARD_MOVE, "to_room"))
    elif b.has_graph:
        key_ = b.entry(c.room, dest, d["corridor"])
        if dest not in b.adjacent(c.room) or key_ is None:
            out.append(V("not-adjacent", f"No corridor {d['corridor']} leads from {state.room_label(c.room)} to "
                         f"{state.room_label(dest)}.", S.MOVE, "to_room"))
        elif key_ in state.ship.doors:
            out.append(V("closed-door", "Closed doors block movement.", S.DOORS, "corridor"))
    elif b.corridor_key(dest, d["corridor"]) in state.ship.doors:  # no graph: the door's key is the move's key
        out.append(V("closed-door", "Closed doors block movement.", S.DOORS, "corridor"))
    return out


def card_played(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
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
    if d.get("item"):  # paid, not used: face down to the bottom of its deck (seed 000 L3593–3595)
        state, thing = M.drop_item(state, seat, d["item"])
        cons.append(C("item-discarded", f"{who(state, seat)} discards {d['item']} for {d['card']}.", seat=seat,
                      item=d["item"]))
        if isinstance(thing, Item):
            state = M.to_bottom(state, thing.colour, thing.name, cons, f"paid for {d['card']}")
    moved = d.get("character") or seat
    origin = state.crew.characters[moved].room
    dest = resolve_place(state, d["to_room"])
    key = M.entry_key(state, origin, dest, d["corridor"])
    occupied = M.occupied(state, dest, moved)
    state = with_character(state, moved, room=dest)
    cons.append(C("card-move", f"{d['card']}: {who(state, moved)} goes from {state.room_label(origin)} to "
                    f"{state.room_label(dest)} without a night stalker attack.", seat=moved, from_room=origin,
                    to_room=dest, corridor=key))
    M.combat_notice(state, moved, dest, cons)
    return M.entered(state, moved, dest, key, occupied, cons)


# --- interrupting another character's action (decision 0038) -------------------------------------------------

# the actions an Interruption may cancel: every action but the pass (it does nothing to cancel); a reaction card, a
# free item use and the Repository's free craft are no actions (seed 001 L2162; faq_lockdown.md 15), and "what is
# not an action cannot be interrupted" (seed 004 L353–354)
INTERRUPTIBLE = frozenset(ACTIONS) - {"Passed"}
INTERRUPTION = "interruption"  # data/action_cards.json: Interruption / Przeszkodzenie


@dataclass(frozen=True, eq=True)
class Undo:
    """The action just recorded, which an Interruption may still cancel: the fact, and the state before it (whose
    own ``interruptible`` is None, so no chain of states builds up). A state's snapshot shows only who acted and
    how (``__snapshot__``): the state before is the previous step's, already in the record."""

    fact: Fact
    before: Any

    def __snapshot__(self) -> dict[str, Any]:
        return {"seat": self.fact.actor, "type": self.fact.type}


def is_action(fact: Fact) -> bool:
    """Is this fact an action in its actor's turn (one an Interruption may cancel)?"""
    d = fact.data
    if fact.type not in INTERRUPTIBLE or fact.actor is None:
        return False
    if fact.type == "ActionCardPlayed" and d.get("reaction"):
        return False
    if fact.type == "ItemUsed" and not d.get("cost"):
        return False
    return not (fact.type == "ItemCrafted" and d.get("free"))


def undo_of(before: LockdownState, fact: Fact) -> Undo | None:
    """What ``interruptible`` becomes after ``fact`` is applied to ``before``: the fact when it is an action in the
    player phase (an Interruption may follow it at once), None after anything else."""
    if fact.type not in INTERRUPTIBLE or before.clock.phase != PLAYER or not is_action(fact):  # the type first: one
        return None  # set lookup answers most facts (decision 0048)
    # the fact without its number: a game renumbered (a trip through the notation) folds to an equal state. Both
    # objects are made as replay._step makes a step, their fields' dict set at once instead of a frozen __init__'s
    # object.__setattr__ per field (decision 0048): the same objects, equal to Undo(Fact(0, …), …)
    bare = _new(Fact)
    _set_dict(bare, "__dict__", {"seq": 0, "type": fact.type, "data": fact.data, "actor": fact.actor,
                                 "visibility": "public"})
    undo = _new(Undo)
    _set_dict(undo, "__dict__", {
        "fact": bare, "before": copied(before, interruptible=None) if before.interruptible is not None else before})
    return undo


_new, _set_dict = object.__new__, object.__setattr__


def paid_for(fact: Fact) -> int:
    """Cards an action costs as recorded: ``action_cost`` plus a move's Knee surcharge (the cost is paid even when
    the action is interrupted: seed 000 L1925–1926)."""
    return action_cost(fact) + (fact.data.get("surcharge") or 0 if fact.type in MOVE_COST else 0)


def first_player_offers(state: LockdownState) -> list[Expected]:
    """At a round's start: the first player token passes to the left (lockdown.md §4 step 2)."""
    to = state.next_first_player()
    skipped = to != state.left_of(state.clock.first_player)
    return [Expected("FirstPlayerPassed", state.clock.first_player, {"to": [to]},
                     "the first player token passes to the left" + (
                         " (skipping players whose characters left the game)" if skipped else ""))]


def action_card_offers(state: LockdownState, seat: int) -> list[Expected]:
    """In the own turn: an action card, its effect recorded by the facts that follow."""
    return [Expected("ActionCardPlayed", seat, {"card": None}, "play an action card (its effect follows as facts)")]


def pass_offers(state: LockdownState, seat: int) -> list[Expected]:
    """In the own turn: pass, discarding any number of cards (lockdown.md §5.1)."""
    return [Expected("Passed", seat, {"discarded": list(range(state.crew.characters[seat].hand + 1))},
                     f"{who(state, seat)} passes (counts as an action; no more actions this round)")]


def reaction_offers(state: LockdownState, seat: int, note: str) -> list[Expected]:
    """A table effect: a reaction card played out of turn by a character holding a card."""
    if state.crew.characters[seat].hand < 1:
        return []
    return [offer("ActionCardPlayed", seat, None, lambda: Expected(
        "ActionCardPlayed", seat, {"card": None, "reaction": [True]}, f"{note}: a reaction card, played out of turn"))]


def interrupt_offers(state: LockdownState, seats: list[int], note: str) -> list[Expected]:
    """The Interruptions that may be recorded now (table effects, ``inputs_play.table_effects``): one per seat in
    the acting character's room that holds a card, against the action just recorded."""
    u = state.interruptible
    if u is None:
        return []
    out = []
    card = ACTION_CARDS[INTERRUPTION].en
    what = ACTION_WORDS.get(u.fact.type, u.fact.type)
    for s in seats:
        data = {"card": card, "against": u.fact.actor, "cancels": u.fact.type}
        if not check_interrupted(state, Fact(0, "ActionInterrupted", data, s)):
            out.append(Expected("ActionInterrupted", s, {k: [v] for k, v in data.items()},
                                f"{note}: Interruption — cancels {who(state, u.fact.actor)}'s {what} (out of turn, "
                                f"also after passing)"))
    return out


def check_interrupted(state: LockdownState, fact: Fact) -> list[Violation]:
    d = fact.data
    seat = fact.actor
    out = in_game(state, seat, S.INTERRUPTION)  # a passed character still reacts (seed 001 L2150; rules-gaps)
    if out:
        return out
    c = state.crew.characters[seat]
    cost = 1 + (d.get("cost") or 0)
    if c.hand < cost:
        out.append(V("not-enough-cards", f"{d['card']} and its cost take {cost} card{'s' if cost != 1 else ''}, but "
                     f"{who(state, seat)} holds {c.hand}.", S.ACTION_CARDS))
    u = state.interruptible
    against, action = d["against"], d["cancels"]
    if against == seat:
        return out + [V("own-action", f"{who(state, seat)} cannot interrupt their own action: an Interruption "
                        f"cancels another player's action.", S.INTERRUPTION, "against")]
    if u is None or u.fact.actor != against or u.fact.type != action:
        now = (f" The action just recorded is {u.fact.type} by {who(state, u.fact.actor)}." if u is not None else
               " No action was just recorded.")
        return out + [V("nothing-to-interrupt", f"An Interruption cancels the action just recorded — the fact right "
                        f"before it —, not {action} by {who(state, against)}.{now}", S.INTERRUPTION, "cancels")]
    acting = u.before.crew.characters[against].room  # where the action was declared, before it did anything
    r = u.before.crew.characters[seat]
    if r.status != IN_BASE or acting is None or r.room != acting:
        where = state.room_label(acting) if acting else "an unknown room"
        out.append(V("interrupt-not-in-room", f"{who(state, seat)} is not in {who(state, against)}'s room ({where}): "
                     f"an Interruption cancels an action in the player's own room.", S.INTERRUPTION, "actor"))
    return out


def interrupted(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    """The cancelled action's effects are undone: the state is the one before it, except that its cost stays paid
    and it counts as an action of the turn, and an interrupted single-use item is discarded (seed 000
    L1925–1927). The reacting player discards the card and its cost; a reaction is no action (seed 001 L2162)."""
    d = fact.data
    seat = fact.actor
    u = state.interruptible
    cost = 1 + (d.get("cost") or 0)
    if u is not None and u.fact.actor == d["against"] and u.fact.type == d["cancels"]:
        acting = u.fact
        paid = min(paid_for(acting), u.before.crew.characters[acting.actor].hand)
        # as any action, it ends the Repository's shared craft (checks_play: "before the next action")
        state = copied(u.before, facts=state.facts, clock=copied(u.before.clock, free_crafts=()))
        state = M.act(state, acting, paid)
        what = ACTION_WORDS.get(acting.type, acting.type)
        cons.append(C("action-interrupted", f"{who(state, seat)} interrupts {who(state, acting.actor)}'s {what}: it "
                      f"has no effect, but its cost ({paid} card{'s' if paid != 1 else ''}) stays paid and it counts "
                      f"as an action.", seat=seat, against=acting.actor, action=acting.type, paid=paid))
        if acting.type == "ItemUsed" and acting.data.get("discarded"):
            state, thing = M.drop_item(state, acting.actor, acting.data["item"])
            cons.append(C("item-discarded", f"The interrupted single-use {acting.data['item']} is discarded all "
                          f"the same.", seat=acting.actor, item=acting.data["item"]))
            if isinstance(thing, Item):  # used up: its discard pile (seed 000 L3591–3593)
                state = M.to_discard(state, thing.colour, thing.name, cons)
    else:  # a lenient record: nothing to cancel, the card is still played
        cons.append(C("nothing-interrupted", f"{who(state, seat)} plays {d['card']}, but no action of "
                      f"{who(state, d['against'])} can be cancelled now.", seat=seat))
    state = M.pay(state, seat, cost)
    cons.append(C("card-played", f"{who(state, seat)} plays {d['card']} ({cost} card{'s' if cost != 1 else ''}), "
                  f"out of turn.", seat=seat, card=d["card"], cost=cost))
    return state


# --- the concept's fact types, declared once -----------------------------------------------------------------

_SPECS = (
    FactSpec("FirstPlayerPassed", "seat",
             "The first player token moved to the player on the left (every round but the first).",
             (_f("to", "seat", "the seat receiving the token (default: the next seat clockwise)", False),),
             {"to": 2}, S.FIRST_PLAYER),
    FactSpec("Passed", "seat",
             "The player passed (counts as an action); they take no more actions this round.",
             (_f("discarded", "count", "how many cards they discarded from hand when passing (default 0)", False),),
             {"discarded": 1}, S.PASS),
    FactSpec("ActionCardPlayed", "seat",
             "An action card was played: the card plus its cost in further cards are discarded. Its effect is "
             "recorded by the facts that follow. A reaction is played out of turn and is not an action.",
             (_f("card", "action_card", "the card: its id or name in either language (data/action_cards.json), or the "
                 "name of a card the sources do not list"),
              _f("cost", "count0", "cards paid besides the card itself (default 0)", False),
              _f("reaction", "bool", "an interrupt/reaction played outside the own turn", False),
              _f("note", "text", "the effect chosen (free text)", False),
              _f("item", "text", "a card that moves a character (only the Survivor's \"Ogień osłonowy\", PL "
                 "erratum; faq_lockdown.md 28): the Item card discarded as its cost", False),
              _f("character", "seat", "that card: the character moved — the player's own (default) or one in the "
                 "same room who agrees", False),
              _f("to_room", "room", "that card: the adjacent room the character is moved to (no night stalker "
                 "attack; exploration / noise roll as after a move)", False),
              _f("corridor", "move_corridor", "that card: the corridor used, as numbered at the room entered", False),
              _f("agreed", "bool", "that card: the moved character (when not the player's own) agrees to it", False)),
             {"card": "Clean Up", "cost": 0, "note": "fire removed"}, S.ACTION_CARDS),
    FactSpec("ActionInterrupted", "seat",
             "An Interruption (Przeszkodzenie) was played out of turn — also after passing — against another "
             "character's action just recorded, in that character's room: the action has no effect, but its cost "
             "stays paid, it counts as an action and an interrupted single-use item is discarded (seed 000 "
             "L1925–1927). The card plus its cost are discarded; a reaction is not an action.",
             (_f("card", "action_card", "the card played (default offer: Interruption / Przeszkodzenie)"),
              _f("against", "seat", "the seat whose action is cancelled: the one that recorded the fact right before"),
              _f("cancels", "text", "the cancelled action's fact type (e.g. RoomActionUsed): the fact right before"),
              _f("cost", "count0", "cards paid besides the card itself (default 0)", False)),
             {"card": "Interruption", "against": 1, "cancels": "RoomActionUsed"}, S.INTERRUPTION),
)
_CHECKS = (check_first_player_passed, check_passed, check_card_played, check_interrupted)
_EFFECTS = (first_player_passed, passed, card_played, interrupted)
FACT_TYPES: tuple[FactType, ...] = tuple(FactType(*t) for t in zip(_SPECS, _CHECKS, _EFFECTS))
SPECS = tuple(t.spec for t in FACT_TYPES)
RULES = {t.spec.type: t.check for t in FACT_TYPES}
EFFECTS = {t.spec.type: t.effect for t in FACT_TYPES}
