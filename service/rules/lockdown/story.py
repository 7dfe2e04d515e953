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

from service.i18n import N_, _, current as current_language, ngettext
from service.rules.base import Consequence, Fact, Moment
from service.rules.lockdown.components import ACTION_CARDS, ATTACK_CARDS, CHARACTERS, EVENT_CARDS, ROOMS
from service.rules.lockdown.facts import FACTS, resolve_place
from service.rules.lockdown.unknowns import unknown_fields
from service.rules.lockdown.warrants import split_cause
from service.rules.lockdown.names import display_name, local, shown
from service.rules.lockdown.rooms import ROOM_ACTION_TABLE
from service.rules.lockdown.state import DEAD, EVACUATED, IN_BUNKER, LOCKED_IN, LockdownState

# --- names -------------------------------------------------------------------------------------------------------


def person(state: LockdownState, seat: Any) -> str:
    """``Ada (Hacker)``; a seat without a character is its player's name; None is the table."""
    if seat is None:
        return _("the table")
    name = next((p.name for p in state.setup.players if p.seat == seat), None) or _("Seat %(n)s") % {"n": seat}
    c = state.crew.characters.get(seat) if isinstance(seat, int) else None
    return f"{name} ({local(CHARACTERS[c.character])})" if c and c.character in CHARACTERS else name


def player(state: LockdownState, seat: Any) -> str:
    return next((p.name for p in state.setup.players if p.seat == seat), None) or _("seat %(n)s") % {"n": seat}


def place(state: LockdownState, value: Any) -> str:
    """A room as a sentence names it: ``the Laboratory``, ``an unexplored room (slot-07)``."""
    where = resolve_place(state, value)
    if where is None:
        tile = ROOMS.resolve(value)
        return _("the %(room)s") % {"room": local(tile)} if tile else str(value)
    r = state.ship.rooms[where]
    if r.tile and (r.explored or r.kind == "special"):
        return _("the %(room)s") % {"room": local(ROOMS[r.tile])}
    if r.kind == "crossroad":
        return f"{where}" if r.explored else _("an unexplored crossroad (%(space)s)") % {"space": where}
    return _("an unexplored room (%(space)s)") % {"space": where}


def objective_name(text: Any) -> str:
    """``'Knowledge at least [5]'``; ``a secret objective`` for an unknown card."""
    from service.rules.lockdown.catalog import objective_types, parse_objective

    if not isinstance(text, str) or text == "unknown":
        return _("a secret objective")
    kind, args = parse_objective(text)
    t = objective_types().get(kind)
    name = shown("objective", kind, t["en"] if t else kind.replace("_", " "))
    return f"“{name}{' [' + ', '.join(str(a) for a in args) + ']' if args else ''}”"


def plan_name(token: Any) -> str:
    from service.rules.lockdown.catalog import plans, resolve_plan

    if not isinstance(token, str) or token == "unknown":
        return _("a face-down token")
    try:
        plan = resolve_plan(token)
    except KeyError:
        return f"“{token}”"
    if not plan:
        return _("a face-down token")
    p = plans().get(plan) or {}
    name = shown("contingency", plan, p.get("en", plan))
    if current_language() == "pl":  # the Polish tokens are named by their colour code already (kod czerwony …)
        return f"“{name}”"
    return f"{p.get('colour', '')} “{name}”".strip()


def _intruder(state: LockdownState, iid: Any) -> str:
    it = next((i for i in state.colony.intruders if i.id == iid), None)
    return (_("the %(kind)s (%(id)s)") % {"kind": _(it.kind), "id": iid} if it
            else _("the night stalker %(id)s") % {"id": iid})


def local_word(kind: str, value: Any) -> str:
    """A table word (noise result, exploration effect, colony token) in the language in force."""
    return shown(kind, value, str(value).replace("_", " "))


def _n(count: Any, one: str, many: str | None = None) -> str:
    count = 1 if count is None else count
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _list(items: Any) -> str:
    items = [str(i) for i in items or ()]
    if len(items) <= 1:
        return "".join(items) or _("nothing")
    return ", ".join(items[:-1]) + _(" and ") + items[-1]


def _card(value: Any) -> str:
    c = EVENT_CARDS.resolve(value)
    return f"“{local(c)}”" if c else f"“{value}”"


def _action_card(value: Any) -> str:
    c = ACTION_CARDS.resolve(value)
    return local(c) if c else str(value)


def _attack(value: Any) -> str:
    c = ATTACK_CARDS.resolve(value)
    return f"“{local(c)}”" if c else f"“{value}”"


# --- one sentence per fact type ------------------------------------------------------------------------------------

Narrator = Callable[[LockdownState, Fact, LockdownState, str], str]


def _board(b, f, a, who):
    tiles = f.data.get("tiles") or {}
    known = sum(1 for t in tiles.values() if t)
    return _("The table lays out the %(board)s board") % {"board": _(f.data.get("board", "basic"))} + (
        ngettext(" with %(n)s room tile known.", " with %(n)s room tiles known.", known) % {"n": known} if known else ".")


def _chosen(b, f, a, who):
    c = a.crew.characters.get(f.actor)
    char = CHARACTERS.resolve(f.data.get("character"))
    start = _(" and starts in %(room)s") % {"room": place(a, c.room)} if c and c.room else ""
    return _("%(who)s plays the %(character)s%(start)s.") % {
        "who": player(a, f.actor), "character": local(char) if char else f.data.get("character"), "start": start}


def _setup_done(b, f, a, who):
    return _("Setup is complete: round 1 begins with %(who)s holding the first player token.") % {
        "who": player(a, a.clock.first_player)}


