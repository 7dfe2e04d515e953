"""The "league" read model: players, clubs, leagues, seasons, where each game counts, and ratings.

Fed by every event of the store (decision 0020): the games (folded, one row per game and one
per seat, rewritten only when something standings or ratings read has changed) and the league
facts (service/league.py). At the end of each batch, in the same transaction as its tracking,
the games whose season may have changed are placed again and every season whose rated games
changed is re-rated from the earliest date touched: a late game re-rates everything after it.

Seats link to players by name at projection time (stored events are never changed): a seat's
name, compared as ``name_key``, is a registered player's name or alias, or else an
unregistered player of its own, whose id is derived from the name.
"""
from __future__ import annotations

import json
from datetime import date, datetime, timezone
from typing import Any, Iterable
from uuid import UUID, uuid5

from eventsourcing.persistence import Tracking
from psycopg import sql

from projections.folding import summary
from projections.statistics import RULESETS as STAT_RULESETS, rows_of as stats_rows
from projections.viewbase import GameView
from service.game import Game
from service.league import NAMESPACE, Club, Placement, Registry, name_key
from service.ratings import DECIDED, MODEL, THE_GAME, THE_GAME_NAME, is_rated, rate_game

OBJECTIVE_MET = ("met",)


def implicit_player(key: str) -> UUID:
    """The id of a name nobody registered: stable, so its rating history survives a rebuild."""
    return uuid5(NAMESPACE, f"name:{key}")


class Resolver:
    """Seat names → players, following aliases and merges (read from the view's own tables)."""

    def __init__(self, names: dict[str, UUID], players: dict[UUID, tuple[str, UUID | None]]) -> None:
        self.names = names
        self.players = players

    @classmethod
    def load(cls, curs, table) -> "Resolver":
        curs.execute(sql.SQL("SELECT name_key, player_id FROM {}").format(table("names")))
        names = {r["name_key"]: r["player_id"] for r in curs.fetchall()}
        curs.execute(sql.SQL("SELECT player_id, name, merged_into FROM {}").format(table("players")))
        players = {r["player_id"]: (r["name"], r["merged_into"]) for r in curs.fetchall()}
        return cls(names, players)

    def root(self, pid: UUID) -> UUID:
        seen = set()
        while pid in self.players and self.players[pid][1] is not None and pid not in seen:
            seen.add(pid)
            pid = self.players[pid][1]
        return pid

    def resolve(self, key: str, seat_name: str) -> tuple[UUID, str, bool]:
        """(player id, display name, registered)."""
        pid = self.names.get(key)
        if pid is None:
            return implicit_player(key), seat_name, False
        pid = self.root(pid)
        return pid, self.players[pid][0], True


def _ts(event) -> int:
    return int(event.timestamp.timestamp() * 1_000_000)


def objective_met(reasons: Iterable[str]) -> bool:
    """The victory check says so in its reasons ("objective … met"; docs/scoring.md §2 step 3)."""
    return any("objective" in r and r.endswith(" met") and "not met" not in r for r in reasons)


