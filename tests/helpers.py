"""Shared helpers for the integration tests: generated games as API payloads."""
from __future__ import annotations

import time

from service.rules.lockdown.generate import generate_game


def generated(seed: int = 1, players: int = 3, mode: str = "standard", max_rounds: int = 2):
    """(header, facts) of a legal generated game, ready for the API or Games.import_game."""
    setup, facts = generate_game(seed, players=players, mode=mode, max_rounds=max_rounds)
    header = {
        "ruleset": "lockdown",
        "mode": setup.mode,
        "players": [{"seat": s.seat, "name": f"{s.name} #{seed}"} for s in setup.players],
        "options": dict(setup.options),
        "played_on": "2026-11-20",
        "title": f"generated game {seed}",
    }
    return header, [{"type": t, "actor": a, "data": d} for t, a, d in facts]


def wait_for(predicate, timeout: float = 15.0, interval: float = 0.05):
    """Poll until ``predicate()`` is truthy (read models are eventually consistent)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        time.sleep(interval)
