"""What may be recorded next, with the legal options — for guided recording and random play.

Linked choices (a destination and the corridor leading to it) are offered as one Expected
per combination, so every combination of listed options is legal. ``None`` marks a free
value (a drawn token's face, a card the table turned over).

The game's own next steps come first; then the *table effects* (``inputs_play.table_effects``): every fact a
card, event or item may make the table record at any moment of play (wounds, fire, doors, stalkers, …), each
with its legal options and a note starting "table effect". Offers are immutable and may be shared between
calls: copy ``options`` before changing it.

    >>> from service.rules.base import Seat, Setup
    >>> from service.rules.lockdown.state import initial_state
    >>> [e.type for e in next_inputs(initial_state(Setup(players=(Seat(1, "A"),))))]
    ['BoardPrepared', 'GameEnded']
"""
from __future__ import annotations

from service.rules.base import Expected
from service.rules.lockdown.board import TECHNICAL
from service.rules.lockdown.checks import MOVE_COST, knee_surcharge_due, who
from service.rules.lockdown.components import CHARACTERS, EVENT_CARDS, NOISE_RESULTS, ROOMS
from service.rules.lockdown.facts import CSS_TOKENS, ENDINGS, MARS_CARD
from service.rules.lockdown.hidden_information import contingency_tokens, objective_cards  # noqa: F401 (old path)
from service.rules.lockdown.state import (
    ATTACKS, BOARD, CHARACTERS as CHARACTERS_STEP, COLONY_STEP, CSS, EVENT, EVENT_CARD, FIRST_PLAYER, NOISE_CLEANUP,
    PLAYER, READY, SETUP, TIME, TURNS, LockdownState,
)


def next_inputs(state: LockdownState) -> list[Expected]:
    from service.rules.lockdown import inputs_play
    if state.ended:
        return inputs_play.after_end(state)
    if state.pending:
        out = inputs_play.pending(state) or _pending(state)
    else:
        out = _regular(state)
        if state.phase != SETUP:
            out = inputs_play.due(state) + out
    if state.phase != SETUP:  # effects the table resolves at any moment, after the game's own next steps
        out += inputs_play.table_effects(state)
    out.append(Expected("GameEnded", None, {"ending": list(ENDINGS), "note": None},
                        "the table may end the game at any time (e.g. abandoned)"))
    return out


def _pending(state: LockdownState) -> list[Expected]:
    p = state.pending[0]
    if p.kind == "explore":
        slot = state.rooms[p.room]
        if slot.tile is not None:
            tiles = [slot.tile]
        else:
            used = {r.tile for r in state.rooms.values() if r.tile}
            tiles = [r.id for r in ROOMS if r.kind in ((slot.kind,) if slot.kind != "any" else ("I", "II"))
                     and r.id not in used]
        if state.board.is_crossroad(p.room):
            tiles = ["crossroad"]  # mars side: no tile, only the surface exploration token (lockdown.md §12.5)
        return [Expected("RoomExplored", p.seat, {"room": tiles, "token": _exploration_tokens(state, p.room)},
                         f"{who(state, p.seat)} entered unexplored {p.room}: record the tile and the exploration "
                         f"token revealed")]
    if p.kind == "noise":
        extra = [MARS_CARD] if state.board.surface and state.board.places[p.room].zone != "underground" else []
        return [Expected("NoiseRolled", p.seat, {"result": list(NOISE_RESULTS) + extra},
                         f"noise roll for {who(state, p.seat)} in {state.room_label(p.room)} ({p.reason})")]
    return [Expected("EncounterTokenDrawn", p.seat, {"token": _bag(state), "number": list(TOKEN_NUMBERS)},
                     f"encounter in {state.room_label(p.room)}: record the token drawn from the colony bag")]


TOKEN_NUMBERS = range(0, 5)  # the numbers printed on the colony tokens' backs (data/colony.json: 0-4)


def _exploration_tokens(state: LockdownState, place: str) -> list[dict] | None:
    """The underground exploration tokens as effect x item number (data/exploration.json); the surface's
    tokens and boards without the data stay free values."""
    from service.rules.lockdown import catalog
    if state.board.surface and state.board.places[place].zone != "underground":
        return None
    data = catalog.data("exploration")
    low, high = data["items_range"]
    return [{"effect": e, "items": n} for e in data["effects"] for n in range(low, high + 1)]


def _bag(state: LockdownState) -> list[str]:
    return [t for t, n in state.bag.items() if n > 0]


