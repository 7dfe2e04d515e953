"""``nemesis-archive league …``: clubs, leagues, seasons, players and where games count (decision 0020).

Every command appends facts (nothing is edited); the league pages follow once the worker has
read them (``serve`` runs it in-process).
"""
from __future__ import annotations

from uuid import UUID

import click

from service.errors import ArchiveError


def _open(ctx):
    from web.cli import _Open

    return _Open(ctx.find_root())


def _run(fn):
    try:
        return fn()
    except ArchiveError as e:
        click.secho(f"{e.message}", fg="red", err=True)
        raise SystemExit(1) from None


def _points(values: tuple[str, ...]) -> dict[str, int] | None:
    if not values:
        return None
    out = {}
    for v in values:
        key, _, number = v.partition("=")
        if not number.strip().isdigit():
            raise click.BadParameter(f"{v!r}: write RULE=POINTS, e.g. win=3", param_hint="--points")
        out[key.strip()] = int(number)
    return out


@click.group()
def league() -> None:
    """Clubs, leagues, seasons, players, and which season a game counts in."""


@league.command("club")
@click.argument("name")
@click.option("--slug", help="The club's short name in URLs (default: from the name).")
@click.pass_context
def club(ctx, name, slug):
    """Found a club."""
    with _open(ctx) as archive:
        c = _run(lambda: archive.leagues.found_club(name, slug))
        click.echo(f"club {c.slug!r} founded")


@league.command("open")
@click.argument("club")
@click.argument("name")
@click.option("--slug")
@click.option("--points", multiple=True, metavar="RULE=N", help="played, win, survived, objective (default win=3 survived=1 objective=1).")
@click.option("--rate-solo", is_flag=True, help="Solo games move ratings (the player against the game).")
@click.pass_context
def open_league(ctx, club, name, slug, points, rate_solo):
    """Open a league in CLUB (games whose header names this league count in its seasons by date)."""
    with _open(ctx) as archive:
        _run(lambda: archive.leagues.open_league(club, name, slug, _points(points), rate_solo))
        click.echo(f"league {name!r} opened in {club!r}")


@league.command("configure")
@click.argument("club")
@click.argument("league_slug", metavar="LEAGUE")
@click.option("--points", multiple=True, metavar="RULE=N")
@click.option("--rate-solo/--no-rate-solo", default=None)
@click.pass_context
def configure(ctx, club, league_slug, points, rate_solo):
    """Change a league's points scheme or whether solo games are rated (its seasons are counted again)."""
    with _open(ctx) as archive:
        _run(lambda: archive.leagues.configure_league(club, league_slug, _points(points), rate_solo))
        click.echo("configured")


@league.command("season")
@click.argument("club")
@click.argument("league_slug", metavar="LEAGUE")
@click.argument("name")
@click.option("--slug")
@click.option("--from", "starts_on", help="First day (YYYY-MM-DD); games of the league played from then on count in it.")
@click.option("--to", "ends_on", help="Last day (YYYY-MM-DD).")
@click.pass_context
def season(ctx, club, league_slug, name, slug, starts_on, ends_on):
    """Open a season of a league."""
    with _open(ctx) as archive:
        _run(lambda: archive.leagues.open_season(club, league_slug, name, slug, starts_on, ends_on))
        click.echo(f"season {name!r} opened")


@league.command("place")
@click.argument("game", type=click.UUID)
@click.argument("where", nargs=-1, metavar="[CLUB LEAGUE SEASON]")
@click.option("--reason")
@click.pass_context
def place(ctx, game: UUID, where, reason):
    """Count GAME in a season, or (with no season) in none: a fact, the old placing stays in the history."""
    if len(where) not in (0, 3):
        raise click.BadParameter("give CLUB LEAGUE SEASON, or nothing to take the game out of every season")
    with _open(ctx) as archive:
        _run(lambda: archive.leagues.place_game(game, *(where or (None, None, None)), reason, games=archive.games))
        click.echo("placed" if where else "taken out of every season")


