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
