"""``nemesis-archive user …`` and ``token …``: accounts, their roles and API tokens (decision 0024).

A password is typed at a prompt (never an argument, which shell history keeps) or generated and
printed once; an API token is printed once and only its hash is stored.
"""
from __future__ import annotations

from uuid import UUID

import click

from service.accounts import new_password
from web.cli_league import _open, _run


@click.group()
def user() -> None:
    """Accounts of the people who record: add, list, password, grant and revoke roles in a club."""


def _player_of(archive, username: str) -> UUID:
    """The registry player the account acts as; registered under the account's name if it has none yet."""
    row = archive.accounts.find(username)
    if row["player_id"] is not None:
        return row["player_id"]
    found = archive.leagues.registry().find(row["username"])
    pid = found or archive.leagues.register_player(row["username"])
    archive.accounts.link_player(username, pid)
    return pid


@user.command("add")
@click.argument("username")
@click.option("--player", help="The registered player this account is (default: a player of the account's name).")
@click.option("--site-admin", is_flag=True, help="May record anywhere and manage every club.")
@click.option("--generate", is_flag=True, help="Make up a password and print it once, instead of asking.")
@click.pass_context
def add(ctx, username, player, site_admin, generate):
    """Create an account (asks for its password twice)."""
    password = new_password() if generate else click.prompt("password", hide_input=True, confirmation_prompt=True)
    with _open(ctx) as archive:
        pid = None
        if player:
            pid = archive.leagues.registry().find(player)
            if pid is None:
                pid = _run(lambda: archive.leagues.register_player(player))
        _run(lambda: archive.accounts.create(username, password, site_admin=site_admin, player_id=pid))
        click.echo(f"account {username!r} created" + (" (site admin)" if site_admin else ""))
        if generate:
            click.echo(f"password (shown once): {password}")


@user.command("list")
@click.pass_context
def list_(ctx):
    """Every account, whether it is a site admin, and whether it is disabled."""
    with _open(ctx) as archive:
        for row in archive.accounts.list():
            flags = [f for f, on in (("site admin", row["site_admin"]), ("disabled", row["disabled_at"])) if on]
            click.echo(f"{row['username']}" + (f"  ({', '.join(flags)})" if flags else ""))


@user.command("password")
@click.argument("username")
@click.option("--generate", is_flag=True, help="Make up a password and print it once.")
@click.pass_context
def password(ctx, username, generate):
    """Set a new password (signs the account out everywhere)."""
    new = new_password() if generate else click.prompt("new password", hide_input=True, confirmation_prompt=True)
    with _open(ctx) as archive:
        _run(lambda: archive.accounts.set_password(username, new))
        click.echo("password changed" + (f"; new password (shown once): {new}" if generate else ""))


@user.command("disable")
@click.argument("username")
@click.pass_context
def disable(ctx, username):
    """No more sign-in; its sessions end and its tokens are revoked."""
    with _open(ctx) as archive:
        _run(lambda: archive.accounts.disable(username))
        click.echo("disabled")


@user.command("grant")
@click.argument("username")
@click.argument("club")
@click.argument("role", type=click.Choice(["admin", "recorder", "member"]))
@click.pass_context
def grant(ctx, username, club, role):
    """Give USERNAME's player ROLE in CLUB (a RoleGranted fact)."""
    with _open(ctx) as archive:
        pid = _run(lambda: _player_of(archive, username))
        _run(lambda: archive.leagues.grant_role(club, pid, role))
        click.echo("granted")


@user.command("revoke")
@click.argument("username")
@click.argument("club")
@click.argument("role", type=click.Choice(["admin", "recorder", "member"]))
@click.pass_context
def revoke(ctx, username, club, role):
    """Take ROLE in CLUB back from USERNAME's player (a RoleRevoked fact)."""
    with _open(ctx) as archive:
        pid = _run(lambda: _player_of(archive, username))
        _run(lambda: archive.leagues.revoke_role(club, pid, role))
        click.echo("revoked")


@click.group()
def token() -> None:
    """API tokens: issue (printed once), list, revoke."""


@token.command("issue")
@click.argument("username")
@click.option("--label", default="token", show_default=True, help="What it is for (a script, a tablet).")
@click.pass_context
def issue(ctx, username, label):
    """Print a new API token for USERNAME (send it as `Authorization: Bearer TOKEN`)."""
    with _open(ctx) as archive:
        token_id, secret = _run(lambda: archive.accounts.issue_token(username, label))
        click.echo(f"token {token_id} ({label}); shown once, keep it secret:")
        click.echo(secret)


@token.command("list")
@click.argument("username")
@click.pass_context
def list_tokens(ctx, username):
    with _open(ctx) as archive:
        for t in _run(lambda: archive.accounts.tokens(username)):
            state = "revoked" if t["revoked_at"] else f"last used {t['last_used_at']:%Y-%m-%d}" if t["last_used_at"] else "unused"
            click.echo(f"{t['token_id']}  {t['label']}  {state}")


@token.command("revoke")
@click.argument("token_id", type=click.UUID)
@click.pass_context
def revoke_token(ctx, token_id):
    with _open(ctx) as archive:
        if not archive.accounts.revoke_token(token_id):
            click.secho(f"no live token {token_id}", fg="red", err=True)
            raise SystemExit(1)
        click.echo("revoked")
