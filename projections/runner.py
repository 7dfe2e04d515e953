"""Running the views: live (ProjectionRunner per view) and rebuilt (batched, blue/green)."""
from __future__ import annotations

import logging
import os
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Callable

from eventsourcing.persistence import InfrastructureFactory, IntegrityError, Mapper, Notification, Tracking
from eventsourcing.projection import Projection, ProjectionRunner
from eventsourcing.utils import Environment, get_topic
from psycopg import sql

from projections.folding import GameFolder, summary
from projections.generations import generations, prefix, start_building, switch
from projections.parking import APPLICATION, Parked, describe, is_infrastructure
from projections.views import VIEWS, GameView
from service.archive import Games
from service.db import Database
from service.game import Game

log = logging.getLogger(__name__)

TOPICS = (get_topic(Game.Created), get_topic(Game.FactRecorded))  # the events folded into games
# Views read every event of the store: a game view records only its tracking for a league fact
# (service/league.py), so every view's position reaches the head (decision 0020).
ALL_TOPICS: tuple[str, ...] = ()


def is_game_event(event) -> bool:
    return isinstance(event, (Game.Created, Game.FactRecorded))


class Undecodable:
    """Stands in for a stored event the mapper could not turn into a domain event."""

    def __init__(self, notification, error: Exception) -> None:
        self.originator_id = notification.originator_id
        self.originator_version = notification.originator_version
        self.error = error


class TolerantMapper(Mapper):
    """The worker's mapper: an event that cannot be decoded is handed on (and parked), not raised."""

    def to_domain_event(self, stored):  # type: ignore[override]
        try:
            return super().to_domain_event(stored)
        except Exception as error:  # noqa: BLE001 - any decoding failure of one event
            return Undecodable(stored, error)


class WorkerGames(Games):
    name = "Games"
    made: list  # set per runner: every application it constructs, so none is left open

    def __init__(self, env=None) -> None:
        type(self).made.append(self)
        super().__init__(env)

    def construct_mapper(self) -> Mapper:
        return self.factory.mapper(transcoder=self.construct_transcoder(), mapper_class=TolerantMapper)


class GameProjection(Projection[GameView]):
    """Feeds each event's folded game to the view; parks an event the view cannot process."""

    topics = ALL_TOPICS
    folder: GameFolder

    def process_event(self, domain_event, tracking: Tracking) -> None:  # type: ignore[override]
        try:
            if isinstance(domain_event, Undecodable):
                raise domain_event.error
            if is_game_event(domain_event):
                self.view.process([self.folder.advance(domain_event)], tracking)
            else:
                self.view.process([], tracking, others=[domain_event])
        except Exception as error:  # noqa: BLE001 - one event must not stop the view
            if is_infrastructure(error):
                raise
            if self.view.has_tracking_id(APPLICATION, tracking.notification_id):
                return  # another worker got there first
            parked = Parked(tracking.notification_id, domain_event.originator_id, domain_event.originator_version, describe(error))
            log.warning("%s: parked event %s (game %s, version %s): %s", self.name, parked.notification_id, parked.game_id,
                        parked.version, parked.error)
            try:
                self.view.park(parked, tracking)
            except IntegrityError:
                if not self.view.has_tracking_id(APPLICATION, tracking.notification_id):
                    raise


def projection_class(view: str, generation: int, folder: GameFolder) -> type[GameProjection]:
    name = prefix(view, generation)
    return type(name, (GameProjection,), {"name": name, "folder": folder})


def open_view(db: Database, view: str, generation: int) -> GameView:
    env = Environment(prefix(view, generation), db.eventsourcing_env())
    return InfrastructureFactory.construct(env=env).tracking_recorder(VIEWS[view])


