"""The Games application: the only door to the event store."""
from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from copy import deepcopy
from datetime import datetime
from typing import Any, Iterable, Iterator, Mapping
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, InterfaceError, JSONTranscoder, Mapper, OperationalError, StoredEvent
from eventsourcing.utils import resolve_topic
from psycopg import sql

from service import hygiene
from service.chain import one_shot
from service.errors import ArchiveError, FactsRefused, GameAlreadyExists, GameBusy, GameNotFound, InvalidInput
from service.game import FACT_TOPIC, Game
from service.rules import Fact, Seat, Setup
from service.rules.registry import RULESETS
from service.rules.replay import GENERIC_TYPES, collector_paused

# Appends that lost the race to another writer are tried again against the new head.
RECORD_ATTEMPTS = 8
RECORD_BACKOFF = 0.01  # seconds, doubled per attempt, with jitter


# A reader waiting for a game's lock gives up after this long (503, retry) rather than queue
# behind readers that are each spending their whole connect budget on an unreachable database.
READ_LOCK_WAIT = 2.0  # seconds
DATABASE_DOWN = (OperationalError, InterfaceError)


class _Stripes:
    """A fixed set of locks, one chosen per game id: per-game locking without an unbounded dict."""

    def __init__(self, n: int = 64) -> None:
        self._locks = [threading.Lock() for _ in range(n)]

    def __call__(self, game_id: UUID) -> threading.Lock:
        return self._locks[hash(game_id) % len(self._locks)]


class _ReadStripes(_Stripes):
    """Per-game read locks that pass a database outage on to the readers queued behind it.

    When the holder finds the database unreachable, every reader that was already waiting
    fails at once with the same error instead of trying the database again in turn: during an
    outage the n-th queued reader would otherwise answer after n connect budgets (seconds
    each), long after a client should have had its 503.
    """

    def __init__(self, n: int = 64) -> None:
        super().__init__(n)
        self._down_at = [0.0] * n  # monotonic time the last holder found the database down

    @contextmanager
    def holding(self, game_id: UUID) -> Iterator[None]:
        i = hash(game_id) % len(self._locks)
        asked = time.monotonic()
        if not self._locks[i].acquire(timeout=READ_LOCK_WAIT):
            raise GameBusy(f"game {game_id} is busy being read; retry in a moment", field="game_id", retry_after=1)
        try:
            if self._down_at[i] > asked:
                raise OperationalError("the database was found unreachable while this read waited its turn")
            try:
                yield
            except DATABASE_DOWN:
                self._down_at[i] = time.monotonic()
                raise
        finally:
            self._locks[i].release()


@dataclass(frozen=True)
class GameHeader:
    """The parts of a game fixed when it was created."""

    id: UUID
    ruleset_name: str
    league: str | None
    mode: str = "standard"
    players: tuple = ()  # ((seat, name), ...)
    options: dict = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, game) -> "GameHeader":
        """The header of a Game aggregate (or of its Created event: the same names)."""
        players = tuple((p["seat"], p["name"]) for p in game.players)
        return cls(game.id if isinstance(game, Game) else game.originator_id, game.ruleset if not isinstance(game, Game)
                   else game.ruleset_name, game.league, game.mode, players, dict(game.options))

    @property
    def setup(self) -> Setup:
        return Setup(players=tuple(Seat(seat, name) for seat, name in self.players), mode=self.mode, options=self.options)


@dataclass(frozen=True)
class SnapshotRow:
    """A ``replay_snapshots`` row as :meth:`Games.cold_read` found it (service/replay_snapshots.py decodes it)."""

    index: int
    seq: int
    position: int
    state: bytes
    rules: str


@dataclass(frozen=True)
class ColdRead:
    """What :meth:`Games.cold_read` read of a game for a step nobody has in memory.

    ``facts`` are the game's facts after the row's fact up to the step asked for, every one of them, then
    only the corrections and remarks recorded after it: the facts left out are table facts, each one step
    (in either view, unless a correction among ``facts`` voids it), never applied to the step asked for.
    ``last`` is the game's number of facts: the facts left out are the seqs up to it not in ``facts``.
    """

    header: "GameHeader"
    row: "SnapshotRow | None"
    facts: list
    last: int


