"""The league page in Chromium: standings readable at 390 px (the table scrolls in its own box), as-of picker."""
from __future__ import annotations

import threading

import pytest

from projections.runner import rebuild_views
from projections.views import VIEWS
from service.context import Archive
from service.demo import HERE as DEMO_DIR
from service.notation import import_parsed, read_file
from service.roles import app_database


ORGANISER, ORGANISER_PASSWORD = "organiser", "a long organiser password"


@pytest.fixture(scope="module")
def league_served(pg_server):
    from werkzeug.serving import make_server

    from service.db import drop_database
    from tests.conftest import _new_database
    from web import create_app

    admin = _new_database(pg_server)
    db = app_database(admin)
    archive = Archive(db)
    for p in sorted(DEMO_DIR.glob("*.jsonl")):
        import_parsed(archive.games, read_file(p))
    archive.leagues.found_club("Demo club", "demo-club")
    archive.leagues.open_league("demo-club", "Demo league", "demo-league")  # the demo games' header league
    archive.leagues.open_season("demo-club", "demo-league", "Autumn 2026", "autumn-2026", "2026-09-01", "2026-12-31")
    archive.leagues.register_player("Bartłomiej Wiśniewski-Kowalczyk the Third of Gdańsk")
    archive.leagues.add_alias("Bartłomiej Wiśniewski-Kowalczyk the Third of Gdańsk", "Bartek")  # a long name at 390 px
    archive.accounts.create(ORGANISER, ORGANISER_PASSWORD, site_admin=True)  # the roles page's admin
    rebuild_views(db, list(VIEWS))
    server = make_server("127.0.0.1", 0, create_app({"ARCHIVE": archive}), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    archive.close()
    drop_database(pg_server, admin.name)


def test_standings_at_390px_scroll_in_their_box_and_the_date_picker_works(browser, league_served):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(league_served + "/leagues")
        page.click("text=Autumn 2026")
        page.wait_for_selector("table.standings")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box = page.locator(".standings-box")
        assert box.evaluate("b => getComputedStyle(b).overflowX") == "auto"
        names = page.locator("table.standings td.who").all_inner_texts()
        assert "Bartłomiej Wiśniewski-Kowalczyk the Third of Gdańsk" in names and "Bartek" not in names
        assert len(names) == 7  # Ada (two games), Bartek's owner, Chiara, Dmitri, Ewa, Filip, Greta
        page.fill("#as_of", "2026-11-21")
        page.click("form.as-of button")
        page.wait_for_url("**as_of=2026-11-21")
        assert page.locator("table.standings td.who").count() == 4  # only the Friday game by then
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.click("table.standings td.who >> text=Ada")
        page.wait_for_selector("h1:has-text('Ada')")
        assert page.locator("table.standings tbody tr").count() == 1  # her one rated game by then: the Friday one
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


def test_a_club_admin_registers_a_new_name_and_grants_it_a_role_on_a_phone(browser, league_served):
    """The roles page (decision 0054): registered names are offered; a name nobody registered is asked about, and
    registered with its role only after the admin says so."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  signed_in=False)
    page = context.new_page()
    try:
        page.goto(league_served + "/sign-in")
        page.fill("input[name=username]", ORGANISER)
        page.fill("input[name=password]", ORGANISER_PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_load_state()
        page.goto(league_served + "/clubs/demo-club/roles")
        offered = page.locator("#known-players option").evaluate_all("options => options.map(o => o.value)")
        assert "Bartłomiej Wiśniewski-Kowalczyk the Third of Gdańsk" in offered and "Greta" not in offered
        page.fill("form.grant input[name=player]", "Greta")
        page.select_option("form.grant select[name=role]", "recorder")
        page.click("form.grant button[value=grant]")
        page.wait_for_selector(".confirm")
        assert "Greta" in page.inner_text(".confirm") and "Greta" not in page.inner_text("table.roles")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.click(".confirm button[value=register]")
        page.wait_for_selector("table.roles td:has-text('Greta')")
        assert "recorder" in page.inner_text("table.roles tr:has-text('Greta')")
        assert page.locator(".confirm").count() == 0
    finally:
        context.close()
