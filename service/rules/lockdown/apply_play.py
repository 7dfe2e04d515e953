"""Folding the facts of the concepts not yet in a module of their own: room actions, the
computer, the lab and the victory check (decision 0029 lists the concept modules).

The handlers here are registered into ``apply.HANDLERS``, with the concept modules' effects; like every handler they never raise
on a well-shaped fact and return a new state.

    >>> from service.rules.lockdown.fold import new_game
    >>> g = new_game(1, mode="solo")
    >>> g.push("WoundSuffered", 1, kind="serious", count=3)
    []
    >>> len(g.state.characters[1].serious), g.state.characters[1].status
    (3, 'base')
"""
from __future__ import annotations

from typing import Callable

from service.rules.base import Consequence, Fact
from service.rules.lockdown import (
    combat, condition, endgame, hidden_information, items, mechanics as M, movement, rooms, systems, turns,
)
from service.rules.lockdown.rooms import ROOM_HANDLERS, reveal_weakness  # noqa: F401 (old paths)
from service.rules.lockdown.combat import injuries_for, move_through  # noqa: F401 (old paths)
from service.rules.lockdown.condition import scan  # noqa: F401 (old path: apply_play.scan)
from service.rules.lockdown.checks import who
from service.rules.lockdown.facts import resolve_place
from service.rules.lockdown.mechanics import C
from service.rules.lockdown.state import LockdownState, with_character

Handler = Callable[[LockdownState, Fact, list[Consequence]], LockdownState]


# --- items ---------------------------------------------------------------------------------------

_add_item = M.add_item  # moved to mechanics: items and the rooms that hand out items share it
_drop_item = M.drop_item  # moved to mechanics: items and the action cards that discard an item share it
_destroy_eggs = items.destroy_eggs  # moved to items (decision 0037)


# --- objectives, contingency, lab, victory check ------------------------------------------------------------------

HANDLERS: dict[str, Handler] = {
    **condition.EFFECTS,  # wounds, contamination, slime, death (decision 0029)
    "CharacterMovedByEffect": movement.moved_by_effect,
    "IntruderAttacked": combat.attacked, "CharacterShot": combat.shot, "MeleeAttacked": combat.melee,
    "InjuryCheckDrawn": combat.injury_check, "IntruderRetreated": combat.retreated, "IntruderPlaced": combat.placed,
    "IntruderRemoved": combat.removed, "IntruderInjured": combat.injured,
    "ActionCardPlayed": turns.card_played,
    **items.EFFECTS,  # items and crafting (decision 0037)
    "FirePlaced": systems.fire_placed, "FireRemoved": systems.fire_removed,
    "MalfunctionPlaced": systems.malfunction_placed, "MalfunctionRemoved": systems.malfunction_removed,
    "DoorChanged": systems.door_changed, "NoiseMarkerPlaced": movement.noise_placed,
    "NoiseMarkerRemoved": movement.noise_removed, "PowerChanged": systems.power_changed,
    "SelfDestructStarted": systems.self_destruct_started,
    **hidden_information.EFFECTS,  # objectives and contingency tokens (decision 0029)
    **endgame.EFFECTS,  # the final scan (decision 0029)
    **rooms.EFFECTS,  # room and computer actions, knowledge, weaknesses (decision 0029)
}