def _first_player(b, f, a, who):
    return _("%(who)s passes the first player token to %(to)s.") % {"who": who, "to": person(a, a.clock.first_player)}


def _moved(b, f, a, who):
    via = _("along a path") if f.data.get("corridor") == "path" else _("through corridor %(n)s") % {"n": f.data.get("corridor")}
    extra = ngettext(", paying %(n)s extra card for the wounded knee", ", paying %(n)s extra cards for the wounded knee",
                     f.data["surcharge"]) % {"n": f.data["surcharge"]} if f.data.get("surcharge") else ""
    return _("%(who)s moves to %(room)s %(via)s%(extra)s.") % {"who": who, "room": place(a, f.data.get("to_room")), "via": via, "extra": extra}


def _moved_by_effect(b, f, a, who):
    return _("%(who)s is moved to %(room)s by %(effect)s.") % {"who": who, "room": place(a, f.data.get("to_room")),
                                                             "effect": f.data.get("effect")}


def _careful(b, f, a, who):
    return _("%(who)s moves carefully to %(room)s through corridor %(n)s, placing noise in corridor %(noise)s.") % {
        "who": who, "room": place(a, f.data.get("to_room")), "n": f.data.get("corridor"), "noise": f.data.get("noise_corridor")}


def _passed(b, f, a, who):
    d = f.data.get("discarded") or 0
    return (ngettext("%(who)s passes and discards %(n)s card.", "%(who)s passes and discards %(n)s cards.", d) if d
            else _("%(who)s passes.")) % {"who": who, "n": d}


def _explored(b, f, a, who):
    token = f.data.get("token") or {}
    effect = token.get("effect")
    room = _("a crossroad") if f.data.get("room") == "crossroad" else place(a, f.data.get("room"))
    what = local_word("exploration", effect if effect else "silence")
    items = ngettext(", %(n)s item to search", ", %(n)s items to search", token["items"]) % {"n": token["items"]} \
        if isinstance(token.get("items"), int) else (f", {token['items']} items to search" if token.get("items") is not None else "")
    return _("%(who)s explores %(room)s: %(what)s%(items)s.") % {"who": who, "room": room, "what": what, "items": items}


NOISE_WORDS = {"danger": N_("danger!"), "silence": N_("silence."), "mars_card": N_("the Mars symbol.")}


def _noise(b, f, a, who):
    r = f.data.get("result")
    return _("%(who)s rolls for noise: %(result)s") % {
        "who": who, "result": _(NOISE_WORDS[r]) if r in NOISE_WORDS else _("corridor %(n)s.") % {"n": r}}


def _encounter(b, f, a, who):
    t = f.data.get("token")
    if t == "blank":
        return _("%(who)s draws a blank encounter token: nothing comes.") % {"who": who}
    return _("An encounter! A %(kind)s comes out of the dark for %(who)s.") % {"kind": _(t), "who": who}


def _css(b, f, a, who):
    t = f.data.get("token")
    return {"NONE": _("The CSS token is flipped: no pod launches."), "ALL": _("The CSS token is flipped: every pod launches.")}.get(
        t, _("The CSS token is flipped: pod %(pod)s launches.") % {"pod": t})


def _time(b, f, a, who):
    return _("Time runs on: the time token moves to %(space)s.") % {"space": a.time_label}


def _cleared(b, f, a, who):
    removed = f.data.get("removed") or []
    if not removed:
        return _("No noise markers are cleared.")
    return ngettext("The table clears %(n)s noise marker.", "The table clears %(n)s noise markers.", len(removed)) % {"n": len(removed)}


def _event(b, f, a, who):
    return _("Event: %(card)s.") % {"card": _card(f.data.get("card"))}


def _intruder_moved(b, f, a, who):
    return _("%(intruder)s moves to %(room)s.") % {"intruder": _intruder(b, f.data.get("intruder")).capitalize(), "room": place(a, f.data.get("to_room"))}


def _colony(b, f, a, who):
    t = f.data.get("token")
    return _("The colony grows: a %(token)s token is drawn from the bag.") % {"token": local_word("token", t)}


def _ended(b, f, a, who):
    note = f" ({f.data['note']})" if f.data.get("note") else ""
    return _("The table ends the game: %(ending)s%(note)s.") % {"ending": _(ENDING_WORDS.get(f.data.get("ending"), f.data.get("ending"))), "note": note}


def _gap(b, f, a, who):
    last = f.data["to_round"] - 1
    span = f"round {b.clock.round}" if last <= b.clock.round else f"rounds {b.clock.round}–{last}"
    time = f", the time token at {f.data['time']}" if f.data.get("time") is not None else ""
    note = f" ({f.data['note']})" if f.data.get("note") else ""
    return f"Not recorded: the rest of {span}; the record resumes in round {f.data['to_round']}{time}{note}."


def _escaped(b, f, a, who):
    route = f.data.get("route")
    how = {"bunker": "reaches the Bunker", "isolation": "locks themselves in the Isolation Room"}.get(
        route, f"escapes by pod {f.data['pod']}" if f.data.get("pod") else "escapes by a CSS pod")
    return f"{who} {how} (recorded by its outcome)."


