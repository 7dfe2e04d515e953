"""The replay as a story: one sentence per fact, the key moments, and how the game ended.

Pure functions of the states before and after a fact; nothing here changes a state.

    >>> from service.rules.base import Fact, Seat, Setup
    >>> from service.rules.lockdown.state import initial_state
    >>> s = initial_state(Setup(players=(Seat(1, "Ada"),)))
    >>> narrate(s, Fact(1, "BoardPrepared", {"board": "basic"}), s)
    'The table lays out the basic board.'
"""
from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from service.rules.base import Consequence, Fact, Moment
from service.rules.lockdown.components import ATTACK_CARDS, CHARACTERS, EVENT_CARDS, ROOMS
from service.rules.lockdown.facts import FACTS, resolve_place
from service.rules.lockdown.names import local
from service.rules.lockdown.state import DEAD, EVACUATED, IN_BUNKER, LOCKED_IN, LockdownState

# --- names -------------------------------------------------------------------------------------------------------


def person(state: LockdownState, seat: Any) -> str:
    """``Ada (Hacker)``; a seat without a character is its player's name; None is the table."""
    if seat is None:
        return "the table"
    name = next((p.name for p in state.setup.players if p.seat == seat), None) or f"Seat {seat}"
    c = state.characters.get(seat) if isinstance(seat, int) else None
    return f"{name} ({local(CHARACTERS[c.character])})" if c and c.character else name


def player(state: LockdownState, seat: Any) -> str:
    return next((p.name for p in state.setup.players if p.seat == seat), None) or f"seat {seat}"


def place(state: LockdownState, value: Any) -> str:
    """A room as a sentence names it: ``the Laboratory``, ``an unexplored room (slot-07)``."""
    where = resolve_place(state, value)
    if where is None:
        tile = ROOMS.resolve(value)
        return f"the {local(tile)}" if tile else str(value)
    r = state.rooms[where]
    if r.tile and (r.explored or r.kind == "special"):
        return f"the {local(ROOMS[r.tile])}"
    if r.kind == "crossroad":
        return f"{where}" if r.explored else f"an unexplored crossroad ({where})"
    return f"an unexplored room ({where})"


def objective_name(text: Any) -> str:
    """``'Knowledge at least [5]'``; ``a secret objective`` for an unknown card."""
    from service.rules.lockdown.catalog import objective_types, parse_objective

    if not isinstance(text, str) or text == "unknown":
        return "a secret objective"
    kind, args = parse_objective(text)
    t = objective_types().get(kind)
    name = t["en"] if t else kind.replace("_", " ")
    return f"“{name}{' [' + ', '.join(str(a) for a in args) + ']' if args else ''}”"


def plan_name(token: Any) -> str:
    from service.rules.lockdown.catalog import plans, resolve_plan

    if not isinstance(token, str) or token == "unknown":
        return "a face-down token"
    try:
        plan = resolve_plan(token)
    except KeyError:
        return f"“{token}”"
    if not plan:
        return "a face-down token"
    p = plans().get(plan) or {}
    return f"{p.get('colour', '')} “{p.get('en', plan)}”".strip()


def _intruder(state: LockdownState, iid: Any) -> str:
    it = next((i for i in state.intruders if i.id == iid), None)
    return f"the {it.kind} ({iid})" if it else f"the night stalker {iid}"


def _n(count: Any, one: str, many: str | None = None) -> str:
    count = 1 if count is None else count
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _list(items: Any) -> str:
    items = [str(i) for i in items or ()]
    if len(items) <= 1:
        return "".join(items) or "nothing"
    return ", ".join(items[:-1]) + " and " + items[-1]


def _card(value: Any) -> str:
    c = EVENT_CARDS.resolve(value)
    return f"“{local(c)}”" if c else f"“{value}”"


def _attack(value: Any) -> str:
    c = ATTACK_CARDS.resolve(value)
    return f"“{local(c)}”" if c else f"“{value}”"


# --- one sentence per fact type ------------------------------------------------------------------------------------

Narrator = Callable[[LockdownState, Fact, LockdownState, str], str]


