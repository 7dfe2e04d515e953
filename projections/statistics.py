"""The "stats" read model: what happened in each game, counted from its facts (decision 0025).

One row per game, one per seat (character, objective, plan, outcome, how and when it ended for
that character), one per intruder killed (type, weapon, killer, round, room) and one per room
where something hurt (attacks, wounds, deaths). The rows are recomputed from the as-corrected
fold of the game and replaced whole (decision 0002), so a correction or a late fact simply
rewrites them; the statistics pages aggregate these rows with indexed SQL at request time, except the
character and deaths pages, which sum counts the league view keeps from the same values (decision 0035).

What a step shows is read by comparing the state before and after each fact (the rules derive
deaths, kills and wounds; a recorder never types them twice):

- a character whose status becomes ``dead``: its death (round, room it was in, cause, and the
  intruder type attacking in that step — the player's "nemesis");
- an intruder removed with a "killed" consequence: a kill, credited to the fact's shooter or
  fighter, else to the last character who shot or fought that intruder (an injury check or an
  effect finishes what a shot began), with that weapon ("melee" for a melee attack);
- a character's light or serious wounds going up: a wound in the room it stands in;
- a night stalker's attack (``IntruderAttacked``): an attack in its target's room;
- a sector's power going from on to off after setup: the round power was first lost (the time track
  turns sectors off as it goes, so this is mostly round 1); the round no sector had power any more.
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
from service.rules import get_ruleset

RULESETS = ("lockdown",)
SECTORS = ("S-01", "S-02", "S-03")
MELEE = "melee"


@dataclass
class Tally:
    """What a game's steps showed so far (advanced fact by fact)."""

    deaths: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat → round, room, cause, killer
    kills: list[dict[str, Any]] = field(default_factory=list)
    rooms: dict[str, list[int]] = field(default_factory=dict)  # room → [attacks, wounds, deaths]
    wounds: dict[int, int] = field(default_factory=dict)  # seat → wounds suffered
    power_lost: int | None = None
    blackout: int | None = None  # the round no sector had power any more (first time)
    last_hit: dict[str, tuple[int | None, str | None]] = field(default_factory=dict)  # intruder → (seat, weapon)

    def copy(self) -> "Tally":
        return Tally({k: dict(v) for k, v in self.deaths.items()}, [dict(k) for k in self.kills],
                     {k: list(v) for k, v in self.rooms.items()}, dict(self.wounds), self.power_lost, self.blackout,
                     dict(self.last_hit))

    def _room(self, room: str | None) -> list[int]:
        return self.rooms.setdefault(room or "unknown", [0, 0, 0])

    def step(self, before, fact, after, consequences) -> None:
        rnd = before.round
        data = fact.data or {}
        if fact.type == "CharacterShot" and isinstance(data.get("target"), str):
            self.last_hit[data["target"]] = (fact.actor, str(data.get("weapon") or "") or None)
        elif fact.type == "MeleeAttacked" and isinstance(data.get("target"), str):
            self.last_hit[data["target"]] = (fact.actor, MELEE)
        attacker = None
        if fact.type == "IntruderAttacked":
            attacker = next((i for i in before.intruders if i.id == data.get("intruder")), None)
            target = data.get("target")
            if target is None:  # the rules' target: whoever the step hurt, else anyone in the intruder's room
                target = next((s for s in before.seats if _hurt(before, after, s)), None)
            room = _tile(before, before.characters[target].room) if target in before.characters else (
                _tile(before, attacker.room) if attacker else None)
            self._room(room)[0] += 1
        for seat in before.seats:
            b, a = before.characters[seat], after.characters[seat]
            light = max(0, a.light - b.light)
            serious = max(0, len(a.serious) - len(b.serious))
            hurt = serious + (light if not serious else 0)
            if hurt:
                self.wounds[seat] = self.wounds.get(seat, 0) + hurt
                self._room(_tile(before, b.room or a.room))[1] += hurt
            if a.status == "dead" and b.status != "dead" and seat not in self.deaths:
                room = _tile(before, b.room) if b.room else None
                self.deaths[seat] = {"round": rnd, "room": room, "cause": a.cause,
                                     "killer": attacker.kind if attacker else None}
                self._room(room)[2] += 1
        removed = {c.data.get("intruder") for c in consequences
                   if c.type == "intruder-removed" and c.data.get("killed")} | {
            c.data.get("intruder") for c in consequences if c.type == "larva-killed"}
        for iid in sorted(filter(None, removed)):
            it = next((i for i in before.intruders if i.id == iid), None)
            if it is None:
                continue
            if fact.type in ("CharacterShot", "MeleeAttacked") and data.get("target") == iid:
                seat, weapon = self.last_hit[iid]
            else:
                seat, weapon = self.last_hit.get(iid, (None, None))
            self.kills.append({"seq": fact.seq, "seat": seat, "kind": it.kind, "weapon": weapon, "round": rnd,
                               "room": _tile(before, it.room)})
            self.last_hit.pop(iid, None)
        if before.phase != "setup":
            if self.power_lost is None and any(_on(before, loc) and not _on(after, loc) for loc in SECTORS):
                self.power_lost = max(rnd, 1)
            if self.blackout is None and any(_on(before, loc) for loc in SECTORS) and not any(_on(after, loc) for loc in SECTORS):
                self.blackout = max(rnd, 1)


def _on(state, location: str) -> bool:
    return bool(state.power.get(location, (0, False))[1])


def _hurt(before, after, seat) -> bool:
    b, a = before.characters[seat], after.characters[seat]
    return a.light > b.light or len(a.serious) > len(b.serious) or (a.status == "dead" and b.status != "dead")


def _tile(state, place: str | None) -> str | None:
    """A place as statistics name it: its room tile when known (comparable across games), else None."""
    if place is None:
        return None
    r = state.rooms.get(place)
    if r is None:
        return None
    return r.tile or None


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
