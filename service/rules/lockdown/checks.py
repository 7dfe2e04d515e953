"""Rule checks: is a well-shaped fact legal in this state?

Each check returns Violations that name the rule, say what was wrong and what the table
should record instead, and cite the rulebook. Shape problems come from ``facts.py``.

    >>> from service.rules.base import Fact, Seat, Setup
    >>> from service.rules.lockdown.state import initial_state
    >>> [v.rule for v in check(initial_state(Setup(players=(Seat(1, "A"),))), Fact(1, "TimeAdvanced"))]
    ['setup-not-finished']
"""
from __future__ import annotations

from typing import Callable

from service.rules.base import Fact, Violation
from service.rules.kit.builders import violation
from service.rules.lockdown import sections as S, unknowns
from service.rules.lockdown.components import CHARACTERS, ROOMS
from service.rules.lockdown.facts import AFTER_END, FACTS, shape_violations
from service.rules.lockdown.movement import KNEE_WOUNDS, knee_surcharge_due  # noqa: F401 (old paths)
from service.rules.lockdown import event_phase, movement
from service.rules.lockdown.event_phase import EVENT_STEP_FACT  # noqa: F401 (old path: checks.EVENT_STEP_FACT)
from service.rules.lockdown.turns import (  # noqa: F401 (old paths: checks.ACTIONS, checks.action_cost …)
    ACTIONS, BASIC_COST, MOVE_COST, ROOM_ACTION_COST, STEP_NAMES, action_cost, turn_check,
)
from service.rules.lockdown.state import (
    BOARD, FIRST_PLAYER, PLAYER, READY, SETUP, LockdownState, who,
)

PENDING_FACT = {"explore": "RoomExplored", "noise": "NoiseRolled", "encounter": "EncounterTokenDrawn",
                "attack": "IntruderAttacked", "injury_check": "InjuryCheckDrawn", "retreat": "IntruderRetreated"}
# facts the table may record at any moment of play (effects it resolved, corrections of hidden information)
ANYTIME = frozenset((
    "WoundSuffered", "WoundDressed", "WoundHealed", "ContaminationCardReceived", "ContaminationScanned",
    "LarvaRemoved", "SlimeChanged", "CharacterDied", "KnowledgeGained", "IntruderMoved", "IntruderPlaced",
    "IntruderRemoved", "IntruderInjured", "FirePlaced", "FireRemoved", "MalfunctionPlaced", "MalfunctionRemoved",
    "DoorChanged", "NoiseMarkerPlaced", "NoiseMarkerRemoved", "PowerChanged", "SelfDestructStarted", "ItemGained",
    "ObjectivesDealt", "ObjectiveChosen", "ObjectiveRevealed", "ContingencyTokensDealt", "ContingencyTokenPeeked",
    "ContingencyTokenTaken", "ContingencyTokenRevealed", "WeaknessRevealed", "ComputerCardRevealed", "ItemDropped",
    "RecordGap", "CharacterEscaped",  # a coarse record (docs/decisions/0018)
    "CharacterMovedByEffect",  # a card's move happens inside the card's play, any moment
))
SETUP_FACTS = frozenset(("BoardPrepared", "CharacterChosen", "SetupCompleted", "ObjectivesDealt",
                         "ContingencyTokensDealt", "ItemGained", "ComputerCardRevealed", "ContingencyTokenRevealed"))


V = violation  # the kit's builder, short for the many rules below


def pending_text(state: LockdownState) -> str:
    p = state.pending[0]
    if p.kind in ("attack", "injury_check", "retreat"):
        what = {"attack": "the attack of", "injury_check": "the injury check of", "retreat": "the retreat of"}[p.kind]
        return f"{what} intruder {p.intruder} in {state.room_label(p.room)} ({PENDING_FACT[p.kind]})"
    what = {"explore": "the exploration of", "noise": "the noise roll in", "encounter": "the encounter in"}[p.kind]
    return f"{what} {state.room_label(p.room)} for {who(state, p.seat)} ({PENDING_FACT[p.kind]})"