def _board(b, f, a, who):
    tiles = f.data.get("tiles") or {}
    known = sum(1 for t in tiles.values() if t)
    return f"The table lays out the {f.data.get('board', 'basic')} board" + (
        f" with {_n(known, 'room tile')} known." if known else ".")


def _chosen(b, f, a, who):
    c = a.characters.get(f.actor)
    char = CHARACTERS.resolve(f.data.get("character"))
    start = f" and starts in {place(a, c.room)}" if c and c.room else ""
    return f"{player(a, f.actor)} plays the {local(char) if char else f.data.get('character')}{start}."


def _setup_done(b, f, a, who):
    return f"Setup is complete: round 1 begins with {player(a, a.first_player)} holding the first player token."


def _first_player(b, f, a, who):
    return f"{who} passes the first player token to {person(a, a.first_player)}."


def _moved(b, f, a, who):
    via = "along a path" if f.data.get("corridor") == "path" else f"through corridor {f.data.get('corridor')}"
    extra = f", paying {_n(f.data['surcharge'], 'extra card')} for the wounded knee" if f.data.get("surcharge") else ""
    return f"{who} moves to {place(a, f.data.get('to_room'))} {via}{extra}."


def _careful(b, f, a, who):
    return (f"{who} moves carefully to {place(a, f.data.get('to_room'))} through corridor {f.data.get('corridor')}, "
            f"placing noise in corridor {f.data.get('noise_corridor')}.")


def _passed(b, f, a, who):
    d = f.data.get("discarded") or 0
    return f"{who} passes" + (f" and discards {_n(d, 'card')}." if d else ".")


def _explored(b, f, a, who):
    token = f.data.get("token") or {}
    effect = token.get("effect")
    room = "a crossroad" if f.data.get("room") == "crossroad" else place(a, f.data.get("room"))
    what = f"{effect.replace('_', ' ')}" if effect and effect != "silence" else "silence"
    items = f", {_n(token.get('items'), 'item')} to search" if token.get("items") is not None else ""
    return f"{who} explores {room}: {what}{items}."


NOISE_WORDS = {"danger": "danger!", "silence": "silence.", "mars_card": "the Mars symbol."}


def _noise(b, f, a, who):
    r = f.data.get("result")
    return f"{who} rolls for noise: " + (NOISE_WORDS.get(r) if r in NOISE_WORDS else f"corridor {r}.")


def _encounter(b, f, a, who):
    t = f.data.get("token")
    if t == "blank":
        return f"{who} draws a blank encounter token: nothing comes."
    return f"An encounter! A {t} comes out of the dark for {who}."


def _css(b, f, a, who):
    t = f.data.get("token")
    return {"NONE": "The CSS token is flipped: no pod launches.", "ALL": "The CSS token is flipped: every pod launches."}.get(
        t, f"The CSS token is flipped: pod {t} launches.")


def _time(b, f, a, who):
    return f"Time runs on: the time token moves to {a.time_label}."


def _cleared(b, f, a, who):
    removed = f.data.get("removed") or []
    if not removed:
        return "No noise markers are cleared."
    return f"The table clears {_n(len(removed), 'noise marker')}."


def _event(b, f, a, who):
    return f"Event: {_card(f.data.get('card'))}."


def _intruder_moved(b, f, a, who):
    return f"{_intruder(b, f.data.get('intruder')).capitalize()} moves to {place(a, f.data.get('to_room'))}."


def _colony(b, f, a, who):
    t = f.data.get("token")
    return f"The colony grows: a {t} token is drawn from the bag."


def _ended(b, f, a, who):
    note = f" ({f.data['note']})" if f.data.get("note") else ""
    return f"The table ends the game: {ENDING_WORDS.get(f.data.get('ending'), f.data.get('ending'))}{note}."


def _wound(b, f, a, who):
    kind, n = f.data.get("kind", "light"), f.data.get("count") or 1
    card = f" (“{f.data['card']}”)" if f.data.get("card") else ""
    cause = f" from {f.data['cause']}" if f.data.get("cause") else ""
    return f"{who} suffers {_n(n, kind + ' wound')}{card}{cause}."


def _dressed(b, f, a, who):
    return f"{who} dresses {_n(f.data.get('count') or 1, 'serious wound')}."


