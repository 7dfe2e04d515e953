"""Statistics pages in Chromium: the character and death-cause charts and a player's profile, readable at 390 px
under the strict Content-Security-Policy (nothing refused), each chart with its table and a CSV link."""
from __future__ import annotations

import re
import threading

import pytest

from projections.league import implicit_player
from projections.runner import rebuild_views
from projections.views import VIEWS
from service.context import Archive
from service.demo import HERE as DEMO_DIR
from service.demo.league import load_demo_league
from service.notation import import_parsed, read_file
from service.roles import app_database

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def stats_served(pg_server):
    from werkzeug.serving import make_server

    from service.db import drop_database
    from tests.conftest import _new_database
    from web import create_app

    admin = _new_database(pg_server)
    db = app_database(admin)
    archive = Archive(db)
    for p in sorted(DEMO_DIR.glob("*.jsonl")):
        import_parsed(archive.games, read_file(p))
    load_demo_league(archive.games, archive.leagues, count=4)
    rebuild_views(db, list(VIEWS))
    server = make_server("127.0.0.1", 0, create_app({"ARCHIVE": archive}), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    archive.close()
    drop_database(pg_server, admin.name)


def _refusals(page) -> list[str]:
    found: list[str] = []
    page.on("console", lambda m: found.append(m.text) if "Content Security Policy" in m.text else None)
    return found


def _chart_fits(page, selector: str) -> dict:
    """The chart image loaded, fits the phone, and its smallest text is drawn at a readable size."""
    img = page.locator(selector)
    img.scroll_into_view_if_needed()  # the charts load lazily
    img.evaluate("i => i.complete ? true : new Promise(r => { i.addEventListener('load', r); i.addEventListener('error', r); })")
    return img.evaluate("""img => ({loaded: img.naturalWidth > 0, width: img.getBoundingClientRect().width,
        right: img.getBoundingClientRect().right})""")


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_charts_tables_and_csv_at_390px(browser, stats_served, lang):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    refused = _refusals(page)
    try:
        page.goto(f"{stats_served}/language/{lang}")
        for section, table in (("characters", "characters"), ("deaths", "death_causes")):
            page.goto(f"{stats_served}/statistics/{section}")
            img = f"#t-{table} figure.chart img"
            chart = _chart_fits(page, img)
            assert chart["loaded"] and 300 <= chart["width"] <= 390 and chart["right"] <= 390
            assert page.locator(f"#t-{table} table.numbers tbody tr").count() >= 1
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            link = page.locator(f"#t-{table} .csv a")
            with page.expect_download() as dl:
                link.click()
            text = open(dl.value.path(), encoding="utf-8").read()
            assert text.splitlines()[0].startswith("key,") and len(text.splitlines()) >= 2
        # the chart's own text: its smallest type, scaled from the 400-unit drawing to the image's width, ≥ 14 px
        svg = page.request.get(f"{stats_served}/statistics/deaths/death_causes.svg")
        sizes = [int(n) for n in re.findall(r"font-size:\s*(\d+)px", svg.text())]
        assert svg.ok and sizes and min(sizes) * chart["width"] / 400 >= 14
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(f"{stats_served}/statistics/characters?players=3")
        assert page.locator("select[name=players] option:checked").inner_text() == "3"
        assert refused == []
    finally:
        context.close()


def test_a_players_profile_with_rating_chart_at_390px(browser, stats_served):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    refused = _refusals(page)
    try:
        page.goto(f"{stats_served}/leagues")
        page.click("text=Autumn 2026")
        page.click("table.standings td.who >> text=Ada")
        page.click("text=Profile")
        page.wait_for_selector("h1:has-text('Ada')")
        chart = _chart_fits(page, "#t-ratings figure.chart img")
        assert chart["loaded"] and chart["right"] <= 390
        assert page.locator("#t-games tbody tr").count() >= 2  # Ada and "Ada L." are one player
        assert page.locator("#t-characters tbody tr").count() >= 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert refused == []
    finally:
        context.close()


def test_the_seasons_rating_chart_at_390px(browser, stats_served):
    """The season page charts everyone's rating over time beside its standings, and the as-of picker redraws it."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    refused = _refusals(page)
    try:
        page.goto(f"{stats_served}/leagues/demo-club/demo-league/autumn-2026")
        chart = _chart_fits(page, "#season-ratings figure.chart img")
        assert chart["loaded"] and 300 <= chart["width"] <= 390 and chart["right"] <= 390
        svg = page.request.get(f"{stats_served}/leagues/demo-club/demo-league/autumn-2026/ratings.svg")
        names = page.locator("table.standings td.who a").all_inner_texts()
        assert svg.ok and names and all(n in svg.text() for n in names)  # one line per player in the table
        page.fill("#as_of", "2026-09-10")
        page.click("form.as-of button")
        page.wait_for_url("**as_of=2026-09-10")
        assert "as_of=2026-09-10" in page.locator("#season-ratings img").get_attribute("src")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert refused == []
    finally:
        context.close()
