"""Learned corridors: what recorded moves say about a board's corridor graph (decision 0005).

No public source gives the corridors of the real board sides, so a move is recorded with the
corridor number the table names and adjacency is only checked where the board file declares
corridors. Every recorded move is, however, an *observation*: "from room A the figure entered
room B through B's corridor n". A club can gather those observations over its games and
complete the board file from its physical board.

``observations(steps)`` is pure: it takes a folded replay's consecutive steps as
``(state before, fact, state after)`` and yields :class:`Observation` for every character move
and every intruder move whose corridor the table named. A corridor recorded as ``unknown``, and every move
of a game recorded after the fact or after a gap in its record (decision 0018), teach nothing: the
corridor or the room it was entered from may be invented.

    >>> from service.rules.lockdown.fold import new_game
    >>> g = new_game(2)
    >>> _ = g.push("CharacterMoved", 1, to_room="slot-04", corridor=3)
    >>> [(o.board, o.from_place, o.to_place, o.corridor) for o in observations(zip(g.states, g.facts, g.states[1:]))]
    [('basic', 'isolation_room', 'slot-04', 3)]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from service.rules.base import Fact
from service.rules.lockdown.unknowns import is_unknown, uncertain

CHARACTER_MOVES = ("CharacterMoved", "CharacterMovedCarefully")


@dataclass(frozen=True)
class Observation:
    """The table moved a figure from ``from_place`` into ``to_place`` through ``corridor``.

    ``corridor`` is the number printed at the room entered (1–4), or ``"path"`` on the Mars
    side's surface. ``mover`` is ``"character"`` or ``"intruder"``; ``seq`` the fact's number.
    """

    board: str
    from_place: str
    to_place: str
    corridor: int | str
    mover: str
    seq: int

    def as_dict(self) -> dict[str, Any]:
        return {"board": self.board, "from_place": self.from_place, "to_place": self.to_place,
                "corridor": self.corridor, "mover": self.mover, "seq": self.seq}


def observe(before: Any, fact: Fact | None, after: Any) -> Observation | None:
    """The observation one step makes, if any."""
    if fact is None or before is None or after is None:
        return None
    corridor = (fact.data or {}).get("corridor")
    if corridor is None or isinstance(corridor, bool) or is_unknown(corridor):
        return None
    if uncertain(before):  # recorded from memory, or after a gap: the corridor or the origin may be invented
        return None
    if fact.type in CHARACTER_MOVES:
        seat = fact.actor
        was = before.crew.characters.get(seat) if seat is not None else None
        now = after.crew.characters.get(seat) if seat is not None else None
        origin, dest = (was.room if was else None), (now.room if now else None)
        mover = "character"
    elif fact.type == "IntruderMoved":
        iid = fact.data.get("intruder")
        origin = next((i.room for i in before.colony.intruders if i.id == iid), None)
        dest = next((i.room for i in after.colony.intruders if i.id == iid), None)
        mover = "intruder"
    else:
        return None
    if not origin or not dest or origin == dest:
        return None
    return Observation(board=before.board.id, from_place=origin, to_place=dest, corridor=corridor, mover=mover,
                       seq=fact.seq)


def observations(steps: Iterable[tuple[Any, Fact | None, Any]]) -> Iterator[Observation]:
    """Observations of ``(state before, fact, state after)`` steps, in order."""
    for before, fact, after in steps:
        found = observe(before, fact, after)
        if found is not None:
            yield found


def replay_steps(replay: Any) -> Iterator[tuple[Any, Fact | None, Any]]:
    """``(before, fact, after)`` of a :class:`service.rules.replay.Replay` (steps with violations of shape skipped)."""
    steps = replay.steps
    for prev, step in zip(steps, steps[1:]):
        if step.fact is None or any(v.shape for v in step.violations):
            continue
        yield prev.state, step.fact, step.state


def board_fragment(board: str, pairs: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """A ``corridors`` list in the board file's format from proposals ``{from_place, to_place, corridor}``.

    A corridor joins two places; its number is known at the end that was *entered*. When both
    directions were observed both numbers are known; otherwise the other end is ``null`` and
    must be filled in from the physical board before the fragment goes into the board file.
    Paths (mars side) are left out: they are unnumbered and listed under ``paths``.
    """
    ends: dict[frozenset, dict[str, int | None]] = {}
    paths: set[frozenset] = set()
    for p in pairs:
        a, b, n = p["from_place"], p["to_place"], p["corridor"]
        key = frozenset((a, b))
        if n == "path":
            paths.add(key)
            continue
        known = ends.setdefault(key, {a: None, b: None})
        if known.get(b) is None:
            known[b] = n
    corridors = []
    for i, (key, known) in enumerate(sorted(ends.items(), key=lambda kv: sorted(kv[0])), start=1):
        corridors.append({"id": f"learned-{i:02d}", "ends": [[place, known[place]] for place in sorted(key)]})
    out: dict[str, Any] = {
        "board": board,
        "corridors": corridors,
        "note": ("Learned from recorded moves (docs/decisions/0005-learned-corridors.md). Each end is "
                 "[place, corridor number printed at that place]; null = never entered from this side: fill it "
                 "in from the physical board. Check every corridor on the board before adding it to "
                 f"data/board_{board}.json."),
    }
    if paths:
        out["paths"] = [sorted(k) for k in sorted(paths, key=sorted)]
    return out
