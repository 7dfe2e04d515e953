"""The Polish catalogue is complete and compiles; component names come from the seeds' edition (decision 0019)."""
from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from service import i18n
from service.rules import get_ruleset
from service.rules.lockdown.names import display_name, names, table
from web.i18n import LANGUAGES, po_path, translations

ROOT = Path(__file__).resolve().parents[2]


def _extracted() -> dict[object, str]:
    """Every message the sources mark (templates, web/, the story modules), as babel.cfg maps them."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh, filename=str(ROOT / "babel.cfg"))
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
    out = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords):
        out[message] = f"{filename}:{lineno}"
    return out


def test_no_marked_template_message_has_a_bare_percent_sign():
    """Jinja's gettext %-formats every message, so 'Win %' is a 500 at render time ("incomplete format")."""
    import re

    placeholders = re.compile(r"%%|%\(\w+\)[sdr]")
    found = [f"{where}: {m!r}" for m, where in _extracted().items() if where.startswith("web/templates")
             for text in (m if isinstance(m, tuple) else (m,)) if "%" in placeholders.sub("", text)]
    assert not found, "write %% or a %(name)s placeholder:\n" + "\n".join(found)
    # ... and their translations, formatted the same way ("Wygrane (%)" was a 500 in Polish only)
    catalog = _catalog("pl")
    bad = [f"{m.id!r} -> {t!r}" for m in catalog if m.id for t in (m.string if isinstance(m.string, tuple) else (m.string,))
           if t and "%" in placeholders.sub("", t)]
    assert not bad, "write %% in the translation:\n" + "\n".join(bad)


def _catalog(code: str):
    with open(po_path(code), "rb") as fh:
        return read_po(fh, locale=code)


def test_every_marked_message_has_a_polish_translation():
    catalog = _catalog("pl")
    missing = []
    for message, where in _extracted().items():
        entry = catalog.get(message)
        strings = () if entry is None else (entry.string if isinstance(entry.string, tuple) else (entry.string,))
        if entry is None or not all(strings) or entry.fuzzy:
            missing.append(f"{where}: {message!r}")
    assert not missing, "add these to web/translations/pl/LC_MESSAGES/messages.po:\n" + "\n".join(missing)


def test_the_marked_messages_are_many_and_cover_every_page():
    places = {where.split(":")[0] for where in _extracted().values()}
    for template in ("base.html", "games.html", "players.html", "corridors.html", "error.html", "admin_status.html",
                     "replay.html", "details.html", "_step.html", "record.html", "_record_panel.html", "new_game.html"):
        assert f"web/templates/{template}" in places, template


def test_the_catalogue_compiles_and_keeps_the_placeholders():
    catalog = _catalog("pl")
    assert not list(catalog.check()), "babel's checks (placeholders, plural forms) fail"
    pl = translations("pl")
    assert pl.gettext("Games") == "Gry"
    assert pl.gettext("Round %(n)s") % {"n": 3} == "Runda 3"
    assert pl.ngettext("%(num)d fact", "%(num)d facts", 5) % {"num": 5} == "5 faktów"
    assert pl.ngettext("%(num)d fact", "%(num)d facts", 3) % {"num": 3} == "3 fakty"
    assert set(LANGUAGES) == {"en", "pl"}


def test_the_language_in_force_changes_sentences_and_names():
    from service.rules.story import Entry

    entry = Entry(5, 5, 2, "event", "x")
    assert entry.heading == "Round 2 · Event phase"
    with i18n.language("pl", translations("pl")):
        assert entry.heading == "Runda 2 · Faza wydarzeń"
    assert i18n.current() == "en"


@pytest.mark.parametrize("kind, id_, en, pl", [
    ("room", "nest", "Nest", "Gniazdo"),
    ("room", "isolation_room", "Isolation Room", "Izolatka"),
    ("character", "hacker", "Hacker", "Haker"),
    ("intruder", "queen", "Queen", "Królowa"),
    ("item", "medkit", "Medkit", "Apteczka"),
    ("event_card", "coolant_leak", "Coolant Leak", "Wyciek chłodziwa"),
    ("noise", "danger", "danger", "Niebezpieczeństwo"),
    ("exploration", "slime", "slime", "Śluz"),
    ("token", "blank", "blank", "Pusty żeton"),
])
def test_display_names_in_both_languages(kind, id_, en, pl):
    lockdown = get_ruleset("lockdown")
    assert lockdown.display_name(kind, id_, "en") == en
    assert lockdown.display_name(kind, id_, "pl") == pl
    assert set(lockdown.names(kind, id_)) >= {en, pl}


