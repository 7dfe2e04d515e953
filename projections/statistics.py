"""The "stats" read model: what happened in each game, counted from its facts (decision 0025).

One row per game, one per seat (character, objective, plan, outcome, how and when it ended for
that character), one per intruder killed (type, weapon, killer, round, room) and one per room
where something hurt (attacks, wounds, deaths). The rows are recomputed from the as-corrected
fold of the game and replaced whole (decision 0002), so a correction or a late fact simply
rewrites them; the statistics pages aggregate these rows with indexed SQL at request time.

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

from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from typing import Any, Iterable

from eventsourcing.persistence import Tracking
from psycopg import sql

from projections.viewbase import GameView
from service.game import Game
from service.league import name_key

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


def rows_of(game: Game, tally: Tally, state) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict], list[tuple]]:
    """(game row, seat rows, kill rows, room rows) of a game and what its steps showed."""
    ruleset = game.ruleset
    finished = bool(ruleset.position(state).get("finished"))
    result = ruleset.score(state) if finished else None
    verdicts = {p.seat: p for p in result.players} if result else {}
    created = game.created_on if isinstance(game.created_on, datetime) else datetime.now(timezone.utc)
    played = date.fromisoformat(game.played_on) if game.played_on else created.astimezone(timezone.utc).date()
    plan = state.active_contingency if state.active_contingency not in (None, "unknown") else None
    rounds = state.round
    names = {p["seat"]: p["name"] for p in game.players}
    seats = []
    for seat in state.seats:
        c = state.characters[seat]
        v = verdicts.get(seat)
        death = tally.deaths.get(seat)
        cause = (v.death_cause if v else None) or (death["cause"] if death else None)
        died = death is not None or bool(v and v.death_cause)
        survived = bool(v and v.death_cause is None and v.survival is not None)
        seats.append({
            "seat": seat, "name": names.get(seat, f"#{seat}"), "name_key": name_key(names.get(seat, f"#{seat}")),
            "character": c.character, "objective": objective_type(c.objective or (v.objective if v else None)),
            "outcome": v.outcome if v else None, "survived": survived, "route": ruleset.escape_route(v.survival if v else None, state, seat),
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

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._folds: "OrderedDict[object, tuple[int, Any, Tally]]" = OrderedDict()
        self._written: dict[object, str] = {}  # game → the rows last committed by this view object

    def process(self, games: Iterable[Game], tracking: Tracking, others: Iterable[object] = ()) -> None:
        """Rows and tracking in one transaction; a game whose rows this view wrote unchanged is not written
        again (most facts — a move, a card — change no statistic), remembered only once the write commits."""
        latest = {g.id: g for g in games}
        written = {}
        with self.datastore.transaction(commit=True) as curs:
            self._insert_tracking(curs, tracking)
            for game in latest.values():
                rows = self._rows(game)
                signature = repr(rows)
                if self._written.get(game.id) == signature:
                    continue
                self._write_rows(curs, game, rows)
                written[game.id] = signature
        self._written.update(written)
        while len(self._written) > 4096:
            self._written.pop(next(iter(self._written)))

    def tally(self, game: Game) -> tuple[Tally, Any]:
        """What the game's as-corrected steps showed, and its last state: advanced by the new facts
        when the game was seen before without corrections, else folded from the start."""
        from service.rules.replay import CORRECTION_TYPES, GENERIC_TYPES

        cached = self._folds.pop(game.id, None)
        recorded = game.recorded
        ruleset = game.ruleset
        if cached is not None and cached[0] <= len(recorded) and not any(
            r.fact.type in CORRECTION_TYPES for r in recorded[cached[0]:]
        ):
            position, state, tally = cached
            tally = tally.copy()
            for r in recorded[position:]:
                if r.fact.type in GENERIC_TYPES or any(v.shape for v in ruleset.check(state, r.fact)):
                    continue
                after, consequences = ruleset.apply(state, r.fact)
                tally.step(state, r.fact, after, consequences)
                state = after
            corrected = False
        else:
            replay = game.replay(corrected=True)
            tally = Tally()
            for before, step in zip(replay.steps, replay.steps[1:]):
                if step.fact is None or step.fact.type in GENERIC_TYPES or step.state is before.state:
                    continue
                tally.step(before.state, step.fact, step.state, step.consequences)
            state = replay.head.state
            corrected = any(r.fact.type in CORRECTION_TYPES for r in recorded)
        if not corrected:  # a corrected game is folded again next time: its facts no longer follow in order
            self._folds[game.id] = (len(recorded), state, tally)
            if len(self._folds) > 256:
                self._folds.popitem(last=False)
        return tally, state

    def _rows(self, game: Game):
        if game.ruleset_name not in RULESETS:
            return None
        tally, state = self.tally(game)
        return rows_of(game, tally, state)

    def write(self, curs, game: Game) -> None:
        self._written.pop(game.id, None)  # written outside process (a retry): never skipped later on its account
        self._write_rows(curs, game, self._rows(game))

    def _write_rows(self, curs, game: Game, rows) -> None:
        t = self.table
        for name in ("games", "seats", "kills", "rooms"):
            curs.execute(sql.SQL("DELETE FROM {} WHERE game_id = %s").format(t(name)), (game.id,), prepare=True)
        if rows is None:
            return
        row, seats, kills, rooms = rows
        curs.execute(
            sql.SQL(
                "INSERT INTO {} (game_id, ruleset, mode, players, league_key, played_on, created_at, finished, ending,"
                " plan, rounds, power_lost_round, blackout_round, first_death_round, kills) VALUES (%(game_id)s, %(ruleset)s,"
                " %(mode)s, %(players)s, %(league_key)s, %(played_on)s, %(created_at)s, %(finished)s, %(ending)s,"
                " %(plan)s, %(rounds)s, %(power_lost_round)s, %(blackout_round)s, %(first_death_round)s, %(kills)s)"
            ).format(t("games")), row, prepare=True)
        curs.executemany(
            sql.SQL(
                "INSERT INTO {} (game_id, seat, name, name_key, mode, players, played_on, finished, plan, character,"
                " objective, outcome, survived, route, death_cause, death_round, death_room, killer, rounds_survived,"
                " wounds, kills) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
            ).format(t("seats")),
            [(game.id, s["seat"], s["name"], s["name_key"], row["mode"], row["players"], row["played_on"], row["finished"],
              row["plan"], s["character"], s["objective"], s["outcome"], s["survived"], s["route"], s["death_cause"],
              s["death_round"], s["death_room"], s["killer"], s["rounds_survived"], s["wounds"], s["kills"]) for s in seats],
        )
        if kills:
            names = {s["seat"]: s["name_key"] for s in seats}
            curs.executemany(
                sql.SQL("INSERT INTO {} (game_id, seq, seat, name_key, kind, weapon, round, room)"
                        " VALUES (%s,%s,%s,%s,%s,%s,%s,%s)").format(t("kills")),
                [(game.id, k["seq"], k["seat"], names.get(k["seat"]), k["kind"], k["weapon"], k["round"], k["room"])
                 for k in kills],
            )
        if rooms:
            curs.executemany(
                sql.SQL("INSERT INTO {} (game_id, room, attacks, wounds, deaths) VALUES (%s,%s,%s,%s,%s)").format(t("rooms")),
                [(game.id, *r) for r in rooms],
            )
