"""The one console command: ``nemesis-archive``."""
from __future__ import annotations

import logging
import faulthandler
import signal
import sys
import threading
from pathlib import Path
from uuid import UUID

import click

from service.errors import ArchiveError
from service.replay_cache import DEFAULT_GAMES, DEFAULT_SNAPSHOT_EVERY, DEFAULT_STEPS

DEMO_DIR = Path(__file__).resolve().parents[1] / "service" / "demo"
STOP_GRACE = 30  # seconds `serve` may take to stop (requests, worker, database) before it ends regardless


def _fail(message: str) -> None:
    click.secho(message, fg="red", err=True)
    sys.exit(1)


@click.group()
@click.option("--database-url", envvar="DATABASE_URL", default=None,
              help="PostgreSQL to use (default: DATABASE_URL, else the embedded server in the data folder).")
@click.option("--data-dir", envvar="NEMESIS_DATA_DIR", default=None, type=click.Path(file_okay=False, path_type=Path),
              help="The embedded server's data folder (default: NEMESIS_DATA_DIR, else the user's data folder).")
@click.option("-v", "--verbose", is_flag=True, help="Log what the worker does.")
@click.pass_context
def main(ctx: click.Context, database_url: str | None, data_dir: Path | None, verbose: bool) -> None:
    """Nemesis Archive: record, replay and score real-table games of Nemesis."""
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if database_url and data_dir and ctx.get_parameter_source("data_dir") == click.core.ParameterSource.COMMANDLINE:
        _fail("--data-dir names the embedded server's folder, but a database URL is set too (DATABASE_URL or "
              "--database-url) and would be used instead: unset one of them")
    ctx.obj = {"url": database_url, "data_dir": data_dir}


class _Open:
    """``with _Open(ctx) as archive`` with friendly errors for an out-of-date schema or data folder."""

    def __init__(self, ctx, migrate=None, migrate_url=None, wait_for_database=False):
        from service.context import open_archive

        self.cm = open_archive(ctx.obj["url"], migrate=migrate, migrate_url=migrate_url, data_dir=ctx.obj["data_dir"])
        self.wait_for_database = wait_for_database  # the caller retries an unreachable database itself

    def __enter__(self):
        import psycopg
        import sqlalchemy.exc

        from service.db import DataDirError
        from service.schema import SchemaOutOfDate

        try:
            return self.cm.__enter__()
        except (SchemaOutOfDate, DataDirError) as e:
            _fail(str(e))
        except (psycopg.OperationalError, sqlalchemy.exc.OperationalError) as e:
            if self.wait_for_database:
                raise
            reason = str(getattr(e, "orig", None) or e).strip().splitlines()[-1]
            _fail(f"cannot open the database: {reason}"
                  + (" (run `nemesis-archive migrate` with an owner URL first; it creates the roles)"
                     if "does not exist" in reason and "role" in reason else ""))

    def __exit__(self, *exc):
        return self.cm.__exit__(*exc)


@main.command()
@click.option("--owner-url", envvar="MIGRATE_DATABASE_URL", default=None,
              help="Migrate through this login (default: MIGRATE_DATABASE_URL, else the database URL); "
                   "it becomes nemesis_owner, while the service logs in as nemesis_app.")
@click.pass_context
def migrate(ctx: click.Context, owner_url: str | None) -> None:
    """Bring the database schema to the head revision (alembic upgrade head)."""
    if owner_url and not ctx.obj["url"]:
        ctx.obj["url"] = owner_url  # only the owner's URL given: migrate through it
    with _Open(ctx, migrate=True, migrate_url=owner_url) as archive:
        click.echo(f"schema is up to date on database {archive.db.name!r}")


def _write_limit(ctx, param, value: str) -> str | None:
    from limits import parse

    if value.strip().lower() in ("off", "none", "0"):
        return None
    try:
        parse(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a rate like '120/minute' (or 'off')") from None
    return value


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--demo", is_flag=True, help="Load the demo games first (idempotent).")
@click.option("--worker/--no-worker", default=None,
              help="Run the projection worker in this process (default: on for the embedded server).")
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 10), envvar="NEMESIS_THREADS",
              help="Request threads of the server (at most the 10 pooled event-store connections).")
