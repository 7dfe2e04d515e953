"""Every Lockdown fact type, once, by game concept: its spec, its check, its effect — one registry, complete.

``FACT_TYPES`` is built from the concept table below and the vocabulary (``facts.FACTS``), the rules
(``checks.RULES``) and the effects (``apply.HANDLERS``); building it asserts that every fact type sits in
exactly one concept, has a spec and an effect, and that no check or effect exists for a type nobody declared.
A type with no rule of its own beyond its shape and its place in the game says so in ``SHAPE_ONLY``.
A concept with a module of its own (``CONCEPT_MODULES``) declares its types there, spec, check and effect
together, and the registries must hold exactly those. Its offers (what ``next_inputs`` proposes) are functions of
that module too (``OFFERS``), which ``inputs``/``inputs_play`` only compose, in the order the seeded generator
depends on; building the registry asserts that every ``offers``/``…_offers`` function of a concept module is
listed and that each listed one lives in its concept's module (tests/unit/test_lockdown_offers_by_concept.py
checks that each offers only its concept's types).

    >>> FACT_TYPES["DoorChanged"].concept
    'systems'
    >>> sorted(t for t, ft in FACT_TYPES.items() if ft.concept == "setup")
    ['BoardPrepared', 'CharacterChosen', 'SetupCompleted']
    >>> [f.__name__ for f in OFFERS["combat"]]
    ['pending_offers', 'offers', 'placed_offers', 'injured_removed_offers']
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable

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
#: each concept's offers, in its own module; ``inputs``/``inputs_play`` compose them (decision 0029)
OFFERS: dict[str, tuple[Callable[..., Any], ...]] = {
    "setup": (setup.offers,),
    "turns and actions": (turns.first_player_offers, turns.action_card_offers, turns.pass_offers,
                          turns.reaction_offers, turns.interrupt_offers),
    "items and crafting": (items.starting_item_offers, items.search_and_carry_offers, items.use_and_drop_offers,
                           items.free_craft_offers, items.free_use_offers, items.gained_offers),
    "movement and exploration": (movement.pending_offers, movement.offers, movement.moved_by_effect_offers,
                                 movement.noise_placed_offers, movement.noise_removed_offers),
    "event phase": (event_phase.event_offers, event_phase.intruder_moved_offers),
    "condition": (condition.wound_offers, condition.treatment_offers, condition.scan_offers, condition.larva_offers,
                  condition.death_offers),
    "combat": (combat.pending_offers, combat.offers, combat.placed_offers, combat.injured_removed_offers),
    "systems": (systems.placed_offers, systems.door_offers, systems.removed_offers, systems.power_offers,
                systems.self_destruct_offers),
    "rooms and computers": (rooms.room_action_offers, rooms.computer_offers, rooms.computer_card_offers,
                            rooms.knowledge_offers, rooms.weakness_offers),
    "hidden information": (hidden_information.setup_offers, hidden_information.due_offers,
                           hidden_information.table_effects, hidden_information.end_contingency_offers,
                           hidden_information.end_objective_offers),
    "scoring": (endgame.final_scan_offers, endgame.end_offers),
    "a coarse record": (coarse_record.coarse_inputs,),
}
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


def offers_problems(offers: dict[str, tuple[Callable[..., Any], ...]],
                    modules: dict[str, ModuleType]) -> list[str]:
    """What is wrong with an offer registry: a concept module without offers listed, an ``offers``/``…_offers``
    function of a concept module that is not listed, a listed function that lives in another module.

    >>> offers_problems({"setup": (setup.offers,)}, {"setup": setup})
    []
    >>> offers_problems({"setup": (combat.offers,)}, {"setup": setup})
    ['setup lists offers of other modules: service.rules.lockdown.combat.offers', 'setup does not list: offers']
    """
    problems = []
    if set(offers) != set(modules):
        problems.append(f"concepts with a module and offers differ: {sorted(set(offers) ^ set(modules))}")
    for concept, module in modules.items():
        listed = offers.get(concept, ())
        foreign = [f"{f.__module__}.{f.__name__}" for f in listed if f.__module__ != module.__name__]
        if foreign:
            problems.append(f"{concept} lists offers of other modules: {', '.join(foreign)}")
        named = [n for n, f in vars(module).items() if inspect.isfunction(f) and f.__module__ == module.__name__
                 and (n == "offers" or (n.endswith("_offers") and not n.startswith("_")))]
        unlisted = [n for n in named if vars(module)[n] not in listed]
        if unlisted:
            problems.append(f"{concept} does not list: {', '.join(unlisted)}")
    return problems


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
    problems += offers_problems(OFFERS, CONCEPT_MODULES)
    if problems:
        raise AssertionError("Lockdown's fact types are incomplete — " + "; ".join(problems))
    concept_of = {t: c for c, types in CONCEPTS.items() for t in types}
    return {t: FactType(FACTS[t], concept_of[t], RULES.get(t), HANDLERS[t]) for t in placed}


FACT_TYPES: dict[str, FactType] = _build()
