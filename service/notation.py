"""The Nemesis Archive notation: JSON Lines, a header line then one fact per line (docs/notation.md).

    >>> lines = write_game(game).splitlines()
    >>> json.loads(lines[0])["format"]
    'nemesis-archive'

The writer is canonical (fixed key order, compact separators, UTF-8, "\\n" after every
line), so export -> import -> export is byte-identical.
"""
from __future__ import annotations

import gc
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from marshmallow import ValidationError

from service import hygiene
from service.errors import ArchiveError, InvalidInput
from service.rules.replay import collector_paused
from service.game import Game
from service.schemas import GameHeaderSchema, flatten_errors

FORMAT = "nemesis-archive"
VERSION = 1
HEADER_KEYS = ("format", "version", "game", "ruleset", "mode", "strict", "played_on", "players", "league", "tags", "title", "options")
FACT_KEYS = ("seq", "type", "actor", "data", "visibility", "recorded_at", "recorder", "command")

# Upcasters from older notation versions: version -> function(header, facts) -> (header, facts) of version + 1.
UPCASTERS: dict[int, Callable[[dict, list[dict]], tuple[dict, list[dict]]]] = {}


class NotationError(ArchiveError):
    """A file that is not valid notation: names the file, the line and the reason."""

    status = 400

    def __init__(self, file: str, line: int, reason: str, field: str | None = None) -> None:
        where = f"{file}:{line}"
        super().__init__(f"{where}: {reason}", file=file, line=line, reason=reason, field=field)