@click.option("--dev", is_flag=True, help="Werkzeug's development server instead of waitress.")
@click.option("--trusted-proxy", envvar="NEMESIS_TRUSTED_PROXY", metavar="ADDRESS",
              help="The reverse proxy's address: take client, host and scheme from its X-Forwarded-* headers.")
@click.option("--trusted-host", "trusted_hosts", multiple=True, envvar="NEMESIS_TRUSTED_HOSTS", metavar="NAME",
              help="A Host name to answer to (repeatable; '*' for any; env: space-separated). "
                   "Always: localhost, 127.0.0.1 and --host.")
@click.option("--write-limit", default="120/minute", show_default=True, envvar="NEMESIS_WRITE_LIMIT",
              callback=_write_limit, help="Writes per client address and game ('off' for none).")
@click.option("--replay-cache-games", type=click.IntRange(0, 100_000), default=DEFAULT_GAMES, show_default=True,
              envvar="NEMESIS_REPLAY_CACHE_GAMES", help="Folded replays kept in memory (a game's views and perspectives count one each).")
@click.option("--replay-cache-steps", type=click.IntRange(0, 100_000_000), default=DEFAULT_STEPS, show_default=True,
              envvar="NEMESIS_REPLAY_CACHE_STEPS", help="Steps kept in memory in all folded replays together.")
@click.option("--snapshot-every", type=click.IntRange(0, 100_000), default=DEFAULT_SNAPSHOT_EVERY, show_default=True,
              envvar="NEMESIS_REPLAY_SNAPSHOT_EVERY",
              help="A replay snapshot row every K steps: a step not in memory applies at most K facts (0: none).")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, demo: bool, worker: bool | None, threads: int, dev: bool,
          trusted_proxy: str | None, trusted_hosts: tuple[str, ...], write_limit: str | None,
          replay_cache_games: int, replay_cache_steps: int, snapshot_every: int) -> None:
    """Serve the replay viewer and the JSON API (waitress; --dev for Werkzeug's development server)."""
    from projections.runner import Worker
    from web import create_app
    from web.posture import LOCAL_HOSTS
    from web.serving import DevelopmentServer, ProductionServer

    if dev and trusted_proxy:
        _fail("--trusted-proxy needs the production server (drop --dev)")
    hosts = None if "*" in trusted_hosts else list(dict.fromkeys(
        [*LOCAL_HOSTS, *([host] if host not in ("0.0.0.0", "::", "") else []), *trusted_hosts]))
    with _Open(ctx) as archive:
        _warn_history_risk(archive)
        archive.replays.configure(replay_cache_games, replay_cache_steps, snapshot_every)
        if demo:
            _load_demo(archive)
            _demo_admin(archive)
        in_process = worker if worker is not None else archive.db.embedded
        w = Worker(archive.db) if in_process else None
        app = create_app({"ARCHIVE": archive, "WORKER": w, "TRUSTED_HOSTS": hosts, "WRITE_LIMIT": write_limit})
        server = DevelopmentServer(app, host, port) if dev else ProductionServer(app, host, port, threads, trusted_proxy)
        worker_thread = w.start_thread() if w else None  # supervised: a dead worker thread is replaced
        if demo and w:
            _wait_for_views(archive)

        def interrupt(*_):
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, interrupt)  # SIGTERM stops the server the way Ctrl+C does
        # and SIGINT does even when the server was started with it ignored (a background job of a shell script)
        signal.signal(signal.SIGINT, interrupt)
        click.secho(f"Nemesis Archive is serving on http://{host}:{server.port}/  (Ctrl+C to stop)", fg="green")
        click.echo(f"answering to Host {', '.join(hosts) if hosts else 'any name'}; "
                   f"writes limited to {write_limit or 'no limit'} per client and game"
                   + ("; development server" if dev else f"; {threads} threads"))
        try:
            server.run()
        except KeyboardInterrupt:
            pass
        finally:
            # a stop never hangs: should stopping (here and in _Open's exit) take longer than STOP_GRACE, every
            # thread's stack is written to stderr, to say where it hung, and the process ends (rc 1); serve is
            # the process's last act, so the timer is never cancelled
            faulthandler.dump_traceback_later(STOP_GRACE, exit=True)
            server.close()
            if w:  # stop the worker before the embedded server goes away under it
                w.stop()
                worker_thread.join(timeout=15)


