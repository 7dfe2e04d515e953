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
from service.rules.lockdown import event_phase, movement, setup, turns, warrants
from service.rules.lockdown.event_phase import EVENT_STEP_FACT  # noqa: F401 (old path: checks.EVENT_STEP_FACT)
from service.rules.lockdown.turns import (  # noqa: F401 (old paths: checks.ACTIONS, checks.action_cost …)
    ACTIONS, BASIC_COST, MOVE_COST, ROOM_ACTION_COST, STEP_NAMES, action_cost, turn_check,
)
from service.rules.lockdown.state import (
    SETUP, LockdownState, who,
)

PENDING_FACT = {"explore": "RoomExplored", "noise": "NoiseRolled", "encounter": "EncounterTokenDrawn",
                "attack": "IntruderAttacked", "injury_check": "InjuryCheckDrawn", "retreat": "IntruderRetreated"}
_PENDING_TYPES = frozenset(PENDING_FACT.values())  # a set: ``_order`` asks every fact (decision 0048)
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
    "ActionInterrupted",  # right after the action it cancels, before its sub-steps (decision 0038)
))
SETUP_FACTS = frozenset(("BoardPrepared", "CharacterChosen", "SetupCompleted", "ObjectivesDealt",
                         "ContingencyTokensDealt", "ItemGained", "ComputerCardRevealed", "ContingencyTokenRevealed"))


V = violation  # the kit's builder, short for the many rules below


def pending_text(state: LockdownState) -> str:
    p = state.clock.pending[0]
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
    t = fact.type
    if state.end.ended:
        if t in AFTER_END and unknown:
            return unknowns.violations(state, fact, unknown)
        if t in AFTER_END:
            return RULES.get(t, _no_rule)(state, fact)
        return [V("game-over", f"The game has already ended ({state.end.ending}); nothing more can be recorded.",
                  S.END)]
    if t == "GameEnded":
        return warrants.check(state, fact)
    clock = state.clock
    # ``_order``'s answer for a fact that may come at any moment of play, or a fact of play with no sub-step due,
    # without its call (decision 0051); the rest asks it
    if t in ANYTIME and clock.phase != SETUP or not clock.pending and clock.phase != SETUP and t not in _PENDING_TYPES:
        out = []
    else:
        out = _order(state, fact)
    if unknown:  # its place in the game is checked; what depends on the unknown value cannot be
        coarse = unknowns.COARSE_RULES.get(t)  # a coarse fact's own flag does not depend on the value
        return out + unknowns.violations(state, fact, unknown) + (coarse(state, fact) if coarse else [])
    if out:
        return out
    rule = RULES.get(t)
    found = rule(state, fact) if rule is not None else []
    if t in _WARRANTS:  # a fact the rules do not derive must be warranted by the state or name its cause
        return found + warrants.check(state, fact)  # (decision 0039); six fact types, answered by the type
    return found


_WARRANTS = warrants.WARRANTS  # the same dict, without the module's attribute read per fact


def _no_rule(state: LockdownState, fact: Fact) -> list[Violation]:
    return []


# --- where in the game are we? -----------------------------------------------------------

def _order(state: LockdownState, fact: Fact) -> list[Violation]:
    t = fact.type
    if state.clock.phase == SETUP and t not in SETUP_FACTS:
        return [V("setup-not-finished", f"{t} cannot be recorded during setup; finish setup first "
                  f"(BoardPrepared, a CharacterChosen per seat, then SetupCompleted).", S.SETUP_BOARD)]
    # a free item use (cost 0: not an action) may come in the middle of a sub-step, e.g. the Flashlight during an
    # encounter in darkness (seed 000 L3546–3552; example_of_play.md B10)
    if t in ANYTIME or state.clock.phase == SETUP:
        return []
    if t == "ItemUsed" and not fact.data.get("cost") or t == "ActionCardPlayed" and fact.data.get("reaction"):
        return []
    pending = state.clock.pending
    if pending:
        p = pending[0]
        seat_ok = fact.actor == p.seat if FACTS[t].actor == "seat" else True
        if t != PENDING_FACT[p.kind] or not seat_ok:
            if t in _PENDING_TYPES and t != PENDING_FACT[p.kind] and not any(
                    PENDING_FACT.get(q.kind) == t for q in pending):
                return [_not_due(state, fact)]
            return [V("pending-step", f"First record {pending_text(state)}; {t} by {who(state, fact.actor)} "
                      f"has to wait until then.", _pending_section(p.kind))]
        return []
    if t in _PENDING_TYPES:
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
    now = f" Pending: {pending_text(state)}." if state.clock.pending else ""
    return V(rule, f"{fact.type} by {who(state, fact.actor)} was not expected: {what}.{now}", section)


RULES: dict[str, Callable[[LockdownState, Fact], list[Violation]]] = {
    **setup.RULES,  # declared in setup (decision 0029)
    "FirstPlayerPassed": turns.check_first_player_passed,  # declared in turns (decision 0029)
    "CharacterMoved": movement.check_move,
    "CharacterMovedCarefully": movement.check_move,
    "Passed": turns.check_passed,
    "ActionInterrupted": turns.check_interrupted,  # decision 0038
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