def _dump(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def write_game(game: Game) -> str:
    header = {
        "format": FORMAT,
        "version": VERSION,
        "game": str(game.id),
        "ruleset": game.ruleset_name,
        "mode": game.mode,
        "strict": game.strict,
        "played_on": game.played_on,
        "players": [{"seat": p["seat"], "name": p["name"]} for p in game.players],
        "league": game.league,
        "tags": list(game.tags),
        "title": game.title,
        "options": dict(game.options),
    }
    lines = [_dump(header)]
    for r in game.recorded:
        f = r.fact
        lines.append(
            _dump(
                {
                    "seq": f.seq,
                    "type": f.type,
                    "actor": f.actor,
                    "data": dict(f.data),
                    "visibility": f.visibility,
                    "recorded_at": r.recorded_at,
                    "recorder": r.recorder,
                    "command": r.command_id,
                }
            )
        )
    return "\n".join(lines) + "\n"


@dataclass
class ParsedGame:
    file: str
    header: dict[str, Any]
    facts: list[dict[str, Any]]

    def line_of(self, index: int) -> int:
        """File line of fact ``index`` (the header is line 1)."""
        return index + 2


def parse(text: str, file: str = "<input>") -> ParsedGame:
    """Read one game; raise NotationError naming the file line on the first problem.

    A UTF-8 byte order mark before the header (as some Windows editors write) is ignored.
    """
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or not lines[0].strip():
        raise NotationError(file, 1, "empty file: the first line must be the game header")
    header = _json_object(file, 1, lines[0])
    if header.get("format") != FORMAT:
        raise NotationError(file, 1, f"not a Nemesis Archive file: format must be {FORMAT!r}", "format")
    version = header.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= VERSION:
        raise NotationError(file, 1, f"unsupported notation version {version!r} (this build reads 1..{VERSION})", "version")
    facts = [_json_object(file, n, line) for n, line in enumerate(lines[1:], start=2)]
    while version < VERSION:
        header, facts = UPCASTERS[version](header, facts)
        version += 1
    try:
        loaded = GameHeaderSchema().load(
            {
                "id": header.get("game"),
                **{k: header[k] for k in HEADER_KEYS[3:] if k in header},
            }
        )
    except ValidationError as e:
        field, messages = next(iter(flatten_errors(e.messages).items()))
        raise NotationError(file, 1, f"header field {field!r}: {messages[0]}", field) from None
    for i, fact in enumerate(facts):
        line = i + 2
        unknown = set(fact) - set(FACT_KEYS)
        if unknown:
            raise NotationError(file, line, f"unknown key(s) {', '.join(sorted(unknown))}", sorted(unknown)[0])
        if fact.get("seq") != i + 1:
            raise NotationError(file, line, f"seq must be {i + 1} (facts are numbered 1, 2, 3 ... in order)", "seq")
        if not isinstance(fact.get("type"), str) or not fact["type"]:
            raise NotationError(file, line, "type must be a fact type name", "type")
        if not isinstance(fact.get("data", {}), dict):
            raise NotationError(file, line, "data must be an object", "data")
        for key in ("recorded_at", "recorder", "command"):
            if fact.get(key) is not None and not isinstance(fact[key], str):
                raise NotationError(file, line, f"{key} must be a string or null", key)
        if not isinstance(fact.get("recorded_at"), str) or not _is_iso_time(fact["recorded_at"]):
            raise NotationError(file, line, "recorded_at must be an ISO 8601 time with its offset", "recorded_at")
    return ParsedGame(file, loaded, facts)


def _is_iso_time(text: str) -> bool:
    try:
        return datetime.fromisoformat(text).tzinfo is not None
    except ValueError:
        return False


def _json_object(file: str, line: int, text: str) -> dict[str, Any]:
    """One line as a JSON object, through the same hygiene as an API body (service.hygiene)."""
    try:
        value = hygiene.loads(text, field="line")
    except InvalidInput as e:
        field = e.details.get("field")
        reason = e.message.removeprefix("line: ")
        raise NotationError(file, line, reason, None if field == "line" else field) from None
    if not isinstance(value, dict):
        raise NotationError(file, line, "each line must be a JSON object")
    return value


def read_file(path: Path) -> ParsedGame:
    try:
        text = Path(path).read_text(encoding="utf-8-sig")  # a byte order mark is not part of the text
    except UnicodeDecodeError as e:
        raise NotationError(str(path), 1, f"not UTF-8 text ({e.reason})") from None
    except OSError as e:
        raise NotationError(str(path), 1, f"cannot be read ({e.strerror or e})") from None
    return parse(text, str(path))


def import_parsed(games, parsed: ParsedGame) -> tuple[Game, bool]:
    """Store one parsed game atomically; returns (game, created). Refusals name the file line.

    A file whose game is already in the archive with identical content is skipped
    (``created`` False); with other content it is refused.
    """
    game_id = parsed.header.get("id")
    if game_id is not None and games.exists(game_id):
        return _already_stored(games, parsed, game_id), False
    try:
        # every fact line went through hygiene.loads in parse(): its data is not checked and copied a second time
        return games.import_game(parsed.header, parsed.facts, checked=True), True
    except ArchiveError as e:
        raise _at_line(parsed, e) from None


def _already_stored(games, parsed: ParsedGame, game_id) -> Game:
    """The stored game if its facts are the file's (the file is skipped), else the file's refusal."""
    existing = games.get_game(game_id)
    facts = "\n".join(_dump(_canonical_fact(f)) for f in parsed.facts) + ("\n" if parsed.facts else "")
    if write_game(existing).split("\n", 1)[1] == facts:
        return existing
    raise NotationError(parsed.file, 1, f"game {game_id} is already in the archive with other facts", "game")


def _at_line(parsed: ParsedGame, e: ArchiveError) -> NotationError:
    """An import's refusal named by the file's line (the fact's, or the header's)."""
    from service.errors import FactsRefused, GameAlreadyExists

    if isinstance(e, FactsRefused):
        index = e.details.get("index", 0)
        violation = (e.details.get("violations") or [{}])[0]
        return NotationError(
            parsed.file, parsed.line_of(index), f"{parsed.facts[index].get('type')}: {violation.get('message', e.message)}",
            violation.get("field"),
        )
    if isinstance(e, GameAlreadyExists):
        return NotationError(parsed.file, 1, e.message, "game")
    index = e.details.get("index", 0)
    return NotationError(parsed.file, parsed.line_of(index), e.message, e.details.get("field"))


# -- an import of many files, its games folded in worker processes (decision 0050) --------------------------------

@dataclass(frozen=True)
class FoldedGame:
    """What a worker sends back for one parsed game: the game's events encoded as the archive's mapper stores them
    (as columns: each event's version, topic and stored state, its game being ``game_id``), or the refusal that
    names the file's line (``NotationError``'s arguments: file, line, reason, field)."""

    game_id: Any
    versions: list[int] = ()
    topics: list[str] = ()
    states: list[bytes] = ()
    refusal: tuple | None = None


_worker_apps: dict[tuple, Any] = {}  # in a worker process: a Games without a database (for its mapper) per setting


def _fold_in_worker(parsed: ParsedGame, env: tuple[tuple[str, str], ...]) -> FoldedGame:
    games = _worker_apps.get(env)
    if games is None:
        from service.archive import Games

        games = _worker_apps[env] = Games(env=dict(env))
    return fold_parsed(parsed, games)


def fold_parsed(parsed: ParsedGame, games) -> FoldedGame:
    """Everything of :func:`import_parsed` that needs no database: fold and check the game's facts (the same
    code as ``Games.import_game``) and encode its events with ``games``'s mapper. Whether the game is already
    stored is asked by the parent, before it stores the events."""
    from service.archive import folded_game, stored_columns

    try:
        game = folded_game(parsed.header, parsed.facts, checked=True)
    except ArchiveError as e:
        refused = _at_line(parsed, e).details
        return FoldedGame(parsed.header.get("id"),
                          refusal=(refused["file"], refused["line"], refused["reason"], refused["field"]))
    except Exception as e:  # a bug, not a refusal: it reaches the parent (and the user) naming the file
        e.add_note(f"while folding {parsed.file} in an import's worker process")
        raise
    events = game.collect_events()
    assert all(e.originator_id == game.id for e in events)
    return FoldedGame(game.id, *stored_columns(games.mapper, events))


def store_folded(games, parsed: ParsedGame, folded: FoldedGame) -> tuple[Any, bool]:
    """Store a game a worker folded (:func:`fold_parsed`), as :func:`import_parsed` would: returns (game id,
    created); a game already stored is skipped or refused first, then the worker's refusal, then the insert
    (one transaction, all or nothing). The same errors, naming the same file lines, as :func:`import_parsed`."""
    game_id = parsed.header.get("id")
    if game_id is not None and games.exists(game_id):
        return _already_stored(games, parsed, game_id).id, False
    if folded.refusal is not None:
        raise NotationError(*folded.refusal)
    try:
        games.insert_folded(folded.game_id, folded.versions, folded.topics, folded.states)
    except ArchiveError as e:
        raise _at_line(parsed, e) from None
    return folded.game_id, True


def default_workers() -> int:
    """Worker processes an import of several files uses unless told: one per core this process may run on."""
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def worker_env(games) -> tuple[tuple[str, str], ...]:
    """The settings a worker builds its mapper from: the archive's own (transcoder, cipher, compressor), with an
    in-memory store instead of the database (a worker never connects)."""
    env = {k: v for k, v in games.env.items()
           if "POSTGRES" not in k and not k.endswith(("PERSISTENCE_MODULE", "RECORDER_TOPIC"))}
    env["PERSISTENCE_MODULE"] = "eventsourcing.popo"
    return tuple(sorted(env.items()))


def _worker_starts() -> None:
    """A worker only folds and encodes games, which makes no cyclic garbage, and lives as long as one import: its
    cyclic collector stays off, so no collection walks each game's events once its fold's pause ends (about 6 % of
    a worker's time; decision 0052). Reference counting frees every game once it is sent."""
    gc.disable()


class FoldPool:
    """The worker processes of an import (``with FoldPool(n) as pool``): open it before the archive.

    Its workers are forked from this process while it has no other thread, so they run the very code already
    imported here, at once; a process that already runs threads (the database pools' once the archive is
    open) forks them from a fresh server process instead (``forkserver``, the code imported there once):
    forking a process with threads can deadlock the child.
    """

    def __init__(self, workers: int) -> None:
        import multiprocessing
        import threading
        from concurrent.futures import ProcessPoolExecutor

        self.workers = workers
        alone = threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if alone else "forkserver")
        if not alone:
            context.set_forkserver_preload(["service.notation", "service.archive"])
        self.executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_starts)
        if alone:
            self.executor.submit(int).result()  # forks every worker now (a fork pool starts them all at once)

    def __enter__(self) -> "FoldPool":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


