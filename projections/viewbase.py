"""The base of every view: a PostgresTrackingRecorder whose tables follow its tracking table's prefix."""
from __future__ import annotations

from typing import Iterable

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from psycopg import sql

from projections.parking import APPLICATION, Parked, park
from service.game import Game


class GameView(PostgresTrackingRecorder):
    """Base: table names follow the tracking table's prefix, so generations coexist."""

    view = ""
    tables: tuple[str, ...] = ()
    steps = False  # reads the folder's digest of each game's steps (projections/folding.py), not only its head

    def __init__(self, datastore, *, tracking_table_name: str, **kwargs) -> None:
        super().__init__(datastore, tracking_table_name=tracking_table_name, **kwargs)
        self.prefix = tracking_table_name.removesuffix("_tracking")
        # A rebuild fills a generation nobody reads until it switches: its pages need not wait for the disk.
        # A crash loses at most the last pages, rows and tracking together, and the rebuild resumes before them.
        self.relaxed_commit = False
        # Filled by a rebuild (decision 0044): a view may leave work over the whole generation to finish_rebuild.
        self.rebuilding = False

    def _begin(self, curs, tracking: Tracking) -> None:
        """First statements of a transaction that writes rows: the tracking position (exactly once)."""
        if self.relaxed_commit:
            curs.execute("SET LOCAL synchronous_commit = off")
        self._insert_tracking(curs, tracking)

    def table(self, name: str) -> sql.Identifier:
        return sql.Identifier(self.datastore.schema or "public", f"{self.prefix}_{name}")

    @property
    def generation(self) -> int:
        return int(self.prefix.rsplit("_g", 1)[1])

    def process(self, games: Iterable[Game], tracking: Tracking, others: Iterable[object] = ()) -> None:
        """Write the rows of ``games`` and advance tracking, atomically.

        ``others``: league facts of the same page (service/league.py); a game view has no rows for them.
        """
        latest = {g.id: g for g in games}
        with self.datastore.transaction(commit=True) as curs:
            self._begin(curs, tracking)
            if latest:
                self.write_many(curs, list(latest.values()))

    def finish_rebuild(self) -> None:
        """Called by a rebuild after its last batch, before the switch (and again by a resumed rebuild): work
        a view does once over the whole generation rather than per batch. It must give the same rows however
        often it runs."""

    def park(self, parked: Parked, tracking: Tracking) -> None:
        """Set an event aside and advance tracking past it, atomically (exactly once)."""
        with self.datastore.transaction(commit=True) as curs:
            self._begin(curs, tracking)
            park(curs, self.view, self.generation, parked)

    def position(self, curs, lock: bool = False) -> int:
        """The tracking position, read in ``curs``'s transaction (``lock``: hold the live worker off)."""
        curs.execute(
            sql.SQL("SELECT notification_id FROM {} WHERE application_name = %s" + (" FOR UPDATE" if lock else "")).format(
                sql.Identifier(self.datastore.schema or "public", self.tracking_table_name)
            ),
            (APPLICATION,),
        )
        row = curs.fetchone()
        return row["notification_id"] if row else 0

    def write(self, curs, game: Game) -> None:
        """Write one game's rows (a Game, or a projections.folding.Summary of one)."""
        raise NotImplementedError

    def write_many(self, curs, games: list) -> None:
        """Write the rows of a page's games (at most one entry per game); views batch it where they can."""
        for game in games:
            self.write(curs, game)
