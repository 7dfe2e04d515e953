"""The adapter from a finished game's state to the victory check's input (``scoring.ScoringView``).

``scoring.py`` (the victory check) is written separately; this module only reads the state.
Characters killed by the end-of-game effects (rapid response team, explosion) are reported
*alive* at their location, because the victory check applies those effects itself.

    >>> from service.rules.lockdown.fold import new_game
    >>> g = new_game(1, mode="solo")
    >>> g.push("GameEnded", ending="time_out")
    []
    >>> v = scoring_view(g.state)
    >>> v.ending, v.seats[0].alive, v.seats[0].location
    ('time_out', True, 'base')
"""
from __future__ import annotations

from service.rules.lockdown.components import CHARACTERS
from service.rules.lockdown.state import LockdownState

END_CAUSES = ("time_out", "alarm_procedure", "base_destroyed")
LOCATION = {"base": "base", "pod": "pod", "isolation": "isolation", "bunker": "bunker", "evacuated": "swc"}


def _unknown(value):
    return None if value in (None, "unknown") else value


def scoring_view(state: LockdownState):
    from service.rules.lockdown.scoring import ScoringView, SeatView, WeaknessView

    seats = []
    for seat in state.seats:
        c = state.characters[seat]
        end_death = c.status == "dead" and c.cause in END_CAUSES and c.was is not None
        alive = c.status != "dead" or end_death
        where = c.was if end_death else c.status
        char = CHARACTERS[c.character] if c.character in CHARACTERS else None
        seats.append(SeatView(
            seat=seat,
            player_number=c.player_number,
            character=c.character if c.character in CHARACTERS else None,
            nemesis_survivor=(char.group == "survivor") if char else None,
            alive=alive,
            death_cause=None if alive else c.cause,
            location=LOCATION.get(where) if alive else None,
            pod=c.pod,
            bunker_via=c.bunker_via,
            contingency_tokens=tuple(_unknown(t) for t in c.contingency),
            signal_sent=c.signal,
            knowledge=c.knowledge,
            knowledge_token_active=c.knowledge_active,
            larva=c.larva,
            contamination_cards=c.contamination,
            scan_infected=c.scan_infected if c.scan_infected is not None else (
                False if c.contamination == 0 and not c.larva else None),
            final_draw=c.final_draw,
            objectives_dealt=tuple(_unknown(o) for o in c.objectives) or None,
            objective=_unknown(c.objective) or (_unknown(c.objectives[0]) if len(c.objectives) == 1 else None),
            items=tuple(i.name for i in c.items) + tuple(o.split(":")[0] for o in c.objects),
        ))
    sectors = {}
    for sector in state.board.sectors:
        rooms = [r for r in state.rooms.values() if r.sector == sector and r.kind != "special"]
        sectors[sector] = all(r.explored for r in rooms) if rooms and all(r.sector for r in rooms) else None
    view = ScoringView(
        mode=state.setup.mode,
        ending=state.ending or "abandoned",
        seats=tuple(seats),
        self_destruct=state.self_destruct[0] if state.self_destruct else "off",
        alarm_procedure=state.alarm is not None,
        active_contingency=_unknown(state.active_contingency),
        neutral_pool=tuple(_unknown(t) for t in state.pool),
        eggs_in_nest=state.eggs,
        queen_killed=state.queen_killed if state.end_effects != "base_destroyed" else True,
        weaknesses=tuple(WeaknessView(slot=i + 1, card=state.weakness_names[i], discovered=state.weaknesses[i])
                         for i in range(3)),
        first_weakness_face_up=not state.nemesis_intruders,
        sectors_explored=sectors if any(v is not None for v in sectors.values()) else None,
        pods_launched=state.launches,
    )
    return _coarse(state, view)


def _coarse(state: LockdownState, view):
    """What a coarse record does not know (docs/decisions/0018) becomes unknown (None) for the victory check.

    A record that stops early (ending ``incomplete``) does not know where the characters still in the base
    ended. A record with gaps, or one made after the fact, does not know the values the unrecorded facts
    could have changed: knowledge, contamination, items, the Nest, the weaknesses, the sectors explored. What
    cannot be undone stays known (a signal sent, a queen killed, a weakness discovered, a final scan recorded).
    """
    from dataclasses import replace as copy
    from service.rules.lockdown.unknowns import INCOMPLETE, uncertain

    seats = list(view.seats)
    if state.ending == INCOMPLETE:
        seats = [copy(sv, alive=None, location=None) if sv.alive and sv.location in ("base", "pod") else sv
                 for sv in seats]
    if not uncertain(state):
        return copy(view, seats=tuple(seats))
    seats = [copy(sv, signal_sent=sv.signal_sent or None, knowledge=None,
                  knowledge_token_active=sv.knowledge_token_active or None,
                  larva=sv.larva if sv.scan_infected is not None else None,
                  contamination_cards=None, items=None) for sv in seats]
    weaknesses = tuple(copy(w, discovered=w.discovered or None) for w in view.weaknesses or ())
    return copy(view, seats=tuple(seats), eggs_in_nest=None, queen_killed=view.queen_killed or None,
                weaknesses=weaknesses, sectors_explored=None,
                self_destruct=view.self_destruct if view.self_destruct != "off" else None)