@main.command()
@click.pass_context
def worker(ctx: click.Context) -> None:
    """Keep the read models up to date (runs until stopped; waits out database outages)."""
    from projections.runner import Worker

    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stopping.set())
    delay = 0.5
    while not stopping.is_set():
        try:
            with _Open(ctx, wait_for_database=True) as archive:
                _warn_history_risk(archive)
                w = Worker(archive.db)
                signal.signal(signal.SIGTERM, lambda *a: (stopping.set(), w.stop()))
                click.echo("projection worker running (Ctrl+C to stop)")
                try:
                    w.run()  # returns only when stopped: it backs off and reconnects on its own
                except KeyboardInterrupt:
                    w.stop()
                return
        except KeyboardInterrupt:
            return
        except Exception as e:  # noqa: BLE001 - the database is not there yet: wait for it
            from projections.parking import is_infrastructure

            if not is_infrastructure(e):
                raise
            cause = e
            while cause.__cause__ is not None:
                cause = cause.__cause__
            click.secho(f"database unavailable ({' '.join(str(cause).split())}); trying again in {delay:.1f} s",
                        fg="yellow", err=True)
            stopping.wait(delay)
            delay = min(delay * 2, 10.0)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@click.pass_context
def status(ctx: click.Context, as_json: bool) -> None:
    """Show each view's generation, position, lag, parked events, last error and worker heartbeat."""
    import json

    from projections.status import DatabaseUnavailable, parked_events, projection_status
    from service.db import Database

    try:
        if ctx.obj["url"]:
            db = Database(ctx.obj["url"])
            report = projection_status(db)
        else:
            with _Open(ctx) as archive:
                db = archive.db
                report = projection_status(db)
        parked = parked_events(db, limit=20) if any(v["parked"] for v in report["views"].values()) else []
    except DatabaseUnavailable as e:
        if as_json:
            click.echo(json.dumps({"database": "unreachable", "error": str(e)}))
        else:
            click.secho(str(e), fg="red", err=True)
        sys.exit(2)
    if as_json:
        report["parked_events"] = [{**p, "game_id": str(p["game_id"]), "first_failed": p["first_failed"].isoformat(),
                                    "last_failed": p["last_failed"].isoformat()} for p in parked]
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(f"database: ok, event store head at {report['head']} ({report['status']})")
    click.echo(f"{'view':<14}{'gen':>4}{'position':>10}{'lag':>8}{'parked':>8}  worker")
    for view, v in report["views"].items():
        w = v["worker"]
        beat = (f"alive, beat {w['seconds_since_heartbeat']:.0f} s ago" if w["alive"]
                else f"NOT RUNNING (last beat {w['seconds_since_heartbeat']:.0f} s ago)" if w["heartbeat_at"]
                else "NOT RUNNING (never seen)")
        lag = f"{v['lag']}+" if v["lag_at_least"] else str(v["lag"])
        building = f"  rebuilding as generation {v['building']}" if v["building"] else ""
        click.echo(f"{view:<14}{v['generation']:>4}{v['position']:>10}{lag:>8}{v['parked']:>8}  {beat}{building}")
        if v["last_error"]:
            click.echo(f"{'':<14}last error {v['last_error']['at']}: {v['last_error']['error']}")
    if parked:
        click.echo("\nparked events (retry with `nemesis-archive retry-parked [VIEW]` after a fix):")
        for p in parked:
            click.echo(f"  {p['view']} #{p['notification_id']} game {p['game_id']} v{p['version']}: {p['attempts']} attempt(s), "
                       f"last {p['last_failed'].isoformat(timespec='seconds')}: {p['error']}")


@main.command(name="retry-parked")
@click.argument("view", required=False)
@click.pass_context
def retry_parked(ctx: click.Context, view: str | None) -> None:
    """Project the games of parked events again (after a fix); VIEW defaults to every view."""
    from projections.retry import retry_parked as retry
    from projections.views import VIEWS

    if view and view not in VIEWS:
        _fail(f"unknown view {view!r}; known: {', '.join(VIEWS)}")
    with _Open(ctx) as archive:
        reports = retry(archive.db, view)
    if not reports:
        click.echo("no parked events")
        return
    still = 0
    for r in reports:
        click.echo(f"{r.view} (generation {r.generation}): {r.retried} game(s) retried, {r.fixed} projected "
                   f"({r.events_fixed} parked event(s) cleared), {r.retried - r.fixed} still parked")
        still += r.retried - r.fixed
    if still:
        sys.exit(1)


