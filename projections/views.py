"""The materialised views: each a PostgresTrackingRecorder whose rows are derived from Game.

Every view writes one row (or one row per seat) per game, recomputed from the folded
game, so applying a page of events only writes the last state of each game it touched.
Tracking and rows commit in one transaction: exactly once.
"""
from __future__ import annotations

import json
from psycopg import sql

from projections.folding import Summary, summary
from projections.league import LeagueView
from projections.statistics import StatisticsView
from projections.viewbase import GameView  # noqa: F401 - re-exported: views build on it
from service.game import Game


class GameIndexView(GameView):
    view = "gameindex"

    def write(self, curs, game: Game) -> None:
        self.write_many(curs, [game])

    def write_many(self, curs, games) -> None:
        curs.executemany(
            sql.SQL(
                "INSERT INTO {} (game_id, ruleset, mode, title, league, tags, played_on, players, player_search,"
                " strict, status, round, facts, created_at, updated_at)"
                " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
                " ON CONFLICT (game_id) DO UPDATE SET status = EXCLUDED.status, round = EXCLUDED.round,"
                " facts = EXCLUDED.facts, updated_at = EXCLUDED.updated_at"
            ).format(self.table("games")),
            [self._row(summary(g)) for g in games],
        )

    @staticmethod
    def _row(s: Summary) -> tuple:
        pos = s.pos
        return (
            s.id,
            s.ruleset_name,
            s.mode,
            s.title,
            s.league,
            s.tags,
            s.played_on,
            json.dumps(s.players),
            " ".join(p["name"].casefold() for p in s.players),
            s.strict,
            ("incomplete record" if s.ending == "incomplete" else "finished") if pos.get("finished") else "in progress",
            pos.get("round"),
            s.position,
            s.created_on,
            s.modified_on,
        )


class GameStateView(GameView):
    view = "gamestate"

    def write(self, curs, game: Game) -> None:
        self.write_many(curs, [game])

    def write_many(self, curs, games) -> None:
        curs.executemany(
            sql.SQL(
                "INSERT INTO {} (game_id, position, round, phase, acting, finished, ending, flagged, state, result,"
                " updated_at) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
                " ON CONFLICT (game_id) DO UPDATE SET position = EXCLUDED.position, round = EXCLUDED.round,"
                " phase = EXCLUDED.phase, acting = EXCLUDED.acting, finished = EXCLUDED.finished,"
                " ending = EXCLUDED.ending, flagged = EXCLUDED.flagged, state = EXCLUDED.state,"
                " result = EXCLUDED.result, updated_at = EXCLUDED.updated_at"
            ).format(self.table("states")),
            [self._row(summary(g)) for g in games],
        )

    @staticmethod
    def _row(s: Summary) -> tuple:
        pos, result = s.pos, s.result
        return (
            s.id,
            s.position,
            pos.get("round"),
            pos.get("phase"),
            pos.get("acting"),
            bool(pos.get("finished")),
            result.ending if result else None,
            s.flagged,
            json.dumps(s.described),
            json.dumps(result.as_dict()) if result else None,
            s.modified_on,
        )


def _counts(finished: bool, outcome: str | None, incomplete: bool) -> tuple[int, ...]:
    """A seat's share of its player's counts: played, finished, won, lost, undetermined, incomplete."""
    complete = not incomplete
    return (1, int(finished and complete), int(outcome == "won" and complete), int(outcome == "lost" and complete),
            int(finished and complete and outcome == "undetermined"), int(incomplete))


