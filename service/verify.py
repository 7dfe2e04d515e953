"""Recompute each game's hash chain from the stored rows and report every break or gap.

The rows are read as stored (``games_events``) and decoded through the application's own
mapper, so what is checked is what a replay would load. Problems name the game, the event
(version and fact number), and the expected versus the found hash.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Iterable, Iterator
from uuid import UUID

from eventsourcing.persistence import Mapper, StoredEvent

from service import chain as hash_chain
from service.db import Database

PAGE = 2000


@dataclass(frozen=True)
class Problem:
    game: UUID
    version: int
    kind: str  # "gap", "mismatch", "unchained", "undecodable"
    message: str
    expected: str | None = None
    found: str | None = None

    def __str__(self) -> str:
        text = f"game {self.game}: {step(self.version)}: {self.message}"
        if self.expected is not None or self.found is not None:
            text += f" (expected {self.expected}, found {self.found})"
        return text


@dataclass
class GameReport:
    game: UUID
    events: int = 0
    unchained: int = 0  # events of a legacy prefix, stored before hash chains existed
    head: str | None = None  # the hash of the last event; keep it elsewhere to detect a cut tail
    problems: list[Problem] = field(default_factory=list)

    @property
    def status(self) -> str:
        if self.problems:
            return "BROKEN"
        if self.unchained == self.events:
            return "unchained"
        return "ok" if not self.unchained else "ok (after an unchained prefix)"


def step(version: int) -> str:
    """Event ``version`` as a reader of the game knows it: the header or fact #n."""
    return "event 1 (the game header)" if version == 1 else f"event {version} (fact #{version - 1})"


def check_game(game: UUID, rows: Iterable[tuple], mapper: Mapper, unchained_up_to: int) -> GameReport:
    """``rows``: (originator_version, topic, state, notification_id) in version order.

    An event without a hash is a legacy prefix only while no chained event came before it
    and it was stored before chains began (notification id <= ``unchained_up_to``).
    """
    report = GameReport(game)
    previous = hash_chain.GENESIS
    expected_version = 1
    chained = False
    for version, topic, state, notification_id in rows:
        report.events += 1
        if version != expected_version:
            missing = f"{expected_version}" if version == expected_version + 1 else f"{expected_version}..{version - 1}"
            report.problems.append(Problem(game, expected_version, "gap", f"missing (found event {version} next; events {missing} are gone)"))
        expected_version = version + 1
        try:
            event = mapper.to_domain_event(StoredEvent(game, version, topic, bytes(state)))
        except Exception as e:  # noqa: BLE001 - any decoding failure is a finding, not a crash
            report.problems.append(Problem(game, version, "undecodable", f"stored state cannot be read: {e}"))
            previous, chained = hash_chain.GENESIS, True
            continue
        fields = dict(vars(event))
        found = fields.get(hash_chain.CHAIN_FIELD)
        if found is None:
            if chained or notification_id > unchained_up_to:
                report.problems.append(Problem(
                    game, version, "unchained",
                    "has no hash although it was stored after hash chains began" if not chained
                    else "has no hash although earlier events of the game are chained",
                ))
                if chained:  # go on from the hash it should have had, so only this event is reported
                    previous = hash_chain.link(previous, game, version, topic, fields)
            else:
                report.unchained += 1
            continue
        chained = True
        expected = hash_chain.link(previous, game, version, topic, fields)
        if expected != found:
            report.problems.append(Problem(game, version, "mismatch", "hash does not match the stored content", expected, found))
        previous = found  # resynchronise, so one edited event is reported once
        report.head = found
    return report


def unchained_up_to(conn) -> int:
    """The last notification id stored before hash chains began (migration 0005)."""
    (value,) = conn.execute("SELECT last_unchained FROM public.hash_chain_start").fetchone()
    return value


def verify(db: Database, mapper: Mapper, game: UUID | None = None) -> Iterator[GameReport]:
    """Reports for ``game``, or for every game in id order (streamed; memory stays flat)."""
    with db.connect() as conn:
        cutoff = unchained_up_to(conn)
        with conn.transaction():  # one snapshot for the whole walk; a server-side cursor pages it
            cur = conn.cursor(name="nemesis_verify")
            cur.itersize = PAGE
            where, params = ("WHERE originator_id = %s", (game,)) if game is not None else ("", ())
            cur.execute(
                "SELECT originator_id, originator_version, topic, state, notification_id FROM public.games_events "
                f"{where} ORDER BY originator_id, originator_version",
                params,
            )
            for gid, rows in itertools.groupby(cur, key=lambda r: r[0]):
                yield check_game(gid, (r[1:] for r in rows), mapper, cutoff)
