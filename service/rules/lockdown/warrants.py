"""Warrants (decision 0039): a fact the rules do not derive must be warranted by the state, or name what caused it.

Six fact types record an effect the table resolved rather than an action the engine checks step by step: a death,
knowledge, an item, the self-destruct, a night stalker placed, a time-out ending. ``warrant(state, fact)`` says
what in the state (before the fact) warrants one — a character on 3 serious wounds dying of wounds, a stalker in
the room, the event card just drawn, the time token at the end of the track … — or None. A fact that the state does
not warrant must name the card or effect that caused it in the field every fact type accepts, ``by``
(``kit.facts.CAUSE_FIELD``); otherwise ``check`` answers ``unwarranted`` (refused in strict games, stored flagged in
lenient ones).

The rule holds for a game whose setup option ``warrants`` is ``"required"`` — the default of a ``Setup`` given to
the ruleset, and what the store writes into every game it creates; a game stored before the option existed is read
as ``"unchecked"`` (``LOCKDOWN.legacy_options``), so it folds as before.

    >>> from service.rules.base import Fact
    >>> from service.rules.lockdown.fold import new_game
    >>> g = new_game(2, warrants="required")
    >>> [v.rule for v in g.check("KnowledgeGained", 1, amount=1)]
    ['unwarranted']
    >>> g.check("KnowledgeGained", 1, amount=1, by="Analyze Toolset")
    []
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from service.rules.base import Fact, Violation
from service.rules.kit.builders import violation
from service.rules.kit.catalogue import norm
from service.rules.lockdown import sections as S
from service.rules.lockdown.components import ACTION_CARDS, ATTACK_CARDS, EVENT_CARDS, ROOMS
from service.rules.lockdown.state import (
    COLONY_STEP, EVENT, IN_BASE, IN_POD, SETUP, LockdownState, who,
)

OPTION = "warrants"
REQUIRED, UNCHECKED = "required", "unchecked"
CHOICES = (REQUIRED, UNCHECKED)  # the default first (state.VARIANTS)
RULE = "unwarranted"
MAX_BY = 120  # characters: a card's name, never a story (a note says more)


def required(state: LockdownState) -> bool:
    """Does this game check warrants? (``options.warrants``; absent: required, decision 0039)"""
    return (state.setup.options or {}).get(OPTION, REQUIRED) == REQUIRED


# --- naming the cause: ``by`` ------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _item_catalogue() -> dict[str, str]:
    from service.rules.lockdown.catalog import items
    out = {}
    for it in items().values():
        for name in (it["id"], it.get("en"), it.get("pl")):
            if name:
                out[norm(name)] = it.get("en") or it["id"]
    return out


#: the catalogues a ``by`` may name with a prefix (``"event: Coolant Leak"``); a prefixed name must be in it
PREFIXES: dict[str, Callable[[str], bool]] = {
    "event": lambda n: EVENT_CARDS.resolve(n) is not None,
    "attack": lambda n: ATTACK_CARDS.resolve(n) is not None,
    "room": lambda n: ROOMS.resolve(n) is not None,
    "item": lambda n: norm(n) in _item_catalogue(),
}
_WHAT = {"event": "event card", "attack": "attack card", "room": "room", "item": "item"}
# action cards are named as far as the sources name them (data/action_cards.json): any name passes, as for
# ActionCardPlayed.card; so do Mars surface cards, contingency tokens, objectives and whatever the catalogue lacks


#: the named causes in the order a recorder offers them: (prefix, the component kind their names are shown by)
CAUSE_KINDS = (("event", "event_card"), ("attack", "attack_card"), ("room", "room"), ("item", "item"))


@lru_cache(maxsize=None)
def known_causes() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """Each prefix with the names its catalogue knows, in English as ``by`` records them (decision 0045).

    >>> [(prefix, len(names) > 5) for prefix, _kind, names in known_causes()]
    [('event', True), ('attack', True), ('room', True), ('item', True)]
    """
    catalogues = {"event": EVENT_CARDS, "attack": ATTACK_CARDS, "room": ROOMS}
    out = []
    for prefix, kind in CAUSE_KINDS:
        if prefix in catalogues:
            names = [c.en for c in catalogues[prefix]]
        else:  # item cards; a heavy object (an egg, a carcass) is no card
            from service.rules.lockdown.catalog import items
            names = [it.get("en") or it["id"] for it in items().values() if it["kind"] != "heavy_objects"]
        out.append((prefix, kind, tuple(dict.fromkeys(names))))  # two copies of a card: one name
    return tuple(out)


def by_problem(state: Any, value: Any) -> str | None:
    """The shape check of ``by``: text naming a card or effect; ``kind: name`` must name one the catalogue knows."""
    if not isinstance(value, str) or not value.strip():
        return "must name the card or effect that caused the fact (text)"
    if len(value) > MAX_BY:
        return f"must be a card's or an effect's name (at most {MAX_BY} characters; a note says more)"
    kind, name = split_cause(value)
    if kind and not PREFIXES[kind](name):
        return f"names an unknown {_WHAT[kind]} {name!r}"
    return None


def split_cause(value: str) -> tuple[str, str]:
    """``by`` as (the prefix naming its catalogue, ``""`` when it names none; the name).

    >>> split_cause("Event: Coolant Leak"), split_cause("a table rule"), split_cause("note: later")
    (('event', 'Coolant Leak'), ('', 'a table rule'), ('', 'note: later'))
    """
    kind, sep, name = value.partition(":")
    kind = kind.strip().casefold()
    return (kind, name.strip()) if sep and kind in PREFIXES else ("", value.strip())


def cause_name(value: str) -> str:
    """``by`` as the catalogue prints it, where it knows it (for the story and the flags)."""
    text = split_cause(value)[1]
    for cat in (EVENT_CARDS, ATTACK_CARDS, ACTION_CARDS, ROOMS):
        found = cat.resolve(text)
        if found is not None:
            return found.en
    return _item_catalogue().get(norm(text), text)


# --- what the state warrants, per fact type ---------------------------------------------------------------

def _here(state: LockdownState, seat: int | None):
    c = state.crew.characters.get(seat) if seat is not None else None
    return c, (c.room if c is not None and c.status == IN_BASE else None)


def _event_card_now(state: LockdownState) -> str | None:
    """The event card being resolved (event phase, drawn and not yet followed by the colony token): its effects
    may kill, place, start …"""
    if state.clock.phase == EVENT and state.clock.step == COLONY_STEP and state.decks.last_event_card:
        card = EVENT_CARDS.resolve(state.decks.last_event_card)
        return card.en if card is not None else state.decks.last_event_card
    return None


def _died(state: LockdownState, fact: Fact) -> str | None:
    """A death the rules did not derive (seed 000 L3329–3338; lockdown.md §8.6 'other death causes')."""
    c, room = _here(state, fact.actor)
    if c is None:
        return None
    cause = fact.data.get("cause")
    if cause == "wounds":
        if len(c.serious) >= 3:
            return f"{who(state, fact.actor)} has 3 serious wounds: any further wound kills (lockdown.md §8.5)"
        if room is not None and state.ship.rooms[room].fire:
            return "the character's room is on fire: its wounds may kill (lockdown.md §6.3)"
    if cause == "infection" and c.larva:
        return "a larva is on the character board: an INFECTED card kills (lockdown.md §8.6)"
    if cause == "attack":
        if room is not None and state.intruders_in(room):
            return f"a night stalker is in {state.room_label(room)} (lockdown.md §7)"
        if any(p.kind == "attack" and p.seat == fact.actor for p in state.clock.pending):
            return "an attack on the character is pending (lockdown.md §7)"
    if cause == "vent_out" and room is not None and state.ship.ventilation == room:
        return f"{state.room_label(room)} is being vented (lockdown.md §2.6.2, Vent Control Room)"
    if cause in ("time_out", "base_destroyed", "alarm_procedure") and state.end.end_effects:
        return f"the game's end ({state.end.end_effects.replace('_', ' ')}) is being resolved (lockdown.md §11)"
    if cause == "base_destroyed" and state.systems.self_destruct is not None and state.systems.self_destruct[0] == "red":
        return "the self-destruct token is red: the base will be destroyed (lockdown.md §6.9)"
    if cause == "alarm_procedure" and state.systems.alarm is not None:
        return "the alarm procedure is active (lockdown.md §2.6.3, Rapid Response Center)"
    if cause == "time_out" and _time_nearly_out(state):
        return "the time token is at the end of the time track (lockdown.md §11.5)"
    if cause == "event":
        card = _event_card_now(state)
        if card:
            return f"the event card {card} is being resolved (lockdown.md §6.6)"
    return None


def _time_nearly_out(state: LockdownState) -> bool:
    """The time token is on the last space, or on the one before it (its next step ends the game)."""
    return state.clock.time >= len(state.board.time_spaces) - 2


def _knowledge(state: LockdownState, fact: Fact) -> str | None:
    """Knowledge the rules do not derive: 'items/actions as stated' (lockdown.md §8.7, seed 000 L3356–3449); the
    Analyze Toolset (Narzędzia badawcze) gives +3 (lockdown.md §8.8)."""
    c, _room = _here(state, fact.actor)
    if c is None:
        return None
    if any(norm(i.name) in ("analyze toolset", "narzędzia badawcze", "research tools") for i in c.items):
        return "the character holds the Analyze Toolset (+3 knowledge, lockdown.md §8.8)"
    return None


def _item(state: LockdownState, fact: Fact) -> str | None:
    """An item outside Search/Craft/Trade: a starting item at setup (lockdown.md §3, seed 000 L1052–1100), a quest
    item, the items of a dead character in the room (lockdown.md §8.6: a corpse's items)."""
    c, room = _here(state, fact.actor)
    if state.clock.phase == SETUP:
        return "setup: the starting items are dealt (lockdown.md §3)"
    colour = fact.data.get("colour")
    if colour == "starting" and c is not None and not any(i.colour == "starting" for i in c.items):
        return "the character's starting item (lockdown.md §3)"
    if colour == "quest" and c is not None and c.objectives:
        return "a quest item of the character's objective (lockdown.md §10)"
    if room is not None and any(str(o).startswith("corpse") for o in state.ship.objects.get(room, ())):
        return f"a corpse lies in {state.room_label(room)}: its items may be taken (lockdown.md §8.6)"
    return None


def _self_destruct(state: LockdownState, fact: Fact) -> str | None:
    """The Cooling System's room action starts it (derived, RoomActionUsed); recorded, it is an event's effect
    (lockdown.md §6.6: 'malfunction, start self-destruct, else …', seed 000 L1369–1400)."""
    card = _event_card_now(state)
    if card:
        return f"the event card {card} is being resolved (lockdown.md §6.6)"
    return None


def _intruder_placed(state: LockdownState, fact: Fact) -> str | None:
    """A figure placed by the table: an encounter or noise being resolved, the event or colony step (lockdown.md
    §6.6–6.8, §7.1; seed 000 L2595–2615)."""
    if any(p.kind in ("encounter", "noise", "explore") for p in state.clock.pending):
        return "an encounter or noise roll is being resolved (lockdown.md §7.1)"
    card = _event_card_now(state)
    if card:
        return f"the event card {card} is being resolved (lockdown.md §6.6)"
    if state.clock.phase == EVENT and state.clock.step == COLONY_STEP:
        return "the colony step is being resolved (lockdown.md §6.8)"
    if any(c.larva for c in state.crew.characters.values() if c.status in (IN_BASE, IN_POD)):
        return "a character carries a larva: an INFECTED card makes a creeper appear (lockdown.md §8.6)"
    return None


def _ended(state: LockdownState, fact: Fact) -> str | None:
    """A time-out ending recorded (normally derived when the time token reaches the last space; lockdown.md §11.5,
    seed 000 L1603–1625). Other endings are not this rule's: abandoned and incomplete say the record stops."""
    if fact.data.get("ending") != "time_out":
        return ""  # not checked: '' warrants without a reason
    if _time_nearly_out(state):
        return "the time token is at the end of the time track (lockdown.md §11.5)"
    return None


#: fact type → (what warrants it, in words for the refusal; the field the refusal points at; its check)
WARRANTS: dict[str, tuple[str, str, Callable[[LockdownState, Fact], str | None]]] = {
    "CharacterDied": ("3 serious wounds or a burning room (wounds), a larva (infection), a night stalker in the "
                      "room or a pending attack (attack), the vented room (vent_out), the end of the game being "
                      "resolved, a red self-destruct token, an active alarm procedure, the time token at the end, or "
                      "the event card being resolved (event)", "cause", _died),
    "KnowledgeGained": ("the Analyze Toolset in the character's items (room and computer actions derive their "
                        "knowledge themselves)", "amount", _knowledge),
    "ItemGained": ("setup, the character's starting item, a quest item of their objective, or a corpse in the room "
                   "(Search, Craft, Trade and room actions are their own facts)", "item", _item),
    "SelfDestructStarted": ("the event card being resolved (the Cooling System's action is RoomActionUsed)", "by",
                            _self_destruct),
    "IntruderPlaced": ("an encounter or noise roll being resolved, the event card or colony step, or a character "
                       "carrying a larva", "kind", _intruder_placed),
    "GameEnded": ("the time token at the end of the track (a time-out is derived when it gets there)", "ending",
                  _ended),
}


def warrant(state: LockdownState, fact: Fact) -> str | None:
    """What in ``state`` warrants ``fact`` (a reason in words; ``""`` when the type needs no warrant), or None.

    A fact naming its cause (``by``) is warranted by it."""
    entry = WARRANTS.get(fact.type)
    if entry is None:
        return ""
    by = fact.data.get("by")
    if isinstance(by, str) and by.strip():
        return f"named: {cause_name(by)}"
    return entry[2](state, fact)


def check(state: LockdownState, fact: Fact) -> list[Violation]:
    """``unwarranted`` when the game requires warrants and nothing warrants ``fact`` (decision 0039)."""
    if fact.type not in WARRANTS or not required(state):
        return []
    if warrant(state, fact) is not None:
        return []
    what, field, _ = WARRANTS[fact.type]
    subject = f" for {who(state, fact.actor)}" if fact.actor is not None else ""
    return [violation(
        RULE, f"{fact.type}{subject}: nothing in the game warrants it here ({fact.type}.{field}); it needs {what} — "
              f"or name the card or effect that caused it in {fact.type}.by (e.g. \"event: Coolant Leak\", "
              f"\"Analyze Toolset\").", _SECTIONS[fact.type], "by")]


_SECTIONS = {"CharacterDied": S.DEATH, "KnowledgeGained": S.KNOWLEDGE, "ItemGained": S.ITEMS,
             "SelfDestructStarted": S.SELF_DESTRUCT, "IntruderPlaced": S.FIGURES, "GameEnded": S.END}


# --- what the recorder is offered ------------------------------------------------------------------------------

def offers(state: LockdownState, offered: list) -> list:
    """``next_inputs`` with a free ``by`` on every offer of a fact type that needs a warrant (not in setup): the
    recorder can name the cause, the random player fills it where the state warrants nothing (generate.py). The
    ending ``time_out`` is offered only where the state warrants it."""
    if not required(state):
        return offered
    from service.rules.base import Expected
    setup = state.clock.phase == SETUP
    out = []
    for e in offered:
        if e.type == "GameEnded":  # a time-out only where the state warrants it (the end is derived otherwise)
            endings = e.options.get("ending")
            if isinstance(endings, list) and "time_out" in endings and not _time_nearly_out(state):
                e = Expected(e.type, e.actor, {**e.options, "ending": [x for x in endings if x != "time_out"]},
                             e.note, e.default)
        elif e.type in WARRANTS and "by" not in e.options and not setup:
            e = Expected(e.type, e.actor, {**e.options, "by": None}, e.note, e.default)
        out.append(e)
    return out
