"""The "stats" read model: what happened in each game, counted from its facts (decision 0025).

One row per game, one per seat (character, objective, plan, outcome, how and when it ended for
that character), one per intruder killed (type, weapon, killer, round, room) and one per room
where something hurt (attacks, wounds, deaths). The rows are recomputed from the as-corrected
fold of the game and replaced whole (decision 0002), so a correction or a late fact simply
rewrites them; the statistics pages aggregate these rows with indexed SQL at request time, except the
character, deaths and escapes pages, which sum counts the league view keeps from the same values (decisions 0035, 0040).

What a step shows is the ruleset's to say (``Ruleset.step_statistics``, decision 0040): deaths (round, room,
cause, the intruder type attacking — the player's "nemesis"), wounds and attacks by room, hits on intruders and
their kills (credited to the last character who hit that intruder, with that weapon: an injury check or an effect
finishes what a shot began), and the rounds the power was first lost during play and no sector had power any more
(Lockdown: usually round 1, the time track's first red threshold; decision 0040). This module reads no ruleset's state.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from types import SimpleNamespace
from typing import Any, Iterable

from eventsourcing.persistence import Tracking
from psycopg import sql

from projections.folding import Summary, summary
from projections.viewbase import GameView
from service.game import Game
from service.league import name_key
from service.rules import Ruleset, StepStatistics, get_ruleset, ruleset_of_state
from service.rules.registry import RULESETS as KNOWN_RULESETS

#: the rulesets whose steps tell the statistics something (they override ``Ruleset.step_statistics``)
RULESETS = tuple(name for name, r in KNOWN_RULESETS.items()
                 if type(r).step_statistics is not Ruleset.step_statistics)


@dataclass
class Tally:
    """What a game's steps showed so far (advanced fact by fact, from the ruleset's :class:`StepStatistics`)."""

    deaths: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat → round, room, cause, killer
    kills: list[dict[str, Any]] = field(default_factory=list)
    rooms: dict[str, list[int]] = field(default_factory=dict)  # room → [attacks, wounds, deaths]
    wounds: dict[int, int] = field(default_factory=dict)  # seat → wounds suffered
    power_lost: int | None = None
    blackout: int | None = None  # the round no sector had power any more (first time)
    last_hit: dict[str, tuple[int | None, str | None]] = field(default_factory=dict)  # intruder → (seat, weapon)
    ruleset: Ruleset | None = field(default=None, repr=False, compare=False)  # found from the first state stepped

    def copy(self) -> "Tally":
        return Tally({k: dict(v) for k, v in self.deaths.items()}, [dict(k) for k in self.kills],
                     {k: list(v) for k, v in self.rooms.items()}, dict(self.wounds), self.power_lost, self.blackout,
                     dict(self.last_hit), self.ruleset)

    def _room(self, room: str | None) -> list[int]:
        return self.rooms.setdefault(room or "unknown", [0, 0, 0])

    def step(self, before, fact, after, consequences) -> None:
        if self.ruleset is None:
            self.ruleset = ruleset_of_state(before)
            if self.ruleset is None:
                raise TypeError(f"no registered ruleset has states of type {type(before).__name__}")
        self.add(fact.seq, self.ruleset.step_statistics(before, fact, after, consequences))

    def add(self, seq: int, seen: StepStatistics) -> None:
        """Count what fact ``seq``'s step showed."""
        rnd = seen.round
        for hit in seen.hits:
            self.last_hit[hit.target] = (hit.seat, hit.weapon)
        for room in seen.attacks:
            self._room(room)[0] += 1
        for w in seen.wounds:
            self.wounds[w.seat] = self.wounds.get(w.seat, 0) + w.count
            self._room(w.room)[1] += w.count
        for d in seen.deaths:
            if d.seat not in self.deaths:
                self.deaths[d.seat] = {"round": rnd, "room": d.room, "cause": d.cause, "killer": d.killer}
                self._room(d.room)[2] += 1
        for k in seen.kills:
            seat, weapon = self.last_hit.pop(k.target, (None, None))
            self.kills.append({"seq": seq, "seat": seat, "kind": k.kind, "weapon": weapon, "round": rnd,
                               "room": k.room})
        if self.power_lost is None and seen.power_lost is not None:
            self.power_lost = seen.power_lost
        if self.blackout is None and seen.blackout is not None:
            self.blackout = seen.blackout


def objective_type(value: str | None) -> str | None:
    return value.split(":", 1)[0] if value else None


