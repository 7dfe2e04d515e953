"""The materialised views: each a PostgresTrackingRecorder whose rows are derived from Game.

Every view writes one row (or one row per seat) per game, recomputed from the folded
game, so applying a page of events only writes the last state of each game it touched.
Tracking and rows commit in one transaction: exactly once.
"""
from __future__ import annotations

import json
from collections import OrderedDict
from psycopg import sql

from projections.league import LeagueView
from projections.statistics import StatisticsView
from projections.viewbase import GameView  # noqa: F401 - re-exported: views build on it
from service.game import Game


def _summary(game: Game) -> dict:
    return game.ruleset.position(game.head_state)


class GameIndexView(GameView):
    view = "gameindex"

    def write(self, curs, game: Game) -> None:
        pos = _summary(game)
        curs.execute(
            sql.SQL(
                "INSERT INTO {} (game_id, ruleset, mode, title, league, tags, played_on, players, player_search,"
                " strict, status, round, facts, created_at, updated_at)"
                " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
                " ON CONFLICT (game_id) DO UPDATE SET status = EXCLUDED.status, round = EXCLUDED.round,"
                " facts = EXCLUDED.facts, updated_at = EXCLUDED.updated_at"
            ).format(self.table("games")),
            (
                game.id,
                game.ruleset_name,
                game.mode,
                game.title,
                game.league,
                game.tags,
                game.played_on,
                json.dumps(game.players),
                " ".join(p["name"].casefold() for p in game.players),
                game.strict,
                ("incomplete record" if getattr(game.head_state, "ending", None) == "incomplete" else "finished")
                if pos.get("finished") else "in progress",
                pos.get("round"),
                game.position,
                game.created_on,
                game.modified_on,
            ),
            prepare=True,
        )


