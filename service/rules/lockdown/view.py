"""Human-oriented views of a state: the replay description, the position, the result.

    >>> from service.rules.base import Seat, Setup
    >>> from service.rules.lockdown.state import initial_state
    >>> position(initial_state(Setup(players=(Seat(1, "A"),))))["phase"]
    'setup'
"""
from __future__ import annotations

from typing import Any

from service.rules.base import PlayerResult, Result
from service.rules.lockdown.board import TECHNICAL, area_key, is_area
from service.rules.lockdown.components import CHARACTERS, EVENT_CARDS, ROOMS
from service.rules.lockdown.state import LockdownState

PENDING_STEP = {"explore": "exploration", "noise": "noise_roll", "encounter": "encounter", "attack": "attack",
                "injury_check": "injury_check", "retreat": "retreat", "finish": "resolving"}


def position(state: LockdownState) -> dict[str, Any]:
    step = PENDING_STEP[state.clock.pending[0].kind] if state.clock.pending and not state.end.ended else state.clock.step
    return {
        "round": state.clock.round,
        "phase": state.clock.phase,
        "step": "ended" if state.end.ended else step,
        "acting": state.acting(),
        "finished": state.end.ended,
    }


def score(state: LockdownState) -> Result | None:
    """The victory check once the game has ended (scoring.victory_check on endgame.scoring_view)."""
    if not state.end.ended:
        return None
    if state.end.ending == "abandoned":
        return Result(ending="abandoned", players=tuple(
            PlayerResult(seat=s, outcome="undetermined", reasons=("the game was abandoned before its end",))
            for s in state.seats))
    from service.rules.lockdown.endgame import scoring_view
    from service.rules.lockdown.scoring import settings_from, victory_check
    from dataclasses import replace as copy

    result = victory_check(scoring_view(state), settings_from(state.setup.options))
    # how the game ended (time out, alarm procedure, base destroyed, nobody left) and which end effects applied
    # (seed 000 L1603–1638): a no_characters_left ending is resolved as one of the three
    return copy(result, effects=state.end.end_effects)


def _noise_at(state: LockdownState, place: str) -> list[Any]:
    b = state.board
    out = []
    for key in state.ship.noise:
        n = b.number_at(key, place)
        if n is not None:
            out.append(f"{n} (technical)" if key == TECHNICAL else f"{n} (area)" if is_area(key) else n)
    return sorted(out, key=str)