def rows_of(game: Summary) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict], list[tuple]]:
    """(game row, seat rows, kill rows, room rows) of a game's summary: its last state and what its steps showed."""
    tally, state = game.tally, game.stats_state
    ruleset = get_ruleset(game.ruleset_name)
    # the final state as the summary keeps it: each seat's character (status, and where it was before)
    kept = SimpleNamespace(characters={seat: SimpleNamespace(**facts) for seat, facts in state["seats"].items()})
    finished = game.finished
    result = game.result if finished else None
    verdicts = {p.seat: p for p in result.players} if result else {}
    created = game.created_on if isinstance(game.created_on, datetime) else datetime.now(timezone.utc)
    played = date.fromisoformat(game.played_on) if game.played_on else created.astimezone(timezone.utc).date()
    plan = state["plan"] if state["plan"] not in (None, "unknown") else None
    rounds = state["round"]
    names = {p["seat"]: p["name"] for p in game.players}
    seats = []
    for seat, facts in state["seats"].items():
        c = SimpleNamespace(**facts)
        v = verdicts.get(seat)
        death = tally.deaths.get(seat)
        cause = (v.death_cause if v else None) or (death["cause"] if death else None)
        died = death is not None or bool(v and v.death_cause)
        survived = bool(v and v.death_cause is None and v.survival is not None)
        seats.append({
            "seat": seat, "name": names.get(seat, f"#{seat}"), "name_key": name_key(names.get(seat, f"#{seat}")),
            "character": c.character, "objective": objective_type(c.objective or (v.objective if v else None)),
            "outcome": v.outcome if v else None, "survived": survived, "route": ruleset.escape_route(v.survival if v else None, kept, seat),
            "death_cause": cause if died else None,
            "death_round": death["round"] if death else (rounds if died else None),
            "death_room": death["room"] if death else None,
            "killer": death["killer"] if death else None,
            "rounds_survived": death["round"] if death else rounds,
            "wounds": tally.wounds.get(seat, 0),
            "kills": sum(1 for k in tally.kills if k["seat"] == seat),
        })
    death_rounds = [s["death_round"] for s in seats if s["death_round"] is not None]
    row = {
        "game_id": game.id, "ruleset": game.ruleset_name, "mode": game.mode, "players": len(seats),
        "league_key": name_key(game.league) if game.league else None, "played_on": played, "created_at": created,
        "finished": finished, "ending": result.ending if result else None, "plan": plan, "rounds": rounds,
        "power_lost_round": tally.power_lost, "blackout_round": tally.blackout,"first_death_round": min(death_rounds) if death_rounds else None,
        "kills": len(tally.kills),
    }
    rooms = [(room, a, w, d) for room, (a, w, d) in sorted(tally.rooms.items())]
    return row, seats, tally.kills, rooms


class StatisticsView(GameView):
    """Per-game, per-seat, per-kill and per-room rows of every Lockdown game (see the module doc)."""

    view = "stats"
    steps = True

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._written: dict[object, str] = {}  # game → the rows last committed by this view object

    def process(self, games: Iterable[Game], tracking: Tracking, others: Iterable[object] = ()) -> None:
        """Rows and tracking in one transaction; a game whose rows this view wrote unchanged is not written
        again (most facts — a move, a card — change no statistic), remembered only once the write commits."""
        latest = {g.id: g for g in games}
        written, changed = {}, []
        with self.datastore.transaction(commit=True) as curs:
            self._begin(curs, tracking)
            for game in latest.values():
                rows = self._rows(game)
                signature = repr(rows)
                if self._written.get(game.id) == signature:
                    continue
                changed.append((game.id, rows))
                written[game.id] = signature
            if changed:
                self._write_all(curs, changed)
        self._written.update(written)
        while len(self._written) > 4096:
            self._written.pop(next(iter(self._written)))

    def _rows(self, game):
        game = summary(game)
        if game.ruleset_name not in RULESETS:
            return None
        return rows_of(game)

    def write(self, curs, game: Game) -> None:
        self._written.pop(game.id, None)  # written outside process (a retry): never skipped later on its account
        self._write_all(curs, [(game.id, self._rows(game))])

    def _write_all(self, curs, games: list[tuple[Any, Any]]) -> None:
        """Replace the rows of ``(game id, rows)``: one DELETE per table for them all, then one COPY per table."""
        t = self.table
        ids = [gid for gid, _ in games]
        for name in ("games", "seats", "kills", "rooms"):
            curs.execute(sql.SQL("DELETE FROM {} WHERE game_id = ANY(%s)").format(t(name)), (ids,))
        game_rows, seat_rows, kill_rows, room_rows = [], [], [], []
        for gid, rows in games:
            if rows is None:
                continue
            row, seats, kills, rooms = rows
            game_rows.append(tuple(row[c] for c in GAME_COLUMNS))
            seat_rows += [(gid, s["seat"], s["name"], s["name_key"], row["mode"], row["players"], row["played_on"],
                           row["finished"], row["plan"], s["character"], s["objective"], s["outcome"], s["survived"],
                           s["route"], s["death_cause"], s["death_round"], s["death_room"], s["killer"],
                           s["rounds_survived"], s["wounds"], s["kills"]) for s in seats]
            names = {s["seat"]: s["name_key"] for s in seats}
            kill_rows += [(gid, k["seq"], k["seat"], names.get(k["seat"]), k["kind"], k["weapon"], k["round"], k["room"])
                          for k in kills]
            room_rows += [(gid, *r) for r in rooms]
        for name, columns, out in (("games", GAME_COLUMNS, game_rows), ("seats", SEAT_COLUMNS, seat_rows),
                                   ("kills", KILL_COLUMNS, kill_rows), ("rooms", ROOM_COLUMNS, room_rows)):
            if out:
                with curs.copy(sql.SQL("COPY {} ({}) FROM STDIN").format(
                        t(name), sql.SQL(", ").join(map(sql.Identifier, columns)))) as copy:
                    for r in out:
                        copy.write_row(r)


GAME_COLUMNS = ("game_id", "ruleset", "mode", "players", "league_key", "played_on", "created_at", "finished", "ending",
                "plan", "rounds", "power_lost_round", "blackout_round", "first_death_round", "kills")
SEAT_COLUMNS = ("game_id", "seat", "name", "name_key", "mode", "players", "played_on", "finished", "plan", "character",
                "objective", "outcome", "survived", "route", "death_cause", "death_round", "death_room", "killer",
                "rounds_survived", "wounds", "kills")
KILL_COLUMNS = ("game_id", "seq", "seat", "name_key", "kind", "weapon", "round", "room")
ROOM_COLUMNS = ("game_id", "room", "attacks", "wounds", "deaths")
