"""Pure rulesets: one package per game, each exposing the interface in :mod:`service.rules.base`.

Nothing here imports Flask, SQL, psycopg or eventsourcing.
"""
from service.rules.base import (  # noqa: F401
    Consequence,
    Expected,
    Fact,
    PlayerResult,
    Result,
    Ruleset,
    Setup,
    Seat,
    StatDeath,
    StatHit,
    StatKill,
    StatWound,
    StepStatistics,
    Violation,
)


def get_ruleset(name: str) -> "Ruleset":
    """The ruleset registered under ``name`` (e.g. ``"lockdown"``); KeyError names the known ones."""
    from service.rules.registry import RULESETS

    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(sorted(RULESETS))}") from None


def ruleset_of_state(state: object) -> "Ruleset | None":
    """The registered ruleset whose ``state_type`` ``state`` is (a folded state names no ruleset), or None."""
    from service.rules.registry import RULESETS

    return next((r for r in RULESETS.values() if r.state_type is not None and isinstance(state, r.state_type)), None)