def check(state: LockdownState, fact: Fact) -> list[Violation]:
    shape = shape_violations(state, fact)
    if shape:
        return shape
    return check_shaped(state, fact, unknowns.unknown_fields(fact))


def check_shaped(state: LockdownState, fact: Fact, unknown: list[str]) -> list[Violation]:
    """``check`` of a fact already found well shaped, its unknown fields (``unknowns.unknown_fields``) given: the
    fold works both out once for the check and the apply of a fact (``ruleset.checked_apply``)."""
    if state.ended:
        if fact.type in AFTER_END and unknown:
            return unknowns.violations(state, fact, unknown)
        if fact.type in AFTER_END:
            return RULES.get(fact.type, _no_rule)(state, fact)
        return [V("game-over", f"The game has already ended ({state.ending}); nothing more can be recorded.", S.END)]
    if fact.type == "GameEnded":
        return []
    out = _order(state, fact)
    if unknown:  # its place in the game is checked; what depends on the unknown value cannot be
        coarse = unknowns.COARSE_RULES.get(fact.type)  # a coarse fact's own flag does not depend on the value
        return out + unknowns.violations(state, fact, unknown) + (coarse(state, fact) if coarse else [])
    if out:
        return out
    return RULES.get(fact.type, _no_rule)(state, fact)


def _no_rule(state: LockdownState, fact: Fact) -> list[Violation]:
    return []


# --- where in the game are we? -----------------------------------------------------------

def _order(state: LockdownState, fact: Fact) -> list[Violation]:
    t = fact.type
    if state.phase == SETUP and t not in SETUP_FACTS:
        return [V("setup-not-finished", f"{t} cannot be recorded during setup; finish setup first "
                  f"(BoardPrepared, a CharacterChosen per seat, then SetupCompleted).", S.SETUP_BOARD)]
    # a free item use (cost 0: not an action) may come in the middle of a sub-step, e.g. the Flashlight during an
    # encounter in darkness (seed 000 L3546–3552; example_of_play.md B10)
    free_item = t == "ItemUsed" and not fact.data.get("cost")
    if t in ANYTIME or (t == "ActionCardPlayed" and fact.data.get("reaction")) or free_item or state.phase == SETUP:
        return []
    if state.pending:
        p = state.pending[0]
        seat_ok = fact.actor == p.seat if FACTS[t].actor == "seat" else True
        if t != PENDING_FACT[p.kind] or not seat_ok:
            if t in PENDING_FACT.values() and t != PENDING_FACT[p.kind] and not any(
                    PENDING_FACT.get(q.kind) == t for q in state.pending):
                return [_not_due(state, fact)]
            return [V("pending-step", f"First record {pending_text(state)}; {t} by {who(state, fact.actor)} "
                      f"has to wait until then.", _pending_section(p.kind))]
        return []
    if t in PENDING_FACT.values():
        return [_not_due(state, fact)]
    return []


def _pending_section(kind: str) -> str:
    return {"explore": S.EXPLORE, "noise": S.NOISE, "encounter": S.ENCOUNTER, "attack": S.ATTACK,
            "injury_check": S.INJURIES, "retreat": S.RETREAT}.get(kind, S.TURNS)


def _not_due(state: LockdownState, fact: Fact) -> Violation:
    rule, what, section = {
        "RoomExplored": ("exploration-not-due", "no character has just entered an unexplored room", S.EXPLORE),
        "NoiseRolled": ("noise-roll-not-due", "no noise roll is due (one follows a move into an empty room, "
                        "or an adult/breeder colony draw)", S.NOISE),
        "EncounterTokenDrawn": ("encounter-not-due", "no encounter is due (one follows a noise result on a "
                                "corridor that already had a noise marker)", S.ENCOUNTER),
        "IntruderAttacked": ("attack-not-due", "no night stalker attack is due (surprise attack, event step 7 or an "
                             "escape; effects use the table's facts)", S.ATTACK),
        "InjuryCheckDrawn": ("injury-check-not-due", "no injured stalker awaits its injury check", S.INJURIES),
        "IntruderRetreated": ("retreat-not-due", "no stalker is retreating", S.RETREAT),
    }[fact.type]
    now = f" Pending: {pending_text(state)}." if state.pending else ""
    return V(rule, f"{fact.type} by {who(state, fact.actor)} was not expected: {what}.{now}", section)