UNKNOWN_WORDS = {  # what the fact says when a value of it was not recorded (decision 0018)
    "CharacterChosen": "chooses a character", "CharacterMoved": "moves", "CharacterMovedCarefully": "moves carefully",
    "RoomExplored": "explores the room", "NoiseRolled": "rolls for noise", "EncounterTokenDrawn": "draws an encounter token",
    "CssTokenRevealed": "reveals the CSS token", "EventCardDrawn": "draws an event card",
    "ColonyTokenDrawn": "draws from the colony bag", "IntruderMoved": "moves a night stalker",
    "IntruderAttacked": "resolves a night stalker's attack", "CharacterShot": "shoots", "MeleeAttacked": "fights in melee",
    "InjuryCheckDrawn": "draws for the injury check", "IntruderRetreated": "resolves a retreat", "CharacterDied": "dies",
    "ComputerCardRevealed": "reveals a computer card", "CharacterEscaped": "escapes by a CSS pod",
}
FIELD_WORDS = {"to_room": "the room", "room": "the room tile", "token": "the token", "result": "the result",
               "card": "the card", "cause": "the cause", "character": "which character", "corridor": "the corridor",
               "noise_corridor": "the noise corridor", "corridors": "the corridors", "blood": "the blood values",
               "pod": "which pod"}


def _not_recorded(b, f, a, who, fields):
    what = UNKNOWN_WORDS.get(f.type, "records what happened")
    if f.type in ("CharacterMoved", "CharacterMovedCarefully") and "to_room" not in fields:
        what += f" to {a.room_label(a.crew.characters[f.actor].room)}"
    missing = " and ".join(FIELD_WORDS.get(n, n.replace("_", " ")) for n in fields)
    return f"{who} {what} ({missing}: not recorded)."


def _wound(b, f, a, who):
    kind, n = f.data.get("kind", "light"), f.data.get("count") or 1
    card = f" (“{f.data['card']}”)" if f.data.get("card") else ""
    cause = _(" from %(cause)s") % {"cause": f.data["cause"]} if f.data.get("cause") else ""
    text = (ngettext("%(who)s suffers %(n)s serious wound", "%(who)s suffers %(n)s serious wounds", n) if kind == "serious"
            else ngettext("%(who)s suffers %(n)s light wound", "%(who)s suffers %(n)s light wounds", n) if kind == "light"
            else "%(who)s suffers " + _n(n, kind + " wound"))
    return (text % {"who": who, "n": n}) + f"{card}{cause}."


def _dressed(b, f, a, who):
    n = f.data.get("count") or 1
    return ngettext("%(who)s dresses %(n)s serious wound.", "%(who)s dresses %(n)s serious wounds.", n) % {"who": who, "n": n}


def _healed(b, f, a, who):
    return (_("%(who)s heals every light wound.") if f.data.get("kind") == "light" else _("%(who)s heals a dressed serious wound.")) % {"who": who}


def _contaminated(b, f, a, who):
    n = f.data.get("count") or 1
    return ngettext("%(who)s receives %(n)s contamination card.", "%(who)s receives %(n)s contamination cards.", n) % {"who": who, "n": n}


def _scanned(b, f, a, who):
    inf, clean = f.data.get("infected") or 0, f.data.get("clean")
    scope = {"all": "every card", "drawn": "the cards drawn"}.get(f.data.get("scope"), "the hand")
    found = f"{_n(inf, 'infected card')}" + (f" and {clean} clean" if clean is not None else "")
    return f"{who} scans {scope}: {found}" + (", and removes the infected cards." if f.data.get("remove_infected") else ".")


def _larva_removed(b, f, a, who):
    return _("The larva is cut out of %(who)s.") % {"who": who}


def _slime(b, f, a, who):
    return (_("%(who)s is covered in slime.") if f.data.get("slime") else _("%(who)s wipes off the slime.")) % {"who": who}


def _died(b, f, a, who):
    note = f" ({f.data['note']})" if f.data.get("note") else ""
    return _("%(who)s dies: %(cause)s%(note)s.") % {"who": who, "cause": _(DEATH_WORDS.get(f.data.get("cause"), f.data.get("cause"))), "note": note}


def _knowledge(b, f, a, who):
    amount = f.data.get("amount") or 0
    c = a.crew.characters.get(f.actor)
    now = _(" (now %(n)s)") % {"n": c.knowledge} if c else ""
    text = _("%(who)s gains %(n)s knowledge%(now)s") if amount >= 0 else _("%(who)s loses %(n)s knowledge%(now)s")
    return text % {"who": who, "n": abs(amount), "now": now} + (_(", token active.") if f.data.get("activate") else ".")


def _attacked(b, f, a, who):
    it = _intruder(b, f.data.get("intruder"))
    target = f.data.get("target")
    on = f" {person(b, target)}" if target is not None else ""
    if f.data.get("card"):
        return _("%(intruder)s attacks%(on)s: %(card)s.") % {"intruder": it.capitalize(), "on": on, "card": _attack(f.data["card"])}
    return _("%(intruder)s attacks%(on)s.") % {"intruder": it.capitalize(), "on": on}


DIE_WORDS = {"blank": N_("a blank"), "creeper": N_("a creeper hit"), "adult": N_("an adult hit"), "hit": N_("a hit"),
             "double": N_("a double hit"), "card_for_1": N_("a hit for a card"), "one_or_two": N_("one or two hits")}


def _target_name(state, target):
    return _("an egg") if target == "egg" else _intruder(state, target)


def _shot(b, f, a, who):
    return _("%(who)s shoots %(target)s with the %(weapon)s: %(result)s.") % {
        "who": who, "target": _target_name(b, f.data.get("target")), "weapon": f.data.get("weapon"),
        "result": _(DIE_WORDS.get(f.data.get("result"), f.data.get("result")))}