@main.command(name="import")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes that check and fold the games of several files (default: one per core; 1: all in"
                   " this process). This process only stores them, each file's game whole or not at all.")
@click.pass_context
def import_(ctx: click.Context, files: tuple[Path, ...], workers: int | None) -> None:
    """Import games from notation files; each file is stored whole or not at all."""
    from contextlib import nullcontext

    from service.notation import FoldPool, NotationError, default_workers, import_many, read_file

    workers = min(workers or default_workers(), len(files))
    # the workers are forked first, before this process opens the archive and its pools start threads (decision 0050)
    with FoldPool(workers) if workers > 1 else nullcontext() as pool:
        parsed, failed = [], 0
        for path in files:  # read every file first: a bad one is reported before anything is stored
            try:
                parsed.append(read_file(path))
            except NotationError as e:
                failed += 1
                click.secho(f"rejected {e.message}; nothing of it was stored", fg="red", err=True)
        with _Open(ctx) as archive:
            total = sum(len(p.facts) for p in parsed)
            with click.progressbar(length=max(total, 1), label="importing facts", show_pos=True,
                                   file=sys.stderr) as bar:
                for game, outcome in import_many(archive.games, parsed, pool):
                    if isinstance(outcome, NotationError):
                        failed += 1
                        click.secho(f"\nrejected {outcome.message}; nothing of it was stored", fg="red", err=True)
                    elif not outcome[1]:
                        click.echo(f"\n{game.file}: game {outcome[0]} is already in the archive; skipped", err=True)
                    bar.update(len(game.facts))
    click.echo(f"imported {len(files) - failed} of {len(files)} file(s)")
    if failed:
        sys.exit(1)


@main.command()
@click.argument("game_id", type=click.UUID)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="File to write (default: stdout).")
@click.pass_context
def export(ctx: click.Context, game_id: UUID, output: Path | None) -> None:
    """Write one game in notation (JSON Lines)."""
    from service.notation import write_game

    with _Open(ctx) as archive:
        try:
            text = write_game(archive.games.get_game(game_id))
        except ArchiveError as e:
            _fail(e.message)
    if output:
        output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


@main.command()
@click.argument("view", required=False)
@click.option("--batch", default=5000, show_default=True, help="Events to fold per transaction (each view writes a batch's games once; events a fold snapshot covers: up to ten times as many).")
@click.option("--pause", default=0.0, hidden=True, help="Seconds to sleep between pages (tests).")
@click.option("--no-snapshots", is_flag=True, help="Fold every game from its events, not from its fold snapshot "
              "(decision 0032); the snapshots are written again either way.")
