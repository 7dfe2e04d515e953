"""The recorder and the replay in Polish (decision 0023): field names, the rules' notes and hints, and the rules'
refusals in Polish at every step of a game, and the action cards picked from a list by either language's name."""
from __future__ import annotations

import html
import json
import re

import pytest

from service.rules.lockdown import LOCKDOWN
from service.rules.lockdown.components import ACTION_CARDS, load
from service.rules.lockdown.facts import FACTS
from service.samples import generated
from service.schemas import GameHeaderSchema

WORDS = load("recorder_words")
# every English field name the recorder could show, where Polish names it otherwise
ENGLISH_FIELDS = {en for en, pl in WORDS["fields"].values() if en != pl}


@pytest.fixture
def client(archive):
    from web import create_app

    c = create_app({"ARCHIVE": archive, "TESTING": True, "WRITE_LIMIT": None}).test_client()
    page = c.get("/games/new").get_data(as_text=True)
    c.environ_base["HTTP_X_CSRF_TOKEN"] = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return c


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", fragment)).strip()


def _english_left(page: str, state) -> list[str]:
    """What of the English the rules would say here is left on a Polish recorder page."""
    left = []
    for legend in re.findall(r"<legend>(.*?)</legend>", page, re.S):
        name = _text(re.sub(r"<small>.*?</small>", "", legend, flags=re.S))
        if name in ENGLISH_FIELDS:
            left.append(f"field name {name!r}")
    shown = _text(page)
    from service.rules.lockdown.names import table

    for en, pl in table()["item"].values():  # items listed by their English names where Polish prints another
        if pl and pl != en and f"<kbd></kbd>{en}</button>" in page:
            left.append(f"item {en!r}")
    for step in LOCKDOWN.round_procedure(state):  # the event phase's steps
        if step["label"] in shown:
            left.append(f"procedure step {step['label']!r}")
    for e in LOCKDOWN.next_inputs(state):  # the rules' own notes, with names and numbers, are English
        if e.note and e.note[:40] in shown:
            left.append(f"note {e.note!r}")
        for f in FACTS[e.type].fields:
            if len(f.doc) > 25 and f.doc[:40] in shown:
                left.append(f"hint {e.type}.{f.name}: {f.doc[:40]!r}")
    return left


def _state(archive, gid):
    return archive.games.get_game(gid)  # the aggregate; the fold below


def _folded(client, gid):
    from web.replays import replay_of

    with client.application.app_context():
        archive = client.application.config["ARCHIVE"]
        _game, rp = replay_of(archive, gid, corrected=True)
        return rp.head.state


def _record(client, gid, facts):
    r = client.post(f"/api/games/{gid}/facts", json={"facts": facts})
    assert r.status_code in (200, 201), r.get_data(as_text=True)[:500]


def test_the_polish_recorder_leaves_no_english_field_name_note_or_refusal(client, archive):
    header, facts = generated(seed=3, players=2, max_rounds=2)
    game = archive.games.create_game(GameHeaderSchema().load(header))
    gid = game.id
    # where to look: setup, the first move of round 1, the event phase, a refusal
    first_move = next(i for i, f in enumerate(facts) if f["type"] in ("CharacterMoved", "CharacterMovedCarefully"))
    event = next(i for i, f in enumerate(facts) if f["type"] in ("TimeAdvanced", "CssTokenRevealed"))
    looked = 0
    refused_page = None
    for upto in (0, 1, first_move, event, event + 1):
        if upto > looked:
            _record(client, gid, facts[looked:upto])
        looked = upto
        page = client.get(f"/games/{gid}/record?lang=pl").get_data(as_text=True)
        state = _folded(client, gid)
        assert _english_left(page, state) == [], f"after {upto} facts"
        assert 'lang="pl"' in page
        rules = json.loads(html.unescape(re.search(r"data-rules='([^']*)'", page).group(1)))
        assert rules["out-of-turn"] == "Teraz jest tura innego gracza."
        if upto == event:  # the event phase's procedure is listed, in Polish
            assert "znacznik czasu o 1 pole w prawo" in page and "time token 1 space right" not in page
        if upto == first_move:  # a move's form: the legends in Polish; the English page is what the check catches
            assert "<legend>do pomieszczenia" in page and "<legend>korytarz" in page and "<legend>to room" not in page
            english = client.get(f"/games/{gid}/record?lang=en").get_data(as_text=True)
            assert "<legend>to room" in english and "data-rules='{}'" in english  # English: the rules' own messages
            assert any(x.startswith("field name") for x in _english_left(english, state))
            assert any(x.startswith("note") for x in _english_left(english, state))

            refused_page = page
    page = refused_page
    # a refused fact: the API answers in English (an interface); the Polish page holds the rule's Polish sentence
    # (a move by the other player during the event phase: refused as the player phase is over)
    move = facts[first_move]
    r = client.post(f"/api/games/{gid}/facts", json={"facts": [move]})
    assert r.status_code == 422, r.get_data(as_text=True)
    codes = [v["rule"] for v in r.get_json()["violations"]]
    english_messages = [v["message"] for v in r.get_json()["violations"]]
    rules = json.loads(html.unescape(re.search(r"data-rules='([^']*)'", page).group(1)))
    for code, message in zip(codes, english_messages):
        assert rules.get(code), f"no Polish sentence for {code}"
        assert message not in rules[code]