def _melee(b, f, a, who):
    return _("%(who)s fights %(target)s hand to hand: %(result)s.") % {
        "who": who, "target": _target_name(b, f.data.get("target")), "result": _(DIE_WORDS.get(f.data.get("result"), f.data.get("result")))}


def _injury(b, f, a, who):
    blood = f.data.get("blood") or []
    if "retreat" in blood:
        return _("The injury check shows a retreat symbol.")
    return _("The injury check draws blood %(blood)s.") % {"blood": _list(blood)}


def _retreated(b, f, a, who):
    to = _(" to %(room)s") % {"room": place(a, f.data["to_room"])} if f.data.get("to_room") else ""
    return _("%(intruder)s flees%(to)s (%(card)s).") % {"intruder": _intruder(b, f.data.get("intruder")).capitalize(), "to": to, "card": _card(f.data.get("card"))}


def _placed(b, f, a, who):
    return _("A %(kind)s appears in %(room)s.") % {"kind": _(f.data.get("kind")), "room": place(a, f.data.get("room"))}


def _removed(b, f, a, who):
    text = _("%(intruder)s leaves the board back into the colony bag.") if f.data.get("to_bag", True) else _("%(intruder)s leaves the board for good.")
    return text % {"intruder": _intruder(b, f.data.get("intruder")).capitalize()}


def _injured(b, f, a, who):
    n = f.data.get("count") or 1
    return ngettext("%(intruder)s suffers %(n)s injury.", "%(intruder)s suffers %(n)s injuries.", n) % {
        "intruder": _intruder(b, f.data.get("intruder")).capitalize(), "n": n}


def _card_played(b, f, a, who):
    d = f.data
    cost = f" (paying {_n(d['cost'], 'more card')})" if d.get("cost") else ""
    note = f": {d['note']}" if d.get("note") else ""
    move = f", moving {person(b, d.get('character') or f.actor)} to {place(a, d['to_room'])}" if d.get("to_room") else ""
    return (_("%(who)s reacts with “%(card)s”%(rest)s.") if d.get("reaction") else _("%(who)s plays “%(card)s”%(rest)s.")) % {
        "who": who, "card": _action_card(d.get("card")), "rest": f"{cost}{move}{note}"}


# the actions an Interruption cancels, as the story names them (turns.INTERRUPTIBLE)
ACTION_STORY_WORDS = {
    "CharacterMoved": N_("move"), "CharacterMovedCarefully": N_("careful move"), "CharacterShot": N_("shot"),
    "MeleeAttacked": N_("melee attack"), "ActionCardPlayed": N_("action card"), "RoomSearched": N_("search"),
    "ItemCrafted": N_("craft"), "ItemUsed": N_("item use"), "ItemsTraded": N_("trade"),
    "HeavyObjectPickedUp": N_("pick-up"), "RoomActionUsed": N_("room action"),
    "ComputerActionUsed": N_("computer action"),
}


def _interrupted(b, f, a, who):
    d = f.data
    word = ACTION_STORY_WORDS.get(d.get("cancels"))
    return _("%(who)s plays “%(card)s” out of turn and interrupts the %(action)s of %(other)s: it does nothing, "
             "though its cost stays paid.") % {
        "who": who, "card": _action_card(d.get("card")), "action": _(word) if word else d.get("cancels"),
        "other": person(b, d.get("against"))}


def _searched(b, f, a, who):
    colour = _(f.data.get("colour")) if f.data.get("colour") else f.data.get("colour")
    if f.data.get("returned"):  # the card not kept, named (decision 0037): where it went
        return _("%(who)s searches the room, keeps the %(item)s and puts the %(returned)s at the bottom of the "
                 "%(colour)s deck.") % {"who": who, "item": f.data.get("kept"), "returned": f.data["returned"],
                                        "colour": colour}
    return _("%(who)s searches the room and keeps the %(item)s (%(colour)s).") % {"who": who, "item": f.data.get("kept"), "colour": colour}


def _gained(b, f, a, who):
    colour = f.data.get("colour")
    how = {"starting": _(" as a starting item"), "quest": _(" as a quest item")}.get(colour, "")
    return _("%(who)s takes the %(item)s%(how)s.") % {"who": who, "item": f.data.get("item"), "how": how}


def _crafted(b, f, a, who):
    free = _(" for free") if f.data.get("free") else ""
    return _("%(who)s crafts the %(item)s%(free)s from %(ingredients)s.") % {
        "who": who, "item": f.data.get("item"), "free": free, "ingredients": _list(f.data.get("ingredients"))}


def _used(b, f, a, who):
    d = f.data
    on = f" on {person(b, d['target'])}" if d.get("target") is not None else ""
    where = f" in {place(a, d['room'])}" if d.get("room") else ""
    note = f": {d['note']}" if d.get("note") else ""
    eggs = f", destroying {_n(d['eggs'], 'egg')}" if d.get("eggs") else ""
    return _("%(who)s uses the %(item)s%(rest)s.") % {"who": who, "item": d.get("item"), "rest": f"{on}{where}{eggs}{note}"}


def _traded(b, f, a, who):
    give, take = f.data.get("give") or [], f.data.get("take") or []
    parts = ([_("gives %(items)s") % {"items": _list(give)}] if give else []) + ([_("takes %(items)s") % {"items": _list(take)}] if take else [])
    transfers = f.data.get("transfers") or []
    parts += [_("%(giver)s gives %(item)s to %(taker)s") % {"giver": person(b, t.get("from")), "item": t.get("item"),
                                                             "taker": person(b, t.get("to"))} for t in transfers]
    seats = ([f.data["with"]] if f.data.get("with") is not None else []) + [
        s for t in transfers for s in (t.get("from"), t.get("to")) if s != f.actor]
    other = _list([person(b, s) for s in dict.fromkeys(seats)])
    return _("%(who)s trades with %(other)s: %(what)s.") % {
        "who": who, "other": other, "what": _(" and ").join(parts) or _("nothing changes hands")}


