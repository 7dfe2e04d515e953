"""What may come next in play: the turn's actions, what is due, the table effects, the reveals after the end.

The concepts' offers live in their modules (``fact_types.OFFERS``); this module only composes them, in the order
the seeded generator depends on (decision 0029). Candidates with
fixed options are checked with ``checks.check`` (passed in as ``_legal``/``_chain_legal``) before they are
offered, so every offered combination is legal.

    >>> from service.rules.lockdown.fold import new_game
    >>> g = new_game(1, mode="solo")
    >>> sorted({e.type for e in actions(g.state, 1)}) == sorted({e.type for e in actions(g.state, 1)})
    True
"""
from __future__ import annotations

from typing import Any

from service.rules.base import Expected, Fact
from service.rules.lockdown import (
    combat, condition, endgame, event_phase, hidden_information, items, movement, rooms, systems, turns,
)
from service.rules.lockdown.combat import BASIC_FACES  # noqa: F401 (old path: inputs_play.BASIC_FACES)
from service.rules.lockdown.condition import (  # noqa: F401 (old paths: inputs_play.PAIRED_EFFECTS …)
    DEATH_CAUSES_OFFERED, GROUP_NOTE, PAIRED_EFFECTS, WOUND_OPTIONS,
)
from service.rules.lockdown.endgame import SCAN_DRAWS  # noqa: F401 (old path: inputs_play.SCAN_DRAWS)
from service.rules.lockdown.offers import (  # noqa: F401 (old paths: inputs_play.TABLE_EFFECT, is_table_effect …)
    OUTCOME_NOTE, TABLE_EFFECT, is_table_effect, offer,
)
from service.rules.lockdown.rooms import KNOWLEDGE_AMOUNTS  # noqa: F401 (old path: inputs_play.KNOWLEDGE_AMOUNTS)
from service.rules.lockdown.state import IN_BASE, LockdownState
from service.rules.lockdown.systems import (  # noqa: F401 (old paths: inputs_play.DOOR_STATES_OFFERED …)
    DOOR_STATES_OFFERED, OUTCOME_BUTTONS_UP_TO,
)

SEARCH_ITEMS = items.SEARCH_ITEMS  # old path (moved to items, decision 0037)


def _legal(state: LockdownState, type_: str, actor: int | None, data: dict[str, Any]) -> bool:
    from service.rules.lockdown.checks import check
    return not check(state, Fact(0, type_, data, actor))


def pending(state: LockdownState) -> list[Expected] | None:
    return combat.pending_offers(state)


def actions(state: LockdownState, seat: int) -> list[Expected]:
    """Actions besides moving and passing that are legal now for ``seat``."""
    c = state.crew.characters[seat]
    if c.status != IN_BASE or c.room is None or c.hand < 1:
        return []
    out = combat.offers(state, seat)  # shots and melee (decision 0029)
    out += items.search_and_carry_offers(state, seat, _legal)  # declared with the items (decision 0037)
    out += rooms.room_action_offers(state, seat, _legal)  # declared with each room action (decision 0029)
    out += turns.action_card_offers(state, seat)
    out += items.use_and_drop_offers(state, seat)  # declared with the items (decision 0037)
    out += rooms.computer_offers(state, seat, _legal)  # the computer's options (decision 0029)
    return out


def due(state: LockdownState) -> list[Expected]:
    """Facts that became due outside the pending queue: objective choice, the next computer card,
    and the optional free crafts of the Repository."""
    out = hidden_information.due_offers(state)  # the objective kept after the first encounter
    out += rooms.computer_card_offers(state)  # the next computer card
    out += items.free_craft_offers(state)  # optional, before the next action (decision 0037)
    return out


def after_end(state: LockdownState) -> list[Expected]:
    """Hidden information revealed at the victory check, and the final scans."""
    if state.end.ending == "abandoned":  # an abandoned game has no victory check
        return []
    out = hidden_information.end_contingency_offers(state)
    for s in state.seats:
        out += endgame.final_scan_offers(state, s)
        out += hidden_information.end_objective_offers(state, s)
    return out


# --- table effects ---------------------------------------------------------------------------------------
# Facts a card, an event or an item resolves at the table at any moment of play (checks.ANYTIME and reactions).
# They come after the regular inputs, the most frequent first; ``is_table_effect`` tells them apart.

def table_effects(state: LockdownState) -> list[Expected]:
    """Every table effect that may legally be recorded now, with its legal options."""
    note = TABLE_EFFECT
    first = state.clock.pending[0].seat if state.clock.pending and state.clock.pending[0].seat is not None else state.clock.turn
    seats = [s for s in state.seats if state.crew.characters[s].status in ("base", "pod")]
    if first in seats:
        seats.remove(first)
        seats.insert(0, first)
    out: list[Expected] = []
    # the most frequent: wounds and contamination, noise, stalkers, fire and malfunctions
    out += condition.wound_offers(state, seats)
    out += movement.moved_by_effect_offers(state, seats)  # a card's move (its own fact, not a Movement)
    out += movement.noise_placed_offers(state)
    out += event_phase.intruder_moved_offers(state)
    out += combat.placed_offers(state)
    out += systems.placed_offers(state)
    for s in seats:  # cards and items played outside the own actions
        out += turns.reaction_offers(state, s, note)
        out += items.free_use_offers(state, s, note)
    out += turns.interrupt_offers(state, seats, note)  # against the action just recorded (decision 0038)
    out += combat.injured_removed_offers(state)
    out += systems.door_offers(state)
    # character condition
    out += condition.treatment_offers(state, seats)
    for s in seats:
        out += condition.scan_offers(state, s)
        out += rooms.knowledge_offers(state, s)
        out += items.gained_offers(state, s, note)
    # removals and systems
    out += systems.removed_offers(state)
    out += movement.noise_removed_offers(state)
    out += systems.power_offers(state)
    out += condition.larva_offers(state, seats)
    out += rooms.weakness_offers(state)
    out += hidden_information.table_effects(state, seats, note)  # contingency tokens and objectives
    # rare and final
    out += systems.self_destruct_offers(state)
    out += condition.death_offers(state, seats)
    return out


# --- table effects recorded with one tap (Ruleset.effect_groups) -------------------------------------------
# The groups are the concepts' (condition's printed pairs, systems' removals); the rules' check is passed in.

def _chain_legal(state: LockdownState, facts: tuple[Fact, ...]) -> bool:
    """Is each fact legal where it stands, after the ones before it?"""
    from service.rules.lockdown.apply import apply
    from service.rules.lockdown.checks import check
    for i, f in enumerate(facts):
        if check(state, f):
            return False
        if i + 1 < len(facts):
            state, _ = apply(state, f)
    return True


def effect_groups(state: LockdownState) -> list:
    """Table effects one tap records (``Ruleset.effect_groups``): each seat's printed pairs (a wound with a
    contamination card or a slime marker, …) and the outcomes of a short choice the regular offer would
    make the recorder change in a form (a serious wound; which of 2–4 fires or malfunctions is removed)."""
    if state.end.ended or state.clock.phase == "setup":
        return []
    seats = [s for s in state.seats if state.crew.characters[s].status in ("base", "pod")]
    out = condition.effect_groups(state, seats, _chain_legal)  # a serious wound, the printed pairs
    out += systems.effect_groups(state)  # which of 2–4 fires or malfunctions is removed
    return out