@click.pass_context
def rebuild(ctx: click.Context, view: str | None, batch: int, pause: float, no_snapshots: bool) -> None:
    """Rebuild VIEW (default: every view, folding the events once) from the event store, blue/green.

    A game whose fold snapshot covers its events is not folded again (decision 0032)."""
    from projections.runner import rebuild_views
    from projections.views import VIEWS

    views = [view] if view else list(VIEWS)
    if view and view not in VIEWS:
        _fail(f"unknown view {view!r}; known: {', '.join(VIEWS)}")
    with _Open(ctx) as archive:
        bar = None

        def progress(done: int, total: int) -> None:
            nonlocal bar
            if bar is None:
                bar = click.progressbar(length=max(total, 1), label=f"rebuilding {', '.join(views)}", show_pos=True, file=sys.stderr)
                bar.__enter__()
            bar.update(done - bar.pos)

        reports = rebuild_views(archive.db, views, batch=batch, progress=progress, pause=pause, snapshots=not no_snapshots)
        if bar is not None:
            bar.__exit__(None, None, None)
        for report in reports:
            click.echo(
                f"rebuilt {report.view} as generation {report.generation}: {report.events} events in "
                f"{report.seconds:.2f} s ({report.rate:,.0f} events/s)"
                + (f"; {report.parked} event(s) parked (see `nemesis-archive status`)" if report.parked else "")
            )
        if reports and reports[0].timings is not None:
            t = reports[0].timings
            click.echo(f"time: read {t.read:.2f} s, decode {t.decode:.2f} s, fold {t.fold:.2f} s, write {t.write:.2f} s,"
                       f" snapshots {t.snapshots:.2f} s; {t.from_snapshots} event(s) taken from fold snapshots")


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
def backup(ctx: click.Context, file: Path) -> None:
    """Write a backup of the event store to FILE (a new .tar), with every game in notation beside it.

    One consistent snapshot, taken while the service keeps running. The read models are not
    in it: a restore rebuilds them.
    """
    from service.backup import BackupError, create_backup
    from service.context import open_database
    from service.db import DataDirError
    from service.pgtools import PgToolMissing

    try:
        with open_database(ctx.obj["url"], ctx.obj["data_dir"], any_bundled_major=True) as db:
            with _Bar("exporting games") as bar:
                manifest = create_backup(db, file, say=_say, progress=bar.update)
    except (BackupError, DataDirError, PgToolMissing) as e:
        _fail(str(e))
    snap = manifest["snapshot"]
    click.secho(
        f"backup written to {file}: {len(manifest['games'])} game(s), {snap['events']:,} event(s) up to notification "
        f"{snap['max_notification_id']}, schema {manifest['schema_revision']}, PostgreSQL {manifest['server']['postgresql']}",
        fg="green",
    )


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--batch", default=5000, show_default=True, help="Events per transaction while rebuilding the views.")
@click.option("--owner-url", envvar="MIGRATE_DATABASE_URL", default=None,
              help="Restore through this login, which creates the schema (default: MIGRATE_DATABASE_URL, "
                   "else the database URL).")
@click.pass_context
def restore(ctx: click.Context, file: Path, batch: int, owner_url: str | None) -> None:
    """Restore the backup FILE into an EMPTY database, migrate it and rebuild every view.

    Refuses a database that already holds anything, and a backup whose parts do not match
    their sha256 in its manifest; then checks the restored events against the manifest.
    """
    import tempfile

    from projections.runner import rebuild_views
    from projections.views import VIEWS
    from service.backup import BackupError, check_empty, load, read_backup, verify
    from service.context import open_database
    from service.db import DataDirError
    from service.pgtools import PgToolMissing

    try:
        with tempfile.TemporaryDirectory(prefix="nemesis-restore-") as tmp:
            _say(f"checking {file} (sha256 of every part)")
            manifest = read_backup(file, Path(tmp))
            snap = manifest["snapshot"]
            _say(f"backup of {manifest['created_at']}: {len(manifest['games'])} game(s), {snap['events']:,} event(s), "
                 f"schema {manifest['schema_revision']}")
            with open_database(owner_url or ctx.obj["url"], ctx.obj["data_dir"]) as db:
                check_empty(db)
                load(db, Path(tmp), manifest, say=_say)
                with _Bar(f"rebuilding {', '.join(VIEWS)}") as bar:
                    reports = rebuild_views(db, list(VIEWS), batch=batch, progress=bar.update)
                _say("checking the restored events against the manifest")
                found = verify(db, manifest)
    except (BackupError, DataDirError, PgToolMissing) as e:
        _fail(str(e))
    click.secho(
        f"restored {len(found.games)} game(s), {found.events:,} event(s) into database {db.name!r}; "
        f"{len(reports)} view(s) rebuilt; counts match the manifest",
        fg="green",
    )


def _demo_admin(archive) -> None:
    """A local admin for the demo, with a password made up now and printed once (decision 0024)."""
    from service.accounts import new_password

    password = new_password()
    try:
        archive.accounts.create("admin", password, site_admin=True)
    except ArchiveError:
        archive.accounts.set_site_admin("admin", True)
        archive.accounts.set_password("admin", password)
    click.secho(f"demo: sign in as 'admin' with password {password}  (made up now, printed only here; "
                "`nemesis-archive user password admin` changes it)", fg="yellow")


def _say(line: str) -> None:
    click.echo(line, err=True)