def _healed(b, f, a, who):
    return f"{who} heals " + ("every light wound." if f.data.get("kind") == "light" else "a dressed serious wound.")


def _contaminated(b, f, a, who):
    return f"{who} receives {_n(f.data.get('count') or 1, 'contamination card')}."


def _scanned(b, f, a, who):
    inf, clean = f.data.get("infected") or 0, f.data.get("clean")
    scope = {"all": "every card", "drawn": "the cards drawn"}.get(f.data.get("scope"), "the hand")
    found = f"{_n(inf, 'infected card')}" + (f" and {clean} clean" if clean is not None else "")
    return f"{who} scans {scope}: {found}" + (", and removes the infected cards." if f.data.get("remove_infected") else ".")


def _larva_removed(b, f, a, who):
    return f"The larva is cut out of {who}."


def _slime(b, f, a, who):
    return f"{who} is covered in slime." if f.data.get("slime") else f"{who} wipes off the slime."


def _died(b, f, a, who):
    note = f" ({f.data['note']})" if f.data.get("note") else ""
    return f"{who} dies: {DEATH_WORDS.get(f.data.get('cause'), f.data.get('cause'))}{note}."


def _knowledge(b, f, a, who):
    amount = f.data.get("amount") or 0
    c = a.characters.get(f.actor)
    now = f" (now {c.knowledge})" if c else ""
    verb = "gains" if amount >= 0 else "loses"
    return f"{who} {verb} {_n(abs(amount), 'knowledge')}{now}" + (", token active." if f.data.get("activate") else ".")


def _attacked(b, f, a, who):
    it = _intruder(b, f.data.get("intruder"))
    target = f.data.get("target")
    on = f" {person(b, target)}" if target is not None else ""
    if f.data.get("card"):
        return f"{it.capitalize()} attacks{on}: {_attack(f.data['card'])}."
    return f"{it.capitalize()} attacks{on}."


DIE_WORDS = {"blank": "a blank", "creeper": "a creeper hit", "adult": "an adult hit", "hit": "a hit",
             "double": "a double hit", "card_for_1": "a hit for a card", "one_or_two": "one or two hits"}


def _target_name(state, target):
    return "an egg" if target == "egg" else _intruder(state, target)


def _shot(b, f, a, who):
    return (f"{who} shoots {_target_name(b, f.data.get('target'))} with the {f.data.get('weapon')}: "
            f"{DIE_WORDS.get(f.data.get('result'), f.data.get('result'))}.")


def _melee(b, f, a, who):
    return (f"{who} fights {_target_name(b, f.data.get('target'))} hand to hand: "
            f"{DIE_WORDS.get(f.data.get('result'), f.data.get('result'))}.")


def _injury(b, f, a, who):
    blood = f.data.get("blood") or []
    if "retreat" in blood:
        return "The injury check shows a retreat symbol."
    return f"The injury check draws blood {_list(blood)}."


def _retreated(b, f, a, who):
    to = f" to {place(a, f.data['to_room'])}" if f.data.get("to_room") else ""
    return f"{_intruder(b, f.data.get('intruder')).capitalize()} flees{to} ({_card(f.data.get('card'))})."


def _placed(b, f, a, who):
    return f"A {f.data.get('kind')} appears in {place(a, f.data.get('room'))}."


def _removed(b, f, a, who):
    back = " back into the colony bag" if f.data.get("to_bag", True) else " for good"
    return f"{_intruder(b, f.data.get('intruder')).capitalize()} leaves the board{back}."


def _injured(b, f, a, who):
    return f"{_intruder(b, f.data.get('intruder')).capitalize()} suffers {_n(f.data.get('count') or 1, 'injury', 'injuries')}."


def _card_played(b, f, a, who):
    d = f.data
    cost = f" (paying {_n(d['cost'], 'more card')})" if d.get("cost") else ""
    note = f": {d['note']}" if d.get("note") else ""
    move = f", moving {person(b, d.get('character') or f.actor)} to {place(a, d['to_room'])}" if d.get("to_room") else ""
    return f"{who} {'reacts with' if d.get('reaction') else 'plays'} “{d.get('card')}”{cost}{move}{note}."


def _searched(b, f, a, who):
    return f"{who} searches the room and keeps the {f.data.get('kept')} ({f.data.get('colour')})."