def _regular(state: LockdownState) -> list[Expected]:
    if state.phase == SETUP:
        if state.step == BOARD:
            return [Expected("BoardPrepared", None, {"board": [state.board.id], "tiles": None},
                             "lay out the board; record the room tiles per slot if the table knows them")]
        if state.step == CHARACTERS_STEP:
            taken = {c.character for c in state.characters.values() if c.character in CHARACTERS}
            colours = {CHARACTERS[t].extra.get("colour") for t in taken}
            free = [c.id for c in CHARACTERS if c.id not in taken and c.extra.get("colour") not in colours
                    and (c.extra.get("origin") == "lockdown" or state.nemesis_characters)]
            return [Expected("CharacterChosen", s, {"character": free}, f"{who(state, s)} chooses a character")
                    for s in state.seats if state.characters[s].character is None]
        if state.step == READY:
            return _setup_extras(state) + [Expected("SetupCompleted", None, {"first_player": list(state.seats)},
                             "setup done; the first player is the seat holding help card 1")]
        return []
    if state.phase == PLAYER:
        if state.step == FIRST_PLAYER:
            to = state.next_first_player()
            skipped = to != state.left_of(state.first_player)
            return [Expected("FirstPlayerPassed", state.first_player, {"to": [to]},
                             "the first player token passes to the left" + (
                                 " (skipping players whose characters left the game)" if skipped else ""))]
        if state.step == TURNS and state.turn is not None:
            return _actions(state, state.turn)
        return []
    if state.phase == EVENT:
        return _event(state)
    return []


def _actions(state: LockdownState, seat: int) -> list[Expected]:
    c = state.characters[seat]
    b = state.board
    out: list[Expected] = []
    who_ = who(state, seat)
    if c.status != "base":
        return []
    if c.room is not None and c.hand >= MOVE_COST["CharacterMoved"]:
        if b.has_graph:
            for key, number, other in b.exits(c.room):
                if key in state.doors:
                    continue
                out.append(Expected("CharacterMoved", seat, {"to_room": [other], "corridor": [number]},
                                    f"{who_} moves to {state.room_label(other)}"))
        else:
            for rooms, numbers, _ in _open_groups(state, c.room, False):
                out.append(Expected("CharacterMoved", seat, {"to_room": rooms, "corridor": numbers},
                                    f"{who_} moves; this board's corridors are unknown, so any room and corridor "
                                    f"number is accepted (but not through a closed door)"))
    if c.room is not None and c.hand >= MOVE_COST["CharacterMovedCarefully"] and not state.in_combat(seat):
        if b.has_graph:
            for key, number, other in b.exits(c.room):
                if key in state.doors:
                    continue
                free = [n for n in b.numbers_of(other) if b.corridor_key(other, n) not in state.noise]
                if free:
                    out.append(Expected("CharacterMovedCarefully", seat,
                                        {"to_room": [other], "corridor": [number], "noise_corridor": free},
                                        f"{who_} moves carefully to {state.room_label(other)}"))
        else:
            for rooms, numbers, free in _open_groups(state, c.room, True):
                if free:
                    out.append(Expected("CharacterMovedCarefully", seat,
                                        {"to_room": rooms, "corridor": numbers, "noise_corridor": free},
                                        f"{who_} moves carefully; the noise corridor must not already hold a "
                                        f"marker"))
    if out and knee_surcharge_due(state, seat):  # faq_lockdown.md 7: the amount is the table's (card not in sources)
        out = [Expected(e.type, seat, {**e.options, "surcharge": list(range(1, c.hand - MOVE_COST[e.type] + 1))},
                        f"{e.note} (+ the Knee wound's surcharge, recorded as 'surcharge')")
               for e in out if c.hand > MOVE_COST[e.type]]
    from service.rules.lockdown.inputs_play import actions
    out.extend(actions(state, seat))
    out.append(Expected("Passed", seat, {"discarded": list(range(c.hand + 1))},
                        f"{who_} passes (counts as an action; no more actions this round)"))
    return out


def _open_groups(state: LockdownState, here: str, careful: bool) -> list[tuple[list[str], list, list[int]]]:
    """Board without a corridor graph: the rooms a move may enter, grouped so that every listed corridor is open
    (no closed door: lockdown.md §2.8) and, for a careful move, every listed noise corridor is free."""
    b = state.board
    numbers: list = [1, 2, 3, 4] + (["path"] if b.surface else [])
    rooms = [p for p in state.rooms if p != here]
    doors, noise = state.doors, state.noise if careful else frozenset()
    if not doors and not noise:
        return [(rooms, numbers, [1, 2, 3, 4])]
    groups: dict[tuple, list[str]] = {}
    for p in rooms:
        open_ = tuple(n for n in numbers if b.corridor_key(p, n) not in doors) if doors else tuple(numbers)
        free = tuple(n for n in (1, 2, 3, 4) if b.corridor_key(p, n) not in noise) if noise else (1, 2, 3, 4)
        groups.setdefault((open_, free), []).append(p)
    return [(rs, list(o), list(f)) for (o, f), rs in groups.items() if o]