def test_a_flagged_fact_is_told_in_polish_in_the_replay(client, archive):
    header, facts = generated(seed=3, players=2, max_rounds=1)
    game = archive.games.create_game(GameHeaderSchema().load({**header, "strict": False}))
    first_move = next(i for i, f in enumerate(facts) if f["type"] == "CharacterMoved")
    _record(client, game.id, facts[:first_move])
    move = facts[first_move]
    wrong = {**move, "actor": 2 if move["actor"] == 1 else 1}
    r = client.post(f"/api/games/{game.id}/facts", json={"facts": [wrong]})
    assert r.status_code in (200, 201)  # lenient: stored with a flag
    seq = first_move + 1
    english_messages = [v["message"] for v in client.get(f"/api/games/{game.id}/state?step={seq}").get_json()["violations"]]
    assert english_messages
    page = client.get(f"/games/{game.id}/step/{seq}?lang=pl").get_data(as_text=True)
    flagged = re.search(r'<ul class="violations">(.*?)</ul>', page, re.S)
    assert flagged, page[:2000]
    told = _text(flagged.group(1))
    assert "Teraz jest tura innego gracza." in told
    for message in english_messages:
        assert message not in told
    english = client.get(f"/games/{game.id}/step/{seq}?lang=en").get_data(as_text=True)
    assert "turn, not" in _text(re.search(r'<ul class="violations">(.*?)</ul>', english, re.S).group(1))


def test_every_violation_code_and_field_has_a_polish_name():
    import ast
    from pathlib import Path

    codes: set[str] = set()
    for path in list(Path("service/rules/lockdown").glob("*.py")) + [Path("service/rules/replay.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("V", "Violation"):
                first = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "rule"), None)
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    codes.add(first.value)
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "").endswith("_RULE") for t in
                                                    getattr(node.targets[0], "elts", node.targets)):
                codes.update(v.value for v in getattr(node.value, "elts", [node.value]) if isinstance(v, ast.Constant))
            if isinstance(node, ast.Tuple) and len(node.elts) == 3 and isinstance(node.elts[0], ast.Constant) \
                    and isinstance(node.elts[0].value, str) and node.elts[0].value.endswith("-not-due"):
                codes.add(node.elts[0].value)  # checks._not_due's table
    assert len(codes) > 150
    missing = sorted(c for c in codes if not LOCKDOWN.display_name("violation", c, "pl"))
    assert not missing, f"violation codes without a Polish sentence in data/recorder_words.json: {missing}"
    assert all(LOCKDOWN.display_name("violation", c, "en") is None for c in codes)  # English: the rules' message
    fields = {f.name for spec in FACTS.values() for f in spec.fields}
    no_name = sorted(f for f in fields if not WORDS["fields"].get(f, ["", ""])[1])
    no_hint = sorted(f for f in fields if not WORDS["field_docs"].get(f))
    assert not no_name and not no_hint, (no_name, no_hint)
    no_note = sorted(t for t in FACTS if not LOCKDOWN.display_name("fact_note", t, "pl"))
    assert not no_note, no_note
    from service.rules.lockdown.inputs import ROUND_PROCEDURE

    assert all(LOCKDOWN.display_name("procedure_step", step, "pl") for step, _fact, _label in ROUND_PROCEDURE)