def _gained(b, f, a, who):
    colour = f.data.get("colour")
    how = {"starting": " as a starting item", "quest": " as a quest item"}.get(colour, "")
    return f"{who} takes the {f.data.get('item')}{how}."


def _crafted(b, f, a, who):
    free = " for free" if f.data.get("free") else ""
    return f"{who} crafts the {f.data.get('item')}{free} from {_list(f.data.get('ingredients'))}."


def _used(b, f, a, who):
    d = f.data
    on = f" on {person(b, d['target'])}" if d.get("target") is not None else ""
    where = f" in {place(a, d['room'])}" if d.get("room") else ""
    note = f": {d['note']}" if d.get("note") else ""
    eggs = f", destroying {_n(d['eggs'], 'egg')}" if d.get("eggs") else ""
    return f"{who} uses the {d.get('item')}{on}{where}{eggs}{note}."


def _traded(b, f, a, who):
    give, take = f.data.get("give") or [], f.data.get("take") or []
    parts = ([f"gives {_list(give)}"] if give else []) + ([f"takes {_list(take)}"] if take else [])
    return f"{who} trades with {person(b, f.data.get('with'))}: {' and '.join(parts) or 'nothing changes hands'}."


def _dropped(b, f, a, who):
    return f"{who} drops the {f.data.get('item')}."


def _picked(b, f, a, who):
    return f"{who} picks up a {f.data.get('object')}."


def _marker(phrase: str) -> Narrator:
    return lambda b, f, a, who: f"{phrase} {place(a, f.data.get('room'))}."


def _door(b, f, a, who):
    return f"A door is {f.data.get('state')} in corridor {f.data.get('corridor')} of {place(a, f.data.get('room'))}."


def _noise_marker(verb: str) -> Narrator:
    return lambda b, f, a, who: f"Noise {verb} corridor {f.data.get('corridor')} of {place(a, f.data.get('room'))}."


def _power(b, f, a, who):
    if f.data.get("emergency") or not f.data.get("location"):
        return "Emergency power " + ("comes on." if f.data.get("on") else "fails.")
    where = "the elevator" if f.data["location"] == "elevator" else f"sector {f.data['location']}"
    return f"Power in {where} " + ("comes back on." if f.data.get("on") else "goes out.")


def _self_destruct(b, f, a, who):
    return "The self-destruct sequence starts."


ROOM_ACTION_WORDS = {
    "read_archive": "reads the archive", "technical_move": "crawls through the technical corridors",
    "start_self_destruct": "starts the self-destruct sequence", "decontaminate": "goes through decontamination",
    "heal": "is treated", "research": "researches", "enter_pod": "climbs into an escape pod",
    "take_egg": "takes an egg", "stop_self_destruct": "stops the self-destruct sequence",
    "toggle_power": "switches the power", "send_signal": "sends the signal", "check_objective": "checks an objective",
    "schedule_css": "reschedules a CSS launch", "eliminate_threat": "eliminates a threat", "take_item": "takes an item",
    "surgery": "undergoes surgery", "take_neutralizer": "takes the neutralizer", "vent": "vents a room",
    "alarm": "sounds the alarm", "gather_information": "gathers information", "restore_power": "restores power",
    "call_elevator": "calls the elevator", "use_elevator": "rides the elevator",
    "lock_in": "tries to lock in the Isolation Room", "escape_bunker": "makes for the Bunker",
}


def _room_action(b, f, a, who):
    d = f.data
    action = d.get("action")
    text = ROOM_ACTION_WORDS.get(action, str(action).replace("_", " "))
    extra = []
    if d.get("room") and action in ("technical_move", "vent", "eliminate_threat"):
        extra.append(f"({place(a, d['room'])})")
    if action == "check_objective" and d.get("seat") is not None:
        text = f"looks at the objective of {person(b, d['seat'])}"
    if action == "research" and d.get("object"):
        text += f" a {d['object']}"
    if action == "use_elevator" and d.get("to"):
        text += f" to {d['to']}"
    if action == "escape_bunker" and d.get("choice"):
        text += " by rover" if d["choice"] == "rover" else " in the space suit"
    if action in ("gather_information", "schedule_css") and d.get("token") and d["token"] != "unknown":
        extra.append(f"and sees {plan_name(d['token'])}")
    return f"{who} {text}{' ' + ' '.join(extra) if extra else ''}."


