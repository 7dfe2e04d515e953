"""Rule checks of the concepts not yet in a module of their own: action cards, room actions, the computer, the
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
    combat, condition, endgame, hidden_information, items, movement, rooms, sections as S, systems,
)
from service.rules.lockdown.items import ITEMS_ON_OTHERS  # noqa: F401 (old path: checks_play.ITEMS_ON_OTHERS)
from service.rules.lockdown.rooms import ROOM_CHECKS  # noqa: F401 (old path: checks_play.ROOM_CHECKS)
from service.rules.lockdown.components import ACTION_CARDS, ROOMS
from service.rules.lockdown.facts import resolve_place
from service.rules.lockdown.state import IN_BASE, LockdownState, who
from service.rules.lockdown.turns import action_check, in_game


V = violation  # the kit's builder, short for the many rules below



# --- knowledge ------------------------------------------------------------------------------------

# --- items and cards ------------------------------------------------------------------------------

# Action cards whose printed symbols the sources give (lockdown.md §5.3). Others are not checked.
KNOWN_ACTION_CARDS = {  # normalised name → (out of combat only, printed cost or None, needs a computer room)
    "thorough cleaning": (True, 0, False),  # Janitor, "Gruntowne sprzątanie" (seed 000 L2022–2056)
    "gruntowne sprzątanie": (True, 0, False),
    # Sentry: a room with a computer (no malfunction), power NOT needed (faq_lockdown.md 9); cost not in the sources
    "quarantine": (False, None, True),
    "kwarantanna": (False, None, True),
}


def _card_keys(value) -> list[str]:
    """The normalised names a recorded card goes by: as typed, then every name of the listed card it names
    (id, English, Polish, aliases: data/action_cards.json), so the picker's value and a typed name check alike."""
    def norm(text):
        return " ".join(str(text).replace("_", " ").split()).casefold()
    card = ACTION_CARDS.resolve(value)
    names = [value] + ([card.id, card.en, card.pl, *card.aliases] if card is not None else [])
    return list(dict.fromkeys(norm(n) for n in names if n))


def _known_card(state, fact) -> list[Violation]:
    rule = next((KNOWN_ACTION_CARDS[k] for k in _card_keys(fact.data["card"]) if k in KNOWN_ACTION_CARDS), None)
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
        r = state.rooms[state.characters[fact.actor].room]
        room = ROOMS[r.tile] if r.tile else None
        if room is None or room.computer is False or (room.computer is None and state.board.synthetic):
            out.append(V("card-needs-computer", f"{fact.data['card']} is played in a room with a computer.",
                         S.COMPUTER, "card"))
        elif r.malfunction:
            out.append(V("computer-malfunction", "A malfunction disables the room's computer (it counts as absent).",
                         S.MALFUNCTION, "card"))
    return out


def _card_played(state, fact):
    if fact.data.get("reaction"):
        out = in_game(state, fact.actor, S.ACTION_CARDS)
        if not out and state.characters[fact.actor].hand < 1 + (fact.data.get("cost") or 0):
            out.append(V("not-enough-cards", "Not enough cards for this card and its cost.", S.ACTION_CARDS))
        return out or _known_card(state, fact) or _card_move(state, fact)
    return action_check(state, fact) or _known_card(state, fact) or _card_move(state, fact)


# Action cards that move a character (faq_lockdown.md 28, PL erratum of the Survivor's card): discard 1 Item card;
# move yourself, or a chosen character from your room who agrees, to 1 adjacent room without a night stalker
# attack. "Covering Fire" is only a literal translation (the EN name is not in the sources).
CARD_MOVES = {"ogień osłonowy": "survivor", "covering fire": "survivor"}  # normalised name → the card's owner
CARD_MOVE_FIELDS = ("item", "character", "to_room", "corridor", "agreed")


def _card_move(state, fact) -> list[Violation]:
    d = fact.data
    key = next((k for k in _card_keys(d["card"]) if k in CARD_MOVES), None)
    if key is None:
        extra = [f for f in CARD_MOVE_FIELDS if d.get(f) is not None]
        if extra:
            return [V("card-move-not-modelled", f"{d['card']} is not a card known to move a character; record its "
                      f"effect with the facts that follow (fields {', '.join(extra)} are only for Ogień osłonowy).",
                      S.CARD_MOVE, extra[0])]
        return []
    out = []
    seat = fact.actor
    c = state.characters[seat]
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
    m = state.characters[moved]
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
        elif key_ in state.doors:
            out.append(V("closed-door", "Closed doors block movement.", S.DOORS, "corridor"))
    elif b.corridor_key(dest, d["corridor"]) in state.doors:  # no graph: the door's key is the move's key
        out.append(V("closed-door", "Closed doors block movement.", S.DOORS, "corridor"))
    return out


# --- objectives, contingency, lab ------------------------------------------------------------------

RULES: dict[str, Callable[[LockdownState, Fact], list[Violation]]] = {
    **condition.RULES,  # wounds, contamination, slime, death (decision 0029)
    "IntruderPlaced": combat.check_intruder_placed,
    "CharacterMovedByEffect": movement.check_moved_by_effect,
    "IntruderAttacked": combat.check_attacked, "CharacterShot": combat.check_shot, "MeleeAttacked": combat.check_melee,
    "InjuryCheckDrawn": combat.check_injury_check, "IntruderRetreated": combat.check_retreated,
    "ActionCardPlayed": _card_played,
    **items.RULES,  # items and crafting (decision 0037)
    "FireRemoved": systems.check_fire_removed, "MalfunctionPlaced": systems.check_malfunction,
    "MalfunctionRemoved": systems.check_malfunction_removed, "DoorChanged": systems.check_door,
    "NoiseMarkerPlaced": movement.check_noise_placed, "NoiseMarkerRemoved": movement.check_noise_removed,
    "SelfDestructStarted": systems.check_self_destruct,
    **hidden_information.RULES,  # objectives and contingency tokens (decision 0029)
    **endgame.RULES,  # the final scan (decision 0029)
    **rooms.RULES,  # room and computer actions, knowledge, weaknesses (decision 0029)
}