def test_action_cards_are_listed_and_every_recorded_card_name_still_resolves_or_stays_free_text():
    # the names games and tests recorded (demo games, the generator, the faq tests) name the listed card they mean
    for name, card in [("Clean Up", "clean_up"), ("Thorough Cleaning", "clean_up"), ("Gruntowne sprzątanie", "clean_up"),
                       ("Repair", "repairs"), ("Repairs", "repairs"), ("Interruption", "interruption"),
                       ("Ogień osłonowy", "covering_fire"), ("Odpoczynek", "rest"), ("Rest", "rest"),
                       ("Search", "search"), ("Quarantine", "quarantine")]:
        assert ACTION_CARDS.resolve(name).id == card, name
    # a card the sources do not list (an original Nemesis card) is still a well-shaped fact
    from service.rules.lockdown.facts import KINDS

    assert KINDS["action_card"](None, "Adrenaline") is None and KINDS["action_card"](None, 3) is not None
    assert LOCKDOWN.display_name("action_card", "Clean Up", "pl") == "Gruntowne sprzątanie"
    assert "Wycieczka po bazie" in LOCKDOWN.names("action_card", "facility_tour")


def test_the_action_card_picker_offers_the_real_cards_and_finds_them_by_polish_name(client, archive):
    header, facts = generated(seed=3, players=2, max_rounds=1)
    game = archive.games.create_game(GameHeaderSchema().load(header))
    first_move = next(i for i, f in enumerate(facts) if f["type"] == "CharacterMoved")
    _record(client, game.id, facts[:first_move])
    page = client.get(f"/games/{game.id}/record/panel?lang=pl").get_data(as_text=True)
    form = re.search(r'<form class="fact-form" data-offer="\d+" data-type="ActionCardPlayed".*?</form>', page, re.S)
    assert form, "ActionCardPlayed is offered in the player phase"
    picks = re.findall(r'<button type="button" class="value seen-value pick" data-value="([^"]+)"'
                       r'(?: data-aliases="([^"]*)")?[^>]*><kbd></kbd>([^<]+)</button>', form.group(0))
    values = {json.loads(html.unescape(v)) for v, _a, _l in picks}
    assert values == {c.en for c in ACTION_CARDS}  # every listed card, recorded by its English name
    labels = {html.unescape(label) for _v, _a, label in picks}
    assert {"Gruntowne sprzątanie", "Przeszukanie", "Wycieczka po bazie"} <= labels  # named as printed
    # the search matches the label and the aliases, as record.js does: a Polish name finds the card
    def search(term):
        return [json.loads(html.unescape(v)) for v, a, label in picks
                if term.lower() in (html.unescape(label) + " " + html.unescape(a)).lower()]
    assert search("sprzątanie") == ["Clean Up"]
    assert search("Wycieczka") == ["Facility Tour"]
    english = client.get(f"/games/{game.id}/record/panel?lang=en").get_data(as_text=True)
    assert 'data-aliases="Clean Up · Gruntowne sprzątanie · Thorough Cleaning"' in english or \
        "Gruntowne sprzątanie" in english  # the Polish name finds the card on the English page too


def test_listed_items_and_colours_are_named_as_printed_in_polish_and_stay_english_in_english():
    from service import i18n
    from service.rules.base import Seat, Setup
    from web.record import Labels

    state = LOCKDOWN.initial_state(Setup(players=(Seat(1, "Ann"),), mode="solo"))
    with i18n.language("pl"):
        label = Labels("lockdown", state, {1: "Ann"})
        assert label("text", "Flashlight") == "Latarka"  # RoomSearched.kept lists items by their English names
        assert label("colour", "red") == "Przedmioty czerwone (militarne)"
        assert label("text", "a note nobody names") == "a note nobody names"
        assert label.procedure("time", "time token 1 space right") == "znacznik czasu o 1 pole w prawo"
    label = Labels("lockdown", state, {1: "Ann"})
    assert (label("text", "Flashlight"), label("colour", "red")) == ("Flashlight", "red")
    assert label.procedure("time", "time token 1 space right") == "time token 1 space right"


def _consequence_codes() -> dict[str, set[str]]:
    """Every consequence code the rules build (``C("code", text, **data)``) with the data keys all its calls pass."""
    import ast
    from pathlib import Path

    codes: dict[str, set[str]] = {}
    for path in Path("service/rules/lockdown").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "C" and node.args \
                    and isinstance(node.args[0], ast.Constant):
                keys = {k.arg for k in node.keywords}
                codes[node.args[0].value] = codes.get(node.args[0].value, keys) & keys
    return codes


