"""Games folded as their events arrive: one rules fold per event feeds every view (decision 0032).

The folder keeps the latest folded :class:`Game` per id and advances it by each new event
with one ``ruleset.apply``. Beside the game's head state it keeps a :class:`Digest`: what the
views read of the game's *steps* rather than of its last state — the learned-corridor
observations (decision 0005) and the statistics tally (decision 0025). Both are computed from
the same ``(before, fact, after, consequences)`` of that one apply, so the corridors and
statistics views no longer fold every game again on their own.

A view asks :func:`digest_of`; a game whose digest is missing or behind (read from the event
store after a gap, or a step that failed) gets one from its as-corrected replay, folded once.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable
from uuid import UUID

from service.archive import Games
from service.game import Game
from service.rules import Fact, Ruleset
from service.rules.registry import RULESETS
from service.rules.replay import ANNOTATION_TYPES, CORRECTION_TYPES, GENERIC_TYPES, fold

#: rulesets whose steps the views read: they learn corridors or tell statistics (override the interface's default)
STEPPED = tuple(name for name, r in RULESETS.items()
                if type(r).observe_corridor is not Ruleset.observe_corridor
                or type(r).step_statistics is not Ruleset.step_statistics)
_DIGEST = "_fold_digest"  # where a game carries its digest (not an attribute of the aggregate itself)
_STAGED = "_staged_head"  # Game's hook: an event body reuses a head already folded (service/game.py)


@dataclass(frozen=True)
class SeenCorridor:
    """A corridor observation read back from a fold snapshot: the fields every ruleset's observation has
    (``Ruleset.observe_corridor``), so the read side needs no ruleset's own class to restore one."""

    board: str
    from_place: str
    to_place: str
    corridor: Any
    mover: str
    seq: int

    def as_dict(self) -> dict[str, Any]:
        return {"board": self.board, "from_place": self.from_place, "to_place": self.to_place,
                "corridor": self.corridor, "mover": self.mover, "seq": self.seq}


@dataclass
class Digest:
    """What a game's as-corrected steps showed up to ``version`` (the game's aggregate version)."""

    version: int
    observations: list = field(default_factory=list)  # corridors: an observation per step that made one
    tally: Any = None  # statistics: projections.statistics.Tally
    ruleset: Any = None  # whose observe_corridor reads the steps

    def step(self, before, fact: Fact, after, consequences) -> None:
        seen = self.ruleset.observe_corridor(before, fact, after)
        if seen is not None:
            self.observations.append(seen)
        self.tally.step(before, fact, after, consequences)


def _new_tally():
    from projections.statistics import Tally

    return Tally()


def digest_of_replay(replay, version: int) -> Digest:
    """The digest of a folded :class:`service.rules.replay.Replay` (steps with violations of shape skipped)."""
    digest = Digest(version, [], _new_tally(), replay.ruleset)
    observe = replay.ruleset.observe_corridor
    for before, step in zip(replay.steps, replay.steps[1:]):
        fact = step.fact
        if fact is None or any(v.shape for v in step.violations):
            continue
        seen = observe(before.state, fact, step.state)
        if seen is not None:
            digest.observations.append(seen)
        if fact.type in GENERIC_TYPES or step.state is before.state:
            continue
        digest.tally.step(before.state, fact, step.state, step.consequences)
    return digest


def digest_of(game: Game) -> Digest | None:
    """The game's digest at its version (None for a ruleset whose steps no view reads)."""
    if game.ruleset_name not in STEPPED:
        return None
    digest = game.__dict__.get(_DIGEST)
    if digest is None or digest.version != game.version:
        digest = digest_of_replay(game.replay(corrected=True), game.version)
        game.__dict__[_DIGEST] = digest
    return digest


def _fact(event: Game.FactRecorded) -> Fact:
    return Fact(seq=event.seq, type=event.type, data=dict(event.data), actor=event.actor, visibility=event.visibility)


