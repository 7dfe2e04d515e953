"""The Content-Security-Policy in a real browser: every page works under it and nothing is refused."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def refusals(page) -> list[str]:
    """Collect Chromium's console reports of what the policy refused on ``page``."""
    found: list[str] = []
    page.on("console", lambda m: found.append(m.text) if "Content Security Policy" in m.text else None)
    return found


def test_every_page_renders_and_steps_under_the_policy(served, page):
    base, games = served
    refused = refusals(page)
    game = games["Friday night, four players"]
    for path in ["/", "/players", "/boards/basic/corridors", "/account", f"/games/{game.id}/step/0"]:
        response = page.goto(base + path)
        assert response.status == 200 and "script-src 'self'" in response.headers["content-security-policy"]
    # the stylesheet applied and the replay script ran (it steps without reloading)
    assert page.evaluate("getComputedStyle(document.querySelector('header.top')).display") == "flex"
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#step-panel[data-seq="1"]')
    assert refused == []


def test_the_policy_refuses_what_it_should(served, page):
    """The check above can fail: a script injected into a page is refused and reported."""
    base, _ = served
    refused = refusals(page)
    page.goto(base + "/")
    page.evaluate("""() => {
        const s = document.createElement('script');
        s.textContent = 'window.injected = true';
        document.body.appendChild(s);
    }""")
    page.wait_for_timeout(200)
    assert page.evaluate("window.injected === undefined")
    assert any("script-src" in text for text in refused)
