"""One's own account page (decision 0033): password, API tokens, club roles; signed in, with CSRF on every form."""
from __future__ import annotations

import re

from tests.helpers import anonymous_client, client_as
from tests.integration.test_accounts import _append, _sign_in, world  # noqa: F401 (a fixture)

PASSWORD = "a long password"


def _csrf(page) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)


def test_the_account_page_needs_signing_in(world):
    _a, app, _games, tokens = world
    nobody = anonymous_client(app)
    r = nobody.get("/account")
    assert r.status_code == 303 and r.headers["Location"] == "/sign-in?next=/account"
    csrf = _csrf(nobody.get("/sign-in"))
    r = nobody.post("/account/tokens", data={"csrf_token": csrf, "label": "x"})
    assert r.status_code == 303 and r.headers["Location"].startswith("/sign-in")
    assert "/account" not in nobody.get("/").get_data(as_text=True)  # the header offers "Sign in" instead
    alice = anonymous_client(app)
    _sign_in(alice, "Alice", PASSWORD)
    assert 'href="/account"' in alice.get("/").get_data(as_text=True)  # the header links to it


def test_it_lists_the_clubs_roles_and_tokens_of_the_account(world):
    a, app, _games, _tokens = world
    a.leagues.grant_role("club-b", "Alice", "admin")
    alice = anonymous_client(app)
    _sign_in(alice, "Alice", PASSWORD)
    page = alice.get("/account")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert re.search(r"<b>Club A</b>: recorder", text) and re.search(r"<b>Club B</b>: admin", text)
    assert 'href="/clubs/club-b/roles"' in text and 'href="/clubs/club-a/roles"' not in text  # admin of B only
    assert '<span class="token-name">tests</span>' in text and "never used" in text  # the fixture's, not used yet
    mia = anonymous_client(app)
    _sign_in(mia, "Mia", PASSWORD)
    text = mia.get("/account").get_data(as_text=True)
    assert re.search(r"<b>Club A</b>: member", text) and "Club B" not in text and "tests</span>" in text
    polish = mia.get("/account", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert "Twoje konto" in polish and "członek" in polish


def test_a_token_is_created_shown_once_works_and_is_revoked(world):
    a, app, games, tokens = world
    alice = anonymous_client(app)
    _sign_in(alice, "Alice", PASSWORD)
    csrf = _csrf(alice.get("/account"))
    assert alice.post("/account/tokens", data={"label": "tablet"}).status_code == 403  # no CSRF token: refused
    assert alice.post("/account/tokens", data={"csrf_token": csrf, "label": " "}).status_code == 400
    r = alice.post("/account/tokens", data={"csrf_token": csrf, "label": "shelf tablet"})
    assert r.status_code == 201 and r.headers["Cache-Control"] == "no-store"
    secret = re.search(r"<code>(na_[A-Za-z0-9_-]+)</code>", r.get_data(as_text=True)).group(1)
    assert _append(client_as(app, secret), games["A"]).status_code == 201  # records as Alice
    again = alice.get("/account").get_data(as_text=True)
    assert secret not in again and '<span class="token-name">shelf tablet</span>' in again  # listed by name, never shown again
    assert "last used" in again
    (mine,) = [t for t in a.accounts.tokens("Alice") if t["label"] == "shelf tablet"]
    mias = a.accounts.tokens("Mia")[0]["token_id"]
    assert alice.post(f"/account/tokens/{mias}/revoke", data={"csrf_token": csrf}).status_code == 404  # not hers
    assert client_as(app, tokens["Mia"]).get("/api/games").status_code == 200
    assert alice.post(f"/account/tokens/{mine['token_id']}/revoke").status_code == 403  # no CSRF token
    r = alice.post(f"/account/tokens/{mine['token_id']}/revoke", data={"csrf_token": csrf})
    assert r.status_code == 303 and r.headers["Location"] == "/account?done=revoked"
    assert _append(client_as(app, secret), games["A"], 1).status_code == 401
    assert "shelf tablet" not in alice.get("/account").get_data(as_text=True)
    assert alice.post(f"/account/tokens/{mine['token_id']}/revoke", data={"csrf_token": csrf}).status_code == 404


def test_the_password_changes_only_with_the_current_one_and_ends_other_sign_ins(world):
    a, app, _games, _tokens = world
    here, elsewhere = anonymous_client(app), anonymous_client(app)
    _sign_in(here, "Alice", PASSWORD)
    _sign_in(elsewhere, "Alice", PASSWORD)
    csrf = _csrf(here.get("/account"))

    def change(old, new, again=None, token=csrf):
        return here.post("/account/password", data={"csrf_token": token, "old_password": old, "new_password": new,
                                                      "new_password_again": new if again is None else again})

    assert change(PASSWORD, "a new long password", token="").status_code == 403
    r = change("not my password", "a new long password")
    assert r.status_code == 400 and "current password is not right" in r.get_data(as_text=True)
    r = change(PASSWORD, "a new long password", "a different one")
    assert r.status_code == 400 and "differ" in r.get_data(as_text=True)
    r = change(PASSWORD, "short")
    assert r.status_code == 400 and "at least 10 characters" in r.get_data(as_text=True)
    assert a.accounts.sign_in("Alice", PASSWORD) is not None  # nothing changed so far
    r = change(PASSWORD, "a new long password")
    assert r.status_code == 303 and r.headers["Location"] == "/account?done=password"
    assert a.accounts.sign_in("Alice", PASSWORD) is None and a.accounts.sign_in("Alice", "a new long password")
    with a.db.connect() as conn:
        (hashed,) = conn.execute("SELECT password_hash FROM accounts WHERE username = 'Alice'").fetchone()
    assert hashed.startswith("$argon2id$")
    assert here.get("/account").status_code == 200  # this sign-in goes on
    assert elsewhere.get("/account").status_code == 303  # the other one has ended