def _dropped(b, f, a, who):
    return _("%(who)s drops the %(item)s.") % {"who": who, "item": f.data.get("item")}


def _picked(b, f, a, who):
    return _("%(who)s picks up a %(object)s.") % {"who": who, "object": local_word("object", f.data.get("object"))}


def _marker(phrase: str) -> Narrator:
    return lambda b, f, a, who: f"{_(phrase)} {place(a, f.data.get('room'))}."


def _door(b, f, a, who):
    return _("A door is %(state)s in corridor %(n)s of %(room)s.") % {
        "state": _(f.data.get("state")), "n": f.data.get("corridor"), "room": place(a, f.data.get("room"))}


def _noise_marker(verb: str) -> Narrator:
    return lambda b, f, a, who: _(verb) % {"n": f.data.get("corridor"), "room": place(a, f.data.get("room"))}


def _power(b, f, a, who):
    if f.data.get("emergency") or not f.data.get("location"):
        return _("Emergency power comes on.") if f.data.get("on") else _("Emergency power fails.")
    where = _("the elevator") if f.data["location"] == "elevator" else _("sector %(s)s") % {"s": f.data["location"]}
    return (_("Power in %(where)s comes back on.") if f.data.get("on") else _("Power in %(where)s goes out.")) % {"where": where}


def _self_destruct(b, f, a, who):
    return _("The self-destruct sequence starts.")


ROOM_ACTION_WORDS = {a.id: a.words for a in ROOM_ACTION_TABLE.values()}  # declared with each room action


def _room_action(b, f, a, who):
    d = f.data
    action = d.get("action")
    text = ROOM_ACTION_WORDS.get(action, str(action).replace("_", " "))
    extra = []
    if d.get("room") and action in ("technical_move", "vent", "eliminate_threat"):
        extra.append(f"({place(a, d['room'])})")
    if action == "check_objective" and d.get("seat") is not None:
        text = _("looks at the objective of %(who)s") % {"who": person(b, d["seat"])}
    if action == "research" and d.get("object"):
        text = _(text) + " " + local_word("object", d["object"])
    if action == "use_elevator" and d.get("to"):
        text = _(text) + _(" to %(room)s") % {"room": d["to"]}
    if action == "escape_bunker" and d.get("choice"):
        text = _(text) + (_(" by rover") if d["choice"] == "rover" else _(" in the space suit"))
    if action in ("gather_information", "schedule_css") and d.get("token") and d["token"] != "unknown":
        extra.append(_("and sees %(token)s") % {"token": plan_name(d["token"])})
    return f"{who} {_(text)}{' ' + ' '.join(extra) if extra else ''}."


def _computer(b, f, a, who):
    from service.rules.lockdown.facts import COMPUTER_CARDS

    card = b.research.computer_card
    option = COMPUTER_CARDS.get(card or "", ("", "", ""))[(f.data.get("option") or 1) - 1]
    what = option.replace("_", " ") if option else f"option {f.data.get('option')}"
    seen = _(" and sees %(token)s") % {"token": f.data["token"]} if f.data.get("token") and f.data["token"] != "unknown" else ""
    return _("%(who)s uses the computer: %(what)s%(seen)s.") % {"who": who, "what": what, "seen": seen}


def _computer_card(b, f, a, who):
    if f.data.get("card") == "lockdown":
        return _("The computer shows LOCK-DOWN: a malfunction breaks out and the deck is reshuffled.")
    return _("Computer card %(card)s is turned face up.") % {"card": f.data.get("card")}


def _objectives_dealt(b, f, a, who):
    objs = f.data.get("objectives") or []
    if all(o == "unknown" for o in objs):
        return ngettext("%(who)s is dealt %(n)s secret objective.", "%(who)s is dealt %(n)s secret objectives.", len(objs)) % {
            "who": who, "n": len(objs)}
    return _("%(who)s is dealt %(objectives)s.") % {"who": who, "objectives": _list(objective_name(o) for o in objs)}


def _objective_chosen(b, f, a, who):
    o = f.data.get("objective")
    if o in (None, "unknown"):
        return _("%(who)s keeps one objective in secret and boxes the other.") % {"who": who}
    return _("%(who)s keeps the objective %(objective)s.") % {"who": who, "objective": objective_name(o)}


def _objective_revealed(b, f, a, who):
    return _("%(who)s reveals the objective %(objective)s.") % {"who": who, "objective": objective_name(f.data.get("objective"))}


def _tokens_dealt(b, f, a, who):
    tokens = f.data.get("tokens") or []
    if all(t == "unknown" for t in tokens):
        return ngettext("%(who)s receives %(n)s face-down contingency token.", "%(who)s receives %(n)s face-down contingency tokens.",
                        len(tokens)) % {"who": who, "n": len(tokens)}
    return ngettext("%(who)s receives the contingency token %(tokens)s.", "%(who)s receives the contingency tokens %(tokens)s.",
                    len(tokens)) % {"who": who, "tokens": _list(plan_name(t) for t in tokens)}


def _peeked(b, f, a, who):
    owner = f.data.get("owner")
    whose = _("the neutral pool") if owner == "pool" else person(b, owner)
    token = f.data.get("token")
    seen = f": {plan_name(token)}" if token and token != "unknown" else ""
    return _("%(who)s peeks at a contingency token of %(whose)s%(seen)s.") % {"who": who, "whose": whose, "seen": seen}