class GameStateView(GameView):
    view = "gamestate"

    def write(self, curs, game: Game) -> None:
        ruleset, state = game.ruleset, game.head_state
        pos = ruleset.position(state)
        result = ruleset.score(state)
        curs.execute(
            sql.SQL(
                "INSERT INTO {} (game_id, position, round, phase, acting, finished, ending, flagged, state, result,"
                " updated_at) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
                " ON CONFLICT (game_id) DO UPDATE SET position = EXCLUDED.position, round = EXCLUDED.round,"
                " phase = EXCLUDED.phase, acting = EXCLUDED.acting, finished = EXCLUDED.finished,"
                " ending = EXCLUDED.ending, flagged = EXCLUDED.flagged, state = EXCLUDED.state,"
                " result = EXCLUDED.result, updated_at = EXCLUDED.updated_at"
            ).format(self.table("states")),
            (
                game.id,
                game.position,
                pos.get("round"),
                pos.get("phase"),
                pos.get("acting"),
                bool(pos.get("finished")),
                result.ending if result else None,
                sum(1 for r in game.recorded if r.flags),
                json.dumps(ruleset.describe(state)),
                json.dumps(result.as_dict()) if result else None,
                game.modified_on,
            ),
            prepare=True,
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
        ruleset, state = game.ruleset, game.head_state
        finished = bool(ruleset.position(state).get("finished"))
        result = ruleset.score(state) if finished else None
        verdicts = {p.seat: p for p in result.players} if result else {}
        incomplete = bool(result and result.ending == "incomplete")  # a coarse record that stops early (0018)
        curs.execute(sql.SQL("SELECT seat, player, player_key, finished, outcome, incomplete FROM {} WHERE game_id = %s").format(
            self.table("results")), (game.id,), prepare=True)
        delta: dict[str, list] = {}

        def add(name: str, key: str, counts: tuple[int, ...], sign: int) -> None:
            row = delta.setdefault(key, [name, 0, 0, 0, 0, 0, 0])
            row[0] = min(row[0], name)
            for i, n in enumerate(counts, 1):
                row[i] += sign * n

        seats = {p["seat"] for p in game.players}
        for old in curs.fetchall():
            if old["seat"] not in seats:
                continue  # a seat no longer in the header keeps its row (as before), and its counts
            add(old["player"], old["player_key"], _counts(old["finished"], old["outcome"], old["incomplete"]), -1)
        for player in game.players:
            v = verdicts.get(player["seat"])
            add(player["name"], player["name"].casefold(), _counts(finished, v.outcome if v else None, incomplete), 1)
            curs.execute(
                sql.SQL(
                    "INSERT INTO {} (game_id, seat, player, player_key, ruleset, mode, played_on, finished, outcome,"
                    " survival, death_cause, objective, incomplete) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
                    " ON CONFLICT (game_id, seat) DO UPDATE SET finished = EXCLUDED.finished,"
                    " incomplete = EXCLUDED.incomplete,"
                    " outcome = EXCLUDED.outcome, survival = EXCLUDED.survival,"
                    " death_cause = EXCLUDED.death_cause, objective = EXCLUDED.objective"
                ).format(self.table("results")),
                (
                    game.id,
                    player["seat"],
                    player["name"],
                    player["name"].casefold(),
                    game.ruleset_name,
                    game.mode,
                    game.played_on,
                    finished,
                    v.outcome if v else None,
                    v.survival if v else None,
                    v.death_cause if v else None,
                    v.objective if v else None,
                    incomplete,
                ),
                prepare=True,
            )
        changed = [(key, *row) for key, row in delta.items() if any(row[1:])]
        if changed:
            players = self.table("players")
            curs.executemany(
                sql.SQL(
                    "INSERT INTO {p} AS p (player_key, player, played, finished, won, lost, undetermined, incomplete)"
                    " VALUES (%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (player_key) DO UPDATE SET"
                    " player = least(p.player, EXCLUDED.player), played = p.played + EXCLUDED.played,"
                    " finished = p.finished + EXCLUDED.finished, won = p.won + EXCLUDED.won, lost = p.lost + EXCLUDED.lost,"
                    " undetermined = p.undetermined + EXCLUDED.undetermined, incomplete = p.incomplete + EXCLUDED.incomplete"
                ).format(p=players),
                changed,
            )
            curs.execute(sql.SQL("DELETE FROM {} WHERE player_key = ANY(%s) AND played <= 0").format(players),
                         ([c[0] for c in changed],))


class CorridorsView(GameView):
    """Corridor observations of each game's recorded moves (docs/decisions/0005-learned-corridors.md).

    A game's rows are replaced whole: its observations come from its as-corrected replay, so a
    voided or replaced move disappears from the counts. The fold is kept per game and advanced
    by the new facts (a correction folds the game again), so a live event costs one ``apply``.
    """

    view = "corridors"
    RULESETS = ("lockdown",)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._folds: "OrderedDict[object, tuple[int, object, list]]" = OrderedDict()

    def _observations(self, game: Game) -> list:
        from service.rules.replay import CORRECTION_TYPES

        cached = self._folds.pop(game.id, None)
        recorded = game.recorded
        if cached is not None and cached[0] <= len(recorded) and not any(
            r.fact.type in CORRECTION_TYPES for r in recorded[cached[0]:]
        ):
            position, state, found = cached
            found = list(found)
            ruleset = game.ruleset
            for r in recorded[position:]:
                if any(v.shape for v in ruleset.check(state, r.fact)):
                    continue
                after, _ = ruleset.apply(state, r.fact)
                seen = ruleset.observe_corridor(state, r.fact, after)
                if seen is not None:
                    found.append(seen)
                state = after
        else:
            replay = game.replay(corrected=True)
            found, state = game.ruleset.learned_corridors(replay), replay.head.state
            if any(r.fact.type in CORRECTION_TYPES for r in recorded):
                state = None  # corrections: never advance this fold, fold again next time
        if state is not None:
            self._folds[game.id] = (len(recorded), state, found)
            if len(self._folds) > 256:
                self._folds.popitem(last=False)
        return found

    def write(self, curs, game: Game) -> None:
        curs.execute(sql.SQL("DELETE FROM {} WHERE game_id = %s").format(self.table("observations")), (game.id,))
        if game.ruleset_name not in self.RULESETS:
            return
        when = {r.fact.seq: r.recorded_at for r in game.recorded}
        rows: dict[tuple, dict] = {}
        for o in self._observations(game):
            key = (o.board, o.from_place, o.to_place, str(o.corridor))
            row = rows.setdefault(key, {"moves": 0, "character": 0, "intruder": 0, "seen": []})
            row["moves"] += 1
            row[o.mover] += 1
            if when.get(o.seq):
                row["seen"].append(when[o.seq])
        for (board, from_place, to_place, corridor), row in rows.items():
            curs.execute(
                sql.SQL(
                    "INSERT INTO {} (game_id, board, from_place, to_place, corridor, moves, character_moves,"
                    " intruder_moves, first_seen, last_seen) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
                ).format(self.table("observations")),
                (game.id, board, from_place, to_place, corridor, row["moves"], row["character"], row["intruder"],
                 min(row["seen"]) if row["seen"] else None, max(row["seen"]) if row["seen"] else None),
                prepare=True,
            )


VIEWS: dict[str, type[GameView]] = {
    v.view: v for v in (GameIndexView, GameStateView, PlayerResultsView, CorridorsView)
}

# The league view reads games and league facts together (projections/league.py; decision 0020).
VIEWS[LeagueView.view] = LeagueView

# Statistics counted from the facts of each game (projections/statistics.py; decision 0025).
VIEWS[StatisticsView.view] = StatisticsView