class GameFolder:
    """Keeps the latest folded Game per id; falls back to the event store on a gap.

    ``digests``: also advance each game's :class:`Digest` (the corridors and statistics views
    read it); a folder that feeds no such view leaves it out.
    """

    def __init__(self, games: Callable[[], Games], maxsize: int = 256, digests: bool = True) -> None:
        self._games = games
        self._cache: "OrderedDict[UUID, Game]" = OrderedDict()
        self._maxsize = maxsize
        self.digests = digests

    def holds(self, game_id: UUID) -> bool:
        """Whether a fold of this game is kept (a rebuild then folds on rather than read a snapshot)."""
        return game_id in self._cache

    def advance(self, event) -> Game:
        """The game as of ``event`` (its version), reusing the previous fold when it is one behind."""
        gid = event.originator_id
        game = self._cache.pop(gid, None)
        if isinstance(event, Game.Created):
            game = event.mutate(None)
            if self.digests and game.ruleset_name in STEPPED:
                game.__dict__[_DIGEST] = Digest(game.version, [], _new_tally(), game.ruleset)
        elif game is not None and game.version == event.originator_version - 1:
            self._step(game, event)
        else:
            game = self._games().get_game(gid, version=event.originator_version)
        self._cache[gid] = game
        if len(self._cache) > self._maxsize:
            self._cache.popitem(last=False)
        return game

    def _step(self, game: Game, event) -> None:
        """Advance ``game`` by one event with one fold, advancing its digest from the same step."""
        digest = game.__dict__.get(_DIGEST) if self.digests else None
        if digest is not None and digest.version != game.version:
            digest = None
        if not isinstance(event, Game.FactRecorded) or event.type in ANNOTATION_TYPES:
            event.mutate(game)  # the state does not change
            if digest is not None:
                digest.version = game.version
            return
        fact = _fact(event)
        ruleset = game.ruleset
        if event.type in CORRECTION_TYPES:  # the as-corrected history changed: fold it again, once
            replay = fold(ruleset, game.setup, [*game.facts, fact], corrected=True)
            game.__dict__[_STAGED] = replay.head.state
            event.mutate(game)
            if digest is not None:
                game.__dict__[_DIGEST] = digest_of_replay(replay, game.version)
            return
        before = game.head_state
        after, consequences = ruleset.apply(before, fact)
        game.__dict__[_STAGED] = after
        event.mutate(game)
        game.__dict__.pop(_STAGED, None)  # a Game that ignored the hook must not keep it
        if digest is not None:
            try:
                digest.step(before, fact, after, consequences)
            except Exception:  # noqa: BLE001 - a view's own error: digest_of folds it again in that view
                game.__dict__.pop(_DIGEST, None)
                return
            digest.version = game.version


# -- what the views read of a game, at one version ------------------------------------------------------------