# --- setup ------------------------------------------------------------------------------

def _board_prepared(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.phase != SETUP or state.step != BOARD:
        return [V("setup-order", "The board has already been prepared for this game.", S.SETUP_BOARD)]
    out = []
    if fact.data["board"] != state.board.id:
        out.append(V("board-mismatch", f"This game is set up for the {state.board.id!r} board, not "
                     f"{fact.data['board']!r}.", S.SETUP_BOARD, "board"))
    seen: dict[str, str] = {}
    for place, tile in (fact.data.get("tiles") or {}).items():
        if tile is None:
            continue
        room = ROOMS.resolve(tile)
        kind = state.board.places[place].kind
        if kind != "any" and room.kind != kind:
            out.append(V("tile-kind", f"{room.en} is a {room.kind!r} tile; slot {place} takes a {kind!r} tile.",
                         S.SETUP_BOARD, "tiles"))
        if room.id in seen:
            out.append(V("tile-twice", f"{room.en} cannot lie in both {seen[room.id]} and {place}.",
                         S.SETUP_BOARD, "tiles"))
        seen[room.id] = place
    for place, sector in (fact.data.get("sectors") or {}).items():
        printed = state.board.places[place].sector
        if printed is not None and printed != sector:
            out.append(V("sector-fixed", f"{place} lies in {printed} on this board, not {sector}.", S.SETUP_BOARD,
                         "sectors"))
    return out


def _character_chosen(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.phase != SETUP:
        return [V("setup-order", "Setup is over; characters can no longer be chosen.", S.SETUP_CHARACTERS)]
    if state.step == BOARD:
        return [V("setup-order", "Characters are chosen after the board is prepared (record BoardPrepared first).",
                  S.SETUP_CHARACTERS)]
    seat = fact.actor
    char = CHARACTERS.resolve(fact.data["character"])
    if state.characters[seat].character is not None:
        return [V("already-chosen", f"{who(state, seat)} has already chosen a character.", S.SETUP_CHARACTERS)]
    taken = {c.character: c.seat for c in state.characters.values() if c.character}
    if char.id in taken:
        return [V("character-taken", f"{char.en} was already chosen by seat {taken[char.id]}; choose another "
                  f"character.", S.SETUP_CHARACTERS, "character")]
    if char.extra.get("origin") != "lockdown" and not state.nemesis_characters:
        return [V("nemesis-character-not-in-play", f"{char.en} is a character of the original Nemesis"
                  f"{' / Aftermath' if char.extra.get('origin') == 'aftermath' else ''}; set the option "
                  f"characters = nemesis to play with them.", S.NEMESIS, "character")]
    number = fact.data.get("player")
    if number is not None:  # help cards 1..n are dealt, 1 each; player 1 chooses first, then 2, … (L1052–1058, L1106–1110)
        if number > len(state.seats):
            return [V("no-such-help-card", f"A {len(state.seats)}-player game uses help cards 1–{len(state.seats)}, "
                      f"not {number}.", S.SETUP_CHARACTERS, "player")]
        holder = next((c.seat for c in state.characters.values() if c.player_number == number), None)
        if holder is not None:
            return [V("help-card-taken", f"Seat {holder} holds help card {number}.", S.SETUP_CHARACTERS, "player")]
        later = [c for c in state.characters.values() if c.player_number and c.player_number > number]
        if later:
            return [V("choice-order", f"Player {number} chooses before player {later[0].player_number} (seat "
                      f"{later[0].seat}), in help-card order.", S.SETUP_CHARACTERS, "player")]
    colour = char.extra.get("colour")
    same = next((c for c in state.characters.values() if c.character in CHARACTERS and colour
                 and CHARACTERS[c.character].extra.get("colour") == colour), None)
    if same is not None:  # each player keeps the selection card of their colour (seed 000 L4569–4572)
        return [V("character-colour-taken", f"{CHARACTERS[same.character].en} (seat {same.seat}) already plays "
                  f"the {colour} character; only 1 character per colour.", S.NEMESIS, "character")]
    return []


def _setup_completed(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.phase != SETUP:
        return [V("setup-order", "Setup was already completed.", S.SETUP_FIRST_PLAYER)]
    if state.step != READY:
        missing = [str(s) for s in state.seats if state.characters[s].character is None]
        if state.step == BOARD:
            return [V("setup-order", "Setup is not complete: record BoardPrepared first.", S.SETUP_BOARD)]
        return [V("setup-order", f"Setup is not complete: seats {', '.join(missing)} have not chosen a character.",
                  S.SETUP_CHARACTERS)]
    one = next((s for s in state.seats if state.characters[s].player_number == 1), None)
    first = fact.data.get("first_player")
    if one is not None and first is not None and first != one:
        return [V("first-player-is-player-1", f"Player 1 (seat {one}, help card 1) takes the first player token, "
                  f"not seat {first}.", S.SETUP_FIRST_PLAYER, "first_player")]
    return []


# --- player phase -----------------------------------------------------------------------

def _first_player_passed(state: LockdownState, fact: Fact) -> list[Violation]:
    if state.phase == PLAYER and state.round == 1:
        return [V("first-player-round-1", "The first player token does not move in round 1; start with the first "
                  "player's turn instead.", S.FIRST_PLAYER)]
    if state.phase != PLAYER or state.step != FIRST_PLAYER:
        return [V("first-player-not-now", "The first player token passes only at the start of a round, after the "
                  "cards are drawn.", S.FIRST_PLAYER)]
    out = []
    if fact.actor != state.first_player:
        out.append(V("not-first-player", f"Only seat {state.first_player}, who holds the first player token, passes "
                     f"it on (not seat {fact.actor}).", S.FIRST_PLAYER, "actor"))
    to = fact.data.get("to")
    left = state.next_first_player()
    # the plain left neighbour stays accepted: facts stored before observers were skipped named it
    if to is not None and to not in (left, state.left_of(state.first_player)):
        out.append(V("first-player-wrong-seat", f"The token goes to the next player on the left still in the "
                     f"game: seat {left}, not seat {to}.", S.FIRST_PLAYER, "to"))
    return out




def _passed(state: LockdownState, fact: Fact) -> list[Violation]:
    out = turn_check(state, fact)
    d = fact.data.get("discarded") or 0  # null means not given, like an absent field
    if not out and d > state.characters[fact.actor].hand:
        out.append(V("discard-too-many", f"{who(state, fact.actor)} has only {state.characters[fact.actor].hand} "
                     f"cards in hand and cannot discard {d}.", S.PASS, "discarded"))
    return out


RULES: dict[str, Callable[[LockdownState, Fact], list[Violation]]] = {
    "BoardPrepared": _board_prepared,
    "CharacterChosen": _character_chosen,
    "SetupCompleted": _setup_completed,
    "FirstPlayerPassed": _first_player_passed,
    "CharacterMoved": movement.check_move,
    "CharacterMovedCarefully": movement.check_move,
    "Passed": _passed,
    "RoomExplored": movement.check_room_explored,
    "EncounterTokenDrawn": movement.check_encounter,
    "CssTokenRevealed": event_phase.check_css,
    "TimeAdvanced": event_phase.event_step_check,
    "NoiseMarkersCleared": event_phase.check_cleared,
    "EventCardDrawn": event_phase.check_event_card,
    "ColonyTokenDrawn": event_phase.check_colony,
    "IntruderMoved": event_phase.check_intruder_moved,
    "NoiseRolled": movement.check_noise_rolled,
}


from service.rules.lockdown.checks_play import RULES as _PLAY_RULES  # noqa: E402

RULES.update(_PLAY_RULES)
RULES.update(unknowns.COARSE_RULES)
