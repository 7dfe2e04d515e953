"""Per-game fold snapshots on the read side (decision 0032): what the views read of a game, kept
with its version, so a rebuild need not fold again a game that did not change.

A snapshot holds a game's :class:`projections.folding.Summary` as JSON and the fingerprint of
the code that made it: the rules, the aggregate, the folder and the statistics tally. A rebuild
uses a snapshot only for the events it covers (versions up to its own) and only with the same
fingerprint — it reads those events as one row per game, without their state (decision 0044,
``projections/runner.py``); a game with newer events is folded from the event store as before. Rebuilds write
them (one statement per page); they are a cache: deleting them only costs the next rebuild a fold.
"""
from __future__ import annotations

import hashlib
import json
import logging
from functools import lru_cache
from pathlib import Path

from psycopg.types.json import Json

from projections.folding import Summary, summary

log = logging.getLogger(__name__)

_ROOT = Path(__file__).resolve().parents[1]
# the code whose output a snapshot holds: a change to any of it makes every snapshot stale
_SOURCES = ("service/rules", "service/game.py", "projections/folding.py", "projections/statistics.py")


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """A hash of the files that decide what a fold gives (every file under service/rules, data included)."""
    h = hashlib.sha256()
    for name in _SOURCES:
        path = _ROOT / name
        files = sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts) if path.is_dir() else [path]
        for f in files:
            h.update(str(f.relative_to(_ROOT)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:32]


def load(conn, game_ids: list) -> dict:
    """``{game id: Summary}`` of those games' usable snapshots."""
    rows = conn.execute("SELECT summary FROM public.fold_snapshots WHERE game_id = ANY(%s) AND fingerprint = %s",
                        (game_ids, fingerprint())).fetchall()
    out = {}
    for (data,) in rows:
        s = summary_of(data)
        out[s.id] = s
    return out


def summary_of(data) -> Summary:
    """The Summary a snapshot row's ``summary`` holds (as psycopg gives it: parsed, or the JSON text)."""
    return Summary.from_json(data if isinstance(data, dict) else json.loads(data))


def write(conn, games: list) -> int:
    """Store the summaries of folded ``games`` (newer versions win); returns how many were written."""
    rows = []
    for game in games:
        try:
            rows.append((game.id, game.version, fingerprint(), Json(summary(game).to_json())))
        except Exception as error:  # noqa: BLE001 - a game a view cannot summarise gets no snapshot
            log.debug("no snapshot of game %s: %s", game.id, error)
    if rows:
        conn.cursor().executemany(
            "INSERT INTO public.fold_snapshots AS s (game_id, version, fingerprint, summary) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (game_id) DO UPDATE SET version = EXCLUDED.version, fingerprint = EXCLUDED.fingerprint,"
            " summary = EXCLUDED.summary, written_at = now()"
            " WHERE s.version <= EXCLUDED.version OR s.fingerprint <> EXCLUDED.fingerprint",
            rows,
        )
    return len(rows)
