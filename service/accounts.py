"""Accounts of the people who record, their sign-in sessions and API tokens; who may write what (decision 0024).

Accounts are plain tables (migration 0008): a password hash, a session and a token are secrets to
replace and revoke, never history. Roles are facts of a club (``Club.RoleGranted``/``RoleRevoked``,
decision 0020) naming a registry player; an account acts as one player (``player_id``).

- Passwords: argon2id (argon2-cffi's defaults), at least ``MIN_PASSWORD`` characters.
- Sessions and API tokens: 256 random bits shown once (the cookie / the CLI's output), stored as
  SHA-256 — a fast hash is enough for a value nobody can guess, and it is looked up on every request.
- Rights (:func:`Rights.can_write_club`): a site admin writes everywhere; in a club, its ``admin``s
  and ``recorder``s write, ``member``s only read. A game outside every league is written by a
  site admin or by anyone who records (recorder or admin) in at least one club.
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Mapping
from uuid import UUID, uuid4

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from psycopg.rows import dict_row

from service import hygiene
from service.db import Database
from service.errors import ArchiveError, InvalidInput
from service.league import name_key
from service.readpool import read_rows

MIN_PASSWORD = 10
MAX_PASSWORD = 1000  # the sign-in form reads no more than this
SESSION_DAYS = 30
WRITE_ROLES = frozenset({"admin", "recorder"})
_hasher = PasswordHasher()


class AccountNotFound(ArchiveError):
    status = 404


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_password() -> str:
    """A password to print once (e.g. ``make demo``'s local admin): 16 URL-safe characters, ~96 bits."""
    return secrets.token_urlsafe(12)


@dataclass(frozen=True)
class Account:
    account_id: UUID
    username: str
    player_id: UUID | None
    site_admin: bool
    via: str = "session"  # or "token": how this request proved it (CSRF is asked of sessions only)
    roles: dict[UUID, frozenset[str]] = field(default_factory=dict, compare=False)


class Accounts:
    """Account rows over ``db`` (the service's own login may read and write them)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- accounts --

    def create(self, username: str, password: str | None, *, site_admin: bool = False,
               player_id: UUID | None = None) -> UUID:
        username = " ".join(str(username).split())
        if not username:
            raise InvalidInput("username must not be empty", field="username")
        hygiene.check_text(username, "username", hygiene.MAX_NAME)
        if password is not None and len(password) < MIN_PASSWORD:
            raise InvalidInput(f"password must have at least {MIN_PASSWORD} characters", field="password")
        account_id = uuid4()
        with self.db.connect() as conn:
            row = conn.execute(
                "INSERT INTO accounts (account_id, username, username_key, password_hash, player_id, site_admin)"
                " VALUES (%s,%s,%s,%s,%s,%s) ON CONFLICT (username_key) DO NOTHING RETURNING account_id",
                (account_id, username, name_key(username), _hasher.hash(password) if password else None, player_id,
                 site_admin),
            ).fetchone()
        if row is None:
            raise InvalidInput(f"username {username!r} is taken", field="username")
        return account_id

    def find(self, username: str) -> dict[str, Any]:
        with self.db.connect(row_factory=dict_row) as conn:
            row = conn.execute("SELECT * FROM accounts WHERE username_key = %s", (name_key(username),)).fetchone()
        if row is None:
            raise AccountNotFound(f"no account {username!r}", field="username")
        return row

    def list(self) -> list[dict[str, Any]]:
        with self.db.connect(row_factory=dict_row) as conn:
            return conn.execute(
                "SELECT account_id, username, player_id, site_admin, created_at, disabled_at FROM accounts ORDER BY username_key"
            ).fetchall()

    def set_password(self, username: str, password: str) -> None:
        if len(password) < MIN_PASSWORD:
            raise InvalidInput(f"password must have at least {MIN_PASSWORD} characters", field="password")
        row = self.find(username)
        with self.db.connect() as conn:
            conn.execute("UPDATE accounts SET password_hash = %s WHERE account_id = %s", (_hasher.hash(password), row["account_id"]))
            conn.execute("DELETE FROM account_sessions WHERE account_id = %s", (row["account_id"],))

    def change_password(self, account_id: UUID, old: str, new: str, keep_session: str | None = None) -> None:
        """The account's own change (the account page): the current password is asked first. Every other
        sign-in session of the account ends; ``keep_session`` (the one making the change) stays."""
        with self.db.connect(row_factory=dict_row) as conn:
            row = conn.execute("SELECT password_hash FROM accounts WHERE account_id = %s AND disabled_at IS NULL",
                               (account_id,)).fetchone()
        try:
            if row is None or row["password_hash"] is None:
                raise VerifyMismatchError
            _hasher.verify(row["password_hash"], old)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            raise InvalidInput("the current password is not right", field="old_password") from None
        if len(new) < MIN_PASSWORD:
            raise InvalidInput(f"the new password must have at least {MIN_PASSWORD} characters", field="new_password")
        if len(new) > MAX_PASSWORD:
            raise InvalidInput(f"the new password must have at most {MAX_PASSWORD} characters", field="new_password")
        with self.db.connect() as conn:
            conn.execute("UPDATE accounts SET password_hash = %s WHERE account_id = %s", (_hasher.hash(new), account_id))
            conn.execute("DELETE FROM account_sessions WHERE account_id = %s AND token_hash <> %s",
                         (account_id, _digest(keep_session) if keep_session else ""))

    def link_player(self, username: str, player_id: UUID) -> None:
        row = self.find(username)
        with self.db.connect() as conn:
            conn.execute("UPDATE accounts SET player_id = %s WHERE account_id = %s", (player_id, row["account_id"]))

    def set_site_admin(self, username: str, on: bool) -> None:
        row = self.find(username)
        with self.db.connect() as conn:
            conn.execute("UPDATE accounts SET site_admin = %s WHERE account_id = %s", (on, row["account_id"]))

    def disable(self, username: str) -> None:
        """No more sign-in, sessions or tokens for this account (its rows stay, for the record)."""
        row = self.find(username)
        with self.db.connect() as conn:
            conn.execute("UPDATE accounts SET disabled_at = now() WHERE account_id = %s", (row["account_id"],))
            conn.execute("DELETE FROM account_sessions WHERE account_id = %s", (row["account_id"],))
            conn.execute("UPDATE api_tokens SET revoked_at = now() WHERE account_id = %s AND revoked_at IS NULL",
                         (row["account_id"],))

    # -- sign-in --

    def sign_in(self, username: str, password: str) -> str | None:
        """A new session's secret (for the cookie), or None when the name or the password is wrong."""
        with self.db.connect(row_factory=dict_row) as conn:
            row = conn.execute("SELECT account_id, password_hash FROM accounts WHERE username_key = %s AND disabled_at IS NULL",
                               (name_key(username),)).fetchone()
        stored = row["password_hash"] if row else None
        try:
            if stored is None:
                _hasher.verify(_DUMMY_HASH, password)  # the same work whether or not the name exists
                return None
            _hasher.verify(stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return None
        secret = secrets.token_urlsafe(32)
        with self.db.connect() as conn:
            if _hasher.check_needs_rehash(stored):
                conn.execute("UPDATE accounts SET password_hash = %s WHERE account_id = %s",
                             (_hasher.hash(password), row["account_id"]))
            conn.execute("DELETE FROM account_sessions WHERE expires_at < now()")
            conn.execute("INSERT INTO account_sessions (token_hash, account_id, expires_at) VALUES (%s,%s,%s)",
                         (_digest(secret), row["account_id"], datetime.now(timezone.utc) + timedelta(days=SESSION_DAYS)))
        return secret

    def open_session(self, username: str) -> str:
        """A session without a password (tests, and a future one-time link): the caller vouches for it."""
        row = self.find(username)
        secret = secrets.token_urlsafe(32)
        with self.db.connect() as conn:
            conn.execute("INSERT INTO account_sessions (token_hash, account_id, expires_at) VALUES (%s,%s,%s)",
                         (_digest(secret), row["account_id"], datetime.now(timezone.utc) + timedelta(days=SESSION_DAYS)))
        return secret

    def sign_out(self, secret: str) -> None:
        with self.db.connect() as conn:
            conn.execute("DELETE FROM account_sessions WHERE token_hash = %s", (_digest(secret),))

    def by_session(self, secret: str) -> Account | None:
        return self.run_lookup(self.lookup_statement("session", secret))

    # -- API tokens --

    def issue_token(self, username: str, label: str) -> tuple[UUID, str]:
        """A new token (id, secret); the secret is shown once and only its hash is kept."""
        label = " ".join(str(label).split()) or "token"
        hygiene.check_text(label, "label", hygiene.MAX_NAME)
        row = self.find(username)
        token_id, secret = uuid4(), "na_" + secrets.token_urlsafe(32)
        with self.db.connect() as conn:
            conn.execute("INSERT INTO api_tokens (token_id, token_hash, account_id, label) VALUES (%s,%s,%s,%s)",
                         (token_id, _digest(secret), row["account_id"], label))
        return token_id, secret

    def revoke_token(self, token_id: UUID, account_id: UUID | None = None) -> bool:
        """Revoke a token (``account_id``: only if it is that account's own, as the account page asks)."""
        with self.db.connect() as conn:
            return conn.execute("UPDATE api_tokens SET revoked_at = now() WHERE token_id = %s AND revoked_at IS NULL"
                                " AND (%s::uuid IS NULL OR account_id = %s)", (token_id, account_id, account_id)).rowcount == 1

    def tokens(self, username: str) -> list[dict[str, Any]]:
        row = self.find(username)
        with self.db.connect(row_factory=dict_row) as conn:
            return conn.execute("SELECT token_id, label, created_at, revoked_at, last_used_at FROM api_tokens"
                                " WHERE account_id = %s ORDER BY created_at", (row["account_id"],)).fetchall()

    def by_token(self, secret: str) -> Account | None:
        return self.run_lookup(self.lookup_statement("token", secret))

    def lookup_statement(self, via: str, secret: str) -> tuple[tuple[str, dict], str] | None:
        """The statement that finds the account of a ``via`` ("token" or "session") secret, and ``via``: for
        :meth:`account_of` its rows, sent alone (``by_token``, ``by_session``) or with other statements in one
        borrowing (the write gate, decision 0052). None: a secret no account can have."""
        if not secret or len(secret) > 100:
            return None
        return (_LOOKUPS[via], {"h": _digest(secret)}), via

    @staticmethod
    def account_of(rows: list[Mapping[str, Any]], via: str) -> Account | None:
        if not rows:
            return None
        row = rows[0]
        return Account(row["account_id"], row["username"], row["player_id"], row["site_admin"], via)

    def run_lookup(self, lookup: tuple[tuple[str, dict], str] | None) -> Account | None:
        if lookup is None:
            return None
        # every request asks: one statement, committed as it runs, on an unchecked pooled connection (decision 0052)
        statement, via = lookup
        return self.account_of(read_rows(self.db, [statement])[0], via)


_LOOKUPS = {
    "session": "SELECT a.* FROM account_sessions s JOIN accounts a USING (account_id)"
               " WHERE s.token_hash = %(h)s AND s.expires_at > now() AND a.disabled_at IS NULL",
    "token": "WITH used AS (UPDATE api_tokens SET last_used_at = now() WHERE token_hash = %(h)s AND revoked_at IS NULL"
             " AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute'))"  # one write a minute at most
             " SELECT a.* FROM api_tokens t JOIN accounts a USING (account_id)"
             " WHERE t.token_hash = %(h)s AND t.revoked_at IS NULL AND a.disabled_at IS NULL",
}


_DUMMY_HASH = _hasher.hash("not a password anyone has")