def _computer(b, f, a, who):
    from service.rules.lockdown.facts import COMPUTER_CARDS

    card = b.computer_card
    option = COMPUTER_CARDS.get(card or "", ("", "", ""))[(f.data.get("option") or 1) - 1]
    what = option.replace("_", " ") if option else f"option {f.data.get('option')}"
    seen = f" and sees {f.data['token']}" if f.data.get("token") and f.data["token"] != "unknown" else ""
    return f"{who} uses the computer: {what}{seen}."


def _computer_card(b, f, a, who):
    if f.data.get("card") == "lockdown":
        return "The computer shows LOCK-DOWN: a malfunction breaks out and the deck is reshuffled."
    return f"Computer card {f.data.get('card')} is turned face up."


def _objectives_dealt(b, f, a, who):
    objs = f.data.get("objectives") or []
    if all(o == "unknown" for o in objs):
        return f"{who} is dealt {_n(len(objs), 'secret objective')}."
    return f"{who} is dealt {_list(objective_name(o) for o in objs)}."


def _objective_chosen(b, f, a, who):
    o = f.data.get("objective")
    if o in (None, "unknown"):
        return f"{who} keeps one objective in secret and boxes the other."
    return f"{who} keeps the objective {objective_name(o)}."


def _objective_revealed(b, f, a, who):
    return f"{who} reveals the objective {objective_name(f.data.get('objective'))}."


def _tokens_dealt(b, f, a, who):
    tokens = f.data.get("tokens") or []
    if all(t == "unknown" for t in tokens):
        return f"{who} receives {_n(len(tokens), 'face-down contingency token')}."
    return f"{who} receives the contingency token{'s' if len(tokens) != 1 else ''} {_list(plan_name(t) for t in tokens)}."


def _peeked(b, f, a, who):
    owner = f.data.get("owner")
    whose = "the neutral pool" if owner == "pool" else person(b, owner)
    token = f.data.get("token")
    seen = f": {plan_name(token)}" if token and token != "unknown" else ""
    return f"{who} peeks at a contingency token of {whose}{seen}."


def _taken(b, f, a, who):
    token = f.data.get("token")
    seen = f": {plan_name(token)}" if token and token != "unknown" else ""
    return f"{who} takes a contingency token from the neutral pool{seen}."


def _token_revealed(b, f, a, who):
    owner = f.data.get("owner")
    whose = {"active": "The active contingency plan", "pool": "A token of the neutral pool"}.get(
        owner, f"The contingency token of {person(b, owner)}")
    return f"{whose} is revealed: {plan_name(f.data.get('token'))}."


def _weakness(b, f, a, who):
    card = f" “{f.data['card']}”" if f.data.get("card") else ""
    via = f" by studying a {f.data['object']}" if f.data.get("object") else ""
    return f"Weakness {f.data.get('slot')}{card} is discovered{via}."


def _final_scan(b, f, a, who):
    drawn = f.data.get("drawn")
    first = "an INFECTED card" if f.data.get("infected") else "no infected card"
    then = f"; the four-card draw shows {_list(drawn)}" if drawn else ""
    return f"Final scan of {who}: {first}{then}."


