"""The words of a Lockdown result that statistics and pages print: death causes and escape routes (marked for
gettext, translated where they are shown), and how a verdict's survival reads as an escape route.

    >>> escape_route("swc:B", None), escape_route(None, None)
    ('pod', None)
"""
from __future__ import annotations

from typing import Any

from service.i18n import N_

DEATH_CAUSES = {
    "wounds": N_("Wounds"), "infection": N_("Infection"), "attack": N_("Intruder attack"), "time_out": N_("Time ran out"),
    "alarm_procedure": N_("Alarm procedure"), "base_destroyed": N_("Base destroyed"), "vent_out": N_("Vented out"),
    "defense_control": N_("Defence control"), "contingency": N_("Contingency plan"), "final_scan": N_("Final scan"),
    "event": N_("Event"), "other": N_("Other"), "rapid_response_team": N_("Rapid response team"),
    "base": N_("Left in the base"), "died during play": N_("Died during play"),
}
ROUTES = {"pod": N_("CSS pod"), "bunker": N_("Bunker"), "isolation": N_("Isolation Room")}


def escape_route(survival: str | None, character: Any) -> str | None:
    """How a character left (or tried to leave) the base: pod, bunker or isolation; None: never tried.

    ``survival`` is the verdict's (``swc:B`` is a pod that reached the ship); without one, the character's
    status at the end says it."""
    if survival:
        base = survival.split(":")[0]
        return {"swc": "pod"}.get(base, base) if base in ("swc", "pod", "bunker", "isolation") else None
    if character is not None:
        if character.status in ("pod", "evacuated"):
            return "pod"
        if character.status in ("bunker", "isolation"):
            return character.status
        if character.status == "dead" and character.was in ("pod", "isolation"):
            return character.was
    return None