def import_many(games, parsed: list[ParsedGame], pool: FoldPool | None = None):
    """Import parsed games in their order, each stored whole or not at all; yields ``(parsed, (game id, created))``
    or ``(parsed, NotationError)`` for each, in the order given.

    With a ``pool`` (and more than one game) the games are checked, folded and encoded in its worker processes
    (:func:`fold_parsed`), and this process only asks whether a game is stored already and stores its events
    (:func:`store_folded`). Without, each game in this process (:func:`import_parsed`), as ever. The outcomes,
    their order and their messages are the same either way.
    """
    if pool is None or len(parsed) < 2:
        for p in parsed:
            try:
                game, created = import_parsed(games, p)
            except NotationError as e:
                yield p, e
            else:
                yield p, (game.id, created)
        return
    env = worker_env(games)
    futures = [pool.executor.submit(_fold_in_worker, p, env) for p in parsed]
    # The collector is paused here too while the games come back and are stored: this process keeps every parsed
    # file, so each collection that receiving them sets off walks all of those again and frees nothing (0.3 s of
    # this process's CPU per 20,000 facts, 0.1 s without it). It runs again as soon as the import ends (the fold's
    # pause, shared with folds on other threads).
    try:
        with collector_paused():
            for p, future in zip(parsed, futures):
                try:
                    folded = future.result()
                except Exception as e:  # a bug in a worker, or a worker killed: the file it was folding is named
                    if not any(p.file in n for n in getattr(e, "__notes__", ())):
                        e.add_note(f"while folding {p.file} in an import's worker process")
                    raise
                try:
                    outcome = store_folded(games, p, folded)
                except NotationError as e:
                    outcome = e
                yield p, outcome
    finally:
        for future in futures:
            future.cancel()


def _canonical_fact(f: dict[str, Any]) -> dict[str, Any]:
    return {k: f.get(k, {} if k == "data" else ("public" if k == "visibility" else None)) for k in FACT_KEYS}