class ViewRunner(ProjectionRunner):
    """A ProjectionRunner that never leaves a connection pool open, however it ends."""

    def __init__(self, **kwargs) -> None:
        made: list = []
        kwargs["application_class"] = type("WorkerGames", (WorkerGames,), {"name": "Games", "made": made})
        try:
            super().__init__(**kwargs)
        except BaseException:
            if getattr(self, "view", None) is not None:
                self.view.datastore.close()
            for app in made:
                app.close()
            raise

    def __exit__(self, exc_type, exc_val, exc_tb) -> None:
        self.stop()
        # Threads of a runner may be retrying a dead server: closing the pools ends that now.
        # Safe at any moment: an event's rows and tracking commit together or not at all.
        self.app.close()
        self.view.datastore.close()
        try:
            super().__exit__(exc_type, exc_val, exc_tb)
        except Exception as error:  # noqa: BLE001
            if not is_infrastructure(error):
                raise
            log.debug("%s stopped on %s", self.projection.name, error)  # a side effect of closing its pool
        finally:
            self.view.datastore.close()


def _new_worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident() % 10**6}"


class Worker:
    """Keeps every view's active generation up to date; follows switches made by rebuilds.

    Never stops on an event (a view parks what it cannot process) nor on the database: on any
    error it closes every connection it holds, waits (0.5 s doubling to 10 s), and starts
    again from the views' tracking positions (the library's exactly-once tracking makes that
    safe). It writes a heartbeat per view to ``projection_heartbeats``.
    """

    def __init__(
        self, db: Database, poll: float = 1.0, backoff: tuple[float, float] = (0.5, 10.0), heartbeat: float = 2.0
    ) -> None:
        self.db = db
        self.poll = poll
        self.backoff = backoff
        self.heartbeat = heartbeat
        self.stopping = threading.Event()
        self.id = _new_worker_id()
        self.last_error: tuple[float, str] | None = None  # (unix time, text), until written to the database
        self.errors = 0
        self.beat = 0.0  # monotonic time of the last loop round: the in-process liveness signal
        self.restarts = 0  # of the worker thread, by its supervisor
        self._running: dict[str, int] | None = None  # the generation of each view being run
        self._retried = False
        self._thread: threading.Thread | None = None

    def env(self) -> dict[str, str]:
        return self.db.eventsourcing_env(POSTGRES_CONNECT_TIMEOUT="5")

    def run(self) -> None:
        delay = self.backoff[0]
        while not self.stopping.is_set():
            started = time.monotonic()
            try:
                self._retry_after_code_change()
                self._run_generation()
                delay = self.backoff[0]
            except Exception as error:  # noqa: BLE001 - supervise: log, back off, restart from tracking
                if self._switched_quietly():
                    log.info("a view switched generation under a runner; following it")
                    continue
                self.errors += 1
                self.last_error = (time.time(), describe(error))
                if time.monotonic() - started > self.backoff[1]:
                    delay = self.backoff[0]  # it ran for a while: this is a new failure, not the same one
                log.warning("projection worker stopped (%s); starting again in %.1f s", self.last_error[1], delay)
                self.beat = time.monotonic()
                self.stopping.wait(delay)
                delay = min(delay * 2, self.backoff[1])

    def _connect(self):
        return self.db.connect(autocommit=True, connect_timeout=5)

    def _retry_after_code_change(self) -> None:
        if self._retried:
            return
        from projections.retry import retry_parked

        try:
            for report in retry_parked(self.db, changed_code_only=True):
                log.warning("retried %d parked game(s) of %s after a code change: %d fixed, %d still parked",
                            report.retried, report.view, report.fixed, report.retried - report.fixed)
        except Exception as error:  # noqa: BLE001 - a failing retry must not keep the views from running
            if is_infrastructure(error):
                raise
            log.error("retrying parked events failed: %s", describe(error))
        self._retried = True

    def _active(self, conn) -> dict[str, int]:
        return {view: active for view, (active, _) in generations(conn).items()}

    def _switched_quietly(self) -> bool:
        if self._running is None:
            return False
        try:
            with self._connect() as conn:
                return self._active(conn) != self._running
        except Exception:  # noqa: BLE001 - the database is away: not a switch
            return False

    def _write_heartbeat(self, conn, started_at: float) -> None:
        error = self.last_error
        conn.execute(
            "INSERT INTO public.projection_heartbeats AS h (view, generation, worker, started_at, beat_at,"
            " last_error, last_error_at)"
            " SELECT v, g, %s, to_timestamp(%s), now(), %s, to_timestamp(%s)"
            " FROM unnest(%s::text[], %s::int[]) AS u(v, g)"
            " ON CONFLICT (view) DO UPDATE SET generation = EXCLUDED.generation, worker = EXCLUDED.worker,"
            " started_at = EXCLUDED.started_at, beat_at = now(),"
            " last_error = COALESCE(EXCLUDED.last_error, h.last_error),"
            " last_error_at = COALESCE(EXCLUDED.last_error_at, h.last_error_at)",
            (self.id, started_at, error[1] if error else None, error[0] if error else None,
             list(self._running), list(self._running.values())),
        )
        self.last_error = None

    def _run_generation(self) -> None:
        env = self.env()
        with ExitStack() as stack:  # leaving it stops every runner and closes every connection
            control = stack.enter_context(self._connect())
            self._running = gens = self._active(control)
            games = stack.enter_context(Games(env=env))
            runners = [
                stack.enter_context(
                    ViewRunner(
                        projection_class=projection_class(view, active, GameFolder(lambda: games, digests=VIEWS[view].steps)),
                        view_class=VIEWS[view],
                        env=env,
                    )
                )
                for view, active in sorted(gens.items())
            ]
            stack.callback(games.close)  # on the way out, first stop every runner, then close the folder's pool
            stack.callback(lambda: [runner.stop() for runner in runners])
            started_at, last_beat = time.time(), 0.0
            while not self.stopping.is_set():
                for runner in runners:
                    runner.run_forever(timeout=self.poll / len(runners))
                self.beat = time.monotonic()
                if self.beat - last_beat >= self.heartbeat:
                    self._write_heartbeat(control, started_at)
                    last_beat = self.beat
                if self._active(control) != gens:
                    log.info("a view switched generation; following it")
                    return

    def start_thread(self) -> threading.Thread:
        """Run in a supervised thread: if the worker's thread ever dies, a new one is started."""
        thread = threading.Thread(target=self._supervise, name="projection-supervisor", daemon=True)
        thread.start()
        return thread

    def alive(self) -> bool:
        """True while the worker's thread runs (in-process worker)."""
        return self._thread is not None and self._thread.is_alive() and not self.stopping.is_set()

    def _supervise(self) -> None:
        while not self.stopping.is_set():
            self._thread = thread = threading.Thread(target=self.run, name="projection-worker", daemon=True)
            thread.start()
            thread.join()
            if self.stopping.is_set():
                return
            self.restarts += 1
            self.last_error = (time.time(), "the projection worker thread died; started a new one")
            log.error("the projection worker thread died; starting a new one")
            self.stopping.wait(self.backoff[0])

    def stop(self) -> None:
        self.stopping.set()


