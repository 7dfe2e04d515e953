"""Generated games as a header and API fact payloads, for tests, benchmarks and demos.

    >>> header, facts = generated(1, players=2, max_rounds=1)
    >>> header["ruleset"], facts[0]["type"]
    ('lockdown', 'BoardPrepared')
"""
from __future__ import annotations

from typing import Any

from service.rules.lockdown.generate import generate_game


def generated(seed: int = 1, players: int = 3, mode: str = "standard", max_rounds: int = 2) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(header, facts) of a legal generated game on the synthetic board, ready for Games or the API."""
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
