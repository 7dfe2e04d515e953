"""Who knew what: a perspective's view of a game (``perspective_view``); the masking itself — which perspective
saw which fact and what it saw of it — is ``masking`` (re-exported here for old callers).

The ruleset asks ``masking``, never this module, so the ruleset and this module's fallback to Lockdown for
callers that name no ruleset do not import each other in a circle (decision 0029).

    >>> from service.rules.base import Fact, Seat, Setup
    >>> setup = Setup(players=(Seat(1, "Ada"), Seat(2, "Bo")))
    >>> mask(setup, Fact(5, "ObjectivesDealt", {"objectives": ["send_signal", "nest_destroyed"]}, actor=1),
    ...      "public").data["objectives"]
    ['unknown', 'unknown']
"""
from __future__ import annotations

from typing import Any, Iterable

from service.rules.base import Fact, Setup
from service.rules.lockdown.masking import (  # noqa: F401 (old paths: perspective.mask …)
    ALL, EVERYBODY, PUBLIC, audience, knows, mask, revealed, seat_of, valid,
)


def perspective_view(setup: Setup, facts: Iterable[Fact], as_: str, ruleset: Any = None) -> Any:
    """The state after ``facts`` (as the replay applies them) as the perspective ``as_`` knew it.

    For the board drawing and any other reader that wants a filtered state without a replay.
    """
    if ruleset is None:  # an old caller's form: Lockdown
        from service.rules.lockdown.ruleset import LOCKDOWN as ruleset
    return ruleset.perspective_view(setup, list(facts), as_)
