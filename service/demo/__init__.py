"""The demo games shipped with the project, and how they were made.

The files in this folder are the source of `nemesis-archive demo`. They come from the seeded
random-play generator (legal games on the clearly labelled synthetic board) and are written
by the notation writer, so they are canonical. To make them again:

    .venv/bin/python -m service.demo
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from uuid import NAMESPACE_URL, uuid5

from service.game import Game
from service.notation import write_game
from service.rules.lockdown.generate import generate_game

HERE = Path(__file__).resolve().parent

# name, seed, players, mode, rounds, played_on, title, lenient: seeds chosen so that each game
# plays to a real ending with every verdict decided (at least one winner each)
DEMOS = (
    ("friday-four-players", 64, ("Ada", "Bartek", "Chiara", "Dmitri"), "standard", 20, "2026-11-20", "Friday night, four players", False),
    ("solo-evening", 74, ("Ewa",), "solo", 20, "2026-11-22", "Solo evening", False),
    ("club-three-players", 13, ("Ada", "Filip", "Greta"), "standard", 20, "2026-11-23", "Club night (lenient, with a correction)", True),
)


def build(name, seed, names, mode, rounds, played_on, title, lenient) -> Game:
    setup, facts = generate_game(seed, players=len(names), mode=mode, max_rounds=rounds)
    game = Game(
        game_id=uuid5(NAMESPACE_URL, f"nemesis-archive/demo/{name}"),
        ruleset="lockdown",
        mode=setup.mode,
        players=[{"seat": s.seat, "name": n} for s, n in zip(setup.players, names)],
        strict=not lenient,
        options=dict(setup.options),
        league="Demo league",
        tags=["demo"],
        played_on=played_on,
        title=title,
    )
    start = datetime.fromisoformat(played_on + "T19:00:00+00:00").astimezone(timezone.utc)
    clock = (start + timedelta(seconds=25 * i) for i in range(10**6))
    mistake_done = not lenient
    for i, (ftype, actor, data) in enumerate(facts):
        fact = {"type": ftype, "actor": actor, "data": data}
        game.record([fact], command_id=f"{name}-{i + 1}", recorder="demo", recorded_at=[_at(next(clock))])
        if not mistake_done and ftype == "NoiseRolled":
            # a lenient table: the roll is recorded twice by mistake (stored with its flag), then voided
            game.record([fact], command_id=f"{name}-{i + 1}-again", recorder="demo", recorded_at=[_at(next(clock))])
            game.record(
                [{"type": "FactVoided", "data": {"seqs": [game.position], "reason": "the same roll entered twice"}}],
                command_id=f"{name}-{i + 1}-fix", recorder="demo", recorded_at=[_at(next(clock))],
            )
            mistake_done = True
    return game


def _at(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


def main() -> None:
    for spec in DEMOS:
        (HERE / f"{spec[0]}.jsonl").write_text(write_game(build(*spec)), encoding="utf-8")
        print(f"wrote {spec[0]}.jsonl")


if __name__ == "__main__":
    main()