@dataclass(frozen=True)
class Folded:
    """One event of a rebuild page: the game after it, or why it could not be folded.

    A league fact (not a game's event) is carried as ``other``, with ``game`` None. ``game`` is
    a Game, or the :class:`projections.folding.Summary` of a snapshot that covers the event.
    """

    notification_id: int
    game_id: object
    version: int
    game: object
    error: str | None
    other: object = None
    events: int = 1  # the events it stands for: a snapshot's entry stands for each of its game's covered events


@dataclass
class Timings:
    """Where a rebuild's time went (seconds): reading pages, decoding events, folding them, writing the views."""

    read: float = 0.0  # waiting for a batch to be read (the next is read while one is written, decision 0044)
    decode: float = 0.0
    fold: float = 0.0
    summarise: float = 0.0  # the rules' position, score and description of each page's last state per game
    write: float = 0.0  # wall time of the views' writes (in parallel); per_view: each view's own
    snapshots: float = 0.0  # reading and writing fold snapshots
    from_snapshots: int = 0  # events whose game came from a snapshot, not folded
    per_view: dict = field(default_factory=dict)  # view → seconds of ``write``

    def as_dict(self) -> dict:
        return {"read": self.read, "decode": self.decode, "fold": self.fold, "summarise": self.summarise,
                "write": self.write,
                "snapshots": self.snapshots, "from_snapshots": self.from_snapshots, "per_view": dict(self.per_view)}