def test_a_name_without_a_printed_polish_one_falls_back_to_english_and_names_any_language():
    assert display_name("event_card", "blue_screen", "pl") == "Blue Screen"  # not in the seeds (rules-gaps.md)
    assert display_name("tile", "Gniazdo", "en") == "Nest"  # the recorder's kind, looked up by the Polish name
    assert display_name("room", "no-such-room", "pl") is None
    assert names("room", "laboratory") == ("Laboratory", "Laboratorium")
    rooms = table()["room"]
    assert all(pl for _en, pl in rooms.values()), "every room tile has its printed Polish name"


def test_no_template_hides_the_gettext_function():
    """``{% for _ in … %}`` would turn every ``_()`` inside the loop into a call of an int (a 500)."""
    import re

    for path in (ROOT / "web" / "templates").glob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"{%-?\s*(for|set)\s+(_|gettext|ngettext)\b", text), path.name


@pytest.fixture
def client():
    """The app without a database: the language machinery, the switch and the error page need none."""
    from web import create_app

    return create_app({"ARCHIVE": None}).test_client()


def test_the_browser_language_picks_the_page_language_and_the_cookie_beats_it(client):
    page = client.get("/no-such-page", headers={"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"})
    assert page.status_code == 404 and 'lang="pl"' in page.text and "Wróć do listy gier" in page.text
    assert page.headers["Content-Language"] == "pl" and {"Accept-Language", "Cookie"} <= set(page.vary)
    english = client.get("/no-such-page", headers={"Accept-Language": "de-DE,en;q=0.8"})
    assert 'lang="en"' in english.text and "Back to the games" in english.text
    client.get("/no-such-page?lang=en")  # ?lang= is remembered
    kept = client.get("/no-such-page", headers={"Accept-Language": "pl"})
    assert 'lang="en"' in kept.text


def test_the_switch_remembers_the_choice_and_returns_only_to_this_site(client):
    back = client.get("/language/pl?next=/games/x/step/3", headers={"Referer": "http://localhost/games/x/step/7?as=all"})
    assert back.status_code == 303 and back.headers["Location"] == "/games/x/step/7?as=all"
    assert "lang=pl" in back.headers["Set-Cookie"]
    assert client.get("/language/en?next=/players").headers["Location"] == "/players"
    for hostile in ("//evil.example/x", "https://evil.example/", "javascript:alert(1)", "/\\evil.example/x"):
        assert client.get("/language/pl", query_string={"next": hostile}).headers["Location"] == "/"
    assert client.get("/language/pl", headers={"Referer": "https://evil.example/x"}).headers["Location"] == "/"
    refused = client.get("/language/de")
    assert refused.status_code == 400 and "&#39;de&#39;" in refused.text and "en, pl" in refused.text


def test_the_json_api_stays_english_whatever_the_browser_asks():
    from web import create_app

    app = create_app({"ARCHIVE": None})
    for path, expected in (("/api/openapi.json", "en"), ("/players", "pl")):
        with app.test_request_context(path, headers={"Accept-Language": "pl"}):
            app.preprocess_request()
            assert i18n.current() == expected, path
            app.do_teardown_request()
    assert i18n.current() == "en"


def _demo_replay():
    from service.demo import HERE
    from service.notation import read_file
    from service.rules.base import Fact, Seat, Setup
    from service.rules.replay import fold

    g = read_file(HERE / "club-three-players.jsonl")
    h = g.header
    setup = Setup(players=tuple(Seat(p["seat"], p["name"]) for p in h["players"]), mode=h.get("mode", "standard"),
                  options=h.get("options") or {})
    facts = [Fact(f["seq"], f["type"], f.get("data") or {}, f.get("actor"), f.get("visibility", "public")) for f in g.facts]
    return lambda: fold(get_ruleset("lockdown"), setup, facts, True)