def _event(state: LockdownState) -> list[Expected]:
    step = state.step
    if step == CSS:
        return [Expected("CssTokenRevealed", None, {"token": list(CSS_TOKENS)},
                         f"a CSS token lies under space {state.time_label}: flip it")]
    if step == TIME:
        return [Expected("TimeAdvanced", None, {}, "move the time token 1 space right")]
    if step == NOISE_CLEANUP:
        b = state.board
        removable, powered = [], []
        for key in sorted(state.noise):
            if key == TECHNICAL:
                continue
            rooms = b.rooms_of(key)
            if any(state.characters_in(r) for r in rooms) or not rooms:
                continue
            marker = {"room": rooms[0], "corridor": b.number_at(key, rooms[0])}
            removable.append(marker)
            # the rule removes them all (lockdown.md §4 step 6): that is the default; the sector power of a
            # corridor is left to the table, as the offer always did (docs/rules-gaps.md)
            powered.append(marker)
        return [Expected("NoiseMarkersCleared", None, {"removed": removable},
                         "list the markers removed (any of these, in powered sectors); the list may be empty",
                         {"removed": powered})]
    if step == EVENT_CARD:
        cards = [c.id for c in EVENT_CARDS if c.id not in state.removed_events]
        return [Expected("EventCardDrawn", None, {"card": cards, "corridors": None},
                         "draw an event card; 'corridors' are the numbers printed on it")]
    if step == COLONY_STEP:
        return [Expected("ColonyTokenDrawn", None, {"token": _bag(state)}, "draw a token from the colony bag")]
    return []


# The event phase in rulebook order (lockdown.md §4 steps 4-10, then step 2 of the next round): what the
# guided recorder walks through. ``fact`` is what the step records (None: derived, nothing to record).
ROUND_PROCEDURE = (
    (CSS, "CssTokenRevealed", "CSS pod launch (only under a CSS token)"),
    (TIME, "TimeAdvanced", "time token 1 space right"),
    (NOISE_CLEANUP, "NoiseMarkersCleared", "noise markers cleaned up"),
    (ATTACKS, "IntruderAttacked", "night stalker attacks, fire damage"),
    (EVENT_CARD, "EventCardDrawn", "event card"),
    (COLONY_STEP, "ColonyTokenDrawn", "colony bag token"),
    (FIRST_PLAYER, "FirstPlayerPassed", "first player token passes left (observers skipped)"),
)


def round_procedure(state: LockdownState) -> list[dict]:
    """The event phase's steps in rulebook order, each ``done`` (or not due), ``now`` or ``next``. Empty
    outside the event phase and the round's first step."""
    if state.ended or not (state.phase == EVENT or (state.phase == PLAYER and state.step == FIRST_PLAYER)):
        return []
    order = [step for step, _, _ in ROUND_PROCEDURE]
    now = state.step if state.step in order else None
    at = order.index(now) if now else -1
    out = []
    for i, (step, fact, label) in enumerate(ROUND_PROCEDURE):
        status = "done" if i < at else "now" if i == at else "next"
        out.append({"step": step, "fact": fact, "label": label, "status": status})
    return out


def _heavy(name: str) -> bool:
    """Is a starting item heavy (held in a hand)? Only items marked ``heavy: false`` are not (data/items.json)."""
    from service.rules.lockdown import catalog
    return next((bool(i.get("heavy", True)) for i in catalog.items().values() if i.get("en") == name), True)


def _setup_extras(state: LockdownState) -> list[Expected]:
    """Optional setup records: objectives, contingency tokens, starting items, the first computer card."""
    from service.rules.lockdown.facts import COMPUTER_DECK
    out = []
    n_obj = 1 if state.setup.mode == "coop" else 2
    n_tok = 2 if len(state.seats) <= 2 else 1
    for s in state.seats:
        c = state.characters[s]
        if not c.objectives:
            out.append(Expected("ObjectivesDealt", s, {"objectives": objective_cards(state, s)},
                                f"{n_obj} objective card(s) dealt"))
        if not c.contingency and state.setup.mode != "coop":
            out.append(Expected("ContingencyTokensDealt", s, {"tokens": contingency_tokens()},
                                f"{n_tok} contingency token(s) dealt"))
        start = CHARACTERS[c.character].extra.get("starting_item") if c.character in CHARACTERS else None
        if start and not c.items:
            if _heavy(start):
                out.append(Expected("ItemGained", s, {"item": [start], "colour": ["starting"], "where": ["hand"],
                                                      "ammo": [3]}, "the starting item"))
            else:  # e.g. the Probe Arm lies beside the board, in no hand slot (faq_lockdown.md 17)
                out.append(Expected("ItemGained", s, {"item": [start], "colour": ["starting"],
                                                      "where": ["backpack"]}, "the starting item (not heavy)"))
    if state.computer_card is None:
        out.append(Expected("ComputerCardRevealed", None, {"card": list(COMPUTER_DECK[:-1])},
                            "the first computer action card (Lock-Down is shuffled back at setup)"))
    return out