class _Bar:
    """A progress bar on stderr that appears on the first update (nothing to show, no bar)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar = None

    def update(self, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = click.progressbar(length=max(total, 1), label=self.label, show_pos=True, file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(done - self.bar.pos)

    def __enter__(self) -> "_Bar":
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


@main.command()
@click.argument("game_id", type=click.UUID, required=False)
@click.option("--heads", is_flag=True, help="Print each game's head hash (keep them elsewhere to detect a cut tail).")
@click.pass_context
def verify(ctx: click.Context, game_id: UUID | None, heads: bool) -> None:
    """Recompute the hash chain of GAME (default: every game) from the stored events; exit 1 on a break or gap."""
    from service.verify import verify as verify_chains

    games = events = unchained = 0
    broken: list[str] = []
    with _Open(ctx) as archive:
        for report in verify_chains(archive.db, archive.games.mapper, game_id):
            games += 1
            events += report.events
            unchained += report.unchained == report.events
            for problem in report.problems:
                click.secho(str(problem), fg="red", err=True)
            if report.problems:
                broken.append(str(report.game))
            if heads:
                click.echo(f"{report.game} {report.events} events {report.status}: head {report.head or '-'}")
    if game_id is not None and games == 0:
        _fail(f"no game {game_id} in the archive")
    click.echo(
        f"verified {games} game(s), {events} events: {games - len(broken)} intact"
        + (f" ({unchained} recorded before hash chains, unchained)" if unchained else "")
        + (f", {len(broken)} BROKEN: {', '.join(broken)}" if broken else "")
    )
    if broken:
        sys.exit(1)


def _warn_history_risk(archive) -> None:
    from service.roles import history_risk

    risk = history_risk(archive.db)
    if risk:
        click.secho(
            f"warning: {risk}, so this process could change stored events; serve as nemesis_app"
            " (README, \"Least privilege\")", fg="yellow", err=True,
        )


def _load_demo(archive) -> None:
    from service.notation import NotationError, import_parsed, read_file

    files = sorted(DEMO_DIR.glob("*.jsonl"))
    created = 0
    for path in files:
        try:
            _, new = import_parsed(archive.games, read_file(path))
        except NotationError as e:  # an older copy of this demo game is archived: history stays as it is
            click.secho(f"demo game kept as archived: {e.message}", fg="yellow", err=True)
            continue
        created += new
    click.echo(f"demo games: {created} loaded, {len(files) - created} already there")
    from service.demo.league import load_demo_league

    click.echo("demo league: checking its club nights (the first start generates and records them, a few seconds)")
    added, facts = load_demo_league(archive.games, archive.leagues)
    click.echo(f"demo league: {added} game(s) and {facts} league fact(s) added; standings at /leagues")
    ada = archive.leagues.registry().find("Ada")
    click.echo("statistics: win rate by character at /statistics, death causes at /statistics/deaths"
               + (f", Ada's profile at /statistics/players/{ada}" if ada else ""))


def _wait_for_views(archive, timeout: float = 900.0) -> None:
    """Let the worker count the demo into the views the printed URLs show (games, standings, statistics) before
    serving, so they show standings, charts and profiles at once rather than "no season" for the minute or two a
    first start takes. The learned corridors (slowest, and on no printed page) fill in while serving."""
    import time

    from projections import queries

    head = archive.games.recorder.max_notification_id() or 0
    start = time.monotonic()
    said = 0.0
    while time.monotonic() - start < timeout:
        positions = queries.tracking_positions(archive.db)
        behind = {v: head - p for v, p in positions.items() if p < head and v != "corridors"}
        if not behind:
            if time.monotonic() - start > 1:
                click.echo(f"views up to date after {time.monotonic() - start:.0f} s")
            return
        if time.monotonic() - said >= 10:
            slowest = max(behind, key=behind.get)
            click.echo(f"counting the games into the views (the first start only): {behind[slowest]} events to go"
                       f" ({slowest})")
            said = time.monotonic()
        time.sleep(0.5)
    click.secho("the views are still catching up: pages fill in as they do (/admin/status shows how far)",
                fg="yellow", err=True)


@main.command()
@click.pass_context
def demo(ctx: click.Context) -> None:
    """Load the demo games shipped with the project (idempotent)."""
    with _Open(ctx) as archive:
        _load_demo(archive)


from web.cli_league import league as _league  # noqa: E402 - the `league` command group

main.add_command(_league)

from web.cli_accounts import token as _token, user as _user  # noqa: E402 - accounts (decision 0024)

main.add_command(_user)
main.add_command(_token)

if __name__ == "__main__":
    main()