def test_a_fold_is_the_same_in_every_language_and_only_the_telling_differs():
    """Folds are cached across readers and their flags stored: consequences and violations must not
    depend on the reader's language; the story, told per language, does."""
    from service.rules.story import tell

    fold_demo = _demo_replay()
    english = fold_demo()
    with i18n.language("pl", translations("pl")):
        polish = fold_demo()
        told_pl = " ".join(e.text for e in tell(polish).entries)
    def texts(rp):
        return [[c.text for c in s.consequences] + [v.message for v in s.violations] for s in rp.steps]
    assert texts(polish) == texts(english)
    told_en = " ".join(e.text for e in tell(english).entries)
    rooms = [(en, pl) for en, pl in table()["room"].values() if f"the {en}" in told_en]
    assert rooms, "the demo story names rooms"
    for en, pl in rooms:
        assert pl in told_pl and f"the {en}" not in told_pl
    assert "przechodzi do" in told_pl and "moves to" in told_en


def test_every_text_record_js_translates_is_passed_by_its_page():
    """record.js looks its texts up in record.html's data-i18n; one missing there stays English."""
    import re

    script = (ROOT / "web" / "static" / "record.js").read_text(encoding="utf-8")
    page = (ROOT / "web" / "templates" / "record.html").read_text(encoding="utf-8")
    asked = set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', script))
    assert asked, "record.js translates its texts with t()"
    missing = [text for text in asked if f'"{text}": _("{text}")' not in page]
    assert not missing, missing


def test_objective_cards_as_recorded_are_named_with_their_values():
    from service.rules import get_ruleset

    lockdown = get_ruleset("lockdown")
    assert lockdown.display_name("objectives", "sole_survivor", "en") == "Your character is the only survivor"
    named = lockdown.display_name("objective", "sectors_explored:S-01,S-02", "pl")
    assert named.endswith("[S-01, S-02]") and named.startswith("Wszystkie pomieszczenia")
    assert lockdown.display_name("objectives", "no_such_card:1", "en") is None


def test_a_board_drawn_in_polish_first_is_still_english_for_the_next_english_reader():
    """The drawing caches its room cards: the cache must key on the language (a Polish reader's
    'zakryty' leaked into English pages drawn after it)."""
    from service.rules.lockdown import svg
    from service.rules.base import Seat, Setup

    lockdown = get_ruleset("lockdown")
    for cached in (svg._card_top_in, svg._port_in, svg._track_spaces_in, svg._honesty_lines_in):
        cached.cache_clear()
    from service.rules.lockdown.components import board

    state = lockdown.initial_state(Setup(players=(Seat(1, "A"), Seat(2, "B")), mode="standard", options={}))
    graph = board("synthetic")  # the printed boards declare no corridors: the test board's ports have tooltips
    place = next(p for p in svg.layout("synthetic").cards if graph.numbers_of(p))
    port = graph.numbers_of(place)[0]
    with i18n.language("pl", translations("pl")):
        polish = lockdown.draw(state) + svg._port("synthetic", svg.WIDE, place, port)
    assert "zakryty" in polish
    # the tooltips too (decision 0028): time track, corridors, room cards
    assert "<title>Pole czasu 15</title>" in polish and "Tor czasu:" in polish and "<title>Korytarz " in polish
    assert "w ciemności" in polish or "sektor S-0" in polish
    assert "Schemat, nie drukowana plansza" in polish and "Winda: bez zasilania" in polish
    for english_word in ("Time space", "<title>Corridor ", "Time track:", "in darkness", "CSS token under",
                         "Schematic, not the printed board", "Elevator: "):
        assert english_word not in polish, english_word
    english = lockdown.draw(state) + svg._port("synthetic", svg.WIDE, place, port)
    assert "face down" in english and "zakryty" not in english
    assert "<title>Time space 15</title>" in english and "<title>Corridor " in english and "Pole czasu" not in english
    assert "Schematic, not the printed board" in english and "Schemat, nie" not in english


def test_every_fact_type_has_a_title_in_both_languages():
    """The recorder's buttons name facts as people do ("Move", "Ruch"), never by their notation ids."""
    from service.rules.lockdown.facts import FACTS

    lockdown = get_ruleset("lockdown")
    for type_ in FACTS:
        english, polish = lockdown.display_name("fact", type_, "en"), lockdown.display_name("fact", type_, "pl")
        assert english and polish and english != type_, type_
    assert (lockdown.display_name("fact", "CharacterMovedCarefully", "en"),
            lockdown.display_name("fact", "CharacterMovedCarefully", "pl")) == ("Careful move", "Ostrożny ruch")