COVERED_PER_BATCH = 10  # a batch from the snapshots holds at most ``batch`` events to fold, and 10 × ``batch`` in all

# A batch of a rebuild from the fold snapshots (decision 0044), in one statement: the events after ``start``, at
# most ``limit`` of them and at most ``fold`` that no snapshot covers (those are decoded and folded); those a usable
# snapshot covers (a game's event of a version up to the snapshot's) come back as one row
# per game — its last such event of the batch, how many there were, and the snapshot — without their stored state;
# every other event comes back as it is stored. One statement: the rows and the snapshots are of one moment.
BATCH_FROM_SNAPSHOTS = """
WITH ev AS MATERIALIZED (
  SELECT notification_id, originator_id, originator_version, topic FROM {events}
  WHERE notification_id > %(start)s ORDER BY notification_id LIMIT %(limit)s),
c AS (
  SELECT ev.*, coalesce(ev.topic = ANY(%(topics)s) AND ev.originator_version <= s.version, false) AS covered
  FROM ev LEFT JOIN public.fold_snapshots s ON s.game_id = ev.originator_id AND s.fingerprint = %(fingerprint)s),
b AS (
  SELECT * FROM (SELECT c.*, count(*) FILTER (WHERE NOT covered) OVER (ORDER BY notification_id) AS to_fold FROM c) x
  WHERE to_fold <= %(fold)s)
SELECT g.last, g.originator_id, g.version, NULL::text, NULL::bytea, g.events, s.summary::text
FROM (SELECT max(notification_id) AS last, originator_id, max(originator_version) AS version, count(*) AS events
      FROM b WHERE covered GROUP BY originator_id) g
JOIN public.fold_snapshots s ON s.game_id = g.originator_id
UNION ALL
SELECT e.notification_id, e.originator_id, e.originator_version, e.topic, e.state, 1, NULL::text
FROM b JOIN {events} e ON e.notification_id = b.notification_id WHERE NOT b.covered
ORDER BY 1
"""


def _read_batch(conn, games: Games, start: int, limit: int, snapshots: bool) -> tuple[list, int, int]:
    """The next batch of events after ``start``: ``(entries, events, last position)``; at most ``limit`` events to
    decode and fold (from the snapshots: and at most ``COVERED_PER_BATCH × limit`` events in all).

    An entry is a stored event (a Notification) to decode and fold, or, from the snapshots, a
    ``(position, game id, version, events, Summary)`` standing for every event of that game the
    batch holds up to ``position``, all of them covered by the game's snapshot.
    """
    from projections import snapshots as snapshot_store

    if not snapshots:
        notes = games.recorder.select_notifications(start=start, limit=limit, topics=ALL_TOPICS, inclusive_of_start=False)
        return notes, len(notes), notes[-1].id if notes else start
    recorder = games.recorder
    statement = sql.SQL(BATCH_FROM_SNAPSHOTS).format(
        events=sql.Identifier(recorder.datastore.schema or "public", recorder.events_table_name))
    rows = conn.execute(statement, {"start": start, "limit": limit * COVERED_PER_BATCH, "fold": limit, "topics": list(TOPICS),
                                    "fingerprint": snapshot_store.fingerprint()}).fetchall()
    out, events = [], 0
    for position, gid, version, topic, state, count, data in rows:
        events += count
        if data is None:
            out.append(Notification(id=position, originator_id=gid, originator_version=version, topic=topic,
                                    state=bytes(state)))
        else:
            out.append((position, gid, version, count, snapshot_store.summary_of(data)))
    return out, events, rows[-1][0] if rows else start


