"""What may be recorded next, with the legal options — for guided recording and random play.

Linked choices (a destination and the corridor leading to it) are offered as one Expected
per combination, so every combination of listed options is legal. ``None`` marks a free
value (a drawn token's face, a card the table turned over).

The game's own next steps come first; then the *table effects* (``inputs_play.table_effects``): every fact a
card, event or item may make the table record at any moment of play (wounds, fire, doors, stalkers, …), each
with its legal options and a note starting "table effect". Offers are immutable and may be shared between
calls: copy ``options`` before changing it.

Each concept's offers live in its own module (``fact_types.OFFERS``: ``setup.offers``, ``movement.offers``,
``event_phase.event_offers`` …); this module and ``inputs_play`` only compose them, in the order the seeded
generator (and so the demo games) depends on. The offers of turns and of items are still written here
(decision 0029).

    >>> from service.rules.base import Seat, Setup
    >>> from service.rules.lockdown.state import initial_state
    >>> [e.type for e in next_inputs(initial_state(Setup(players=(Seat(1, "A"),))))]
    ['BoardPrepared', 'GameEnded']
"""
from __future__ import annotations

from service.rules.base import Expected
from service.rules.lockdown import (
    combat, endgame, event_phase, hidden_information, items, movement, rooms, setup, turns,
)
from service.rules.lockdown.event_phase import (  # noqa: F401 (old paths: inputs.ROUND_PROCEDURE, round_procedure)
    ROUND_PROCEDURE, round_procedure,
)
from service.rules.lockdown.hidden_information import contingency_tokens, objective_cards  # noqa: F401 (old path)
from service.rules.lockdown.movement import TOKEN_NUMBERS  # noqa: F401 (old path: inputs.TOKEN_NUMBERS)
from service.rules.lockdown.state import EVENT, FIRST_PLAYER, PLAYER, READY, SETUP, TURNS, LockdownState


def next_inputs(state: LockdownState) -> list[Expected]:
    from service.rules.lockdown import inputs_play
    if state.end.ended:
        return inputs_play.after_end(state)
    if state.clock.pending:
        out = combat.pending_offers(state) or movement.pending_offers(state)  # the pending sub-step
    else:
        out = _regular(state)
        if state.clock.phase != SETUP:
            out = inputs_play.due(state) + out
    if state.clock.phase != SETUP:  # effects the table resolves at any moment, after the game's own next steps
        out += inputs_play.table_effects(state)
    out += endgame.end_offers(state)  # the table may end the game at any time
    return out


def _regular(state: LockdownState) -> list[Expected]:
    if state.clock.phase == SETUP:
        if state.clock.step == READY:  # the other concepts' optional setup records, then setup completed
            return _setup_extras(state) + setup.offers(state)
        return setup.offers(state)
    if state.clock.phase == PLAYER:
        if state.clock.step == FIRST_PLAYER:
            return turns.first_player_offers(state)
        if state.clock.step == TURNS and state.clock.turn is not None:
            return _actions(state, state.clock.turn)
        return []
    if state.clock.phase == EVENT:
        return event_phase.event_offers(state)
    return []


def _actions(state: LockdownState, seat: int) -> list[Expected]:
    if state.crew.characters[seat].status != "base":
        return []
    out = movement.offers(state, seat)
    from service.rules.lockdown.inputs_play import actions
    out.extend(actions(state, seat))
    out += turns.pass_offers(state, seat)
    return out


def _setup_extras(state: LockdownState) -> list[Expected]:
    """Optional setup records: objectives, contingency tokens, starting items, the first computer card."""
    out = []
    for s in state.seats:
        out += hidden_information.setup_offers(state, s)  # objectives, contingency tokens
        out += items.starting_item_offers(state, s)
    out += rooms.computer_card_offers(state)  # the first computer card
    return out
