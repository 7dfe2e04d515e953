"""What a Lockdown step tells the statistics (``Ruleset.step_statistics``, decision 0040).

The rules derive deaths, kills and wounds; a recorder never types them twice. So a step's statistics are read by
comparing the state before and after its fact:

- a character whose status becomes ``dead``: its death (the room it was in, its cause, and the intruder type
  attacking in that step — the player's "nemesis");
- a shot (``CharacterShot``) or melee attack (``MeleeAttacked``) on an intruder: a hit, with that weapon (``melee``
  for a melee attack); an intruder removed with a "killed" consequence (or a larva killed): a kill, which the
  statistics credit to the last hit on it (an injury check or an effect finishes what a shot began);
- a character's light or serious wounds going up: wounds in the room it stands in (serious wounds count alone
  when there are any: a serious wound turns light ones into it);
- a night stalker's attack (``IntruderAttacked``): an attack in its target's room;
- a sector's power token turning off during play: power lost, in the step's round. The setup's unpowered
  tokens 3 and 4 (lockdown.md §3.1 step 7, seed 000 L971–977) are not a loss: setup steps never count. The first
  time-track move enters space 14, a red threshold (gaps_filled.md §13.2), so power is usually lost in round 1,
  unless the time token is blue by then (emergency power restored). Blackout: the step left no sector powered.

Rooms are named by their tile (comparable across games); a room not yet known is None.

    >>> from service.rules import get_ruleset, Setup, Seat
    >>> s = get_ruleset("lockdown").initial_state(Setup((Seat(1, "Ada"),), "solo", {"board": "basic"}))
    >>> sorted(loc for loc in SECTORS if powered(s, loc))
    ['S-01', 'S-02']
"""
from __future__ import annotations

from typing import Iterable

from service.rules.base import Consequence, Fact, StatDeath, StatHit, StatKill, StatWound, StepStatistics
from service.rules.lockdown.state import LockdownState

SECTORS = ("S-01", "S-02", "S-03")  # the elevator's token is a 4th power location, not a sector (lockdown.md §9.1)
MELEE = "melee"
HITS = {"CharacterShot": None, "MeleeAttacked": MELEE}  # fact type → weapon (None: the fact's own)


def step(before: LockdownState, fact: Fact, after: LockdownState,
         consequences: Iterable[Consequence] = ()) -> StepStatistics:
    """What the step from ``before`` to ``after`` by ``fact`` showed (see the module doc)."""
    rnd = before.clock.round
    data = fact.data or {}
    hits = ()
    if fact.type in HITS and isinstance(data.get("target"), str):
        weapon = HITS[fact.type] or (str(data.get("weapon") or "") or None)
        hits = (StatHit(data["target"], fact.actor, weapon),)
    attacker, attacks = None, ()
    if fact.type == "IntruderAttacked":
        attacker = next((i for i in before.colony.intruders if i.id == data.get("intruder")), None)
        target = data.get("target")
        if target is None:  # the rules' target: whoever the step hurt, else anyone in the intruder's room
            target = next((s for s in before.seats if _hurt(before, after, s)), None)
        room = tile(before, before.crew.characters[target].room) if target in before.crew.characters else (
            tile(before, attacker.room) if attacker else None)
        attacks = (room,)
    wounds, deaths = [], []
    for seat in before.seats:
        b, a = before.crew.characters[seat], after.crew.characters[seat]
        light = max(0, a.light - b.light)
        serious = max(0, len(a.serious) - len(b.serious))
        hurt = serious + (light if not serious else 0)
        if hurt:
            wounds.append(StatWound(seat, hurt, tile(before, b.room or a.room)))
        if a.status == "dead" and b.status != "dead":
            deaths.append(StatDeath(seat, tile(before, b.room) if b.room else None, a.cause,
                                    attacker.kind if attacker else None))
    consequences = tuple(consequences)
    removed = {c.data.get("intruder") for c in consequences
               if c.type == "intruder-removed" and c.data.get("killed")} | {
        c.data.get("intruder") for c in consequences if c.type == "larva-killed"}
    kills = []
    for iid in sorted(filter(None, removed)):
        it = next((i for i in before.colony.intruders if i.id == iid), None)
        if it is not None:
            kills.append(StatKill(iid, it.kind, tile(before, it.room)))
    power_lost = blackout = None
    if before.clock.phase != "setup":
        if any(powered(before, loc) and not powered(after, loc) for loc in SECTORS):
            power_lost = max(rnd, 1)
        if any(powered(before, loc) for loc in SECTORS) and not any(powered(after, loc) for loc in SECTORS):
            blackout = max(rnd, 1)
    return StepStatistics(rnd, hits, attacks, tuple(wounds), tuple(deaths), tuple(kills), power_lost, blackout)


def powered(state: LockdownState, location: str) -> bool:
    """Whether the power token at ``location`` (a sector or the elevator) is on."""
    return bool(state.ship.power.get(location, (0, False))[1])


def _hurt(before: LockdownState, after: LockdownState, seat: int) -> bool:
    b, a = before.crew.characters[seat], after.crew.characters[seat]
    return a.light > b.light or len(a.serious) > len(b.serious) or (a.status == "dead" and b.status != "dead")


def tile(state: LockdownState, place: str | None) -> str | None:
    """A place as statistics name it: its room tile when known (comparable across games), else None."""
    if place is None:
        return None
    r = state.ship.rooms.get(place)
    if r is None:
        return None
    return r.tile or None


def final(state: LockdownState) -> dict:
    """Ruleset.final_statistics: the round, the active contingency plan and each seat's character, objective and
    status (and the status before it left the game)."""
    return {"round": state.clock.round, "plan": state.secrets.active_contingency,
            "seats": {seat: {"character": c.character, "objective": c.objective, "status": c.status, "was": c.was}
                      for seat, c in ((s, state.crew.characters[s]) for s in state.seats)}}
