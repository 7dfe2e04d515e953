"""The PostgreSQL client programs (pg_dump, pg_restore) that fit a server.

pg_dump refuses a server newer than itself, and pg_restore cannot read an archive written
by a newer pg_dump, so the versions matter. The embedded server uses the programs its
wheel ships beside it; a standalone server uses the system's (Debian's versioned
``/usr/lib/postgresql/N/bin`` first, then PATH), or the folder NEMESIS_PG_BIN names.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from service.db import Database, bundled_majors

VERSION_RE = re.compile(r"\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?")


class PgToolMissing(RuntimeError):
    """No usable pg_dump / pg_restore; the message says what was found and what to install."""


@dataclass(frozen=True)
class PgTool:
    name: str
    path: Path
    major: int
    version: str

    def __str__(self) -> str:
        return f"{self.name} {self.version} ({self.path})"


def server_version(db: Database) -> tuple[int, str]:
    """``(major, "18.4")`` of the server behind ``db``."""
    with db.connect() as conn:
        num, text = conn.execute("SELECT current_setting('server_version_num')::int, current_setting('server_version')").fetchone()
    return num // 10000, text.split()[0]


def tool_version(path: Path) -> tuple[int, str] | None:
    """``(major, "15.20")`` from ``path --version``; None when it does not run."""
    try:
        out = subprocess.run([str(path), "--version"], capture_output=True, text=True, timeout=30).stdout
    except OSError:
        return None
    m = VERSION_RE.search(out)
    if not m:
        return None
    return int(m.group(1)), f"{m.group(1)}.{m.group(2)}" if m.group(2) else m.group(1)


def _system_candidates(name: str, major: int) -> list[Path]:
    found = [Path(f"/usr/lib/postgresql/{major}/bin/{name}")]
    on_path = shutil.which(name)
    if on_path:
        found.append(Path(on_path))
    found += sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), reverse=True)
    return found


def candidates(name: str, major: int, embedded: bool) -> list[Path]:
    """Where to look for ``name`` for a server of ``major``, best first."""
    if os.environ.get("NEMESIS_PG_BIN"):
        return [Path(os.environ["NEMESIS_PG_BIN"]).expanduser() / name]
    bundled = bundled_majors()
    own = [bundled[major] / name] if major in bundled else []
    return own + _system_candidates(name, major) if embedded else _system_candidates(name, major) + own


def find_tool(name: str, *, at_least: int, prefer: int, places: list[Path]) -> PgTool:
    """The first of ``places`` whose major is ``prefer``, else the oldest one at least ``at_least``."""
    seen: dict[Path, PgTool] = {}
    for place in places:
        if place.is_file() and place.resolve() not in seen:
            v = tool_version(place)
            if v:
                seen[place.resolve()] = PgTool(name, place, *v)
    usable = [t for t in seen.values() if t.major >= at_least]
    exact = [t for t in usable if t.major == prefer]
    if exact or usable:
        return exact[0] if exact else min(usable, key=lambda t: t.major)
    found = "; ".join(str(t) for t in seen.values()) or "none"
    where = "NEMESIS_PG_BIN" if os.environ.get("NEMESIS_PG_BIN") else "/usr/lib/postgresql/*/bin and PATH"
    raise PgToolMissing(
        f"{name} {at_least} or newer is needed, and none was found in {where} (found: {found}). "
        f"Install the PostgreSQL {prefer} client programs (Debian/Ubuntu: apt-get install postgresql-client-{prefer}) "
        "or point NEMESIS_PG_BIN at the folder that holds them."
    )


def pg_dump_for(db: Database) -> tuple[PgTool, int, str]:
    """pg_dump for ``db``'s server (its major or newer), with the server's major and version."""
    major, version = server_version(db)
    return find_tool("pg_dump", at_least=major, prefer=major, places=candidates("pg_dump", major, db.embedded)), major, version


def pg_restore_for(db: Database, archive_major: int) -> tuple[PgTool, int]:
    """pg_restore able to read an archive of pg_dump ``archive_major`` into ``db``'s server."""
    major, _ = server_version(db)
    want = max(major, archive_major)
    return find_tool("pg_restore", at_least=archive_major, prefer=want, places=candidates("pg_restore", want, db.embedded)), major