HEADERS_KEPT = 4096  # game headers kept per process (they never change)
# A fact whose stored JSON holds none of these strings is a table fact (no correction, no remark): after the
# step a cold read asks for, it only counts as a step, so it is neither sent nor decoded (Games.cold_read).
_GENERIC_MARKS = tuple(f'"{t}"'.encode() for t in GENERIC_TYPES)


class Games(Application[UUID]):
    name = "Games"  # pins the table names games_events / games_snapshots

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The repository fast-forwards its cached game under its own lock but deep-copies it
        # after letting go, so a copy could walk a dict another thread was appending to
        # ("dictionary changed size during iteration") or see half an event. Reading and
        # copying under one lock per game makes the copy a consistent snapshot.
        self._read_lock = _ReadStripes()
        # Writers of one game in this process take turns instead of racing to the database
        # and retrying; writers in other processes are still met by optimistic concurrency.
        self._write_lock = _Stripes()
        self._headers: "OrderedDict[UUID, GameHeader]" = OrderedDict()
        self._headers_lock = threading.Lock()

    def create_game(self, header: Mapping[str, Any]) -> Game:
        """Start a game from a validated header (see service.schemas.GameHeaderSchema).

        A game created now gets the ruleset's current defaults written into its options (``new_game_options``:
        Lockdown's warrants, decision 0039); an imported game keeps the options its file gives."""
        ruleset = RULESETS.get(header.get("ruleset"))
        if ruleset is not None and ruleset.new_game_options:
            header = {**header, "options": {**ruleset.new_game_options, **(header.get("options") or {})}}
        game = self._new_game(header)
        try:
            self.save(game)
        except IntegrityError:
            raise GameAlreadyExists(f"game {game.id} already exists", field="id") from None
        return game

    def import_game(self, header: Mapping[str, Any], facts: list[Mapping[str, Any]], *, checked: bool = False) -> Game:
        """Create a game with all its facts in one transaction: all of it is stored, or none.

        Each fact mapping holds the fact (type, actor, data, visibility) plus the stored
        recorder, recorded_at and command id. On refusal, FactsRefused.details["index"]
        names the fact. ``checked``: the facts are fresh from ``hygiene.loads`` (a parsed
        notation file), so their data is not walked and copied again (``Game.record``).
        """
        if header.get("id") is not None and self.exists(header["id"]):
            raise GameAlreadyExists(f"game {header['id']} is already in the archive", field="id")
        game = folded_game(header, facts, checked=checked)
        try:
            self.save(game)
        except IntegrityError:
            raise GameAlreadyExists(f"game {game.id} is already in the archive", field="id") from None
        return game

    def insert_folded(self, game_id: UUID, versions: list[int], topics: list[str], states: list[bytes]) -> None:
        """Store a game folded elsewhere (:func:`folded_game`, then this application's mapper, in an import's
        worker process): its events as the mapper encoded them (version, topic and state of each), in one
        transaction, all or nothing. The game is not put in the cache (the next read loads it)."""
        try:
            insert_rows = getattr(self.recorder, "insert_rows", None)  # service.recorder.FailFastRecorder's
            if insert_rows is not None:
                insert_rows([game_id] * len(versions), versions, topics, states)
            else:
                self.recorder.insert_events([StoredEvent(game_id, *row) for row in zip(versions, topics, states)])
        except IntegrityError:
            raise GameAlreadyExists(f"game {game_id} is already in the archive", field="id") from None

    def record(self, game_id: UUID, facts: list[Mapping[str, Any]], **kwargs: Any) -> dict[str, Any]:
        """Append a batch to a game, all or nothing.

        The game is taken from this process's cache as the last append left it, without
        reading it back: the insert's own (game, version) key is the position check, so an
        append costs one round trip. A writer elsewhere (another process, another Archive)
        that got there first makes that insert fail; the cached game is then evicted and the
        batch is checked again against the stored head (a stale ``expected_position`` is
        then a StalePosition). A writer that keeps losing gets GameBusy (503, retry later)
        with nothing stored, never a bare IntegrityError.
        """
        with self._write_lock(game_id):
            for attempt in range(RECORD_ATTEMPTS):
                if attempt:
                    time.sleep(RECORD_BACKOFF * 2 ** (attempt - 1) * random.uniform(0.5, 1.5))
                # Readers copy the cached game under this lock: they never see a batch half
                # applied, nor one that has not (yet) been stored.
                with self._read_lock.holding(game_id):
                    result = self._record_once(game_id, facts, kwargs)
                if result is not None:
                    return result
        raise GameBusy(
            f"game {game_id} is being written by others; nothing of this batch was stored, retry in a moment",
            field="game_id",
            position=self.get_game(game_id).position,
            retry_after=1,
        )

    def _record_once(
        self, game_id: UUID, facts: list[Mapping[str, Any]], kwargs: dict[str, Any]
    ) -> dict[str, Any] | None:
        """One try at an append; None when another writer got there first (its cache entry is then gone)."""
        game, checked = self._writable(game_id, refresh=False)
        before = game.version
        try:
            try:
                result = game.record(facts, **kwargs)
            except ArchiveError:
                if checked:
                    raise
                # The cached game may lag behind a writer elsewhere: judge the batch by the stored head.
                game, checked = self._writable(game_id, refresh=True)
                before = game.version
                result = game.record(facts, **kwargs)
            if result["replayed"]:  # stored facts never change, so a cached command is a true answer
                return result
            recordings = self.save(game)
        except IntegrityError:
            self._forget(game_id)  # the cached game was stale: the next try reads the stored one
            return None
        except BaseException:
            if game.version != before:  # applied but maybe not stored (an outage, a bug): never keep it
                self._forget(game_id)
            raise
        result["notification_id"] = recordings[-1].notification.id
        return result

    def _writable(self, game_id: UUID, refresh: bool) -> tuple[Game, bool]:
        """The game to append to, and whether it was just brought up to the stored head.

        The cached game itself (no copy, no read-back) unless ``refresh``; the caller holds
        the game's write and read locks, and evicts it if an append to it is not stored.
        """
        cache = self.repository.cache
        game = None
        if cache is not None and not refresh:
            try:
                game = cache.get(game_id)
            except KeyError:
                pass
        checked = game is None
        if checked:
            try:
                # fast-forwards a cached game; _project: without the library's per-event Protocol isinstance, which
                # was most of a cold replay step (the rights gate's header() loads the game first, decision 0036)
                game = self.repository.get(game_id, deepcopy_from_cache=False, projector_func=_project)
            except AggregateNotFoundError:
                raise GameNotFound(f"no game {game_id}", field="game_id") from None
        if not isinstance(game, Game):  # a club, the player registry or a placement shares the store (decision 0020)
            raise GameNotFound(f"no game {game_id}", field="game_id")
        return game, checked

    def _forget(self, game_id: UUID) -> None:
        if self.repository.cache is not None:
            try:
                self.repository.cache.get(game_id, evict=True)
            except KeyError:
                pass

    def header(self, game_id: UUID) -> GameHeader:
        """What a game was created with (never changes): from the cached game, else from its first event alone.

        For checks that need only who and where (the rights gate) and for a cold replay step (decision
        0041): the game's other events are not read. Headers are kept (they never change), so asking
        again costs no round trip; anything that grows (facts, position, state) needs :meth:`get_game`.
        """
        found = self._header_kept(game_id)
        if found is not None:
            return found
        cache = self.repository.cache
        if cache is not None:
            with self._read_lock.holding(game_id):
                try:
                    game = cache.get(game_id)
                except KeyError:
                    game = None
                if isinstance(game, Game):
                    return self._keep_header(GameHeader.of(game))
        rows = self.recorder.select_events(game_id, lte=1)
        if not rows:
            raise GameNotFound(f"no game {game_id}", field="game_id")
        return self._header_of_row(game_id, rows[0])

    def _header_kept(self, game_id: UUID) -> GameHeader | None:
        with self._headers_lock:
            found = self._headers.get(game_id)
            if found is not None:
                self._headers.move_to_end(game_id)
            return found

    def _keep_header(self, header: GameHeader) -> GameHeader:
        with self._headers_lock:
            self._headers[header.id] = header
            while len(self._headers) > HEADERS_KEPT:
                self._headers.popitem(last=False)
        return header

    def _header_of_row(self, game_id: UUID, row: StoredEvent) -> GameHeader:
        try:
            cls = resolve_topic(row.topic)
        except Exception:  # noqa: BLE001 - a topic of no class here is no game
            cls = None
        if cls is not Game.Created:  # a club, the player registry or a placement shares the store (decision 0020)
            raise GameNotFound(f"no game {game_id}", field="game_id")
        return self._keep_header(GameHeader.of(self.mapper.to_domain_event(row)))

    def forget_headers(self) -> None:
        """Drop the kept headers (a benchmark's "first request of a process")."""
        with self._headers_lock:
            self._headers.clear()

    def cold_read(self, game_id: UUID, rules: list[str], corrected: bool, perspective: str, before_seq: int
                  ) -> "ColdRead | None":
        """A game's header, its latest replay snapshot row (of one of the ``rules`` fingerprints) of a step
        before fact ``before_seq``, the facts after that row's fact up to ``before_seq``, the corrections and
        remarks recorded after ``before_seq``, and how many facts the game has, in **one query** (decisions
        0041, 0043).

        Facts are decoded from the rows (JSON, as the library stores them) without building the aggregate or
        its events. A table fact after ``before_seq`` is never applied to the step asked for: it only counts
        as a step, so it is not sent at all when the stored states are plain JSON (the server keeps only the
        rows holding a correction's or a remark's type name, ``_GENERIC_MARKS``; a false match is only decoded
        for nothing), and not decoded when they are enciphered or compressed (every row is then sent and
        looked at here). The header's row is not read when the header is kept (the rights gate read it).
        None if a stored event is not what a game's fact is (a topic of another class, a gap): the caller
        then loads the game as always. Raises GameNotFound.
        """
        events = sql.Identifier(self.recorder.datastore.schema, self.recorder.events_table_name)
        mapper = self.mapper
        plain = not mapper.cipher and not mapper.compressor
        marks = sql.SQL(" OR ").join(sql.SQL("position({} IN state) > 0").format(sql.Placeholder(f"m{i}"))
                                     for i in range(len(_GENERIC_MARKS))) if plain else sql.SQL("TRUE")
        query = sql.SQL(
            "WITH snap AS (SELECT step_index, seq, position, state, rules FROM public.replay_snapshots"
            " WHERE game_id = %(g)s AND rules = ANY(%(r)s) AND corrected = %(c)s AND perspective = %(p)s AND seq < %(s)s"
            " ORDER BY step_index DESC LIMIT 1)"
            " SELECT 0 AS kind, step_index AS n, seq, position, rules AS topic, state FROM snap"
            " UNION ALL"
            " SELECT 1, originator_version, NULL, NULL, topic, state FROM {events} WHERE originator_id = %(g)s"
            " AND (originator_version = %(h)s OR (originator_version > COALESCE((SELECT seq FROM snap), 0) + 1"
            " AND (originator_version <= %(s)s + 1 OR {marks})))"
            " UNION ALL"
            " SELECT 2, max(originator_version), NULL, NULL, NULL, NULL FROM {events} WHERE originator_id = %(g)s"
            " ORDER BY kind, n"
        ).format(events=events, marks=marks)
        kept = self._header_kept(game_id)
        params = {"g": game_id, "r": rules, "c": corrected, "p": perspective, "s": before_seq,
                  "h": 0 if kept is not None else 1}
        if plain:
            params.update((f"m{i}", m) for i, m in enumerate(_GENERIC_MARKS))
        # one statement on an autocommit connection: one snapshot of the database, one round trip (no BEGIN
        # and ROLLBACK around it), prepared once per connection
        with self.recorder.datastore.get_connection() as conn:
            rows = conn.execute(query, params, prepare=True).fetchall()
        snap, header, facts, last = None, kept, [], 0
        fact_class = Game.FactRecorded
        for row in rows:
            kind, n = row["kind"], row["n"]
            if kind == 0:
                snap = SnapshotRow(n, row["seq"], row["position"], bytes(row["state"]), row["topic"])
            elif kind == 2:
                last = (n or 1) - 1
            elif n == 1:
                header = self._header_of_row(game_id, StoredEvent(game_id, 1, row["topic"], bytes(row["state"])))
            else:
                try:
                    if resolve_topic(row["topic"]) is not fact_class:
                        return None
                except Exception:  # noqa: BLE001 - not a fact of ours: the library's load says what it is
                    return None
                state = self._plain(bytes(row["state"]))
                if n - 1 > before_seq and not any(m in state for m in _GENERIC_MARKS):
                    continue  # a table fact after the step asked for: only its place counts (a step), see ColdRead
                data = mapper.transcoder.decode(state)
                facts.append(Fact(seq=data["seq"], type=data["type"], data=dict(data["data"]), actor=data["actor"],
                                  visibility=data["visibility"]))
        if header is None:
            raise GameNotFound(f"no game {game_id}", field="game_id")
        first = snap.seq + 1 if snap is not None else 1
        near = [f for f in facts if f.seq <= before_seq]
        if any(f.seq != first + i for i, f in enumerate(near)) or len(near) < min(before_seq, last) - first + 1 \
                or any(f.seq > last for f in facts):
            return None  # not the facts after the row, one after another
        return ColdRead(header, snap, facts, max(last, first - 1))

    def _plain(self, state: bytes) -> bytes:
        """An event's stored state as JSON bytes, as the library's mapper reads it (cipher, then compressor)."""
        mapper = self.mapper
        if mapper.cipher:
            state = mapper.cipher.decrypt(state)
        if mapper.compressor:
            state = mapper.compressor.decompress(state)
        return state

    def get_game(self, game_id: UUID, version: int | None = None) -> Game:
        try:
            if version is not None:
                game = self.repository.get(game_id, version=version)
            else:
                with self._read_lock.holding(game_id):
                    game = deepcopy(self.repository.get(game_id, deepcopy_from_cache=False, projector_func=_project))
        except AggregateNotFoundError:
            raise GameNotFound(f"no game {game_id}", field="game_id") from None
        if not isinstance(game, Game):  # a club, the player registry or a placement shares the store (decision 0020)
            raise GameNotFound(f"no game {game_id}", field="game_id")
        return game

    def exists(self, game_id: UUID) -> bool:
        try:
            with self._read_lock.holding(game_id):
                found = self.repository.get(game_id, deepcopy_from_cache=False, projector_func=_project)
        except AggregateNotFoundError:
            return False
        return isinstance(found, Game)

    @staticmethod
    def _new_game(header: Mapping[str, Any]) -> Game:
        # whatever the door: nothing that cannot be stored, projected and shown
        hygiene.check_tree({k: header[k] for k in ("mode", "players", "options", "league", "tags", "title") if k in header})
        played_on = header.get("played_on")
        return Game(
            game_id=header.get("id") or uuid4(),
            ruleset=header["ruleset"],
            mode=header.get("mode", "standard"),
            players=[{"seat": p["seat"], "name": p["name"].strip()} for p in header["players"]],
            strict=bool(header.get("strict", True)),
            options=dict(header.get("options") or {}),
            league=header.get("league"),
            tags=list(header.get("tags") or []),
            played_on=played_on.isoformat() if hasattr(played_on, "isoformat") else played_on,
            title=header.get("title"),
        )