NARRATORS: Mapping[str, Narrator] = {
    "BoardPrepared": _board, "CharacterChosen": _chosen, "SetupCompleted": _setup_done,
    "FirstPlayerPassed": _first_player, "CharacterMoved": _moved, "CharacterMovedCarefully": _careful,
    "Passed": _passed, "RoomExplored": _explored, "NoiseRolled": _noise, "EncounterTokenDrawn": _encounter,
    "CssTokenRevealed": _css, "TimeAdvanced": _time, "NoiseMarkersCleared": _cleared, "EventCardDrawn": _event,
    "IntruderMoved": _intruder_moved, "ColonyTokenDrawn": _colony, "GameEnded": _ended,
    "WoundSuffered": _wound, "WoundDressed": _dressed, "WoundHealed": _healed,
    "ContaminationCardReceived": _contaminated, "ContaminationScanned": _scanned, "LarvaRemoved": _larva_removed,
    "SlimeChanged": _slime, "CharacterDied": _died, "KnowledgeGained": _knowledge,
    "IntruderAttacked": _attacked, "CharacterShot": _shot, "MeleeAttacked": _melee, "InjuryCheckDrawn": _injury,
    "IntruderRetreated": _retreated, "IntruderPlaced": _placed, "IntruderRemoved": _removed,
    "IntruderInjured": _injured, "ActionCardPlayed": _card_played, "RoomSearched": _searched,
    "ItemGained": _gained, "ItemCrafted": _crafted, "ItemUsed": _used, "ItemsTraded": _traded,
    "ItemDropped": _dropped, "HeavyObjectPickedUp": _picked,
    "FirePlaced": _marker("Fire breaks out in"), "FireRemoved": _marker("The fire is put out in"),
    "MalfunctionPlaced": _marker("A malfunction strikes"), "MalfunctionRemoved": _marker("The malfunction is repaired in"),
    "DoorChanged": _door, "NoiseMarkerPlaced": _noise_marker("is heard in"),
    "NoiseMarkerRemoved": _noise_marker("fades from"), "PowerChanged": _power,
    "SelfDestructStarted": _self_destruct, "RoomActionUsed": _room_action, "ComputerActionUsed": _computer,
    "ComputerCardRevealed": _computer_card, "ObjectivesDealt": _objectives_dealt,
    "ObjectiveChosen": _objective_chosen, "ObjectiveRevealed": _objective_revealed,
    "ContingencyTokensDealt": _tokens_dealt, "ContingencyTokenPeeked": _peeked, "ContingencyTokenTaken": _taken,
    "ContingencyTokenRevealed": _token_revealed, "WeaknessRevealed": _weakness, "FinalScanRecorded": _final_scan,
}

ENDING_WORDS = {
    "abandoned": "the game was abandoned before its end",
    "time_out": "time ran out",
    "alarm_procedure": "the alarm procedure ran its course",
    "base_destroyed": "the base was destroyed",
    "no_characters_left": "nobody was left in the base",
}
DEATH_WORDS = {
    "wounds": "too many wounds", "infection": "the infection", "attack": "a night stalker's attack",
    "time_out": "the rapid response team", "alarm_procedure": "the rapid response team after the alarm",
    "base_destroyed": "the explosion of the base", "vent_out": "vented into space", "defense_control": "the defence system",
    "contingency": "the contingency plan", "final_scan": "the final scan", "event": "an event", "other": "another cause",
}


def generic(fact: Fact) -> str:
    """The fallback for a fact type without a narrator (none in Lockdown: a test keeps it so)."""
    return f"{fact.type}" + (f" by seat {fact.actor}" if fact.actor is not None else "") + "."


def narrate(before: LockdownState, fact: Fact, after: LockdownState) -> str:
    """One sentence for ``fact``: names and characters from ``before``, rooms as ``after`` knows them."""
    narrator = NARRATORS.get(fact.type)
    if narrator is None:
        return generic(fact)
    who = person(before, fact.actor) if fact.actor is not None else "The table"
    if fact.actor is not None and not (before.characters.get(fact.actor) and before.characters[fact.actor].character):
        who = person(after, fact.actor)
    try:
        text = narrator(before, fact, after, who)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # a fact too odd to tell (lenient games)
        return generic(fact)
    return text[0].upper() + text[1:]


_SEAT = re.compile(r"\bseat (\d+) \(([^,()]+)(?:, ([^()]+))?\)")
_BARE_SEAT = re.compile(r"\bseat (\d+)\b")


def tell_consequence(state: LockdownState, consequence: Consequence) -> str:
    """A derived consequence as a sub-line: ``seat 3 (Greta, Sentry)`` becomes ``Greta (Sentry)``."""
    text = _SEAT.sub(lambda m: f"{m.group(2)} ({m.group(3)})" if m.group(3) else m.group(2), consequence.text)
    text = _BARE_SEAT.sub(lambda m: player(state, int(m.group(1))), text)
    return text[0].upper() + text[1:] if text else text


