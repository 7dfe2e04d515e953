"""The one console command: ``nemesis-archive``."""
from __future__ import annotations

import logging
import signal
import sys
from pathlib import Path
from uuid import UUID

import click

from service.errors import ArchiveError

DEMO_DIR = Path(__file__).resolve().parents[1] / "service" / "demo"


def _fail(message: str) -> None:
    click.secho(message, fg="red", err=True)
    sys.exit(1)


@click.group()
@click.option("--database-url", envvar="DATABASE_URL", default=None,
              help="PostgreSQL to use (default: DATABASE_URL, else the embedded server in ./.data).")
@click.option("-v", "--verbose", is_flag=True, help="Log what the worker does.")
@click.pass_context
def main(ctx: click.Context, database_url: str | None, verbose: bool) -> None:
    """Nemesis Archive: record, replay and score real-table games of Nemesis."""
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    ctx.obj = {"url": database_url}


class _Open:
    """``with _Open(ctx) as archive`` with friendly errors for an out-of-date schema."""

    def __init__(self, ctx, migrate=None):
        from service.context import open_archive

        self.cm = open_archive(ctx.obj["url"], migrate=migrate)

    def __enter__(self):
        from service.schema import SchemaOutOfDate

        try:
            return self.cm.__enter__()
        except SchemaOutOfDate as e:
            _fail(str(e))

    def __exit__(self, *exc):
        return self.cm.__exit__(*exc)


@main.command()
@click.pass_context
def migrate(ctx: click.Context) -> None:
    """Bring the database schema to the head revision (alembic upgrade head)."""
    with _Open(ctx, migrate=True) as archive:
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
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, demo: bool, worker: bool | None, threads: int, dev: bool,
          trusted_proxy: str | None, trusted_hosts: tuple[str, ...], write_limit: str | None) -> None:
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
        if demo:
            _load_demo(archive)
        app = create_app({"ARCHIVE": archive, "TRUSTED_HOSTS": hosts, "WRITE_LIMIT": write_limit})
        server = DevelopmentServer(app, host, port) if dev else ProductionServer(app, host, port, threads, trusted_proxy)
        in_process = worker if worker is not None else archive.db.embedded
        w = Worker(archive.db) if in_process else None
        worker_thread = w.start_thread() if w else None

        def interrupt(*_):
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, interrupt)  # SIGTERM stops the server the way Ctrl+C does
        click.secho(f"Nemesis Archive is serving on http://{host}:{server.port}/  (Ctrl+C to stop)", fg="green")
        click.echo(f"answering to Host {', '.join(hosts) if hosts else 'any name'}; "
                   f"writes limited to {write_limit or 'no limit'} per client and game"
                   + ("; development server" if dev else f"; {threads} threads"))
        try:
            server.run()
        except KeyboardInterrupt:
            pass
        finally:
            server.close()
            if w:  # stop the worker before the embedded server goes away under it
                w.stop()
                worker_thread.join(timeout=15)


@main.command()
@click.pass_context
def worker(ctx: click.Context) -> None:
    """Keep the read models up to date (runs until stopped)."""
    from projections.runner import Worker

    with _Open(ctx) as archive:
        w = Worker(archive.db)
        signal.signal(signal.SIGTERM, lambda *a: w.stop())
        click.echo("projection worker running (Ctrl+C to stop)")
        try:
            w.run()
        except KeyboardInterrupt:
            w.stop()


@main.command(name="import")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.pass_context
def import_(ctx: click.Context, files: tuple[Path, ...]) -> None:
    """Import games from notation files; each file is stored whole or not at all."""
    from service.notation import NotationError, import_parsed, read_file

    parsed, failed = [], 0
    for path in files:  # read every file first: a bad one is reported before anything is stored
        try:
            parsed.append(read_file(path))
        except NotationError as e:
            failed += 1
            click.secho(f"rejected {e.message}; nothing of it was stored", fg="red", err=True)
    with _Open(ctx) as archive:
        total = sum(len(p.facts) for p in parsed)
        with click.progressbar(length=max(total, 1), label="importing facts", show_pos=True, file=sys.stderr) as bar:
            for game in parsed:
                try:
                    stored, created = import_parsed(archive.games, game)
                except NotationError as e:
                    failed += 1
                    click.secho(f"\nrejected {e.message}; nothing of it was stored", fg="red", err=True)
                else:
                    if not created:
                        click.echo(f"\n{game.file}: game {stored.id} is already in the archive; skipped", err=True)
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
@click.option("--batch", default=500, show_default=True, help="Events per transaction.")
@click.option("--pause", default=0.0, hidden=True, help="Seconds to sleep between pages (tests).")
@click.pass_context
def rebuild(ctx: click.Context, view: str | None, batch: int, pause: float) -> None:
    """Rebuild VIEW (default: every view, folding the events once) from the event store, blue/green."""
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

        reports = rebuild_views(archive.db, views, batch=batch, progress=progress, pause=pause)
        if bar is not None:
            bar.__exit__(None, None, None)
        for report in reports:
            click.echo(
                f"rebuilt {report.view} as generation {report.generation}: {report.events} events in "
                f"{report.seconds:.2f} s ({report.rate:,.0f} events/s)"
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


@main.command()
@click.pass_context
def demo(ctx: click.Context) -> None:
    """Load the demo games shipped with the project (idempotent)."""
    with _Open(ctx) as archive:
        _load_demo(archive)


if __name__ == "__main__":
    main()
