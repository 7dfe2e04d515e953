"""Signing in on a phone: the recorder sends a stranger to the sign-in page and back (decision 0024)."""
from __future__ import annotations

import pytest

from service.errors import InvalidInput

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def ada(served):
    """An account with a password, a site admin (the served archive's games are in no league)."""
    from tests.browser.conftest import SERVED_ARCHIVE

    name, password = "ada-signs-in", "correct horse battery"
    try:
        SERVED_ARCHIVE[0].accounts.create(name, password, site_admin=True)
    except InvalidInput:
        pass
    return name, password


def test_recording_asks_a_stranger_to_sign_in_and_returns_to_the_recorder(served, browser, ada, tmp_path):
    base, games = served
    game = next(iter(games.values()))
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  signed_in=False)
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "401" not in m.text else None)
    page.goto(f"{base}/games/{game.id}/record")
    assert page.url.startswith(f"{base}/sign-in?next=")
    assert page.locator("#who").inner_text().strip() == "Sign in"
    page.fill("input[name=username]", ada[0])
    page.fill("input[name=password]", "not the password")
    page.click("button[type=submit]")
    assert page.locator("#sign-in-error").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll on a phone
    page.screenshot(path=str(tmp_path / "sign-in-390.png"), full_page=True)
    page.fill("input[name=password]", ada[1])
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/games/{game.id}/record")
    assert ada[0] in page.locator("#who").inner_text()
    page.locator("#who button").click()  # sign out
    page.wait_for_url(f"{base}/")
    assert page.locator("#who a").inner_text() == "Sign in"
    assert not errors, errors  # the strict CSP let everything through (the wrong password's 401 aside)
    context.close()


def test_the_sign_in_page_in_polish(served, browser):
    base, _ = served
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="pl-PL", signed_in=False)
    page = context.new_page()
    page.goto(f"{base}/sign-in")
    assert page.locator("h1").inner_text() == "Zaloguj"
    assert page.locator("label").first.inner_text().startswith("Nazwa")
    context.close()


def test_the_account_page_on_a_phone(served, browser):
    """From the header's name to the account page: a token made, shown once, revoked; a wrong current password
    refused; nothing wider than the phone, nothing refused by the CSP (decision 0033)."""
    from tests.browser.conftest import SERVED_ARCHIVE

    base, _ = served
    name, password = "bea-has-an-account", "a long enough password"
    try:
        SERVED_ARCHIVE[0].accounts.create(name, password)
    except InvalidInput:
        pass
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  signed_in=False)
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "40" not in m.text else None)
    page.goto(f"{base}/sign-in?next=/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")
    page.click("#account-link")
    page.wait_for_url(f"{base}/account")
    assert page.locator("h1").inner_text() == "Your account"
    page.fill("#token-form input[name=label]", "phone script")
    page.click("#token-form button[type=submit]")
    secret = page.locator("#new-token code").inner_text()
    assert secret.startswith("na_") and page.evaluate("document.documentElement.scrollWidth") <= 390
    page.goto(f"{base}/account")
    assert secret not in page.content() and page.locator(".token-name").all_inner_texts() == ["phone script"]
    page.click("ul.tokens button.revoke")
    page.wait_for_url(f"{base}/account?done=revoked")
    assert page.locator("#account-done").is_visible() and page.locator(".token-name").count() == 0
    page.fill("input[name=old_password]", "not my password at all")
    page.fill("input[name=new_password]", "a brand new password")
    page.fill("input[name=new_password_again]", "a brand new password")
    page.click("#password-form button[type=submit]")
    assert page.locator("#password-form .error").inner_text() == "the current password is not right"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not errors, errors
    context.close()