def _taken(b, f, a, who):
    token = f.data.get("token")
    seen = f": {plan_name(token)}" if token and token != "unknown" else ""
    return _("%(who)s takes a contingency token from the neutral pool%(seen)s.") % {"who": who, "seen": seen}


def _token_revealed(b, f, a, who):
    owner = f.data.get("owner")
    whose = {"active": _("The active contingency plan"), "pool": _("A token of the neutral pool")}.get(
        owner) or _("The contingency token of %(who)s") % {"who": person(b, owner)}
    return _("%(whose)s is revealed: %(token)s.") % {"whose": whose, "token": plan_name(f.data.get("token"))}


def _weakness(b, f, a, who):
    card = f" “{f.data['card']}”" if f.data.get("card") else ""
    via = _(" by studying a %(object)s") % {"object": local_word("object", f.data["object"])} if f.data.get("object") else ""
    return _("Weakness %(slot)s%(card)s is discovered%(via)s.") % {"slot": f.data.get("slot"), "card": card, "via": via}


def _final_scan(b, f, a, who):
    drawn = f.data.get("drawn")
    first = _("an INFECTED card") if f.data.get("infected") else _("no infected card")
    then = _("; the four-card draw shows %(cards)s") % {"cards": _list(drawn)} if drawn else ""
    return _("Final scan of %(who)s: %(first)s%(then)s.") % {"who": who, "first": first, "then": then}


NARRATORS: Mapping[str, Narrator] = {
    "BoardPrepared": _board, "CharacterChosen": _chosen, "SetupCompleted": _setup_done,
    "FirstPlayerPassed": _first_player, "CharacterMoved": _moved, "CharacterMovedCarefully": _careful,
    "CharacterMovedByEffect": _moved_by_effect,
    "Passed": _passed, "RoomExplored": _explored, "NoiseRolled": _noise, "EncounterTokenDrawn": _encounter,
    "CssTokenRevealed": _css, "TimeAdvanced": _time, "NoiseMarkersCleared": _cleared, "EventCardDrawn": _event,
    "IntruderMoved": _intruder_moved, "ColonyTokenDrawn": _colony, "GameEnded": _ended,
    "RecordGap": _gap, "CharacterEscaped": _escaped,
    "WoundSuffered": _wound, "WoundDressed": _dressed, "WoundHealed": _healed,
    "ContaminationCardReceived": _contaminated, "ContaminationScanned": _scanned, "LarvaRemoved": _larva_removed,
    "SlimeChanged": _slime, "CharacterDied": _died, "KnowledgeGained": _knowledge,
    "IntruderAttacked": _attacked, "CharacterShot": _shot, "MeleeAttacked": _melee, "InjuryCheckDrawn": _injury,
    "IntruderRetreated": _retreated, "IntruderPlaced": _placed, "IntruderRemoved": _removed,
    "IntruderInjured": _injured, "ActionCardPlayed": _card_played, "ActionInterrupted": _interrupted, "RoomSearched": _searched,
    "ItemGained": _gained, "ItemCrafted": _crafted, "ItemUsed": _used, "ItemsTraded": _traded,
    "ItemDropped": _dropped, "HeavyObjectPickedUp": _picked,
    "FirePlaced": _marker(N_("Fire breaks out in")), "FireRemoved": _marker(N_("The fire is put out in")),
    "MalfunctionPlaced": _marker(N_("A malfunction strikes")), "MalfunctionRemoved": _marker(N_("The malfunction is repaired in")),
    "DoorChanged": _door, "NoiseMarkerPlaced": _noise_marker(N_("Noise is heard in corridor %(n)s of %(room)s.")),
    "NoiseMarkerRemoved": _noise_marker(N_("Noise fades from corridor %(n)s of %(room)s.")), "PowerChanged": _power,
    "SelfDestructStarted": _self_destruct, "RoomActionUsed": _room_action, "ComputerActionUsed": _computer,
    "ComputerCardRevealed": _computer_card, "ObjectivesDealt": _objectives_dealt,
    "ObjectiveChosen": _objective_chosen, "ObjectiveRevealed": _objective_revealed,
    "ContingencyTokensDealt": _tokens_dealt, "ContingencyTokenPeeked": _peeked, "ContingencyTokenTaken": _taken,
    "ContingencyTokenRevealed": _token_revealed, "WeaknessRevealed": _weakness, "FinalScanRecorded": _final_scan,
}

# table words the sentences take from the facts, translated where shown (``_(kind)``)
TABLE_WORDS = (N_("larva"), N_("creeper"), N_("adult"), N_("breeder"), N_("queen"), N_("blank"), N_("closed"),
               N_("open"), N_("destroyed"), N_("red"), N_("yellow"), N_("green"), N_("blue"), N_("grey"), N_("basic"), N_("mars"),
               N_("synthetic"))

IT_ENDED = N_("It ended")
ENDING_WORDS = {
    "abandoned": N_("the game was abandoned before its end"),
    "time_out": N_("time ran out"),
    "alarm_procedure": N_("the alarm procedure ran its course"),
    "base_destroyed": N_("the base was destroyed"),
    "no_characters_left": N_("nobody was left in the base"),
    "incomplete": N_("the record is incomplete — how the game ended is not known"),
}
DEATH_WORDS = {
    "wounds": N_("too many wounds"), "infection": N_("the infection"), "attack": N_("a night stalker's attack"),
    "time_out": N_("the rapid response team"), "alarm_procedure": N_("the rapid response team after the alarm"),
    "base_destroyed": N_("the explosion of the base"), "vent_out": N_("vented into space"), "defense_control": N_("the defence system"),
    "contingency": N_("the contingency plan"), "final_scan": N_("the final scan"), "event": N_("an event"), "other": N_("another cause"),
}