# consequences that only repeat the fact's own sentence
REPEATS: Mapping[str, tuple[str, ...]] = {
    "Passed": ("passed",), "ObjectivesDealt": ("objectives-dealt",), "ObjectiveChosen": ("objective-chosen",),
    "ObjectiveRevealed": ("objective-revealed",), "ContingencyTokensDealt": ("contingency-dealt",),
    "ContingencyTokenRevealed": ("contingency-revealed",), "ContingencyTokenPeeked": ("contingency-peeked",),
    "ContingencyTokenTaken": ("contingency-taken",), "ComputerCardRevealed": ("computer-card",),
    "ActionCardPlayed": ("card-played",), "ColonyTokenDrawn": ("colony-draw",), "ItemGained": ("item",),
    "ItemUsed": ("item-used",), "ItemCrafted": ("crafted",), "ItemsTraded": ("traded",),
    "HeavyObjectPickedUp": ("object-picked",), "TimeAdvanced": ("time",), "NoiseMarkersCleared": ("noise-cleared",),
    "FinalScanRecorded": ("final-scan",), "RoomActionUsed": ("room-action",), "SlimeChanged": ("slime",),
    "KnowledgeGained": ("knowledge",), "WoundDressed": ("dressed",), "WoundHealed": ("healed",),
    "ContaminationCardReceived": ("contamination",), "ContaminationScanned": ("scanned",),
    "IntruderPlaced": ("intruder-placed",), "IntruderRemoved": ("intruder-removed",), "FirePlaced": ("fire",),
    "MalfunctionPlaced": ("malfunction",), "NoiseMarkerPlaced": ("noise-placed",),
    "NoiseMarkerRemoved": ("noise-removed",),
}


def details(state: LockdownState, fact: Fact | None, consequences: tuple[Consequence, ...]) -> list[str]:
    """The derived consequences of ``fact`` as sub-lines, without those that repeat its sentence."""
    skip = REPEATS.get(fact.type, ()) if fact is not None else ()
    return [tell_consequence(state, c) for c in consequences if c.type not in skip and c.text]


# --- key moments -------------------------------------------------------------------------------------------------

ESCAPES = {IN_BUNKER: "reaches the Bunker", EVACUATED: "escapes in pod {pod}", LOCKED_IN: "locks in the Isolation Room"}


def moments(before: LockdownState, fact: Fact | None, after: LockdownState,
            consequences: tuple[Consequence, ...] = ()) -> list[Moment]:
    """The turning points of one step, found by comparing the states (so derived ones count too)."""
    out: list[Moment] = []
    for seat in after.seats:
        was, now = before.characters[seat], after.characters[seat]
        if now.status != was.status:
            if now.status == DEAD:
                out.append(Moment("death", f"{person(before, seat)} dies: {DEATH_WORDS.get(now.cause, now.cause)}", seat))
            elif now.status in ESCAPES:
                out.append(Moment("escape", f"{person(before, seat)} {ESCAPES[now.status].format(pod=now.pod or '?')}", seat))
    gone = {i.id: i for i in before.intruders} .keys() - {i.id for i in after.intruders}
    kills = [c for c in consequences if c.type in ("killed", "larva-killed", "carcass", "queen-killed")]
    if gone and kills:
        what = _list(f"the {i.kind}" for i in before.intruders if i.id in gone)
        killer = fact.actor if fact is not None else None
        if killer is None and before.pending and before.pending[0].kind == "injury_check":
            killer = before.pending[0].seat  # the injury check of the one who hit it
        out.append(Moment("kill", f"{person(before, killer)} kills {what}" if killer is not None
                          else f"{what.capitalize()} {'is' if len(gone) == 1 else 'are'} killed", killer))
    on_before = sum(1 for _, on in before.power.values() if on)
    on_after = sum(1 for _, on in after.power.values() if on)
    if on_after < on_before:
        out.append(Moment("power", "Power lost" + (f" ({on_after} of 4 on)" if on_after else " everywhere")))
    elif on_after > on_before or (after.emergency_power and not before.emergency_power):
        out.append(Moment("power", "Power restored"))
    if after.self_destruct and not before.self_destruct:
        out.append(Moment("self_destruct", "Self-destruct started"))
    elif before.self_destruct and not after.self_destruct and not after.ended:
        out.append(Moment("self_destruct", "Self-destruct stopped"))
    if after.alarm is not None and before.alarm is None:
        out.append(Moment("alarm", "The alarm sounds"))
    if after.gate_open and not before.gate_open:
        out.append(Moment("gate", "The main gate opens"))
    if after.first_encounter and not before.first_encounter:
        out.append(Moment("encounter", "First encounter"))
    if fact is not None and fact.type == "ContingencyTokenRevealed":
        out.append(Moment("contingency", f"Contingency revealed: {plan_name(fact.data.get('token'))}"))
    if fact is not None and fact.type == "ObjectiveRevealed":
        out.append(Moment("objective", f"{person(before, fact.actor)} reveals {objective_name(fact.data.get('objective'))}",
                          fact.actor))
    if after.ended and not before.ended:
        out.append(Moment("end", f"The end: {ENDING_WORDS.get(after.ending, after.ending)}"))
    return out


