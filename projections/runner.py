"""Running the views: live (ProjectionRunner per view) and rebuilt (batched, blue/green)."""
from __future__ import annotations

import logging
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Callable

from eventsourcing.persistence import InfrastructureFactory, Tracking
from eventsourcing.projection import Projection, ProjectionRunner
from eventsourcing.utils import Environment, get_topic

from projections.folding import GameFolder
from projections.generations import generations, prefix, start_building, switch
from projections.views import VIEWS, GameView
from service.archive import Games
from service.db import Database
from service.game import Game

log = logging.getLogger(__name__)

TOPICS = (get_topic(Game.Created), get_topic(Game.FactRecorded))


class GameProjection(Projection[GameView]):
    """Feeds each event's folded game to the view. Subclassed per view generation."""

    topics = TOPICS
    folder: GameFolder

    def process_event(self, domain_event, tracking: Tracking) -> None:  # type: ignore[override]
        self.view.process([self.folder.advance(domain_event)], tracking)


def projection_class(view: str, generation: int, folder: GameFolder) -> type[GameProjection]:
    name = prefix(view, generation)
    return type(name, (GameProjection,), {"name": name, "folder": folder})


def open_view(db: Database, view: str, generation: int) -> GameView:
    env = Environment(prefix(view, generation), db.eventsourcing_env())
    return InfrastructureFactory.construct(env=env).tracking_recorder(VIEWS[view])


class Worker:
    """Keeps every view's active generation up to date; follows switches made by rebuilds.

    A processing error stops a runner; the worker logs it and starts again from the
    view's tracking position (the library's exactly-once tracking makes that safe).
    """

    def __init__(self, db: Database, poll: float = 1.0) -> None:
        self.db = db
        self.poll = poll
        self.stopping = threading.Event()
        self._games: Games | None = None
        self._running: dict[str, int] | None = None  # the generation of each view being run

    def games(self) -> Games:
        if self._games is None:
            self._games = Games(env=self.db.eventsourcing_env())
        return self._games

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                self._run_generation()
            except Exception:  # noqa: BLE001 - supervise: log and restart from tracking
                if self._switched():
                    # a rebuild dropped the generation a runner was writing to: follow it
                    log.info("a view switched generation under a runner; following it")
                    continue
                log.exception("projection worker failed; restarting from the views' tracking positions")
                self.stopping.wait(1.0)
        if self._games is not None:
            self._games.close()

    def _active(self) -> dict[str, int]:
        with self.db.connect() as conn:
            return {view: active for view, (active, _) in generations(conn).items()}

    def _switched(self) -> bool:
        return self._running is not None and self._active() != self._running

    def _run_generation(self) -> None:
        self._running = gens = self._active()
        env = self.db.eventsourcing_env()
        with ExitStack() as stack:  # leaving it stops every runner, re-raising a runner's error
            runners = [
                stack.enter_context(
                    ProjectionRunner(
                        application_class=Games,
                        projection_class=projection_class(view, active, GameFolder(self.games)),
                        view_class=VIEWS[view],
                        env=env,
                    )
                )
                for view, active in sorted(gens.items())
            ]
            while not self.stopping.is_set():
                for runner in runners:
                    runner.run_forever(timeout=self.poll / len(runners))
                if self._switched():
                    log.info("a view switched generation; following it")
                    return

    def start_thread(self) -> threading.Thread:
        thread = threading.Thread(target=self.run, name="projection-worker", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        self.stopping.set()


@dataclass
class RebuildReport:
    view: str
    generation: int
    events: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.events / self.seconds if self.seconds else float("inf")


def rebuild(db: Database, view: str, **kwargs) -> RebuildReport:
    """Rebuild one view; see :func:`rebuild_views`."""
    return rebuild_views(db, [view], **kwargs)[0]


def rebuild_views(
    db: Database,
    views: list[str],
    batch: int = 500,
    progress: Callable[[int, int], None] | None = None,
    pause: float = 0.0,
) -> list[RebuildReport]:
    """Fill the next generation of each view from the event store, then switch readers to it.

    The events are read and folded once for all ``views``. Pages of ``batch`` events go
    through each view's own handlers in one transaction per view, with the page's last
    position as tracking, so a killed rebuild resumes where each view stopped.
    ``progress(done, total)`` is called after each page.
    """
    unknown = [v for v in views if v not in VIEWS]
    if unknown:
        raise LookupError(f"unknown view {unknown[0]!r}; known: {', '.join(VIEWS)}")
    with db.connect() as conn:
        generation = {v: start_building(conn, v) for v in views}
    games = Games(env=db.eventsourcing_env())
    targets = {v: open_view(db, v, generation[v]) for v in views}
    folder = GameFolder(lambda: games)
    started = time.perf_counter()
    counted = {v: 0 for v in views}
    try:
        begun = {v: targets[v].max_tracking_id(games.name) or 0 for v in views}
        start = min(begun.values())
        with db.connect() as conn:
            (total,) = conn.execute("SELECT count(*) FROM games_events WHERE notification_id > %s", (start,)).fetchone()
        done = 0
        if progress:
            progress(0, total)
        while True:
            notes = games.recorder.select_notifications(start=start, limit=batch, topics=TOPICS, inclusive_of_start=False)
            if not notes:
                break
            folded = [(n.id, folder.advance(games.mapper.to_domain_event(n))) for n in notes]
            tracking = Tracking(games.name, notes[-1].id)
            for v, target in targets.items():
                fresh = [g for nid, g in folded if nid > begun[v]]
                if fresh:
                    target.process(fresh, tracking)
                    counted[v] += len(fresh)
            start = notes[-1].id
            done += len(notes)
            if progress:
                progress(done, max(total, done))
            if pause:
                time.sleep(pause)
        with db.connect() as conn:
            for v in views:
                switch(conn, v, generation[v])
    finally:
        for target in targets.values():
            target.datastore.close()
        games.close()
    seconds = time.perf_counter() - started
    return [RebuildReport(v, generation[v], counted[v], seconds) for v in views]