def describe(state: LockdownState) -> dict[str, Any]:
    b = state.board
    names = {p.seat: p.name for p in state.setup.players}
    players = []
    for seat in state.seats:
        c = state.crew.characters[seat]
        char = CHARACTERS[c.character] if c.character in CHARACTERS else None
        players.append({
            "seat": seat,
            "player": names.get(seat, ""),
            "character": char.en if char else None,
            "character (PL)": char.pl if char else None,
            "room": state.room_label(c.room) if c.room else None,
            "cards in hand": c.hand,
            "knowledge": c.knowledge,
            "slime": c.slime,
            "actions this turn": c.actions,
            "passed": c.passed,
            "first player": seat == state.clock.first_player,
            "acting": seat == state.acting(),
            "in combat": state.in_combat(seat),
            "status": c.status,
            "pod": c.pod,
            "death cause": c.cause,
            "light wounds": c.light,
            "serious wounds": [{"card": w.card, "dressed": w.dressed} for w in c.serious],
            "deck": c.deck,
            "discard": c.discard,
            "contamination cards": c.contamination,
            "known infected": c.infected,
            "known clean": c.clean,
            "larva": c.larva,
            "signal sent": c.signal,
            "knowledge token active": c.knowledge_active,
            "items": [{"item": i.name, "colour": i.colour, "where": i.where, "ammo": i.ammo} for i in c.items],
            "heavy objects": [o.split(":")[0] for o in c.objects],
            "objectives": len(c.objectives),
            "objective kept": c.objective is not None,
            "contingency tokens": len(c.contingency),
        })
    rooms = []
    for place, r in state.ship.rooms.items():
        tile = ROOMS[r.tile] if r.tile and (r.explored or r.kind == "special") else None
        rooms.append({
            "space": place,
            "room": tile.en if tile else None,
            "room (PL)": tile.pl if tile else None,
            "kind": r.kind,
            "sector": r.sector,
            "explored": r.explored,
            "exploration token": dict(r.token) if r.token else None,
            "item counter": r.items,
            "fire": r.fire,
            "malfunction": r.malfunction,
            "noise in corridors": _noise_at(state, place),
            "characters": [f"seat {s}" for s in state.characters_in(place)],
            "intruders": [f"{i.kind} ({i.id})" for i in state.intruders_in(place)],
            "objects": [o.split(":")[0] for o in state.ship.objects.get(place, ())],
        })
    return {
        "game": {
            "mode": state.setup.mode,
            "board": b.en,
            "board side": b.side,
            "synthetic board": b.synthetic,
            "corridor graph known": b.has_graph,
            "round": state.clock.round,
            "phase": state.clock.phase,
            "step": position(state)["step"],
            "ended": state.end.ended,
            "ending": state.end.ending,
            "note": state.end.ending_note or None,
        },
        "time": {
            "time token on": state.time_label,
            "spaces left": len(b.time_spaces) - 1 - state.clock.time,
            "Isolation Room open": state.ship.isolation_open,
        },
        "players": players,
        "rooms": rooms,
        **({"surface": _surface(state)} if b.surface else {}),
        "noise markers": len(state.ship.noise),
        "closed doors": len(state.ship.doors),
        "intruders": [{"id": i.id, "type": i.kind, "room": state.room_label(i.room), "injuries": i.injuries}
                      for i in state.colony.intruders],
        "systems": {
            "fire markers left": 12 - state.fires(),
            "malfunction markers left": 10 - state.malfunctions(),
            "destroyed doors": len(state.ship.destroyed_doors),
            "power": {loc: {"token": n, "on": on} for loc, (n, on) in state.ship.power.items()},
            "emergency power active": state.ship.emergency_power,
            "elevator at": state.ship.elevator,
            "self-destruct": {"colour": state.systems.self_destruct[0],
                              "space": b.time_label(state.systems.self_destruct[1])}
            if state.systems.self_destruct else None,
            "alarm procedure on": b.time_label(state.systems.alarm) if state.systems.alarm is not None else None,
            "main gate open": state.systems.gate_open,
            "rover": state.systems.rover,
            "pods": dict(state.systems.pods),
            "CSS tokens under": sorted(str(v) for v in state.systems.css_at),
            "CSS launches": list(state.systems.launches),
            "ventilation": state.room_label(state.ship.ventilation) if state.ship.ventilation else None,
            "computer card": state.research.computer_card,
        },
        "lab": {
            "weaknesses revealed": list(state.research.weaknesses),
            "weakness cards": list(state.research.weakness_names),
            # Nemesis intruders: a revealed weakness is usable by everybody (seed 000 L4789–4792)
            "weaknesses usable by": ("everybody" if state.nemesis_intruders
                                     else "characters with knowledge at least 3 / 5 / 8"),
            "researched objects": list(state.research.researched),
            "nest destroyed": state.colony.nest_destroyed,
            "queen killed": state.colony.queen_killed,
        },
        "contingency": {
            "active plan": state.secrets.active_contingency,
            "neutral pool": len(state.secrets.pool),
            "revealed in the pool": list(state.secrets.revealed_pool),
        },
        "milestones": {
            "first encounter": state.colony.first_encounter,
            "first death": state.crew.first_death,
            "Isolation Room open": state.ship.isolation_open,
        },
        "colony bag": {t: n for t, n in state.colony.bag.items() if n},
        "eggs in the Nest": state.colony.eggs,
        "last event card": EVENT_CARDS[state.decks.last_event_card].label if state.decks.last_event_card else None,
        "waiting for": [
            {"what": p.kind, "seat": p.seat, "room": state.room_label(p.room), "why": p.reason}
            for p in state.clock.pending
        ],
    }


def _surface(state: LockdownState) -> dict[str, Any]:
    """The alternative side's surface (lockdown.md §12.5): areas and crossroads."""
    b = state.board
    return {
        "areas": [{"area": n, "building": building, "noise marker": area_key(n) in state.ship.noise}
                  for n, building in sorted(b.areas.items())],
        "crossroads": [{"crossroad": c, "explored": state.ship.rooms[c].explored,
                        "characters": [f"seat {s}" for s in state.characters_in(c)],
                        "intruders": [f"{i.kind} ({i.id})" for i in state.intruders_in(c)]}
                       for c in b.crossroads],
        "paths known": False,
        "exit spaces": list(b.exit_spaces) if b.exit_spaces else None,
    }