class Summary:
    """Everything a view reads of a game at one version: its header, and what its fold gave.

    Made from a folded :class:`Game` (each derived value computed once, when a view first asks,
    so every view of a rebuild shares it), or read back from a snapshot (:meth:`from_json`,
    decision 0032), which lets a rebuild write a game's rows without folding it again.
    """

    HEADER = ("ruleset_name", "mode", "title", "league", "tags", "played_on", "players", "strict")
    DERIVED = ("pos", "result", "described", "ending", "stats_state", "observations", "tally")

    def __init__(self, game: Game | None) -> None:
        self._game = game
        if game is not None:
            self.id, self.version = game.id, game.version
            for name in self.HEADER:
                setattr(self, name, getattr(game, name))
            self.position, self.created_on, self.modified_on = game.position, game.created_on, game.modified_on

    # derived values of the head state (cached: the instance dict holds them once computed or read)
    def __getattr__(self, name: str):
        if name not in self.DERIVED or self.__dict__.get("_game") is None:
            raise AttributeError(name)
        value = getattr(self, "_" + name)()
        self.__dict__[name] = value
        return value

    def compute(self) -> "Summary":
        """Every derived value now (a view that fails on one fails later, in that view)."""
        for name in self.DERIVED:
            try:
                getattr(self, name)
            except Exception:  # noqa: BLE001 - left to the view that reads it
                pass
        return self

    @property
    def finished(self) -> bool:
        return bool(self.pos.get("finished"))

    @property
    def flagged(self) -> int:
        if "_flagged" not in self.__dict__:
            self._flagged = sum(1 for r in self._game.recorded if r.flags)
        return self._flagged

    def _pos(self) -> dict:
        return self._game.ruleset.position(self._game.head_state)

    def _result(self):
        return self._game.ruleset.score(self._game.head_state)

    def _described(self) -> dict:
        return self._game.ruleset.describe(self._game.head_state)

    def _ending(self):
        return getattr(self._game.head_state, "ending", None)

    def _stats_state(self) -> dict | None:
        """What the statistics read of the last state beside the tally (``Ruleset.final_statistics``)."""
        if self.ruleset_name not in STEPPED:
            return None
        return self._game.ruleset.final_statistics(self._game.head_state)

    def _observations(self) -> list:
        """Corridor observations with the time their fact was recorded."""
        digest = digest_of(self._game)
        if digest is None:
            return []
        when = {r.fact.seq: r.recorded_at for r in self._game.recorded}
        return [(o, when.get(o.seq)) for o in digest.observations]

    def _tally(self):
        digest = digest_of(self._game)
        return digest.tally if digest is not None else None

    # -- snapshots -------------------------------------------------------------------------------------------

    def to_json(self) -> dict:
        out = {name: getattr(self, name) for name in self.HEADER}
        out.update(id=str(self.id), version=self.version, position=self.position, flagged=self.flagged,
                   created_on=_iso(self.created_on), modified_on=_iso(self.modified_on), pos=self.pos,
                   result=self.result.as_dict() if self.result is not None else None, described=self.described,
                   ending=self.ending, stats_state=self.stats_state,
                   observations=[[o.as_dict(), when] for o, when in self.observations],
                   tally=_tally_json(self.tally))
        return out

    @classmethod
    def from_json(cls, data: dict) -> "Summary":
        s = cls(None)
        s.__dict__["_game"] = None
        s.id, s.version, s.position = UUID(data["id"]), data["version"], data["position"]
        for name in cls.HEADER:
            setattr(s, name, data[name])
        s.created_on, s.modified_on = _from_iso(data["created_on"]), _from_iso(data["modified_on"])
        s._flagged = data["flagged"]
        s.pos, s.described, s.ending = data["pos"], data["described"], data["ending"]
        s.result = _result_from_json(data["result"])
        st = data["stats_state"]
        s.stats_state = None if st is None else {**st, "seats": {int(k): v for k, v in st["seats"].items()}}
        s.observations = [(SeenCorridor(**o), when) for o, when in data["observations"]]
        s.tally = _tally_from_json(data["tally"])
        return s


def summary(game) -> Summary:
    """The :class:`Summary` of a Game at its version (made once per version), or ``game`` if it is one."""
    if isinstance(game, Summary):
        return game
    found = game.__dict__.get("_summary")
    if found is None or found.version != game.version:
        found = game.__dict__["_summary"] = Summary(game)
    return found


def _iso(value):
    return value.isoformat() if value is not None else None


def _from_iso(value):
    from datetime import datetime

    return datetime.fromisoformat(value) if value is not None else None


def _result_from_json(data):
    if data is None:
        return None
    from service.rules import PlayerResult, Result

    return Result(data["ending"], tuple(PlayerResult(p["seat"], p["outcome"], tuple(p["reasons"]), p["survival"],
                                                    p["death_cause"], p["objective"]) for p in data["players"]),
                  data["effects"])


def _tally_json(tally):
    if tally is None:
        return None
    return {"deaths": [[k, v] for k, v in tally.deaths.items()], "kills": tally.kills,
            "rooms": tally.rooms, "wounds": [[k, v] for k, v in tally.wounds.items()], "power_lost": tally.power_lost,
            "blackout": tally.blackout, "last_hit": [[k, list(v)] for k, v in tally.last_hit.items()]}


def _tally_from_json(data):
    if data is None:
        return None
    from projections.statistics import Tally

    return Tally({k: v for k, v in data["deaths"]}, data["kills"], data["rooms"], {k: v for k, v in data["wounds"]},
                 data["power_lost"], data["blackout"], {k: tuple(v) for k, v in data["last_hit"]})
