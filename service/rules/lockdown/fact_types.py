"""Every Lockdown fact type, once, by game concept: its spec, its check, its effect — one registry, complete.

``FACT_TYPES`` is built from the concept table below and the vocabulary (``facts.FACTS``), the rules
(``checks.RULES``) and the effects (``apply.HANDLERS``); building it asserts that every fact type sits in
exactly one concept, has a spec and an effect, and that no check or effect exists for a type nobody declared.
A type with no rule of its own beyond its shape and its place in the game says so in ``SHAPE_ONLY``.
A concept with a module of its own (``CONCEPT_MODULES``) declares its types there, spec, check and effect
together, and the registries must hold exactly those. The offers (``next_inputs``) are grouped by the situation
of the game (a pending sub-step, the turn, the table effects); decision 0029 says what remains.

    >>> FACT_TYPES["DoorChanged"].concept
    'systems'
    >>> sorted(t for t, ft in FACT_TYPES.items() if ft.concept == "setup")
    ['BoardPrepared', 'CharacterChosen', 'SetupCompleted']
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from service.rules.base import Consequence, Fact, Violation
from service.rules.kit.facts import FactSpec
from service.rules.lockdown import (
    coarse_record, combat, condition, endgame, event_phase, hidden_information, items, movement, rooms, setup,
    systems, turns,
)
from service.rules.lockdown.apply import HANDLERS
from service.rules.lockdown.checks import RULES
from service.rules.lockdown.facts import FACTS
from service.rules.lockdown.state import LockdownState

#: the game's concepts in rulebook order, each with its fact types
CONCEPTS: dict[str, tuple[str, ...]] = {
    "setup": tuple(t.spec.type for t in setup.FACT_TYPES),
    "turns and actions": tuple(t.spec.type for t in turns.FACT_TYPES),
    "movement and exploration": tuple(t.spec.type for t in movement.FACT_TYPES),
    "event phase": tuple(t.spec.type for t in event_phase.FACT_TYPES),
    "condition": tuple(t.spec.type for t in condition.FACT_TYPES),
    "combat": ("CharacterShot", "MeleeAttacked", "IntruderAttacked", "InjuryCheckDrawn", "IntruderRetreated",
               "IntruderPlaced", "IntruderRemoved", "IntruderInjured"),
    "items and crafting": tuple(t.spec.type for t in items.FACT_TYPES),
    "systems": ("PowerChanged", "DoorChanged", "FirePlaced", "FireRemoved", "MalfunctionPlaced", "MalfunctionRemoved",
                "SelfDestructStarted"),
    "rooms and computers": tuple(t.spec.type for t in rooms.FACT_TYPES),
    "hidden information": tuple(t.spec.type for t in hidden_information.FACT_TYPES),
    "scoring": tuple(t.spec.type for t in endgame.FACT_TYPES),
    "a coarse record": tuple(t.spec.type for t in coarse_record.FACT_TYPES),
}
#: the concepts that live in a module of their own, declaring their fact types there (decision 0029)
CONCEPT_MODULES = {"setup": setup, "turns and actions": turns, "movement and exploration": movement,
                   "event phase": event_phase, "condition": condition, "combat": combat, "items and crafting": items,
                   "systems": systems, "rooms and computers": rooms,
                   "hidden information": hidden_information, "scoring": endgame, "a coarse record": coarse_record}
#: types whose only rules are their shape and their place in the game (checks.check's order rules)
SHAPE_ONLY = frozenset({"FirePlaced", "GameEnded", "IntruderInjured", "IntruderRemoved", "PowerChanged"})

Check = Callable[[LockdownState, Fact], list[Violation]]
Effect = Callable[[LockdownState, Fact, list[Consequence]], LockdownState]


@dataclass(frozen=True)
class FactType:
    spec: FactSpec
    concept: str
    check: Check | None  # None: SHAPE_ONLY
    effect: Effect


def _build() -> dict[str, FactType]:
    placed = [t for types in CONCEPTS.values() for t in types]
    twice = sorted({t for t in placed if placed.count(t) > 1})
    missing = sorted(set(FACTS) - set(placed))
    unknown = sorted((set(placed) | set(RULES) | set(HANDLERS) | SHAPE_ONLY) - set(FACTS))
    no_effect = sorted(set(FACTS) - set(HANDLERS))
    no_check = sorted(set(FACTS) - set(RULES) - SHAPE_ONLY)
    checked_anyway = sorted(SHAPE_ONLY & set(RULES))
    problems = [f"{what}: {', '.join(types)}" for what, types in (
        ("in two concepts", twice), ("in no concept", missing), ("not in the vocabulary", unknown),
        ("without an effect", no_effect), ("without a check (nor SHAPE_ONLY)", no_check),
        ("SHAPE_ONLY but checked", checked_anyway)) if types]
    for concept, module in CONCEPT_MODULES.items():
        stray = [t.spec.type for t in module.FACT_TYPES if FACTS.get(t.spec.type) is not t.spec
                 or RULES.get(t.spec.type) is not t.check or HANDLERS.get(t.spec.type) is not t.effect]
        if stray:
            problems.append(f"declared in {concept} but registered otherwise: {', '.join(stray)}")
    if problems:
        raise AssertionError("Lockdown's fact types are incomplete — " + "; ".join(problems))
    concept_of = {t: c for c, types in CONCEPTS.items() for t in types}
    return {t: FactType(FACTS[t], concept_of[t], RULES.get(t), HANDLERS[t]) for t in placed}


FACT_TYPES: dict[str, FactType] = _build()