def generic(fact: Fact) -> str:
    """The fallback for a fact type without a narrator (none in Lockdown: a test keeps it so)."""
    return f"{fact.type}" + (f" by seat {fact.actor}" if fact.actor is not None else "") + "."


def narrate(before: LockdownState, fact: Fact, after: LockdownState) -> str:
    """One sentence for ``fact``: names and characters from ``before``, rooms as ``after`` knows them."""
    narrator = NARRATORS.get(fact.type)
    if narrator is None:
        return generic(fact)
    who = person(before, fact.actor) if fact.actor is not None else _("The table")
    if fact.actor is not None and not (before.crew.characters.get(fact.actor) and before.crew.characters[fact.actor].character):
        who = person(after, fact.actor)
    unknown = unknown_fields(fact)
    try:
        text = _not_recorded(before, fact, after, who, unknown) if unknown else narrator(before, fact, after, who)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # a fact too odd to tell (lenient games)
        return generic(fact)
    if isinstance(fact.data.get("by"), str) and fact.data["by"].strip():
        text = caused_by(text, fact.data["by"])
    return text[0].upper() + text[1:]


# the named cause of a fact (``by``, decision 0039) as the story tells it, by the prefix that names its catalogue
CAUSE_WORDS = {"event": N_("the event card “%(name)s”"), "attack": N_("the attack card “%(name)s”"),
               "room": N_("the room “%(name)s”"), "item": N_("the item “%(name)s”"), "": N_("“%(name)s”")}


def cause_words(by: str) -> str:
    """``event:Coolant Leak`` as the story names it: ``the event card “Coolant Leak”`` (decision 0045).

    >>> cause_words("event: coolant leak"), cause_words("Analyze Toolset")
    ('the event card “Coolant Leak”', '“Analyze Toolset”')
    """
    prefix, name = split_cause(by)
    if prefix in ("", "event", "attack", "room"):
        catalogues = {"event": (EVENT_CARDS,), "attack": (ATTACK_CARDS,), "room": (ROOMS,)}.get(
            prefix, (EVENT_CARDS, ATTACK_CARDS, ACTION_CARDS, ROOMS))
        found = next((c for cat in catalogues if (c := cat.resolve(name)) is not None), None)
        name = local(found) if found is not None else shown("item", name, name)
    else:
        name = shown("item", name, name)
    return _(CAUSE_WORDS[prefix]) % {"name": name}


def caused_by(text: str, by: str) -> str:
    """``text`` with the clause naming its cause, before its full stop: ``… dies (caused by …).``"""
    clause = _(" (caused by %(cause)s)") % {"cause": cause_words(by)}
    return text[:-1] + clause + "." if text.endswith(".") else text + clause


_SEAT = re.compile(r"\bseat (\d+) \(([^,()]+)(?:, ([^()]+))?\)")
_BARE_SEAT = re.compile(r"\bseat (\d+)\b")


def _room_named(state: LockdownState, space: Any) -> str | None:
    """A room space as a consequence names it: the room's printed name once known, else the space, unexplored."""
    if not space:
        return None
    r = state.ship.rooms.get(space)
    if r is not None and r.tile and (r.explored or r.kind == "special"):
        return local(ROOMS[r.tile])
    return _("%(space)s (unexplored)") % {"space": space} if r is not None else str(space)


def _local_consequence(state: LockdownState, consequence: Consequence) -> str | None:
    """The consequence in the language in force from its code's sentence (decision 0028), its seat, rooms and
    round filled in from its data; None in English (the rules' own text, with every particular) or when the
    sentence needs a particular this consequence does not carry."""
    lang = current_language()
    sentence = display_name("consequence", consequence.type, lang) if lang != "en" else None
    if not sentence:
        return None
    data = consequence.data
    values = {"who": person(state, data["seat"]) if data.get("seat") is not None else None,
              "room": _room_named(state, data.get("room")), "to_room": _room_named(state, data.get("to_room")),
              "round": data.get("round")}
    try:
        return sentence % {k: v for k, v in values.items() if v is not None}
    except (KeyError, TypeError, ValueError):
        return None


def tell_consequence(state: LockdownState, consequence: Consequence) -> str:
    """A derived consequence as a sub-line: ``seat 3 (Greta, Sentry)`` becomes ``Greta (Sentry)``; in Polish,
    its code's sentence."""
    told = _local_consequence(state, consequence)
    if told:
        return told[0].upper() + told[1:]
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

ESCAPES = {IN_BUNKER: N_("reaches the Bunker"), EVACUATED: N_("escapes in pod %(pod)s"), LOCKED_IN: N_("locks in the Isolation Room")}