# --- how it ended --------------------------------------------------------------------------------------------------

SWEEP = "the rapid response team killed everyone still in the base who was not locked in the Isolation Room"
END_EFFECTS = {
    "time_out": SWEEP,
    "alarm_procedure": SWEEP,
    "base_destroyed": "the base exploded, killing everyone inside (the Isolation Room too) and every night stalker",
}
END_CAUSES = {
    "time_out": "Time ran out: the time token reached the last space",
    "alarm_procedure": "The alarm procedure ended the game: the time token left the alarm procedure's space",
    "base_destroyed": "The base was destroyed: the self-destruct sequence ran out (or fire or malfunctions overran it)",
}


def ending_story(state: LockdownState) -> str:
    """How the game ended, in a paragraph (empty while it runs)."""
    if not state.ended:
        return ""
    if state.ending == "abandoned":
        return "The table abandoned the game before its end" + (f" ({state.ending_note})." if state.ending_note else ".")
    parts = []
    if state.ending == "no_characters_left":
        fates = {}
        for seat in state.seats:
            c = state.characters[seat]
            if c.status == DEAD and c.was is not None and c.cause in END_EFFECTS:
                key = {"isolation": "locked themselves in the Isolation Room", "pod": "sat in a pod"}.get(c.was, "stayed")
            elif c.status == DEAD:
                key = "died"
            else:
                key = {IN_BUNKER: "reached the Bunker", EVACUATED: "escaped by pod",
                       LOCKED_IN: "locked themselves in the Isolation Room"}.get(c.status, "left")
            fates.setdefault(key, []).append(person(state, seat))
        parts.append("Nobody was left in the base: " + "; ".join(
            f"{_list(who)} {what}" for what, who in fates.items()) + ".")
        how = END_EFFECTS.get(state.end_effects or "")
        if how:
            jump = {"time_out": "the last space", "alarm_procedure": "the alarm procedure's space",
                    "base_destroyed": "the self-destruct token"}[state.end_effects]
            parts.append(f"The time token jumped to {jump}: {how}.")
    else:
        what = END_CAUSES.get(state.ending or "", ENDING_WORDS.get(state.ending, "It ended").capitalize())
        how = END_EFFECTS.get(state.end_effects or state.ending or "")
        parts.append(f"{what}" + (f"; {how}." if how else "."))
    if state.ending_note:
        parts.append(f"Table note: {state.ending_note}.")
    return " ".join(parts)


def verdict_steps(reasons: tuple[str, ...]) -> list[tuple[str, str]]:
    """A verdict's reasons labelled by the victory check's order: survival → contingency → final scan → objective."""
    out = []
    for r in reasons:
        low = r.lower()
        if "contingency" in low:
            label = "contingency"
        elif "scan" in low:
            label = "final scan"
        elif "objective" in low or low.startswith("needs"):
            label = "objective"
        else:
            label = "survival"
        out.append((label, r))
    order = ("survival", "contingency", "final scan", "objective")
    return sorted(out, key=lambda lr: order.index(lr[0]))


def unnarrated() -> set[str]:
    """Fact types of the vocabulary without their own sentence (a test keeps this empty)."""
    return set(FACTS) - set(NARRATORS)
