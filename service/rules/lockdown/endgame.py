"""The game's end: its facts (GameEnded, FinalScanRecorded) and their offers, and the adapter from a finished
game's state to the victory check's input (``scoring.ScoringView``).

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

from service.rules.base import Consequence, Expected, Fact, Violation
from service.rules.kit.builders import violation as V
from service.rules.kit.facts import FactSpec, FactType, field_spec as _f
from service.rules.kit.replace import replace, replace_in
from service.rules.lockdown import mechanics as M, sections as S
from service.rules.lockdown.coarse_record import INCOMPLETE, uncertain
from service.rules.lockdown.components import CHARACTERS
from service.rules.lockdown.mechanics import C
from service.rules.lockdown.state import ENDED, EVENT, PLAYER, LockdownState, who, with_character

END_CAUSES = ("time_out", "alarm_procedure", "base_destroyed")
# "incomplete": the record stops before the game's end (a coarse record; docs/decisions/0018)
ENDINGS = ("abandoned", "time_out", "alarm_procedure", "base_destroyed", "no_characters_left", "incomplete")
LOCATION = {"base": "base", "pod": "pod", "isolation": "isolation", "bunker": "bunker", "evacuated": "swc"}


def _unknown(value):
    return None if value in (None, "unknown") else value


def scoring_view(state: LockdownState):
    from service.rules.lockdown.scoring import ScoringView, SeatView, WeaknessView

    seats = []
    for seat in state.seats:
        c = state.crew.characters[seat]
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
        rooms = [r for r in state.ship.rooms.values() if r.sector == sector and r.kind != "special"]
        sectors[sector] = all(r.explored for r in rooms) if rooms and all(r.sector for r in rooms) else None
    view = ScoringView(
        mode=state.setup.mode,
        ending=state.end.ending or "abandoned",
        seats=tuple(seats),
        self_destruct=state.systems.self_destruct[0] if state.systems.self_destruct else "off",
        alarm_procedure=state.systems.alarm is not None,
        active_contingency=_unknown(state.secrets.active_contingency),
        neutral_pool=tuple(_unknown(t) for t in state.secrets.pool),
        eggs_in_nest=state.colony.eggs,
        queen_killed=state.colony.queen_killed if state.end.end_effects != "base_destroyed" else True,
        weaknesses=tuple(WeaknessView(slot=i + 1, card=state.research.weakness_names[i],
                                      discovered=state.research.weaknesses[i])
                         for i in range(3)),
        first_weakness_face_up=not state.nemesis_intruders,
        sectors_explored=sectors if any(v is not None for v in sectors.values()) else None,
        pods_launched=state.systems.launches,
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

    seats = list(view.seats)
    if state.end.ending == INCOMPLETE:
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


# --- the facts of the game's end: the table ending it, the final scan of the victory check (decision 0029) ------

def check_final_scan(state: LockdownState, fact: Fact) -> list[Violation]:
    if not state.end.ended:
        return [V("final-scan-not-now", "The final scan is part of the victory check after the end.", S.VICTORY)]
    c = state.crew.characters[fact.actor]
    if c.status not in ("isolation", "bunker", "evacuated"):
        return [V("scan-dead", f"{who(state, fact.actor)} did not survive; there is nothing to scan.", S.VICTORY)]
    if fact.data["infected"] is False and fact.data.get("drawn") and not c.larva:
        return [V("scan-step-b", "Step B (drawing 4) follows only an infected card or a larva.", S.VICTORY, "drawn")]
    return []


def game_ended(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    ending = fact.data["ending"]
    if ending not in ("abandoned", INCOMPLETE) and state.clock.phase in (PLAYER, EVENT):
        state = M.end_game(state, ending, cons)
        return replace_in(state, "end", ending_note=fact.data.get("note") or "")
    cons.append(C("game-ended", f"The game ends ({ending.replace('_', ' ')})."
                  + (f" {fact.data['note']}" if fact.data.get("note") else ""), ending=ending))
    return replace_in(replace_in(state, "end", ended=True, ending=ending, ending_note=fact.data.get("note") or ""),
                      "clock", phase=ENDED, pending=(), turn=None)


def final_scan(state: LockdownState, fact: Fact, cons: list[Consequence]) -> LockdownState:
    d = fact.data
    drawn = tuple(d["drawn"]) if d.get("drawn") is not None else None
    cons.append(C("final-scan", f"Final scan of {who(state, fact.actor)}: "
                  + ("an INFECTED card" if d["infected"] else "no infected card")
                  + (f"; drawn: {', '.join(drawn)}" if drawn else "") + ".", seat=fact.actor))
    return with_character(state, fact.actor, scan_infected=d["infected"], final_draw=drawn)


# --- offers (what next_inputs proposes; inputs/inputs_play compose them with the other concepts') -------------

# step B of the final scan: the kinds of the 4 cards drawn, in the order drawn (FinalScanRecorded)
SCAN_DRAWS = [[("contamination" if n >> (3 - i) & 1 else "action") for i in range(4)] for n in range(16)]


def end_offers(state: LockdownState) -> list[Expected]:
    """The table may end the game at any time (e.g. abandoned): offered last, in every situation."""
    return [Expected("GameEnded", None, {"ending": list(ENDINGS), "note": None},
                     "the table may end the game at any time (e.g. abandoned)")]


def final_scan_offers(state: LockdownState, seat: int) -> list[Expected]:
    """At the victory check: ``seat``'s final scan, for a character who got out alive and was not scanned yet."""
    c = state.crew.characters[seat]
    if c.status in ("isolation", "bunker", "evacuated") and c.scan_infected is None:
        return [Expected("FinalScanRecorded", seat, {"infected": [False]} if not c.larva and not c.infected else
                         {"infected": [True], "drawn": SCAN_DRAWS}, "final scan")]
    return []


_SPECS = (
    FactSpec("GameEnded", "table",
             "The table ended the game early (abandoned), or recorded an ending the model could not derive. Real "
             "endings (time out, alarm procedure, base destroyed, nobody left) are derived and never need this fact.",
             (_f("ending", "ending", "abandoned, time_out, alarm_procedure, base_destroyed or no_characters_left"),
              _f("note", "text", "free text", False)),
             {"ending": "abandoned", "note": "ran out of time at the club"}, S.END),
    FactSpec("FinalScanRecorded", "seat",
             "Victory check, final scan of a living character: step A (any INFECTED card, or a larva) and, if done, "
             "the kinds of the 4 cards drawn in step B.",
             (_f("infected", "bool", "step A found an infected card"),
              _f("drawn", "draw_kinds", "step B: the 4 cards drawn (action / contamination)", False)),
             {"infected": False}, S.VICTORY),
)
_CHECKS = (None, check_final_scan)  # GameEnded: its shape only (checks.check lets it end the game any time)
_EFFECTS = (game_ended, final_scan)
FACT_TYPES: tuple[FactType, ...] = tuple(FactType(*t) for t in zip(_SPECS, _CHECKS, _EFFECTS))
SPECS = tuple(t.spec for t in FACT_TYPES)
RULES = {t.spec.type: t.check for t in FACT_TYPES if t.check is not None}
EFFECTS = {t.spec.type: t.effect for t in FACT_TYPES}
