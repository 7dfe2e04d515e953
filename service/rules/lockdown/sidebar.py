"""The replay's compact state: one card per character, a strip of board status, explained verdicts.

JSON-shaped and pure, like ``view.describe`` (which stays the full, collapsible detail).

    >>> from service.rules.base import Seat, Setup
    >>> from service.rules.lockdown.state import initial_state
    >>> sidebar(initial_state(Setup(players=(Seat(1, "Ada"),))))["characters"][0]["name"]
    'Ada'
"""
from __future__ import annotations

import re
from typing import Any

from service.rules.base import Result
from service.rules.lockdown.components import CHARACTERS
from service.i18n import N_, _, ngettext
from service.rules.lockdown.names import local
from service.rules.lockdown.state import DEAD, EVACUATED, IN_BASE, IN_BUNKER, IN_POD, LOCKED_IN, LockdownState
from service.rules.lockdown.story import DEATH_WORDS, objective_name, plan_name, player, verdict_steps

STATUS = {IN_BASE: N_("in the base"), IN_POD: N_("in pod {pod}"), LOCKED_IN: N_("locked in the Isolation Room"),
          IN_BUNKER: N_("in the Bunker"), EVACUATED: N_("evacuated by pod {pod}"), DEAD: N_("dead")}
UNKNOWN_CAUSE = N_("unknown cause")


def _character(state: LockdownState, seat: int) -> dict[str, Any]:
    c = state.crew.characters[seat]
    name = next((p.name for p in state.setup.players if p.seat == seat), None) or _("Seat %(n)s") % {"n": seat}
    char = local(CHARACTERS[c.character]) if c.character in CHARACTERS else None
    status = _(STATUS.get(c.status, c.status)).format(pod=c.pod or "?")
    if c.status == DEAD:
        cause = DEATH_WORDS.get(c.cause, c.cause or UNKNOWN_CAUSE)
        status = _("dead — %(cause)s") % {"cause": _(cause)}
    secret = [o for o in c.objectives if o == "unknown"]
    return {
        "seat": seat,
        "name": name,
        "character": char,
        "status": status,
        "status_kind": c.status,
        "room": state.room_label(c.room, name=local) if c.room else None,
        "acting": seat == state.acting(),
        "first_player": seat == state.clock.first_player and state.clock.phase != "setup",
        "passed": c.passed,
        "in_combat": state.in_combat(seat),
        "light": c.light,
        "serious": [{"card": w.card, "dressed": w.dressed} for w in c.serious],
        "contamination": c.contamination,
        "infected": c.infected,
        "clean": c.clean,
        "larva": c.larva,
        "slime": c.slime,
        "knowledge": c.knowledge,
        "knowledge_active": c.knowledge_active,
        "hand": c.hand,
        "deck": c.deck,
        "discard": c.discard,
        "items": [i.name + (f" ({i.ammo})" if i.ammo is not None else "") for i in c.items],
        "objects": [o.split(":")[0] for o in c.objects],
        "signal": c.signal,
        "objectives": [objective_name(o) for o in c.objectives if o != "unknown"],
        "secret_objectives": len(secret),
        "objective": None if c.objective is None else objective_name(c.objective),
        "contingency": _tokens(c.contingency),
    }


def _tokens(tokens: tuple[str, ...]) -> list[str]:
    """Contingency tokens as the sidebar lists them: known plans by name, the rest counted face down."""
    hidden = sum(1 for t in tokens if t == "unknown")
    shown = [plan_name(t) for t in tokens if t != "unknown"]
    return shown + ([ngettext("%(n)s face-down token", "%(n)s face-down tokens", hidden) % {"n": hidden}] if hidden else [])


def sidebar(state: LockdownState) -> dict[str, Any]:
    b = state.board
    on_off = {True: _("on"), False: _("off")}
    power = " · ".join((_("elevator") if loc == "elevator" else loc) + " " + on_off[bool(on)]
                       for loc, (_power, on) in state.ship.power.items())
    status = [
        (_("Round"), state.clock.round or _("setup")),
        (_("Time"), _("%(space)s (%(n)s left)") % {"space": state.time_label,
                                                   "n": len(b.time_spaces) - 1 - state.clock.time}),
        (_("Power"), power + (" · " + _("emergency") if state.ship.emergency_power else "")),
        (_("Self-destruct"),
         _("%(colour)s on %(space)s") % {"colour": _(state.systems.self_destruct[0]),
                                         "space": b.time_label(state.systems.self_destruct[1])}
         if state.systems.self_destruct else _("off")),
        (_("Alarm"),
         _("on %(space)s") % {"space": b.time_label(state.systems.alarm)} if state.systems.alarm is not None else _("off")),
        (_("Main gate"), _("open") if state.systems.gate_open else _("closed")),
        (_("Night stalkers"), len(state.colony.intruders)),
        (_("Fires"), state.fires()),
        (_("Malfunctions"), state.malfunctions()),
        (_("Eggs in the Nest"), state.colony.eggs),
        (_("Active plan"),
         plan_name(state.secrets.active_contingency) if state.secrets.active_contingency != "unknown" else _("face down")),
    ]
    if state.record.gaps or state.record.unknowns:  # a thinner record (decision 0018): say how thin, once
        skipped = [f"round {a}" if b - 1 <= a else f"rounds {a}–{b - 1}" for a, b, _ in state.record.gaps]
        parts = ([f"not recorded: {', '.join(skipped)}"] if skipped else []) + (
            [f"{len(state.record.unknowns)} value{'s' if len(state.record.unknowns) != 1 else ''} unknown"] if state.record.unknowns else [])
        status.append(("Record", "; ".join(parts)))
    return {"characters": [_character(state, s) for s in state.seats], "status": status}


_SEAT_CHARACTER = re.compile(r"\bseat (\d+) \(([^,()]+)\)")


def verdicts(result: Result, state: LockdownState | None = None) -> list[dict[str, Any]]:
    """Each verdict with its reasons in the victory check's order (lockdown.md §11.8).

    With ``state``, a reason's ``seat 3 (Sentry)`` reads ``Greta (Sentry)``.
    """
    def tidy(text: str) -> str:
        if state is None:
            return text
        return _SEAT_CHARACTER.sub(lambda m: f"{player(state, int(m.group(1)))} ({m.group(2)})", text)

    out = []
    for p in result.players:
        steps: dict[str, list[str]] = {}
        for label, reason in verdict_steps(tuple(tidy(r) for r in p.reasons)):
            steps.setdefault(label, []).append(reason)
        out.append({"seat": p.seat, "outcome": p.outcome, "steps": steps, "survival": p.survival,
                    "death_cause": p.death_cause,
                    "objective": objective_name(p.objective) if p.objective else None})
    return out
