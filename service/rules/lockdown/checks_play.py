"""The play checks of every concept, gathered in one registry (``checks.RULES`` takes it): each concept
module declares its rules beside its specs and effects (decision 0029 lists them); the action cards' old paths
stay here.

    >>> from service.rules.lockdown.fold import new_game
    >>> g = new_game(1, mode="solo")
    >>> [v.rule for v in g.check("WoundHealed", 1, kind="light")]
    ['no-light-wounds']
"""
from __future__ import annotations

from typing import Callable

from service.rules.base import Fact, Violation
from service.rules.lockdown import (
    combat, condition, endgame, hidden_information, items, movement, rooms, systems, turns,
)
from service.rules.lockdown.items import ITEMS_ON_OTHERS  # noqa: F401 (old path: checks_play.ITEMS_ON_OTHERS)
from service.rules.lockdown.rooms import ROOM_CHECKS  # noqa: F401 (old path: checks_play.ROOM_CHECKS)
from service.rules.lockdown.state import LockdownState

# action cards: declared in turns (decision 0029); the old paths stay
KNOWN_ACTION_CARDS, CARD_MOVES, CARD_MOVE_FIELDS = turns.KNOWN_ACTION_CARDS, turns.CARD_MOVES, turns.CARD_MOVE_FIELDS

RULES: dict[str, Callable[[LockdownState, Fact], list[Violation]]] = {
    **condition.RULES,  # wounds, contamination, slime, death (decision 0029)
    "IntruderPlaced": combat.check_intruder_placed,
    "CharacterMovedByEffect": movement.check_moved_by_effect,
    "IntruderAttacked": combat.check_attacked, "CharacterShot": combat.check_shot, "MeleeAttacked": combat.check_melee,
    "InjuryCheckDrawn": combat.check_injury_check, "IntruderRetreated": combat.check_retreated,
    "ActionCardPlayed": turns.check_card_played,
    **items.RULES,  # items and crafting (decision 0037)
    "FireRemoved": systems.check_fire_removed, "MalfunctionPlaced": systems.check_malfunction,
    "MalfunctionRemoved": systems.check_malfunction_removed, "DoorChanged": systems.check_door,
    "NoiseMarkerPlaced": movement.check_noise_placed, "NoiseMarkerRemoved": movement.check_noise_removed,
    "SelfDestructStarted": systems.check_self_destruct,
    **hidden_information.RULES,  # objectives and contingency tokens (decision 0029)
    **endgame.RULES,  # the final scan (decision 0029)
    **rooms.RULES,  # room and computer actions, knowledge, weaknesses (decision 0029)
}