def test_every_consequence_code_has_a_polish_sentence_whose_particulars_it_carries():
    codes = _consequence_codes()
    assert len(codes) > 150 and "event-phase" in codes
    missing = sorted(c for c in codes if not LOCKDOWN.display_name("consequence", c, "pl"))
    assert not missing, f"consequence codes without a Polish sentence in data/recorder_words.json: {missing}"
    assert all(LOCKDOWN.display_name("consequence", c, "en") is None for c in codes)  # English: the rules' text
    needs = {"who": "seat", "room": "room", "to_room": "to_room", "round": "round"}
    for code, keys in codes.items():  # a sentence names only what every consequence of its code carries
        for name in re.findall(r"%\((\w+)\)s", LOCKDOWN.display_name("consequence", code, "pl")):
            assert name in needs and needs[name] in keys, (code, name, keys)


def test_the_rules_consequences_are_told_in_polish_in_the_replay_and_stay_english_in_the_api(client, archive):
    from service import i18n
    from web.i18n import translations
    from web.replays import replay_of

    header, facts = generated(seed=3, players=2, max_rounds=2)
    game = archive.games.create_game(GameHeaderSchema().load(header))
    _record(client, game.id, facts)
    folded = replay_of(archive, game.id, corrected=True)
    with i18n.language("en"):
        english = {d for e in folded.story.entries for d in e.details}
    with i18n.language("pl", translations("pl")):
        polish = [(e.seq, d) for e in folded.story.entries for d in e.details]
    assert "Everyone has passed: the event phase begins." in english
    assert polish and not [d for _seq, d in polish if d in english]
    assert any("(nieodkryte)" in d for _s, d in polish) and not any("unexplored" in d for _s, d in polish)
    seq = next(s for s, d in polish if d == "Wszyscy spasowali: zaczyna się faza wydarzeń.")
    assert any(d.startswith("Zaczyna się runda 1") for _s, d in polish)
    page = client.get(f"/games/{game.id}/step/{seq}?lang=pl").get_data(as_text=True)
    told = _text(re.search(r'<ul class="consequences">(.*?)</ul>', page, re.S).group(1))
    assert "Wszyscy spasowali: zaczyna się faza wydarzeń." in told and "Everyone has passed" not in told
    api = client.get(f"/api/games/{game.id}/state?step={seq}", headers={"Accept-Language": "pl"}).get_json()
    assert "Everyone has passed: the event phase begins." in [c["text"] for c in api["consequences"]]


def test_the_new_game_form_is_polish_including_how_it_is_recorded(client):
    page = client.get("/games/new?lang=pl").get_data(as_text=True)
    form = _text(re.search(r'<form class="new-game".*?</form>', page, re.S).group(0))
    assert "Sposób zapisu" in form and "Zapisana po fakcie" in form
    assert "How it is recorded" not in form and "Recorded after the fact" not in form
    english = _text(re.search(r'<form class="new-game".*?</form>', client.get("/games/new?lang=en").get_data(as_text=True),
                              re.S).group(0))
    assert "How it is recorded" in english and "Recorded after the fact (from memory" in english


def test_the_position_strip_reads_as_polish_phrases(client, archive):
    header, facts = generated(seed=3, players=2, max_rounds=2)
    game = archive.games.create_game(GameHeaderSchema().load(header))
    first_move = next(i for i, f in enumerate(facts) if f["type"] in ("CharacterMoved", "CharacterMovedCarefully"))
    event = next(i for i, f in enumerate(facts) if f["type"] in ("TimeAdvanced", "CssTokenRevealed"))
    _record(client, game.id, facts[:first_move])

    def strip(lang):
        page = client.get(f"/games/{game.id}/record/panel?lang={lang}").get_data(as_text=True)
        return " ".join(_text(re.search(r'<div class="where-now">(.*?)</div>', page, re.S).group(1)).split())

    assert strip("pl").startswith("Runda 1 faza graczy · tura")
    assert strip("en").startswith("Round 1 player phase · turns")
    step = client.get(f"/games/{game.id}/step/{first_move}?lang=pl").get_data(as_text=True)
    assert "Faza graczy · tura" in " ".join(_text(re.search(r'<div class="where">(.*?)</div>', step, re.S).group(1)).split())
    _record(client, game.id, facts[first_move:event])
    assert strip("pl").startswith("Runda 1 faza wydarzeń")
    assert "graczy · tury" not in strip("pl")