class PlayerResultsView(GameView):
    """A row per seat of every game, and a row per player (name key) with their counts.

    The per-player row is kept by difference as each game's seats are written (the seats' old
    share taken off, the new one added), so the players page reads one small table instead of
    grouping every seat of every game (decision 0026).
    """

    view = "playerresults"

    def write(self, curs, game: Game) -> None:
        self.write_many(curs, [game])

    def write_many(self, curs, games) -> None:
        """The seats of a batch's games and their players' counts (decision 0041).

        The old seats of every game are read with one SELECT and the new ones written with one
        ``executemany``; each game's change to its players' counts is then sent game by game, in order,
        in one pipeline: the same statements as one game at a time (the upsert's ``least`` of the
        names and the removal of a player whose count reaches 0 between two games are PostgreSQL's,
        as before), without a round trip per game.
        """
        games = [summary(g) for g in games]
        if not games:
            return
        results, players = self.table("results"), self.table("players")
        curs.execute(sql.SQL("SELECT game_id, seat, player, player_key, finished, outcome, incomplete FROM {}"
                             " WHERE game_id = ANY(%s)").format(results), ([g.id for g in games],))
        old_seats: dict = {}
        for old in curs.fetchall():
            old_seats.setdefault(old["game_id"], []).append(old)
        seat_rows, deltas = [], []
        for game in games:
            finished = game.finished
            result = game.result if finished else None
            verdicts = {p.seat: p for p in result.players} if result else {}
            incomplete = bool(result and result.ending == "incomplete")  # a coarse record that stops early (0018)
            delta: dict[str, list] = {}

            def add(name: str, key: str, counts: tuple[int, ...], sign: int) -> None:
                row = delta.setdefault(key, [name, 0, 0, 0, 0, 0, 0])
                row[0] = min(row[0], name)
                for i, n in enumerate(counts, 1):
                    row[i] += sign * n

            seats = {p["seat"] for p in game.players}
            for old in old_seats.get(game.id, ()):
                if old["seat"] not in seats:
                    continue  # a seat no longer in the header keeps its row (as before), and its counts
                add(old["player"], old["player_key"], _counts(old["finished"], old["outcome"], old["incomplete"]), -1)
            for player in game.players:
                v = verdicts.get(player["seat"])
                add(player["name"], player["name"].casefold(), _counts(finished, v.outcome if v else None, incomplete), 1)
                seat_rows.append((
                    game.id, player["seat"], player["name"], player["name"].casefold(), game.ruleset_name, game.mode,
                    game.played_on, finished, v.outcome if v else None, v.survival if v else None,
                    v.death_cause if v else None, v.objective if v else None, incomplete,
                ))
            changed = [(key, *row) for key, row in delta.items() if any(row[1:])]
            if changed:
                deltas.append(changed)
        if seat_rows:
            curs.executemany(
                sql.SQL(
                    "INSERT INTO {} (game_id, seat, player, player_key, ruleset, mode, played_on, finished, outcome,"
                    " survival, death_cause, objective, incomplete) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
                    " ON CONFLICT (game_id, seat) DO UPDATE SET finished = EXCLUDED.finished,"
                    " incomplete = EXCLUDED.incomplete,"
                    " outcome = EXCLUDED.outcome, survival = EXCLUDED.survival,"
                    " death_cause = EXCLUDED.death_cause, objective = EXCLUDED.objective"
                ).format(results),
                seat_rows,
            )
        if not deltas:
            return
        upsert = sql.SQL(
            "INSERT INTO {p} AS p (player_key, player, played, finished, won, lost, undetermined, incomplete)"
            " VALUES (%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (player_key) DO UPDATE SET"
            " player = least(p.player, EXCLUDED.player), played = p.played + EXCLUDED.played,"
            " finished = p.finished + EXCLUDED.finished, won = p.won + EXCLUDED.won, lost = p.lost + EXCLUDED.lost,"
            " undetermined = p.undetermined + EXCLUDED.undetermined, incomplete = p.incomplete + EXCLUDED.incomplete"
        ).format(p=players)
        gone = sql.SQL("DELETE FROM {} WHERE player_key = ANY(%s) AND played <= 0").format(players)
        with curs.connection.pipeline():  # game by game, in order, without waiting for each game's answers
            for changed in deltas:
                curs.executemany(upsert, changed)
                curs.execute(gone, ([c[0] for c in changed],))


class CorridorsView(GameView):
    """Corridor observations of each game's recorded moves (docs/decisions/0005-learned-corridors.md).

    A game's rows are replaced whole: its observations come from its as-corrected replay, so a
    voided or replaced move disappears from the counts. They are the shared folder's digest of
    the game (projections/folding.py): the one fold that feeds every view observes each step.
    """

    view = "corridors"
    RULESETS = ("lockdown",)
    steps = True

    def write(self, curs, game: Game) -> None:
        self.write_many(curs, [game])

    def write_many(self, curs, games) -> None:
        """Each game's rows replaced whole: one DELETE for the page's games, one COPY of their rows."""
        games = [summary(g) for g in games]
        table = self.table("observations")
        curs.execute(sql.SQL("DELETE FROM {} WHERE game_id = ANY(%s)").format(table), ([g.id for g in games],))
        out = [row for g in games if g.ruleset_name in self.RULESETS for row in self._rows(g)]
        if out:
            with curs.copy(sql.SQL("COPY {} (game_id, board, from_place, to_place, corridor, moves, character_moves,"
                                   " intruder_moves, first_seen, last_seen) FROM STDIN").format(table)) as copy:
                for row in out:
                    copy.write_row(row)

    @staticmethod
    def _rows(game: Summary) -> list[tuple]:
        rows: dict[tuple, dict] = {}
        for o, when in game.observations:
            key = (o.board, o.from_place, o.to_place, str(o.corridor))
            row = rows.setdefault(key, {"moves": 0, "character": 0, "intruder": 0, "seen": []})
            row["moves"] += 1
            row[o.mover] += 1
            if when:
                row["seen"].append(when)
        return [(game.id, board, from_place, to_place, corridor, row["moves"], row["character"], row["intruder"],
                 min(row["seen"]) if row["seen"] else None, max(row["seen"]) if row["seen"] else None)
                for (board, from_place, to_place, corridor), row in rows.items()]


VIEWS: dict[str, type[GameView]] = {
    v.view: v for v in (GameIndexView, GameStateView, PlayerResultsView, CorridorsView)
}

# The league view reads games and league facts together (projections/league.py; decision 0020).
VIEWS[LeagueView.view] = LeagueView

# Statistics counted from the facts of each game (projections/statistics.py; decision 0025).
VIEWS[StatisticsView.view] = StatisticsView