@league.command("hide")
@click.argument("game", type=click.UUID)
@click.option("--reason", required=True, help="Why: a test game, a duplicate of …")
@click.pass_context
def hide(ctx, game: UUID, reason):
    """Hide GAME from standings and ratings (a fact; `show` undoes it)."""
    with _open(ctx) as archive:
        changed = _run(lambda: archive.leagues.hide_game(game, reason, games=archive.games))
        click.echo("hidden" if changed else "already hidden")


@league.command("show")
@click.argument("game", type=click.UUID)
@click.option("--reason")
@click.pass_context
def show(ctx, game: UUID, reason):
    """Count a hidden GAME again."""
    with _open(ctx) as archive:
        changed = _run(lambda: archive.leagues.show_game(game, reason, games=archive.games))
        click.echo("shown" if changed else "was not hidden")


@league.command("adopt")
@click.option("--club", "club_name", default="Archive", show_default=True)
@click.pass_context
def adopt(ctx, club_name):
    """Give every league name found in game headers a league with an open-ended season "All games"."""
    from projections import queries
    from service.league_book import adopt_header_leagues

    with _open(ctx) as archive:
        names = []
        offset = 0
        while True:
            rows = queries.list_games(archive.db, limit=500, offset=offset)
            names += [r["league"] for r in rows if r["league"]]
            if len(rows) < 500:
                break
            offset += 500
        opened = _run(lambda: adopt_header_leagues(archive.leagues, names, club_name))
        click.echo(f"opened {len(opened)} league(s): {', '.join(opened) or 'none needed'}")


@league.command("visibility")
@click.argument("club")
@click.argument("league_slug")
@click.argument("visibility", type=click.Choice(["public", "members"]))
@click.pass_context
def visibility(ctx, club, league_slug, visibility):
    """Make a league public (the default) or members-only: its games and tables are then seen by the club's
    members, recorders and admins only, and are not found (404) for anyone else (decision 0024)."""
    with _open(ctx) as archive:
        _run(lambda: archive.leagues.set_members_only(club, league_slug, visibility == "members"))
        click.echo(f"{club}/{league_slug} is {'members-only' if visibility == 'members' else 'public'}")


@league.command("grant")
@click.argument("club")
@click.argument("player")
@click.argument("role", type=click.Choice(["admin", "recorder", "member"]))
@click.pass_context
def grant(ctx, club, player, role):
    """Record that PLAYER has ROLE in CLUB: admins and recorders record in its leagues, members see its
    members-only leagues (decision 0024; `nemesis-archive user grant` does the same for an account)."""
    with _open(ctx) as archive:
        _run(lambda: archive.leagues.grant_role(club, player, role))
        click.echo("granted")


@league.group("player")
def player() -> None:
    """Players as identities: register, rename, alias, merge."""


@player.command("register")
@click.argument("name")
@click.pass_context
def register(ctx, name):
    with _open(ctx) as archive:
        pid = _run(lambda: archive.leagues.register_player(name))
        click.echo(f"{name!r} registered as {pid}")


@player.command("rename")
@click.argument("who")
@click.argument("name")
@click.pass_context
def rename(ctx, who, name):
    """Rename a player (the old name stays an alias, so old games still link)."""
    with _open(ctx) as archive:
        _run(lambda: archive.leagues.rename_player(who, name))
        click.echo("renamed")


@player.command("alias")
@click.argument("who")
@click.argument("alias")
@click.pass_context
def alias(ctx, who, alias):
    """Another spelling of a player's name: seats with it count as the player."""
    with _open(ctx) as archive:
        _run(lambda: archive.leagues.add_alias(who, alias))
        click.echo("alias added")


@player.command("merge")
@click.argument("duplicate")
@click.argument("into")
@click.option("--reason")
@click.pass_context
def merge(ctx, duplicate, into, reason):
    """DUPLICATE (a player or a seat name) is the same person as INTO: their games and ratings join."""
    with _open(ctx) as archive:
        _run(lambda: archive.leagues.merge_players(duplicate, into, reason))
        click.echo("merged")