def game_row(game: Game) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What the league view keeps of a game (a Game or its Summary): its row and its seats.

    A game the statistics count (a Lockdown game whose steps were read) also gets, per seat, what the character
    page tallies (character, objective type, plan, rounds survived; the "stats" view's own values), so the
    view can keep those tallies per season beside its standings (decision 0035)."""
    game = summary(game)
    stats = None
    if game.ruleset_name in STAT_RULESETS and game.tally is not None and game.stats_state is not None:
        stat_row, stat_seats, _kills, _rooms = stats_rows(game)
        stats = {x["seat"]: x for x in stat_seats}
    finished = game.finished
    result = game.result if finished else None
    verdicts = {p.seat: p for p in result.players} if result else {}
    created = game.created_on if isinstance(game.created_on, datetime) else datetime.now(timezone.utc)
    played = date.fromisoformat(game.played_on) if game.played_on else created.astimezone(timezone.utc).date()
    seats = []
    for p in game.players:
        v = verdicts.get(p["seat"])
        seats.append({
            "seat": p["seat"], "name": p["name"], "name_key": name_key(p["name"]),
            "outcome": v.outcome if v else None,
            "survived": bool(v and v.death_cause is None and v.survival is not None),
            "objective": bool(v and objective_met(v.reasons)),
            "death_cause": v.death_cause if v else None,
            **({"character": stats[p["seat"]]["character"], "objective_type": stats[p["seat"]]["objective"],
                "plan": stat_row["plan"], "rounds_survived": stats[p["seat"]]["rounds_survived"],
                "died_of": stats[p["seat"]]["death_cause"], "death_round": stats[p["seat"]]["death_round"],
                "route": stats[p["seat"]]["route"]}
               if stats is not None and p["seat"] in stats else {}),
        })
    decided = finished and bool(seats) and all(s["outcome"] in DECIDED for s in seats)
    row = {
        "game_id": game.id, "ruleset": game.ruleset_name, "mode": game.mode, "title": game.title,
        "league_key": name_key(game.league) if game.league else None, "played_on": played,
        "created_at": created, "finished": finished, "decided": decided,
        "ending": result.ending if result else None,
        "players": stat_row["players"] if stats is not None else len(seats), "counted": stats is not None,
        **{k: stat_row[k] if stats is not None else None for k in ("first_death_round", "power_lost_round", "blackout_round")},
    }
    row["signature"] = json.dumps([row["league_key"], played.isoformat(), game.mode, game.title, finished, decided,
                                   row["ending"], row["players"], row["counted"], row["first_death_round"],
                                   row["power_lost_round"], row["blackout_round"], seats], sort_keys=True, default=str)
    return row, seats


UPSERT_GAME = sql.SQL(
    "INSERT INTO {} (game_id, ruleset, mode, title, league_key, played_on, created_at, finished, decided,"
    " ending, players, counted, first_death_round, power_lost_round, blackout_round, signature)"
    " VALUES (%(game_id)s, %(ruleset)s, %(mode)s, %(title)s,"
    " %(league_key)s, %(played_on)s, %(created_at)s, %(finished)s, %(decided)s, %(ending)s, %(players)s,"
    " %(counted)s, %(first_death_round)s, %(power_lost_round)s, %(blackout_round)s, %(signature)s)"
    " ON CONFLICT (game_id) DO UPDATE SET ruleset = EXCLUDED.ruleset, mode = EXCLUDED.mode,"
    " title = EXCLUDED.title, league_key = EXCLUDED.league_key, played_on = EXCLUDED.played_on,"
    " finished = EXCLUDED.finished, decided = EXCLUDED.decided, ending = EXCLUDED.ending,"
    " players = EXCLUDED.players, counted = EXCLUDED.counted, first_death_round = EXCLUDED.first_death_round,"
    " power_lost_round = EXCLUDED.power_lost_round, blackout_round = EXCLUDED.blackout_round,"
    " signature = EXCLUDED.signature"
)
SEAT_COLUMNS = ("game_id, seat, name, name_key, outcome, survived, objective, death_cause, mode, players, counted,"
                " character, objective_type, plan, rounds_survived, died_of, death_round, route")


def seat_values(row: dict[str, Any], seats: list[dict[str, Any]]) -> list[tuple]:
    """The seat rows of a game (``game_row``'s row and seats), in SEAT_COLUMNS order."""
    return [(row["game_id"], s["seat"], s["name"], s["name_key"], s["outcome"], s["survived"], s["objective"],
             s["death_cause"], row["mode"], row["players"], "character" in s, s.get("character"),
             s.get("objective_type"), s.get("plan"), s.get("rounds_survived"), s.get("died_of"),
             s.get("death_round"), s.get("route")) for s in seats]


class _Dirty:
    """Seasons to re-rate, each from the earliest game touched, as its rating order key
    (played_on, created_at, game_id) — None: from the season's first game."""

    def __init__(self) -> None:
        self.seasons: dict[UUID, date | None] = {}
        self.everything = False
        self.replace_all = False  # re-place every game (a league or season opened)
        self.replace: set[UUID] = set()  # games to place again
        self.untallied: set[UUID] = set()  # games written whose share is out of the tallies until placed

    def touch(self, season: UUID | None, when: tuple | None) -> None:
        if season is None:
            return
        if season in self.seasons:
            old = self.seasons[season]
            self.seasons[season] = None if old is None or when is None else min(old, when)
        else:
            self.seasons[season] = when


class LeagueView(GameView):
    view = "league"
    steps = True  # the character tallies read what the statistics read of each game's steps (decision 0035)

    def process(self, games: Iterable[Game], tracking: Tracking, others: Iterable[Any] = ()) -> None:
        latest = {g.id: g for g in games}
        with self.datastore.transaction(commit=True) as curs:
            self._begin(curs, tracking)
            dirty = _Dirty()
            for ev in others:
                self.apply_fact(curs, ev, dirty)
            if self.rebuilding:  # a generation nobody reads yet: placed, counted and rated once, in finish_rebuild
                self._write_games(curs, list(latest.values()))
                return
            for game in latest.values():
                self._write_game(curs, game, dirty)
            self.settle(curs, dirty)

    # -- a rebuild: rows per batch, placing, kept counts and ratings once at the end (decision 0044) --

    def _write_games(self, curs, games: list) -> None:
        """A batch's games and seats, as ``_write_game`` writes them, with no placing, counting or rating:
        one SELECT of their signatures, one ``executemany`` upsert, one DELETE and one COPY of their seats."""
        if not games:
            return
        made = [game_row(g) for g in games]
        curs.execute(sql.SQL("SELECT game_id, signature FROM {} WHERE game_id = ANY(%s)").format(self.table("games")),
                     ([row["game_id"] for row, _ in made],))
        old = {r["game_id"]: r["signature"] for r in curs.fetchall()}
        made = [(row, seats) for row, seats in made if old.get(row["game_id"]) != row["signature"]]
        if not made:
            return
        curs.executemany(UPSERT_GAME.format(self.table("games")), [row for row, _ in made])
        curs.execute(sql.SQL("DELETE FROM {} WHERE game_id = ANY(%s)").format(self.table("seats")),
                     ([row["game_id"] for row, _ in made],))
        with curs.copy(sql.SQL("COPY {} (" + SEAT_COLUMNS + ") FROM STDIN").format(self.table("seats"))) as copy:
            for row, seats in made:
                for values in seat_values(row, seats):
                    copy.write_row(values)

    def finish_rebuild(self) -> None:
        """After a rebuild's last batch, before the switch: place every game, count the kept tallies from the rows
        and rate every season from its first game — what the per-batch settling would have left, done once.
        It reads only the generation's own rows, so running it again (a rebuild resumed after it) gives the same."""
        with self.datastore.transaction(commit=True) as curs:
            if self.relaxed_commit:
                curs.execute("SET LOCAL synchronous_commit = off")
            dirty = _Dirty()
            self._place(curs, None, dirty, tallies=False)
            tally(curs, self.table, None, +1)
            dirty.seasons.clear()
            dirty.everything = True
            self.settle(curs, dirty)

    # -- games --

    def write(self, curs, game: Game) -> None:
        """One game alone (a parked game projected again): its rows, its placing, its seasons' ratings."""
        dirty = _Dirty()
        self._write_game(curs, game, dirty)
        self.settle(curs, dirty)

    def _write_game(self, curs, game: Game, dirty: _Dirty) -> None:
        row, seats = game_row(game)
        curs.execute(sql.SQL("SELECT signature, season_id, played_on, created_at, decided FROM {} WHERE game_id = %s").format(
            self.table("games")), (game.id,), prepare=True)
        old = curs.fetchone()
        if old is not None and old["signature"] == row["signature"]:
            return
        if old is not None and game.id not in dirty.untallied:
            tally(curs, self.table, [game.id], -1)  # its rows change: their share leaves the tallies first
        dirty.untallied.add(game.id)
        curs.execute(UPSERT_GAME.format(self.table("games")), row, prepare=True)
        curs.execute(sql.SQL("DELETE FROM {} WHERE game_id = %s").format(self.table("seats")), (game.id,), prepare=True)
        curs.executemany(sql.SQL("INSERT INTO {} (" + SEAT_COLUMNS + ") VALUES (" + ", ".join(["%s"] * 18) + ")").format(
            self.table("seats")), seat_values(row, seats))
        dirty.replace.add(game.id)
        if old is not None and (old["decided"] or row["decided"]):
            # created_at is kept by the upsert, so the game's rating key is the old one's or a new date's
            when = min((old["played_on"], old["created_at"], game.id), (row["played_on"], old["created_at"], game.id))
            dirty.touch(old["season_id"], when)  # the season it counted in (placing again may move it)
            dirty.touch(self._season_of(curs, game.id), when)
        elif old is None and row["decided"]:
            dirty.touch(self._season_of(curs, game.id), (row["played_on"], row["created_at"], game.id))

    def _season_of(self, curs, game_id: UUID) -> UUID | None:
        curs.execute(sql.SQL("SELECT season_id FROM {} WHERE game_id = %s").format(self.table("games")), (game_id,))
        row = curs.fetchone()
        return row["season_id"] if row else None

    # -- league facts --

    def apply_fact(self, curs, ev, dirty: _Dirty) -> None:
        t = self.table
        if isinstance(ev, Registry.PlayerRegistered):
            curs.execute(sql.SQL("INSERT INTO {} (player_id, name, merged_into, registered) VALUES (%s,%s,NULL,%s)"
                                 " ON CONFLICT (player_id) DO NOTHING").format(t("players")), (ev.player_id, ev.name, _ts(ev)))
            self._claim(curs, ev.name, ev.player_id, "name")
        elif isinstance(ev, Registry.PlayerRenamed):
            curs.execute(sql.SQL("UPDATE {} SET name = %s WHERE player_id = %s").format(t("players")), (ev.name, ev.player_id))
            self._claim(curs, ev.name, ev.player_id, "name")
        elif isinstance(ev, Registry.AliasAdded):
            self._claim(curs, ev.alias, ev.player_id, "alias")
        elif isinstance(ev, Registry.PlayersMerged):
            curs.execute(sql.SQL("UPDATE {} SET merged_into = %s WHERE player_id = %s").format(t("players")),
                         (ev.into_id, ev.duplicate_id))
        elif isinstance(ev, Club.Founded):
            curs.execute(sql.SQL("INSERT INTO {} (club_id, slug, name) VALUES (%s,%s,%s) ON CONFLICT DO NOTHING").format(
                t("clubs")), (ev.originator_id, ev.slug, ev.name))
            return
        elif isinstance(ev, Club.LeagueOpened):
            curs.execute(sql.SQL("INSERT INTO {} (league_id, club_id, slug, name, name_key, points, rate_solo, opened)"
                                 " VALUES (%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT DO NOTHING").format(t("leagues")),
                         (ev.league_id, ev.originator_id, ev.slug, ev.name, name_key(ev.name), json.dumps(ev.points),
                          ev.rate_solo, _ts(ev)))
            dirty.replace_all = True
            return
        elif isinstance(ev, Club.LeagueConfigured):
            curs.execute(sql.SQL("UPDATE {} SET points = %s, rate_solo = %s WHERE league_id = %s").format(t("leagues")),
                         (json.dumps(ev.points), ev.rate_solo, ev.league_id))
            curs.execute(sql.SQL("SELECT season_id FROM {} WHERE league_id = %s").format(t("seasons")), (ev.league_id,))
            for r in curs.fetchall():
                dirty.touch(r["season_id"], None)
            return
        elif isinstance(ev, Club.SeasonOpened):
            curs.execute(sql.SQL("INSERT INTO {} (season_id, league_id, slug, name, starts_on, ends_on, opened)"
                                 " VALUES (%s,%s,%s,%s,%s,%s,%s) ON CONFLICT DO NOTHING").format(t("seasons")),
                         (ev.season_id, ev.league_id, ev.slug, ev.name, ev.starts_on, ev.ends_on, _ts(ev)))
            dirty.replace_all = True
            return
        elif isinstance(ev, Club.RoleGranted):
            curs.execute(sql.SQL("INSERT INTO {} (club_id, player_id, role) VALUES (%s,%s,%s) ON CONFLICT DO NOTHING").format(
                t("roles")), (ev.originator_id, ev.player_id, ev.role))
            return
        elif isinstance(ev, Club.RoleRevoked):
            curs.execute(sql.SQL("DELETE FROM {} WHERE club_id = %s AND player_id = %s AND role = %s").format(t("roles")),
                         (ev.originator_id, ev.player_id, ev.role))
            return
        elif isinstance(ev, Placement.Started):
            return
        elif isinstance(ev, Placement.GamePlaced):
            game_id = ev.game_id
            curs.execute(sql.SQL("INSERT INTO {} (game_id, placed, season_id, hidden) VALUES (%s, true, %s, false)"
                                 " ON CONFLICT (game_id) DO UPDATE SET placed = true, season_id = EXCLUDED.season_id").format(
                t("placements")), (game_id, ev.season_id))
            dirty.replace.add(game_id)
            return
        elif isinstance(ev, (Placement.GameHidden, Placement.GameShown)):
            game_id = ev.game_id
            hidden = isinstance(ev, Placement.GameHidden)
            curs.execute(sql.SQL("INSERT INTO {} (game_id, placed, season_id, hidden, reason) VALUES (%s, false, NULL, %s, %s)"
                                 " ON CONFLICT (game_id) DO UPDATE SET hidden = EXCLUDED.hidden, reason = EXCLUDED.reason").format(
                t("placements")), (game_id, hidden, ev.reason))
            dirty.replace.add(game_id)
            return
        else:
            return  # Registry.Opened, or a fact this view does not read
        dirty.everything = True  # who is who changed: every season is rated again

    def _claim(self, curs, name: str, player_id: UUID, kind: str) -> None:
        curs.execute(sql.SQL("INSERT INTO {} (name_key, player_id, name, kind) VALUES (%s,%s,%s,%s)"
                             " ON CONFLICT (name_key) DO NOTHING").format(self.table("names")),
                     (name_key(name), player_id, name, kind))

    # -- placing and rating --

    def settle(self, curs, dirty: _Dirty) -> None:
        if dirty.replace_all or dirty.replace:
            self._place(curs, None if dirty.replace_all else list(dirty.replace), dirty)
        if dirty.everything:
            curs.execute(sql.SQL("SELECT season_id FROM {}").format(self.table("seasons")))
            for r in curs.fetchall():
                dirty.touch(r["season_id"], None)
        if dirty.seasons:
            resolver = Resolver.load(curs, self.table)
            for season, since in dirty.seasons.items():
                self.rate_season(curs, season, since, resolver)

    def _place(self, curs, game_ids: list[UUID] | None, dirty: _Dirty, tallies: bool = True) -> None:
        """Each game's season: its latest placement fact, else its header's league by name and date.

        ``tallies`` False (a rebuild's ``finish_rebuild``, which counts every tally afresh afterwards, and
        ``game_ids`` None): the kept counts are left alone and every seat is stamped from its game."""
        t = self.table
        assert tallies or game_ids is None
        # the games whose season or hidden flag is about to change leave the tallies first (and come back below)
        moving = []
        if tallies:
            curs.execute(sql.SQL(
                "SELECT g.game_id FROM {games} g LEFT JOIN {placements} p ON p.game_id = g.game_id {where}").format(
                games=t("games"), placements=t("placements"),
                where=sql.SQL("WHERE (g.season_id IS DISTINCT FROM " + NEW_SEASON + " OR g.hidden <> coalesce(p.hidden, false))"
                              + ("" if game_ids is None else " AND g.game_id = ANY(%s)")).format(
                    leagues=t("leagues"), seasons=t("seasons"))), () if game_ids is None else (game_ids,))
            moving = [r["game_id"] for r in curs.fetchall() if r["game_id"] not in dirty.untallied]
        if moving:
            tally(curs, t, moving, -1)
        curs.execute(
            sql.SQL(
                "WITH calc AS (SELECT g.game_id, g.season_id AS old_season, g.hidden AS old_hidden, g.played_on,"
                " g.decided, CASE WHEN p.placed THEN p.season_id ELSE ("
                "  SELECT s.season_id FROM {leagues} l JOIN {seasons} s ON s.league_id = l.league_id"
                "  WHERE l.name_key = g.league_key AND (s.starts_on IS NULL OR s.starts_on <= g.played_on)"
                "  AND (s.ends_on IS NULL OR g.played_on <= s.ends_on)"
                "  ORDER BY l.opened, s.starts_on DESC NULLS LAST, s.opened DESC LIMIT 1) END AS new_season,"
                " coalesce(p.hidden, false) AS new_hidden"
                " FROM {games} g LEFT JOIN {placements} p ON p.game_id = g.game_id {where})"
                " UPDATE {games} g SET season_id = c.new_season, hidden = c.new_hidden FROM calc c"
                " WHERE g.game_id = c.game_id AND (c.old_season IS DISTINCT FROM c.new_season OR c.old_hidden <> c.new_hidden)"
                " RETURNING c.old_season, c.new_season, c.played_on, g.created_at, g.game_id, c.decided"
            ).format(leagues=t("leagues"), seasons=t("seasons"), games=t("games"), placements=t("placements"),
                     where=sql.SQL("" if game_ids is None else "WHERE g.game_id = ANY(%s)")),
            () if game_ids is None else (game_ids,),
        )
        changed = curs.fetchall()
        # each seat carries its game's season, date and state, so standings count seats alone
        stamp = None if not tallies else list({r["game_id"] for r in changed} | dirty.replace)  # None: every seat
        if stamp is None or stamp:
            curs.execute(sql.SQL(
                "UPDATE {seats} x SET season_id = g.season_id, hidden = g.hidden, finished = g.finished,"
                " played_on = g.played_on FROM {games} g WHERE g.game_id = x.game_id"
                + ("" if stamp is None else " AND x.game_id = ANY(%s)") +
                " AND (x.season_id IS DISTINCT FROM g.season_id OR x.hidden IS DISTINCT FROM g.hidden"
                " OR x.finished IS DISTINCT FROM g.finished OR x.played_on IS DISTINCT FROM g.played_on)").format(
                seats=t("seats"), games=t("games")), () if stamp is None else (stamp,))
        back = list(set(moving) | dirty.untallied) if tallies else []
        if back:
            tally(curs, t, back, +1)
        dirty.untallied.clear()
        for r in changed:
            if r["decided"]:
                when = (r["played_on"], r["created_at"], r["game_id"])
                dirty.touch(r["old_season"], when)
                dirty.touch(r["new_season"], when)

    def rate_season(self, curs, season_id: UUID, since: tuple | None, resolver: Resolver) -> None:
        """Rate the season's games again from the game keyed ``since`` = (played_on, created_at, game_id)
        on (None: all), starting from each player's rating just before it.

        Only the games from that key on are rated again (not the rest of its day), and the
        ratings before it come from one index probe per player of the season's ``current`` rows
        (each player's latest rating, kept here), not from a pass over the season's history.
        """
        t = self.table
        curs.execute(sql.SQL("SELECT l.rate_solo FROM {} s JOIN {} l ON l.league_id = s.league_id WHERE s.season_id = %s").format(
            t("seasons"), t("leagues")), (season_id,))
        league = curs.fetchone()
        cut = sql.SQL("" if since is None else " AND (played_on, created_at, game_id) >= (%s, %s, %s)")
        args = (season_id,) if since is None else (season_id, *since)
        curs.execute(sql.SQL("DELETE FROM {} WHERE season_id = %s").format(t("ratings")) + cut, args)
        ratings, rated = ratings_before(curs, t, season_id, since) if since is not None else ({}, {})
        if league is not None:
            games = rated_games(curs, t, season_id, since)
            # COPY: a season re-rated from its start writes a row per seat of every game. The games are
            # rated while the COPY is open, so the session is busy, never "idle in transaction" for the
            # seconds a whole season takes on a loaded machine (the store's idle timeout is 5 s).
            with curs.copy(sql.SQL("COPY {} (season_id, game_id, played_on, created_at, player_id, name, outcome,"
                                   " mu_before, sigma_before, mu, sigma, rated) FROM STDIN").format(t("ratings"))) as copy:
                for row in self._rate_games(games, season_id, league["rate_solo"], resolver, ratings, rated):
                    copy.write_row(row)
        curs.execute(sql.SQL("DELETE FROM {} WHERE season_id = %s").format(t("current")), (season_id,))
        if ratings:
            with curs.copy(sql.SQL("COPY {} (season_id, player_id, mu, sigma, rated) FROM STDIN").format(t("current"))) as copy:
                for pid, (mu, sigma) in ratings.items():
                    copy.write_row((season_id, pid, mu, sigma, rated[pid]))

    @staticmethod
    def _rate_games(games, season_id, rate_solo, resolver, ratings, rated):
        """Rate ``games`` in order, updating ``ratings`` and ``rated`` in place; yields the rating rows."""
        default = (MODEL.mu, MODEL.sigma)
        for g in games:
            if not is_rated(g["mode"], g["outcomes"], rate_solo):
                continue
            seats, names, outcomes = [], {THE_GAME: THE_GAME_NAME}, {}
            for key, seat_name, outcome in zip(g["keys"], g["names"], g["outcomes"]):
                pid, name, _ = resolver.resolve(key, seat_name)
                seats.append((pid, outcome))
                names.setdefault(pid, name)
                outcomes.setdefault(pid, outcome)
            if g["mode"] != "standard":
                outcomes[THE_GAME] = "lost" if any(o == "won" for _, o in seats) else "won"
            new = rate_game(g["mode"], seats, ratings)
            for pid, (mu, sigma) in new.items():
                before = ratings.get(pid, default)
                rated[pid] = rated.get(pid, 0) + 1
                yield (season_id, g["game_id"], g["played_on"], g["created_at"], pid, names[pid], outcomes.get(pid),
                       before[0], before[1], mu, sigma, rated[pid])
                ratings[pid] = (mu, sigma)


# A game's season: its latest placement, else its header's league by name and date (as _place computes it)
NEW_SEASON = ("(CASE WHEN p.placed THEN p.season_id ELSE ("
              " SELECT s.season_id FROM {leagues} l JOIN {seasons} s ON s.league_id = l.league_id"
              " WHERE l.name_key = g.league_key AND (s.starts_on IS NULL OR s.starts_on <= g.played_on)"
              " AND (s.ends_on IS NULL OR g.played_on <= s.ends_on)"
              " ORDER BY l.opened, s.starts_on DESC NULLS LAST, s.opened DESC LIMIT 1) END)")
NO_SEASON = "00000000-0000-0000-0000-000000000000"  # the tallies' season of a game in no season

# What the statistics count of each seat and game, as (kind, key, value summed) rows: a NULL key counts nothing;
# '' stands for a key that is NULL on the statistics' rows (a character not chosen, a round that never came).
# character/objective/plan: the character page (value: rounds survived); death_cause (value: the round of death);
# rounds_survived and rounds_died (of them, the characters who died): the deaths page's table of rounds survived.
# route: the escapes page (games: characters who tried it; wins, survived) — migration 0015.
SEAT_KINDS = (
    "(VALUES ('character', coalesce(x.character, ''), x.rounds_survived),"
    " ('objective', x.objective_type, x.rounds_survived), ('plan', x.plan, x.rounds_survived),"
    " ('death_cause', x.died_of, x.death_round), ('rounds_survived', coalesce(x.rounds_survived::text, ''), NULL::int),"
    " ('rounds_died', CASE WHEN x.died_of IS NOT NULL THEN coalesce(x.rounds_survived::text, '') END, NULL::int),"
    " ('route', x.route, NULL::int))"
    " k(kind, key, value)")
GAME_KINDS = (
    "(VALUES ('games', ''), ('first_death', coalesce(g.first_death_round::text, '')),"
    " ('power_lost', coalesce(g.power_lost_round::text, '')), ('blackout', coalesce(g.blackout_round::text, '')))"
    " k(kind, key)")

# Kept counts (decision 0035), each the sum over the view's rows of the shown (not hidden), finished games:
# - days: per season, day, name key and seat name, the standings' counts of seats;
# - season_days: per season and day, the games;
# - characters: per season (NO_SEASON: none), mode, player count, kind (SEAT_KINDS, GAME_KINDS) and key, the
#   character page's and the deaths page's counts.
# tally() adds (sign +1) or takes away (-1) the share of some games' rows as they stand; the view takes a game's
# share away before changing its rows and adds it back after, so each table stays equal to its sum.
TALLY = (
    "INSERT INTO {days} AS d (season_id, played_on, name_key, name, games, wins, undetermined, survived, objectives)"
    " SELECT x.season_id, x.played_on, x.name_key, x.name, %(sign)s * count(*),"
    " %(sign)s * count(*) FILTER (WHERE x.outcome = 'won'),"
    " %(sign)s * count(*) FILTER (WHERE x.outcome IS DISTINCT FROM 'won' AND x.outcome IS DISTINCT FROM 'lost'),"
    " %(sign)s * count(*) FILTER (WHERE x.survived), %(sign)s * count(*) FILTER (WHERE x.objective)"
    " FROM {seats} x WHERE x.season_id IS NOT NULL AND NOT x.hidden AND x.finished {ids_x} GROUP BY 1, 2, 3, 4"
    " ON CONFLICT (season_id, played_on, name_key, name) DO UPDATE SET games = d.games + EXCLUDED.games,"
    " wins = d.wins + EXCLUDED.wins, undetermined = d.undetermined + EXCLUDED.undetermined,"
    " survived = d.survived + EXCLUDED.survived, objectives = d.objectives + EXCLUDED.objectives;"
    "INSERT INTO {season_days} AS d (season_id, played_on, games)"
    " SELECT g.season_id, g.played_on, %(sign)s * count(*) FROM {games} g"
    " WHERE g.season_id IS NOT NULL AND NOT g.hidden AND g.finished {ids_g} GROUP BY 1, 2"
    " ON CONFLICT (season_id, played_on) DO UPDATE SET games = d.games + EXCLUDED.games;"
    "INSERT INTO {characters} AS d (season_id, mode, players, kind, key, games, wins, survived, rounds, rounded)"
    " SELECT coalesce(x.season_id, %(none)s), x.mode, x.players, k.kind, k.key, %(sign)s * count(*),"
    " %(sign)s * count(*) FILTER (WHERE x.outcome = 'won'), %(sign)s * count(*) FILTER (WHERE x.survived),"
    " %(sign)s * coalesce(sum(k.value), 0), %(sign)s * count(k.value)"
    " FROM {seats} x CROSS JOIN LATERAL " + SEAT_KINDS +
    " WHERE x.counted AND NOT x.hidden AND x.finished AND k.key IS NOT NULL {ids_x} GROUP BY 1, 2, 3, 4, 5"
    " ON CONFLICT (season_id, mode, players, kind, key) DO UPDATE SET games = d.games + EXCLUDED.games,"
    " wins = d.wins + EXCLUDED.wins, survived = d.survived + EXCLUDED.survived, rounds = d.rounds + EXCLUDED.rounds,"
    " rounded = d.rounded + EXCLUDED.rounded;"
    "INSERT INTO {characters} AS d (season_id, mode, players, kind, key, games, wins, survived, rounds, rounded)"
    " SELECT coalesce(g.season_id, %(none)s), g.mode, g.players, k.kind, k.key, %(sign)s * count(*), 0, 0, 0, 0"
    " FROM {games} g CROSS JOIN LATERAL " + GAME_KINDS +
    " WHERE g.counted AND NOT g.hidden AND g.finished {ids_g} GROUP BY 1, 2, 3, 4, 5"
    " ON CONFLICT (season_id, mode, players, kind, key) DO UPDATE SET games = d.games + EXCLUDED.games;"
    "DELETE FROM {days} WHERE games = 0; DELETE FROM {season_days} WHERE games = 0;"
    " DELETE FROM {characters} WHERE games = 0"
)


def tally(curs, t, game_ids: list[UUID] | None, sign: int) -> None:
    """Add (``sign`` +1) or take away (-1) the share of ``game_ids``' rows in the kept counts; None and +1: count
    everything again (after the tables were emptied, e.g. rows written by other means). ``t``: table names."""
    if game_ids is None:
        for name in ("days", "season_days", "characters"):
            curs.execute(sql.SQL("DELETE FROM {}").format(t(name)))
    ids_x = sql.SQL("" if game_ids is None else "AND x.game_id = ANY(%(ids)s)")
    ids_g = sql.SQL("" if game_ids is None else "AND g.game_id = ANY(%(ids)s)")
    for statement in TALLY.split(";"):
        curs.execute(sql.SQL(statement).format(days=t("days"), season_days=t("season_days"), characters=t("characters"),
                                               seats=t("seats"), games=t("games"), ids_x=ids_x, ids_g=ids_g),
                     {"sign": sign, "ids": game_ids, "none": NO_SEASON})


def ratings_before(curs, t, season_id: UUID, since: tuple) -> tuple[dict, dict]:
    """Each player's (μ, σ) and rated-games count just before the game keyed ``since`` = (played_on,
    created_at, game_id): one index probe per player of the season's ``current`` rows. ``t``: table names."""
    curs.execute(sql.SQL(
        "SELECT p.player_id, r.mu, r.sigma, r.rated FROM {current} p CROSS JOIN LATERAL ("
        " SELECT mu, sigma, rated FROM {ratings} r WHERE r.season_id = p.season_id AND r.player_id = p.player_id"
        " AND (r.played_on, r.created_at, r.game_id) < (%s, %s, %s)"
        " ORDER BY r.played_on DESC, r.created_at DESC, r.game_id DESC LIMIT 1) r WHERE p.season_id = %s").format(
        current=t("current"), ratings=t("ratings")), (*since, season_id))
    ratings, rated = {}, {}
    for r in curs.fetchall():
        ratings[r["player_id"]], rated[r["player_id"]] = (r["mu"], r["sigma"]), r["rated"]
    return ratings, rated


def rated_games(curs, t, season_id: UUID, since: tuple | None) -> list[dict]:
    """The season's decided, shown games from ``since`` on (None: all), in rating order (date, created, id)."""
    curs.execute(
        sql.SQL("SELECT g.game_id, g.played_on, g.created_at, g.mode,"
                " array_agg(s.name_key ORDER BY s.seat) AS keys, array_agg(s.name ORDER BY s.seat) AS names,"
                " array_agg(s.outcome ORDER BY s.seat) AS outcomes"
                " FROM {} g JOIN {} s ON s.game_id = g.game_id"
                " WHERE g.season_id = %s AND NOT g.hidden AND g.decided"
                + ("" if since is None else " AND (g.played_on, g.created_at, g.game_id) >= (%s, %s, %s)")
                + " GROUP BY g.game_id ORDER BY g.played_on, g.created_at, g.game_id").format(t("games"), t("seats")),
        (season_id,) if since is None else (season_id, *since),
    )
    return curs.fetchall()