def moments(before: LockdownState, fact: Fact | None, after: LockdownState,
            consequences: tuple[Consequence, ...] = ()) -> list[Moment]:
    """The turning points of one step, found by comparing the states (so derived ones count too)."""
    out: list[Moment] = []
    for seat in after.seats:
        was, now = before.crew.characters[seat], after.crew.characters[seat]
        if now.status != was.status:
            if now.status == DEAD:
                out.append(Moment("death", _("%(who)s dies: %(cause)s") % {"who": person(before, seat), "cause": _(DEATH_WORDS.get(now.cause, now.cause))}, seat))
            elif now.status in ESCAPES:
                out.append(Moment("escape", f"{person(before, seat)} {_(ESCAPES[now.status]) % {'pod': now.pod or '?'}}", seat))
    gone = {i.id: i for i in before.colony.intruders} .keys() - {i.id for i in after.colony.intruders}
    kills = [c for c in consequences if c.type in ("killed", "larva-killed", "carcass", "queen-killed")]
    if gone and kills:
        what = _list(_("the %(kind)s") % {"kind": _(i.kind)} for i in before.colony.intruders if i.id in gone)
        killer = fact.actor if fact is not None else None
        if killer is None and before.clock.pending and before.clock.pending[0].kind == "injury_check":
            killer = before.clock.pending[0].seat  # the injury check of the one who hit it
        out.append(Moment("kill", _("%(who)s kills %(what)s") % {"who": person(before, killer), "what": what} if killer is not None
                          else ngettext("%(what)s is killed", "%(what)s are killed", len(gone)) % {"what": what.capitalize()}, killer))
    on_before = sum(1 for _token, on in before.ship.power.values() if on)
    on_after = sum(1 for _token, on in after.ship.power.values() if on)
    if on_after < on_before:
        out.append(Moment("power", _("Power lost (%(n)s of 4 on)") % {"n": on_after} if on_after else _("Power lost everywhere")))
    elif on_after > on_before or (after.ship.emergency_power and not before.ship.emergency_power):
        out.append(Moment("power", _("Power restored")))
    if after.systems.self_destruct and not before.systems.self_destruct:
        out.append(Moment("self_destruct", _("Self-destruct started")))
    elif before.systems.self_destruct and not after.systems.self_destruct and not after.end.ended:
        out.append(Moment("self_destruct", _("Self-destruct stopped")))
    if after.systems.alarm is not None and before.systems.alarm is None:
        out.append(Moment("alarm", _("The alarm sounds")))
    if after.systems.gate_open and not before.systems.gate_open:
        out.append(Moment("gate", _("The main gate opens")))
    if after.colony.first_encounter and not before.colony.first_encounter:
        out.append(Moment("encounter", _("First encounter")))
    if fact is not None and fact.type == "ContingencyTokenRevealed":
        out.append(Moment("contingency", _("Contingency revealed: %(token)s") % {"token": plan_name(fact.data.get("token"))}))
    if fact is not None and fact.type == "ObjectiveRevealed":
        out.append(Moment("objective", _("%(who)s reveals %(objective)s") % {"who": person(before, fact.actor), "objective": objective_name(fact.data.get("objective"))},
                          fact.actor))
    if after.end.ended and not before.end.ended:
        out.append(Moment("end",
                          _("The end: %(ending)s") % {"ending": _(ENDING_WORDS.get(after.end.ending, after.end.ending))}))
    return out


# --- how it ended --------------------------------------------------------------------------------------------------

SWEEP = N_("the rapid response team killed everyone still in the base who was not locked in the Isolation Room")
END_EFFECTS = {
    "time_out": SWEEP,
    "alarm_procedure": SWEEP,
    "base_destroyed": N_("the base exploded, killing everyone inside (the Isolation Room too) and every night stalker"),
}
END_CAUSES = {
    "time_out": N_("Time ran out: the time token reached the last space"),
    "alarm_procedure": N_("The alarm procedure ended the game: the time token left the alarm procedure's space"),
    "base_destroyed": N_("The base was destroyed: the self-destruct sequence ran out (or fire or malfunctions overran it)"),
}


def ending_story(state: LockdownState) -> str:
    """How the game ended, in a paragraph (empty while it runs)."""
    if not state.end.ended:
        return ""
    if state.end.ending == "abandoned":
        return _("The table abandoned the game before its end") + (f" ({state.end.ending_note})." if state.end.ending_note else ".")
    parts = []
    if state.end.ending == "no_characters_left":
        fates = {}
        for seat in state.seats:
            c = state.crew.characters[seat]
            if c.status == DEAD and c.was is not None and c.cause in END_EFFECTS:
                key = {"isolation": N_("locked themselves in the Isolation Room"), "pod": N_("sat in a pod")}.get(c.was, N_("stayed"))
            elif c.status == DEAD:
                key = N_("died")
            else:
                key = {IN_BUNKER: N_("reached the Bunker"), EVACUATED: N_("escaped by pod"),
                       LOCKED_IN: N_("locked themselves in the Isolation Room")}.get(c.status, N_("left"))
            fates.setdefault(key, []).append(person(state, seat))
        parts.append(_("Nobody was left in the base: ") + "; ".join(
            f"{_list(who)} {_(what)}" for what, who in fates.items()) + ".")
        how = END_EFFECTS.get(state.end.end_effects or "")
        if how:
            jump = {"time_out": _("the last space"), "alarm_procedure": _("the alarm procedure's space"),
                    "base_destroyed": _("the self-destruct token")}[state.end.end_effects]
            parts.append(_("The time token jumped to %(space)s: %(how)s.") % {"space": jump, "how": _(how)})
    else:
        what = _(END_CAUSES[state.end.ending]) if state.end.ending in END_CAUSES else _(ENDING_WORDS.get(state.end.ending, IT_ENDED)).capitalize()
        how = END_EFFECTS.get(state.end.end_effects or state.end.ending or "")
        parts.append(f"{what}" + (f"; {_(how)}." if how else "."))
    if state.end.ending_note:
        parts.append(_("Table note: %(note)s.") % {"note": state.end.ending_note})
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
