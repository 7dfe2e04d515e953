"""Turns and actions: what an action is, what it costs, whether it is this character's turn to take one, and
whether the character is still in the game at all.

    >>> from service.rules.base import Fact
    >>> action_cost(Fact(1, "CharacterMovedCarefully", {}, 1)), "Passed" in ACTIONS
    (2, True)
"""
from __future__ import annotations

from service.rules.base import Fact, Violation
from service.rules.kit.builders import violation as V
from service.rules.lockdown import sections as S
from service.rules.lockdown.components import ROOMS
from service.rules.lockdown.state import (
    COLONY_STEP, CSS, EVENT, EVENT_CARD, FIRST_PLAYER, IN_BASE, IN_POD, NOISE_CLEANUP, SETUP, TIME, LockdownState,
    who,
)

ACTIONS = ("CharacterMoved", "CharacterMovedCarefully", "Passed", "CharacterShot", "MeleeAttacked",
           "ActionCardPlayed", "RoomSearched", "ItemCrafted", "ItemUsed", "ItemsTraded", "HeavyObjectPickedUp",
           "RoomActionUsed", "ComputerActionUsed")
MOVE_COST = {"CharacterMoved": 1, "CharacterMovedCarefully": 2}  # gaps_filled.md §2
BASIC_COST = {"CharacterShot": 1, "MeleeAttacked": 1, "ItemCrafted": 1, "ItemsTraded": 1, "HeavyObjectPickedUp": 1,
              "ComputerActionUsed": 1}  # gaps_filled.md §2
# action cards paid per room action, from rooms.json (gaps_filled.md §2: 2, the elevator 1)
ROOM_ACTION_COST = {a["id"]: a["cost"] for room in ROOMS for a in room.extra.get("actions", ())}
# the event phase's steps as messages name them
STEP_NAMES = {CSS: "the CSS pod launch (CssTokenRevealed)", TIME: "the time track (TimeAdvanced)",
              NOISE_CLEANUP: "noise marker removal (NoiseMarkersCleared)",
              EVENT_CARD: "the event card (EventCardDrawn)", COLONY_STEP: "the colony draw (ColonyTokenDrawn)"}


def action_cost(fact: Fact) -> int:
    """Cards an action costs (lockdown.md §5.1; gaps_filled.md §2)."""
    t = fact.type
    if t in MOVE_COST:
        return MOVE_COST[t]
    if t in BASIC_COST:
        return BASIC_COST[t]
    if t == "RoomActionUsed":
        return ROOM_ACTION_COST.get(fact.data.get("action"), 2)
    if t in ("ActionCardPlayed", "RoomSearched"):
        return 1 + (fact.data.get("cost") or 0)
    if t == "ItemUsed":
        return fact.data.get("cost") or 0
    return 0


def turn_check(state: LockdownState, fact: Fact) -> list[Violation]:
    seat = fact.actor
    verb = {"Passed": "pass", "CharacterMoved": "move", "CharacterMovedCarefully": "move carefully"}.get(
        fact.type, "act")
    if state.phase == EVENT:
        return [V("wrong-phase", f"{who(state, seat)} cannot {verb} during the event phase: actions are taken only "
                  f"in the player phase. The event phase is at {STEP_NAMES.get(state.step, state.step)}.",
                  S.EVENT_PHASE)]
    if state.step == FIRST_PLAYER:
        return [V("first-player-pending", f"The round has just begun: record FirstPlayerPassed (seat "
                  f"{state.first_player} passes the token to seat {state.next_first_player()}) before any "
                  f"action.", S.FIRST_PLAYER)]
    c = state.characters[seat]
    placeless = fact.type in MOVE_COST or fact.type == "Passed"  # need no room to act in
    if c.status == "base" and c.room is None and c.character and not placeless:
        # decision 0018: its room was recorded as unknown; a move to a known room puts it back on the board
        return [V("room-unknown", f"{who(state, seat)}'s room is not recorded: the action counts, but what it does "
                  f"there cannot be derived (record a move to a known room first).", S.TURNS)]
    if c.status != "base" or (c.room is None and not (c.character and placeless)):
        where = {"dead": "is dead", "pod": "sits in a CSS pod", "isolation": "is locked in the Isolation Room",
                 "bunker": "escaped to the Bunker", "evacuated": "was evacuated"}.get(c.status, "is not on the board")
        return [V("character-out-of-play", f"{who(state, seat)} {where} and takes no more actions.", S.DEATH)]
    if c.passed:
        return [V("acting-after-passing", f"{who(state, seat)} has already passed this round and cannot take more "
                  f"actions until the next round.", S.PASS)]
    if seat != state.turn:
        prev = state.last_turn
        if prev == seat and state.turn is not None and state.characters[state.turn].actions == 0:
            return [V("third-action", f"{who(state, seat)} already took 2 actions this turn; it is now "
                      f"{who(state, state.turn)}'s turn.", S.TURNS)]
        return [V("out-of-turn", f"It is {who(state, state.turn)}'s turn, not {who(state, seat)}'s.", S.TURNS)]
    if c.actions >= 2:
        return [V("third-action", f"{who(state, seat)} already took 2 actions this turn; a turn has at most 2 "
                  f"actions (the second may be a pass).", S.TURNS)]
    return []


def in_game(state: LockdownState, seat: int, section: str = S.DEATH) -> list[Violation]:
    """A violation unless ``seat``'s character is still in the game (in the base, or sitting in a pod)."""
    c = state.characters[seat]
    if state.phase == SETUP:
        return []
    if c.status not in (IN_BASE, IN_POD):
        return [V("character-out-of-play", f"{who(state, seat)} is no longer in the game ({c.status}).", section)]
    return []


def action_check(state: LockdownState, fact: Fact) -> list[Violation]:
    """An action in its turn that the actor can pay for (lockdown.md §5.1)."""
    out = turn_check(state, fact)
    if out:
        return out
    c = state.characters[fact.actor]
    cost = action_cost(fact)
    if c.hand < cost:
        out.append(V("not-enough-cards", f"{fact.type} costs {cost} card{'s' if cost != 1 else ''}, but "
                     f"{who(state, fact.actor)} holds {c.hand}.", S.ACTION_CARDS))
    return out