def folded_game(header: Mapping[str, Any], facts: list[Mapping[str, Any]], *, checked: bool = False) -> Game:
    """A new game with all its facts recorded, not stored: what :meth:`Games.import_game` stores, made without a
    database (an import's worker process makes it too). Raises as ``Games.import_game`` does; FactsRefused and
    InvalidInput name the fact by ``details["index"]``.

    The cyclic collector is paused while the game's facts are recorded, as a fold pauses it (decision 0046): an
    import keeps every event and fact it makes until the game is stored, so the collections its allocations set
    off free nothing and walk the growing heap (docs/benchmarks.md §2).
    """
    game = Games._new_game(header)
    with collector_paused():  # the fold's pause, shared with folds on other threads
        for index, group in _command_groups(facts):
            try:
                game.record(
                    [_fact_part(f) for f in group],
                    command_id=group[0].get("command"),
                    recorder=group[0].get("recorder"),
                    recorded_at=[f.get("recorded_at") for f in group],
                    checked=checked,
                )
            except (FactsRefused, InvalidInput) as e:
                e.details["index"] = index + e.details.get("index", 0)
                raise
    return game


def stored_columns(mapper: Mapper, events: Iterable[Any]) -> tuple[list[int], list[str], list[bytes]]:
    """Each event's version, topic and stored state, as ``mapper.to_stored_event`` gives them (an import's worker
    sends them to be inserted: ``Games.insert_folded``).

    A fact's event, nearly every event of an import, is encoded here rather than by the mapper: its state is the
    mapper's (the event's fields but its id and version, then its class version) with its time as the transcoder's
    transcoding for a datetime makes it, put in before the transcoder's own encoder sees it instead of through the
    encoder's call back, by the transcoder's encoder made once (``chain.one_shot``), and no StoredEvent is made
    for it. Any other event, or a mapper with a cipher, a compressor or another transcoder, goes through the mapper
    (decision 0052). tests/unit/test_hash_chain.py compares the two byte for byte.
    """
    transcoder = mapper.transcoder
    datetimes = (type(transcoder) is JSONTranscoder and not mapper.cipher and not mapper.compressor
                 and _FACT_CLASS_VERSION > 1 and transcoder.types.get(datetime))
    encode = one_shot(transcoder.encoder) if datetimes else None
    versions, topics, states = [], [], []
    for e in events:
        if datetimes and type(e) is Game.FactRecorded and type(e.timestamp) is datetime:
            state = dict(e.__dict__)
            del state["originator_id"]
            versions.append(state.pop("originator_version"))
            state["timestamp"] = {"_type_": datetimes.name, "_data_": datetimes.encode(e.timestamp)}
            state["class_version"] = _FACT_CLASS_VERSION
            topics.append(FACT_TOPIC)
            states.append(encode(state).encode("utf8"))
        else:
            stored = mapper.to_stored_event(e)
            versions.append(stored.originator_version)
            topics.append(stored.topic)
            states.append(stored.state)
    return versions, topics, states


_FACT_CLASS_VERSION = Game.FactRecorded.class_version  # the mapper stores it from 2 on: 1 goes through the mapper


def _project(aggregate: Any, events: Iterable[Any]) -> Any:
    """The library's ``project_aggregate`` without its per-event ``assert isinstance(event, CanMutateProtocol)``:
    an isinstance against a runtime-checkable Protocol walks the protocol's members every time, which was half
    the time of loading a 400-fact game (decision 0031). Our events are the library's own aggregate events."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


def _fact_part(f: Mapping[str, Any]) -> dict[str, Any]:
    return {k: f[k] for k in ("type", "actor", "data", "visibility") if k in f}


def _command_groups(facts: list[Mapping[str, Any]]) -> Iterable[tuple[int, list[Mapping[str, Any]]]]:
    """Consecutive facts of one command (same command id and recorder) form one batch again."""
    start = 0
    while start < len(facts):
        end = start + 1
        key = (facts[start].get("command"), facts[start].get("recorder"))
        while end < len(facts) and key[0] is not None and (facts[end].get("command"), facts[end].get("recorder")) == key:
            end += 1
        yield start, list(facts[start:end])
        start = end