def _fold_page(games: Games, folder: GameFolder, entries, timings: Timings | None = None) -> list[Folded]:
    """Decode and fold a batch's stored events; a snapshot's entry gives its game's rows unfolded."""
    timings = timings or Timings()
    out = []
    for n in entries:
        if type(n) is tuple:  # the game's rows come from its snapshot: no decoding, no fold
            position, gid, version, count, found = n
            out.append(Folded(position, gid, version, found, None, None, count))
            timings.from_snapshots += count
            continue
        other = None
        t = time.perf_counter()
        try:
            event = games.mapper.to_domain_event(n)
            t2 = time.perf_counter()
            timings.decode += t2 - t
            t = t2
            if is_game_event(event):
                game, error = folder.advance(event), None
            else:
                game, error, other = None, None, event
        except Exception as e:  # noqa: BLE001 - one event must not stop the rebuild
            if is_infrastructure(e):
                raise
            game, error = None, describe(e)
        timings.fold += time.perf_counter() - t
        out.append(Folded(n.id, n.originator_id, n.originator_version, game, error, other))
    return out


SPLIT_BELOW = 64  # a failing part of a batch this small is redone one event per transaction


def _apply_page(games: Games, target: GameView, page: list[Folded], tracking: Tracking) -> None:
    """One transaction for the page; if anything in it fails, halves of it, then one per event, parking the failures.

    A batch of a rebuild holds many games (decision 0041): a failing batch is split in two, each half in
    its own transaction with its own last position as tracking, so one event nobody can write costs a
    few more transactions, not one per event of the whole batch.
    """
    if not any(f.error for f in page):
        try:
            target.process([f.game for f in page if f.game is not None], tracking,
                           others=[f.other for f in page if f.other is not None])
            return
        except Exception as e:  # noqa: BLE001
            if is_infrastructure(e):
                raise
    if len(page) >= SPLIT_BELOW:
        half = len(page) // 2
        for part in (page[:half], page[half:]):
            _apply_page(games, target, part, Tracking(APPLICATION, part[-1].notification_id))
        return
    for f in page:
        # each event alone, its game folded exactly to it (the page's fold may be past it)
        error = f.error
        if error is None:
            try:
                one = Tracking(APPLICATION, f.notification_id)
                if f.other is not None:
                    target.process([], one, others=[f.other])
                else:
                    target.process([games.get_game(f.game_id, version=f.version)], one)
                continue
            except Exception as e:  # noqa: BLE001
                if is_infrastructure(e):
                    raise
                error = describe(e)
        log.warning("%s: parked event %s (game %s, version %s): %s", target.prefix, f.notification_id, f.game_id, f.version, error)
        target.park(Parked(f.notification_id, f.game_id, f.version, error), Tracking(APPLICATION, f.notification_id))


@dataclass
class RebuildReport:
    view: str
    generation: int
    events: int
    seconds: float
    parked: int = 0  # events of the new generation set aside (see ``nemesis-archive status``)
    timings: Timings | None = None  # of the whole rebuild (shared by every view rebuilt in one pass)

    @property
    def rate(self) -> float:
        return self.events / self.seconds if self.seconds else float("inf")


def rebuild(db: Database, view: str, **kwargs) -> RebuildReport:
    """Rebuild one view; see :func:`rebuild_views`."""
    return rebuild_views(db, [view], **kwargs)[0]


