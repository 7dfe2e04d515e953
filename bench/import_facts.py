"""Importing ~100,000 facts from notation files (read_file + import_parsed, as `nemesis-archive import`)
against a raw COPY of as many rows shaped like games_events, in one transaction.

    .venv/bin/python bench/import_facts.py [--facts 100000] [--runs 3] [--workers 1] [--database-url URL]

Each run imports every file into an empty event store (a fresh Archive, so a cold cache) and then
COPYs as many rows; the figures are the medians of the runs.
"""
from __future__ import annotations

import os
import resource
import tempfile
import time
import uuid
from pathlib import Path

from common import RAW_TABLE, games_totalling, log, median, notation, parser, scratch_on, server, table


def write_files(folder: Path, total_facts: int) -> tuple[list[Path], int]:
    """Notation files of generated games holding >= total_facts facts; returns (paths, facts)."""
    paths, n = [], 0
    for i, (header, facts) in enumerate(games_totalling(total_facts)):
        path = folder / f"game-{i:04d}.jsonl"
        path.write_text(notation(header, facts), encoding="utf-8")
        paths.append(path)
        n += len(facts)
    return paths, n


def cpu_seconds() -> tuple[float, float]:
    """CPU time of this process, and of its children that have ended (the workers, once their pool is shut)."""
    own, ended = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, ended.ru_utime + ended.ru_stime


def _since(start: tuple[float, float]) -> tuple[float, float]:
    now = cpu_seconds()
    return now[0] - start[0], now[1] - start[1]


def import_files(db, paths: list[Path], workers: int = 1) -> tuple[float, tuple[float, float]]:
    """Import every file as the CLI does; returns the seconds it took, and the CPU seconds of this process and of
    its workers (not the database server's).

    ``workers`` 1: each file read and imported in this process (read_file + import_parsed), the archive opened
    before the clock starts. More: as ``nemesis-archive import --workers N`` does it, timed from the start of the
    worker processes (forked before the archive is opened) to the last game stored: the files are read here,
    the games folded in the workers (decision 0050), the archive opened once the files are read (not timed,
    as in the other case).
    """
    from service.context import Archive
    from service.notation import import_parsed, read_file

    if workers <= 1:
        archive = Archive(db)
        try:
            t, cpu = time.perf_counter(), cpu_seconds()
            for path in paths:
                _, created = import_parsed(archive.games, read_file(path))
                assert created, path
            return time.perf_counter() - t, _since(cpu)
        finally:
            archive.close()
    from service.notation import FoldPool, import_many

    t, cpu = time.perf_counter(), cpu_seconds()
    with FoldPool(workers) as pool:
        parsed = [read_file(path) for path in paths]
        opening, opening_cpu = time.perf_counter(), cpu_seconds()[0]
        archive = Archive(db)
        t, cpu = t + time.perf_counter() - opening, (cpu[0] + cpu_seconds()[0] - opening_cpu, cpu[1])
        try:
            for p, outcome in import_many(archive.games, parsed, pool):
                assert isinstance(outcome, tuple) and outcome[1], (p.file, outcome)
            wall = time.perf_counter() - t
        finally:
            archive.close()
    return wall, _since(cpu)  # the workers' CPU counts once the pool has ended


def raw_copy_seconds(db, rows: int, per_game: int, state_bytes: int, runs: int, tag: int = 0) -> list[float]:
    """COPY ``rows`` rows (games of ``per_game`` versions, ``state_bytes`` of state) in one transaction."""
    topic = "service.game:Game.FactRecorded"
    payload = os.urandom(state_bytes)
    data, gid = [], None
    for i in range(rows):
        if i % per_game == 0:
            gid = uuid.uuid4()
        data.append((gid, i % per_game + 1, topic, payload))
    out = []
    with db.connect() as conn:
        for run in range(runs):
            name = f"raw_copy_{tag}_{run}"
            conn.execute(RAW_TABLE.format(name=name))
            conn.commit()
            t = time.perf_counter()
            with conn.cursor() as cur:
                with cur.copy(f"COPY {name} (originator_id, originator_version, topic, state) FROM STDIN") as copy:
                    for row in data:
                        copy.write_row(row)
            conn.commit()
            out.append(time.perf_counter() - t)
    return out


def event_shape(db) -> tuple[int, int, int]:
    """(events, games, average state bytes) of games_events."""
    with db.connect() as conn:
        return conn.execute(
            "SELECT count(*), count(DISTINCT originator_id), avg(octet_length(state))::int FROM games_events"
        ).fetchone()


def main(argv=None) -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--facts", type=int, default=100_000, help="facts to import (whole games, so slightly more)")
    p.add_argument("--runs", type=int, default=3, help="runs, each an import into an empty store then a COPY (medians)")
    p.add_argument("--workers", type=int, default=1,
                   help="worker processes folding the games (as `import --workers`; default 1: all in this process)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="nemesis-bench-files-") as tmp, server(args.database_url) as srv:
        paths, facts = write_files(Path(tmp), args.facts)
        imports, cpus, copies = [], [], []
        for run in range(args.runs):  # stored events cannot be deleted: each run has a database of its own
            with scratch_on(srv, f"bench_import{run}") as db:
                log(f"import_facts: run {run + 1}: {len(paths)} files, {facts:,} facts; importing")
                wall, cpu = import_files(db, paths, args.workers)
                imports.append(wall)
                cpus.append(cpu)
                events, games, state_bytes = event_shape(db)
                assert events == facts + games, (events, facts, games)
                copies.extend(raw_copy_seconds(db, facts, facts // games, state_bytes, 1, tag=run))
            log(f"import_facts: run {run + 1}: import {imports[-1]:.2f} s, COPY {copies[-1]:.3f} s")
        seconds, copy = median(imports), median(copies)
    api_rate, raw_rate = facts / seconds, facts / copy
    rows = [
        [f"import {len(paths)} notation files ({args.workers} worker process(es); median of {args.runs})",
         f"{seconds:.2f}", api_rate],
        [f"baseline: raw COPY, one transaction (median of {args.runs})", f"{copy:.2f}", raw_rate],
        ["**ratio import / COPY**", "", f"**1/{raw_rate / api_rate:.0f}** ({api_rate / raw_rate:.2%})"],
    ]
    print("Runs: import " + ", ".join(f"{s:.2f}" for s in imports) + " s (CPU s, this process + its workers: "
          + ", ".join(f"{a:.2f} + {b:.2f}" for a, b in cpus) + "); COPY " + ", ".join(f"{s:.3f}" for s in copies)
          + " s; ratio " + ", ".join(f"1/{i / c:.0f}" for i, c in zip(imports, copies)) + "\n")
    print(f"Import {facts:,} facts in {games} games ({facts / games:.0f} facts/game, {state_bytes} B mean stored state)\n")
    print(table(["", "seconds", "facts (rows) per second"], rows))


if __name__ == "__main__":
    main()