def rebuild_views(
    db: Database,
    views: list[str],
    batch: int = 5000,
    progress: Callable[[int, int], None] | None = None,
    pause: float = 0.0,
    snapshots: bool = True,
) -> list[RebuildReport]:
    """Fill the next generation of each view from the event store, then switch readers to it.

    The events are read and folded once for all ``views`` (one fold per event feeds every
    view, projections/folding.py). Batches of ``batch`` events (from the snapshots: ``batch`` events
    to fold and up to ten times as many in all) go through each view's own
    handlers in one transaction per view, with the batch's last position as tracking, so a
    killed rebuild resumes where each view stopped; each view writes a batch in its own thread,
    and the next batch is read meanwhile (decision 0044). After the last batch each view's
    ``finish_rebuild`` runs (the league's placing, kept counts and ratings, once), then the
    switch. ``progress(done, total)`` is called after each batch.

    ``snapshots``: a game whose fold snapshot covers an event gives the view its rows from the
    snapshot, unfolded (decision 0032), and those events are read as one row per game and batch,
    without their state (decision 0044); the snapshots of the games folded are written either way.
    """
    from projections import snapshots as snapshot_store

    unknown = [v for v in views if v not in VIEWS]
    if unknown:
        raise LookupError(f"unknown view {unknown[0]!r}; known: {', '.join(VIEWS)}")
    with db.connect() as conn:
        generation = {v: start_building(conn, v) for v in views}
    games = Games(env=db.eventsourcing_env())
    targets = {v: open_view(db, v, generation[v]) for v in views}
    for target in targets.values():
        target.relaxed_commit = True  # the switch (below) commits durably, after every page
        target.rebuilding = True
    folder = GameFolder(lambda: games, digests=any(VIEWS[v].steps for v in views))
    started = time.perf_counter()
    counted = {v: 0 for v in views}
    timings = Timings()
    try:
        with db.connect(autocommit=True) as snap_conn, db.connect(autocommit=True) as read_conn, \
                ThreadPoolExecutor(max_workers=len(views) + 1, thread_name_prefix="rebuild") as pool:
            begun = {v: targets[v].max_tracking_id(games.name) or 0 for v in views}
            start = min(begun.values())
            with db.connect() as conn:
                (total,) = conn.execute("SELECT count(*) FROM games_events WHERE notification_id > %s", (start,)).fetchone()
            done = 0
            if progress:
                progress(0, total)

            def read(after: int):
                t = time.perf_counter()
                got = _read_batch(read_conn, games, after, batch, snapshots)
                return got, time.perf_counter() - t

            def write(v: str, fresh: list[Folded], tracking: Tracking) -> float:
                t = time.perf_counter()
                _apply_page(games, targets[v], fresh, tracking)
                return time.perf_counter() - t

            reading = pool.submit(read, start)
            while True:
                t = time.perf_counter()
                (entries, events, last), seconds = reading.result()
                timings.read += time.perf_counter() - t  # what the rebuild waited for, not what the read took
                if not entries:
                    break
                reading = pool.submit(read, last)  # the next batch is read while this one is folded and written
                folded = _fold_page(games, folder, entries, timings)
                t = time.perf_counter()
                latest = {f.game_id: f.game for f in folded if f.game is not None and isinstance(f.game, Game)}
                for game in latest.values():
                    summary(game).compute()  # every value a view reads, before the views' threads read them
                written = time.perf_counter()
                timings.summarise += written - t
                tracking = Tracking(games.name, last)
                # Each view writes the batch on its own connection, in its own thread: one waits on the server while
                # another builds its rows. Each view still commits the batch in order, rows and tracking together.
                writing = {}
                for v in targets:
                    fresh = [f for f in folded if f.notification_id > begun[v]]
                    if fresh:
                        writing[v] = pool.submit(write, v, fresh, tracking)
                        counted[v] += sum(f.events for f in fresh)
                for v, future in writing.items():
                    timings.per_view[v] = timings.per_view.get(v, 0.0) + future.result()
                t2 = time.perf_counter()
                timings.write += t2 - written
                if not any(f.error for f in folded):
                    snapshot_store.write(snap_conn, list(latest.values()))
                    timings.snapshots += time.perf_counter() - t2
                done += events
                if progress:
                    progress(done, max(total, done))
                if pause:
                    time.sleep(pause)
        t = time.perf_counter()
        for v, target in targets.items():
            target.finish_rebuild()
            t2 = time.perf_counter()
            timings.per_view[v] = timings.per_view.get(v, 0.0) + t2 - t
            timings.write += t2 - t
            t = t2
        with db.connect() as conn:
            for v in views:
                switch(conn, v, generation[v])
            parked = dict(conn.execute(
                "SELECT view, count(*) FROM parked_events WHERE view = ANY(%s) AND generation = ANY(%s) GROUP BY view",
                (views, [generation[v] for v in views]),
            ).fetchall())
    finally:
        for target in targets.values():
            target.datastore.close()
        games.close()
    seconds = time.perf_counter() - started
    return [RebuildReport(v, generation[v], counted[v], seconds, parked.get(v, 0), timings) for v in views]
